"""The FTP output against a real FTP server (pyftpdlib, in a thread on 127.0.0.1, serving a
folder of the test's own): the files it leaves, what it sends again, how it renames into
place, and its failures in words."""

from __future__ import annotations

import logging
import socket
import threading
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from relay.domain.formats.output_setup import FtpSetup
from relay.hub.outputs.export_layout import export_files
from relay.hub.outputs.ftp import FtpUpload
from relay.hub.outputs.round_copy import OutputError
from tests.relay.hub.test_export_folder import (
    check_round,
    in_progress,
    real_games,
    round_copy,
    tree,
)

# pyftpdlib runs on asyncore and asynchat, which Python 3.11 warns are going away.
with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from pyftpdlib.authorizers import DummyAuthorizer  # type: ignore[import-untyped]
    from pyftpdlib.handlers import FTPHandler  # type: ignore[import-untyped]
    from pyftpdlib.ioloop import IOLoop  # type: ignore[import-untyped]
    from pyftpdlib.servers import FTPServer  # type: ignore[import-untyped]

pytestmark = pytest.mark.anyio

USER = "relay"
PASSWORD = "correct-horse-battery"
ENVIRON = {"FTP_PASSWORD": PASSWORD}

# A handler of pyftpdlib's own keeps it from setting up the root logger on first use.
logging.getLogger("pyftpdlib").addHandler(logging.NullHandler())


class Server:
    """An FTP server on an ephemeral port of 127.0.0.1 whose user ``relay`` (and, if
    ``anonymous``, anyone) has ``home``, with ``perm`` (pyftpdlib's letters); :attr:`commands`
    is every command it was sent, as (command, argument)."""

    def __init__(
        self,
        home: Path,
        handler: type[Any] = FTPHandler,
        perm: str = "elradfmw",
        *,
        anonymous: bool = False,
    ):
        authorizer = DummyAuthorizer()
        authorizer.add_user(USER, PASSWORD, str(home), perm=perm)
        if anonymous:
            with pytest.warns(RuntimeWarning, match="write permissions assigned to anonymous"):
                authorizer.add_anonymous(str(home), perm=perm)
        commands: list[tuple[str, str]] = []

        class Handler(handler):  # type: ignore[misc]
            def pre_process_command(self, line: str, cmd: str, arg: str) -> None:
                commands.append((cmd, arg))
                super().pre_process_command(line, cmd, arg)

        Handler.authorizer = authorizer
        self.commands = commands
        self._server = FTPServer(("127.0.0.1", 0), Handler, ioloop=IOLoop())
        self.port: int = self._server.address[1]
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, name="ftp-server", daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            self._server.serve_forever(timeout=0.02, blocking=False, handle_exit=False)

    def stop(self) -> None:
        if not self._stop.is_set():
            self._stop.set()
            self._thread.join()
            self._server.close_all()

    def sent(self, command: str) -> list[str]:
        """The arguments of every ``command`` the server was sent."""
        return [arg for cmd, arg in self.commands if cmd == command]

    def setup(self, directory: str = "live", **changes: Any) -> FtpSetup:
        return FtpSetup(
            **{
                "host": "127.0.0.1",
                "port": self.port,
                "user": USER,
                "password_env": "FTP_PASSWORD",
                "directory": directory,
                **changes,
            }
        )


@pytest.fixture
def home(tmp_path: Path) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    return folder


@pytest.fixture
def server(home: Path) -> Iterator[Server]:
    running = Server(home)
    yield running
    running.stop()


def upload(setup: FtpSetup, **options: Any) -> FtpUpload:
    return FtpUpload(setup, ENVIRON, timeout=5, **options)


