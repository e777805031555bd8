"""The byte vocabulary of the DGT wire, board side: ids, framing and checksums.

Pure functions and enums only. Single-board messages are ``id, len_hi7, len_lo7, data…`` with
the total length counting the 3 header bytes; bus replies are ``type, len_hi7, len_lo7,
addr_hi7, addr_lo7, data…, checksum`` with the length counting everything up to and including
the checksum; bus commands are ``cmd, addr_hi7, addr_lo7, checksum``. A checksum is the sum
of the preceding bytes with bit 7 cleared.
"""

from __future__ import annotations

from enum import IntEnum

#: A 14-bit length or address, split into two 7-bit bytes, cannot exceed this.
MAX_14BIT = (1 << 14) - 1


class Command(IntEnum):
    """Host-to-board commands in single-board mode."""

    CLOCK_MESSAGE = 0x2B
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


#: Bytes that are single-board commands (and so switch a board out of bus mode).
SINGLE_BOARD_COMMANDS = frozenset(int(command) for command in Command) - {Command.TO_BUSMODE}


class MessageId(IntEnum):
    """Board-to-host messages in single-board mode."""

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


class BusCommand(IntEnum):
    """Host-to-board commands in bus mode (each framed with an address and a checksum)."""

    SEND_CLK = 0x81
    SEND_BRD = 0x82
    SEND_CHANGES = 0x83
    REPEAT_CHANGES = 0x84
    SET_START_GAME = 0x85
    SEND_FROM_START = 0x86
    PING = 0x87
    END_BUSMODE = 0x88
    RESET = 0x89
    IGNORE_NEXT_BUS_PING = 0x8A
    SEND_VERSION = 0x8B
    SEND_BRD_50B = 0x8C
    SEND_ALL_D = 0x8D


class BusReply(IntEnum):
    """Board-to-host reply types in bus mode."""

    BRD_DUMP = 0x83
    BWTIME = 0x84
    UPDATE = 0x85
    FROM_START = 0x86
    PING = 0x87
    START_GAME_WRITTEN = 0x88
    VERSION = 0x89


#: Bus reply header: type, two length bytes, two address bytes.
BUS_REPLY_HEADER = 5


class FramingError(ValueError):
    """A length or address that does not fit the wire's 14-bit fields."""


def split14(value: int) -> tuple[int, int]:
    """A 14-bit value as its high and low 7-bit halves."""
    if not 0 <= value <= MAX_14BIT:
        raise FramingError(f"{value} does not fit 14 bits")
    return value >> 7, value & 0x7F


def join14(high: int, low: int) -> int:
    return ((high & 0x7F) << 7) | (low & 0x7F)


def checksum(data: bytes) -> int:
    """The bus checksum of ``data``: its byte sum with bit 7 cleared."""
    return sum(data) & 0x7F


def message(message_id: int, data: bytes) -> bytes:
    """A single-board message: id, total length in two 7-bit halves, data."""
    size = len(data) + 3
    if size > MAX_14BIT:
        raise FramingError(f"a message of {size} bytes does not fit the 14-bit length")
    return bytes((message_id, *split14(size))) + data


def bus_reply(reply_type: int, address: int, data: bytes) -> bytes:
    """A bus reply with its length (checksum included) and checksum."""
    size = BUS_REPLY_HEADER + len(data) + 1
    head = bytes((reply_type, *split14(size), *split14(address))) + data
    return head + bytes((checksum(head),))


def bus_command(command: int, address: int) -> bytes:
    """A bus command as a host sends it; the simulator's tests and tools use this."""
    head = bytes((command, *split14(address)))
    return head + bytes((checksum(head),))


def address_of(serial_number: str) -> int:
    """A board's bus address: its decimal serial number as a 14-bit value.

    Five decimal digits can exceed 14 bits; the high bits are lost, as a 14-bit field
    must lose them.
    """
    return int(serial_number) & MAX_14BIT
