"""The game-input desk through the API: the keyer role's limits (keys and checks; proposes a
result but neither enters nor verifies one; no arbiter actions), the second keyer's check
refused to the keyer who keyed the game, notes as PGN comments, a keying slip taken back,
and device tokens kept off the desk."""

from __future__ import annotations

import chess
import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session

from relay.store.access import create_token, read_audit
from relay.store.event_log import read_events
from tests.pairings import paired_round
from tests.pgn_check import pgn_extract_problems, read_all
from tests.relay.api.helpers import hub_of, token


def key(client: TestClient, game_id: int, sans: list[str], headers: dict[str, str]) -> None:
    for ply, san in enumerate(sans, start=1):
        answer = client.post(
            f"/api/games/{game_id}/entries", json={"ply": ply, "move": san}, headers=headers
        )
        assert answer.status_code == 200, answer.text


def desk_round(client: TestClient, games: int = 3) -> tuple[int, list[int]]:
    with Session(hub_of(client).engine) as session:
        return paired_round(session, games=games, ports=["sim://1"])


def mark(client: TestClient, game_id: int, status: str, headers: dict[str, str]):
    return client.post(
        f"/api/games/{game_id}/input/status", json={"status": status}, headers=headers
    )


def test_the_round_lists_its_skeletons_with_status_and_progress(client):
    round_id, game_ids = desk_round(client)
    keyer = token(client, "keyer", "Desk 1")
    desk = client.get(f"/api/rounds/{round_id}/input", headers=keyer)
    assert desk.status_code == 200, desk.text
    body = desk.json()
    assert [row["board"] for row in body["games"]] == [1, 2, 3]
    first = body["games"][0]
    assert (first["white"]["name"], first["white"]["rating"]) == ("White1, Player", 2001)
    assert (first["black"]["name"], first["black"]["rating"]) == ("Black1, Player", 1901)
    # Board 1 has an electronic board: its moves are not keyed here.
    assert [row["eboard"] for row in body["games"]] == [True, False, False]
    assert [row["status"] for row in body["games"]] == ["to-key"] * 3
    assert body["progress"] == {"to_key": 2, "keyed": 0, "checked": 0, "eboard": 1}
    assert (body["number"], body["tournament"]) == (1, "Test Open")

    key(client, game_ids[1], ["e4", "e5"], keyer)
    assert mark(client, game_ids[1], "keyed", keyer).status_code == 200
    body = client.get(f"/api/rounds/{round_id}/input", headers=keyer).json()
    assert body["progress"] == {"to_key": 1, "keyed": 1, "checked": 0, "eboard": 1}
    assert body["games"][1]["keyed_by"] == "Desk 1"


def test_a_game_on_the_desk_has_its_positions_and_legal_moves(client):
    _, (_, game_id, _) = desk_round(client)
    keyer = token(client, "keyer")
    key(client, game_id, ["e4", "d5"], keyer)
    game = client.get(f"/api/games/{game_id}/input", headers=keyer).json()
    assert [move["san"] for move in game["moves"]] == ["e4", "d5"]
    board = chess.Board()
    board.push_san("e4")
    assert game["moves"][0]["fen"] == board.fen()
    board.push_san("d5")
    assert game["fen"] == board.fen()
    assert game["start_fen"] == chess.STARTING_FEN
    assert game["legal"] == sorted(board.san(move) for move in board.legal_moves)
    assert "exd5" in game["legal"]


