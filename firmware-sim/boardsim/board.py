"""The firmware of a single DGT board, sans I/O.

Host commands go in through :meth:`VirtualBoard.receive_data`; the board's messages come out
of :meth:`VirtualBoard.data_to_send`. Pieces are moved with :meth:`VirtualBoard.set_square`,
which reports the change to the host when an update mode is on, as the real board does.
Squares here are DGT indices (0 = a8, 63 = h1) and pieces DGT codes (0 empty, 1-12 pieces).
"""

from __future__ import annotations

from enum import Enum

# Host-to-board commands (single-board mode).
SEND_RESET = 0x40
SEND_BRD = 0x42
SEND_UPDATE = 0x43
SEND_UPDATE_BRD = 0x44
RETURN_SERIALNR = 0x45
SEND_TRADEMARK = 0x47
SEND_UPDATE_NICE = 0x4B
SEND_VERSION = 0x4D
RETURN_LONG_SERIALNR = 0x55

# Board-to-host message ids.
BOARD_DUMP = 0x86
FIELD_UPDATE = 0x8E
SERIALNR = 0x91
TRADEMARK = 0x92
VERSION = 0x93
LONG_SERIALNR = 0xA2

#: The start position in DGT order: a8..h8, a7..h7, ..., a1..h1.
START_POSITION: tuple[int, ...] = (
    (8, 9, 10, 12, 11, 10, 9, 8) + (7,) * 8 + (0,) * 32 + (1,) * 8 + (2, 3, 4, 6, 5, 4, 3, 2)
)


class UpdateMode(Enum):
    """Whether, and how, the board reports changes without being asked."""

    IDLE = "idle"
    UPDATE = "update"
    UPDATE_BOARD = "update-board"
    UPDATE_NICE = "update-nice"


_MODE_COMMANDS = {
    SEND_UPDATE: UpdateMode.UPDATE,
    SEND_UPDATE_BRD: UpdateMode.UPDATE_BOARD,
    SEND_UPDATE_NICE: UpdateMode.UPDATE_NICE,
}


def message(message_id: int, data: bytes) -> bytes:
    """A board message: id, total length in two 7-bit halves, data."""
    size = len(data) + 3
    if size >= 1 << 14:
        raise ValueError(f"a message of {size} bytes does not fit the 14-bit length")
    return bytes((message_id, size >> 7, size & 0x7F)) + data


class VirtualBoard:
    """A DGT board's behaviour on the wire, with no port attached."""

    def __init__(
        self,
        *,
        serial_number: str = "01234",
        version: tuple[int, int] = (1, 7),
        trademark: str = "Digital Game Technology (boardsim)",
    ) -> None:
        if len(serial_number) != 5 or not serial_number.isdigit():
            raise ValueError("a DGT serial number is 5 digits")
        if not all(0 <= part < 0x80 for part in version):
            raise ValueError("version numbers are 7-bit values")
        if not trademark.isascii() or len(trademark) > 200:
            raise ValueError("the trademark is at most 200 ASCII characters")
        self.squares = list(START_POSITION)
        self.mode = UpdateMode.IDLE
        self.serial_number = serial_number
        self.version = version
        self.trademark = trademark
        self.commands_received: list[int] = []
        self._outgoing = bytearray()

    def receive_data(self, data: bytes) -> None:
        """Bytes from the host; each byte is one command in single-board mode."""
        for command in data:
            self.commands_received.append(command)
            self._command(command)

    def data_to_send(self) -> bytes:
        data = bytes(self._outgoing)
        self._outgoing.clear()
        return data

    def set_square(self, index: int, piece: int) -> None:
        """A piece is put on (or, with 0, lifted from) a square."""
        if not 0 <= index < 64 or not 0 <= piece <= 15:
            raise ValueError(f"square {index}, piece {piece}")
        if self.squares[index] == piece:
            return
        self.squares[index] = piece
        if self.mode is not UpdateMode.IDLE:
            self._outgoing += message(FIELD_UPDATE, bytes((index, piece)))

    def set_position(self, squares: list[int] | tuple[int, ...]) -> None:
        """Put a whole position on the board, square by square, a8 first."""
        if len(squares) != 64:
            raise ValueError("a position has 64 squares")
        for index, piece in enumerate(squares):
            self.set_square(index, piece)

    def _command(self, command: int) -> None:
        if command == SEND_RESET:
            self.mode = UpdateMode.IDLE
        elif command == SEND_BRD:
            self._outgoing += message(BOARD_DUMP, bytes(self.squares))
        elif command in _MODE_COMMANDS:
            self.mode = _MODE_COMMANDS[command]
        elif command == RETURN_SERIALNR:
            self._outgoing += message(SERIALNR, self.serial_number.encode("ascii"))
        elif command == RETURN_LONG_SERIALNR:
            long_number = ("BS" + self.serial_number).ljust(10, "0")
            self._outgoing += message(LONG_SERIALNR, long_number.encode("ascii"))
        elif command == SEND_TRADEMARK:
            self._outgoing += message(TRADEMARK, self.trademark.encode("ascii"))
        elif command == SEND_VERSION:
            self._outgoing += message(VERSION, bytes(self.version))
        # Anything else is ignored, as a real board ignores commands it does not know.
