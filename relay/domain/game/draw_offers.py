"""Draw offers made on the electronic scoresheet (Laws 9.1.2), checked against the game.

An offer stands until the opponent accepts or declines it, the offerer withdraws it, the
opponent moves (the record drops it then), or the game ends. An accepted offer proposes the
draw; the arbiter confirms it like any result.
"""

from __future__ import annotations

from relay.domain.errors import RefusedError
from relay.domain.game.events import DrawOffered
from relay.domain.game.record import GameRecord

ACTIONS = ("offer", "accept", "decline", "withdraw")


class DrawOfferError(ValueError, RefusedError):
    """A draw action that does not fit the game as it stands."""


def draw_action(record: GameRecord, *, player: str, action: str, at: float) -> DrawOffered:
    if player not in ("white", "black"):
        raise DrawOfferError(f"player {player!r}: white or black")
    if action not in ACTIONS:
        raise DrawOfferError(f"action {action!r}: one of {', '.join(ACTIONS)}")
    if record.result.is_decided:
        raise DrawOfferError(f"the game is over ({record.result})")
    standing = record.draw_offer
    if action == "offer" and standing is not None:
        raise DrawOfferError(f"{standing} has already offered a draw")
    if action in ("accept", "decline") and (standing is None or standing == player):
        raise DrawOfferError(f"{player} has no draw offer to {action}")
    if action == "withdraw" and standing != player:
        raise DrawOfferError(f"{player} has no draw offer to withdraw")
    return DrawOffered(player=player, action=action, at=at)