def test_keyed_then_checked_by_a_second_keyer_never_by_the_same(client):
    _, (_, game_id, _) = desk_round(client)
    first = token(client, "keyer", "Desk 1")
    again = token(client, "keyer", "Desk 1")  # a second token of the same keyer
    second = token(client, "keyer", "Desk 2")
    early = mark(client, game_id, "checked", second)
    assert early.status_code == 409
    assert early.json()["detail"] == "the game is not keyed yet: it is checked once it is keyed"
    empty = mark(client, game_id, "keyed", first)
    assert empty.status_code == 409
    assert empty.json()["detail"] == "nothing is keyed yet: no moves and no result"

    key(client, game_id, ["d4", "d5", "c4"], first)
    keyed = mark(client, game_id, "keyed", first)
    assert keyed.status_code == 200, keyed.text
    assert (keyed.json()["status"], keyed.json()["keyed_by"]) == ("keyed", "Desk 1")
    same = mark(client, game_id, "checked", again)
    assert same.status_code == 409
    assert same.json()["detail"] == (
        "Desk 1 keyed this game: a different keyer checks it against the scoresheet"
    )
    checked = mark(client, game_id, "checked", second)
    assert checked.status_code == 200, checked.text
    assert (checked.json()["status"], checked.json()["checked_by"]) == ("checked", "Desk 2")
    twice = mark(client, game_id, "checked", second)
    assert twice.status_code == 409
    assert twice.json()["detail"] == "the game is checked already (by Desk 2)"
    with Session(hub_of(client).engine) as session:
        actions = [(e.user, e.action) for e in read_audit(session)]
    assert ("Desk 2", "mark-checked") in actions
    assert ("Desk 1", "mark-keyed") in actions


def test_a_keyer_proposes_the_result_and_only_an_arbiter_enters_and_verifies_it(client):
    round_id, (_, game_id, _) = desk_round(client)
    keyer = token(client, "keyer", "Desk 1")
    arbiter = token(client, "arbiter", "Chief")
    key(client, game_id, ["e4", "e5", "Nf3"], keyer)
    proposed = client.post(
        f"/api/games/{game_id}/input/result", json={"result": "1-0"}, headers=keyer
    )
    assert proposed.status_code == 200, proposed.text
    assert (proposed.json()["proposed_result"], proposed.json()["result"]) == ("1-0", "*")
    undecided = client.post(
        f"/api/games/{game_id}/input/result", json={"result": "*"}, headers=keyer
    )
    assert undecided.status_code == 409
    for path, body in (
        (f"/api/games/{game_id}/result", {"result": "1-0"}),
        (f"/api/games/{game_id}/verify", {"result": "1-0"}),
        (f"/api/games/{game_id}/moves", {"ply": 3, "san": ["Nc3"]}),
        (f"/api/rounds/{round_id}/publish", {"published": False}),
    ):
        refused = client.post(path, json=body, headers=keyer)
        assert refused.status_code == 403, path
        assert refused.json()["detail"] == "Desk 1 is keyer; this needs arbiter"
    assert client.post(f"/api/games/{game_id}/result", json={"result": "1-0"}, headers=arbiter)
    verified = client.post(f"/api/games/{game_id}/verify", json={"result": "1-0"}, headers=arbiter)
    assert verified.json()["verified"] is True
    late = client.post(f"/api/games/{game_id}/input/result", json={"result": "0-1"}, headers=keyer)
    assert late.status_code == 409
    assert (
        late.json()["detail"]
        == "the game's result is 1-0 (set by Chief): only an arbiter changes it"
    )


