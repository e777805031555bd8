"""The C load generator of websocket spectators (``spectator_load.c``): built, run, read.

The benchmark compiles it with the machine's C compiler the first time (into
``build/bench/``, rebuilt when the source changes) and runs one process of it per share of
the spectators. Each process prints ``connected N`` once all its spectators have their
join snapshot, then, when its time is up, one line per move frame: game, ply and the
kernel's arrival stamp in microseconds.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import threading
from pathlib import Path

SOURCE = Path(__file__).with_name("spectator_load.c")
BUILD = Path(__file__).resolve().parents[1] / "build" / "bench"


def build() -> Path:
    """The compiled load generator, built now if it is missing or older than its source."""
    digest = hashlib.sha256(SOURCE.read_bytes()).hexdigest()[:12]
    program = BUILD / f"spectator_load-{digest}"
    if program.exists():
        return program
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        raise SystemExit("bench: no C compiler (cc or gcc) to build the spectators' load generator")
    BUILD.mkdir(parents=True, exist_ok=True)
    partial = program.with_suffix(".partial")
    result = subprocess.run(
        [compiler, "-O2", "-Wall", "-Wextra", "-o", str(partial), str(SOURCE)],
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        raise SystemExit(f"bench: building {SOURCE.name} failed:\n{result.stderr}")
    partial.rename(program)
    return program


class SpectatorLoad:
    """One running load generator: ``connections`` spectators of ``path``."""

    def __init__(
        self, program: Path, port: int, path: str, connections: int, seconds: float, pause: float
    ) -> None:
        self.connections = connections
        self._process = subprocess.Popen(
            [str(program), str(port), path, str(connections), f"{seconds:g}", f"{pause:g}"],
            stdout=subprocess.PIPE,
            text=True,
        )

        self._lines: list[str] = []
        # The report is read as it comes: a generator that could not write it (its pipe
        # full) would stop reading its sockets, and its spectators would fall behind.
        self._reader = threading.Thread(target=self._read, daemon=True)

    def wait_connected(self) -> None:
        """Return once every spectator has had its join snapshot."""
        assert self._process.stdout is not None
        line = self._process.stdout.readline()
        if not line.startswith("connected"):
            self._process.wait(timeout=10)
            code = self._process.returncode
            raise SystemExit(f"bench: the spectators could not connect (exit {code})")
        self._reader.start()

    def _read(self) -> None:
        assert self._process.stdout is not None
        self._lines.extend(self._process.stdout)

    def arrivals(self, into: dict[tuple[int, int], list[float]]) -> None:
        """Wait for the end; add each move's arrival times (Unix seconds) by (game, ply)."""
        self._reader.join()
        for line in self._lines:
            game, ply, micros = line.split()
            into.setdefault((int(game), int(ply)), []).append(int(micros) / 1e6)
        self._process.wait(timeout=60)

    def stop(self) -> None:
        if self._process.poll() is None:
            self._process.kill()
            self._process.wait(timeout=10)
