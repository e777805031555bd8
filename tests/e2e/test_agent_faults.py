"""Faults at the venue, with real processes (docs/venue-agent.md, "Nothing lost, nothing
doubled"): ``relay agent`` killed with SIGKILL mid-round and started again on its queue
loses no move and keeps no input twice; an agent whose queue cannot be written (a file
turned read-only, a disk that fills up) stops with an error naming the file and the
reason, and the hub holds nothing the agent could not keep.

boardsim plays real games on pseudo-terminals, ``relay agent`` reads them through the real
DGT driver and its queue, and ``relay serve`` follows the boards as ``agent://hall/N``
(tests/venue_round.py). No timing is asserted.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import sqlite3
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlmodel import Session, select

from bench.boardsim_process import BoardsimProcess
from relay.store.engine import open_store
from relay.store.models import AgentInput
from tests.e2e.test_kill_restart import differences, follow, stored_moves
from tests.relay_serve import relay_serve
from tests.venue_round import (
    VenueAgent,
    agent_round,
    kept_inputs,
    operator_token,
    port_of,
    queue_counters,
    queue_emptied,
    wait_for,
)

FINISH_SECONDS = 240
#: Moves the boards make while no agent reads them, after each kill.
PLIES_WHILE_DOWN = 12


def at_least(plies: int) -> Callable[[dict[int, int]], bool]:
    return lambda shown: sum(shown.values()) >= plies


def play_on(boardsim: BoardsimProcess, plies: int) -> None:
    """Wait until the boards have made ``plies`` more moves."""
    made = len(boardsim.moved)
    boardsim.wait_until(lambda: len(boardsim.moved) >= made + plies, 60, "moves")


def test_an_agent_killed_mid_round_twice_loses_nothing_and_keeps_nothing_twice(
    tmp_path: Path,
) -> None:
    with (
        agent_round(tmp_path, seed=11) as (boardsim, expected, event, db),
        relay_serve(tmp_path, event, db) as (_, address),
    ):
        operator = operator_token(db)
        stream = f"ws://{address}api/rounds/1/stream"
        agent = VenueAgent(tmp_path, port_of(address), operator, boardsim.ports)
        try:
            agent.start()
            for shown in (30, 90):
                follow(stream, at_least(shown), 120)
                agent.kill()  # SIGKILL while the boards play: perhaps mid-write
                play_on(boardsim, PLIES_WHILE_DOWN)
                agent.start()  # on the same queue
            finished = {board: len(moves) for board, moves in expected.items()}
            with contextlib.suppress(AssertionError):  # the comparison below says what
                follow(stream, lambda plies: plies == finished, FINISH_SECONDS)
            wait_for(lambda: queue_emptied(agent.queue), 60, "acknowledgement of every input")
        finally:
            agent.stop()
    after = stored_moves(db)
    assert after == expected, differences(after, expected)
    counters = queue_counters(agent.queue)
    assert counters is not None
    assert kept_inputs(db) == list(range(1, counters[0] + 1))  # each kept once, none missing


@contextlib.contextmanager
def read_only(*files: Path) -> Iterator[None]:
    """``files`` read-only for their open descriptors too, and for root: immutable."""
    try:
        subprocess.run(["chattr", "+i", *map(str, files)], check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError) as error:
        # Not skipped: a fault test that does not run proves nothing.
        raise AssertionError(
            f"an open file is made read-only with chattr +i, which needs root: {error}"
        ) from None
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", *map(str, files)], check=True)


@contextlib.contextmanager
def small_disk(folder: Path, *, mount: bool) -> Iterator[bool]:
    """``folder``, with ``mount`` on a filesystem of its own of 8 MB (tmpfs) if this user
    may mount one; whether it is."""
    folder.mkdir()
    mounted = (
        mount
        and subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(folder)], capture_output=True
        ).returncode
        == 0
    )
    try:
        yield mounted
    finally:
        if mounted:
            subprocess.run(["umount", "-l", str(folder)], check=True)


def fill(folder: Path) -> None:
    """Write to ``folder`` until its disk is full."""
    filler = os.open(folder / "filler", os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        for size in (1 << 20, 4096, 1):
            with contextlib.suppress(OSError):  # ENOSPC: on to smaller writes
                while os.write(filler, b"\0" * size):
                    pass
    finally:
        os.close(filler)


def held_inputs(db: str) -> dict[int, tuple[str, float, str]]:
    """The hub's kept inputs: seq -> board, Unix stamp, event."""
    engine = open_store(db)
    try:
        with Session(engine) as session:
            rows = session.exec(select(AgentInput))
            return {row.seq: (row.board, row.wall, row.event) for row in rows}
    finally:
        engine.dispose()


def queued_inputs(path: Path) -> dict[int, tuple[str, float, str]]:
    """The inputs waiting in the agent's queue file (read-only): seq -> board, stamp,
    event."""
    queue = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        rows = queue.execute("SELECT seq, board, wall, event FROM input").fetchall()
    finally:
        queue.close()
    return {seq: (board, wall, json.dumps(json.loads(event), separators=(",", ":"))) for
            seq, board, wall, event in rows}  # fmt: skip


@pytest.mark.parametrize("fault", ["read-only", "disk full"])
def test_an_agent_whose_queue_cannot_be_written_stops_and_sends_nothing_it_did_not_keep(
    tmp_path: Path, fault: str
) -> None:
    with (
        agent_round(tmp_path, seed=3, boards=2) as (boardsim, _, event, db),
        relay_serve(tmp_path, event, db) as (_, address),
        small_disk(tmp_path / "disk", mount=fault == "disk full") as mounted,
    ):
        queue = tmp_path / "disk" / "agent-queue.db"
        wal = queue.with_name(f"{queue.name}-wal")
        operator = operator_token(db)
        agent = VenueAgent(tmp_path, port_of(address), operator, boardsim.ports, queue=queue)
        process = agent.start()
        try:
            wait_for(lambda: len(kept_inputs(db)) >= 20, 60, "inputs kept at the hub")
            with contextlib.ExitStack() as fault_lasts:
                if fault == "read-only":
                    fault_lasts.enter_context(read_only(queue, wal))
                    reason = "read-only"
                elif mounted:
                    fill(queue.parent)
                    reason = "full"
                else:  # no mount for this user: a file size limit stands for the full disk
                    limit = wal.stat().st_size  # the queue's log cannot grow any more
                    resource.prlimit(process.pid, resource.RLIMIT_FSIZE, (limit, limit))
                    reason = ""
                returncode = process.wait(timeout=60)
                last_seq, _ = queue_counters(queue) or (0, 0)
                waiting = queued_inputs(queue)
        finally:
            agent.stop()
    said = (tmp_path / "agent.log").read_text()
    assert returncode == 1, said[-2000:]
    assert f"relay: the agent's queue {queue} cannot be written: " in said, said[-2000:]
    assert reason in said.rpartition("cannot be written: ")[2]
    # It sent only what it had numbered and kept: the hub holds those, in order, and
    # each one it holds that still waits at the venue is the same input.
    held = held_inputs(db)
    assert sorted(held) == list(range(1, len(held) + 1))
    assert len(held) <= last_seq
    assert all(held[seq] == waiting[seq] for seq in waiting if seq in held)
