"""Faults between the venue and the hub, with real processes: nothing lost, nothing doubled,
and the console shows the outage (docs/venue-agent.md).

boardsim plays real games on pseudo-terminals; ``relay agent`` reads them through the real
DGT driver and its queue and sends them through a TCP proxy (tests/link_proxy.py, the
venue's internet) to ``relay serve``, which follows the boards as ``agent://hall/N``
(tests/venue_round.py). Each round plays the longest bundled games on ``--boards`` boards
and inflicts one kind of fault again and again while at least half the games go on; rounds
follow each other, one kind after the other, until every kind has had ``--trials``:

* cut: every connection closed and new ones refused for 2-5 s;
* blackhole: connections stay open and nothing passes either way, until the agent's pings
  go unanswered and it connects again (held too); then the link comes back;
* delay: 0.3-0.8 s added each way (a longer line, not a slower one) for 4-8 s;
* hub-kill: the hub killed with SIGKILL, started again 0.5-2 s later on the same database;
* agent-kill: the agent killed with SIGKILL at a random moment (inputs are being queued
  all the time, so some kills land mid-write), started again at once on the same queue.

After each fault the bench waits for the agent to be connected again and for its queue to
be acknowledged, then lets the round play on for 1-3 s. Throughout, a poller reads the
console's ``GET /api/agents`` five times a second: an outage is *shown away* when a read
during it said the agent was not connected, and *shown silent* when one said the agent had
not been heard from for more than 2 s (the console shows when it was last heard). While
the hub is killed its console is down with it.

At the end of each round, once every game is over: every stored game against what
boardsim played (lost: plies played and not stored; extra: stored and not played;
repeated: log entries that put a move where the same move already stood), and the hub's
kept inputs against the agent's queue (``seq`` 1..N each once). Prints a line per fault
and per round as it goes, then a table per fault. Never fails.

    .venv/bin/python -m bench.venue_faults [--trials 20]
        [--faults cut,blackhole,delay,hub-kill,agent-kill] [--boards 8] [--ply-seconds 0.5]
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import random
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import chess.pgn
from sqlmodel import Session

from bench.boardsim_process import BoardsimProcess
from bench.durability import stored_moves
from relay.demo.pgn_round import bundled_games
from relay.store.engine import open_store
from relay.store.tournaments import list_games
from tests.e2e.test_kill_restart import follow
from tests.link_proxy import LinkProxy
from tests.relay_serve import relay_serve
from tests.venue_round import (
    VenueAgent,
    agent_round,
    agent_status,
    kept_inputs,
    operator_token,
    port_of,
    queue_counters,
    queue_emptied,
    wait_for,
)

FAULTS = ("cut", "blackhole", "delay", "hub-kill", "agent-kill")
#: Seconds, drawn uniformly: a cut; the delay each way and how long it lasts; the hub down.
CUT_SECONDS = (2.0, 5.0)
DELAY_SECONDS = (0.3, 0.8)
DELAY_LASTS = (4.0, 8.0)
HUB_DOWN_SECONDS = (0.5, 2.0)
#: Play between faults, once the agent has caught up.
CALM_SECONDS = (1.0, 3.0)
#: The console reads the agent as silent when it was last heard longer ago than this.
SILENT_SECONDS = 2.0
#: The console is read this often.
POLL_SECONDS = 0.2
#: Waits for the agent to be back and caught up, for the last game, for the hub to decide
#: every move.
RECOVER_SECONDS = 60.0
FINISH_SECONDS = 600.0


@dataclass
class Tally:
    """One kind of fault, over its rounds."""

    trials: int = 0
    rounds: int = 0
    moves: int = 0
    lost: int = 0
    extra: int = 0
    repeated: int = 0
    inputs: int = 0
    inputs_missing: int = 0
    inputs_doubled: int = 0
    #: Outages the console could have shown (it was up), and those it showed.
    watched: int = 0
    away: int = 0
    silent: int = 0
    #: Trials after which the agent was not back and caught up in time.
    unrecovered: int = 0
    details: list[str] = field(default_factory=list)


class Console(threading.Thread):
    """Reads ``GET /api/agents`` at the hub's address (None while it is down) until
    stopped: (when, connected, last heard) per read, connected None when the read failed."""

    def __init__(self, token: str) -> None:
        super().__init__(daemon=True)
        self.token = token
        self.address: str | None = None
        self.reads: list[tuple[float, bool | None, float | None]] = []
        self._stopping = threading.Event()

    def run(self) -> None:
        while not self._stopping.wait(POLL_SECONDS):
            address = self.address
            if address is None:
                continue
            read: tuple[float, bool | None, float | None]
            try:
                status = agent_status(address, self.token, timeout=2)
                read = (time.time(), bool(status["connected"]), status.get("last_heard"))
            except (OSError, IndexError, ValueError):
                read = (time.time(), None, None)
            self.reads.append(read)

    def stop(self) -> None:
        self._stopping.set()
        self.join(timeout=10)

    def during(self, start: float, end: float) -> tuple[bool, bool]:
        """Whether a read between ``start`` and ``end`` showed the agent away, and silent."""
        reads = [read for read in self.reads if start <= read[0] <= end]
        away = any(connected is False for _, connected, _ in reads)
        silent = any(
            heard is not None and when - heard > SILENT_SECONDS for when, _, heard in reads
        )
        return away, silent

    def back_since(self, start: float) -> bool:
        """The agent is connected on a connection it made after ``start``."""
        if self.address is None:
            return False
        try:
            status = agent_status(self.address, self.token, timeout=2)
        except (OSError, IndexError, ValueError):
            return False
        return bool(status["connected"]) and (status.get("since") or 0) >= start


class Hub:
    """``relay serve`` on the round's database, killed and started again."""

    def __init__(self, folder: Path, event: Path, db: str) -> None:
        self.folder, self.event, self.db = folder, event, db
        self._scope = contextlib.ExitStack()
        self.process: subprocess.Popen[str] | None = None

    def start(self) -> str:
        self.process, address = self._scope.enter_context(
            relay_serve(self.folder, self.event, self.db)
        )
        return address

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)
        self._scope.close()

    def stop(self) -> None:
        self._scope.close()


