"""Importing a whole tournament over HTTP: a TRF that comes back as the same report, a PGN
whose standings match the official ones; refusals store nothing."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func
from sqlmodel import Session, select

from relay.domain.formats.trf import TrfTournament, parse_trf, render_trf
from relay.store.models import AuditEntry, Bye, Game, GameEventRow, Player, Round, Tournament
from tests.relay.api.helpers import hub_of, token
from tests.relay.domain.tournament.test_womens_rapid_2024 import PGN, expected_crosstable
from tests.relay.store.test_trf_import import SWISS_MANAGER_TRF16, club_open

TRF_TYPE = {"Content-Type": "text/plain"}
PGN_TYPE = {"Content-Type": "application/x-chess-pgn"}


def post_trf(client: TestClient, text: str, headers: dict[str, str], **params: str):
    return client.post(
        "/api/tournaments.trf", content=text, headers={**headers, **TRF_TYPE}, params=params
    )


def stored(client: TestClient) -> dict[str, int]:
    with Session(hub_of(client).engine) as session:
        return {
            model.__name__: session.exec(select(func.count()).select_from(model)).one()
            for model in (Tournament, Player, Round, Game, GameEventRow, Bye, AuditEntry)
        }


def described(trf: TrfTournament) -> dict[int, tuple[object, ...]]:
    """Each player (with the title) and every round's opponent, colour and result."""
    return {
        p.start_number: (
            p.name,
            p.title,
            p.rating,
            p.federation,
            p.fide_id,
            p.points,
            [(r.round, r.opponent, r.colour, r.result) for r in p.results],
        )
        for p in trf.players
    }


@pytest.mark.parametrize("dialect", ["trf16", "trf2026"])
def test_a_trf_comes_back_as_the_same_tournament(client, dialect):
    admin = token(client, "admin")
    original = club_open()
    text = render_trf(original, dialect)
    assert post_trf(client, text, {}).status_code == 401
    assert post_trf(client, text, token(client, "arbiter", user="arb")).status_code == 403
    answer = post_trf(client, text, admin)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert {k: body[k] for k in ("players", "rounds", "games")} == {
        "players": 9,
        "rounds": 3,
        "games": 12,
    }
    report = client.get(
        f"/api/tournaments/{body['tournament_id']}/report.trf",
        params={"dialect": dialect},
        headers=admin,
    )
    assert report.status_code == 200, report.text
    back, sent = parse_trf(report.text), parse_trf(text)
    assert (back.name, back.rounds, back.city, back.time_control) == (
        sent.name,
        sent.rounds,
        sent.city,
        sent.time_control,
    )
    assert described(back) == described(sent)
    results = {r.result for p in back.players for r in p.results}
    assert {"U", "H", "+", "-"} <= results
    trail = client.get("/api/audit", headers=admin).json()
    assert trail[0]["action"] == "import-trf"
    assert trail[0]["target"] == f"tournament {body['tournament_id']}"
    # Unpublished by default: the public sees no round of it.
    assert client.get("/api/rounds").json() == []
    assert len(client.get("/api/rounds", headers=admin).json()) == 3


def test_a_swiss_manager_trf_comes_back_with_its_titles_in_the_official_form(client):
    """The TRF16 of tests/data/trf, laid out as Swiss-Manager lays it out (see
    tests/relay/domain/formats/test_trf_swiss_manager.py), imported, exported as the
    tournament report and read again: the same players, titles and results."""
    admin = token(client, "admin")
    text = SWISS_MANAGER_TRF16.read_text(encoding="utf-8")
    answer = post_trf(client, text, admin)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert {k: body[k] for k in ("players", "rounds", "games")} == {
        "players": 10,
        "rounds": 4,
        "games": 18,
    }
    report = client.get(f"/api/tournaments/{body['tournament_id']}/report.trf", headers=admin)
    assert report.status_code == 200, report.text
    back, sent = parse_trf(report.text), parse_trf(text)
    assert described(back) == described(sent)
    assert (back.name, back.rounds, back.start, back.end) == (
        sent.name,
        sent.rounds,
        sent.start,
        sent.end,
    )
    lines = [line for line in report.text.splitlines() if line.startswith("001")]
    assert [line[10:13] for line in lines] == [
        *(" GM", " IM", "WGM", " FM", "WIM", " CM", "WFM", "   ", "WCM", "   "),
    ]
    # Imported again (under another name), it is the same tournament once more.
    again = post_trf(client, report.text.replace(f"012 {sent.name}", "012 Again"), admin)
    assert again.status_code == 200, again.text
    second = client.get(
        f"/api/tournaments/{again.json()['tournament_id']}/report.trf", headers=admin
    )
    assert described(parse_trf(second.text)) == described(sent)


