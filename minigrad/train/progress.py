"""A dependency-free training progress display.

On a terminal it is one line that rewrites itself (``\\r``), at most 10 times a second; when the
output goes to a file or a pipe (a log, CI, a test), rewriting makes no sense, so it prints a
plain line only every ``plain_every`` iterations (and at the last one). Other messages (eval
results) go through :meth:`Progress.message`, which first clears the bar on a terminal.
:class:`Counter` is the same idea for a count of done items (the characters of a sample).
"""

from __future__ import annotations

import sys
import time
from typing import TextIO


def format_duration(seconds: float) -> str:
    """``75`` -> ``'1:15'``, ``3725`` -> ``'1:02:05'``."""
    seconds = max(0, round(seconds))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


# Widest progress line: a terminal of 80 columns wraps a line that fills all 80 (the cursor
# moves on), and each redraw would then leave a line behind.
LINE_WIDTH = 79


class Progress:
    """Shows iteration, loss, learning rate, ms per iteration and ETA for a run of ``total``
    iterations, in at most LINE_WIDTH columns: one line per redraw in an 80-column terminal
    (tokens/s is in the summary at the end and in metrics.json). Speed and ETA use a moving
    average of the time per iteration: the plain mean of the first ``1/smoothing`` samples,
    then an exponential average with weight ``smoothing`` on the newest, so one slow iteration
    does not swing the ETA. The very first iteration is left out (it pays one-time costs such
    as compiling kernels) unless it is the only one.
    """

    def __init__(
        self,
        total: int,
        stream: TextIO | None = None,
        tty: bool | None = None,
        plain_every: int | None = None,
        smoothing: float = 0.1,
    ) -> None:
        self.total = total
        self.stream = stream if stream is not None else sys.stdout
        self.tty = self.stream.isatty() if tty is None else tty
        self.plain_every = plain_every if plain_every else max(1, total // 10)
        self.smoothing = smoothing
        self.sec_per_iter: float | None = None
        self._samples = 0
        self._bar_shown = False
        self._width = 0
        self._last_draw = -1.0
        self.min_redraw_seconds = 0.1  # terminal redraws are not free: cap them at 10/s

    def record_time(self, seconds: float) -> None:
        """Fold one iteration's duration into the moving average."""
        self._samples += 1
        if self.sec_per_iter is None or self._samples == 2:  # 2nd sample replaces the 1st
            self.sec_per_iter = seconds
            return
        weight = max(self.smoothing, 1.0 / (self._samples - 1))
        self.sec_per_iter += weight * (seconds - self.sec_per_iter)

    def line(self, it: int, loss: float, lr: float) -> str:
        """The status text after iteration ``it`` (1-based count of finished steps)."""
        width = len(str(self.total))
        text = f"iter {it:>{width}}/{self.total} | loss {loss:.4f} | lr {lr:.2e}"
        if self.sec_per_iter and self._samples >= 2:
            eta = format_duration((self.total - it) * self.sec_per_iter)
            text += f" | {self.sec_per_iter * 1000:.1f} ms/it | ETA {eta}"
        return text

    def update(self, it: int, loss: float, lr: float) -> None:
        """Show the status after iteration ``it``."""
        if self.tty:
            now = time.perf_counter()
            if now - self._last_draw < self.min_redraw_seconds and it != self.total:
                return
            self._last_draw = now
            text = self.line(it, loss, lr)
            pad = " " * max(0, self._width - len(text))
            self.stream.write("\r" + text + pad)
            self._width = len(text)
            self._bar_shown = True
            self.stream.flush()
        elif it % self.plain_every == 0 or it == self.total:
            self.stream.write(self.line(it, loss, lr) + "\n")
            self.stream.flush()

    def message(self, text: str) -> None:
        """Print ``text`` on its own line (clearing the bar first on a terminal)."""
        self.clear()
        self.stream.write(text + "\n")
        self.stream.flush()

    def clear(self) -> None:
        """Remove the bar from the terminal line (no-op when not a TTY)."""
        if self.tty and self._bar_shown:
            self.stream.write("\r" + " " * self._width + "\r")
            self._bar_shown = False
            self._width = 0
            self.stream.flush()


class Counter:
    """``label: done/total`` for work that is counted, not timed per iteration (sampling).

    On a terminal the count rewrites itself in place and is cleared by :meth:`done`; elsewhere
    (a log, a pipe) it prints ``label...`` once, as a plain line, and nothing more.
    """

    def __init__(self, label: str, total: int, stream: TextIO | None = None,
                 tty: bool | None = None) -> None:
        self.label = label
        self.total = total
        self.stream = stream if stream is not None else sys.stdout
        self.tty = self.stream.isatty() if tty is None else tty
        self._width = 0
        if self.tty:
            self.update(0)
        else:
            self.stream.write(f"{label}...\n")
            self.stream.flush()

    def update(self, done: int) -> None:
        """Show that ``done`` of ``total`` items are finished (terminal only)."""
        if self.tty:
            text = f"{self.label}: {done}/{self.total}"
            self.stream.write("\r" + text + " " * max(0, self._width - len(text)))
            self._width = len(text)
            self.stream.flush()

    def done(self) -> None:
        """Remove the count from the terminal line (no-op when not a TTY)."""
        if self.tty and self._width:
            self.stream.write("\r" + " " * self._width + "\r")
            self._width = 0
            self.stream.flush()
