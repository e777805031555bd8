from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import ssl
import stat
import subprocess
import sys
import urllib.request
from collections.abc import Iterator

import pytest
from sqlmodel import Session

from relay.cli import build_parser, main
from relay.store.clubs import add_member, create_club
from relay.store.engine import open_store
from tests.pairings import paired_round
from tests.stores import migrated_sqlite


@pytest.mark.processes
def test_help_lists_the_commands():
    result = subprocess.run(
        [sys.executable, "-m", "relay.cli", "--help"], capture_output=True, text=True, check=True
    )
    assert "serve" in result.stdout
    assert "demo" in result.stdout


def test_demo_options_parsed():
    args = build_parser().parse_args(["demo", "--boards", "3", "--port", "0", "--duration", "5"])
    assert (args.command, args.boards, args.port, args.duration) == ("demo", 3, 0, 5.0)


def test_missing_command_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main([])
    assert exit_info.value.code == 2
    assert "COMMAND" in capsys.readouterr().err


def test_bad_setting_is_a_clear_error(capsys, monkeypatch):
    monkeypatch.setenv("RELAY_PORT", "eighty")
    assert main(["serve"]) == 1
    assert "relay: environment" in capsys.readouterr().err


def test_port_in_use_is_a_clear_error(capsys, tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code = main(["serve", "--db", f"sqlite:///{tmp_path / 'x.db'}", "--port", str(port)])
    assert code == 1
    assert "cannot listen" in capsys.readouterr().err


@contextlib.contextmanager
def serving(tmp_path, *args: str) -> Iterator[tuple[str, list[str]]]:
    """``relay serve ARGS`` in a subprocess: yields its URL and the lines printed before
    it; stops it with Ctrl-C afterwards and checks that it stopped cleanly."""
    command = [sys.executable, "-m", "relay.cli", "serve", "--port", "0", *args]
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path
    ) as process:
        assert process.stdout is not None
        assert process.stderr is not None
        try:
            before = []
            while (line := process.stdout.readline()) and "hub on" not in line:
                before.append(line)
            found = re.search(r"hub on (https?://\S+) ", line)
            assert found, "".join(before) + line + process.stderr.read()
            yield found.group(1), before
        finally:
            process.send_signal(signal.SIGINT)
            code = process.wait(timeout=30)
        errors = process.stderr.read()
    assert code == 0, errors
    assert "Traceback" not in errors


@pytest.mark.processes
def test_serve_answers_and_stops_cleanly_on_ctrl_c(tmp_path):
    with serving(tmp_path, "--db", f"sqlite:///{tmp_path / 'serve.db'}") as (url, _):
        reply = urllib.request.urlopen(f"{url}api/health", timeout=10)
        with reply:
            assert json.load(reply) == {"status": "ok"}
    assert (tmp_path / "serve.db").is_file()


def test_unusable_database_is_a_clear_error(capsys, tmp_path):
    missing_folder = tmp_path / "no" / "such" / "folder" / "relay.db"
    assert main(["serve", "--port", "0", "--db", f"sqlite:///{missing_folder}"]) == 1
    assert "relay: cannot open database" in capsys.readouterr().err
    assert main(["serve", "--port", "0", "--db", "nosuch://x"]) == 1
    assert "relay: bad database URL" in capsys.readouterr().err


def test_tokens_created_listed_and_revoked(capsys, tmp_path):
    db = migrated_sqlite(tmp_path / "tokens.db")
    assert main(["token", "create", "--role", "arbiter", "--user", "Jane", "--db", db]) == 0
    out, err = capsys.readouterr()
    token = out.strip()
    assert token.startswith("rly_")
    assert "shown only once" in err
    assert main(["token", "list", "--db", db]) == 0
    assert capsys.readouterr().out == "Jane\tarbiter\n"
    assert main(["token", "revoke", "--user", "Jane", "--db", db]) == 0
    assert "revoked 1 token" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["token", "create", "--role", "king", "--user", "X", "--db", db])


