"""The demo's players: invented people with titles, ratings and federations.

They come from ``players.toml`` beside this module, strongest first, so that a Swiss round 1
pairs them as a real open's first round would be paired.
"""

from __future__ import annotations

import tomllib
from importlib import resources

from relay.domain.errors import InvalidInputError
from relay.domain.formats.event_file import PlayerSetup


class RosterError(ValueError, InvalidInputError):
    """The demo has not that many players."""


def roster() -> tuple[PlayerSetup, ...]:
    """Every player of the demo, by start number (strongest first)."""
    text = resources.files("relay.demo").joinpath("players.toml").read_text(encoding="utf-8")
    entries = tomllib.loads(text)["players"]
    return tuple(
        PlayerSetup(
            number,
            entry["name"],
            title=entry.get("title"),
            rating=entry["rating"],
            federation=entry["federation"],
        )
        for number, entry in enumerate(entries, start=1)
    )


def demo_players(count: int) -> tuple[PlayerSetup, ...]:
    """The first ``count`` players of the roster."""
    players = roster()
    if count > len(players):
        raise RosterError(
            f"the demo has {len(players)} players, enough for {len(players) // 2} boards"
        )
    return players[:count]
