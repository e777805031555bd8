"""The agent's queue: numbered inputs kept until acknowledged, across restarts and kills;
a file that cannot be written is a clear error and costs nothing already kept."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from relay.agent.queue import AgentQueue, InputRead, QueueWriteError

EVENT = {"kind": "Disconnected", "reason": "unplugged", "reconnecting": True}


def put(queue: AgentQueue, board: str = "1", mono: float = 1.0) -> int:
    return queue.put(board=board, mono=mono, wall=1_700_000_000.0 + mono, event=EVENT)


def test_inputs_are_numbered_from_one_and_wait_until_acknowledged(tmp_path: Path) -> None:
    queue = AgentQueue(tmp_path / "queue.db")
    assert [put(queue, mono=m) for m in (1.0, 2.0, 3.0)] == [1, 2, 3]
    assert [q.seq for q in queue.pending(after=0)] == [1, 2, 3]
    assert queue.pending(after=1)[0].event == EVENT
    queue.acknowledge(2)
    assert [q.seq for q in queue.pending(after=0)] == [3]
    assert (queue.acked, queue.backlog) == (2, 1)
    assert queue.oldest_wall() == 1_700_000_003.0


def test_a_batch_is_numbered_in_the_order_it_was_read(tmp_path: Path) -> None:
    queue = AgentQueue(tmp_path / "queue.db")
    put(queue, mono=1.0)
    batch = [
        InputRead("7", 5.0, 1_700_000_005.0, EVENT),
        InputRead("2", 6.0, 1_700_000_006.0, EVENT),
    ]
    assert queue.put_many(batch) == 3
    assert [(q.seq, q.board, q.mono) for q in queue.pending(after=0)] == [
        (1, "1", 1.0), (2, "7", 5.0), (3, "2", 6.0)
    ]  # fmt: skip
    assert queue.last_mono == 6.0
    assert queue.put_many([]) == 3  # nothing read: nothing numbered
    assert queue.last_seq == 3


def test_numbers_are_never_reused_after_the_queue_empties_and_reopens(tmp_path: Path) -> None:
    queue = AgentQueue(tmp_path / "queue.db")
    put(queue)
    put(queue)
    queue.acknowledge(2)
    queue.close()
    again = AgentQueue(tmp_path / "queue.db")
    assert (again.last_seq, again.acked, again.backlog) == (2, 2, 0)
    assert again.oldest_wall() is None
    assert put(again) == 3


def test_an_old_acknowledgement_changes_nothing_and_an_unknown_one_is_refused(
    tmp_path: Path,
) -> None:
    queue = AgentQueue(tmp_path / "queue.db")
    for _ in range(3):
        put(queue)
    queue.acknowledge(2)
    queue.acknowledge(1)
    assert queue.acked == 2
    with pytest.raises(ValueError, match="input 9 was never queued"):
        queue.acknowledge(9)


def test_a_full_disk_is_a_clear_error_and_keeps_what_was_stored(tmp_path: Path) -> None:
    queue = AgentQueue(tmp_path / "queue.db")
    kept = put(queue)
    # SQLite's own limit gives the error a full disk gives: SQLITE_FULL.
    pages = queue._db.execute("PRAGMA page_count").fetchone()[0]
    queue._db.execute(f"PRAGMA max_page_count = {pages}")
    big = {"kind": "LineNoise", "discarded": 1, "reason": "x" * 100_000}
    with pytest.raises(QueueWriteError, match=r"queue\.db cannot be written: .*full"):
        queue.put(board="1", mono=2.0, wall=2.0, event=big)
    assert [q.seq for q in queue.pending(after=0)] == [kept]
    assert queue.last_seq == kept


@contextlib.contextmanager
def read_only(folder: Path) -> Iterator[None]:
    """The folder and its files read-only, for root too (root writes any file whose mode
    says read-only, but not an immutable one)."""
    targets = [*folder.iterdir(), folder]
    for target in targets:
        target.chmod(0o555 if target.is_dir() else 0o444)
    immutable = os.access(folder / "queue.db", os.W_OK)
    try:
        if immutable:
            subprocess.run(["chattr", "+i", *map(str, targets)], check=True)
        yield
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", *map(str, targets)], check=True)
        for target in targets:
            target.chmod(0o755 if target.is_dir() else 0o644)


@pytest.mark.processes
def test_a_read_only_file_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "queue.db"
    queue = AgentQueue(path)
    kept = put(queue)
    queue.close()
    refused = pytest.raises(QueueWriteError, match=rf"queue {re.escape(str(path))} cannot be")
    with read_only(tmp_path), refused:
        put(AgentQueue(path))
    assert [q.seq for q in AgentQueue(path).pending(after=0)] == [kept]


WRITER = """
import sys
from pathlib import Path
from relay.agent.queue import AgentQueue
queue = AgentQueue(Path(sys.argv[1]))
mono = 0.0
while True:
    mono += 1.0
    seq = queue.put(board="1", mono=mono, wall=mono, event={"kind": "Beep", "duration_ms": 1})
    print(seq, flush=True)
"""


@pytest.mark.parametrize("trial", range(5))
@pytest.mark.processes
def test_a_kill_mid_write_loses_nothing_it_reported_and_leaves_no_gap(
    tmp_path: Path, trial: int
) -> None:
    path = tmp_path / "queue.db"
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE, text=True
    )
    assert writer.stdout is not None
    reported = [int(writer.stdout.readline()) for _ in range(50 + 37 * trial)]
    os.kill(writer.pid, signal.SIGKILL)
    writer.wait()
    writer.stdout.close()
    queue = AgentQueue(path)
    seqs = [q.seq for q in queue.pending(after=0, limit=100_000)]
    assert seqs[: len(reported)] == reported  # everything reported as kept is kept
    assert seqs == list(range(1, len(seqs) + 1))  # and nothing after it is half-kept
    assert queue.last_seq == len(seqs)


def test_the_latest_stamp_outlives_acknowledgements_and_restarts(tmp_path: Path) -> None:
    # After a reboot the machine's monotonic clock starts again near 0; the agent stamps
    # on from the latest stamp it ever queued, so the venue's time never goes back.
    queue = AgentQueue(tmp_path / "queue.db")
    assert queue.last_mono == 0.0
    put(queue, mono=500.0)
    put(queue, mono=520.0)
    queue.acknowledge(2)
    queue.close()
    assert AgentQueue(tmp_path / "queue.db").last_mono == 520.0