def free_port() -> int:
    """A port of 127.0.0.1 nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


# --- uploading


async def test_a_round_is_uploaded_in_the_export_layout(home, server):
    games = real_games(4)
    copy = round_copy(games)
    output = upload(server.setup())
    assert output.kind == "ftp"
    assert output.target == f"ftp://relay@127.0.0.1:{server.port}/live"
    assert output.wants(copy)

    assert await output.deliver(copy) == "uploaded 5 of 5 files"

    # The same files as the folder output's, and nothing else: no temporary file.
    assert tree(home / "live") == {file.path: file.data for file in export_files(copy)}
    check_round(home / "live", copy, games)
    assert server.sent("QUIT") == [""]  # the session was closed


async def test_a_changed_game_uploads_only_its_file_and_the_round_file(home, server):
    games = real_games(4)
    live = [in_progress(game, 30) for game in games]
    output = upload(server.setup())
    await output.deliver(round_copy(live))
    server.commands.clear()

    live[2] = in_progress(games[2], 31)  # board 3 played a move
    copy = round_copy(live)
    assert await output.deliver(copy) == "uploaded 2 of 5 files"

    assert server.sent("STOR") == [
        "tournament-7/round-3/game-3.pgn.part",
        "tournament-7/round-3/games.pgn.part",
    ]
    # Renamed over the files already there.
    assert server.sent("RNFR") == server.sent("STOR")
    assert server.sent("RNTO") == [
        "tournament-7/round-3/game-3.pgn",
        "tournament-7/round-3/games.pgn",
    ]
    check_round(home / "live", copy, live)
    assert tree(home / "live") == {file.path: file.data for file in export_files(copy)}

    # The same round again: the server is not even called.
    server.commands.clear()
    assert await output.deliver(copy) == "nothing changed (5 files)"
    assert server.commands == []


async def test_folders_are_created_as_needed_from_the_root(home, server):
    games = real_games(2)
    output = upload(server.setup(directory="/www/relay/live"))
    assert output.target == f"ftp://relay@127.0.0.1:{server.port}/www/relay/live"
    await output.deliver(round_copy(games[:1], tournament_id=1, number=1))
    await output.deliver(round_copy(games, tournament_id=1, number=2))
    assert sorted(tree(home)) == [
        "www/relay/live/tournament-1/round-1/game-1.pgn",
        "www/relay/live/tournament-1/round-1/games.pgn",
        "www/relay/live/tournament-1/round-2/game-1.pgn",
        "www/relay/live/tournament-1/round-2/game-2.pgn",
        "www/relay/live/tournament-1/round-2/games.pgn",
    ]
    assert server.sent("MKD") == ["www", "relay", "live", "tournament-1", "round-1", "round-2"]


async def test_the_login_folder_is_the_default(home, server):
    copy = round_copy(real_games(1))
    output = upload(server.setup(directory=""))
    assert output.target == f"ftp://relay@127.0.0.1:{server.port}/"
    await output.deliver(copy)
    assert tree(home) == {file.path: file.data for file in export_files(copy)}


async def test_an_anonymous_upload_needs_no_password(home):
    anonymous = Server(home, anonymous=True)
    try:
        setup = FtpSetup(host="127.0.0.1", port=anonymous.port)
        output = FtpUpload(setup, {}, timeout=5)
        assert await output.deliver(round_copy(real_games(1))) == "uploaded 2 of 2 files"
    finally:
        anonymous.stop()
    assert anonymous.sent("USER") == ["anonymous"]


async def test_a_board_taken_out_of_the_round_loses_its_file(home, server):
    games = real_games(3)
    output = upload(server.setup())
    await output.deliver(round_copy(games))

    copy = round_copy(games[:2])
    line = await output.deliver(copy)

    assert line == "uploaded 1 of 3 files, removed 1 no longer in the round"
    assert server.sent("DELE") == ["tournament-7/round-3/game-3.pgn"]
    check_round(home / "live", copy, games[:2])


class NoRenameOver(FTPHandler):  # type: ignore[misc]
    """A server that, like IIS, will not rename onto a name already taken."""

    def ftp_RNTO(self, path: str) -> Any:  # noqa: N802 (pyftpdlib names it)
        if self.fs.lexists(path):
            self._rnfr = None
            self.respond("550 File exists.")
            return None
        return super().ftp_RNTO(path)


async def test_a_server_that_will_not_rename_over_a_file_gets_the_old_one_removed(home):
    games = real_games(2)
    refusing = Server(home, NoRenameOver)
    try:
        output = upload(refusing.setup())
        await output.deliver(round_copy(games))
        refusing.commands.clear()
        copy = round_copy([games[0], in_progress(games[1], 12)])
        assert await output.deliver(copy) == "uploaded 2 of 3 files"
    finally:
        refusing.stop()
    # Each old file was moved aside, the new one renamed in, the old one removed.
    assert refusing.sent("RNTO") == [
        "tournament-7/round-3/game-2.pgn",
        "tournament-7/round-3/game-2.pgn.old",
        "tournament-7/round-3/game-2.pgn",
        "tournament-7/round-3/games.pgn",
        "tournament-7/round-3/games.pgn.old",
        "tournament-7/round-3/games.pgn",
    ]
    assert tree(home / "live") == {file.path: file.data for file in export_files(copy)}


class NoRename(FTPHandler):  # type: ignore[misc]
    def ftp_RNTO(self, path: str) -> Any:  # noqa: N802 (pyftpdlib names it)
        self._rnfr = None
        self.respond("550 Renaming is not allowed here.")


async def test_a_failed_rename_leaves_the_old_file_and_no_temporary_file(home, server):
    games = real_games(2)
    await upload(server.setup()).deliver(round_copy(games))
    old = tree(home / "live")
    refusing = Server(home, NoRename)
    try:
        with pytest.raises(OutputError) as failure:
            await upload(refusing.setup()).deliver(round_copy([in_progress(games[0], 5), games[1]]))
    finally:
        refusing.stop()
    assert str(failure.value) == (
        f"cannot upload tournament-7/round-3/game-1.pgn to 127.0.0.1:{refusing.port}: "
        "the server answered '550 Renaming is not allowed here.'"
    )
    assert tree(home / "live") == old


# --- failures in words


async def test_a_wrong_password_fails_in_words_without_the_password(server):
    output = FtpUpload(server.setup(), {"FTP_PASSWORD": "not-the-password"}, timeout=5)
    with pytest.raises(OutputError) as failure:
        await output.deliver(round_copy(real_games(1)))
    message = str(failure.value)
    assert message == (
        f"127.0.0.1:{server.port} refused the login of user 'relay': "
        "the server answered '530 Authentication failed.'"
    )
    assert "not-the-password" not in message + output.target


class Echoing(FTPHandler):  # type: ignore[misc]
    """A careless server that repeats the password it was sent."""

    def ftp_PASS(self, line: str) -> None:  # noqa: N802 (pyftpdlib names it)
        self.respond(f"530 Wrong password {line}.")


async def test_a_password_the_server_repeats_is_masked(home):
    echoing = Server(home, Echoing)
    try:
        with pytest.raises(OutputError) as failure:
            await upload(echoing.setup()).deliver(round_copy(real_games(1)))
    finally:
        echoing.stop()
    assert PASSWORD not in str(failure.value)
    assert str(failure.value).endswith("the server answered '530 Wrong password ***.'")


async def test_a_server_that_is_down_fails_in_words():
    port = free_port()
    setup = FtpSetup(host="127.0.0.1", port=port, user=USER, password_env="FTP_PASSWORD")
    with pytest.raises(OutputError) as failure:
        await upload(setup).deliver(round_copy(real_games(1)))
    assert str(failure.value) == (
        f"cannot connect to 127.0.0.1:{port}: "
        "connection refused (is the server running, and is the port right?)"
    )


async def test_a_server_that_does_not_answer_fails_in_words():
    """A socket that takes connections but never says a word (its backlog accepts them)."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        port = silent.getsockname()[1]
        setup = FtpSetup(host="127.0.0.1", port=port, user=USER, password_env="FTP_PASSWORD")
        with pytest.raises(OutputError) as failure:
            await FtpUpload(setup, ENVIRON, timeout=0.3).deliver(round_copy(real_games(1)))
    assert str(failure.value) == f"cannot connect to 127.0.0.1:{port}: no answer within 0.3 s"