@dataclass
class Trial:
    fault: str
    start: float
    end: float
    away: bool | None
    silent: bool | None
    note: str
    #: The agent was back and its queue acknowledged in time.
    recovered: bool


class Round:
    """One round: boardsim, the hub, the proxy, the agent and the console's poller."""

    def __init__(
        self,
        boardsim: BoardsimProcess,
        hub: Hub,
        proxy: LinkProxy,
        agent: VenueAgent,
        console: Console,
        chance: random.Random,
    ) -> None:
        self.boardsim, self.hub, self.proxy = boardsim, hub, proxy
        self.agent, self.console, self.chance = agent, console, chance

    def inflict(self, fault: str) -> Trial:
        start = time.time()
        note = ""
        if fault == "cut":
            self.proxy.cut()
            time.sleep(self.chance.uniform(*CUT_SECONDS))
            self.proxy.restore()
        elif fault == "blackhole":
            held = self.proxy.accepted
            self.proxy.blackhole()
            try:  # the agent's pings go unanswered; it connects again, held too
                self.proxy.wait_accepted(held + 1, RECOVER_SECONDS)
            except TimeoutError:
                note = "the agent did not connect again while held"
            self.proxy.restore()
        elif fault == "delay":
            delay = self.chance.uniform(*DELAY_SECONDS)
            self.proxy.delay(delay)
            time.sleep(self.chance.uniform(*DELAY_LASTS))
            self.proxy.restore()
            note = f"{delay * 1000:.0f} ms each way"
        elif fault == "hub-kill":
            self.console.address = None
            self.hub.kill()
            time.sleep(self.chance.uniform(*HUB_DOWN_SECONDS))
            address = self.hub.start()
            self.proxy.retarget(port_of(address))
            self.console.address = address
        elif fault == "agent-kill":
            time.sleep(self.chance.uniform(0.0, 0.5))  # a random moment within a move or two
            start = time.time()
            self.agent.kill()
            self.agent.start()  # on the same queue
        else:
            raise ValueError(f"no fault {fault!r}")
        restored = time.time()
        recovered = True
        try:
            if fault != "delay":
                wait_for(lambda: self.console.back_since(start), RECOVER_SECONDS, "reconnection")
            end = time.time()
            numbered = (queue_counters(self.agent.queue) or (0, 0))[0]
            wait_for(lambda: self._acked(numbered), RECOVER_SECONDS, "acknowledgements")
        except TimeoutError as error:
            end, recovered = time.time(), False
            note = f"{note}; {error}".lstrip("; ")
        if fault == "hub-kill":
            return Trial(fault, start, end, None, None, note, recovered)
        away, silent = self.console.during(start, restored if fault == "blackhole" else end)
        return Trial(fault, start, end, away, silent, note, recovered)

    def _acked(self, seq: int) -> bool:
        counters = queue_counters(self.agent.queue)
        return counters is not None and counters[1] >= seq