@pytest.mark.processes
def test_notes_are_comments_in_the_games_pgn(client):
    round_id, (_, game_id, _) = desk_round(client)
    keyer = token(client, "keyer")
    key(client, game_id, ["e4", "e5", "Nf3", "Nc6"], keyer)
    for ply, text in (
        (0, "keyed from the scoresheet"),
        (3, "(=)"),
        (4, "rest of score  indecipherable"),
    ):
        answer = client.post(
            f"/api/games/{game_id}/input/notes", json={"ply": ply, "text": text}, headers=keyer
        )
        assert answer.status_code == 200, answer.text
    beyond = client.post(
        f"/api/games/{game_id}/input/notes", json={"ply": 9, "text": "time"}, headers=keyer
    )
    assert beyond.status_code == 409
    blank = client.post(
        f"/api/games/{game_id}/input/notes", json={"ply": 1, "text": "   "}, headers=keyer
    )
    assert blank.status_code == 409
    control = client.post(
        f"/api/games/{game_id}/input/notes", json={"ply": 1, "text": "a\x00b"}, headers=keyer
    )
    assert control.status_code == 422  # no control character reaches the PGN
    notes = client.get(f"/api/games/{game_id}/input", headers=keyer).json()["note_list"]
    assert [(n["ply"], n["text"]) for n in notes] == [
        (0, "keyed from the scoresheet"),
        (3, "(=)"),
        (4, "rest of score indecipherable"),
    ]
    text = client.get(f"/api/games/{game_id}.pgn").text
    words = " ".join(text.split())
    assert words.index("{ keyed from the scoresheet } 1. e4") < words.index("2. Nf3 { (=)")
    (game,) = read_all(text)
    assert game.comment == "keyed from the scoresheet"
    comments = [node.comment for node in game.mainline()]
    assert comments[2].startswith("(=)")
    assert comments[3].startswith("rest of score indecipherable")
    assert not any(comment.startswith(("(=)", "rest")) for comment in comments[:2])
    assert pgn_extract_problems(client.get(f"/api/rounds/{round_id}/games.pgn").text) == ""


def test_a_keying_slip_is_taken_back_and_the_game_is_to_key_again(client):
    _, (_, game_id, _) = desk_round(client)
    first = token(client, "keyer", "Desk 1")
    second = token(client, "keyer", "Desk 2")
    key(client, game_id, ["e4", "e5", "Nc3"], first)
    assert mark(client, game_id, "keyed", first).json()["status"] == "keyed"
    back = client.post(f"/api/games/{game_id}/input/takeback", json={"ply": 2}, headers=second)
    assert back.status_code == 200, back.text
    assert (back.json()["plies"], back.json()["status"], back.json()["keyed_by"]) == (
        2,
        "to-key",
        None,
    )
    key(client, game_id, ["e4", "e5", "Nf3"], first)
    assert mark(client, game_id, "keyed", first).status_code == 200
    assert mark(client, game_id, "checked", second).status_code == 200
    checked = client.post(f"/api/games/{game_id}/input/takeback", json={"ply": 1}, headers=first)
    assert checked.status_code == 409
    assert (
        checked.json()["detail"] == "the game is checked (by Desk 2): an arbiter corrects its moves"
    )
    with Session(hub_of(client).engine) as session:
        kinds = [item.kind for item in read_events(session, game_id=game_id)]
    assert kinds == ["move"] * 3 + [
        "input-status",
        "takeback",
        "move",
        "input-status",
        "input-status",
    ]


def test_a_device_token_is_kept_off_the_desk(client):
    round_id, (_, game_id, other_id) = desk_round(client)
    with Session(hub_of(client).engine) as session:
        device = create_token(session, user="Board 2 tablet", role="keyer", game_id=game_id)
        session.commit()
    headers = {"Authorization": f"Bearer {device}"}
    other = client.post(
        f"/api/games/{other_id}/input/notes", json={"ply": 0, "text": "time"}, headers=headers
    )
    assert other.status_code == 403
    assert other.json()["detail"] == f"Board 2 tablet's token is bound to game {game_id}"
    assert client.get(f"/api/games/{other_id}/input", headers=headers).status_code == 403
    assert client.get(f"/api/rounds/{round_id}/input", headers=headers).status_code == 403
    own = mark(client, game_id, "keyed", headers)
    assert own.status_code == 403
    assert own.json()["detail"] == (
        f"Board 2 tablet's token is bound to game {game_id}: the game-input desk needs a "
        "keyer's own token"
    )


def test_the_desk_needs_a_keyer_token(client):
    round_id, (_, game_id, _) = desk_round(client)
    assert client.get(f"/api/rounds/{round_id}/input").status_code == 401
    assert client.get(f"/api/games/{game_id}/input").status_code == 401
    assert client.get("/api/rounds/99/input", headers=token(client, "keyer")).status_code == 404
    assert client.get("/api/games/999/input", headers=token(client, "keyer")).status_code == 404
    assert client.get(f"/api/games/{game_id}/input", headers=token(client, "admin", "Boss"))
