"""Many boards through one venue agent: the latency it adds, its queue, and how fast it
catches up after an outage (docs/venue-agent.md).

boardsim plays real games on ``--boards`` boards (pseudo-terminals, one process, with
clocks unless ``--no-clock``: a running clock reports every second, so most inputs are
clock readings; at ``--ply-seconds`` a ply on each board); ``relay agent`` reads every board
through the real DGT driver and its queue and sends them through a TCP proxy
(tests/link_proxy.py) to ``relay serve`` on the same machine, which follows the boards as
``agent://hall/N`` with its default settle window (0.25 s); one spectator follows the
round's stream. Then, in turn:

1. live play for ``--seconds``: for each move decided in that time,
   * input to spectator: from the driver reading the deciding input at the agent (the
     input's ``wall`` stamp: the board change the hub decided the move on, or the clock
     press that decided it) to the move's arrival on the spectator's websocket; it holds
     the settle window for moves decided when the board stood still;
   * decision to spectator: from the moment the move was decided on the venue's time (its
     ``at``) to its arrival: what the agent and the link add beyond the tracker's own wait
     (the next time mark, the queue, the link, the hub);
   * touch to spectator: from the move's last touch (boardsim's report) to its arrival;
2. the link cut for ``--outage`` seconds, then restored: the catch-up time until the hub
   has acknowledged every input queued by the restore, and until the spectator has every
   move made before it;
3. unless ``--no-baseline``: the same boards wired to a hub directly (a fresh boardsim and
   hub, no agent, no proxy) for ``--seconds``: touch to spectator again. The latency the
   agent adds is the difference between the two touch-to-spectator figures.

All along, the agent's queue depth (inputs numbered and not yet acknowledged) is read from
its queue file (read-only) twice a second; the hub's own figure, ``backlog`` in
``GET /api/agents``, is printed beside it when the hub gives one. Prints p50/p99 of each
latency, the queue depth (mean and max while live, max and at the end of the outage) and
the catch-up times. Never fails.

    .venv/bin/python -m bench.venue_agent [--boards 500] [--outage 60] [--seconds 60]
        [--ply-seconds 30] [--no-baseline] [--no-clock]
"""

from __future__ import annotations

import argparse
import bisect
import contextlib
import json
import statistics
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from sqlmodel import Session, select
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from bench.boardsim_process import BoardsimProcess
from relay.demo.pgn_round import bundled_games
from relay.store.engine import open_store
from relay.store.models import AgentInput
from tests.link_proxy import LinkProxy
from tests.relay_serve import relay_serve
from tests.venue_round import (
    VenueAgent,
    agent_status,
    agent_urls,
    operator_token,
    port_of,
    queue_counters,
    round_event,
    wait_for,
)

#: The hub's settle window: its default, as at a venue.
SETTLE = {"RELAY_SETTLE_SECONDS": "0.25"}
#: Seconds of play before measuring (every board read, the spectator joined).
WARM_UP_SECONDS = 10.0
#: Moves made in the last seconds of a window may not have arrived when it closes.
MARGIN_SECONDS = 5.0
SAMPLE_SECONDS = 0.5
CATCH_UP_SECONDS = 600.0
#: Inputs a move may be decided on: the board's placements, and the clock's presses.
POSITION_KINDS = {"FieldChange", "PositionSnapshot", "LogReplay"}


@dataclass(frozen=True, slots=True)
class Arrival:
    board: int
    ply: int
    at: float  # decided, on the venue's time (Unix seconds)
    arrived: float


