"""A knock-out replayed from its stored rounds: game rounds, tie-breaks, byes, withdrawals,
the end; each round paired from an in-memory tournament as the desk would read it."""

from __future__ import annotations

import pytest

from relay.domain.results import Result
from relay.domain.tournament.byes import ByeKind
from relay.domain.tournament.knockout import Stage, first_round, next_round
from relay.domain.tournament.pairing_systems import PairingSystem
from relay.hub.knockout_round import KnockoutRoundError, pair_knockout_round
from relay.hub.tournament_history import PlayedGame, RoundHistory, TournamentHistory
from relay.store.models import Player, Round, Tournament

Games = list[tuple[int, int]]
Byes = list[tuple[int, ByeKind]]


class Event:
    """A knock-out whose rounds are paired here and played with the results given."""

    def __init__(self, start_numbers, stages=None) -> None:
        self.players = [
            Player(id=n, tournament_id=1, start_number=n, name=f"Player {n}") for n in start_numbers
        ]
        self.rounds: list[RoundHistory] = []
        self.stages = stages

    def history(self) -> TournamentHistory:
        tournament = Tournament(id=1, name="Cup", pairing_system=PairingSystem.KNOCKOUT)
        return TournamentHistory(tournament, self.players, self.rounds)

    def pair(self) -> tuple[Games, Byes]:
        number = len(self.rounds) + 1
        if self.stages is None:
            return pair_knockout_round(self.history(), number)
        return pair_knockout_round(self.history(), number, self.stages)

    def store(self, games: Games, byes: Byes, results: list[str], forfeit=False) -> None:
        number = len(self.rounds) + 1
        played = [
            PlayedGame(board, 100 * number + board, white, black, Result(result), True, forfeit)
            for board, ((white, black), result) in enumerate(zip(games, results, strict=True), 1)
        ]
        self.rounds.append(
            RoundHistory(Round(id=number, tournament_id=1, number=number), played, byes)
        )

    def play(self, *results: str) -> tuple[Games, Byes]:
        """Pair the next round, store it with these results, and return the pairing."""
        games, byes = self.pair()
        self.store(games, byes, list(results))
        return games, byes

    def withdraw(self, start_number: int, after_round: int) -> None:
        next(
            p for p in self.players if p.start_number == start_number
        ).withdrawn_after = after_round


def test_round_one_is_the_bracket_by_seed():
    games, byes = Event(range(1, 9)).pair()
    assert games == [(p.top, p.bottom) for p in first_round(8)]
    assert games == [(1, 8), (4, 5), (2, 7), (3, 6)]
    assert byes == []


def test_seeds_follow_start_numbers_even_with_gaps():
    games, _ = Event([3, 5, 7, 9]).pair()
    assert games == [(3, 9), (5, 7)]


def test_a_level_match_plays_its_tie_breaks_alone_then_the_next_stage_begins():
    event = Event(range(1, 9))
    event.play("1-0", "1/2-1/2", "1-0", "0-1")
    # Game 2: colours reversed in every match.
    games, byes = event.play("0-1", "1/2-1/2", "1/2-1/2", "1/2-1/2")
    assert games == [(8, 1), (5, 4), (7, 2), (6, 3)]
    assert byes == []
    # 1, 2 and 6 are through; 4 v 5 stands 1-1 and goes to the rapid games alone.
    games, byes = event.play("1/2-1/2")
    assert (games, byes) == ([(4, 5)], [])
    games, _ = event.play("1/2-1/2")
    assert games == [(5, 4)]
    games, _ = event.play("0-1")  # level again: 10+10, and 5 wins its first game with Black
    assert games == [(4, 5)]
    games, _ = event.play("1/2-1/2")
    assert games == [(5, 4)]
    games, byes = event.pair()
    assert games == [(p.top, p.bottom) for p in next_round([1, 5, 2, 6])]
    assert games == [(1, 5), (2, 6)]
    assert byes == []


def test_the_world_cup_match_runs_to_armageddon_where_a_draw_is_blacks():
    event = Event([1, 2])
    colours = []
    for _ in range(8):  # classical, two rapid stages, blitz: all drawn
        games, _ = event.play("1/2-1/2")
        colours += games
    assert colours == [(1, 2), (2, 1)] * 4
    games, _ = event.play("1/2-1/2")
    assert games == [(1, 2)]  # the Armageddon: colours keep alternating
    with pytest.raises(KnockoutRoundError, match="the knock-out is over: start number 2 won"):
        event.pair()


def test_six_players_give_the_top_seeds_full_point_byes():
    event = Event(range(1, 7))
    games, byes = event.play("1-0", "0-1")
    assert games == [(4, 5), (3, 6)]
    assert byes == [(1, "full"), (2, "full")]
    # The byes last the whole stage: round 2 is game 2 of the two matches only.
    games, byes = event.play("0-1", "1/2-1/2")
    assert (games, byes) == ([(5, 4), (6, 3)], [])
    games, byes = event.pair()
    assert games == [(1, 4), (2, 6)]
    assert byes == []


def test_a_withdrawal_sends_the_opponent_through():
    event = Event(range(1, 5))
    event.play("1/2-1/2", "1-0")
    event.withdraw(4, after_round=1)
    games, byes = event.play("0-1")
    assert (games, byes) == ([(3, 2)], [])  # 1 goes through; 1 v 4 is not played
    games, _ = event.pair()
    assert games == [(1, 2)]


def test_a_walkover_before_a_stage_is_a_full_point_bye():
    event = Event(range(1, 5))
    event.play("1-0", "1-0")
    event.play("0-1", "0-1")
    event.withdraw(2, after_round=2)
    with pytest.raises(KnockoutRoundError, match="over: start number 1 won"):
        event.pair()
    event = Event(range(1, 9))
    event.play("1-0", "1-0", "1-0", "1-0")
    event.play("0-1", "0-1", "0-1", "0-1")
    event.withdraw(4, after_round=2)
    games, byes = event.pair()
    assert (games, byes) == ([(2, 3)], [(1, "full")])


def test_results_are_read_by_player_and_a_forfeit_is_a_win():
    event = Event([1, 2])
    event.store([(2, 1)], [], ["1-0"])  # the arbiter swapped game 1's colours: 2 won
    games, _ = event.pair()
    assert games == [(2, 1)]  # game 2 by the schedule
    event.store(games, [], ["1-0"], forfeit=True)
    with pytest.raises(KnockoutRoundError, match="start number 2 won"):
        event.pair()


def test_a_match_level_after_its_last_stage_is_refused_until_the_arbiter_decides():
    event = Event(range(1, 5), stages=(Stage("classical", 2),))
    event.play("1-0", "1/2-1/2")
    event.play("0-1", "1/2-1/2")
    with pytest.raises(KnockoutRoundError) as refused:
        event.pair()
    message = str(refused.value)
    assert "start numbers 2 and 3: the match is level after its last stage (classical)" in message
    assert "withdraw the loser after round 2" in message
    event.withdraw(3, after_round=2)  # 2 won the lot
    assert event.pair() == ([(1, 2)], [])


def test_an_open_game_and_a_field_of_one_are_refused():
    event = Event([1, 2])
    event.play("*")
    with pytest.raises(KnockoutRoundError, match="round 1, board 1 has no result"):
        event.pair()
    with pytest.raises(KnockoutRoundError, match="two players or more"):
        Event([1]).pair()
