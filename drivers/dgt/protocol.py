"""The single-board DGT protocol as a sans-I/O state machine.

Feed it the bytes the board sent with :meth:`DgtBoardProtocol.receive_data`, call
:meth:`advance` when :attr:`deadline` comes, collect typed events with
:meth:`events_received`, and write :meth:`data_to_send` to the port. It never touches a port
or a clock: ``now`` (monotonic seconds) is passed in, so every behaviour is testable with
plain bytes.

What it does beyond decoding:
- identity (serial numbers, version, trademark, bus address, battery) and board health
  (active, delayed, not responding; a periodic clock request keeps a quiet board talking);
- rotation: a start position seen the wrong way round marks the board rotated, and every
  position it emits is then turned to White's view;
- clock: readings with impossible values or repeats dropped, acknowledgements matched to
  the one command in flight (see :mod:`drivers.dgt.clock_commands`);
- resync after a reconnection: the board's log since the host last read it comes out as a
  :class:`~drivers.events.LogReplay`, followed by a fresh board dump and a clock reading.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from drivers.dgt.bwtime import (
    ACK_BUTTON,
    BUTTONS,
    HEADER_2015,
    Ack,
    BwTimeError,
    NoClock,
    StatusBits,
    decode_bwtime,
)
from drivers.dgt.clock_commands import ClockCommander
from drivers.dgt.frames import Discarded, Frame, FrameDecoder
from drivers.dgt.messages import (
    LONG_SERIALNR_LENGTH,
    SERIALNR_LENGTH,
    Command,
    MessageError,
    MessageId,
    decode_ascii,
    decode_battery,
    decode_board_dump,
    decode_bus_address,
    decode_field_update,
    decode_version,
)
from drivers.dgt.records import (
    Record,
    Tag,
    TagRecord,
    decode_log,
    records_after_last,
    replay_positions,
)
from drivers.dgt.rotation import orientation_of, turned
from drivers.events import (
    EMPTY_POSITION,
    BoardEvent,
    BoardStatus,
    ClockButtonPressed,
    ClockCommand,
    ClockCommandResult,
    ClockReading,
    FieldChange,
    Health,
    LineNoise,
    LogReplay,
    Position,
    PositionSnapshot,
    SetAndRun,
)

UPDATE_MODES = (Command.SEND_UPDATE_NICE, Command.SEND_UPDATE, Command.SEND_UPDATE_BRD)


@dataclass(frozen=True, slots=True)
class DgtOptions:
    """Knobs of the single-board protocol; the defaults suit USB and Bluetooth boards."""

    status_bits: StatusBits = HEADER_2015
    #: Ask for the clock after this much silence, so a quiet board proves it is there.
    keepalive_seconds: float = 5.0
    #: Silence past the keepalive answer's due time that makes a board "delayed" ...
    delayed_after: float = 2.0
    #: ... and "not responding".
    silent_after: float = 10.0
    ack_timeout: float = 2.5
    clock_attempts: int = 3
    #: How the board reports changes: SEND_UPDATE_NICE (clock messages only on a change,
    #: the default), SEND_UPDATE (clock messages every second too) or SEND_UPDATE_BRD
    #: (no clock messages, and no clock acknowledgements).
    update_mode: Command = Command.SEND_UPDATE_NICE
    #: Read the board's log when connecting, so a later resync knows where it left off.
    read_log: bool = True
    #: The host resumes a game in progress (it restarted): replay the log at the first read
    #: from the board's last power-up, for the host to pick up moves made meanwhile.
    resume: bool = False


class DgtBoardProtocol:
    """One DGT board in single-board mode, from the host's side."""

    def __init__(self, options: DgtOptions | None = None) -> None:
        self.options = options or DgtOptions()
        if self.options.update_mode not in UPDATE_MODES:
            raise ValueError(f"{self.options.update_mode!r} is not an update mode")
        self._decoder = FrameDecoder()
        self._events: list[BoardEvent] = []
        self._outgoing = bytearray()
        self._clock = ClockCommander(
            ack_timeout=self.options.ack_timeout, max_attempts=self.options.clock_attempts
        )
        self._raw: Position = EMPTY_POSITION  # as the board numbers it
        self._have_position = False
        self._status = BoardStatus(health=Health.ACTIVE)
        self._last_reading: ClockReading | None = None
        self._last_seen: float | None = None
        self._last_sent = 0.0
        self._awaiting: float | None = None  # since when an answer is overdue, if one is
        self._log_base: Position | None = None  # raw position when the log was last read
        self._reading_log = False
        self._replay_pending = False

    # -- the host's side --------------------------------------------------------------

    @property
    def position(self) -> Position | None:
        """The board as last reported, in White's view, or None before the first dump."""
        return self._view(self._raw) if self._have_position else None

    @property
    def status(self) -> BoardStatus:
        return replace(self._status, last_seen=self._last_seen)

    @property
    def deadline(self) -> float | None:
        """When :meth:`advance` must be called next."""
        options = self.options
        times = [self._last_sent + options.keepalive_seconds]
        if (clock := self._clock.deadline) is not None:
            times.append(clock)
        if self._awaiting is not None:
            for after in (options.delayed_after, options.silent_after):
                if self._awaiting + after > self._last_sent:
                    times.append(self._awaiting + after)
        return min(times)

    def start(self, now: float) -> None:
        """Take over a board that was just connected: identity, log mark, dump, clock,
        updates.

        The clock is read with the dump: in update mode nice the board reports it only when
        it changes, so the first reading would otherwise be the first press after
        connecting, which nobody could tell for a press (whoever counts the presses to
        catch up with moves would be one short).
        """
        self._send(Command.SEND_RESET, now)
        for command in (
            Command.RETURN_SERIALNR,
            Command.RETURN_LONG_SERIALNR,
            Command.SEND_VERSION,
            Command.SEND_BATTERY_STATUS,
        ):
            self._send(command, now)
        if self.options.read_log:
            self._reading_log = True
            self._send(Command.SEND_EE_MOVES, now)
        self._send(Command.SEND_BRD, now)
        self._send(Command.SEND_CLK, now)
        self._send(self.options.update_mode, now)

    def resync(self, now: float) -> None:
        """The link came back: replay what the board logged meanwhile, then dump, and read
        the clock (as at :meth:`start`)."""
        self._decoder = FrameDecoder()
        self._replay_pending = self.options.read_log and self._log_base is not None
        self._send(Command.SEND_RESET, now)
        if self.options.read_log:
            self._reading_log = True
            self._send(Command.SEND_EE_MOVES, now)
        self._send(Command.SEND_BRD, now)
        self._send(Command.SEND_CLK, now)
        self._send(self.options.update_mode, now)

    def send(self, command: ClockCommand, now: float) -> None:
        """Queue a clock command; raises ClockCommandError for one the clock cannot take."""
        self._clock.submit(command)
        self._outgoing += self._clock.data_to_send(now)

    def lost(self, reason: str) -> None:
        """The port is gone: queued clock commands fail, health becomes disconnected."""
        self._events += self._clock.abandon(reason)
        self._set_status(health=Health.DISCONNECTED)

    def data_to_send(self) -> bytes:
        data = bytes(self._outgoing)
        self._outgoing.clear()
        return data

    def events_received(self) -> list[BoardEvent]:
        events, self._events = self._events, []
        return events

    def receive_data(self, data: bytes, now: float) -> None:
        if data:
            self._awaiting = None  # any byte, even of a long log still arriving, is an answer
        for item in self._decoder.feed(data):
            if isinstance(item, Discarded):
                self._events.append(LineNoise(len(item.data), item.reason))
                continue
            self._last_seen = now
            try:
                self._handle(item, now)
            except (MessageError, BwTimeError) as error:
                size = len(item.payload) + 3
                self._events.append(LineNoise(size, f"{item.message_id:#04x}: {error}"))
        if self._last_seen == now and self._status.health is not Health.ACTIVE:
            self._set_status(health=Health.ACTIVE)

    def advance(self, now: float) -> None:
        """Resend overdue clock commands, keep a quiet board talking, update health."""
        resend, events = self._clock.poll(now)
        self._outgoing += resend
        self._events += events
        self._outgoing += self._clock.data_to_send(now)
        if now - self._last_sent >= self.options.keepalive_seconds:
            self._send(Command.SEND_CLK, now)
        if self._status.health is not Health.DISCONNECTED and self._awaiting is not None:
            silence = now - self._awaiting
            if silence < self.options.delayed_after:
                health = Health.ACTIVE
            elif silence < self.options.silent_after:
                health = Health.DELAYED
            else:
                health = Health.NOT_RESPONDING
            self._set_status(health=health)

    # -- the board's side -------------------------------------------------------------

    def _send(self, command: Command, now: float) -> None:
        self._outgoing.append(command)
        self._last_sent = now
        if self._awaiting is None:
            self._awaiting = now

    def _handle(self, frame: Frame, now: float) -> None:
        kind = frame.message_id
        payload = frame.payload
        if kind == MessageId.BOARD_DUMP:
            self._dump(decode_board_dump(payload))
        elif kind == MessageId.FIELD_UPDATE:
            self._field_update(payload)
        elif kind == MessageId.BWTIME:
            self._bwtime(payload)
        elif kind == MessageId.EE_MOVES:
            self._board_log(payload)
        elif kind == MessageId.SERIALNR:
            self._set_status(serial=decode_ascii(payload[:SERIALNR_LENGTH], SERIALNR_LENGTH))
        elif kind == MessageId.LONG_SERIALNR:
            self._set_status(long_serial=decode_ascii(payload, LONG_SERIALNR_LENGTH))
        elif kind == MessageId.VERSION:
            self._set_status(version=decode_version(payload))
        elif kind == MessageId.BATTERY_STATUS:
            percent, charging = decode_battery(payload)
            self._set_status(battery_percent=percent, battery_charging=charging)
        elif kind == MessageId.TRADEMARK:
            self._set_status(trademark=decode_ascii(payload))
        elif kind == MessageId.BUSADRES:
            self._set_status(bus_address=decode_bus_address(payload))
        # Unknown ids were framed by their length and are skipped.

    def _dump(self, raw: Position) -> None:
        self._raw = raw
        self._have_position = True
        if self._reading_log or self._log_base is None:
            self._log_base = raw
        self._reading_log = False
        self._check_orientation()
        self._events.append(PositionSnapshot(self._view(raw)))

    def _field_update(self, payload: bytes) -> None:
        square, piece = decode_field_update(payload)
        if not self._have_position:
            return  # the dump asked for at start-up brings the whole position
        squares = list(self._raw)
        squares[square] = piece
        self._raw = tuple(squares)
        self._check_orientation()
        shown = 63 - square if self._status.rotated else square
        self._events.append(FieldChange(shown, piece, self._view(self._raw)))

    def _bwtime(self, payload: bytes) -> None:
        decoded = decode_bwtime(payload, self.options.status_bits)
        if decoded is None:
            return
        if isinstance(decoded, Ack):
            if decoded.ack1 == ACK_BUTTON and decoded.ack3 in BUTTONS:
                self._events.append(ClockButtonPressed(BUTTONS[decoded.ack3]))
            results = self._clock.on_ack(decoded)
            if any(
                isinstance(r, ClockCommandResult) and r.ok and isinstance(r.command, SetAndRun)
                for r in results
            ):
                self._last_reading = None  # the times were set: the next reading is the truth
            self._events += results
            return
        if isinstance(decoded, NoClock):
            self._set_status(clock_connected=False)
            return
        self._set_status(clock_connected=True)
        if decoded == self._last_reading or not _plausible(self._last_reading, decoded):
            return
        self._last_reading = decoded
        self._events.append(decoded)

    def _board_log(self, payload: bytes) -> None:
        base = self._log_base
        if base is None and self.options.resume:
            self._replay_since_power_up(decode_log(payload).records)
            return
        if not self._replay_pending or base is None:
            return  # the first read only marks the log; nothing to replay
        self._replay_pending = False
        records = records_after_last(decode_log(payload).records, Tag.DOWNLOADED)
        # The host saw the board live until the link broke, at the position it knew last.
        raw = replay_positions(base, records, last_known=self._raw)
        if raw:
            self._events.append(LogReplay(tuple(self._view(position) for position in raw)))

    def _replay_since_power_up(self, records: list[Record]) -> None:
        """Everything the board logged since it was switched on (it logs every piece then)."""
        starts = [
            i for i, r in enumerate(records) if isinstance(r, TagRecord) and r.tag == Tag.POWER_UP
        ]
        if not starts:
            return  # the ring no longer holds a complete position to start from
        trail = replay_positions(EMPTY_POSITION, records[starts[-1] :])
        orientations = [o for o in map(orientation_of, trail) if o is not None]
        if orientations and orientations[-1] != self._status.rotated:
            self._set_status(rotated=orientations[-1])
        if trail:
            self._events.append(LogReplay(tuple(self._view(position) for position in trail)))

    def _check_orientation(self) -> None:
        rotated = orientation_of(self._raw)
        if rotated is not None and rotated != self._status.rotated:
            self._set_status(rotated=rotated)

    def _view(self, raw: Position) -> Position:
        return turned(raw) if self._status.rotated else raw

    def _set_status(self, **changes: object) -> None:
        """Apply changes and announce the status if anything changed.

        The stored status leaves ``last_seen`` out (it changes with every message, and is
        filled in when the status is read or announced).
        """
        status = replace(self._status, **changes)  # type: ignore[arg-type]
        if status != self._status:
            self._status = status
            self._events.append(self.status)


def _plausible(previous: ClockReading | None, reading: ClockReading) -> bool:
    """A running side's time never goes up while it keeps running (no press in between)."""
    if previous is None:
        return True
    for before, after, moving_before, moving_after in (
        (previous.left, reading.left, previous.left_to_move, reading.left_to_move),
        (previous.right, reading.right, previous.right_to_move, reading.right_to_move),
    ):
        if (
            previous.running
            and reading.running
            and moving_before
            and moving_after
            and after.seconds > before.seconds
        ):
            return False
    return True
