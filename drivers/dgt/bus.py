"""DGT bus mode: many boards on one line, polled one at a time, as a sans-I/O state machine.

Host to board: ``command, address bits 13-7, address bits 6-0, checksum`` where the checksum
is the sum of the three bytes with bit 7 cleared and address 0 is every board. Board to host:
``type, length (two 7-bit halves, the whole reply), address (two halves), data..., checksum``
with the checksum over all preceding bytes. Replies are framed like single-board messages
(:mod:`drivers.dgt.frames`), then checked and read here.

The line carries one command at a time (a bus board buffers only one). The protocol:
discovers the boards (PING to address 0, answered at random moments within ~1.1 s; boards
already found are told to skip the next broadcast PING, and the broadcast is repeated until
it finds nobody new); asks each board for its position (SEND_BRD); then polls them round
robin with SEND_CHANGES, whose reply is the board's log records since the previous poll. A
reply with a bad checksum is asked for again with REPEAT_CHANGES (asking SEND_CHANGES again
would lose those changes); a board that keeps failing is re-read with SEND_BRD. Every few
rounds each board's clock is read. Time (monotonic seconds) is passed in.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field, replace
from enum import IntEnum

from drivers.dgt.bwtime import HEADER_2015, Ack, BwTimeError, NoClock, StatusBits, decode_bwtime
from drivers.dgt.frames import Discarded, Frame, FrameDecoder
from drivers.dgt.messages import (
    PIECE_LETTERS,
    MessageError,
    decode_board_dump,
    dgt_to_square,
)
from drivers.dgt.records import FieldRecord, Record, Tag, TagRecord, decode_log, replay_positions
from drivers.dgt.rotation import orientation_of, turned
from drivers.events import (
    EMPTY_POSITION,
    BoardEvent,
    BoardStatus,
    ClockReading,
    FieldChange,
    Health,
    LineNoise,
    LogReplay,
    Position,
    PositionSnapshot,
)

BROADCAST = 0
#: Silence after the last PING answer before a discovery round may end.
PING_QUIET = 0.3
MAX_ADDRESS = (1 << 14) - 1


class BusCommand(IntEnum):
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


class BusReply(IntEnum):
    BRD_DUMP = 0x83
    BWTIME = 0x84
    UPDATE = 0x85
    FROM_START = 0x86
    PING = 0x87
    START_GAME_WRITTEN = 0x88
    VERSION = 0x89


_EXPECTED = {
    BusCommand.SEND_CLK: BusReply.BWTIME,
    BusCommand.SEND_BRD: BusReply.BRD_DUMP,
    BusCommand.SEND_CHANGES: BusReply.UPDATE,
    BusCommand.REPEAT_CHANGES: BusReply.UPDATE,
    BusCommand.SEND_FROM_START: BusReply.FROM_START,
    BusCommand.SET_START_GAME: BusReply.START_GAME_WRITTEN,
    BusCommand.IGNORE_NEXT_BUS_PING: BusReply.PING,
    BusCommand.SEND_VERSION: BusReply.VERSION,
}


_CHANGES = (BusCommand.SEND_CHANGES, BusCommand.REPEAT_CHANGES)


def _letter(code: int) -> str | None:
    return PIECE_LETTERS.get(code)


def _apply(raw: Position, records: list[Record]) -> Position:
    squares = list(raw)
    for record in records:
        if isinstance(record, TagRecord) and record.tag == Tag.POWER_UP:
            squares = [None] * 64
        elif isinstance(record, FieldRecord):
            squares[dgt_to_square(record.field)] = _letter(record.piece_code)
    return tuple(squares)


def checksum(data: bytes) -> int:
    return sum(data) & 0x7F


def encode_bus_command(command: BusCommand, address: int) -> bytes:
    if not 0 <= address <= MAX_ADDRESS:
        raise ValueError(f"bus address {address} is not a 14-bit value")
    body = bytes((command, address >> 7, address & 0x7F))
    return body + bytes((checksum(body),))


def address_of_serial(serial: str) -> int:
    """A board's bus address: its decimal serial number as a 14-bit value."""
    return int(serial) & MAX_ADDRESS


@dataclass(frozen=True, slots=True)
class BusEvent:
    """An event of one board on the line (address 0: the line itself)."""

    address: int
    event: BoardEvent


