"""The arbiter's score check and an illegal position's repairs through the API; the amended
mark a correction leaves in the summary and the PGN."""

from __future__ import annotations

import re

import chess
import chess.pgn
import pytest

from relay.domain.game.events import ArbiterAlert
from tests.pgn_check import pgn_extract_problems, read_all
from tests.relay.api.helpers import hub_of, play, setup_round, token

RUY = ("e4", "e5", "Nf3", "Nc6", "Bb5", "a6")


def test_only_an_arbiter_checks_a_score_and_reads_repairs(client):
    _, game_id = setup_round(client)
    body = {"moves": 3}
    check = f"/api/games/{game_id}/score-check"
    repairs = f"/api/games/{game_id}/repairs"
    assert client.post(check, json=body).status_code == 401
    assert client.get(repairs).status_code == 401
    for role in ("keyer", "operator"):
        refused = client.post(check, json=body, headers=token(client, role))
        assert refused.status_code == 403, role
        assert "this needs arbiter" in refused.json()["detail"]
        assert client.get(repairs, headers=token(client, role)).status_code == 403
    assert client.post(check, json=body, headers=token(client, "arbiter")).status_code == 200
    assert client.get(repairs, headers=token(client, "admin")).status_code == 200


@pytest.mark.processes
def test_a_spurious_end_move_is_found_by_the_count_and_the_correction_marks_the_game(client):
    round_id, game_id = setup_round(client)
    play(client, round_id, game_id, *RUY, "Ba4")
    arbiter = token(client, "arbiter", user="Jane Doe")
    found = client.post(
        f"/api/games/{game_id}/score-check", json={"moves": 3, "last": "black"}, headers=arbiter
    ).json()
    assert (found["recorded_plies"], found["scoresheet_plies"], found["agrees"]) == (7, 6, False)
    (extra,) = found["differences"]
    assert (extra["kind"], extra["ply"], extra["recorded"]) == ("extra", 7, ["Ba4"])
    assert found["correction"]["ply"] == 7
    assert found["correction"]["san"] == []
    summary = client.get(f"/api/rounds/{round_id}/games").json()[0]
    assert summary["amended"] == []

    corrected = client.post(
        f"/api/games/{game_id}/moves",
        json={**found["correction"], "reason": "scoresheet: 3 moves"},
        headers=arbiter,
    )
    assert corrected.status_code == 200
    assert corrected.json()["ply"] == 6
    summary = client.get(f"/api/rounds/{round_id}/games").json()[0]
    assert summary["amended"] == [
        {"ply": 7, "removed": 1, "added": 0, "by": "Jane Doe", "reason": "scoresheet: 3 moves"}
    ]
    assert client.get(f"/api/games/{game_id}").json()["amended"][0]["ply"] == 7
    text = client.get(f"/api/games/{game_id}.pgn").text
    assert '[Amended "ply 7"]' in text
    movetext = re.sub(r"\{[^}]*\}", "", text.split("\n\n", 1)[1])
    assert "(" not in movetext  # no variation: the mainline was replaced
    (game,) = read_all(text)
    last = game.end()
    assert last.move is not None
    assert last.move.uci() == "a7a6"
    assert " ".join(last.comment.split()).startswith(
        "amended by the arbiter: scoresheet: 3 moves (the moves from ply 7 removed)"
    )
    node: chess.pgn.GameNode = game
    while node.variations:
        assert len(node.variations) == 1
        node = node.variations[0]
    assert pgn_extract_problems(text) == ""
    again = client.post(
        f"/api/games/{game_id}/score-check", json={"moves": 3}, headers=arbiter
    ).json()
    assert again["agrees"] is True


def test_a_whole_score_shows_a_different_piece(client):
    round_id, game_id = setup_round(client)
    play(client, round_id, game_id, "e4", "e5", "Nf3", "Nc6", "Bc4")
    found = client.post(
        f"/api/games/{game_id}/score-check",
        json={"score": "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6"},
        headers=token(client, "arbiter"),
    ).json()
    (different,) = found["differences"]
    assert (different["kind"], different["ply"]) == ("different", 5)
    assert found["correction"] == {
        "ply": 5,
        "san": ["Bb5", "a6"],
        "words": "replace the moves from 3. on with 3. Bb5 a6",
    }


