"""The folder output: LiveChess' export layout, written atomically, each file only when its
content changed. The rounds are real games (tests/data/real-games.pgn), read back with
python-chess; the FTP output's tests build their rounds with the helpers here too."""

from __future__ import annotations

import dataclasses
import errno
import os
from collections.abc import Sequence
from pathlib import Path

import chess.pgn
import pytest

from relay.domain.formats.output_setup import FolderSetup
from relay.hub.outputs.export_layout import ExportMemory, export_files, round_folder
from relay.hub.outputs.folder import ExportFolder
from relay.hub.outputs.round_copy import GameCopy, OutputError, RoundCopy
from tests.data_files import DATA
from tests.pgn_check import read_all

pytestmark = pytest.mark.anyio

REAL_GAMES = DATA / "real-games.pgn"


def real_games(count: int) -> list[chess.pgn.Game]:
    """The first ``count`` games of tests/data/real-games.pgn."""
    games = read_all(REAL_GAMES.read_text(encoding="utf-8"))
    assert len(games) >= count
    return games[:count]


def in_progress(game: chess.pgn.Game, plies: int) -> chess.pgn.Game:
    """``game`` as it stood after its first ``plies`` half-moves: still going (``*``)."""
    partial = chess.pgn.Game()
    for name, value in game.headers.items():
        partial.headers[name] = value
    partial.headers["Result"] = "*"
    node: chess.pgn.GameNode = partial
    for move in list(game.mainline_moves())[:plies]:
        node = node.add_variation(move)
    return partial


def round_copy(
    games: Sequence[chess.pgn.Game], *, tournament_id: int = 7, number: int = 3
) -> RoundCopy:
    """A published round of ``games``, board 1 first, each game's PGN as python-chess
    writes it and the round's PGN every game in board order."""
    copies = tuple(
        GameCopy(board=board, game_id=100 + board, pgn=f"{game}\n\n")
        for board, game in enumerate(games, start=1)
    )
    return RoundCopy(
        tournament_id=tournament_id,
        tournament="Bonn Open",
        round_id=40 + number,
        number=number,
        cut=None,
        pgn="".join(copy.pgn for copy in copies),
        games=copies,
    )


def tree(root: Path) -> dict[str, bytes]:
    """Every file under ``root``, by its path relative to it."""
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


def identity(path: Path) -> tuple[int, int]:
    """What changes when a file is written again: its inode (a replaced file is a new
    one) and its modification time."""
    status = path.stat()
    return status.st_ino, status.st_mtime_ns


def moves(game: chess.pgn.Game) -> list[str]:
    return [move.uci() for move in game.mainline_moves()]


def check_round(root: Path, copy: RoundCopy, games: Sequence[chess.pgn.Game]) -> None:
    """The round's files under ``root`` hold ``games``: all of them in board order in
    games.pgn, one in each game-B.pgn."""
    folder = root / f"tournament-{copy.tournament_id}" / f"round-{copy.number}"
    expected = {"games.pgn", *(f"game-{board}.pgn" for board in range(1, len(games) + 1))}
    assert {path.name for path in folder.iterdir()} == expected
    whole = read_all((folder / "games.pgn").read_text(encoding="utf-8"))
    assert [game.headers["White"] for game in whole] == [g.headers["White"] for g in games]
    assert [moves(game) for game in whole] == [moves(game) for game in games]
    for board, game in enumerate(games, start=1):
        (alone,) = read_all((folder / f"game-{board}.pgn").read_text(encoding="utf-8"))
        assert alone.headers["White"] == game.headers["White"]
        assert alone.headers["Black"] == game.headers["Black"]
        assert alone.headers["Result"] == game.headers["Result"]
        assert moves(alone) == moves(game)


# --- the layout


def test_the_layout_is_livechess_export_folder():
    """Tournament 1's round 1 of two boards names its files as LiveChess' own export of
    such a round does (tests/data/livechess-export/)."""
    copy = round_copy(real_games(2), tournament_id=1, number=1)
    livechess = DATA / "livechess-export"
    ours = {file.path for file in export_files(copy)}
    theirs = {
        path.relative_to(livechess).as_posix()
        for path in (livechess / "tournament-1" / "round-1").glob("*.pgn")
    }
    assert ours == theirs
    assert round_folder(copy) == "tournament-1/round-1"


def test_game_files_come_in_board_order_before_the_round_file():
    games = real_games(3)
    copy = round_copy(games)
    shuffled = dataclasses.replace(copy, games=tuple(reversed(copy.games)))
    assert [file.path for file in export_files(shuffled)] == [
        "tournament-7/round-3/game-1.pgn",
        "tournament-7/round-3/game-2.pgn",
        "tournament-7/round-3/game-3.pgn",
        "tournament-7/round-3/games.pgn",
    ]


