from __future__ import annotations

import json
import re
import signal
import socket
import subprocess
import sys
import urllib.request

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
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code = main(["serve", "--db", f"sqlite:///{tmp_path / 'x.db'}", "--port", str(port)])
    assert code == 1
    assert "cannot listen" in capsys.readouterr().err


def test_serve_answers_and_stops_cleanly_on_ctrl_c(tmp_path):
    command = [sys.executable, "-m", "relay.cli", "serve", "--port", "0"]
    command += ["--db", f"sqlite:///{tmp_path / 'serve.db'}"]
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path
    ) as process:
        assert process.stdout is not None
        assert process.stderr is not None
        try:
            banner = process.stdout.readline()
            found = re.search(r"hub on (http://\S+) ", banner)
            assert found, banner + process.stderr.read()
            with urllib.request.urlopen(f"{found.group(1)}api/health", timeout=10) as reply:
                assert json.load(reply) == {"status": "ok"}
        finally:
            process.send_signal(signal.SIGINT)
            code = process.wait(timeout=30)
        errors = process.stderr.read()
    assert code == 0, errors
    assert "Traceback" not in errors
    assert (tmp_path / "serve.db").is_file()


def test_unusable_database_is_a_clear_error(capsys, tmp_path):
    missing_folder = tmp_path / "no" / "such" / "folder" / "relay.db"
    assert main(["serve", "--port", "0", "--db", f"sqlite:///{missing_folder}"]) == 1
    assert "relay: cannot open database" in capsys.readouterr().err
    assert main(["serve", "--port", "0", "--db", "nosuch://x"]) == 1
    assert "relay: bad database URL" in capsys.readouterr().err
