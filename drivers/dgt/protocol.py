"""The single-board DGT protocol as a sans-I/O state machine.

Feed it the bytes the board sent with :meth:`DgtBoardProtocol.receive_data`, collect typed
events with :meth:`events_received`, and write :meth:`data_to_send` to the port. It never
touches a port or a clock, so every behaviour is testable with plain bytes.
"""

from __future__ import annotations

from drivers.dgt.frames import Discarded, Frame, FrameDecoder
from drivers.dgt.messages import (
    Command,
    MessageError,
    MessageId,
    decode_board_dump,
    decode_field_update,
)
from drivers.events import (
    EMPTY_POSITION,
    BoardEvent,
    FieldChange,
    LineNoise,
    Position,
    PositionSnapshot,
)

#: What a host sends to take over a board: idle it, ask for the whole board, then ask for
#: field updates (and clock messages only when the clock changes).
STARTUP_COMMANDS = (Command.SEND_RESET, Command.SEND_BRD, Command.SEND_UPDATE_NICE)


class DgtBoardProtocol:
    """One DGT board in single-board mode, from the host's side."""

    def __init__(self) -> None:
        self._decoder = FrameDecoder()
        self._events: list[BoardEvent] = []
        self._outgoing = bytearray()
        self._position: Position = EMPTY_POSITION
        self._have_position = False

    @property
    def position(self) -> Position | None:
        """The board as last reported, or None before the first board dump."""
        return self._position if self._have_position else None

    def start(self) -> None:
        """Queue the commands that put the board into update mode with a fresh dump."""
        for command in STARTUP_COMMANDS:
            self.send_command(command)

    def send_command(self, command: Command) -> None:
        self._outgoing.append(command)

    def data_to_send(self) -> bytes:
        data = bytes(self._outgoing)
        self._outgoing.clear()
        return data

    def receive_data(self, data: bytes) -> None:
        for item in self._decoder.feed(data):
            if isinstance(item, Discarded):
                self._events.append(LineNoise(len(item.data), item.reason))
            else:
                self._handle(item)

    def events_received(self) -> list[BoardEvent]:
        events, self._events = self._events, []
        return events

    def _handle(self, frame: Frame) -> None:
        try:
            if frame.message_id == MessageId.BOARD_DUMP:
                self._position = decode_board_dump(frame.payload)
                self._have_position = True
                self._events.append(PositionSnapshot(self._position))
            elif frame.message_id == MessageId.FIELD_UPDATE:
                self._field_update(frame.payload)
            # Other messages (clock, serial numbers, logs) are framed and skipped here; the
            # driver issue gives each its decoder.
        except MessageError as error:
            self._events.append(
                LineNoise(len(frame.payload) + 3, f"{frame.message_id:#04x}: {error}")
            )

    def _field_update(self, payload: bytes) -> None:
        square, piece = decode_field_update(payload)
        if not self._have_position:
            # Without a dump to apply it to, an update says nothing about the board; the
            # dump requested at start-up will bring the whole position.
            return
        squares = list(self._position)
        squares[square] = piece
        self._position = tuple(squares)
        self._events.append(FieldChange(square, piece, self._position))
