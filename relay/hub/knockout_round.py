"""A stored knock-out event replayed through the bracket, and its next round paired.

The model (pairing system ``knockout``):

* the seeds are the players in start-number order: the lowest start number is seed 1; the
  bracket is :func:`~relay.domain.tournament.knockout.first_round` of the whole field, and a
  bracket place without an opponent is a bye: the seed goes through;
* every stored round is one *game round*: one game of every match still being played. A
  bracket stage (the first round of the bracket, the quarter-finals, ...) begins with a
  round holding game 1 of each of its matches, the better seed White; a seed who goes
  through without playing (a bracket bye, or an opponent who withdrew before the stage)
  gets a full-point bye in that round;
* the rounds after that hold the next game (:attr:`Match.next_game`, its colours) of each
  match still PLAYING, the tie-break stages included (by default the World Cup's: two
  classical games, two rapid, two more rapid, two blitz, Armageddon); decided matches do
  not play. Once every match of the bracket stage is decided, the next round is game 1 of
  each match of :func:`~relay.domain.tournament.knockout.next_round` of the winners, in
  bracket order;
* a match's results are the games between its two players in the rounds since its bracket
  stage began, in round and board order, read by player rather than by colour: an arbiter
  who swapped the colours of a game (the Armageddon lot, say) does not change who scored.
  A forfeit counts as the win it records. Games between the two once the match is decided
  are ignored;
* a player withdrawn before a round (``withdrawn_after`` below its number) loses the match
  still being played (seed 004 ch. 12, rule 2, :meth:`Match.withdraw`);
* a match still level after its last stage cannot be paired on (it cannot happen with an
  Armageddon stage): the round is refused, and the arbiter decides as the regulations say
  (by lot, say) and records it by withdrawing the loser after the last round played;
* when one player is left the knock-out is over, and pairing more is refused.

Nothing is stored here: the bracket is read again from the rounds every time, so a result
corrected by the arbiter moves the bracket with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from relay.domain.errors import RefusedError
from relay.domain.tournament.byes import ByeKind
from relay.domain.tournament.knockout import (
    WORLD_CUP,
    KnockoutError,
    Match,
    MatchState,
    Pairing,
    Stage,
    first_round,
    next_round,
)
from relay.hub.tournament_history import PlayedGame, TournamentHistory


class KnockoutRoundError(ValueError, RefusedError):
    """The next round of a knock-out cannot be paired; the message says why."""


@dataclass(frozen=True, slots=True)
class _Stage:
    """A bracket stage replayed up to a round: its matches (a bye: None) and their
    winners so far, in bracket order."""

    pairings: list[Pairing]  # start numbers
    matches: list[Match | None]

    def winners(self) -> list[int | None]:
        return [
            p.top if m is None else m.winner
            for p, m in zip(self.pairings, self.matches, strict=True)
        ]

    def decided(self) -> bool:
        return all(m is None or m.state is MatchState.DECIDED for m in self.matches)


def pair_knockout_round(
    history: TournamentHistory, number: int, stages: tuple[Stage, ...] = WORLD_CUP
) -> tuple[list[tuple[int, int]], list[tuple[int, ByeKind]]]:
    """Round ``number`` of the knock-out: games (White, Black) in bracket order, and the
    full-point byes of those who go through without playing."""
    order = [p.start_number for p in history.players]
    try:
        seeded = first_round(len(order))
    except KnockoutError as error:
        raise KnockoutRoundError(str(error)) from None
    # Start numbers rise with the seeds, so next_round's "better seed first" holds for them.
    pairings = [
        Pairing(order[p.top - 1], None if p.bottom is None else order[p.bottom - 1]) for p in seeded
    ]
    begun = 1
    while True:
        stage, ends = _replay_stage(history, pairings, begun, number, stages)
        if ends is None:
            break
        winners = [w for w in stage.winners() if w is not None]
        if len(winners) == 1:
            raise KnockoutRoundError(f"the knock-out is over: start number {winners[0]} won")
        pairings, begun = next_round(winners), ends
    level = [m for m in stage.matches if m is not None and m.state is MatchState.LEVEL]
    if level:
        match, *_ = level
        raise KnockoutRoundError(
            f"start numbers {match.first} and {match.second}: the match is level after its"
            f" last stage ({stages[-1].name}); decide it as the regulations say (by lot) and"
            f" withdraw the loser after round {number - 1}"
        )
    scheduled = [m.next_game for m in stage.matches if m is not None]
    games = [(game.white, game.black) for game in scheduled if game is not None]
    byes: list[tuple[int, ByeKind]] = []
    if begun == number:
        # Nothing is played yet in the stage: whoever has won is through without a game.
        byes = [(winner, ByeKind.FULL_POINT) for winner in stage.winners() if winner is not None]
    return games, byes


def _replay_stage(
    history: TournamentHistory,
    pairings: Sequence[Pairing],
    begun: int,
    number: int,
    stages: tuple[Stage, ...],
) -> tuple[_Stage, int | None]:
    """The bracket stage begun in round ``begun`` as it stands before round ``number``, and
    the round in which the next stage begins (None: not before ``number``)."""
    for before in range(begun, number + 1):
        stage = _Stage(
            list(pairings), [_match(history, p, begun, before, stages) for p in pairings]
        )
        if stage.decided():
            return stage, before
    return stage, None


def _match(
    history: TournamentHistory,
    pairing: Pairing,
    begun: int,
    before: int,
    stages: tuple[Stage, ...],
) -> Match | None:
    """The match of ``pairing`` from the games of rounds ``begun`` to ``before - 1``, with
    the withdrawals made before round ``before``."""
    if pairing.bottom is None:
        return None
    match = Match(pairing.top, pairing.bottom, stages=stages)
    players = {pairing.top, pairing.bottom}
    for round_history in history.rounds:
        if not begun <= round_history.number < before:
            continue
        for game in sorted(round_history.games, key=lambda g: g.board):
            if {game.white, game.black} != players or match.state is not MatchState.PLAYING:
                continue
            match = match.record(_points_of(match, game, round_history.number))
    if match.state is not MatchState.DECIDED:
        for player in (match.first, match.second):
            after = history.by_number(player).withdrawn_after
            if after is not None and after < before:
                # A level match is settled the same way: the arbiter withdraws the loser of
                # the lot, which Match.withdraw (for a match being played) would refuse.
                if match.state is MatchState.PLAYING:
                    return match.withdraw(player)
                return replace(match, withdrawn=player)
    return match


def _points_of(match: Match, game: PlayedGame, number: int) -> float:
    """White's points of the match's next game from the stored game, whoever had White."""
    scheduled = match.next_game
    assert scheduled is not None  # the match is being played
    result = game.result
    points = result.white_points if game.white == scheduled.white else result.black_points
    if points is None:
        raise KnockoutRoundError(f"round {number}, board {game.board} has no result")
    return points