def longest_games(boards: int, folder: Path) -> Path:
    """A PGN file of the ``boards`` longest bundled games, longest first: the boards of a
    round finish close together."""
    games = []
    with bundled_games().open(encoding="utf-8") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            games.append(game)
    games.sort(key=lambda game: -len(list(game.mainline_moves())))
    path = folder / "games.pgn"
    path.write_text("\n\n".join(str(game) for game in games[:boards]) + "\n", encoding="utf-8")
    return path


def stored_by_board(db: str) -> dict[int, tuple[list[str], int]]:
    """Per board: its game's moves as stored, and log entries that repeat a move."""
    engine = open_store(db)
    try:
        with Session(engine) as session:
            board_of = {game.id: game.board for game in list_games(session, round_id=1)}
    finally:
        engine.dispose()
    return {board_of[game]: stored for game, stored in stored_moves(db).items()}


def compare(played: list[str], stored: list[str]) -> tuple[int, int, str]:
    """Plies played and not stored, stored and not played, and where they differ."""
    lost = extra = 0
    where = []
    opcodes = difflib.SequenceMatcher(a=played, b=stored, autojunk=False).get_opcodes()
    for tag, i1, i2, j1, j2 in opcodes:
        if tag in ("delete", "replace"):
            lost += i2 - i1
            where.append(f"plies {i1 + 1}-{i2} not stored")
        if tag in ("insert", "replace"):
            extra += j2 - j1
            where.append(f"stored plies {j1 + 1}-{j2} ({' '.join(stored[j1:j2])}) not played")
    return lost, extra, ", ".join(where)


def play_round(
    number: int,
    fault: str,
    wanted: int,
    tally: Tally,
    games: Path,
    args: argparse.Namespace,
    folder: Path,
) -> None:
    chance = random.Random(args.seed * 1000 + number)
    folder.mkdir()
    began = time.monotonic()
    trials: list[Trial] = []
    options = ("--ply-seconds", str(args.ply_seconds), "--touch-seconds", "0.03")
    with agent_round(
        folder, seed=args.seed * 1000 + number, boards=args.boards, games=games, options=options
    ) as (boardsim, expected, event, db):
        hub = Hub(folder, event, db)
        address = hub.start()
        token = operator_token(db)
        console = Console(token)
        console.address = address
        console.start()
        with LinkProxy(port_of(address)) as proxy:
            agent = VenueAgent(folder, proxy.port, token, boardsim.ports)
            try:
                agent.start()
                round_ = Round(boardsim, hub, proxy, agent, console, chance)
                half = (args.boards + 1) // 2
                while len(trials) < wanted:
                    time.sleep(chance.uniform(*CALM_SECONDS))
                    if len(boardsim.finished) >= half:
                        break
                    trial = round_.inflict(fault)
                    trials.append(trial)
                    tally.trials += 1
                    shown = (
                        "console down with the hub"
                        if trial.away is None
                        else f"console showed it away: {yes(trial.away)}, "
                        f"silent: {yes(trial.silent)}"
                    )
                    print(
                        f"  round {number} at {time.monotonic() - began:.0f} s, {fault} "
                        f"{tally.trials}/{args.trials}: {trial.end - trial.start:.1f} s, {shown}"
                        f"{'; ' + trial.note if trial.note else ''}; "
                        f"{len(boardsim.moved)} moves played",
                        flush=True,
                    )
                boardsim.wait_until(
                    lambda: len(boardsim.finished) == args.boards, FINISH_SECONDS, "last game"
                )
                finished = {board: len(moves) for board, moves in expected.items()}
                stream = f"ws://{console.address}api/rounds/1/stream"
                with contextlib.suppress(AssertionError, OSError):  # compared below
                    follow(stream, lambda plies: plies == finished, RECOVER_SECONDS)
                with contextlib.suppress(TimeoutError):
                    wait_for(lambda: queue_emptied(agent.queue), RECOVER_SECONDS, "empty queue")
            finally:
                agent.stop()
                console.stop()
                hub.stop()
        moved = dict(boardsim.moved)
    tally.rounds += 1
    tally.unrecovered += sum(1 for trial in trials if not trial.recovered)
    for trial in trials:
        if trial.away is not None:
            tally.watched += 1
            tally.away += trial.away
            tally.silent += bool(trial.silent)
    stored = stored_by_board(db)
    round_lost = round_extra = round_repeated = 0
    for board, played in sorted(expected.items()):
        moves, repeated = stored.get(board, ([], 0))
        lost, extra, where = compare(played, moves)
        round_lost, round_extra, round_repeated = (
            round_lost + lost,
            round_extra + extra,
            round_repeated + repeated,
        )
        tally.moves += len(played)
        if lost or extra or repeated:
            tally.details.append(
                f"round {number} board {board}: {where or 'stored as played'}"
                f"{f', {repeated} repeated log entries' if repeated else ''}"
                f"{when(board, where, moved, trials)}"
            )
    tally.lost += round_lost
    tally.extra += round_extra
    tally.repeated += round_repeated
    kept = kept_inputs(db)
    numbered, _ = queue_counters(agent.queue) or (0, 0)
    missing = len(set(range(1, numbered + 1)) - set(kept))
    doubled = len(kept) - len(set(kept))
    tally.inputs += numbered
    tally.inputs_missing += missing
    tally.inputs_doubled += doubled
    print(
        f"round {number} ({fault}, {len(trials)} faults, {time.monotonic() - began:.0f} s): "
        f"{sum(map(len, expected.values()))} plies in {len(expected)} games; "
        f"lost {round_lost}, extra {round_extra}, repeated {round_repeated}; "
        f"inputs 1..{numbered}: {missing} missing, {doubled} doubled",
        flush=True,
    )