def test_a_scoresheet_needs_a_count_or_a_score_and_a_game(client):
    _, game_id = setup_round(client)
    arbiter = token(client, "arbiter")
    url = f"/api/games/{game_id}/score-check"
    assert client.post(url, json={}, headers=arbiter).status_code == 422
    both = {"moves": 2, "score": "1. e4"}
    assert client.post(url, json=both, headers=arbiter).status_code == 422
    unreadable = client.post(url, json={"score": "1. *"}, headers=arbiter)
    assert unreadable.status_code == 422
    assert "no moves" in unreadable.json()["detail"]
    missing = client.post("/api/games/999/score-check", json={"moves": 1}, headers=arbiter)
    assert missing.status_code == 404


def test_an_illegal_position_alert_gives_the_continuation_and_the_squares_to_restore(client):
    round_id, game_id = setup_round(client)
    board = play(client, round_id, game_id, "e4", "e5")
    ahead = board.copy()
    for san in ("Nf3", "Nc6"):
        ahead.push_san(san)
    alert = ArbiterAlert(
        alert="illegal-position",
        detail=f"board {ahead.board_fen()} differs from the game on c6 f3 b8 g1",
        ply=2,
        at=5.0,
    )
    # A draw claimed meanwhile says nothing of the board: the alert before it still does.
    claim = ArbiterAlert(alert="draw-claim", detail="threefold", ply=3, at=6.0)
    hub = hub_of(client)

    async def record() -> None:
        await hub.recorder.record(round_id=round_id, game_id=game_id, events=[alert, claim])

    assert client.portal is not None
    client.portal.call(record)
    arbiter = token(client, "arbiter")
    found = client.get(f"/api/games/{game_id}/repairs", headers=arbiter).json()
    assert found["board_fen"] == ahead.board_fen()
    assert found["game_fen"] == board.fen()
    assert found["continuation"]["ply"] == 3
    assert found["continuation"]["san"] == ["Nf3", "Nc6"]
    assert {s["square"] for s in found["squares"]} == {"b8", "c6", "f3", "g1"}
    assert {"square": "g1", "game": "white knight", "board": None} in found["squares"]
    knocked = chess.Board(board.fen())
    knocked.remove_piece_at(chess.D8)
    given = client.get(
        f"/api/games/{game_id}/repairs",
        params={"board": knocked.board_fen()},
        headers=arbiter,
    ).json()
    assert given["continuation"] is None
    assert given["squares"] == [{"square": "d8", "game": "black queen", "board": None}]
    bad = client.get(f"/api/games/{game_id}/repairs", params={"board": "xx"}, headers=arbiter)
    assert bad.status_code == 422


@pytest.mark.processes
def test_a_different_move_corrected_is_marked_at_its_ply_in_the_pgn(client):
    round_id, game_id = setup_round(client)
    play(client, round_id, game_id, "e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6")
    arbiter = token(client, "arbiter", user="Jane Doe")
    found = client.post(
        f"/api/games/{game_id}/score-check",
        json={"score": "1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf6"},
        headers=arbiter,
    ).json()
    correction = {**found["correction"], "reason": "both scoresheets: 3. Bb5"}
    assert client.post(f"/api/games/{game_id}/moves", json=correction, headers=arbiter).is_success
    text = client.get(f"/api/rounds/{round_id}/games.pgn").text
    assert '[Amended "ply 5"]' in text
    (game, *_) = read_all(text)
    nodes = list(game.mainline())
    assert [node.san() for node in nodes] == ["e4", "e5", "Nf3", "Nc6", "Bb5", "Nf6"]
    assert " ".join(nodes[4].comment.split()).startswith(
        "amended by the arbiter: both scoresheets: 3. Bb5"
    )
    assert all(len(node.variations) <= 1 for node in nodes)
    assert pgn_extract_problems(text) == ""
    summary = client.get(f"/api/rounds/{round_id}/games").json()[0]
    assert summary["amended"] == [
        {"ply": 5, "removed": 2, "added": 2, "by": "Jane Doe", "reason": "both scoresheets: 3. Bb5"}
    ]
