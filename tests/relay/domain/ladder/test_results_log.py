"""The result that counts, from a club game's log and the board game it was played as."""

from __future__ import annotations

from relay.domain.ladder.results_log import current_result
from relay.domain.results import Result

WHITE, BLACK, DRAW, OPEN = Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW, Result.ONGOING


def test_the_last_entry_counts_and_a_deletion_is_final():
    assert current_result([]) is None
    assert current_result([(1.0, WHITE), (2.0, DRAW)]) is DRAW
    assert current_result([(1.0, WHITE), (2.0, None)]) is None
    assert current_result([(1.0, WHITE), (2.0, None)], (3.0, BLACK)) is None


def test_the_board_counts_when_it_came_later_than_the_last_entry():
    assert current_result([], (5.0, BLACK)) is BLACK
    assert current_result([], (5.0, OPEN)) is None
    assert current_result([(4.0, WHITE)], (5.0, BLACK)) is BLACK  # corrected on the board
    assert current_result([(6.0, WHITE)], (5.0, BLACK)) is WHITE  # an officer's later entry
    assert current_result([(6.0, WHITE)], (7.0, OPEN)) is WHITE  # a reopened game: no result
