"""The stored form of a game's events: what is written, and read back unchanged."""

from __future__ import annotations

from relay.domain.game.events import MoveMade, event_data, event_from_data


def test_a_moves_untimed_mark_is_stored_only_when_set():
    timed = MoveMade(ply=1, uci="e2e4", san="e4", fen="", at=1.0)
    keyed = MoveMade(ply=1, uci="e2e4", san="e4", fen="", at=1.0, untimed=True)
    assert "untimed" not in event_data(timed)  # as every move stored before the mark
    assert event_data(keyed)["untimed"] is True
    assert event_from_data("move", event_data(keyed)) == keyed
    assert event_from_data("move", event_data(timed)) == timed
