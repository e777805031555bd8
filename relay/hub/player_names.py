"""Player names that probably belong to one person, shown to the arbiter with a merge
(docs/game-input.md, "Names").

The clashes of a tournament are found by :mod:`relay.domain.tournament.name_match`; each
comes with a suggestion (which row stays, under which name: the fuller spelling, written
"Family, Given") and, where a merge would be refused or needs a second thought, the words
saying why. A merge is checked and done in one transaction on the store thread, audited,
and the rounds of the tournament are read again by the views (their players changed).

What is safe (the rules a merge keeps):

* two players who both play in one round (a game or a bye) are two people: refused;
* two players with different FIDE ids are two people: refused (and never flagged);
* a player whose verified result in a published round would move to the other row is
  refused unless the arbiter says so (``rewrite_published``): the public standings and the
  tournament report change. The suggestion keeps the row with such results, so the plain
  merge is refused only when both rows have them;
* a game in play, or a round not yet published, moves with the player: its log is not
  touched, only who plays it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sqlmodel import Session

from relay.domain.errors import InvalidInputError
from relay.domain.tournament.name_match import (
    Entrant,
    NameClash,
    find_clashes,
    fuller_name,
    standard_name,
)
from relay.hub.arbiter_desk import stored_record
from relay.hub.game_views import GameViews
from relay.hub.recorder import GameRecorder
from relay.store.access import Identity, audit
from relay.store.models import Player
from relay.store.player_merge import (
    MergedPlayers,
    Placement,
    PlayerMergeError,
    merge_players,
    placements,
    same_round,
    tournament_player,
)
from relay.store.tournaments import get_tournament, list_players, list_rounds

#: The longest name a merge gives a player.
MAX_NAME = 200


class PlayerNameError(ValueError, InvalidInputError):
    """The name chosen for the merged player cannot be used (empty once tidied)."""


@dataclass(frozen=True, slots=True)
class Clash:
    """Two players who are probably one person, what a merge would do, and what stops it."""

    first: Player
    second: Player
    reasons: tuple[str, ...]
    #: The suggested merge: this row stays, the other goes, under this name.
    keep: Player
    drop: Player
    name: str
    #: Why the merge is refused (two people), or None.
    refused: str | None
    #: Why the suggested merge needs ``rewrite_published``, or None.
    published_results: str | None

    @property
    def unresolved(self) -> bool:
        """A clash the arbiter should look at: one a merge could resolve."""
        return self.refused is None


def _official(session: Session, places: Sequence[Placement]) -> list[Placement]:
    """The player's games in published rounds whose result is verified."""
    return [
        place
        for place in places
        if place.published
        and place.game_id is not None
        and stored_record(session, place.game_id).verified
    ]


def _moving_words(drop: Player, keep: Player, official: Sequence[Placement]) -> str:
    where = ", ".join(str(place) for place in official)
    return (
        f"{drop.name} has verified results in published rounds ({where}): merging moves "
        f"them to {keep.name}, and the public standings change"
    )


def _clashes(session: Session, tournament_id: int) -> list[Clash]:
    get_tournament(session, tournament_id=tournament_id)  # NotFoundError
    players = {p.id: p for p in list_players(session, tournament_id=tournament_id)}
    entrants = [Entrant(pid, p.name, p.fide_id) for pid, p in players.items() if pid is not None]
    found = find_clashes(entrants)
    if not found:
        return []
    places = placements(session, tournament_id=tournament_id)
    official: dict[int, list[Placement]] = {}

    def official_of(player_id: int) -> list[Placement]:
        if player_id not in official:
            official[player_id] = _official(session, places.get(player_id, []))
        return official[player_id]

    return [_clash(c, players, places, official_of) for c in found]


