"""The firmware of one DGT board, sans I/O: both of its modes, its sensors, log and clock.

Host bytes go in through :meth:`VirtualBoard.receive_data`; the board's bytes come out of
:meth:`VirtualBoard.data_to_send`. Pieces are moved with :meth:`VirtualBoard.set_square` and
the clock's lever with :meth:`VirtualBoard.press_lever`. Nothing here reads a clock: every
method that depends on time takes ``now`` (seconds on any monotonic scale; omitted, the
latest time the board has seen), and :meth:`VirtualBoard.advance` lets time pass. Output
that is due later (a scan still in progress, a clock ack, a bus reply) is held until
``advance`` reaches its time; :meth:`VirtualBoard.next_deadline` says when that is, so a
transport knows when to wake the board. Time never runs backwards: an earlier ``now`` is
taken as the latest one seen.

Modes, as the 2015+ header describes them. The board powers up in **bus mode**
(:mod:`boardsim.bus_mode`). Any single-board command switches it to single-board mode, idle,
and is then processed; ``TO_BUSMODE`` or any bus command switches it back, and that bus
command is not processed. In single-board mode the update mode decides what is sent
unasked: field updates in all three update modes, a BWTIME every second in UPDATE and on
each change of the clock's state in UPDATE_NICE, and clock acks only in UPDATE and
UPDATE_NICE.

With the default :class:`BoardTiming` everything is instant (every change is reported when
it is made, bus answers at once), which is what unit tests and the older callers expect;
:meth:`BoardTiming.realistic` gives 200-250 ms scans and bus answer times of a real board.
Squares are DGT indices (0 = a8, 63 = h1), pieces DGT codes (0 empty, 1-12, markers 13-15).
"""

from __future__ import annotations

import heapq
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from boardsim.board_log import BoardLog, Tag
from boardsim.bus_mode import BusPersonality
from boardsim.bwtime import ack_data, time_data
from boardsim.clock import Ack, Button, Dgt3000, LeverMoved, Side
from boardsim.modes import LineMode, UpdateMode
from boardsim.pieces import (
    EMPTY_POSITION,
    ROTATED_START_POSITION,
    START_POSITION,
    is_four_rows,
)
from boardsim.scanner import Scan, Scanner, ScanTiming
from boardsim.wire import (
    SINGLE_BOARD_COMMANDS,
    Command,
    MessageId,
    address_of,
    message,
    split14,
)

__all__ = [
    "START_POSITION",
    "Battery",
    "BoardTiming",
    "LineMode",
    "UpdateMode",
    "VirtualBoard",
    "message",
]

#: Longest clock message body a board accepts after ``0x2B, size``.
_MAX_CLOCK_MESSAGE = 0x20


_REAL_SCAN = ScanTiming()

_MODE_COMMANDS = {
    Command.SEND_UPDATE: UpdateMode.UPDATE,
    Command.SEND_UPDATE_BRD: UpdateMode.UPDATE_BOARD,
    Command.SEND_UPDATE_NICE: UpdateMode.UPDATE_NICE,
}

#: Update modes in which the clock's acks reach the host.
_ACK_MODES = (UpdateMode.UPDATE, UpdateMode.UPDATE_NICE)


@dataclass(frozen=True, slots=True)
class BoardTiming:
    """How long the board takes to see and to answer. All zero: an instant board."""

    scan: ScanTiming | None = None
    #: A bus answer leaves this long after its command (uniform between the two).
    bus_answer: tuple[float, float] = (0.0, 0.0)
    #: Each log write keeps the EEPROM busy this long; bus answers wait for it.
    eeprom_write: float = 0.0
    #: START_GAME_WRITTEN follows SET_START_GAME after this long.
    start_game: float = 0.0
    #: A PING to address 0 is answered at a random moment within this window.
    ping_window: float = 0.0
    #: A bus RESET leaves the board deaf this long before it powers up again.
    reset: float = 0.0

    @classmethod
    def instant(cls) -> BoardTiming:
        return cls()

    @classmethod
    def realistic(cls, *, scan: ScanTiming | None = _REAL_SCAN) -> BoardTiming:
        """A real board's timing; ``scan`` defaults to 200-250 ms sweeps (None: instant)."""
        return cls(
            scan=scan,
            bus_answer=(0.002, 0.006),
            eeprom_write=0.02,
            start_game=0.07,
            ping_window=1.1,
            reset=2.0,
        )


