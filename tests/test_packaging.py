"""Installed as a user installs it: ``pip install .`` (not editable) gives a working hub.

The wheel is built from a copy of the source tree and installed into a new virtual
environment with the dependencies its own metadata asks for (at the versions of
``requirements.lock``); the installed ``relay serve`` then serves its pages and its health
check from a folder that has no checkout in it, with no ``RELAY_WEB_DIR``.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
import urllib.request
from pathlib import Path

import pytest

from tests.relay_serve import hub_process

pytestmark = pytest.mark.processes

ROOT = Path(__file__).resolve().parents[1]

#: What a user's copy of the repository holds besides the sources: left out of the copy.
NOT_SOURCES = shutil.ignore_patterns(
    ".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".*_cache", ".hypothesis"
)


def _declared_packages() -> dict[str, Path]:
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    mapped = setuptools.get("package-dir", {})
    packages: dict[str, Path] = {}
    for name in setuptools["packages"]:
        # A package's folder: its own mapping, else its parent's folder plus its last name.
        parent, _, last = name.rpartition(".")
        if name in mapped:
            packages[name] = ROOT / mapped[name]
        else:
            packages[name] = (packages[parent] / last) if parent else ROOT / name
    return packages


def test_every_package_of_the_tree_is_declared():
    on_disk = {
        path.parent
        for top in ("relay", "drivers", "firmware-sim/boardsim")
        for path in (ROOT / top).rglob("__init__.py")
    }
    declared = _declared_packages()
    assert on_disk - set(declared.values()) == set(), "add these packages to pyproject.toml"
    assert all(folder.is_dir() for folder in declared.values())
    assert declared["relay.web"] == ROOT / "web"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new virtual environment with the wheel of this tree installed; its ``bin``."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"
    shutil.copytree(ROOT, source, ignore=NOT_SOURCES)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--quiet"]
    subprocess.run(
        [*pip, "wheel", "--no-deps", "--wheel-dir", str(work / "dist"), str(source)],
        check=True,
        capture_output=True,
    )
    (wheel,) = (work / "dist").glob("chess_relay-*.whl")
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    install = ["install", "--constraint", str(ROOT / "requirements.lock"), str(wheel)]
    subprocess.run(
        [*pip, "--python", str(venv / "bin" / "python"), *install],
        check=True,
        capture_output=True,
    )
    return venv / "bin"


def _clean_environment() -> dict[str, str]:
    return {
        name: value
        for name, value in os.environ.items()
        if not name.startswith("RELAY_") and name not in {"PYTHONPATH", "VIRTUAL_ENV"}
    }


def _run(command: list[str], folder: Path) -> str:
    """What ``command`` prints, run in ``folder`` with no setting of ours in the environment."""
    return subprocess.run(
        command, cwd=folder, env=_clean_environment(), capture_output=True, text=True, check=True
    ).stdout.strip()


def test_the_installed_package_is_not_the_checkout(installed, tmp_path):
    python = str(installed / "python")
    where = _run([python, "-c", "import relay.config as c; print(c.__file__)"], tmp_path)
    assert Path(where).is_relative_to(installed.parent)
    count, has_games = _run(
        [
            python,
            "-c",
            "from relay.demo.roster import roster; from relay.demo.pgn_round import bundled_games;"
            " print(len(roster()), bundled_games().stat().st_size > 0)",
        ],
        tmp_path,
    ).split()
    assert int(count) >= 16
    assert has_games == "True"
    version = _run([str(installed / "relay"), "--version"], tmp_path)
    expected = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert version == f"relay {expected}"


def test_installed_relay_serve_serves_its_pages(installed, tmp_path):
    command = [str(installed / "relay"), "serve", "--port", "0"]
    command += ["--db", f"sqlite:///{tmp_path / 'relay.db'}"]
    with hub_process(command, tmp_path, _clean_environment()) as (_, address):
        url = f"http://{address}"
        with urllib.request.urlopen(f"{url}api/health", timeout=10) as answer:
            assert answer.status == 200
        with urllib.request.urlopen(url, timeout=10) as answer:
            page = answer.read().decode()
        assert "<html" in page.lower()
        assert "/static/" in page
        script = page.split('src="', 1)[1].split('"', 1)[0]
        with urllib.request.urlopen(url.rstrip("/") + script, timeout=10) as answer:
            assert answer.status == 200


def test_the_container_installs_as_a_user_does():
    """The Dockerfile's install is this one: ``pip install .`` of the sources, not editable,
    and the pages come from the package, not from a RELAY_WEB_DIR."""
    steps = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    installs = [line for line in steps.splitlines() if "pip install" in line]
    assert any(re.search(r"pip install [^&]*--no-deps \.(\s|$)", line) for line in installs)
    assert not any(" -e " in line or "--editable" in line for line in installs)
    assert "RELAY_WEB_DIR" not in steps
