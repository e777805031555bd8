"""Notes keyed from a scoresheet in the game's PGN: a comment after the ply they follow, one
before the first move, several at one ply joined, and one after moves since taken back kept
with the last move; what pgn-extract and python-chess read back."""

from __future__ import annotations

import re

import pytest

from relay.domain.formats.pgn import GameHeaders, PgnMove, PlayerTags, render_game
from relay.domain.game.events import NoteAdded, TakenBack
from relay.hub.game_views import keyed_notes, opening_note, pgn_moves
from tests.pgn_check import pgn_extract_problems, read_all
from tests.records import record_of

HEADERS = GameHeaders(
    event="Lille Open",
    site="Lille FRA",
    date="2026.11.26",
    round=1,
    board=2,
    white=PlayerTags("Blazquez, Denis"),
    black=PlayerTags("Soubirou, Oriane"),
)


def note(ply: int, text: str) -> NoteAdded:
    return NoteAdded(ply=ply, text=text, by="Desk Ann", at=2.0)


@pytest.mark.processes
def test_notes_become_comments_where_they_belong():
    record = record_of("e4", "e5", "Nf3", "Nc6")
    for event in (note(0, "score from the carbon copy"), note(3, "(=)"), note(3, "time")):
        record.apply(event)
    text = render_game(HEADERS, pgn_moves(record), before=opening_note(record))
    # The hub's own count of the time each move took stays beside the notes.
    words = re.sub(r" \[%emt [0-9:]+\]", "", " ".join(text.split())).replace(" { }", "")
    assert words.endswith("{ score from the carbon copy } 1. e4 e5 2. Nf3 { (=); time } 2... Nc6 *")
    assert pgn_extract_problems(text) == ""
    (game,) = read_all(text)
    assert game.comment == "score from the carbon copy"
    comments = [" ".join(node.comment.split()) for node in game.mainline()]
    assert comments[2].startswith("(=); time [%emt")
    assert not any("(=)" in comment for comment in comments[:2] + comments[3:])


def test_a_note_after_moves_taken_back_stays_with_the_last_move():
    record = record_of("d4", "d5", "c4", "e6")
    record.apply(note(4, "rest of score indecipherable"))
    record.apply(TakenBack(ply=2, fen=record_of("d4", "d5").board.fen(), at=3.0))
    assert keyed_notes(record) == {2: "rest of score indecipherable"}
    assert opening_note(record) is None


@pytest.mark.processes
def test_a_comment_before_the_moves_is_cleaned_and_none_is_left_out():
    moves = [PgnMove("e4")]
    assert render_game(HEADERS, moves, before="  ").endswith("\n1. e4 *")
    text = render_game(HEADERS, moves, before="{braces} and [%clk 1:00:00]")
    assert text.endswith("{ (braces) and ( percentclk 1:00:00) } 1. e4 *")
    assert pgn_extract_problems(text) == ""
