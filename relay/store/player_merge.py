"""Two player rows of one tournament found to be one person, made one (docs/game-input.md,
"Names").

:func:`merge_players` moves every game and bye of the player that goes onto the player that
stays, gives the one that stays the name chosen and whatever it lacked (FIDE id, title,
rating, federation, team), removes the other, and closes the gap in the start numbers (a
Swiss is paired from start numbers 1..n). It refuses two players who both play in one round:
they are two people. It never commits: the caller audits and commits (see
:mod:`relay.store.tournaments`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlmodel import Session, col, select

from relay.domain.errors import RefusedError
from relay.store.models import Bye, Game, Player, Round
from relay.store.tournaments import NotFoundError


class PlayerMergeError(ValueError, RefusedError):
    """The two players cannot be made one; the message says why."""


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a player is in a round: a game (on a board) or a bye."""

    round_id: int
    round_number: int
    published: bool
    game_id: int | None
    board: int | None

    def __str__(self) -> str:
        where = "a bye" if self.board is None else f"board {self.board}"
        return f"round {self.round_number} ({where})"


@dataclass(frozen=True, slots=True)
class MergedPlayers:
    """What a merge changed."""

    kept: Player
    dropped_id: int
    dropped_name: str
    dropped_start_number: int
    name_before: str
    games: int
    byes: int
    #: Start numbers that moved down to close the gap: (before, after).
    renumbered: list[tuple[int, int]]


def tournament_player(session: Session, *, tournament_id: int, player_id: int) -> Player:
    player = session.get(Player, player_id)
    if player is None or player.tournament_id != tournament_id:
        raise NotFoundError(f"no player {player_id} in tournament {tournament_id}")
    return player


def placements(session: Session, *, tournament_id: int) -> dict[int, list[Placement]]:
    """Every player's games and byes in the tournament, by player id, in round order."""
    rounds = {
        r.id: r for r in session.exec(select(Round).where(Round.tournament_id == tournament_id))
    }
    found: dict[int, list[Placement]] = {}
    games = session.exec(select(Game).where(col(Game.round_id).in_(list(rounds)))).all()
    for game in games:
        round_ = rounds[game.round_id]
        assert round_.id is not None
        place = Placement(round_.id, round_.number, round_.published, game.id, game.board)
        for player_id in (game.white_id, game.black_id):
            found.setdefault(player_id, []).append(place)
    byes = session.exec(select(Bye).where(col(Bye.round_id).in_(list(rounds)))).all()
    for bye in byes:
        round_ = rounds[bye.round_id]
        assert round_.id is not None
        place = Placement(round_.id, round_.number, round_.published, None, None)
        found.setdefault(bye.player_id, []).append(place)
    for places in found.values():
        places.sort(key=lambda p: (p.round_number, p.board or 0))
    return found


def same_round(first: Sequence[Placement], second: Sequence[Placement]) -> str | None:
    """The first round both play in, in words ("round 2 (board 3) and round 2 (a bye)"), or
    None."""
    for one in first:
        for two in second:
            if one.round_id == two.round_id:
                return f"{one} and {two}"
    return None


def merge_players(
    session: Session, *, tournament_id: int, keep_id: int, drop_id: int, name: str
) -> MergedPlayers:
    """Make ``drop_id`` one with ``keep_id``, named ``name`` (not committed)."""
    if keep_id == drop_id:
        raise PlayerMergeError("a player cannot be merged into themselves")
    kept = tournament_player(session, tournament_id=tournament_id, player_id=keep_id)
    dropped = tournament_player(session, tournament_id=tournament_id, player_id=drop_id)
    if kept.fide_id and dropped.fide_id and kept.fide_id != dropped.fide_id:
        raise PlayerMergeError(
            f"{kept.name} (FIDE id {kept.fide_id}) and {dropped.name} (FIDE id "
            f"{dropped.fide_id}) have different FIDE ids: they are two people"
        )
    places = placements(session, tournament_id=tournament_id)
    both = same_round(places.get(keep_id, []), places.get(drop_id, []))
    if both is not None:
        raise PlayerMergeError(
            f"{kept.name} and {dropped.name} both play in one round ({both}): they are two people"
        )
    games = session.exec(
        select(Game).where((col(Game.white_id) == drop_id) | (col(Game.black_id) == drop_id))
    ).all()
    for game in games:
        if game.white_id == drop_id:
            game.white_id = keep_id
        if game.black_id == drop_id:
            game.black_id = keep_id
        session.add(game)
    byes = session.exec(select(Bye).where(Bye.player_id == drop_id)).all()
    for bye in byes:
        bye.player_id = keep_id
        session.add(bye)
    name_before = kept.name
    kept.name = name
    for field in ("fide_id", "title", "rating", "federation", "team"):
        if getattr(kept, field) is None:
            setattr(kept, field, getattr(dropped, field))
    # One of the two still playing: the one person is still playing.
    if kept.withdrawn_after is None or dropped.withdrawn_after is None:
        kept.withdrawn_after = None
    else:
        kept.withdrawn_after = max(kept.withdrawn_after, dropped.withdrawn_after)
    session.add(kept)
    session.flush()
    gone = dropped.start_number
    dropped_name = dropped.name
    session.delete(dropped)
    session.flush()
    renumbered = []
    later = session.exec(
        select(Player)
        .where(Player.tournament_id == tournament_id, col(Player.start_number) > gone)
        .order_by(col(Player.start_number))
    ).all()
    for player in later:  # each into the number freed just below it
        renumbered.append((player.start_number, player.start_number - 1))
        player.start_number -= 1
        session.add(player)
        session.flush()
    return MergedPlayers(
        kept, drop_id, dropped_name, gone, name_before, len(games), len(byes), renumbered
    )
