"""The bus side of a board's firmware: framed, addressed commands and checksummed replies.

Sans I/O; the board it belongs to passes ``now`` in and queues the replies with their due
times. A command is ``cmd, addr_hi7, addr_lo7, checksum``; a byte with bit 7 set in the middle
of one starts a new one. A command with a bad checksum, or for another address, is ignored
(the bad checksum is noted in the board's ``errors``). Address 0 is the broadcast address,
which only PING, END_BUSMODE and RESET answer to.

Replies (``type, len_hi7, len_lo7, addr_hi7, addr_lo7, data…, checksum``) leave after the
board's ``bus_answer`` time plus whatever is left of an EEPROM write; a PING to address 0 is
answered at a random moment of ``ping_window`` (seeded), unless IGNORE_NEXT_BUS_PING came
first. SEND_CHANGES hands over the log records written since the previous SEND_CHANGES (an
empty reply when there are none) and REPEAT_CHANGES repeats that packet, which is how a host
recovers from a checksum error without losing changes. Collisions of replies from several
boards are not modelled: a chain puts them on the line one after the other.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from boardsim.modes import LineMode
from boardsim.wire import BusCommand, BusReply, bus_reply, checksum, join14

if TYPE_CHECKING:
    from boardsim.board import VirtualBoard

#: Commands a board obeys when they are sent to address 0.
_BROADCAST = frozenset({BusCommand.PING, BusCommand.END_BUSMODE, BusCommand.RESET})


class BusPersonality:
    """What one board does with bus commands."""

    def __init__(self, board: VirtualBoard, rng: random.Random) -> None:
        self._board = board
        self._rng = rng
        self._frame: bytearray | None = None
        self._execute = False
        self._last_changes: bytes | None = None
        self._ignore_next_ping = False
        #: The next reply goes out with a wrong checksum (a fault on demand).
        self.corrupt_next = False
        #: A host has sent this board a valid command since power-up.
        self.addressed = False

    @property
    def collecting(self) -> bool:
        return self._frame is not None

    def power_up(self) -> None:
        self._frame = None
        self._last_changes = None
        self._ignore_next_ping = False
        self.addressed = False

    def start(self, command: int, *, execute: bool) -> None:
        """A byte with bit 7 set: the start of a command (obeyed only if ``execute``)."""
        self._frame = bytearray((command,))
        self._execute = execute

    def feed(self, byte: int, now: float) -> None:
        assert self._frame is not None
        if byte & 0x80:
            self._board.commands_received.append(byte)
            self.start(byte, execute=True)
            return
        self._frame.append(byte)
        if len(self._frame) == 4:
            frame, self._frame = bytes(self._frame), None
            self._complete(frame, now)

    def _complete(self, frame: bytes, now: float) -> None:
        board = self._board
        if checksum(frame[:3]) != frame[3]:
            board.errors.append(f"bus command {frame.hex()}: bad checksum")
            return
        if not self._execute:
            return
        address = join14(frame[1], frame[2])
        try:
            command = BusCommand(frame[0])
        except ValueError:
            board.errors.append(f"unknown bus command {frame[0]:#04x}")
            return
        if address == 0 and command not in _BROADCAST:
            return
        if address not in (0, board.address):
            return
        self.addressed = True
        self._dispatch(command, address == 0, now)

    def _dispatch(self, command: BusCommand, broadcast: bool, now: float) -> None:
        board = self._board
        timing = board.timing
        if command is BusCommand.SEND_CLK:
            self._reply(BusReply.BWTIME, board.time_data(now), now)
        elif command is BusCommand.SEND_BRD:
            self._reply(BusReply.BRD_DUMP, bytes(board.scanned), now)
        elif command is BusCommand.SEND_CHANGES:
            self._last_changes = board.log.take_changes()
            self._reply(BusReply.UPDATE, self._last_changes, now)
        elif command is BusCommand.REPEAT_CHANGES:
            self._reply(BusReply.UPDATE, self._last_changes or b"", now)
        elif command is BusCommand.SET_START_GAME:
            board.write_start_tag(now)
            self._reply(BusReply.START_GAME_WRITTEN, b"", now, timing.start_game)
        elif command is BusCommand.SEND_FROM_START:
            self._reply(BusReply.FROM_START, board.log.from_start(), now)
        elif command is BusCommand.PING:
            if not broadcast:
                self._reply(BusReply.PING, b"", now)
            elif self._ignore_next_ping:
                self._ignore_next_ping = False
            else:
                delay = self._rng.uniform(0, timing.ping_window)
                self._reply(BusReply.PING, b"", now, delay)
        elif command is BusCommand.IGNORE_NEXT_BUS_PING:
            self._ignore_next_ping = True
            self._reply(BusReply.PING, b"", now)
        elif command is BusCommand.END_BUSMODE:
            board.enter_line_mode(LineMode.SINGLE)
        elif command is BusCommand.RESET:
            board.begin_reset(now)
        elif command is BusCommand.SEND_VERSION:
            self._reply(BusReply.VERSION, bytes(board.version), now)
        else:
            board.errors.append(f"bus command {command.name} is not simulated")

    def _reply(self, reply: BusReply, data: bytes, now: float, delay: float | None = None) -> None:
        board = self._board
        if delay is None:
            delay = self._rng.uniform(*board.timing.bus_answer)
        packet = bus_reply(reply, board.address, data)
        if self.corrupt_next:
            self.corrupt_next = False
            packet = packet[:-1] + bytes((packet[-1] ^ 0x01,))
        board.schedule(packet, now + delay + board.eeprom_wait(now))