class Spectator(threading.Thread):
    """Follows the round's stream and notes when each move arrives."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.arrivals: dict[tuple[int, int], Arrival] = {}
        self.ready = threading.Event()
        self._stopping = threading.Event()

    def run(self) -> None:
        with (
            contextlib.suppress(ConnectionClosed, OSError),
            connect(self.url, max_size=None, open_timeout=60) as stream,
        ):
            snapshot = json.loads(stream.recv(timeout=60))
            board_of = {game["id"]: game["board"] for game in snapshot["games"]}
            self.ready.set()
            while not self._stopping.is_set():
                try:
                    text = stream.recv(timeout=0.5)
                except TimeoutError:
                    continue
                arrived = time.time()
                if '"move"' not in text:
                    continue  # only moves are timed
                message = json.loads(text)
                if message.get("kind") == "move":
                    data = message["data"]
                    board = board_of[message["game"]]
                    key = (board, data["ply"])
                    self.arrivals.setdefault(key, Arrival(board, data["ply"], data["at"], arrived))
        self.ready.set()

    def stop(self) -> None:
        self._stopping.set()
        self.join(timeout=10)


@dataclass
class Depth:
    """The agent's queue depth over time, from its file, and the hub's figure."""

    #: (when, the last input numbered, the last acknowledged)
    samples: list[tuple[float, int, int]] = field(default_factory=list)
    hub: list[tuple[float, int]] = field(default_factory=list)

    def between(self, start: float, end: float) -> list[int]:
        return [last - acked for when, last, acked in self.samples if start <= when <= end]

    def rate(self, start: float, end: float) -> float:
        """Inputs numbered per second between ``start`` and ``end``."""
        inside = [(when, last) for when, last, _ in self.samples if start <= when <= end]
        if len(inside) < 2:
            return 0.0
        (first, low), (last, high) = inside[0], inside[-1]
        return (high - low) / (last - first) if last > first else 0.0


@contextlib.contextmanager
def sampling(queue: Path, address: str, token: str) -> Iterator[Depth]:
    depth = Depth()
    stopping = threading.Event()

    def sample() -> None:
        while not stopping.wait(SAMPLE_SECONDS):
            counters = queue_counters(queue)
            if counters is not None:
                depth.samples.append((time.time(), *counters))
            with contextlib.suppress(OSError, IndexError, ValueError):
                backlog = agent_status(address, token, timeout=2).get("backlog")
                if isinstance(backlog, int):
                    depth.hub.append((time.time(), backlog))

    thread = threading.Thread(target=sample, daemon=True)
    thread.start()
    try:
        yield depth
    finally:
        stopping.set()
        thread.join(timeout=10)


def figures(values: list[float]) -> str:
    """p50 and p99 in ms, and how many."""
    if not values:
        return "no moves"
    return (
        f"p50 {statistics.median(values) * 1000:.1f} ms, p99 {p99(values) * 1000:.1f} ms "
        f"({len(values)} moves)"
    )


def inputs_by_board(db: str) -> dict[int, list[tuple[float, str]]]:
    """The hub's kept inputs of each board: (Unix stamp at the venue, kind), by stamp."""
    engine = open_store(db)
    try:
        with Session(engine) as session:
            rows = session.exec(select(AgentInput.board, AgentInput.wall, AgentInput.event))
            found: dict[int, list[tuple[float, str]]] = {}
            for board, wall, event in rows:
                found.setdefault(int(board), []).append((wall, json.loads(event)["kind"]))
    finally:
        engine.dispose()
    for items in found.values():
        items.sort()
    return found


def deciding_input(inputs: list[tuple[float, str]], at: float) -> float | None:
    """The stamp of the input a move decided at ``at`` was decided on: the input stamped
    then (a clock press that decided it), else the last placement before (the board stood
    still from then on for the settle window)."""
    walls = [wall for wall, _ in inputs]
    index = bisect.bisect_right(walls, at + 1e-4) - 1
    if index >= 0 and abs(walls[index] - at) <= 1e-4:
        return walls[index]
    while index >= 0:
        if inputs[index][1] in POSITION_KINDS:
            return walls[index]
        index -= 1
    return None


