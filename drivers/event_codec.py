"""Drivers' events and clock commands as JSON-ready values, and back, for a link between
two programs (the venue agent and the hub: docs/venue-agent.md).

Each value is an object with ``kind`` (the class name, e.g. ``"FieldChange"``) and its fields.
Enums travel as their values, tuples as lists, nested events and commands as objects of
their own. Decoding checks every field against its declared type, so bytes from a link are
either exactly an event or a :class:`WireError` naming what is wrong; nothing else escapes.
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from enum import Enum
from typing import Any

from drivers import events

__all__ = ["KINDS", "WireError", "decode", "encode"]

#: Every class that may cross a link, by its name.
KINDS: dict[str, type[Any]] = {
    cls.__name__: cls
    for cls in (
        *typing.get_args(events.BoardEvent),
        *typing.get_args(events.ClockCommand),
        events.ClockSide,
    )
}

_MAX_DEPTH = 8
#: The largest whole number a link carries: JSON readers elsewhere hold numbers as doubles.
_MAX_INT = 2**53


class WireError(ValueError):
    """A value that is not an event or command of the drivers' contract."""


def encode(value: Any) -> Any:
    """``value`` (an event, a command, or one of their fields) as JSON-ready values."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return {"kind": type(value).__name__, **fields}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple):
        return [encode(item) for item in value]
    if isinstance(value, float) and not math.isfinite(value):
        raise WireError(f"{value} has no JSON form")
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > _MAX_INT:
        raise WireError(f"{value} is beyond the 2**53 a link carries")
    return value


def decode(data: Any) -> Any:
    """The event or command that :func:`encode` gave ``data`` for."""
    return _object(data, "event", 0)


def _object(data: Any, where: str, depth: int) -> Any:
    if depth > _MAX_DEPTH:
        raise WireError(f"{where}: nested too deep")
    if not isinstance(data, dict):
        raise WireError(f"{where}: an object with a kind, not {type(data).__name__}")
    kind = data.get("kind")
    cls = KINDS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise WireError(f"{where}: unknown kind {kind!r}")
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = set(data) - set(fields) - {"kind"}
    if unknown:
        raise WireError(f"{kind}: unknown fields {', '.join(sorted(unknown))}")
    values: dict[str, Any] = {}
    for name, field in fields.items():
        if name in data:
            values[name] = _typed(data[name], hints[name], f"{kind}.{name}", depth + 1)
        elif field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING:
            raise WireError(f"{kind}: {name} is missing")
    return cls(**values)


def _typed(data: Any, hint: Any, where: str, depth: int) -> Any:
    origin = typing.get_origin(hint)
    if origin is typing.Union or origin is types.UnionType:
        return _union(data, typing.get_args(hint), where, depth)
    if origin is tuple:
        return _tuple(data, typing.get_args(hint), where, depth)
    if isinstance(hint, type) and issubclass(hint, Enum):
        try:
            return hint(data)
        except ValueError:
            raise WireError(f"{where}: {data!r} is not a {hint.__name__}") from None
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        decoded = _object(data, where, depth)
        if not isinstance(decoded, hint):
            raise WireError(f"{where}: a {hint.__name__}, not {type(decoded).__name__}")
        return decoded
    return _plain(data, hint, where)


def _union(data: Any, options: tuple[Any, ...], where: str, depth: int) -> Any:
    if data is None:
        if type(None) in options:
            return None
        raise WireError(f"{where}: may not be null")
    if isinstance(data, dict):
        decoded = _object(data, where, depth)
        if any(isinstance(decoded, option) for option in options if isinstance(option, type)):
            return decoded
        raise WireError(f"{where}: {type(decoded).__name__} does not belong here")
    present = [option for option in options if option is not type(None)]
    if len(present) == 1:
        return _typed(data, present[0], where, depth)
    for option in present:
        try:
            return _typed(data, option, where, depth)
        except WireError:
            continue
    raise WireError(f"{where}: {data!r} fits none of its types")


def _tuple(data: Any, args: tuple[Any, ...], where: str, depth: int) -> tuple[Any, ...]:
    if not isinstance(data, list):
        raise WireError(f"{where}: a list, not {type(data).__name__}")
    if len(args) == 2 and args[1] is Ellipsis:
        return tuple(_typed(item, args[0], f"{where}[{n}]", depth) for n, item in enumerate(data))
    if len(data) != len(args):
        raise WireError(f"{where}: {len(args)} items, not {len(data)}")
    return tuple(
        _typed(item, arg, f"{where}[{n}]", depth)
        for n, (item, arg) in enumerate(zip(data, args, strict=True))
    )


def _plain(data: Any, hint: Any, where: str) -> Any:
    if hint is bool:
        ok = isinstance(data, bool)
    elif hint is int:
        ok = isinstance(data, int) and not isinstance(data, bool)
        if ok and not -_MAX_INT <= data <= _MAX_INT:
            raise WireError(f"{where}: a whole number up to 2**53, not {str(data)[:40]}")
    elif hint is float:
        ok = isinstance(data, int | float) and not isinstance(data, bool)
        if ok:
            try:
                data = float(data)
            except OverflowError:  # an integer too long for a float
                data = math.inf
            if not math.isfinite(data):
                raise WireError(f"{where}: {str(data)[:40]} is not a finite number")
    elif hint is str:
        ok = isinstance(data, str)
    else:
        raise WireError(f"{where}: no wire form for {hint!r}")
    if not ok:
        raise WireError(f"{where}: a {hint.__name__}, not {type(data).__name__}")
    return data
