"""Our own check of a Swiss round against the absolute criteria of the FIDE Dutch system.

The pairing engine is someone else's program; before a round is published we check what it
gave us against the rules that may never be broken (C.04.3 C.1-C.3, from C.04.1 b, d, f, g):

* two players meet at most once. Only games played over the board count: a forfeited
  pairing may be repeated, as the FIDE rules and the usual engines treat it;
* the pairing-allocated bye goes to nobody who already had it, nor to anyone who already
  scored a win's points in a round without playing (a forfeit win or a full-point bye);
* nobody's colour difference (Whites minus Blacks, played games) goes beyond +2 or -2;
* nobody gets the same colour three times running (played games, unplayed rounds skipped).

The colour rules have one exception: when the last round is paired, a game involving a
topscorer (more than half the maximum possible score so far, C.04.3 A.7) may break them,
for both of its players. The round is assumed to be played as paired. Violations are
returned as values, so an arbiter sees all of them at once.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from relay.domain.formats.trf import RESULT_HALF_POINTS
from relay.domain.tournament.byes import ByeKind
from relay.domain.tournament.swiss import SwissRound, SwissState


class Rule(enum.Enum):
    """What a violation breaks."""

    MALFORMED = "a player is unknown, paired with himself, or has two entries in the round"
    REMATCH = "C.1: two players shall not play each other more than once"
    BYE = "C.2: no second pairing-allocated bye, none after an unplayed win"
    COLOUR_DIFFERENCE = "C.3: the colour difference must stay within -2..+2"
    COLOUR_REPEAT = "C.3: no player gets the same colour three times in a row"


@dataclass(frozen=True)
class Violation:
    rule: Rule
    round: int
    players: tuple[int, ...]
    detail: str

    def __str__(self) -> str:
        return f"round {self.round}: {self.detail} ({self.rule.value})"


@dataclass
class _History:
    opponents: set[int]
    colours: list[str]
    win_without_playing: list[str]
    points: float


def _histories(state: SwissState) -> dict[int, _History]:
    table = {p.start_number: _History(set(), [], [], 0.0) for p in state.players}
    for number, swiss_round in enumerate(state.rounds, start=1):
        for board in swiss_round.boards:
            if board.result is None:
                continue
            white, black = table[board.white], table[board.black]
            white.points += RESULT_HALF_POINTS[board.result.white_code] / 2
            black.points += RESULT_HALF_POINTS[board.result.black_code] / 2
            if not board.result.is_forfeit:
                white.opponents.add(board.black)
                black.opponents.add(board.white)
                white.colours.append("w")
                black.colours.append("b")
            if board.result.white_code == "+":
                white.win_without_playing.append(f"a forfeit win in round {number}")
            if board.result.black_code == "+":
                black.win_without_playing.append(f"a forfeit win in round {number}")
        for player, bye in swiss_round.byes.items():
            table[player].points += bye.unplayed.points
            if bye in (ByeKind.PAIRING_ALLOCATED, ByeKind.FULL_POINT):
                what = (
                    "the pairing-allocated" if bye is ByeKind.PAIRING_ALLOCATED else "a full-point"
                )
                table[player].win_without_playing.append(f"{what} bye in round {number}")
    return table


def check_round(
    state: SwissState, pairs: Sequence[tuple[int, int]], allocated_bye: int | None
) -> list[Violation]:
    """Violations of the absolute criteria by pairing round ``state.next_round`` this way.

    ``pairs`` are (White, Black) start numbers; players with a requested bye in
    ``state.requested_byes`` must not be in them.
    """
    number = state.next_round
    history = _histories(state)
    violations: list[Violation] = []

    def report(rule: Rule, players: tuple[int, ...], detail: str) -> None:
        violations.append(Violation(rule, number, players, detail))

    seen: set[int] = set(state.requested_byes)
    entrants = [n for pair in pairs for n in pair]
    if allocated_bye is not None:
        entrants.append(allocated_bye)
    for player in entrants:
        if player not in history:
            report(Rule.MALFORMED, (player,), f"player {player} is not in the tournament")
        elif player in seen:
            report(Rule.MALFORMED, (player,), f"player {player} has two entries")
        seen.add(player)

    last_round = number == state.total_rounds
    half_of_maximum = (number - 1) / 2

    def topscorer(player: int) -> bool:
        return last_round and history[player].points > half_of_maximum

    for white, black in pairs:
        if white not in history or black not in history:
            continue
        if white == black:
            report(Rule.MALFORMED, (white,), f"player {white} is paired with himself")
            continue
        if black in history[white].opponents:
            report(Rule.REMATCH, (white, black), f"{white} and {black} have already played")
        if topscorer(white) or topscorer(black):
            continue
        for player, colour in ((white, "w"), (black, "b")):
            violations.extend(_colour_violations(number, player, history[player].colours, colour))

    if allocated_bye is not None and allocated_bye in history:
        earlier = history[allocated_bye].win_without_playing
        if earlier:
            report(
                Rule.BYE,
                (allocated_bye,),
                f"player {allocated_bye} gets the pairing-allocated bye after {earlier[0]}",
            )
    return violations


def _colour_violations(number: int, player: int, before: list[str], colour: str) -> list[Violation]:
    after = [*before, colour]
    found = []
    difference = after.count("w") - after.count("b")
    if abs(difference) > 2 and abs(difference) > abs(before.count("w") - before.count("b")):
        found.append(
            Violation(
                Rule.COLOUR_DIFFERENCE,
                number,
                (player,),
                f"player {player} gets {colour}, colour difference {difference:+d}",
            )
        )
    if len(after) >= 3 and len(set(after[-3:])) == 1:
        found.append(
            Violation(
                Rule.COLOUR_REPEAT,
                number,
                (player,),
                f"player {player} gets {colour} for the third game in a row",
            )
        )
    return found


def check_tournament(state: SwissState) -> list[Violation]:
    """Every finished round checked against the rounds before it."""
    violations: list[Violation] = []
    before = SwissState(state.name, state.players, state.total_rounds, state.first_colour)
    for number, swiss_round in enumerate(state.rounds, start=1):
        pairs, allocated, requested = _split(swiss_round)
        for extra in allocated[1:]:
            detail = f"player {extra} gets a second pairing-allocated bye in the round"
            violations.append(Violation(Rule.MALFORMED, number, (extra,), detail))
        first = allocated[0] if allocated else None
        violations += check_round(before.with_requested_byes(requested), pairs, first)
        before = before.with_requested_byes(requested).record_round(swiss_round)
    return violations


def _split(
    swiss_round: SwissRound,
) -> tuple[list[tuple[int, int]], list[int], dict[int, ByeKind]]:
    pairs = [(b.white, b.black) for b in swiss_round.boards]
    allocated = [p for p, bye in swiss_round.byes.items() if bye is ByeKind.PAIRING_ALLOCATED]
    requested = {p: bye for p, bye in swiss_round.byes.items() if bye.requestable}
    return pairs, allocated, requested
