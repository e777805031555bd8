"""Pairing a Swiss round with an external engine, the way arbiters run JaVaFo or bbpPairings.

The engine is the ``py4swiss`` program (FIDE Dutch system by default). We write the
tournament as a TRF(x) file in a temporary directory, run
``py4swiss -t round.trf -p pairings.txt -e dutch`` as a subprocess with a deadline, and read
the pairings file: the number of pairs on the first line, then one ``WHITE BLACK`` line per
board, the pairing-allocated bye written ``N 0``. It is run as a program, never imported, so
its dependencies stay out of our process and another engine with the same interface can
replace it.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from relay.domain.errors import RefusedError
from relay.domain.formats.trf import render_trf
from relay.domain.tournament.swiss import SwissState, engine_trf

ENGINE_NAME = "py4swiss"
DEFAULT_TIME_LIMIT = 60.0
_STDERR_TAIL_LINES = 15


class PairingEngineError(RefusedError):
    """The engine could not be run, failed, timed out, or wrote pairings we cannot use.

    ``stderr_tail`` holds the last lines the engine wrote to its standard error, if any.
    """

    def __init__(self, message: str, *, stderr_tail: str = "") -> None:
        last = stderr_tail.strip().splitlines()[-1:] if stderr_tail.strip() else []
        super().__init__(f"{message}: {last[0]}" if last else message)
        self.reason = message
        self.stderr_tail = stderr_tail


@dataclass(frozen=True)
class RoundPairing:
    """Boards in the engine's order as (White, Black) start numbers, and the
    pairing-allocated bye."""

    pairs: tuple[tuple[int, int], ...]
    bye: int | None = None


def parse_pairings(text: str) -> RoundPairing:
    """Read an engine's pairings file; anything off is a :class:`PairingEngineError`."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines or not lines[0].isdigit():
        raise PairingEngineError(f"pairings file does not start with a count: {text[:40]!r}")
    count = int(lines[0])
    if count != len(lines) - 1:
        raise PairingEngineError(f"pairings file announces {count} pairs but has {len(lines) - 1}")
    pairs: list[tuple[int, int]] = []
    bye: int | None = None
    seen: set[int] = set()
    for number, line in enumerate(lines[1:], start=2):
        fields = line.split()
        if len(fields) != 2 or not all(f.isascii() and f.isdigit() for f in fields):
            raise PairingEngineError(f"pairings line {number} is not two numbers: {line!r}")
        white, black = int(fields[0]), int(fields[1])
        players = [n for n in (white, black) if n != 0]
        if white == 0 or white == black:
            raise PairingEngineError(f"pairings line {number} is not a pair or a bye: {line!r}")
        repeated = seen.intersection(players)
        if repeated:
            raise PairingEngineError(f"player {min(repeated)} is paired twice (line {number})")
        seen.update(players)
        if black == 0:
            if bye is not None:
                raise PairingEngineError(f"second bye on pairings line {number}: {line!r}")
            bye = white
        else:
            pairs.append((white, black))
    return RoundPairing(tuple(pairs), bye)


@dataclass(frozen=True)
class PairingEngine:
    """An installed engine program and how long one round may take it."""

    executable: Path
    system: str = "dutch"
    time_limit: float = DEFAULT_TIME_LIMIT

    @classmethod
    def find(cls, *, time_limit: float = DEFAULT_TIME_LIMIT) -> PairingEngine:
        """The ``py4swiss`` program installed beside our interpreter, else the one on PATH."""
        beside = Path(sys.executable).with_name(ENGINE_NAME)
        if beside.is_file():
            return cls(beside, time_limit=time_limit)
        found = shutil.which(ENGINE_NAME)
        if found is None:
            raise PairingEngineError(f"no {ENGINE_NAME} program beside {sys.executable} or on PATH")
        return cls(Path(found), time_limit=time_limit)

    async def pair(self, trf_text: str) -> RoundPairing:
        """Pair the next round of the tournament in ``trf_text`` (a TRF(x) with ranks)."""
        name = self.executable.name
        with tempfile.TemporaryDirectory(prefix="relay-pairing-") as folder:
            trf_path, out_path = Path(folder, "round.trf"), Path(folder, "pairings.txt")
            await asyncio.to_thread(trf_path.write_text, trf_text, encoding="utf-8")
            try:
                process = await asyncio.create_subprocess_exec(
                    str(self.executable),
                    *("-t", str(trf_path), "-p", str(out_path), "-e", self.system),
                    stdin=asyncio.subprocess.DEVNULL,
                    stdout=asyncio.subprocess.PIPE,
                    stderr=asyncio.subprocess.PIPE,
                )
            except OSError as error:
                raise PairingEngineError(f"cannot start {self.executable}: {error}") from error
            try:
                async with asyncio.timeout(self.time_limit):
                    _, stderr = await process.communicate()
            except TimeoutError:
                raise PairingEngineError(f"{name} took longer than {self.time_limit:g} s") from None
            finally:
                # Timed out or cancelled: the engine must not outlive the request.
                if process.returncode is None:
                    process.kill()
                    await process.wait()
            tail = _tail(stderr)
            if process.returncode != 0:
                raise PairingEngineError(
                    f"{name} exited with status {process.returncode}", stderr_tail=tail
                )
            try:
                text = await asyncio.to_thread(out_path.read_text, encoding="utf-8")
            except (OSError, UnicodeDecodeError) as error:
                raise PairingEngineError(
                    f"{name} wrote no readable pairings file: {error}", stderr_tail=tail
                ) from error
        return parse_pairings(text)

    async def pair_next_round(self, state: SwissState) -> RoundPairing:
        """Pair ``state.next_round`` and check that the engine placed every player exactly
        once (those with a requested bye not at all)."""
        pairing = await self.pair(render_trf(engine_trf(state)))
        placed = [n for pair in pairing.pairs for n in pair]
        if pairing.bye is not None:
            placed.append(pairing.bye)
        expected = {p.start_number for p in state.players} - set(state.requested_byes)
        if sorted(placed) != sorted(expected):
            missing, extra = sorted(expected - set(placed)), sorted(set(placed) - expected)
            raise PairingEngineError(
                f"round {state.next_round} pairing leaves out {missing} and places {extra}"
            )
        return pairing


def _tail(stderr: bytes) -> str:
    lines = stderr.decode("utf-8", errors="replace").rstrip().splitlines()
    return "\n".join(lines[-_STDERR_TAIL_LINES:])
