"""The import rules of docs/architecture.md, checked on every module's source."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Room -> what its modules may import besides the standard library and themselves.
#: A room is the longest matching module prefix.
RULES: dict[str, set[str]] = {
    "drivers": {"serial"},
    "boardsim": {"serial", "chess"},
    "relay.domain": {"chess"},
    "relay.store": {"relay.domain", "sqlmodel", "sqlalchemy", "alembic"},
    # Redis carries events between processes (docs/architecture.md, "Several processes").
    "relay.bus": {"relay.domain", "redis"},
    "relay.config": {"relay.domain"},
    "relay.hub": {
        "relay.domain",
        "relay.store",
        "relay.bus",
        "relay.config",
        "drivers",
        "sqlmodel",
        "sqlalchemy",
    },
    # The edge streams what the hub's views hold and the bus publishes, to websockets it
    # serves under uvicorn (or, elsewhere, over Starlette's ASGI websocket); it reads a
    # round's publication and tokens from the store. It knows nothing of the API's routes.
    "relay.edge": {
        "relay.domain",
        "relay.bus",
        "relay.hub",
        "relay.store",
        "uvicorn",
        "starlette",
    },
    # The API mounts the edge's streams; it counts each client's requests with the limits
    # library.
    "relay.api": {
        "relay.edge",
        "relay.hub",
        "relay.store",
        "relay.domain",
        "relay.bus",
        "relay.config",
        "fastapi",
        "pydantic",
        "starlette",
        "uvicorn",
        "sqlmodel",
        "sqlalchemy",
        "limits",
    },
    # The venue agent runs the drivers and keeps their events until the hub has them; it
    # knows no chess and no game (docs/venue-agent.md).
    "relay.agent": {"relay.domain", "drivers", "websockets"},
    # The command line and the demo wire everything together; the demo runs boardsim as a
    # separate process, never as an import.
    "relay.cli": {"relay", "chess", "sqlmodel"},
    "relay.demo": {"relay", "chess", "sqlmodel", "sqlalchemy"},
    "relay": set(),
}

SOURCES = {
    "relay": ROOT / "relay",
    "drivers": ROOT / "drivers",
    "boardsim": ROOT / "firmware-sim" / "boardsim",
}


def module_name(package: str, path: Path, base: Path) -> str:
    parts = [package, *path.relative_to(base).with_suffix("").parts]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(source: str, module: str, is_package: bool) -> list[str]:
    names: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = module.split(".")
                anchor = anchor[: len(anchor) - node.level + (1 if is_package else 0)]
                names.append(".".join(anchor + ([node.module] if node.module else [])))
            else:
                assert node.module is not None
                names.append(node.module)
    return names


def room_of(module: str) -> str:
    matches = [room for room in RULES if module == room or module.startswith(room + ".")]
    return max(matches, key=len)


def within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def violations(module: str, imported: list[str]) -> list[str]:
    room = room_of(module)
    allowed = RULES[room] | {room}
    bad = []
    for name in imported:
        if name.split(".")[0] in sys.stdlib_module_names or name == "__future__":
            continue
        if not any(within(name, prefix) for prefix in allowed):
            bad.append(f"{module} imports {name} (room {room} may import {sorted(allowed)})")
    return bad


def all_modules() -> list[tuple[str, Path]]:
    found = []
    for package, base in SOURCES.items():
        for path in sorted(base.rglob("*.py")):
            found.append((module_name(package, path, base), path))
    return found


def test_every_module_keeps_to_its_room():
    problems = []
    for module, path in all_modules():
        names = imports_of(path.read_text(), module, path.name == "__init__.py")
        problems += violations(module, names)
    assert problems == []


def test_the_rooms_cover_every_package():
    modules = [module for module, _ in all_modules()]
    assert len(modules) > 20
    assert {room_of(m) for m in modules} >= {
        "drivers",
        "boardsim",
        "relay.domain",
        "relay.api",
        "relay.edge",
    }


def test_a_forbidden_arrow_is_caught():
    source = "from relay.store.games import read_events\nimport chess\nfrom . import frames\n"
    assert violations(
        "drivers.dgt.protocol", imports_of(source, "drivers.dgt.protocol", False)
    ) == [
        "drivers.dgt.protocol imports relay.store.games (room drivers may import "
        "['drivers', 'serial'])",
        "drivers.dgt.protocol imports chess (room drivers may import ['drivers', 'serial'])",
    ]
    assert violations("boardsim.cli", ["drivers.dgt.frames"]) != []
    assert violations("relay.domain.game.tracker", ["relay.store.games"]) != []
    assert violations("relay.api.app", ["relay.hub.hub", "fastapi"]) == []
    assert violations("relay.api.app", ["relay.edge.rooms"]) == []
    assert violations("relay.edge.protocol", ["relay.api.limits"]) != []
    assert violations("relay.edge.rooms", ["fastapi"]) != []


def test_relative_imports_are_resolved():
    assert imports_of("from .frames import Frame\n", "drivers.dgt.protocol", False) == [
        "drivers.dgt.frames"
    ]
    assert imports_of("from . import frames\n", "drivers.dgt", True) == ["drivers.dgt"]
