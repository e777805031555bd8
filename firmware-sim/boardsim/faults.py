"""Faults on demand: a small spec language, and what each fault does to a board or a line.

Spec (``boardsim serve --faults SPEC``)::

    SPEC  := FAULT (";" FAULT)*
    FAULT := KIND ["@" SECONDS] [":" PARAM ("," PARAM)*]
    PARAM := "board=" N | "bytes=" N | "for=" SECONDS | "every=" SECONDS

``@SECONDS`` is when the fault starts, counted from the moment the boards are ready (default
0; a trailing ``s`` is allowed). ``board=N`` picks board N (1-based, as in the JSON lines);
without it the fault hits every board (or every line). ``for`` ends the fault after that long
(else it lasts, except where noted), ``every`` repeats it.

==========  =============================================================================
kind        what happens
==========  =============================================================================
garbage     ``bytes`` random bytes (default 16, seeded) appear on the line
drop        the next ``bytes`` bytes (default 16) the firmware sends are lost
badsum      the next bus reply carries a wrong checksum (REPEAT_CHANGES gets a good one)
vanish      the port disappears for ``for`` seconds (default 2) and comes back; a pty comes
            back under the same path if the host has let go of its old handle by then
            (see :mod:`boardsim.pty_link`), a TCP port on the same port number
mute        the board stops answering and reporting (it keeps scanning and logging)
battery     low battery: BWTIME status bit 2, and BATTERY_STATUS shows 5 %
noclock     the clock is unplugged: BWTIME says "no clock"; back with a "ready" ack
noack       the clock's command channel is broken: it ignores every clock command from the
            board (SETNRUN, DISPLAY, BEEP, ...) — no effect, no ack — but keeps counting and
            its times are reported as usual
==========  =============================================================================

Example: ``garbage@5:bytes=32; vanish@10:board=2,for=3; mute@20:board=1,for=5;
noack@30:board=3,for=10``.

Line faults (garbage, drop, vanish) act on the line carrying the board, so on a bus chain
they hit every board of the chain. :func:`start_fault` and :func:`end_fault` do one fault
now; :func:`inject` does one from start to end on the running loop.
"""

from __future__ import annotations

import asyncio
import random
import re
from dataclasses import dataclass
from enum import Enum

from boardsim.board import VirtualBoard
from boardsim.link import Link


class FaultKind(Enum):
    GARBAGE = "garbage"
    DROP = "drop"
    BADSUM = "badsum"
    VANISH = "vanish"
    MUTE = "mute"
    BATTERY = "battery"
    NOCLOCK = "noclock"
    NOACK = "noack"


#: Faults done to the line rather than to a board's firmware.
LINE_FAULTS = frozenset({FaultKind.GARBAGE, FaultKind.DROP, FaultKind.VANISH})

_DEFAULT_BYTES = 16
_DEFAULT_VANISH = 2.0


class FaultSpecError(ValueError):
    """A fault spec that does not parse; the message says where."""


@dataclass(frozen=True, slots=True)
class Fault:
    kind: FaultKind
    at: float = 0.0
    board: int | None = None
    count: int = _DEFAULT_BYTES
    duration: float | None = None
    every: float | None = None

    def __post_init__(self) -> None:
        if self.at < 0 or self.count < 0:
            raise FaultSpecError(f"{self}: negative time or count")
        if self.board is not None and self.board < 1:
            raise FaultSpecError(f"{self}: boards are numbered from 1")
        if self.duration is not None and self.duration < 0:
            raise FaultSpecError(f"{self}: negative duration")
        if self.every is not None and self.every <= (self.duration or 0):
            raise FaultSpecError(f"{self}: 'every' must be longer than 'for'")

    @property
    def length(self) -> float | None:
        """How long the fault lasts, None for good."""
        if self.kind is FaultKind.VANISH:
            return _DEFAULT_VANISH if self.duration is None else self.duration
        return self.duration


