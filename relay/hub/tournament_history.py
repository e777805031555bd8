"""A tournament as the engine reads it: every round's games with their results, and byes.

Results come from the games' logs (the views the hub keeps current), so a result the arbiter
changed or verified a moment ago is already here; nothing else holds results.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlmodel import Session

from relay.domain.results import Result
from relay.domain.tournament.byes import ByeKind
from relay.hub.game_views import GameViews
from relay.hub.recorder import GameRecorder
from relay.store.models import Bye, Player, Round, Tournament
from relay.store.pairings import tournament_byes
from relay.store.tournaments import get_tournament, list_players, list_rounds


@dataclass(frozen=True, slots=True)
class PlayedGame:
    board: int
    game_id: int
    white: int  # start numbers
    black: int
    result: Result
    verified: bool
    forfeit: bool


@dataclass(frozen=True, slots=True)
class RoundHistory:
    round: Round
    games: list[PlayedGame]
    #: Start number and kind.
    byes: list[tuple[int, ByeKind]]

    @property
    def number(self) -> int:
        return self.round.number

    def unverified(self) -> list[int]:
        """Boards whose result is missing or not yet verified."""
        return [g.board for g in self.games if not g.result.is_decided or not g.verified]


@dataclass(frozen=True, slots=True)
class TournamentHistory:
    tournament: Tournament
    players: list[Player]  # by start number
    rounds: list[RoundHistory]  # by number

    def by_number(self, start_number: int) -> Player:
        for player in self.players:
            if player.start_number == start_number:
                return player
        raise KeyError(start_number)

    def start_numbers(self) -> dict[int, int]:
        """Player id to start number."""
        return {p.id: p.start_number for p in self.players if p.id is not None}


async def read_history(
    recorder: GameRecorder, views: GameViews, tournament_id: int
) -> TournamentHistory:
    def read(
        session: Session,
    ) -> tuple[Tournament, Sequence[Player], Sequence[Round], dict[int, list[Bye]]]:
        tournament = get_tournament(session, tournament_id=tournament_id)
        return (
            tournament,
            list_players(session, tournament_id=tournament_id),
            list_rounds(session, tournament_id=tournament_id),
            tournament_byes(session, tournament_id=tournament_id),
        )

    tournament, players, rounds, byes = await recorder.run(read)
    numbers = {p.id: p.start_number for p in players}
    history = []
    for round_ in sorted(rounds, key=lambda r: r.number):
        assert round_.id is not None
        games = []
        for view in await views.round(round_.id):
            record = view.record(view.version)
            game = view.pairing.game
            games.append(
                PlayedGame(
                    board=game.board,
                    game_id=view.game_id,
                    white=numbers[game.white_id],
                    black=numbers[game.black_id],
                    result=record.result,
                    verified=record.verified,
                    forfeit=record.forfeit,
                )
            )
        round_byes = [(numbers[b.player_id], b.kind) for b in byes.get(round_.id, [])]
        history.append(RoundHistory(round_, games, round_byes))
    ordered = sorted(players, key=lambda p: p.start_number)
    return TournamentHistory(tournament, ordered, history)
