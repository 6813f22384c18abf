"""Sampling text from a trained model: the one home of the trainer's end-of-run sample,
``minigrad-train --sample`` and ``minigrad-sample``.

:func:`generate_text` turns a prompt into ids with the run's tokenizer (characters or BPE),
extends them with ``GPT.generate`` and decodes the result; :func:`print_samples` prints
several samples, with a count on a terminal.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator

import numpy as np

import minigrad

from .progress import Counter

# Tokens per model.generate call when sampling: the step of the progress count.
SAMPLE_CHUNK = 25


@contextlib.contextmanager
def one_thread() -> Iterator[None]:
    """Run the fast backend's kernels on the calling thread alone, restoring the thread
    count afterwards (``minigrad.set_num_threads``; nothing changes on the reference
    backend, whose products are few and large while sampling is tiny calls).

    Why sampling wants it: decoding one sequence is tens of thousands of tiny kernel calls
    (about sixty per character), each a few microseconds of work. Sharing such a call over
    two threads gains little on an idle machine, but when other processes hold the cores
    every call waits until its second thread is scheduled again: on a 2-core machine while
    other jobs ran, 50 characters past the context window (a full-block forward each) took
    23.4 s on two threads, 0.6 s on one.
    """
    if minigrad.get_backend() != "fast":
        yield
        return
    before = minigrad.get_num_threads()
    minigrad.set_num_threads(1)
    try:
        yield
    finally:
        minigrad.set_num_threads(before)


def generate_text(model, vocab, prompt: str, max_new_tokens: int,
                  temperature: float, top_k: int | None,
                  report: Callable[[int], None] | None = None) -> str:
    """``prompt`` followed by ``max_new_tokens`` sampled tokens, decoded by ``vocab`` (a
    CharVocab or a BPE tokenizer: anything with encode and decode).

    ``model.generate`` (a key/value cache while the text fits the context window, a full
    window's forward per token after it) runs in chunks of SAMPLE_CHUNK tokens, each
    continuing everything drawn so far, on one thread (:func:`one_thread`); ``report(n)``
    is called after each chunk with the number of tokens drawn so far.
    """
    ids = np.asarray(vocab.encode(prompt), dtype=np.int64)[None, :]
    if top_k is not None:
        top_k = min(top_k, model.config.vocab_size)
    model.eval()
    with minigrad.no_grad(), one_thread():
        for done in range(0, max_new_tokens, SAMPLE_CHUNK):
            new = min(SAMPLE_CHUNK, max_new_tokens - done)
            out = model.generate(ids, new, temperature=temperature, top_k=top_k)
            ids = np.asarray(getattr(out, "data", out))
            if report is not None:
                report(done + new)
    return decode_known(vocab, ids[0])


def decode_known(vocab, ids) -> str:
    """``vocab.decode(ids)``, except that ids the tokenizer does not have (a model whose
    vocabulary is larger than its tokenizer's, as a random or padded GPT-2 with a small BPE)
    show as U+FFFD instead of failing or vanishing."""
    n, parts, known = len(vocab), [], []
    for i in map(int, ids):
        if i < n:
            known.append(i)
            continue
        parts += [vocab.decode(known), "\ufffd"]
        known = []
    return "".join(parts) + vocab.decode(known)


def print_samples(model, vocab, prompt: str, num_samples: int, max_new_tokens: int,
                  temperature: float, top_k: int | None) -> None:
    """Print ``num_samples`` samples separated by dashed lines (a count while each is drawn,
    on a terminal only: in a log the samples follow the header line directly)."""
    for i in range(num_samples):
        if i:
            print("-" * 40)
        counter = (Counter(f"sample {i + 1}/{num_samples}", max_new_tokens)
                   if sys.stdout.isatty() else None)
        text = generate_text(model, vocab, prompt, max_new_tokens, temperature, top_k,
                             report=counter and counter.update)
        if counter is not None:
            counter.done()
        print(text)


def resolve_prompt(prompt: str, vocab, explicit: set[str], parser) -> str:
    """The prompt to sample from: unknown characters are an error, except that the default
    prompt (a newline) falls back to the first vocabulary character for texts without one;
    a prompt that encodes to no ids is an error too (``parser.error``: exit code 2)."""
    missing = vocab.unknown(prompt)
    if missing and "prompt" not in explicit:
        return vocab.chars[0]
    if missing:
        shown = ", ".join(repr(c) for c in missing[:10])
        parser.error(f"--prompt has characters not in the vocabulary: {shown} "
                     f"(the vocabulary is {vocab.chars!r})")
    if len(vocab.encode(prompt)) == 0:
        parser.error(f"--prompt {prompt!r} encodes to no tokens")
    return prompt