_FAULT = re.compile(r"(?P<kind>[a-z]+)(?:@(?P<at>[0-9.]+)s?)?(?::(?P<params>.*))?")
_PARAM = re.compile(r"(?P<name>board|bytes|for|every)=(?P<value>[0-9.]+)s?")


def parse_faults(spec: str) -> list[Fault]:
    """The faults of a spec, in the order written; raises :class:`FaultSpecError`."""
    faults = []
    for text in (part.strip() for part in spec.split(";")):
        if not text:
            continue
        found = _FAULT.fullmatch(text.replace(" ", ""))
        if found is None:
            raise FaultSpecError(f"fault {text!r}: expected KIND[@SECONDS][:PARAM,...]")
        try:
            kind = FaultKind(found["kind"])
        except ValueError:
            kinds = ", ".join(k.value for k in FaultKind)
            raise FaultSpecError(f"fault {text!r}: kind is one of {kinds}") from None
        params: dict[str, float] = {}
        for param in filter(None, (found["params"] or "").split(",")):
            matched = _PARAM.fullmatch(param)
            if matched is None:
                raise FaultSpecError(f"fault {text!r}: bad parameter {param!r}")
            params[matched["name"]] = _number(matched["value"], text)
        faults.append(
            Fault(
                kind,
                at=_number(found["at"], text) if found["at"] else 0.0,
                board=int(params["board"]) if "board" in params else None,
                count=int(params.get("bytes", _DEFAULT_BYTES)),
                duration=params.get("for"),
                every=params.get("every"),
            )
        )
    return faults


def _number(text: str, where: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise FaultSpecError(f"fault {where!r}: {text!r} is not a number") from None


def start_fault(
    fault: Fault,
    link: Link,
    boards: list[VirtualBoard],
    rng: random.Random,
    now: float,
) -> None:
    """Begin ``fault`` now on ``boards`` (a board fault) or ``link`` (a line fault)."""
    kind = fault.kind
    if kind is FaultKind.GARBAGE:
        link.inject_garbage(rng.randbytes(fault.count))
    elif kind is FaultKind.DROP:
        link.line.drop(fault.count)
    elif kind is FaultKind.VANISH:
        link.vanish()
    for board in boards:
        if kind is FaultKind.BADSUM:
            board.corrupt_next_checksum()
        elif kind is FaultKind.MUTE:
            board.mute()
        elif kind is FaultKind.BATTERY:
            board.set_battery_low(True)
        elif kind is FaultKind.NOCLOCK and board.clock is not None:
            board.advance(now)
            board.clock.set_connected(False, now)
        elif kind is FaultKind.NOACK and board.clock is not None:
            board.clock.ignores_commands = True
    link.flush()


async def end_fault(fault: Fault, link: Link, boards: list[VirtualBoard], now: float) -> None:
    """Undo ``fault`` (for the kinds that last)."""
    kind = fault.kind
    if kind is FaultKind.VANISH:
        await link.reappear()
    for board in boards:
        if kind is FaultKind.MUTE:
            board.unmute()
        elif kind is FaultKind.BATTERY:
            board.set_battery_low(False)
        elif kind is FaultKind.NOCLOCK and board.clock is not None:
            board.advance(now)
            board.clock.set_connected(True, now)
        elif kind is FaultKind.NOACK and board.clock is not None:
            board.clock.ignores_commands = False
    link.flush()


async def inject(
    link: Link,
    fault: Fault,
    *,
    boards: list[VirtualBoard] | None = None,
    rng: random.Random | None = None,
) -> None:
    """Do ``fault`` to ``link`` (and ``boards``, default: all of the link's) now, wait for
    its length, and undo it. Faults with no length stay on."""
    loop = asyncio.get_running_loop()
    targets = list(link.boards) if boards is None else boards
    start_fault(fault, link, targets, rng or random.Random(0), loop.time())
    length = fault.length
    if length is None:
        return
    await asyncio.sleep(length)
    await end_fault(fault, link, targets, loop.time())
