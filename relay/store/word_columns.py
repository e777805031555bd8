"""A text column holding a word of one of the domain's vocabularies (a bye kind, a pairing
system): stored as the word itself, read back as the vocabulary's member."""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Any, TypeVar

from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator
from sqlmodel import AutoString

W = TypeVar("W", bound=StrEnum)


class WordColumn(TypeDecorator[W]):
    """The column type of a field whose values ``parse`` reads (``ByeKind.parse``): text in
    the database, so the stored words stay as they always were (SQLAlchemy's own ``Enum``
    would store the members' names)."""

    impl = AutoString
    cache_ok = True

    def __init__(self, parse: Callable[[object], W]) -> None:
        super().__init__()
        self.parse = parse

    def process_bind_param(self, value: W | None, dialect: Dialect) -> str | None:
        """The word written; one that is none of the vocabulary's is refused before it is
        stored (:class:`~relay.domain.vocabulary.UnknownWordError`)."""
        return None if value is None else self.parse(value).value

    def process_result_value(self, value: Any | None, dialect: Dialect) -> W | None:
        return None if value is None else self.parse(value)
