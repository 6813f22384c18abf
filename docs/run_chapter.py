"""Run the Python code of a docs chapter as a plain script (no notebook needed).

    .venv/bin/python docs/run_chapter.py docs/01_tensor_and_graph.md
    .venv/bin/python docs/run_chapter.py --all          # every chapter, in order
    .venv/bin/python docs/run_chapter.py --list docs/04_attention.md   # show the blocks only

Any Python that can import minigrad will do (the venv's, where the README installs it);
another one gets a one-line error saying so before any block runs.

Every fenced block that opens with three backticks and ``python`` is run, in
order, in one namespace per chapter, so a later block sees the names an
earlier one defined, just as a reader typing along would. A block is skipped
only if the line just before its fence is ``<!-- skip -->``. Blocks of other
languages (``bash``, ``text``) are shown to the reader, never run.

The code runs with the repository root as working directory, so paths like
``minigrad/train/corpus/tinyshakespeare.txt`` work. An error's traceback names the
chapter file and the line in it. ``tests/packaging/test_docs.py`` uses this same
module, so the docs cannot drift from the code without a test failing.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

DOCS = Path(__file__).resolve().parent
REPO = DOCS.parent
SKIP_MARKER = "<!-- skip -->"


@dataclass
class Block:
    """One fenced code block: its source, the line (1-based) where its code starts."""

    code: str
    line: int
    skip: bool


def extract_blocks(text: str) -> list[Block]:
    """The ```python blocks of a Markdown text, in order.

    Raises ValueError if a python fence is never closed (that would silently
    drop the rest of the chapter).
    """
    lines = text.splitlines()
    blocks: list[Block] = []
    i = 0
    prev = ""  # last non-blank line outside code blocks
    while i < len(lines):
        stripped = lines[i].strip()
        if stripped.startswith("```"):
            lang = stripped[3:].strip().lower()
            start = i + 1
            j = start
            while j < len(lines) and lines[j].strip() != "```":
                j += 1
            if j == len(lines):
                raise ValueError(f"code fence opened on line {i + 1} is never closed")
            if lang == "python":
                blocks.append(Block("\n".join(lines[start:j]) + "\n", start + 1,
                                    prev == SKIP_MARKER))
            prev = ""
            i = j + 1
            continue
        if stripped:
            prev = stripped
        i += 1
    return blocks


def run_chapter(path: str | os.PathLike, echo: bool = False) -> dict:
    """Execute every non-skipped python block of the chapter at ``path`` in one namespace.

    Returns the namespace. Exceptions propagate, with tracebacks pointing to
    ``path`` and the chapter's own line numbers.
    """
    path = Path(path).resolve()
    blocks = extract_blocks(path.read_text(encoding="utf-8"))
    namespace: dict = {"__name__": "__chapter__", "__file__": str(path)}
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        for n, block in enumerate(blocks, 1):
            if block.skip:
                if echo:
                    print(f"--- {path.name}: block {n} (line {block.line}) skipped")
                continue
            if echo:
                print(f"--- {path.name}: block {n} (line {block.line})")
            # Pad with newlines so line numbers in tracebacks are the chapter's.
            code = compile("\n" * (block.line - 1) + block.code, str(path), "exec")
            exec(code, namespace)  # noqa: S102 (running the docs' own code is the point)
    finally:
        os.chdir(cwd)
    return namespace


def chapters() -> list[Path]:
    """The chapter files of docs/, in reading order (README.md, the index, first)."""
    files = sorted(p for p in DOCS.glob("*.md") if p.name != "README.md")
    readme = DOCS / "README.md"
    return ([readme] if readme.exists() else []) + files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("chapters", nargs="*", help="Markdown files to run")
    parser.add_argument("--all", action="store_true", help="run every chapter in docs/")
    parser.add_argument("--list", action="store_true", help="print the blocks, do not run them")
    args = parser.parse_args(argv)
    paths = chapters() if args.all else [Path(p) for p in args.chapters]
    if not paths:
        parser.error("name at least one chapter, or pass --all")
    for p in paths:
        if not Path(p).is_file():
            parser.error(f"no such chapter: {p}")
    if not args.list and importlib.util.find_spec("minigrad") is None:
        parser.error(f"this Python ({sys.executable}) cannot import minigrad: run the "
                     f"chapters with the Python it is installed in, e.g. "
                     f".venv/bin/python docs/run_chapter.py (README.md's first command "
                     f"makes that venv)")
    for p in paths:
        if args.list:
            for n, b in enumerate(extract_blocks(Path(p).read_text(encoding="utf-8")), 1):
                flag = " (skipped)" if b.skip else ""
                print(f"# --- {Path(p).name}: block {n}, line {b.line}{flag}\n{b.code}")
            continue
        t0 = time.perf_counter()
        run_chapter(p, echo=True)
        print(f"=== {Path(p).name}: ok in {time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
