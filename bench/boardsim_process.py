"""``boardsim serve`` in a process of its own, for benchmarks and end-to-end tests: its
ports once it is ready, then what it reports as play goes on (finished games, moves, and
with ``--report-clock`` what the clocks were told and their flags)."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any


class BoardsimProcess:
    def __init__(self, games: Path, boards: int, *options: str) -> None:
        command = [sys.executable, "-m", "boardsim", "serve", "--games", str(games)]
        command += ["--boards", str(boards), *options]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
        assert self.process.stdout is not None
        self.ports: list[str] = []
        for line in self.process.stdout:
            record = json.loads(line)
            if record["event"] == "board":
                self.ports.append(record["port"])
            elif record["event"] == "ready":
                break
        #: Boards whose game has been played.
        self.finished: set[int] = set()
        #: With --report-moves: (board, ply) -> wall time of the move's last touch.
        self.moved: dict[tuple[int, int], float] = {}
        #: With --report-clock: the clock-set, clock-refused and flag reports, in order.
        self.clock_reports: list[dict[str, Any]] = []
        self._changed = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            record = json.loads(line)
            with self._changed:
                if record["event"] == "finished":
                    self.finished.add(record["board"])
                elif record["event"] == "moved":
                    self.moved[(record["board"], record["ply"])] = record["at"]
                elif record["event"] in ("clock-set", "clock-refused", "flag"):
                    self.clock_reports.append(record)
                self._changed.notify_all()

    def clock_events(self, kind: str, board: int | None = None) -> list[dict[str, Any]]:
        """The clock reports of ``kind`` so far (for ``board``, or every board)."""
        with self._changed:
            return [
                record
                for record in self.clock_reports
                if record["event"] == kind and (board is None or record["board"] == board)
            ]

    def wait_until(self, condition: Callable[[], bool], timeout: float, what: str) -> None:
        """Wait for a report that makes ``condition`` true; TimeoutError after ``timeout``."""
        with self._changed:
            if not self._changed.wait_for(condition, timeout):
                raise TimeoutError(f"boardsim: no {what} within {timeout:g} s")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)
        self._reader.join(timeout=10)
        assert self.process.stdout is not None
        self.process.stdout.close()
