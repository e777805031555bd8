"""The demo's players: enough distinct, believable people for every board it can run."""

from __future__ import annotations

import re

import pytest

from relay.demo.roster import RosterError, demo_players, roster
from relay.demo.run import DemoError, tournament_setup

TITLES = {"GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM"}


def test_every_player_is_a_distinct_believable_person():
    players = roster()
    assert len(players) >= 64
    assert len({p.name for p in players}) == len(players)
    assert [p.number for p in players] == list(range(1, len(players) + 1))
    for player in players:
        assert re.fullmatch(r"[A-Z][\w' -]*[a-z], [A-Z][\w' -]*[a-z]", player.name), player.name
        assert player.title is None or player.title in TITLES
        assert player.rating is not None
        assert 1000 <= player.rating <= 2900
        assert player.federation is not None
        assert re.fullmatch(r"[A-Z]{3}", player.federation)
    # Strongest first, as start numbers go in an open.
    ratings = [p.rating or 0 for p in players]
    assert ratings == sorted(ratings, reverse=True)


def test_the_demo_enters_two_players_a_board_and_says_when_it_has_too_few():
    assert [p.number for p in demo_players(16)] == list(range(1, 17))
    setup = tournament_setup(8, ports=[f"/dev/pts/{n}" for n in range(8)])
    assert len(setup.players) == 16
    assert [b.number for b in setup.boards] == list(range(1, 9))
    assert setup.tournament.pairing_system == "swiss"
    with pytest.raises(RosterError, match="enough for 32 boards"):
        demo_players(66)
    with pytest.raises(DemoError, match="enough for 32 boards"):
        tournament_setup(33, ports=[])