async def test_tls_against_a_plain_server_fails_in_words_before_the_password(server):
    output = upload(server.setup(tls=True))
    assert output.target.startswith("ftps://")
    with pytest.raises(OutputError) as failure:
        await output.deliver(round_copy(real_games(1)))
    assert str(failure.value) == (
        f"cannot start TLS with 127.0.0.1:{server.port} (does it offer FTPS?): "
        """the server answered '500 Command "AUTH" not understood.'"""
    )
    assert server.sent("PASS") == []  # the password never went out in the clear


async def test_a_missing_password_variable_fails_in_words(server):
    output = FtpUpload(server.setup(password_env="RELAY_FTP_SECRET"), {}, timeout=5)
    with pytest.raises(OutputError) as failure:
        await output.deliver(round_copy(real_games(1)))
    assert str(failure.value) == (
        "the FTP password for relay@127.0.0.1 is missing: "
        "the environment variable RELAY_FTP_SECRET is not set"
    )
    assert server.commands == []


@pytest.mark.parametrize(
    ("made", "step"),
    [
        (False, "create the folder tournament-7/round-3 on"),
        (True, "upload tournament-7/round-3/game-1.pgn to"),
    ],
)
async def test_a_user_who_may_only_read_fails_in_words(home, made, step):
    if made:  # the folders are there: the first refusal is the upload's
        (home / "tournament-7" / "round-3").mkdir(parents=True)
    reader = Server(home, perm="elr")
    try:
        with pytest.raises(OutputError) as failure:
            await upload(reader.setup(directory="")).deliver(round_copy(real_games(1)))
    finally:
        reader.stop()
    assert str(failure.value) == (
        f"cannot {step} 127.0.0.1:{reader.port}: the server answered '550 Not enough privileges.'"
    )
    assert tree(home) == {}


