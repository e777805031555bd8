"""The repository stands alone: a user who clones only the repository gets a green test
suite, so no code, test, bench or page of it refers to a path outside the repository.

The rule, applied line by line to the text source files (``SUFFIXES``) under ``FOLDERS``;
``tests/data/`` holds data, and of it only its README.md is read. A line offends when it has

* a path up into the project's ``shared`` folder beside the repository: ``..``, a slash and
  ``shared`` (any number of ``..`` steps);
* ``"shared"`` (single or double quotes) as a path part: joined by a slash on either side
  (pathlib's ``/``) or as the first argument of ``Path(`` or ``joinpath(``;
* any path with a folder named ``shared`` between two slashes;
* ``shared``, a slash and one of that folder's parts: data, seeds, docs or hooks;
* an absolute path into this machine's working or home folders: ``/work``, ``/root`` or
  ``/home`` followed by a slash, where the first slash does not follow a letter, digit,
  underscore or dot (so that a web address such as ``example.org/home/`` passes).

Other absolute paths are legitimate in code and stay allowed (``/tmp``, ``/dev/ttyACM0``,
``/dev/pts``, ``/usr/bin/chromium``, ``/etc``), and so is the English word: "shared by the
routers". The samples below are written with ``|`` for a slash, so that this file, which is
scanned with the rest, does not offend itself.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

import pytest

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("tests", "bench", "relay", "drivers", "firmware-sim", "web", "scripts")
SUFFIXES = {
    ".py",
    ".pyi",
    ".c",
    ".h",
    ".js",
    ".mjs",
    ".html",
    ".css",
    ".sh",
    ".toml",
    ".cfg",
    ".ini",
    ".yml",
    ".yaml",
    ".json",
    ".md",
    ".rst",
    ".txt",
}
DATA = ROOT / "tests" / "data"

RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("a path up into shared", re.compile(r"\.\./(?:\.\./)*shared\b")),
    (
        '"shared" as a path part',
        re.compile(
            r"""/\s*(["'])shared\1|(["'])shared\2\s*/|(?:\bPath|joinpath)\(\s*["']shared\b"""
        ),
    ),
    ("a folder named shared", re.compile(r"/shared(?=/)")),
    ("a part of the shared folder", re.compile(r"\bshared/(?:data|seeds|docs|hooks)\b")),
    ("an absolute path of this machine", re.compile(r"(?<![\w.])/(?:work|root|home)/")),
)


class Offence(NamedTuple):
    line: int
    rules: tuple[str, ...]
    text: str


def offences(text: str) -> list[Offence]:
    """The lines of ``text`` that refer to a path outside the repository, numbered from 1,
    with the rules each breaks."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        broken = tuple(name for name, rule in RULES if rule.search(line))
        if broken:
            found.append(Offence(number, broken, line.strip()))
    return found


def scanned_files() -> list[Path]:
    files = []
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in SUFFIXES or "__pycache__" in path.parts or not path.is_file():
                continue
            if path.is_relative_to(DATA) and path != DATA / "README.md":
                continue
            files.append(path)
    return files


def slashed(text: str) -> str:
    return text.replace("|", "/")


OFFENDING = [
    'Path("..|shared|data|x.pgn")',
    'Path(__file__).parents[2].parent | "shared" | "seeds"',
    '"|work|shared|data|x"',
    "SEEDS = Path(__file__).resolve().parents[4].parent | 'shared' | 'seeds'",
    'CORPUS = Path("..|..|..|shared") | "data"',
    # Split in two, so that this file does not offend itself.
    "DATA = ROOT.joinpath(" + '"shared", "data")',
    "Path(" + '"shared") | "data"',
    "every real game of ``shared|data|real-games.pgn``",
    "see ``|work|shared|docs|dgt-protocol.md``",
    "rules in `shared|docs|laws.md`",
    'LOG = Path("|root|relay.log")',
    'CACHE = "|home|someone|.cache|relay"',
    "https:||example.org|shared|x.pgn",
]

INNOCENT = [
    '"""Dependencies shared by the routers: the hub, a database session, who is asking."""',
    "assert writers[0].writes[0] is writers[1].writes[0]  # framed once, shared",
    "shared only by players equal on points and every tie-break.",
    'mode = "shared"',
    'lock = Lock(kind="shared", timeout=2)',
    'DATA = Path(__file__).resolve().parent | "data"',
    'REAL_GAMES = Path(__file__).resolve().parents[1] | "tests" | "data" | "real-games.pgn"',
    "see ``docs|dgt-protocol.md``",
    'Path("|tmp|relay.db")',
    'PORT = "|dev|ttyACM0"',
    'pty = "|dev|pts|4"',
    'CHROMIUM = "|usr|bin|chromium"',
    'open("|etc|hosts")',
    "https:||example.org|home|index.html",
    "a path under tests|data|seeds|004-appendix-1-berger.txt",
    "sharedata|seeds and unshared|docs",
]


@pytest.mark.parametrize("sample", OFFENDING)
def test_a_path_outside_the_repository_offends(sample):
    assert [offence.line for offence in offences(slashed(sample))] == [1]


@pytest.mark.parametrize("sample", INNOCENT)
def test_innocent_text_passes(sample):
    assert offences(slashed(sample)) == []


def test_offences_are_reported_by_line_with_their_rules():
    text = slashed('"""Shared by all."""\n\nDATA = ROOT.parent | "shared"\nx = 1\nY = "|work|x"\n')
    assert offences(text) == [
        Offence(3, ('"shared" as a path part',), slashed('DATA = ROOT.parent | "shared"')),
        Offence(5, ("an absolute path of this machine",), slashed('Y = "|work|x"')),
    ]
    rules = offences(slashed('SEED = Path("..|shared|seeds|004.txt")'))[0].rules
    assert rules == (
        "a path up into shared",
        "a folder named shared",
        "a part of the shared folder",
    )


def test_the_scan_covers_the_code_the_tests_and_the_data_readme():
    names = {path.relative_to(ROOT).as_posix() for path in scanned_files()}
    assert {
        "tests/test_stands_alone.py",
        "tests/data/README.md",
        "bench/accuracy.py",
        "relay/api/deps.py",
        "firmware-sim/boardsim/bwtime.py",
        "bench/spectator_load.c",
    } <= names
    assert not any(name.endswith(".pgn") for name in names)
    assert not any(name.startswith("tests/data/seeds/") for name in names)


def test_no_file_refers_to_a_path_outside_the_repository():
    found = [
        f"{path.relative_to(ROOT)}:{offence.line}: {', '.join(offence.rules)}: {offence.text}"
        for path in scanned_files()
        for offence in offences(path.read_text(encoding="utf-8", errors="replace"))
    ]
    assert found == []
