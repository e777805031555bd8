"""Where the tests' data files are: ``tests/data/`` of this repository (its README.md says
what each file is, where it comes from and under what terms)."""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
#: Verbatim extracts of the seed documents' tables, each with a note on where it comes from.
SEED_EXTRACTS = DATA / "seeds"


def seed_extract(name: str) -> str:
    """The text of ``tests/data/seeds/<name>`` as the seed prints it: without the note at its
    top (the lines that start with ``#``) and the blank line after the note."""
    lines = (SEED_EXTRACTS / name).read_text(encoding="utf-8").splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if not line.startswith("#"))
    if start == 0 or lines[start] != "\n":
        raise ValueError(f"{name}: no note, or no blank line after it")
    return "".join(lines[start + 1 :])