def test_a_token_is_never_made_in_a_database_no_hub_has(capsys, tmp_path, monkeypatch):
    """``relay token create`` in another folder would make a new relay.db that no hub
    reads: it refuses, naming the file it looked for."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("RELAY_DB", raising=False)
    assert main(["token", "create", "--role", "arbiter", "--user", "Jane"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert f"relay: no database at {tmp_path / 'relay.db'}: a token goes into the database" in err
    assert "--db or $RELAY_DB" in err
    assert not (tmp_path / "relay.db").exists()
    db = migrated_sqlite(tmp_path / "relay.db")
    assert main(["token", "create", "--role", "arbiter", "--user", "Jane"]) == 0
    assert f"in database {tmp_path / 'relay.db'}" in capsys.readouterr().err
    assert db.endswith("relay.db")


def test_a_device_token_names_its_game_and_a_wrong_one_is_a_clear_error(capsys, tmp_path):
    db = migrated_sqlite(tmp_path / "tokens.db")
    assert (
        main(["token", "create", "--role", "keyer", "--user", "T", "--game", "7", "--db", db]) == 1
    )
    assert "relay: no game 7" in capsys.readouterr().err
    engine = open_store(db)
    try:
        with Session(engine) as session:
            _, (game_id, *_) = paired_round(session)
    finally:
        engine.dispose()
    create = ["token", "create", "--user", "T", "--game", str(game_id), "--db", db]
    assert main([*create, "--role", "operator"]) == 1
    assert "a token bound to a game is a keyer's" in capsys.readouterr().err
    assert main([*create, "--role", "keyer"]) == 0
    assert capsys.readouterr().out.startswith("rly_")


def test_a_token_can_go_into_a_new_file_only_its_owner_may_read(capsys, tmp_path):
    db = migrated_sqlite(tmp_path / "tokens.db")
    out = tmp_path / "arbiter.token"
    old_umask = os.umask(0)  # even with a umask that would let everyone read it
    try:
        code = main(
            [
                "token",
                "create",
                "--role",
                "arbiter",
                "--user",
                "Jane",
                "--db",
                db,
                "--out",
                str(out),
            ]
        )
    finally:
        os.umask(old_umask)
    assert code == 0
    printed, err = capsys.readouterr()
    assert printed == ""
    assert f"written to {out} (mode 0600)" in err
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    token = out.read_text()
    assert token.startswith("rly_")
    assert token.endswith("\n")
    assert token.strip() not in err
    # An existing file is never overwritten, and no token is made for it.
    assert (
        main(["token", "create", "--role", "admin", "--user", "Bob", "--db", db, "--out", str(out)])
        == 1
    )
    assert "exists; a token goes into a new file only" in capsys.readouterr().err
    assert out.read_text() == token
    assert main(["token", "list", "--db", db]) == 0
    assert capsys.readouterr().out == "Jane\tarbiter\n"


def test_backup_and_restore_commands(capsys, tmp_path):
    db = migrated_sqlite(tmp_path / "live.db")
    assert main(["token", "create", "--role", "admin", "--user", "A", "--db", db]) == 0
    capsys.readouterr()
    assert main(["backup", "--db", db, "--to", str(tmp_path / "copies"), "--keep", "2"]) == 0
    made = capsys.readouterr().out.split(" to ")[-1].strip()
    restored = f"sqlite:///{tmp_path / 'restored.db'}"
    assert main(["restore", made, "--db", restored]) == 0
    assert main(["token", "list", "--db", restored]) == 0
    assert "A\tadmin" in capsys.readouterr().out
    assert main(["restore", str(tmp_path / "nothing.db"), "--db", restored]) == 1
    assert "relay: no backup" in capsys.readouterr().err


def test_a_bad_event_file_is_a_clear_error(capsys, tmp_path):
    event = tmp_path / "event.toml"
    event.write_text('[tournament]\nname = "X"\n[[round]]\nnumber = 1\npairings = [[1, 2]]\n')
    assert main(["serve", str(event), "--port", "0", "--db", f"sqlite:///{tmp_path / 'e.db'}"]) == 1
    assert "event.toml: round 1, board 1: no player with number 1" in capsys.readouterr().err
    assert main(["serve", str(tmp_path / "none.toml"), "--port", "0"]) == 1
    assert "cannot read" in capsys.readouterr().err


def test_every_problem_of_an_event_file_is_a_line_naming_the_file(capsys, tmp_path):
    event = tmp_path / "event.toml"
    event.write_text(
        '[tournament]\nname = "X"\nrounds = 0\n[[player]]\nnumber = 1\nname = "A"\n'
        'title = "XM"\n[[round]]\nnumber = 1\ndelay = -1\n'
    )
    assert main(["serve", str(event), "--port", "0", "--db", f"sqlite:///{tmp_path / 'e.db'}"]) == 1
    err = capsys.readouterr().err
    assert f"relay: {event}: [tournament]: rounds must be at least 1\n" in err
    assert f"\n{event}: player 1: title 'XM' is not one of" in err
    assert f"\n{event}: round 1: delay must be 0 to 3600 seconds\n" in err


@pytest.mark.processes
def test_serve_loads_an_event_file_over_tls(tmp_path):
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
         "/CN=localhost", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    event = tmp_path / "event.toml"
    event.write_text(
        '[tournament]\nname = "TLS Open"\n'
        '[[player]]\nnumber = 1\nname = "A, B"\n[[player]]\nnumber = 2\nname = "C, D"\n'
        "[[round]]\nnumber = 1\npairings = [[1, 2]]\n"
    )
    args = [str(event), "--db", f"sqlite:///{tmp_path / 'tls.db'}"]
    args += ["--certfile", str(cert), "--keyfile", str(key)]
    with serving(tmp_path, *args) as (url, before):
        assert "added 2 players, 0 boards, 1 rounds, 1 games" in "".join(before)
        assert url.startswith("https://")
        context = ssl.create_default_context(cafile=str(cert))
        context.check_hostname = False
        with urllib.request.urlopen(f"{url}api/rounds", timeout=10, context=context) as reply:
            assert [r["number"] for r in json.load(reply)] == [1]


def test_club_keys_are_made_from_the_command_line_in_their_clubs_namespace(capsys, tmp_path):
    db = f"sqlite:///{tmp_path / 'clubs.db'}"
    engine = open_store(db)
    try:
        with Session(engine) as session:
            club = create_club(session, name="Hexham CC").id
            member = add_member(
                session, club_id=club or 0, name="Able, Ann", ecf_member=True, grading_code=None
            ).id
            session.commit()
    finally:
        engine.dispose()
    officer = ["token", "create", "--role", "club-officer", "--db", db]
    assert main([*officer, "--user", "Captain"]) == 1
    assert "needs --club" in capsys.readouterr().err
    assert main([*officer, "--user", "Captain", "--club", str(club)]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("rly_")
    assert "token for Captain (club-officer)" in err
    player = ["token", "create", "--role", "club-player", "--club", str(club), "--db", db]
    assert main(player) == 1
    assert "needs --club and --member" in capsys.readouterr().err
    assert main([*player, "--member", str(member)]) == 0
    capsys.readouterr()
    assert main(["token", "list", "--db", db]) == 0
    assert sorted(capsys.readouterr().out.splitlines()) == [
        f"club {club} member {member}\tclub-player",
        f"club {club}: Captain\tclub-officer",
    ]
    assert main([*player, "--member", "99"]) == 1
    assert "no member 99" in capsys.readouterr().err