def through_agent(args: argparse.Namespace, folder: Path) -> list[float]:
    """Phases 1 and 2; the touch-to-spectator latencies of the live phase."""
    sim = boardsim(args)
    try:
        event = folder / "event.toml"
        event.write_text(round_event(bundled_games(), agent_urls(args.boards)))
        db = f"sqlite:///{folder / 'round.db'}"
        with relay_serve(folder, event, db, **SETTLE) as (_, address):
            token = operator_token(db)
            with LinkProxy(port_of(address)) as proxy:
                agent = VenueAgent(folder, proxy.port, token, sim.ports)
                spectator = Spectator(f"ws://{address}api/rounds/1/stream")
                try:
                    agent.start()
                    wait_for(lambda: bool(agent_status(address, token)["connected"]), 120, "agent")
                    spectator.start()
                    spectator.ready.wait(timeout=60)
                    with sampling(agent.queue, address, token) as depth:
                        time.sleep(WARM_UP_SECONDS)
                        live = time.time()
                        print(f"agent connected; {args.seconds:g} s of live play...", flush=True)
                        time.sleep(args.seconds)
                        cut = time.time()
                        proxy.cut()
                        print(f"link cut for {args.outage:g} s...", flush=True)
                        time.sleep(args.outage)
                        numbered = (queue_counters(agent.queue) or (0, 0))[0]
                        restored = time.time()
                        proxy.restore()
                        back, acked = catch_up(agent.queue, numbered, address, token)
                        before = [key for key, touched in sim.moved.items() if touched < restored]
                        shown = wait_shown(spectator, before)
                        time.sleep(1.0)
                finally:
                    spectator.stop()
                    agent.stop()
    finally:
        sim.stop()
    inputs = inputs_by_board(db)
    window = [
        arrival
        for key, arrival in spectator.arrivals.items()
        if live <= sim.moved.get(key, 0.0) <= cut - MARGIN_SECONDS
    ]
    from_input = []
    for arrival in window:
        decided_on = deciding_input(inputs.get(arrival.board, []), arrival.at)
        if decided_on is not None:
            from_input.append(arrival.arrived - decided_on)
    from_touch = [arrival.arrived - sim.moved[(arrival.board, arrival.ply)] for arrival in window]
    print(f"\nthrough the agent ({args.boards} boards, {len(window)} moves in {args.seconds:g} s):")
    print(f"  input to spectator:     {figures(from_input)}")
    print(f"  decision to spectator:  {figures([a.arrived - a.at for a in window])}")
    print(f"  touch to spectator:     {figures(from_touch)}")
    live_depth = depth.between(live, cut)
    outage_depth = depth.between(cut, restored)
    if live_depth:
        print(
            f"queue depth while live: mean {statistics.fmean(live_depth):.0f}, "
            f"max {max(live_depth)} inputs ({depth.rate(live, cut):.0f} inputs a second)"
        )
    if outage_depth:
        print(
            f"queue depth in the outage: max {max(outage_depth)}, at its end "
            f"{outage_depth[-1]} inputs ({numbered} numbered by the restore)"
        )
    if depth.hub:
        hub_live = [backlog for when, backlog in depth.hub if live <= when <= cut]
        hub_outage = [backlog for when, backlog in depth.hub if cut <= when <= restored]
        print(
            f"  the hub's backlog figure: max {max(hub_live, default=0)} while live, "
            f"{hub_outage[-1] if hub_outage else '-'} at the end of the outage (as of when "
            "it last heard from the agent)"
        )
    print(f"catch-up after {args.outage:g} s cut, from the restore:")
    print(f"  the agent connected again (its backoff): {seconds(back, restored)}")
    print(f"  every input queued by then acknowledged: {seconds(acked, restored)}")
    print(
        f"  the spectator has every move made before it ({len(before)}): {seconds(shown, restored)}"
    )
    return from_touch


