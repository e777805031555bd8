"""An e-board record against the scoresheet: by its move count or by its whole score."""

from __future__ import annotations

import chess
import pytest

from relay.domain.game.score_check import (
    ScoresheetError,
    check_count,
    check_score,
    plies_of,
    scoresheet_moves,
)

RUY = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7"]


def uci(*sans: str) -> list[str]:
    board = chess.Board()
    return [board.push_san(san).uci() for san in sans]


def test_a_spurious_move_at_the_end_is_found_by_the_count_and_removed():
    check = check_count(uci(*RUY, "Re1"), plies_of(5, "black"))
    assert not check.agrees
    (extra,) = check.differences
    assert (extra.kind, extra.ply, extra.recorded) == ("extra", 11, ("Re1",))
    assert "1 ply more than the scoresheet at the end: 6. Re1" in check.words
    assert check.correction is not None
    assert (check.correction.ply, check.correction.san) == (11, ())


def test_a_count_that_matches_cannot_see_a_different_move():
    check = check_count(uci(*RUY), 10)
    assert check.agrees
    assert check.correction is None
    assert "only the whole score can show a different move" in check.words


def test_a_count_beyond_the_record_names_the_missing_plies_without_a_correction():
    check = check_count(uci(*RUY[:8]), plies_of(5, "black"))
    (missing,) = check.differences
    assert (missing.kind, missing.ply) == ("missing", 9)
    assert "plies 9 to 10 (5. to 5...) missing" in missing.words
    assert check.correction is None


def test_a_different_piece_at_a_ply_is_named_and_the_scoresheet_replaces_from_there():
    recorded = uci("e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6")
    check = check_score(recorded, "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0")
    (different,) = check.differences
    assert (different.kind, different.ply) == ("different", 5)
    assert (different.recorded, different.scoresheet) == (("Bc4",), ("Bb5",))
    assert "3. Bc4 in the record" in different.words
    assert "another move of the same piece" in different.words
    assert check.correction is not None
    assert (check.correction.ply, check.correction.san) == (5, ("Bb5", "a6"))


def test_another_piece_to_the_same_square_is_called_another_piece():
    recorded = uci("d4", "d5", "Nd2")
    check = check_score(recorded, "1. d4 d5 2. Bd2")
    (different,) = check.differences
    assert different.words.endswith("another piece")
    assert "the knight from b1 to d2" in different.words


def test_moves_missing_in_the_middle_are_named_as_missing():
    recorded = uci("e4", "e5", "Bc4", "Nc6")
    check = check_score(recorded, "1.e4 e5 2.Nf3 Nf6 3.Bc4 Nc6")
    (missing,) = check.differences
    assert (missing.kind, missing.ply, missing.scoresheet) == ("missing", 3, ("Nf3", "Nf6"))
    assert check.correction is not None
    assert check.correction.san == ("Nf3", "Nf6", "Bc4", "Nc6")


def test_moves_missing_at_the_end_are_added_from_the_score():
    check = check_score(uci("e4", "e5"), "1. e4 e5 2. Nf3")
    (missing,) = check.differences
    assert missing.kind == "missing"
    assert check.correction is not None
    assert (check.correction.ply, check.correction.san) == (3, ("Nf3",))


def test_extra_moves_at_the_end_against_the_whole_score():
    check = check_score(uci(*RUY, "Re1", "b5"), " ".join(RUY))
    (extra,) = check.differences
    assert (extra.kind, extra.ply, extra.recorded) == ("extra", 11, ("Re1", "b5"))
    assert check.correction is not None
    assert check.correction.san == ()


def test_identical_scores_agree():
    check = check_score(uci(*RUY), "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. 0-0 Be7+ *")
    assert check.agrees
    assert check.correction is None
    assert check.words == "the record and the scoresheet agree, 10 plies"


def test_a_scoresheet_entry_that_is_no_legal_move_is_named_with_the_moves_that_fit():
    check = check_score(uci("e4", "e5"), "1. e4 e5 2. Nf6")
    (unreadable,) = check.differences
    assert (unreadable.kind, unreadable.ply) == ("unreadable", 3)
    assert "2. Nf6 is not a legal move there" in unreadable.words
    assert "Nf3" in unreadable.words
    assert check.correction is None


def test_scoresheet_text_loses_numbers_comments_results_and_draw_marks():
    assert scoresheet_moves("1.e4 {time} e5 (=) 2. Nf3 1/2-1/2") == ["e4", "e5", "Nf3"]
    with pytest.raises(ScoresheetError):
        scoresheet_moves("1. *")


def test_a_move_count_in_plies():
    assert plies_of(41, "white") == 81
    assert plies_of(41, "black") == 82
    assert plies_of(0) == 0
    with pytest.raises(ScoresheetError):
        plies_of(3, "red")