def _clash(
    found: NameClash,
    players: dict[int | None, Player],
    places: dict[int, list[Placement]],
    official_of: Callable[[int], list[Placement]],
) -> Clash:
    first, second = players[found.first.id], players[found.second.id]
    assert first.id is not None
    assert second.id is not None
    both = same_round(places.get(first.id, []), places.get(second.id, []))
    refused = None if both is None else f"both play in one round ({both}): two people"

    def weight(player: Player) -> tuple[int, int, int]:
        assert player.id is not None
        return (
            len(official_of(player.id)),
            len(places.get(player.id, [])),
            -player.start_number,
        )

    keep, drop = (first, second) if weight(first) >= weight(second) else (second, first)
    assert drop.id is not None
    moving = [] if refused else official_of(drop.id)
    return Clash(
        first=first,
        second=second,
        reasons=found.reasons,
        keep=keep,
        drop=drop,
        name=fuller_name(first.name, second.name),
        refused=refused,
        published_results=_moving_words(drop, keep, moving) if moving else None,
    )


def clash_warning(clashes: Sequence[Clash]) -> str | None:
    """One line for the arbiter, "2 players may be the same person: A and B", or None."""
    open_ = [c for c in clashes if c.unresolved]
    if not open_:
        return None
    people = {c.first.id for c in open_} | {c.second.id for c in open_}
    pairs = "; ".join(f"{c.first.name} and {c.second.name}" for c in open_)
    return f"{len(people)} players may be the same person: {pairs}"


class PlayerNames:
    """The names desk: clashes found, players merged."""

    def __init__(self, recorder: GameRecorder, views: GameViews) -> None:
        self._recorder = recorder
        self._views = views

    async def clashes(self, *, tournament_id: int) -> list[Clash]:
        """The tournament's players who are probably one person (NotFoundError for a
        tournament that does not exist)."""
        return await self._recorder.read(lambda session: _clashes(session, tournament_id))

    async def warning(self, *, tournament_id: int) -> str | None:
        """What publishing a round of the tournament should tell the arbiter, or None."""
        return clash_warning(await self.clashes(tournament_id=tournament_id))

    async def merge(
        self,
        *,
        tournament_id: int,
        keep_id: int,
        drop_id: int,
        name: str | None,
        who: Identity,
        reason: str = "",
        rewrite_published: bool = False,
    ) -> MergedPlayers:
        """Make player ``drop_id`` one with ``keep_id`` (see the module's rules); ``name``
        is tidied to "Family, Given", None: the fuller of the two names."""

        def work(session: Session) -> tuple[MergedPlayers, list[int]]:
            get_tournament(session, tournament_id=tournament_id)
            keep = tournament_player(session, tournament_id=tournament_id, player_id=keep_id)
            drop = tournament_player(session, tournament_id=tournament_id, player_id=drop_id)
            chosen = fuller_name(keep.name, drop.name) if name is None else standard_name(name)
            if not chosen.strip(" ,"):
                raise PlayerNameError(f"a player's name has letters, not {name!r}")
            if len(chosen) > MAX_NAME:
                raise PlayerNameError(f"a player's name is at most {MAX_NAME} characters")
            if keep_id != drop_id and not rewrite_published:
                places = placements(session, tournament_id=tournament_id)
                moving = _official(session, places.get(drop_id, []))
                if moving and same_round(places.get(keep_id, []), places.get(drop_id, [])) is None:
                    raise PlayerMergeError(
                        _moving_words(drop, keep, moving)
                        + " (merge the other way round, or send rewrite_published)"
                    )
            merged = merge_players(
                session,
                tournament_id=tournament_id,
                keep_id=keep_id,
                drop_id=drop_id,
                name=chosen,
            )
            audit(
                session,
                who=who,
                action="merge-players",
                target=f"player {keep_id}",
                reason=reason,
                detail={
                    "tournament": tournament_id,
                    "kept": keep_id,
                    "dropped": drop_id,
                    "dropped_name": merged.dropped_name,
                    "dropped_start_number": merged.dropped_start_number,
                    "name_before": merged.name_before,
                    "name": chosen,
                    "games": merged.games,
                    "byes": merged.byes,
                    "renumbered": [list(pair) for pair in merged.renumbered],
                    "rewrite_published": rewrite_published,
                },
            )
            session.commit()
            rounds = [r.id for r in list_rounds(session, tournament_id=tournament_id)]
            return merged, [r for r in rounds if r is not None]

        merged, rounds = await self._recorder.run(work)
        for round_id in rounds:  # their players changed: read again when next asked
            self._views.forget(round_id)
        return merged
