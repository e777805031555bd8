"""Uploads with several errors answer 422 listing them all (``detail`` as before, and
``errors``); the refusals of a route by the kind of the relay error."""

from __future__ import annotations

import pytest
from fastapi import HTTPException

from relay.api.refusals import refusals
from relay.domain.errors import (
    InvalidInputError,
    MissingError,
    RefusedError,
    RelayError,
    UnavailableError,
)
from relay.domain.formats.trf import render_trf
from relay.store.tournaments import ConflictError, NotFoundError
from tests.relay.api.helpers import setup_round, token
from tests.relay.api.test_imports_api import PGN_TYPE, post_trf, stored
from tests.relay.store.test_trf_import import club_open

TOML_TYPE = {"Content-Type": "application/toml"}


def bad_trf() -> tuple[str, list[int]]:
    """A TRF with three errors, and their lines."""
    lines = render_trf(club_open()).splitlines()
    players = [i for i, line in enumerate(lines) if line.startswith("001")]
    first, second = players[0], players[1]
    lines[first] = lines[first][:9] + "x" + lines[first][10:]  # sex
    lines[second] = lines[second][:53] + "S1K" + lines[second][56:]  # federation
    lines[second] = lines[second][:80] + " 9.x" + lines[second][84:]  # points
    return "\n".join(lines) + "\n", [first + 1, second + 1, second + 1]


def test_a_trf_with_three_errors_answers_422_listing_them(client):
    admin = token(client, "admin")
    before = stored(client)
    text, lines = bad_trf()
    answer = post_trf(client, text, admin)
    assert answer.status_code == 422
    body = answer.json()
    assert [e["line"] for e in body["errors"]] == lines
    assert body["detail"] == "TRF: 3 errors: " + "; ".join(e["message"] for e in body["errors"])
    assert "sex 'x'" in body["errors"][0]["message"]
    assert "federation 'S1K'" in body["errors"][1]["message"]
    assert "points '9.x'" in body["errors"][2]["message"]
    assert stored(client) == before


def test_a_single_error_keeps_its_answer_and_lists_itself(client):
    admin = token(client, "admin")
    text = render_trf(club_open()).replace("012 ", "012x", 1)
    answer = post_trf(client, text, admin)
    assert answer.status_code == 422
    body = answer.json()
    assert body["detail"] == "TRF: line 1: column 4 after the code '012' must be blank"
    assert body["errors"] == [
        {"message": "line 1: column 4 after the code '012' must be blank", "line": 1, "field": None}
    ]


def pgn_game(round_: str, white: str, black: str, moves: str, result: str = "1-0") -> str:
    tags = f'[Event "X"]\n[Round "{round_}"]\n[White "{white}"]\n[Black "{black}"]\n'
    return tags + f'[Result "{result}"]\n\n{moves} {result}\n\n'


def test_an_event_pgn_with_several_bad_games_answers_422_listing_them(client):
    admin = {**token(client, "admin"), **PGN_TYPE}
    before = stored(client)
    text = (
        pgn_game("1", "A, B", "C, D", "1. e4 e5")
        + pgn_game("1", "E, F", "G, H", "1. e5")  # illegal
        + pgn_game("2", "A, B", "E, F", "1. d4", result="3-0")  # unknown result
    )
    answer = client.post("/api/tournaments.pgn", content=text, headers=admin)
    assert answer.status_code == 422
    body = answer.json()
    assert [(e["field"], e["line"]) for e in body["errors"]] == [("game 2", 9), ("game 3", 17)]
    assert body["detail"].startswith("PGN: 2 errors: game 2 (E, F - G, H): ")
    # Tags the store cannot read are listed the same way.
    text = pgn_game("x", "A, B", "C, D", "") + pgn_game("?", "E, F", "G, H", "")
    answer = client.post("/api/tournaments.pgn", content=text, headers=admin)
    assert answer.status_code == 422
    assert [e["field"] for e in answer.json()["errors"]] == ["game 1", "game 2"]
    assert answer.json()["detail"].startswith("PGN: 2 errors: game 1 (A, B - C, D): round 'x'")
    assert stored(client) == before


def test_an_event_file_with_three_problems_answers_422_listing_them(client):
    headers = {**token(client, "admin"), **TOML_TYPE}
    text = (
        '[tournament]\nname = "API Open"\nrounds = 0\n'
        '[[player]]\nnumber = 1\nname = "A, B"\ntitle = "XM"\n'
        "[[round]]\nnumber = 1\ndelay = -1\n"
    )
    answer = client.post("/api/event", content=text, headers=headers)
    assert answer.status_code == 422
    body = answer.json()
    assert [e["field"] for e in body["errors"]] == ["[tournament]", "player 1", "round 1"]
    assert body["detail"] == "event file: 3 errors: " + "; ".join(
        e["message"] for e in body["errors"]
    )
    assert client.get("/api/rounds", headers=headers).json() == []


def test_a_round_pgn_with_two_bad_games_answers_422_listing_them(client):
    round_id, _ = setup_round(client)
    arbiter = {**token(client, "arbiter"), **PGN_TYPE}
    text = '[White "A"]\n[Black "B"]\n\n1. e4 e4 *\n\n[White "C"]\n[Black "D"]\n\n1. d5 *\n'
    answer = client.post(f"/api/rounds/{round_id}/games.pgn", content=text, headers=arbiter)
    assert answer.status_code == 422
    assert [(e["field"], e["line"]) for e in answer.json()["errors"]] == [
        ("game 1", 1),
        ("game 2", 6),
    ]


# --- refusals by kind ------------------------------------------------------------------------


class UnreadableError(InvalidInputError):
    pass


class BrokenError(RelayError):
    pass


@pytest.mark.parametrize(
    ("error", "status", "detail"),
    [
        (NotFoundError("game 7"), 404, "no game 3"),
        (MissingError("anything"), 404, "no game 3"),
        (ConflictError("taken"), 409, "taken"),
        (RefusedError("not now"), 409, "not now"),
        (UnreadableError("bad"), 422, "bad"),
        (UnavailableError("no port"), 503, "no port"),
    ],
)
def test_refusals_answer_by_kind(error, status, detail):
    with pytest.raises(HTTPException) as caught, refusals("game 3"):
        raise error
    assert (caught.value.status_code, caught.value.detail) == (status, detail)


def test_a_listed_conflict_is_409_whatever_its_kind():
    with pytest.raises(HTTPException) as caught, refusals("round 1", UnreadableError):
        raise UnreadableError("cannot write it")
    assert (caught.value.status_code, caught.value.detail) == (409, "cannot write it")
    with pytest.raises(HTTPException) as caught, refusals("round 1", KeyError):
        raise KeyError("outside the tree")
    assert caught.value.status_code == 409


def test_an_error_of_no_kind_goes_through():
    with pytest.raises(BrokenError), refusals("game 3"):
        raise BrokenError("the disk is full")
    with pytest.raises(ValueError, match="plain"), refusals("game 3"):
        raise ValueError("plain")