def when(board: int, where: str, moved: dict[tuple[int, int], float], trials: list[Trial]) -> str:
    """When the first ply that differs was played, against the round's faults."""
    if not where.startswith("plies "):
        return ""
    ply = int(where.split()[1].split("-")[0])
    at = moved.get((board, ply))
    if at is None:
        return ""
    for number, trial in enumerate(trials, start=1):
        if trial.start - 1 <= at <= trial.end + 1:
            return f" (ply {ply} played during fault {number} of the round)"
    return f" (ply {ply} played outside the faults)"


def yes(value: bool | None) -> str:
    return "yes" if value else "no"


def table(tallies: dict[str, Tally]) -> None:
    print(
        "\nfault        trials  rounds   plies  lost  duplicated  inputs  missing  doubled  "
        "console: away, silent"
    )
    for fault, tally in tallies.items():
        if fault == "hub-kill":
            shown = "down with the hub"
        else:
            shown = f"{tally.away} of {tally.watched}, {tally.silent} of {tally.watched}"
            if fault == "delay":
                shown += " (no outage: a link that only slows down)"
        print(
            f"{fault:<11}  {tally.trials:>6}  {tally.rounds:>6}  {tally.moves:>6}  "
            f"{tally.lost:>4}  {tally.extra + tally.repeated:>10}  {tally.inputs:>6}  "
            f"{tally.inputs_missing:>7}  {tally.inputs_doubled:>7}  {shown}"
        )
    print(
        "duplicated: plies stored that were not played there, and log entries that put a "
        "move where the same move already stood"
    )
    for fault, tally in tallies.items():
        if tally.unrecovered:
            print(f"{fault}: {tally.unrecovered} trials not caught up within {RECOVER_SECONDS:g} s")
        for line in tally.details:
            print(f"{fault}: {line}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--trials", type=int, default=20, help="faults of each kind")
    parser.add_argument(
        "--faults",
        type=lambda text: [name.strip() for name in text.split(",") if name.strip()],
        default=list(FAULTS),
        help=f"which, comma-separated (default {','.join(FAULTS)})",
    )
    parser.add_argument("--boards", type=int, default=8, help="boards in each round")
    parser.add_argument("--ply-seconds", type=float, default=0.5, help="the boards' pace")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    unknown = sorted(set(args.faults) - set(FAULTS))
    if unknown:
        parser.error(f"no fault {', '.join(unknown)}; the faults are {', '.join(FAULTS)}")
    tallies = {fault: Tally() for fault in args.faults}
    began = time.monotonic()
    print(
        f"{args.trials} trials of {', '.join(args.faults)}; rounds of {args.boards} boards at "
        f"{args.ply_seconds:g} s a ply",
        flush=True,
    )
    with tempfile.TemporaryDirectory(prefix="venue-faults-") as name:
        base = Path(name)
        games = longest_games(args.boards, base)
        number = 0
        while waiting := [f for f in args.faults if tallies[f].trials < args.trials]:
            fault = waiting[number % len(waiting)]
            number += 1
            wanted = args.trials - tallies[fault].trials
            play_round(number, fault, wanted, tallies[fault], games, args, base / f"{number}")
    print(f"\n{sum(t.trials for t in tallies.values())} faults in {number} rounds, "
          f"{(time.monotonic() - began) / 60:.1f} min")  # fmt: skip
    table(tallies)


if __name__ == "__main__":
    main()
