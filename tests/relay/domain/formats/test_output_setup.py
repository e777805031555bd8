"""The event file's ``[[output]]`` tables: every kind read, written back, and refused in
words when wrong."""

from __future__ import annotations

import pytest

from relay.domain.formats import output_setup
from relay.domain.formats.event_file import EventFileError, parse_event_file, render_event_file
from relay.domain.formats.output_setup import FolderSetup, FtpSetup, LichessSetup, LiveChessSetup

HEAD = "[tournament]\nname = 'X'\n"

EVERY_KIND = (
    HEAD
    + """
[[output]]
kind = "lichess"
rounds = { 2 = "EfGh5678", 1 = "AbCd1234" }

[[output]]
kind = "lichess"
rounds = { 3 = "IjKl9012" }
token_env = "OTHER_TOKEN"
url = "http://127.0.0.1:8080/"

[[output]]
kind = "folder"
path = "/srv/www/live"

[[output]]
kind = "ftp"
host = "ftp.example.org"
password_env = "FTP_PASSWORD"
directory = "/live"
tls = true

[[output]]
kind = "livechess"
"""
)


def test_every_kind_is_read_with_its_defaults():
    outputs = parse_event_file(EVERY_KIND).outputs
    assert outputs == (
        LichessSetup(rounds=((1, "AbCd1234"), (2, "EfGh5678"))),
        LichessSetup(
            rounds=((3, "IjKl9012"),), token_env="OTHER_TOKEN", url="http://127.0.0.1:8080"
        ),
        FolderSetup(path="/srv/www/live"),
        FtpSetup(
            host="ftp.example.org",
            port=21,
            user="anonymous",
            password_env="FTP_PASSWORD",
            directory="/live",
            tls=True,
        ),
        LiveChessSetup(),
    )


def test_outputs_are_written_back():
    setup = parse_event_file(EVERY_KIND)
    assert parse_event_file(render_event_file(setup)) == setup


def test_a_file_without_outputs_has_none():
    assert parse_event_file(HEAD).outputs == ()


def test_the_module_documentation_is_a_valid_list_of_outputs():
    assert output_setup.__doc__ is not None
    body = output_setup.__doc__.split("\n\n", 1)[1]
    text = "\n".join(line[4:] for line in body.splitlines())
    kinds = [output.kind for output in parse_event_file(HEAD + text).outputs]
    assert kinds == ["lichess", "folder", "ftp", "livechess"]


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ("kind = 'twitter'", "output 1: kind 'twitter' is not one of"),
        ("path = '/x'", "output 1: kind is required"),
        ("kind = 'folder'", r"output 1 \(folder\): path is required"),
        ("kind = 'folder'\npath = '/x'\nhost = 'y'", r"unknown key 'host'"),
        ("kind = 'lichess'", "rounds must map round numbers"),
        ("kind = 'lichess'\nrounds = { x = 'AbCd' }", "rounds must map round numbers"),
        ("kind = 'lichess'\nrounds = { 0 = 'AbCd' }", "rounds must map round numbers"),
        ("kind = 'lichess'\nrounds = { 1 = 'a/b' }", "round 1: 'a/b' is not a broadcast round"),
        ("kind = 'lichess'\nrounds = { 1 = 5 }", "round 1: '5' is not a broadcast round"),
        ("kind = 'lichess'\nrounds = { 1 = 'AbCd123' }", "'AbCd123' is not a broadcast round"),
        ("kind = 'lichess'\nrounds = { 1 = 'ÄbCd1234' }", "'ÄbCd1234' is not a broadcast round"),
        ("kind = 'lichess'\nrounds = { \"²\" = 'AbCd1234' }", "rounds must map round numbers"),
        (f"kind = 'lichess'\nrounds = {{ {'9' * 5000} = 'AbCd1234' }}", "rounds must map"),
        (
            "kind = 'lichess'\nrounds = { 1 = 'AbCd1234', 01 = 'EfGh5678' }",
            "round 1 is mapped twice",
        ),
        ("kind = 'ftp'\nhost = 'h'\nport = 0", "port must be 1 to 65535"),
        ("kind = 'ftp'\nhost = 'h'\nport = 70000", "port must be 1 to 65535"),
        ("kind = 'ftp'\nhost = 'h'\ntls = 'yes'", "tls must be true or false"),
        ("kind = 'ftp'", "host is required"),
    ],
)
def test_a_wrong_output_is_refused_with_the_place_and_the_reason(table, message):
    with pytest.raises(EventFileError, match=message):
        parse_event_file(f"{HEAD}[[output]]\n{table}\n")


def test_every_wrong_output_is_reported_at_once():
    text = f"{HEAD}[[output]]\nkind = 'folder'\n\n[[output]]\nkind = 'ftp'\n"
    with pytest.raises(EventFileError) as raised:
        parse_event_file(text)
    assert [problem.message for problem in raised.value.problems] == [
        "output 1 (folder): path is required and must be text",
        "output 2 (ftp): host is required and must be text",
    ]