def test_the_memory_plans_only_what_changed_and_what_went_away():
    games = real_games(3)
    memory = ExportMemory()
    first = round_copy(games)
    plan = memory.plan(first)
    assert len(plan.write) == plan.total == 4
    for file in plan.write:
        memory.wrote(file)
    assert memory.plan(first).write == ()

    fewer = round_copy([games[0], in_progress(games[1], 10)])
    plan = memory.plan(fewer)
    assert [file.path for file in plan.write] == [
        "tournament-7/round-3/game-2.pgn",
        "tournament-7/round-3/games.pgn",
    ]
    assert plan.remove == ("tournament-7/round-3/game-3.pgn",)
    # Another round of the same tournament is none of this round's business.
    assert memory.plan(round_copy(games, number=4)).remove == ()


# --- writing


async def test_a_round_is_written_as_the_round_file_and_one_file_per_game(tmp_path):
    games = real_games(4)
    copy = round_copy(games)
    output = ExportFolder(FolderSetup(path=str(tmp_path / "live")))
    assert output.kind == "folder"
    assert output.target == str(tmp_path / "live")
    assert output.wants(copy)

    line = await output.deliver(copy)

    assert line == "wrote 5 of 5 files"
    check_round(tmp_path / "live", copy, games)
    assert (tmp_path / "live/tournament-7/round-3/games.pgn").read_text() == copy.pgn
    # Nothing else: no temporary file left behind.
    assert set(tree(tmp_path / "live")) == {file.path for file in export_files(copy)}


async def test_a_changed_game_rewrites_only_its_file_and_the_round_file(tmp_path):
    games = real_games(4)
    live = [in_progress(game, 20) for game in games]
    root = tmp_path / "live"
    output = ExportFolder(FolderSetup(path=str(root)))
    await output.deliver(round_copy(live))
    folder = root / "tournament-7" / "round-3"
    before = {path.name: identity(path) for path in folder.iterdir()}

    live[1] = in_progress(games[1], 21)  # board 2 played a move
    copy = round_copy(live)
    line = await output.deliver(copy)

    assert line == "wrote 2 of 5 files"
    after = {path.name: identity(path) for path in folder.iterdir()}
    changed = {name for name in before if after[name] != before[name]}
    assert changed == {"game-2.pgn", "games.pgn"}
    check_round(root, copy, live)

    # The same round again: nothing is touched.
    assert await output.deliver(copy) == "nothing changed (5 files)"
    assert {path.name: identity(path) for path in folder.iterdir()} == after


async def test_a_new_output_leaves_files_that_already_hold_the_round_alone(tmp_path):
    """After a restart of the hub the memory is empty: what is already right on the disk
    is not written again."""
    games = real_games(3)
    root = tmp_path / "live"
    await ExportFolder(FolderSetup(path=str(root))).deliver(round_copy(games))
    folder = root / "tournament-7" / "round-3"
    before = {path.name: identity(path) for path in folder.iterdir()}

    games[2] = in_progress(games[2], 8)
    line = await ExportFolder(FolderSetup(path=str(root))).deliver(round_copy(games))

    assert line == "wrote 2 of 4 files"
    after = {path.name: identity(path) for path in folder.iterdir()}
    assert {name for name in before if after[name] != before[name]} == {
        "game-3.pgn",
        "games.pgn",
    }


async def test_a_board_taken_out_of_the_round_loses_its_file(tmp_path):
    games = real_games(3)
    root = tmp_path / "live"
    output = ExportFolder(FolderSetup(path=str(root)))
    await output.deliver(round_copy(games))

    copy = round_copy(games[:2])
    assert await output.deliver(copy) == "wrote 1 of 3 files, removed 1 no longer in the round"
    check_round(root, copy, games[:2])


async def test_rounds_and_tournaments_get_folders_of_their_own(tmp_path):
    games = real_games(4)
    output = ExportFolder(FolderSetup(path=str(tmp_path)))
    await output.deliver(round_copy(games[:2], tournament_id=1, number=1))
    await output.deliver(round_copy(games[2:], tournament_id=1, number=2))
    await output.deliver(round_copy(games[:1], tournament_id=2, number=1))
    assert sorted(tree(tmp_path)) == [
        "tournament-1/round-1/game-1.pgn",
        "tournament-1/round-1/game-2.pgn",
        "tournament-1/round-1/games.pgn",
        "tournament-1/round-2/game-1.pgn",
        "tournament-1/round-2/game-2.pgn",
        "tournament-1/round-2/games.pgn",
        "tournament-2/round-1/game-1.pgn",
        "tournament-2/round-1/games.pgn",
    ]


async def test_new_files_are_readable_by_a_web_server(tmp_path):
    """A temporary file is private to its writer; the finished one must not be."""
    umask = os.umask(0o022)
    try:
        await ExportFolder(FolderSetup(path=str(tmp_path))).deliver(round_copy(real_games(1)))
    finally:
        os.umask(umask)
    for path in (tmp_path / "tournament-7" / "round-3").iterdir():
        assert path.stat().st_mode & 0o777 == 0o644


