"""Draw offers on the scoresheet (9.1.2): what may be done when, and what it leaves."""

from __future__ import annotations

import pytest

from relay.domain.game.draw_offers import DrawOfferError, draw_action
from relay.domain.game.events import DrawOffered, GameEnded, MoveMade
from relay.domain.game.record import GameRecord
from relay.domain.results import Result


def move(ply: int, uci: str) -> MoveMade:
    return MoveMade(ply=ply, uci=uci, san="", fen="", at=float(ply))


def standing(record: GameRecord) -> tuple[str | None, str | None, str]:
    return record.draw_offer, record.proposed_result, record.result


def test_an_accepted_offer_proposes_the_draw():
    record = GameRecord.from_events([move(1, "e2e4")])
    offer = draw_action(record, player="white", action="offer", at=2.0)
    record.apply(offer)
    assert standing(record) == ("white", None, "*")
    accept = draw_action(record, player="black", action="accept", at=3.0)
    assert accept == DrawOffered(player="black", action="accept", at=3.0)
    record.apply(accept)
    assert standing(record) == (None, "1/2-1/2", "*")


def test_an_offer_lapses_when_the_opponent_plays_on():
    record = GameRecord.from_events(
        [move(1, "e2e4"), DrawOffered("white", "offer", 2.0), move(2, "e7e5")]
    )
    assert record.draw_offer is None
    kept = GameRecord.from_events([DrawOffered("white", "offer", 0.5), move(1, "e2e4")])
    assert kept.draw_offer == "white"  # offered, then made the move: it stands (9.1.2)


@pytest.mark.parametrize(
    ("events", "player", "action", "message"),
    [
        ([], "black", "accept", "no draw offer to accept"),
        ([DrawOffered("white", "offer", 1.0)], "white", "accept", "no draw offer to accept"),
        ([DrawOffered("white", "offer", 1.0)], "black", "offer", "already offered"),
        ([DrawOffered("white", "offer", 1.0)], "black", "withdraw", "no draw offer to withdraw"),
        ([GameEnded(Result.WHITE_WINS, "checkmate", 1.0)], "white", "offer", "the game is over"),
        ([], "green", "offer", "white or black"),
        ([], "white", "shout", "one of offer"),
    ],
)
def test_what_does_not_fit_is_refused(events, player, action, message):
    record = GameRecord.from_events(events)
    with pytest.raises(DrawOfferError, match=message):
        draw_action(record, player=player, action=action, at=5.0)
