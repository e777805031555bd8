from __future__ import annotations

import subprocess
import sys

import pytest

from relay.cli import build_parser, main


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
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code = main(["serve", "--db", f"sqlite:///{tmp_path / 'x.db'}", "--port", str(port)])
    assert code == 1
    assert "cannot listen" in capsys.readouterr().err