class Flaky(FTPHandler):  # type: ignore[misc]
    """A server that refuses the round file while :attr:`refusing` says so."""

    refusing = True

    def ftp_STOR(self, file: str, mode: str = "w") -> Any:  # noqa: N802 (pyftpdlib names it)
        if Flaky.refusing and file.endswith("games.pgn.part"):
            self.respond("452 Quota exceeded.")
            return None
        return super().ftp_STOR(file, mode)


async def test_after_a_failure_the_next_delivery_sends_only_what_is_missing(home):
    """What reached its final name counts as sent; a retry sends the rest."""
    games = real_games(3)
    live = [in_progress(game, 9) for game in games]
    copy = round_copy(live)
    flaky = Server(home, Flaky)
    try:
        output = upload(flaky.setup())
        with pytest.raises(OutputError) as failure:
            await output.deliver(copy)
        assert str(failure.value) == (
            f"cannot upload tournament-7/round-3/games.pgn to 127.0.0.1:{flaky.port}: "
            "the server answered '452 Quota exceeded.'"
        )
        assert sorted(tree(home / "live")) == [
            "tournament-7/round-3/game-1.pgn",
            "tournament-7/round-3/game-2.pgn",
            "tournament-7/round-3/game-3.pgn",
        ]

        Flaky.refusing = False
        flaky.commands.clear()
        assert await output.deliver(copy) == "uploaded 1 of 4 files"
    finally:
        Flaky.refusing = True
        flaky.stop()
    assert flaky.sent("STOR") == ["tournament-7/round-3/games.pgn.part"]
    check_round(home / "live", copy, live)
