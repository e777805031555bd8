"""Files sent as text (event files, TRF, PGN) that are not text.

A reader given a binary file may find nothing wrong with it (python-chess reads almost
anything as a game without moves), so the routes refuse one first: a text file holds no
control characters but tab, line ends, vertical tab, form feed and a final Ctrl-Z (old
DOS programs end their files with one).
"""

from __future__ import annotations

import re

from relay.domain.errors import InvalidInputError, Problem

_BINARY = re.compile(r"[\x00-\x08\x0e-\x19\x1b-\x1f\x7f]|\x1a(?!\s*\Z)")


class NotTextError(ValueError, InvalidInputError):
    """A file with characters no text file holds."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line

    def problem(self) -> Problem:
        return Problem(str(self), line=self.line)


def text_file(text: str) -> str:
    """``text`` as it is, if it is text; NotTextError, naming the first character that is
    not, if it is not."""
    found = _BINARY.search(text)
    if found is None:
        return text
    line = text.count("\n", 0, found.start()) + 1
    raise NotTextError(
        f"line {line}: control character U+{ord(found[0]):04X}: this is a binary file, not text",
        line,
    )
