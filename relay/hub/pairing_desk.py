"""The arbiter's pairings: the next round proposed, edited, checked; byes and withdrawals.

The computer prepares the next round's pairings for the arbiter to verify (seed 004 ch. 17,
items 14 and 15): only once every result of the rounds before is verified, by the
tournament's system (Berger tables for a round robin, the FIDE Dutch system for a Swiss).
The proposal is stored as an unpublished round; the arbiter may change it freely until a
game of it begins, sees what breaks the pairing rules, and publishes it. Every change is
audited.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlmodel import Session

from relay.domain.errors import RefusedError
from relay.domain.formats.trf import TrfTournament
from relay.domain.tournament.berger import berger_rounds, double_round_robin
from relay.domain.tournament.byes import ByeKind
from relay.domain.tournament.pairing_systems import PairingSystem
from relay.hub.game_views import GameViews
from relay.hub.knockout_round import pair_knockout_round
from relay.hub.recorder import GameRecorder
from relay.hub.scheveningen_round import pair_scheveningen_round
from relay.hub.swiss_round import pair_swiss_round, tournament_report, warnings_for
from relay.hub.tournament_history import TournamentHistory, read_history
from relay.store.access import Identity, audit
from relay.store.models import Round
from relay.store.pairings import (
    player_numbered,
    round_numbered,
    set_bye,
    set_pairings,
    withdraw,
)
from relay.store.tournaments import create_round, get_round


class PairingRefusedError(ValueError, RefusedError):
    """The next round cannot be paired now; the message says why. The pairing systems'
    own refusals (:class:`~relay.hub.swiss_round.SwissRoundError`, ...) are not translated
    into this: catch :class:`~relay.domain.errors.RefusedError` for any of them."""


@dataclass(frozen=True, slots=True)
class RoundPairings:
    """A round's pairings by start number, with what breaks the pairing rules."""

    round_id: int
    number: int
    published: bool
    games: list[tuple[int, int]]  # (White, Black), board 1 first
    byes: list[tuple[int, ByeKind]]
    warnings: list[str]


class PairingDesk:
    def __init__(self, recorder: GameRecorder, views: GameViews) -> None:
        self._recorder = recorder
        self._views = views

    async def pairings(self, *, round_id: int) -> RoundPairings:
        round_ = await self._recorder.run(lambda s: get_round(s, round_id=round_id))
        history = await read_history(self._recorder, self._views, round_.tournament_id)
        return _pairings_of(history, round_.number)

    async def report(self, *, tournament_id: int) -> TrfTournament:
        """The tournament report (TRF) of every round whose results are all verified."""
        history = await read_history(self._recorder, self._views, tournament_id)
        return tournament_report(history)

    async def pair_next(self, *, tournament_id: int, who: Identity) -> RoundPairings:
        """Pair the round after the last one (or the last one, if it has no games yet)."""
        history = await read_history(self._recorder, self._views, tournament_id)
        system = history.tournament.pairing_system
        if system is None:
            raise PairingRefusedError("the tournament has no pairing system: set one first")
        open_boards = [
            f"round {r.number}: board{'s' if len(b) > 1 else ''} {', '.join(map(str, b))}"
            for r in history.rounds
            if (b := r.unverified())
        ]
        if open_boards:
            raise PairingRefusedError(
                "every result must be verified before the next round is paired; not yet: "
                + "; ".join(open_boards)
            )
        last = history.rounds[-1] if history.rounds else None
        reuse = last is not None and not last.games
        number = last.number if last is not None and reuse else (last.number + 1 if last else 1)
        planned = history.tournament.rounds_planned
        # A knock-out plays as many game rounds as its tie-breaks take.
        if planned is not None and number > planned and system is not PairingSystem.KNOCKOUT:
            raise PairingRefusedError(f"all {planned} rounds are paired")
        # A system's own refusal (SwissRoundError, ...) is a RefusedError, as is ours.
        byes: list[tuple[int, ByeKind]] = []
        if system is PairingSystem.SWISS:
            games, byes = await pair_swiss_round(history, number)
        elif system is PairingSystem.SCHEVENINGEN:
            games = pair_scheveningen_round(history, number)
        elif system is PairingSystem.KNOCKOUT:
            games, byes = pair_knockout_round(history, number)
        else:
            asked = last.byes if last is not None and reuse else []
            if asked:
                players = ", ".join(str(start) for start, _ in asked)
                raise PairingRefusedError(
                    f"a {system} plays every game of its tables, so round {number} has no "
                    f"byes: player{'s' if len(asked) > 1 else ''} {players} asked for one. "
                    "Take the bye back and enter that game's result when it is played, or "
                    "withdraw the player"
                )
            games = _round_robin(history, system, number)
        tid = tournament_id

        def store(session: Session) -> int:
            if reuse:
                assert last is not None
                assert last.round.id is not None
                round_id = last.round.id
            else:
                made = create_round(session, tournament_id=tid, number=number)
                assert made.id is not None
                round_id = made.id
            _set_pairings(session, history, round_id, games, byes)
            audit(
                session,
                who=who,
                action="pair-round",
                target=f"round {round_id}",
                detail={"system": system, "number": number, "games": len(games)},
            )
            session.commit()
            return round_id

        round_id = await self._recorder.run(store)
        self._views.forget(round_id)
        return await self.pairings(round_id=round_id)

    async def edit(
        self,
        *,
        round_id: int,
        games: Sequence[tuple[int, int]],
        byes: Sequence[tuple[int, ByeKind]],
        who: Identity,
        reason: str,
    ) -> RoundPairings:
        """Replace a round's pairings (start numbers) until a game of it begins."""
        round_ = await self._recorder.run(lambda s: get_round(s, round_id=round_id))
        history = await read_history(self._recorder, self._views, round_.tournament_id)

        def store(session: Session) -> None:
            _set_pairings(session, history, round_id, games, byes)
            audit(
                session,
                who=who,
                action="edit-pairings",
                target=f"round {round_id}",
                reason=reason,
                detail={"games": [list(g) for g in games], "byes": [list(b) for b in byes]},
            )
            session.commit()

        await self._recorder.run(store)
        self._views.forget(round_id)
        return await self.pairings(round_id=round_id)

    async def request_bye(
        self,
        *,
        tournament_id: int,
        number: int,
        start_number: int,
        kind: ByeKind | None,
        who: Identity,
    ) -> Round:
        """A bye for a round not yet paired (the round is created, empty, if need be)."""

        def store(session: Session) -> Round:
            # The player first: a tournament that does not exist has none (and gets no round).
            player = player_numbered(
                session, tournament_id=tournament_id, start_number=start_number
            )
            history_round = round_numbered(session, tournament_id=tournament_id, number=number)
            assert history_round.id is not None
            assert player.id is not None
            set_bye(session, round_id=history_round.id, player_id=player.id, kind=kind)
            audit(
                session,
                who=who,
                action="bye",
                target=f"round {history_round.id}",
                detail={"player": start_number, "kind": kind},
            )
            session.commit()
            return history_round

        round_ = await self._recorder.run(store)
        assert round_.id is not None
        self._views.forget(round_.id)
        return round_

    async def withdraw(
        self, *, tournament_id: int, start_number: int, after_round: int | None, who: Identity
    ) -> None:
        def store(session: Session) -> None:
            player = player_numbered(
                session, tournament_id=tournament_id, start_number=start_number
            )
            assert player.id is not None
            withdraw(session, player_id=player.id, after_round=after_round)
            audit(
                session,
                who=who,
                action="withdraw" if after_round is not None else "reinstate",
                target=f"player {player.id}",
                detail={"start_number": start_number, "after_round": after_round},
            )
            session.commit()

        await self._recorder.run(store)