async def test_a_file_keeps_the_permissions_a_webmaster_gave_it(tmp_path):
    games = real_games(2)
    output = ExportFolder(FolderSetup(path=str(tmp_path)))
    await output.deliver(round_copy(games))
    path = tmp_path / "tournament-7" / "round-3" / "games.pgn"
    path.chmod(0o640)

    await output.deliver(round_copy([games[0], in_progress(games[1], 4)]))

    assert path.stat().st_mode & 0o777 == 0o640


# --- atomicity and failures


async def test_a_failed_replace_leaves_the_old_file_whole_and_no_temporary_file(
    tmp_path, monkeypatch
):
    games = real_games(3)
    root = tmp_path / "live"
    output = ExportFolder(FolderSetup(path=str(root)))
    first = round_copy(games)
    await output.deliver(first)
    old = tree(root)

    def disk_full(source: object, destination: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "replace", disk_full)
    games[0] = in_progress(games[0], 6)
    second = round_copy(games)
    with pytest.raises(OutputError) as failure:
        await output.deliver(second)

    game_1 = root / "tournament-7" / "round-3" / "game-1.pgn"
    assert str(failure.value) == f"cannot write {game_1}: no space left on the disk"
    assert tree(root) == old  # the old files, whole, and nothing else

    # Once the disk has room again the next try writes what the first could not.
    monkeypatch.undo()
    assert await output.deliver(second) == "wrote 2 of 4 files"
    check_round(root, second, games)


async def test_a_failed_write_midway_never_shows_a_partial_file(tmp_path, monkeypatch):
    """The data goes to the temporary file; a failure while writing it (here: the fsync)
    leaves the final name with the old content."""
    games = real_games(2)
    root = tmp_path / "live"
    output = ExportFolder(FolderSetup(path=str(root)))
    await output.deliver(round_copy(games))
    old = tree(root)

    def broken_disk(descriptor: int) -> None:
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(os, "fsync", broken_disk)
    with pytest.raises(OutputError, match="the disk failed to read or write"):
        await output.deliver(round_copy([in_progress(games[0], 3), games[1]]))
    assert tree(root) == old


async def test_a_folder_without_write_permission_fails_in_words(tmp_path, monkeypatch):
    """What the operating system answers for a folder the hub may not write into (the
    tests run as root here, whom no permission stops, so the answer is played back)."""
    root = tmp_path / "live"
    real_open = os.open

    def refuse(path: str | os.PathLike[str], flags: int, mode: int = 0o777) -> int:
        if Path(path).is_relative_to(root) and flags & os.O_CREAT:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
        return real_open(path, flags, mode)

    monkeypatch.setattr(os, "open", refuse)
    with pytest.raises(OutputError) as failure:
        await ExportFolder(FolderSetup(path=str(root))).deliver(round_copy(real_games(1)))
    game_1 = root / "tournament-7" / "round-3" / "game-1.pgn"
    assert str(failure.value) == f"cannot write {game_1}: permission denied"
    assert tree(root) == {}


async def test_a_path_that_is_a_file_fails_in_words(tmp_path):
    root = tmp_path / "live.pgn"
    root.write_text("a webmaster's file\n")
    with pytest.raises(OutputError) as failure:
        await ExportFolder(FolderSetup(path=str(root))).deliver(round_copy(real_games(1)))
    assert str(failure.value) == (
        f"cannot write {root / 'tournament-7/round-3/game-1.pgn'}: {root} is a file, not a folder"
    )
    assert root.read_text() == "a webmaster's file\n"


async def test_a_file_in_place_of_a_round_folder_fails_in_words(tmp_path):
    (tmp_path / "tournament-7").write_text("")
    with pytest.raises(OutputError, match=r"tournament-7 is a file, not a folder$"):
        await ExportFolder(FolderSetup(path=str(tmp_path))).deliver(round_copy(real_games(1)))


async def test_a_folder_in_place_of_a_game_file_fails_in_words(tmp_path):
    (tmp_path / "tournament-7" / "round-3" / "game-1.pgn").mkdir(parents=True)
    with pytest.raises(OutputError, match=r"game-1.pgn is a folder, not a file$"):
        await ExportFolder(FolderSetup(path=str(tmp_path))).deliver(round_copy(real_games(1)))
    assert [path.name for path in (tmp_path / "tournament-7" / "round-3").iterdir()] == [
        "game-1.pgn"
    ]


async def test_the_round_file_is_written_after_every_game_file(tmp_path, monkeypatch):
    """A reader that sees a new games.pgn finds the game files already up to date."""
    writes: list[str] = []
    real_replace = os.replace

    def replace(source: str, destination: str) -> None:
        writes.append(Path(destination).name)
        real_replace(source, destination)

    monkeypatch.setattr(os, "replace", replace)
    await ExportFolder(FolderSetup(path=str(tmp_path))).deliver(round_copy(real_games(3)))
    assert writes == ["game-1.pgn", "game-2.pgn", "game-3.pgn", "games.pgn"]
