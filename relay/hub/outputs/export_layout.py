"""The export layout shared by the folder and FTP outputs: which file holds which text for a
round, and what was already written, so that an unchanged file is never written again.

The layout is DGT LiveChess' export folder (tests/data/livechess-export/)::

    tournament-7/round-3/games.pgn     the whole round, every game in board order
    tournament-7/round-3/game-1.pgn    board 1's game alone
    tournament-7/round-3/game-2.pgn    ...

``7`` is the tournament's id on this hub and ``3`` the round's number in its tournament, so
the rounds of two tournaments of one event never share a folder. A round's game files come
before its ``games.pgn`` in :func:`export_files`, and the outputs write them in that order:
a reader that sees a new ``games.pgn`` finds the game files already up to date.
"""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass

from relay.hub.outputs.round_copy import RoundCopy, in_output_thread

#: The round's PGN in its round folder.
ROUND_FILE = "games.pgn"


def round_folder(copy: RoundCopy) -> str:
    """The round's folder, relative to the output's root: ``tournament-7/round-3``."""
    return f"tournament-{copy.tournament_id}/round-{copy.number}"


def game_file(board: int) -> str:
    """The file of board ``board``'s game in its round folder: ``game-4.pgn``."""
    return f"game-{board}.pgn"


@dataclass(frozen=True, slots=True)
class ExportFile:
    """One file of the layout: its path relative to the output's root, with ``/`` between
    folders, and its content (the PGN in UTF-8)."""

    path: str
    data: bytes

    @property
    def folder(self) -> str:
        """The folder that holds it, relative to the root: ``tournament-7/round-3``."""
        return self.path.rpartition("/")[0]

    @property
    def name(self) -> str:
        """Its name in its folder: ``game-4.pgn``."""
        return self.path.rpartition("/")[2]

    @property
    def digest(self) -> str:
        return _digest(self.data)


def export_files(copy: RoundCopy) -> tuple[ExportFile, ...]:
    """Every file of ``copy``: each game's in board order, then the round's."""
    folder = round_folder(copy)
    games = tuple(
        ExportFile(f"{folder}/{game_file(game.board)}", game.pgn.encode("utf-8"))
        for game in sorted(copy.games, key=lambda game: game.board)
    )
    return (*games, ExportFile(f"{folder}/{ROUND_FILE}", copy.pgn.encode("utf-8")))


@dataclass(frozen=True, slots=True)
class ExportPlan:
    """What one delivery of a round has to do."""

    #: The files whose content differs from what was last written there, in write order.
    write: tuple[ExportFile, ...]
    #: Files written earlier for this round that it no longer has (a board taken out of
    #: the pairings), to remove once the others are written.
    remove: tuple[str, ...]
    #: How many files the round has in all.
    total: int


class ExportMemory:
    """What an output last wrote under each path (a digest of the content), so that a file
    whose content did not change is left alone: its modification time stays, and a
    webmaster's script that polls for changes sees only real ones.

    Only what was written (or found already in place) since the output was made is known;
    a path it never wrote counts as changed.
    """

    def __init__(self) -> None:
        self._digests: dict[str, str] = {}

    def plan(self, copy: RoundCopy) -> ExportPlan:
        """The files of ``copy`` that must be written, and those to remove."""
        files = export_files(copy)
        paths = {file.path for file in files}
        prefix = round_folder(copy) + "/"
        return ExportPlan(
            write=tuple(file for file in files if self._digests.get(file.path) != file.digest),
            remove=tuple(
                sorted(
                    path for path in self._digests if path.startswith(prefix) and path not in paths
                )
            ),
            total=len(files),
        )

    def knows(self, path: str) -> bool:
        """Whether something was written under ``path`` since the output was made."""
        return path in self._digests

    def wrote(self, file: ExportFile) -> None:
        """``file`` is now in place, whole, under its final name."""
        self._digests[file.path] = file.digest

    def removed(self, path: str) -> None:
        """The file under ``path`` is gone."""
        self._digests.pop(path, None)


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def summary(verb: str, written: int, removed: int, total: int) -> str:
    """The console's line for one delivery: ``wrote 2 of 13 files``, ``nothing changed``."""
    if not written and not removed:
        return f"nothing changed ({total} files)"
    line = f"{verb} {written} of {total} files"
    if removed:
        line += f", removed {removed} no longer in the round"
    return line


class LayoutExport:
    """What the folder and FTP outputs share: the layout's memory of what was written, and
    one delivery at a time on a worker thread (even if a cancelled one still runs in its
    thread). A subclass writes in :meth:`_deliver`."""

    kind: str
    target: str

    def __init__(self) -> None:
        self._memory = ExportMemory()
        self._lock = threading.Lock()

    def wants(self, copy: RoundCopy) -> bool:
        return True

    async def deliver(self, copy: RoundCopy) -> str:
        return await in_output_thread(lambda: self._one_at_a_time(copy))

    def _one_at_a_time(self, copy: RoundCopy) -> str:
        with self._lock:
            return self._deliver(copy)

    def _deliver(self, copy: RoundCopy) -> str:
        raise NotImplementedError