def _set_pairings(
    session: Session,
    history: TournamentHistory,
    round_id: int,
    games: Sequence[tuple[int, int]],
    byes: Sequence[tuple[int, ByeKind]],
) -> None:
    """Store pairings given by start numbers (not committed)."""
    ids = {p.start_number: p.id for p in history.players}

    def player(start_number: int) -> int:
        player_id = ids.get(start_number)
        if player_id is None:
            raise PairingRefusedError(f"no player with start number {start_number}")
        return player_id

    set_pairings(
        session,
        round_id=round_id,
        games=[(player(white), player(black)) for white, black in games],
        byes=[(player(number), kind) for number, kind in byes],
    )


def _round_robin(
    history: TournamentHistory, system: PairingSystem, number: int
) -> list[tuple[int, int]]:
    """Round ``number`` of the Berger tables; table numbers are the players' start order.

    A player withdrawn before the round keeps their table number, so everyone else's games
    stay where the tables put them; their games are not paired (the standings score them as
    seed 004 ch. 12 says, ``relay.domain.tournament.tie_break_withdrawals``)."""
    order = [p.start_number for p in history.players]
    gone = {
        p.start_number
        for p in history.players
        if p.withdrawn_after is not None and p.withdrawn_after < number
    }
    tables = double_round_robin(len(order)) if system.cycles == 2 else berger_rounds(len(order))
    if number > len(tables):
        raise PairingRefusedError(f"a {system} of {len(order)} players has {len(tables)} rounds")
    games = []
    for white, black in tables[number - 1]:
        if max(white, black) > len(order):
            continue  # the odd player out rests: no game, no point
        pair = (order[white - 1], order[black - 1])
        if gone.isdisjoint(pair):
            games.append(pair)
    return games


def _pairings_of(history: TournamentHistory, number: int) -> RoundPairings:
    round_history = next(r for r in history.rounds if r.number == number)
    assert round_history.round.id is not None
    games = [(g.white, g.black) for g in sorted(round_history.games, key=lambda g: g.board)]
    return RoundPairings(
        round_id=round_history.round.id,
        number=number,
        published=round_history.round.published,
        games=games,
        byes=list(round_history.byes),
        warnings=warnings_for(history, number),
    )
