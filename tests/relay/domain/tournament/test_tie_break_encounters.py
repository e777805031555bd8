"""Direct encounter, FIDE C.07 article 6 (2024 and 2026 editions alike), on small groups
worked out by hand. DE is given as the number of tied players DE ranks below the player.

The articles, as the comments use them:
* 6.1: the encounters among the tied participants make a separate table; 6.1.1: in a
  Swiss, forfeits are not among them; 6.1.2: participants who met more than once count
  the average of their results.
* 6.2: if all the tied participants met each other, the table ranks them; those still
  tied form a subgroup to which the rule is applied again.
* 6.3: if not all met, a participant is ranked first when their score is higher than what
  any other could reach with every missing encounter won; then the next, and so on; those
  left form a new group.
"""

from __future__ import annotations

from collections.abc import Iterable

from relay.domain.tournament.tie_break_encounters import direct_encounter
from relay.domain.tournament.tie_breaks import Edition, Played, Unplayed, UnplayedKind, standings


def encounters_of(results: Iterable[tuple[str, str, float]]):
    """(white, black, White's points) -> each player's (opponent, points taken)."""
    table: dict[str, list[tuple[str, float]]] = {}
    for white, black, points in results:
        table.setdefault(white, []).append((black, points))
        table.setdefault(black, []).append((white, 1.0 - points))
    return lambda player: table.get(player, [])


def test_6_2_all_met_and_the_table_decides():
    # A beat B and C; B beat C. Table: A 2, B 1, C 0.
    met = encounters_of([("A", "B", 1.0), ("A", "C", 1.0), ("B", "C", 1.0)])
    assert direct_encounter(["A", "B", "C"], met) == {"A": 2, "B": 1, "C": 0}


def test_6_2_a_level_subgroup_is_ranked_again_among_itself():
    # A beat B and D, lost to C; B beat C and drew D; C drew D.
    # Table: A 1 + 0 + 1 = 2, B 0 + 1 + 1/2 = 1.5, C 1 + 0 + 1/2 = 1.5, D 0 + 1/2 + 1/2 = 1.
    # A first, D last; B and C level, a subgroup: between them B beat C, so B before C.
    met = encounters_of(
        [
            ("A", "B", 1.0),
            ("C", "A", 1.0),
            ("A", "D", 1.0),
            ("B", "C", 1.0),
            ("B", "D", 0.5),
            ("C", "D", 0.5),
        ]
    )
    assert direct_encounter(["A", "B", "C", "D"], met) == {"A": 3, "B": 2, "C": 1, "D": 0}


def test_6_2_a_circle_separates_nobody():
    # A beat B, B beat C, C beat A: 1 each, and the subgroup is the whole group.
    met = encounters_of([("A", "B", 1.0), ("B", "C", 1.0), ("C", "A", 1.0)])
    assert direct_encounter(["A", "B", "C"], met) == {"A": 0, "B": 0, "C": 0}


def test_6_1_2_repeated_encounters_count_their_average():
    # A and B met twice (A won both), A lost to C, B beat C.
    # Averages: A 1 (from B) + 0 = 1, B 0 + 1 = 1, C 1 + 0 = 1: all level, nobody first.
    # (Summing instead would give A 2 and put A first.)
    met = encounters_of([("A", "B", 1.0), ("B", "A", 0.0), ("C", "A", 1.0), ("B", "C", 1.0)])
    assert direct_encounter(["A", "B", "C"], met) == {"A": 0, "B": 0, "C": 0}


def test_6_3_first_only_when_nobody_could_catch_up_and_the_rest_start_again():
    # A beat B and C and never met D; B drew C and beat D; C drew D.
    # Table (and best reachable with missed encounters won): A 2 (3), B 1.5 (1.5),
    # C 1 (1), D 0.5 (1.5, had D beaten A). A's 2 is higher than everyone else's best: A
    # first. Next, B's 1.5 is not higher than D's best 1.5: the three left form a new group.
    # They all met each other (6.2): B 1.5, C 1, D 0.5.
    met = encounters_of(
        [("A", "B", 1.0), ("A", "C", 1.0), ("B", "C", 0.5), ("B", "D", 1.0), ("C", "D", 0.5)]
    )
    assert direct_encounter(["A", "B", "C", "D"], met) == {"A": 3, "B": 2, "C": 1, "D": 0}