def catch_up(
    queue: Path, numbered: int, address: str, token: str
) -> tuple[float | None, float | None]:
    """When the agent was connected again, and when the hub had acknowledged every input
    up to ``numbered``."""
    back = None
    deadline = time.monotonic() + CATCH_UP_SECONDS
    while time.monotonic() < deadline:
        if back is None and agent_status(address, token)["connected"]:
            back = time.time()
        counters = queue_counters(queue)
        if counters is not None and counters[1] >= numbered:
            return back or time.time(), time.time()
        time.sleep(0.05)
    return back, None


def wait_shown(spectator: Spectator, moves: list[tuple[int, int]]) -> float | None:
    """When the last of ``moves`` arrived at the spectator."""
    deadline = time.monotonic() + CATCH_UP_SECONDS
    while time.monotonic() < deadline:
        arrived = [spectator.arrivals.get(key) for key in moves]
        if all(arrived):
            return max((a.arrived for a in arrived if a is not None), default=time.time())
        time.sleep(0.1)
    missing = sum(1 for key in moves if key not in spectator.arrivals)
    print(f"  {missing} moves made before the restore never reached the spectator", flush=True)
    return None


def seconds(at: float | None, since: float) -> str:
    return "not within the wait" if at is None else f"{at - since:.2f} s"


def wired(args: argparse.Namespace, folder: Path) -> list[float]:
    """Phase 3: touch-to-spectator latencies with the boards wired to the hub."""
    sim = boardsim(args)
    try:
        event = folder / "event.toml"
        event.write_text(round_event(bundled_games(), sim.ports))
        db = f"sqlite:///{folder / 'round.db'}"
        with relay_serve(folder, event, db, **SETTLE) as (_, address):
            spectator = Spectator(f"ws://{address}api/rounds/1/stream")
            spectator.start()
            try:
                spectator.ready.wait(timeout=60)
                time.sleep(WARM_UP_SECONDS)
                live = time.time()
                print(f"\nwired to the hub: {args.seconds:g} s of live play...", flush=True)
                time.sleep(args.seconds)
                end = time.time()
            finally:
                spectator.stop()
    finally:
        sim.stop()
    return [
        arrival.arrived - sim.moved[key]
        for key, arrival in spectator.arrivals.items()
        if live <= sim.moved.get(key, 0.0) <= end - MARGIN_SECONDS
    ]


def boardsim(args: argparse.Namespace) -> BoardsimProcess:
    options = ["--ply-seconds", str(args.ply_seconds), "--touch-seconds", "0.1", "--seed", "5"]
    if args.no_clock:
        options.append("--no-clock")
    return BoardsimProcess(bundled_games(), args.boards, *options, "--report-moves")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--boards", type=int, default=500)
    parser.add_argument("--outage", type=float, default=60.0, help="seconds the link is cut")
    parser.add_argument("--seconds", type=float, default=60.0, help="seconds of live play")
    parser.add_argument("--ply-seconds", type=float, default=30.0, help="each board's pace")
    parser.add_argument(
        "--no-baseline", action="store_true", help="skip the boards wired to the hub"
    )
    parser.add_argument(
        "--no-clock", action="store_true", help="boards without clocks (fewer inputs)"
    )
    args = parser.parse_args()
    print(
        f"{args.boards} boards (a move every {args.ply_seconds:g} s each) through one agent; "
        f"{args.seconds:g} s live, then a {args.outage:g} s outage",
        flush=True,
    )
    with tempfile.TemporaryDirectory(prefix="venue-agent-") as name:
        (Path(name) / "agent").mkdir()
        agent = through_agent(args, Path(name) / "agent")
        if args.no_baseline:
            return
        (Path(name) / "wired").mkdir()
        direct = wired(args, Path(name) / "wired")
    print(f"  touch to spectator:     {figures(direct)}")
    if agent and direct:
        p50 = statistics.median(agent) - statistics.median(direct)
        print(
            f"added by the agent (touch to spectator, through it less wired): "
            f"p50 {p50 * 1000:+.1f} ms, p99 {(p99(agent) - p99(direct)) * 1000:+.1f} ms"
        )


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


if __name__ == "__main__":
    main()