@dataclass(slots=True)
class Battery:
    """The board's own battery (Bluetooth boards), as BATTERY_STATUS reports it."""

    percent: int = 100
    charging: bool = False
    discharging: bool = True
    low: bool = False


class VirtualBoard:
    """A DGT board's behaviour on the wire, with no port attached."""

    def __init__(
        self,
        *,
        serial_number: str = "01234",
        version: tuple[int, int] = (1, 7),
        trademark: str = "Digital Game Technology (boardsim)",
        squares: Sequence[int] = START_POSITION,
        clock: Dgt3000 | None = None,
        timing: BoardTiming | None = None,
        seed: int | None = 0,
        now: float = 0.0,
    ) -> None:
        if len(serial_number) != 5 or not serial_number.isdigit():
            raise ValueError("a DGT serial number is 5 digits")
        if not all(0 <= part < 0x80 for part in version):
            raise ValueError("version numbers are 7-bit values")
        if not trademark.isascii() or len(trademark) > 200:
            raise ValueError("the trademark is at most 200 ASCII characters")
        self.serial_number = serial_number
        self.address = address_of(serial_number)
        self.version = version
        self.trademark = trademark
        self.timing = timing or BoardTiming.instant()
        self.clock = clock
        self.battery = Battery()
        self.line_mode = LineMode.BUS
        self.mode = UpdateMode.IDLE
        #: Command bytes received (payload, address and checksum bytes are not commands).
        self.commands_received: list[int] = []
        #: Odd input, collected rather than raised: bad checksums, malformed clock messages.
        self.errors: list[str] = []
        self.log = BoardLog()
        self._seed = seed
        self._rng = random.Random(None if seed is None else f"{seed}:board")
        self._now = now
        self._power_on = now
        self.scanner = Scanner(squares, self.timing.scan, self._derived_rng("scan"), now)
        self.bus = BusPersonality(self, self._derived_rng("bus"))
        self._outbox: list[tuple[float, int, bytes]] = []
        self._sequence = 0
        self._clock_message: bytearray | None = None
        self._clock_size = 0
        self._mute_until: float | None = None
        self._reset_until: float | None = None
        self._eeprom_busy_until = now
        self._next_tick: float | None = None
        self._last_time_data: bytes | None = None
        #: The last BWTIME data computed: the clock's shown state, from and until when they
        #: hold, and the bytes (see :meth:`time_data`).
        self._time_memo: tuple[tuple[object, ...], float, float, bytes] | None = None
        self._shape: Tag | None = None
        self._power_up(now)

    # -- the physical board -----------------------------------------------------------------

    @property
    def squares(self) -> list[int]:
        """What is physically on the board now, a8 first."""
        return list(self.scanner.physical)

    @property
    def scanned(self) -> tuple[int, ...]:
        """The board as the firmware last read it (what it reports and dumps)."""
        return self.scanner.scanned

    def set_square(self, index: int, piece: int, now: float | None = None) -> None:
        """A piece is put on (or, with 0, lifted from) a square."""
        if not 0 <= index < 64 or not 0 <= piece <= 15:
            raise ValueError(f"square {index}, piece {piece}")
        now = self._advance_to(now)
        for scan in self.scanner.place(index, piece, now):
            self._on_scan(scan)

    def set_position(self, squares: Sequence[int], now: float | None = None) -> None:
        """Put a whole position on the board, square by square, a8 first."""
        if len(squares) != 64:
            raise ValueError("a position has 64 squares")
        for index, piece in enumerate(squares):
            self.set_square(index, piece, now)

    def press_lever(self, side: Side, now: float | None = None) -> None:
        """The player on ``side`` presses the clock; nothing happens without a clock."""
        now = self._advance_to(now)
        if self.clock is None:
            return
        for event in self.clock.press(side, now):
            self._on_clock_event(event, now)
        self._report_clock(now)

    def stop_clock(self, now: float | None = None) -> None:
        """The clock is stopped at the end of a game; nothing happens without a clock."""
        now = self._advance_to(now)
        if self.clock is None:
            return
        for event in self.clock.stop(now):
            self._on_clock_event(event, now)
        self._report_clock(now)

    def press_button(self, button: Button, now: float | None = None) -> None:
        now = self._advance_to(now)
        if self.clock is not None:
            self.clock.press_button(button, now)
            self.advance(now)

    # -- the wire ---------------------------------------------------------------------------

    def receive_data(self, data: bytes, now: float | None = None) -> None:
        """Bytes from the host, in order."""
        now = self._advance_to(now)
        for byte in data:
            self._byte(byte, now)
        self._report_clock(now)

    def data_to_send(self) -> bytes:
        """Everything due by now, in order."""
        return b"".join(data for _, data in self.take_output())

    def take_output(self) -> list[tuple[float, bytes]]:
        """Messages due by now with the time each became due (a bus chain merges these)."""
        out: list[tuple[float, bytes]] = []
        while self._outbox and self._outbox[0][0] <= self._now:
            due, _, data = heapq.heappop(self._outbox)
            if not self._muted(due):
                out.append((due, data))
        return out

    def advance(self, now: float) -> None:
        """Let time pass up to ``now``: scans end, the clock runs, replies come due."""
        now = max(now, self._now)
        if self._reset_until is not None and self._reset_until <= now:
            self._power_up(self._reset_until)
            self._reset_until = None
        for scan in self.scanner.advance(now):
            self._on_scan(scan)
        self._now = now
        if self.clock is not None:
            for event in self.clock.advance(now):
                self._on_clock_event(event, now)
        self._report_clock(now)

    def next_deadline(self) -> float | None:
        """When :meth:`advance` next has something to do, or None while nothing is due."""
        times: list[float | None] = [
            self._outbox[0][0] if self._outbox else None,
            self.scanner.next_deadline(),
            self._reset_until,
        ]
        if self.clock is not None:
            times.append(self.clock.next_deadline())
            if self.line_mode is LineMode.SINGLE and self.mode is UpdateMode.UPDATE_NICE:
                times.append(self.clock.next_display_change(self._now))
        if self.line_mode is LineMode.SINGLE and self.mode is UpdateMode.UPDATE:
            times.append(self._next_tick)
        known = [time for time in times if time is not None]
        return min(known) if known else None

    @property
    def boards(self) -> tuple[VirtualBoard]:
        """This board alone: a single board is an endpoint of its own."""
        return (self,)

    @property
    def now(self) -> float:
        return self._now

    @property
    def host_listening(self) -> bool:
        """A host is talking to this board: an update mode, or addressed on the bus."""
        if self.line_mode is LineMode.SINGLE:
            return self.mode is not UpdateMode.IDLE
        return self.bus.addressed

    # -- faults -----------------------------------------------------------------------------

    def mute(self, until: float | None = None) -> None:
        """Stop answering (and reporting) until ``until``, or for good with None.

        The board keeps scanning and logging; only its line is dead, so a host that comes
        back must ask for the board again.
        """
        self._mute_until = math.inf if until is None else until

    def unmute(self) -> None:
        self._mute_until = None

    @property
    def muted(self) -> bool:
        return self._muted(self._now)

    def set_battery_low(self, low: bool) -> None:
        """Low battery on the clock (BWTIME status bit 2) and on the board itself."""
        self.battery.low = low
        self.battery.percent = 5 if low else 100
        if self.clock is not None:
            self.clock.battery_low = low

    def corrupt_next_checksum(self) -> None:
        """The next bus reply goes out with a wrong checksum."""
        self.bus.corrupt_next = True

    # -- services for the bus personality ---------------------------------------------------

    def schedule(self, data: bytes, due: float) -> None:
        """Queue ``data`` to leave at ``due``."""
        self._sequence += 1
        heapq.heappush(self._outbox, (due, self._sequence, data))

    def eeprom_wait(self, now: float) -> float:
        """How much longer the EEPROM is busy with a write."""
        return max(0.0, self._eeprom_busy_until - now)

    def time_data(self, now: float) -> bytes:
        """The 7 BWTIME data bytes for the clock's state now.

        In UPDATE_NICE the board compares these bytes on every step of time, so they are
        worked out again only when the clock's state changed or its shown seconds may have
        (a millisecond before :meth:`Dgt3000.next_display_change`, to stay clear of rounding):
        reading the clock on every step was half the CPU of a simulated game.
        """
        clock = self.clock
        if clock is None or not clock.connected:
            return time_data(None)
        state = clock.shown_state()
        memo = self._time_memo
        if memo is not None and memo[0] == state and memo[1] <= now < memo[2]:
            return memo[3]
        data = time_data(clock.reading(now))
        change = clock.next_display_change(now)
        until = math.inf if change is None else change - 0.001
        self._time_memo = (state, now, until, data)
        return data

    def enter_line_mode(self, line_mode: LineMode) -> None:
        self.line_mode = line_mode
        self.mode = UpdateMode.IDLE
        self._next_tick = None
        if self.clock is not None:
            self.clock.cancel_acks()

    def write_start_tag(self, now: float) -> None:
        """SET_START_GAME: the start tag, then every piece on the board."""
        self.log.tag(Tag.START_TAG)
        for index, piece in enumerate(self.scanned):
            if piece:
                self.log.field_change(index, piece, now)
        self._eeprom_busy(now)

    def begin_reset(self, now: float) -> None:
        """A bus RESET: deaf for a while, then a fresh power-up."""
        self._reset_until = now + self.timing.reset
        if self.timing.reset == 0:
            self._power_up(now)
            self._reset_until = None

    # -- internals --------------------------------------------------------------------------

    def _derived_rng(self, purpose: str) -> random.Random:
        """A generator of its own per purpose, so one habit's draws never shift another's."""
        return random.Random(None if self._seed is None else f"{self._seed}:{purpose}")

    def _advance_to(self, now: float | None) -> float:
        self.advance(self._now if now is None else now)
        return self._now

    def _muted(self, at: float) -> bool:
        return self._mute_until is not None and at < self._mute_until

    def _deaf(self, now: float) -> bool:
        return self._muted(now) or self._reset_until is not None

    def _power_up(self, now: float) -> None:
        self.enter_line_mode(LineMode.BUS)
        self.bus.power_up()
        for _ in range(3):
            self.log.tag(Tag.NOP)
        self.log.tag(Tag.POWERUP)
        occupied = [(i, p) for i, p in enumerate(self.scanned) if p]
        self._rng.shuffle(occupied)  # the header calls the order "virtually random"
        for index, piece in occupied:
            self.log.field_change(index, piece, now)
        self._shape = None
        self._tag_shape(self.scanned)
        self._eeprom_busy(now)

    def _eeprom_busy(self, now: float) -> None:
        self._eeprom_busy_until = max(self._eeprom_busy_until, now + self.timing.eeprom_write)

    def _on_scan(self, scan: Scan) -> None:
        for index, piece in scan.changes:
            self.log.field_change(index, piece, scan.at)
            if self.line_mode is LineMode.SINGLE and self.mode is not UpdateMode.IDLE:
                self.schedule(message(MessageId.FIELD_UPDATE, bytes((index, piece))), scan.at)
        self._tag_shape(scan.squares)
        self._eeprom_busy(scan.at)

    def _tag_shape(self, squares: tuple[int, ...]) -> None:
        if squares == START_POSITION:
            shape: Tag | None = Tag.BEGINPOS
        elif squares == ROTATED_START_POSITION:
            shape = Tag.BEGINPOS_ROT
        elif squares == EMPTY_POSITION:
            shape = Tag.EMPTYBOARD
        elif is_four_rows(squares):
            shape = Tag.FOURROWS
        else:
            shape = None
        if shape is not None and shape is not self._shape:
            self.log.tag(shape)
        self._shape = shape

    def _on_clock_event(self, event: object, now: float) -> None:
        if isinstance(event, Ack):
            if self.line_mode is LineMode.SINGLE and self.mode in _ACK_MODES:
                self.schedule(message(MessageId.BWTIME, ack_data(event)), now)
        elif isinstance(event, LeverMoved):
            reading = event.reading
            self.log.clock(
                left=event.halted is Side.LEFT,
                hours=reading.hours,
                minutes=reading.minutes,
                seconds=reading.seconds,
            )
            self._eeprom_busy(now)

    def _report_clock(self, now: float) -> None:
        """BWTIME as the update mode asks: every second, or on every change."""
        if self.line_mode is not LineMode.SINGLE or self._muted(now):
            return
        if self.mode is UpdateMode.UPDATE:
            if self._next_tick is not None and self._next_tick <= now:
                self._send_time(now)
                self._next_tick = max(self._next_tick + 1.0, now + 0.5)
        elif self.mode is UpdateMode.UPDATE_NICE and self.time_data(now) != self._last_time_data:
            self._send_time(now)

    def _send_time(self, now: float) -> None:
        data = self.time_data(now)
        self._last_time_data = data
        self.schedule(message(MessageId.BWTIME, data), now)

    def _byte(self, byte: int, now: float) -> None:
        if self._deaf(now):
            return
        if self._clock_message is not None:
            self._clock_byte(byte, now)
        elif self.bus.collecting:
            self.bus.feed(byte, now)
        elif byte & 0x80:
            self.commands_received.append(byte)
            execute = self.line_mode is LineMode.BUS
            if not execute:
                self.enter_line_mode(LineMode.BUS)
            self.bus.start(byte, execute=execute)
        elif byte == Command.TO_BUSMODE:
            self.commands_received.append(byte)
            self.enter_line_mode(LineMode.BUS)
        elif byte in SINGLE_BOARD_COMMANDS:
            self.commands_received.append(byte)
            if self.line_mode is LineMode.BUS:
                self.enter_line_mode(LineMode.SINGLE)
            self._command(Command(byte), now)
        else:
            # Ignored, as a real board ignores commands it does not know.
            self.commands_received.append(byte)
            self.errors.append(f"unknown command {byte:#04x}")

    def _command(self, command: Command, now: float) -> None:
        if command is Command.SEND_RESET:
            self.mode = UpdateMode.IDLE
            self._next_tick = None
            if self.clock is not None:
                self.clock.cancel_acks()
        elif command is Command.SEND_CLK:
            self._send_time(now)
        elif command is Command.SEND_BRD:
            self.schedule(message(MessageId.BOARD_DUMP, bytes(self.scanned)), now)
        elif command in _MODE_COMMANDS:
            self.mode = _MODE_COMMANDS[command]
            self._next_tick = now if self.mode is UpdateMode.UPDATE else None
            self._last_time_data = self.time_data(now)
        elif command is Command.RETURN_SERIALNR:
            self.schedule(message(MessageId.SERIALNR, self.serial_number.encode("ascii")), now)
        elif command is Command.RETURN_LONG_SERIALNR:
            long_number = ("BS" + self.serial_number).ljust(10, "0")
            self.schedule(message(MessageId.LONG_SERIALNR, long_number.encode("ascii")), now)
        elif command is Command.RETURN_BUSADRES:
            self.schedule(message(MessageId.BUSADRES, bytes(split14(self.address))), now)
        elif command is Command.SEND_TRADEMARK:
            self.schedule(message(MessageId.TRADEMARK, self.trademark.encode("ascii")), now)
        elif command is Command.SEND_VERSION:
            self.schedule(message(MessageId.VERSION, bytes(self.version)), now)
        elif command is Command.SEND_EE_MOVES:
            self.schedule(message(MessageId.EE_MOVES, self.log.dump()), now)
            self.log.tag(Tag.DOWNLOADED)
            self._eeprom_busy(now)
        elif command is Command.SEND_BATTERY_STATUS:
            self.schedule(message(MessageId.BATTERY_STATUS, self._battery_data(now)), now)
        elif command is Command.CLOCK_MESSAGE:
            self._clock_message = bytearray()
            self._clock_size = -1

    def _clock_byte(self, byte: int, now: float) -> None:
        """Collect ``size, 0x03, command, payload…, 0x00`` after a 0x2B."""
        assert self._clock_message is not None
        if self._clock_size < 0:
            if not 3 <= byte <= _MAX_CLOCK_MESSAGE:
                self.errors.append(f"clock message size {byte:#04x}")
                self._clock_message = None
                return
            self._clock_size = byte
            return
        self._clock_message.append(byte)
        if len(self._clock_message) < self._clock_size:
            return
        body = bytes(self._clock_message)
        self._clock_message = None
        if body[0] != 0x03 or body[-1] != 0x00:
            self.errors.append(f"clock message {body.hex()} lacks its 03 … 00 frame")
            return
        if self.clock is None:
            return  # nothing to pass it to: no ack ever comes
        self.clock.handle(body[1], body[2:-1], now)
        self.advance(now)

    def _battery_data(self, now: float) -> bytes:
        on_minutes = min(int((now - self._power_on) // 60), 127 * 60 + 59)
        flags = (0x01 if self.battery.charging else 0) | (0x02 if self.battery.discharging else 0)
        return bytes(
            (
                max(0, min(self.battery.percent, 100)),
                0x7F,  # run time left: not available
                0x7F,
                on_minutes // 60,
                on_minutes % 60,
                0,  # standby days, hours, minutes
                0,
                0,
                flags,
            )
        )
