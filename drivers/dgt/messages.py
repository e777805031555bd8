"""DGT message ids, command bytes and piece codes, and decoders for message payloads.

Decoders take the payload of one :class:`~drivers.dgt.frames.Frame` and return a value or
raise :class:`MessageError`; they never see the wire.
"""

from __future__ import annotations

from enum import IntEnum

from drivers.events import Position


class Command(IntEnum):
    """Single-byte commands, host to board (single-board mode)."""

    SEND_RESET = 0x40
    SEND_CLK = 0x41
    SEND_BRD = 0x42
    SEND_UPDATE = 0x43
    SEND_UPDATE_BRD = 0x44
    RETURN_SERIALNR = 0x45
    RETURN_BUSADRES = 0x46
    SEND_TRADEMARK = 0x47
    SEND_EE_MOVES = 0x49
    TO_BUSMODE = 0x4A
    SEND_UPDATE_NICE = 0x4B
    SEND_BATTERY_STATUS = 0x4C
    SEND_VERSION = 0x4D
    RETURN_LONG_SERIALNR = 0x55


class MessageId(IntEnum):
    """Message ids, board to host."""

    BOARD_DUMP = 0x86
    BWTIME = 0x8D
    FIELD_UPDATE = 0x8E
    EE_MOVES = 0x8F
    BUSADRES = 0x90
    SERIALNR = 0x91
    TRADEMARK = 0x92
    VERSION = 0x93
    BATTERY_STATUS = 0xA0
    LONG_SERIALNR = 0xA2


SERIALNR_LENGTH = 5
LONG_SERIALNR_LENGTH = 10
VERSION_LENGTH = 2
BUSADRES_LENGTH = 2
#: BATTERY_STATUS data, as Bluetooth boards send it (the header's own size constant is wrong).
BATTERY_STATUS_LENGTH = 9


class MessageError(ValueError):
    """A message had the right frame but a payload that makes no sense."""


#: DGT piece code -> FEN letter. Codes 13-15 are result markers, not chessmen: they read
#: as the marker symbols of :data:`drivers.events.MARKER_SYMBOLS`.
PIECE_LETTERS: dict[int, str | None] = {
    0: None,
    1: "P",
    2: "R",
    3: "N",
    4: "B",
    5: "K",
    6: "Q",
    7: "p",
    8: "r",
    9: "n",
    10: "b",
    11: "k",
    12: "q",
    13: "=",
    14: "1",
    15: "0",
}
PIECE_CODES: dict[str | None, int] = {letter: code for code, letter in PIECE_LETTERS.items()}

BOARD_DUMP_LENGTH = 64
FIELD_UPDATE_LENGTH = 2


def dgt_to_square(index: int) -> int:
    """DGT square index (0 = a8, 7 = h8, 63 = h1) to a python-chess square (0 = a1)."""
    rank_from_top, file = divmod(index, 8)
    return (7 - rank_from_top) * 8 + file


def square_to_dgt(square: int) -> int:
    """python-chess square to DGT square index; the mapping is its own inverse."""
    return dgt_to_square(square)


def _piece(code: int) -> str | None:
    try:
        return PIECE_LETTERS[code]
    except KeyError:
        raise MessageError(f"unknown piece code {code}") from None


def decode_board_dump(payload: bytes) -> Position:
    """A BOARD_DUMP payload (64 piece codes, a8 first) as a :data:`Position` (a1 first)."""
    if len(payload) != BOARD_DUMP_LENGTH:
        raise MessageError(f"board dump of {len(payload)} bytes, expected {BOARD_DUMP_LENGTH}")
    pieces = [_piece(code) for code in payload]
    return tuple(pieces[dgt_to_square(square)] for square in range(64))


def decode_field_update(payload: bytes) -> tuple[int, str | None]:
    """A FIELD_UPDATE payload as (python-chess square, piece letter or None)."""
    if len(payload) != FIELD_UPDATE_LENGTH:
        raise MessageError(f"field update of {len(payload)} bytes, expected 2")
    index, code = payload
    if index >= 64:
        raise MessageError(f"field update for square index {index}")
    return dgt_to_square(index), _piece(code)


def decode_ascii(payload: bytes, length: int | None = None) -> str:
    """SERIALNR, LONG_SERIALNR and TRADEMARK payloads: printable ASCII."""
    if length is not None and len(payload) != length:
        raise MessageError(f"{len(payload)} characters, expected {length}")
    if any(b < 0x20 and b not in (0x0A, 0x0D) for b in payload):
        raise MessageError("control characters in a text message")
    return payload.decode("ascii").strip()


def decode_version(payload: bytes) -> tuple[int, int]:
    if len(payload) != VERSION_LENGTH:
        raise MessageError(f"version of {len(payload)} bytes, expected {VERSION_LENGTH}")
    return payload[0], payload[1]


def decode_bus_address(payload: bytes) -> int:
    if len(payload) != BUSADRES_LENGTH:
        raise MessageError(f"bus address of {len(payload)} bytes, expected {BUSADRES_LENGTH}")
    return payload[0] << 7 | payload[1]


def decode_battery(payload: bytes) -> tuple[int, bool]:
    """Percent left and whether the battery is charging."""
    if len(payload) < BATTERY_STATUS_LENGTH:
        raise MessageError(f"battery status of {len(payload)} bytes")
    percent = payload[0]
    if percent > 100:
        raise MessageError(f"battery at {percent} %")
    return percent, bool(payload[8] & 0x01)