@dataclass(frozen=True, slots=True)
class BusOptions:
    status_bits: StatusBits = HEADER_2015
    #: How long the line may stay silent while an answer is due before the poll moves on.
    reply_timeout: float = 0.08
    #: How long boards may take to answer a broadcast PING.
    ping_window: float = 1.2
    #: Read each board's clock every this many polling rounds.
    clock_every: int = 5
    #: Missed answers in a row that make a board "delayed", and "not responding".
    delayed_after: int = 2
    silent_after: int = 6
    #: Bad replies in a row after which a board is re-read whole.
    reread_after: int = 2
    #: The host resumes games in progress (it restarted): at first contact, read each
    #: board's log since its game started (SEND_FROM_START) and what it holds unfetched,
    #: and pass them on as a replay, for the host to pick up moves made meanwhile.
    resume: bool = False


@dataclass(slots=True)
class _Board:
    address: int
    raw: Position = EMPTY_POSITION
    have_position: bool = False
    status: BoardStatus = field(default_factory=lambda: BoardStatus(health=Health.ACTIVE))
    misses: int = 0
    bad_replies: int = 0
    last_reading: ClockReading | None = None
    recovering: bool = False  # the next changes span a break: replay them
    repeat: bool = False  # the last changes may be lost in transit: ask to repeat them
    history: Position | None = None  # before the first dump, where the replayed log led


@dataclass(slots=True)
class _Pending:
    command: BusCommand
    address: int
    sent_at: float