def test_6_3_nobody_sure_to_be_first_leaves_the_tie():
    # A beat B; C and D met nobody of the group. A 1 (best 3), B 0 (2), C 0 (3), D 0 (3).
    met = encounters_of([("A", "B", 1.0)])
    assert direct_encounter(["A", "B", "C", "D"], met) == {"A": 0, "B": 0, "C": 0, "D": 0}


def test_6_3_the_rule_starts_from_the_top():
    # Five tied, A and E never met: A beat B, C, D (3, best 4); E beat B, C, D (3, best 4);
    # neither can be sure of first. Among B, C, D: B beat C and D, C beat D.
    # Nobody is first in the whole group, so DE separates nobody, B's wins over C and D
    # included.
    met = encounters_of(
        [
            ("A", "B", 1.0),
            ("A", "C", 1.0),
            ("A", "D", 1.0),
            ("E", "B", 1.0),
            ("E", "C", 1.0),
            ("E", "D", 1.0),
            ("B", "C", 1.0),
            ("B", "D", 1.0),
            ("C", "D", 1.0),
        ]
    )
    assert direct_encounter(list("ABCDE"), met) == dict.fromkeys("ABCDE", 0)


def test_6_3_then_6_2_in_the_group_left():
    # Five tied, A and E never met. A beat B, C, D: 3 (best 4). B lost to A, beat C and D,
    # lost to E: 2 (best 2). C lost to A and B, drew D, beat E: 1.5. D the same: 1.5.
    # E beat B, lost to C and D: 1 (best 2, had E beaten A).
    # A's 3 is above every other best (2): A first. B's 2 is not above E's best 2: B, C, D
    # and E form a new group, and all of them met (6.2): B 2, C 1.5, D 1.5, E 1. C and D,
    # still level, drew each other: level for good.
    met = encounters_of(
        [
            ("A", "B", 1.0),
            ("A", "C", 1.0),
            ("A", "D", 1.0),
            ("B", "C", 1.0),
            ("B", "D", 1.0),
            ("E", "B", 1.0),
            ("C", "D", 0.5),
            ("C", "E", 1.0),
            ("D", "E", 1.0),
        ]
    )
    assert direct_encounter(list("ABCDE"), met) == {"A": 4, "B": 3, "C": 1, "D": 1, "E": 0}


def test_a_single_player_has_no_one_below():
    assert direct_encounter(["A"], encounters_of([])) == {"A": 0}


# --- Through the standings: 6.1.1, forfeits ------------------------------------------------


def test_6_1_1_a_forfeit_is_no_encounter_in_a_swiss_but_is_one_in_a_round_robin():
    # A and B finish on 1: A won against B by forfeit in r1, B beat C in r2. C was absent
    # in r1 and A in r2 (zero-point byes): C 0.
    games = [Played("B", "C", 1.0, 2)]
    unplayed = [
        Unplayed("A", 1, UnplayedKind.FORFEIT_WIN, "B"),
        Unplayed("B", 1, UnplayedKind.FORFEIT_LOSS, "A"),
        Unplayed("C", 1, UnplayedKind.ZERO_BYE),
        Unplayed("A", 2, UnplayedKind.ZERO_BYE),
    ]

    def de(round_robin: bool) -> dict[str, float]:
        rows = standings(
            ["A", "B", "C"],
            games,
            order=("DE",),
            unplayed=unplayed,
            round_robin=round_robin,
            edition=Edition.FIDE_2026,
        )
        return {r.player: r.tie_breaks["DE"] for r in rows}

    # Swiss: A and B have no encounter that counts; each could reach 1 (6.3): no one first.
    assert de(round_robin=False) == {"A": 0, "B": 0, "C": 0}
    # Round robin (15.2): the forfeit is a game, A 1 - B 0.
    assert de(round_robin=True) == {"A": 1, "B": 0, "C": 0}