def test_a_trf_with_an_unknown_title_is_422_naming_the_line_and_columns(client):
    admin = token(client, "admin")
    before = stored(client)
    lines = SWISS_MANAGER_TRF16.read_text(encoding="utf-8").splitlines()
    number = next(i for i, line in enumerate(lines, 1) if line.startswith("001"))
    lines[number - 1] = lines[number - 1][:10] + "HGM" + lines[number - 1][13:]
    bad = post_trf(client, "\n".join(lines) + "\n", admin)
    assert bad.status_code == 422
    detail = bad.json()["detail"]
    assert f"line {number}: title 'HGM' (columns 11-13) is not a FIDE title" in detail
    assert stored(client) == before


def test_rounds_may_be_published_on_import(client):
    admin = token(client, "admin")
    assert post_trf(client, render_trf(club_open()), admin, publish="true").is_success
    rounds = client.get("/api/rounds").json()
    assert [(r["number"], r["published"]) for r in rounds] == [(1, True), (2, True), (3, True)]


def test_bad_trf_is_422_naming_the_line_and_stores_nothing(client):
    admin = token(client, "admin")
    before = stored(client)
    lines = render_trf(club_open()).splitlines()
    number, line = next((i, text) for i, text in enumerate(lines, 1) if text.startswith("001"))
    lines[number - 1] = line[:80] + " 9.5" + line[84:]  # points that disagree with results
    bad = post_trf(client, "\n".join(lines) + "\n", admin)
    assert bad.status_code == 422
    assert f"line {number}:" in bad.json()["detail"]
    assert "points" in bad.json()["detail"]
    assert stored(client) == before


def pgn_game(round_: str, moves: str, event: str = "X") -> str:
    tags = (f'[Event "{event}"]', f'[Round "{round_}"]', '[White "A, B"]', '[Black "C, D"]')
    return "\n".join((*tags, '[Result "1-0"]', "", f"{moves} 1-0", ""))


def test_a_second_import_of_the_same_name_is_409_and_stores_nothing(client):
    admin = token(client, "admin")
    text = render_trf(club_open())
    assert post_trf(client, text, admin).status_code == 200
    before = stored(client)
    again = post_trf(client, text, admin)
    assert again.status_code == 409
    assert "Club Open" in again.json()["detail"]
    assert stored(client) == before
    pgn = (
        '[Event "Club Open"]\n[Round "1"]\n[White "A, B"]\n[Black "C, D"]\n[Result "1-0"]\n\n1-0\n'
    )
    taken = client.post("/api/tournaments.pgn", content=pgn, headers={**admin, **PGN_TYPE})
    assert taken.status_code == 409
    assert stored(client) == before


def test_bad_pgn_is_422_and_stores_nothing(client):
    admin = token(client, "admin")
    before = stored(client)
    illegal = (
        '[Event "X"]\n[Round "1"]\n[White "A, B"]\n[Black "C, D"]\n[Result "1-0"]\n\n1. e5 1-0\n'
    )
    no_round = '[Event "X"]\n[Round "?"]\n[White "A, B"]\n[Black "C, D"]\n[Result "1-0"]\n\n1-0\n'
    for text in (illegal, no_round, "not a game"):
        answer = client.post("/api/tournaments.pgn", content=text, headers={**admin, **PGN_TYPE})
        assert answer.status_code == 422, text
        assert answer.json()["detail"].startswith("PGN: ")
    assert stored(client) == before


@pytest.fixture(scope="module")
def crosstable():
    return expected_crosstable()


def test_the_womens_world_rapid_2024_standings(client, crosstable):
    score, elo, met = crosstable
    admin = token(client, "admin")
    answer = client.post(
        "/api/tournaments.pgn",
        content=PGN.read_text(encoding="utf-8"),
        headers={**admin, **PGN_TYPE},
    )
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert {k: body[k] for k in ("players", "rounds", "games")} == {
        "players": 110,
        "rounds": 11,
        "games": 605,
    }
    tournament_id = body["tournament_id"]
    players = client.get(f"/api/tournaments/{tournament_id}/players").json()
    ratings = [p["rating"] for p in players]
    assert ratings == sorted(ratings, reverse=True)  # start numbers by rating
    rows = client.get(f"/api/tournaments/{tournament_id}/standings", headers=admin).json()
    assert len(rows) == 110
    assert (rows[0]["name"], rows[0]["points"]) == ("Koneru, Humpy", 8.5)
    assert rows[1]["points"] == 8.0
    for row in rows:
        player = row["name"]
        opponents = [score[opponent] for _, opponent in met[player]]
        assert row["points"] == score[player], player
        assert row["tie_breaks"]["BH"] == sum(opponents), player
        assert row["tie_breaks"]["BH-C1"] == sum(opponents) - min(opponents), player
        total = sum((Decimal(elo[opponent]) for _, opponent in met[player]), Decimal(0))
        aro = (total / len(met[player])).quantize(Decimal(1), rounding=ROUND_HALF_UP)
        assert row["tie_breaks"]["ARO"] == int(aro), player