class DgtBusProtocol:
    """The host's side of one bus line."""

    def __init__(self, options: BusOptions | None = None) -> None:
        self.options = options or BusOptions()
        self._decoder = FrameDecoder()
        self._events: list[BusEvent] = []
        self._outgoing = bytearray()
        self.boards: dict[int, _Board] = {}
        self._pending: _Pending | None = None
        self._queue: deque[tuple[BusCommand, int]] = deque()
        self._discovering_until: float | None = None
        self._discovery_done = False
        self._last_received = 0.0
        self._found_in_round = 0
        self._round_robin: deque[int] = deque()
        self._rounds = 0

    # -- the host's side --------------------------------------------------------------

    @property
    def discovering(self) -> bool:
        """True until a broadcast PING has found nobody new."""
        return not self._discovery_done

    @property
    def deadline(self) -> float | None:
        if self._discovering_until is not None:
            return self._discovering_until
        if self._pending is not None:
            return self._deadline_of(self._pending)
        return None

    def start(self, now: float) -> None:
        """Find every board on the line, then start polling."""
        self._broadcast_ping(now)

    def data_to_send(self) -> bytes:
        data = bytes(self._outgoing)
        self._outgoing.clear()
        return data

    def events_received(self) -> list[BusEvent]:
        events, self._events = self._events, []
        return events

    def receive_data(self, data: bytes, now: float) -> None:
        self._last_received = now
        for item in self._decoder.feed(data):
            if isinstance(item, Discarded):
                self._events.append(BusEvent(BROADCAST, LineNoise(len(item.data), item.reason)))
            else:
                self._reply(item, now)
        self._next(now)

    def advance(self, now: float) -> None:
        """Close a discovery round, or give up on a board that did not answer in time."""
        if self._discovering_until is not None and now >= self._discovering_until:
            self._end_discovery_round(now)
        elif (pending := self._pending) is not None and now >= self._deadline_of(pending):
            board = self.boards.get(pending.address)
            self._pending = None
            if board is not None:
                if pending.command in _CHANGES:
                    # The board may have sent (and forgotten) its changes: ask for them again.
                    board.repeat = True
                self._missed(board)
        self._next(now)

    def _deadline_of(self, pending: _Pending) -> float:
        # The timeout counts silence: a long reply still arriving (a board dump takes
        # ~70 ms at 9600 baud) is not a missed one.
        return max(pending.sent_at, self._last_received) + self.options.reply_timeout

    def lost(self, reason: str) -> None:
        """The line is gone; every board is marked disconnected and will be recovered."""
        pending = self._pending
        if pending is not None and pending.command in _CHANGES:
            board = self.boards.get(pending.address)
            if board is not None:
                board.repeat = True  # its reply may have been on the wire
        self._pending = None
        self._queue.clear()
        self._decoder = FrameDecoder()
        for board in self.boards.values():
            board.recovering = True
            self._set_status(board, health=Health.DISCONNECTED)

    def resync(self, now: float) -> None:
        """The line is back: collect what each board logged meanwhile, then poll as before.

        A bus board keeps every change until a SEND_CHANGES fetches it, so the first poll
        after the break brings what happened while the line was down; it is passed on as
        a :class:`~drivers.events.LogReplay` (the moves it holds stood on the board).
        """
        self._decoder = FrameDecoder()
        for address in sorted(self.boards):
            if self.boards[address].repeat:
                self._queue.append((BusCommand.REPEAT_CHANGES, address))
            self._queue.append((BusCommand.SEND_CHANGES, address))
            self._queue.append((BusCommand.SEND_BRD, address))  # then the board as it is
        self._next(now)

    # -- discovery ----------------------------------------------------------------------

    def _broadcast_ping(self, now: float) -> None:
        self._outgoing += encode_bus_command(BusCommand.PING, BROADCAST)
        self._discovering_until = now + self.options.ping_window
        self._found_in_round = 0

    def _end_discovery_round(self, now: float) -> None:
        self._discovering_until = None
        if self._found_in_round:
            # Silence the boards found so far, then ask again for the others.
            for address in self.boards:
                self._queue.append((BusCommand.IGNORE_NEXT_BUS_PING, address))
            self._queue.append((BusCommand.PING, BROADCAST))
        else:
            self._discovery_done = True
        self._next(now)

    # -- polling -------------------------------------------------------------------------

    def _next(self, now: float) -> None:
        """Send the next command if the line is free."""
        if self._pending is not None or self._discovering_until is not None:
            return
        if not self._queue:
            self._schedule_poll()
        if not self._queue:
            return
        command, address = self._queue.popleft()
        if command is BusCommand.PING and address == BROADCAST:
            self._broadcast_ping(now)
            return
        self._outgoing += encode_bus_command(command, address)
        self._pending = _Pending(command, address, now)

    def _schedule_poll(self) -> None:
        if not self.boards:
            return
        if not self._round_robin:
            self._rounds += 1
            self._round_robin.extend(sorted(self.boards))
        address = self._round_robin.popleft()
        board = self.boards[address]
        if not board.have_position:
            # What the board logged before we knew it is fetched first, so the changes
            # after the dump are exactly those made after it; a resuming host replays it.
            if self.options.resume:
                self._queue.append((BusCommand.SEND_FROM_START, address))
            self._queue.append((BusCommand.SEND_CHANGES, address))
            self._queue.append((BusCommand.SEND_BRD, address))
        else:
            changes = BusCommand.REPEAT_CHANGES if board.repeat else BusCommand.SEND_CHANGES
            self._queue.append((changes, address))
            if self._rounds % self.options.clock_every == 0:
                self._queue.append((BusCommand.SEND_CLK, address))

    # -- replies -------------------------------------------------------------------------

    def _reply(self, frame: Frame, now: float) -> None:
        payload = frame.payload
        if len(payload) < 3:
            self._noise(frame, "bus reply too short")
            return
        header = bytes((frame.message_id, (len(payload) + 3) >> 7, (len(payload) + 3) & 0x7F))
        address = payload[0] << 7 | payload[1]
        data = payload[2:-1]
        if checksum(header + payload[:-1]) != payload[-1]:
            self._bad_checksum(frame)
            return
        if frame.message_id == BusReply.PING:
            self._pinged(address, now)
            return
        board = self.boards.get(address)
        pending = self._pending
        if board is None:
            self._noise(frame, f"reply from unknown board {address}")
            return
        if (
            pending is not None
            and pending.address == address
            and _EXPECTED.get(pending.command) == frame.message_id
        ):
            self._pending = None
        board.misses = 0
        board.bad_replies = 0
        answered = pending.command if pending is not None and pending.address == address else None
        if frame.message_id == BusReply.UPDATE:
            board.repeat = False
        self._set_status(board, health=Health.ACTIVE, last_seen=now)
        try:
            self._read(board, frame.message_id, data, answered)
        except (MessageError, BwTimeError) as error:
            self._noise(frame, str(error))

    def _read(self, board: _Board, kind: int, data: bytes, answered: BusCommand | None) -> None:
        if kind == BusReply.BRD_DUMP:
            board.raw = decode_board_dump(data)
            board.have_position = True
            self._check_orientation(board)
            self._emit(board, PositionSnapshot(self._view(board, board.raw)))
        elif kind == BusReply.UPDATE:
            self._apply_records(board, data, repeated=answered is BusCommand.REPEAT_CHANGES)
        elif kind == BusReply.FROM_START and not board.have_position:
            board.history = EMPTY_POSITION  # the log since the start tag lists every piece
            self._replay_history(board, data)
        elif kind == BusReply.BWTIME:
            self._clock(board, data)
        elif kind == BusReply.VERSION and len(data) >= 2:
            self._set_status(board, version=(data[0], data[1]))

    def _apply_records(self, board: _Board, data: bytes, *, repeated: bool = False) -> None:
        """Log records since the last poll: field changes, or a replay after a break."""
        if not board.have_position:
            if board.history is not None:
                self._replay_history(board, data)
            return  # otherwise dropped: the first dump includes them
        records = decode_log(data).records
        if board.recovering:
            # After a break the changes of a long while come at once: pass on the
            # positions they lead through, then the board as it is now. A repeated
            # packet is only the part lost in transit: the rest is still to come.
            board.recovering = repeated
            replayed = replay_positions(board.raw, records)
            board.raw = _apply(board.raw, records)
            self._check_orientation(board)
            if replayed:
                views = tuple(self._view(board, position) for position in replayed)
                self._emit(board, LogReplay(views))
            self._emit(board, PositionSnapshot(self._view(board, board.raw)))
            return
        for record in records:
            if isinstance(record, TagRecord) and record.tag == Tag.POWER_UP:
                board.raw = EMPTY_POSITION
            if not isinstance(record, FieldRecord):
                continue
            square, piece = dgt_to_square(record.field), _letter(record.piece_code)
            board.raw = (*board.raw[:square], piece, *board.raw[square + 1 :])
            self._check_orientation(board)
            shown = 63 - square if board.status.rotated else square
            self._emit(board, FieldChange(shown, piece, self._view(board, board.raw)))

    def _replay_history(self, board: _Board, data: bytes) -> None:
        assert board.history is not None
        records = decode_log(data).records
        trail = replay_positions(board.history, records)
        board.history = _apply(board.history, records)
        orientations = [o for o in map(orientation_of, trail) if o is not None]
        if orientations and orientations[-1] != board.status.rotated:
            self._set_status(board, rotated=orientations[-1])
        if trail:
            self._emit(board, LogReplay(tuple(self._view(board, p) for p in trail)))

    def mark_game_start(self, address: int) -> None:
        """Have the board write a start tag in its log: the game it holds begins now."""
        self._queue.append((BusCommand.SET_START_GAME, address))

    def _clock(self, board: _Board, data: bytes) -> None:
        decoded = decode_bwtime(data, self.options.status_bits)
        if decoded is None or isinstance(decoded, Ack):
            return
        if isinstance(decoded, NoClock):
            self._set_status(board, clock_connected=False)
            return
        self._set_status(board, clock_connected=True)
        if decoded != board.last_reading:
            board.last_reading = decoded
            self._emit(board, decoded)

    def _pinged(self, address: int, now: float) -> None:
        pending = self._pending
        if pending is not None and pending.address == address:
            self._pending = None
        if self._discovering_until is not None:
            # Answers are still coming: keep listening a little past the last one.
            self._discovering_until = max(self._discovering_until, now + PING_QUIET)
        if address not in self.boards:
            board = _Board(
                address, status=BoardStatus(health=Health.ACTIVE, serial=f"{address:05d}")
            )
            self.boards[address] = board
            self._found_in_round += 1
            self._set_status(board, last_seen=now, force=True)

    def _bad_checksum(self, frame: Frame) -> None:
        self._noise(frame, "bad bus checksum")
        pending = self._pending
        if pending is None:
            return
        # The corrupted bytes may be the address itself: the reply is the pending one's.
        board = self.boards.get(pending.address)
        if board is None:
            return
        self._pending = None
        board.bad_replies += 1
        if board.bad_replies > self.options.reread_after:
            board.bad_replies = 0
            self._queue.appendleft((BusCommand.SEND_BRD, pending.address))
        elif pending.command in (BusCommand.SEND_CHANGES, BusCommand.REPEAT_CHANGES):
            self._queue.appendleft((BusCommand.REPEAT_CHANGES, pending.address))
        else:
            self._queue.appendleft((pending.command, pending.address))

    def _missed(self, board: _Board) -> None:
        board.misses += 1
        if board.misses >= self.options.silent_after:
            board.recovering = True  # changes pile up on the board until it answers again
            self._set_status(board, health=Health.NOT_RESPONDING)
        elif board.misses >= self.options.delayed_after:
            self._set_status(board, health=Health.DELAYED)

    # -- helpers -------------------------------------------------------------------------

    def _check_orientation(self, board: _Board) -> None:
        rotated = orientation_of(board.raw)
        if rotated is not None and rotated != board.status.rotated:
            self._set_status(board, rotated=rotated)

    @staticmethod
    def _view(board: _Board, raw: Position) -> Position:
        return turned(raw) if board.status.rotated else raw

    def _emit(self, board: _Board, event: BoardEvent) -> None:
        self._events.append(BusEvent(board.address, event))

    def _noise(self, frame: Frame, reason: str) -> None:
        size = len(frame.payload) + 3
        self._events.append(BusEvent(BROADCAST, LineNoise(size, reason)))

    def _set_status(self, board: _Board, *, force: bool = False, **changes: object) -> None:
        status = replace(board.status, **changes)  # type: ignore[arg-type]
        quiet = replace(status, last_seen=None) == replace(board.status, last_seen=None)
        board.status = status
        if force or not quiet:
            self._emit(board, status)
