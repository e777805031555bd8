"""The LiveChess-Cloud-style feed through the app: served only when the tournament asks for
it, publication and the transmission delay as for the public PGN, the shapes of DGT's own
files (``tests/data/livechess-export``), and no answer but a 4xx to any odd path."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session

from relay.api.app import create_app
from relay.config import Settings
from relay.domain.formats.event_file import EventSetup, PlayerSetup, RoundSetup, TournamentSetup
from relay.store.setup import load_event
from tests.data_files import DATA
from tests.pairings import paired_round
from tests.relay.api.helpers import hub_of, play, token
from tests.stores import migrated_sqlite

EXPORT = DATA / "livechess-export"
FEED = "/livechess/1"
#: Keys the cloud sends that DGT's local export leaves out (seen in the cloud's answers).
CLOUD_ONLY = {
    "tournament": {"location", "country", "website", "rules", "chess960", "timecontrol", "eboards"},
    "index": {"date"},
    "player": {"gender", "fideid"},
}


def read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def settings_of(tmp_path: Path, **options: Any) -> Settings:
    return Settings(db_url=migrated_sqlite(tmp_path / "feed.db"), **{"rate_limit": 0, **options})


@pytest.fixture
def client(tmp_path) -> Iterator[TestClient]:
    with TestClient(create_app(settings_of(tmp_path))) as client:
        yield client


def paired(client: TestClient, **options: Any) -> tuple[int, list[int]]:
    """Round 1 of tournament 1 ("Test Open"), two boards on electronic boards 1 and 2."""
    with Session(hub_of(client).engine) as session:
        return paired_round(session, games=2, ports=["sim://1", "sim://2"], **options)


def enable(client: TestClient, tournament_id: int = 1) -> None:
    hub_of(client).outputs.enable_livechess(tournament_id)


def served(client: TestClient) -> int:
    statuses = [s for s in hub_of(client).outputs.statuses() if s.kind == "livechess"]
    return statuses[0].delivered if statuses else 0


PATHS = (
    f"{FEED}/tournament.json",
    f"{FEED}/round-1/index.json",
    f"{FEED}/round-1/game-1.json",
)


# -- served only when asked for -----------------------------------------------------------


def test_without_the_event_files_livechess_output_every_path_is_404_in_words(client):
    paired(client)
    for path in PATHS:
        answer = client.get(path)
        assert answer.status_code == 404, path
        assert "has no LiveChess feed" in answer.json()["detail"]
    enable(client, 2)  # another tournament's feed serves nothing of this one
    assert client.get(PATHS[0]).status_code == 404


def test_with_it_every_path_answers_and_each_answer_is_counted(client):
    round_id, (game_id, _) = paired(client)
    enable(client)
    play(client, round_id, game_id, "e4", "e5")
    answers = [client.get(path) for path in PATHS]
    assert [a.status_code for a in answers] == [200, 200, 200]
    assert client.get(f"{FEED}/round-1/game-9.json").status_code == 404
    assert served(client) == 3  # refusals are not counted
    tournament, index, game = (a.json() for a in answers)
    assert tournament["rounds"] == [{"count": 2, "live": 1}]
    assert tournament["eboards"] == ["1", "2"]
    assert [p["live"] for p in index["pairings"]] == [True, False]
    assert index["pairings"][0]["white"] == {
        "fname": "Player",
        "mname": None,
        "lname": "White1",
        "title": None,
        "federation": None,
        "gender": None,
        "fideid": None,
    }
    # play() records e-clock readings of 5400 less the ply, and no clock start.
    assert game["moves"] == ["e4 5399", "e5 5398+0"]
    assert (game["live"], game["serialNr"], game["chess960"], game["result"]) == (
        True,
        "1",
        518,
        None,
    )


def test_a_lichess_style_poll_query_is_ignored(client):
    paired(client)
    enable(client)
    assert client.get(f"{FEED}/round-1/game-1.json?poll").status_code == 200


def test_unknown_rounds_and_boards_are_404_in_words(client):
    paired(client)
    enable(client)
    assert client.get(f"{FEED}/round-2/index.json").json() == {
        "detail": "no round 2 in tournament 1"
    }
    assert client.get(f"{FEED}/round-2/game-1.json").status_code == 404
    assert client.get(f"{FEED}/round-1/game-3.json").json() == {
        "detail": "no board 3 in round 1 of tournament 1"
    }
    enable(client, 5)
    assert client.get("/livechess/5/tournament.json").json() == {"detail": "no tournament 5"}


def test_a_result_reaches_the_feed_in_both_vocabularies(client):
    round_id, (game_id, _) = paired(client)
    enable(client)
    play(client, round_id, game_id, "e4", "e5")
    arbiter = token(client, "arbiter")
    body = {"result": "0-1", "reason": "resigned"}
    assert client.post(f"/api/games/{game_id}/result", json=body, headers=arbiter).is_success
    game = client.get(f"{FEED}/round-1/game-1.json").json()
    assert (game["result"], game["live"], game["clock"]) == ("BLACKWIN", False, None)
    index = client.get(f"{FEED}/round-1/index.json").json()
    assert index["pairings"][0]["result"] == "0-1"
    assert client.get(f"{FEED}/tournament.json").json()["rounds"] == [{"count": 2, "live": 0}]


# -- publication and the delay -------------------------------------------------------------


def test_an_unpublished_round_does_not_exist_for_the_public(client):
    paired(client, published=False)
    enable(client)
    assert client.get(f"{FEED}/round-1/index.json").status_code == 404
    assert client.get(f"{FEED}/round-1/game-1.json").json() == {
        "detail": "no round 1 in tournament 1"
    }
    assert client.get(f"{FEED}/tournament.json").json()["rounds"] == []
    staff = token(client, "arbiter")
    assert client.get(f"{FEED}/round-1/game-1.json", headers=staff).status_code == 200
    rounds = client.get(f"{FEED}/tournament.json", headers=staff).json()["rounds"]
    assert rounds == [{"count": 2, "live": 0}]


def test_an_unpublished_round_counts_no_games_among_the_planned_rounds(client):
    with Session(hub_of(client).engine) as session:
        setup = EventSetup(
            tournament=TournamentSetup(name="Planned Open", rounds=3),
            players=(PlayerSetup(1, "Moss, Mary"), PlayerSetup(2, "Lee, Hugo")),
            rounds=(
                RoundSetup(number=1, pairings=((1, 2),)),
                RoundSetup(number=2, pairings=((2, 1),), published=False),
            ),
        )
        tournament_id = load_event(session, setup).tournament_id
        session.commit()
    enable(client, tournament_id)
    rounds = client.get(f"/livechess/{tournament_id}/tournament.json").json()["rounds"]
    assert rounds == [{"count": 1, "live": 0}, {"count": 0, "live": 0}, {"count": 0, "live": 0}]


def test_a_planned_round_count_far_too_big_lists_a_bounded_number(client):
    # A typo in an event file ("rounds = 100000000") must not make one anonymous request
    # build a hundred million rounds.
    with Session(hub_of(client).engine) as session:
        setup = EventSetup(
            tournament=TournamentSetup(name="Typo Open", rounds=100_000_000),
            players=(PlayerSetup(1, "Moss, Mary"), PlayerSetup(2, "Lee, Hugo")),
            rounds=(RoundSetup(number=1, pairings=((1, 2),)),),
        )
        tournament_id = load_event(session, setup).tournament_id
        session.commit()
    enable(client, tournament_id)
    rounds = client.get(f"/livechess/{tournament_id}/tournament.json").json()["rounds"]
    assert len(rounds) == 99
    assert rounds[0] == {"count": 1, "live": 0}


def test_a_delayed_round_shows_each_game_as_it_was_the_delay_ago(client, monkeypatch):
    round_id, (game_id, _) = paired(client, delay=900)
    enable(client)
    play(client, round_id, game_id, "Nf3", "Nc6")
    public = client.get(f"{FEED}/round-1/game-1.json").json()
    assert (public["moves"], public["live"], public["firstMove"]) == ([], False, None)
    assert client.get(f"{FEED}/round-1/index.json").json()["pairings"][0]["live"] is False
    assert client.get(f"{FEED}/tournament.json").json()["rounds"] == [{"count": 2, "live": 0}]
    staff = client.get(f"{FEED}/round-1/game-1.json", headers=token(client, "arbiter")).json()
    assert [move.split()[0] for move in staff["moves"]] == ["Nf3", "Nc6"]

    later = time.time() + 905
    monkeypatch.setattr(time, "time", lambda: later)
    public = client.get(f"{FEED}/round-1/game-1.json").json()
    assert [move.split()[0] for move in public["moves"]] == ["Nf3", "Nc6"]
    assert client.get(f"{FEED}/tournament.json").json()["rounds"] == [{"count": 2, "live": 1}]


# -- the shapes of DGT's own files -----------------------------------------------------------


def shape(value: Any) -> str:
    """A JSON value's kind; null fits any kind, as the cloud leaves unknowns null."""
    return "null" if value is None else type(value).__name__


def assert_same_keys(ours: dict[str, Any], theirs: dict[str, Any], extra: set[str]) -> None:
    """``ours`` has every key of ``theirs`` with a value of the same kind (or null on either
    side), and besides them only the cloud's keys ``extra``."""
    assert set(theirs) <= set(ours), set(theirs) - set(ours)
    assert set(ours) - set(theirs) <= extra, set(ours) - set(theirs) - extra
    for key, value in theirs.items():
        kinds = {shape(value), shape(ours[key])} - {"null"}
        assert len(kinds) <= 1, f"{key}: {value!r} against {ours[key]!r}"


def test_the_export_folders_are_the_shapes_of_the_feed():
    tournaments = sorted(EXPORT.glob("tournament-*/tournament.json"))
    indexes = sorted(EXPORT.glob("tournament-*/round-*/index.json"))
    assert len(tournaments) == 2
    assert len(indexes) == 3
    for path in tournaments:
        assert set(read_json(path)) == {"id", "name", "rounds"}
        assert all(set(r) == {"count", "live"} for r in read_json(path)["rounds"])
    for path in indexes:
        for pairing in read_json(path)["pairings"]:
            assert set(pairing) == {"white", "black", "result", "live"}
            assert pairing["result"] in ("1-0", "0-1", "1/2-1/2", "*")


def load_export_round(client: TestClient) -> tuple[int, list[dict[str, Any]]]:
    """Tournament 2 of the export, its round 1 paired on the hub as LiveChess had it: the
    players named "lname, fname", the pairings in board order."""
    pairings = read_json(EXPORT / "tournament-2/round-1/index.json")["pairings"]
    players = []
    for board, pairing in enumerate(pairings, start=1):
        for number, side in ((2 * board - 1, "white"), (2 * board, "black")):
            person = pairing[side]
            players.append(PlayerSetup(number, f"{person['lname']}, {person['fname']}"))
    name = read_json(EXPORT / "tournament-2/tournament.json")["name"]
    setup = EventSetup(
        tournament=TournamentSetup(name=name, site="Sotra, Norway", rounds=6),
        players=tuple(players),
        rounds=(
            RoundSetup(
                number=1, pairings=tuple((2 * b - 1, 2 * b) for b in range(1, len(pairings) + 1))
            ),
        ),
    )
    with Session(hub_of(client).engine) as session:
        tournament_id = load_event(session, setup).tournament_id
        session.commit()
    return tournament_id, pairings


def test_a_round_of_the_export_comes_back_key_for_key(client):
    tournament_id, pairings = load_export_round(client)
    enable(client, tournament_id)
    arbiter = token(client, "arbiter")
    round_id = client.get("/api/rounds").json()[0]["id"]
    games = client.get(f"/api/rounds/{round_id}/games").json()
    for game, pairing in zip(games, pairings, strict=True):
        body = {"result": pairing["result"]}
        assert client.post(f"/api/games/{game['id']}/result", json=body, headers=arbiter).is_success

    feed = f"/livechess/{tournament_id}"
    ours = client.get(f"{feed}/round-1/index.json").json()
    theirs = read_json(EXPORT / "tournament-2/round-1/index.json")
    assert_same_keys(ours, theirs, CLOUD_ONLY["index"])
    assert len(ours["pairings"]) == len(theirs["pairings"]) == 12
    for mine, given in zip(ours["pairings"], theirs["pairings"], strict=True):
        assert_same_keys(mine, given, set())
        for side in ("white", "black"):
            assert_same_keys(mine[side], given[side], CLOUD_ONLY["player"])
            assert {key: mine[side][key] for key in given[side]} == given[side]
        assert (mine["result"], mine["live"]) == (given["result"], given["live"])

    tournament = client.get(f"{feed}/tournament.json").json()
    exported = read_json(EXPORT / "tournament-2/tournament.json")
    assert_same_keys(tournament, exported, CLOUD_ONLY["tournament"])
    assert tournament["name"] == exported["name"]
    assert len(tournament["rounds"]) == len(exported["rounds"]) == 6
    assert tournament["rounds"][0] == exported["rounds"][0] == {"count": 12, "live": 0}
    for mine, given in zip(tournament["rounds"], exported["rounds"], strict=True):
        assert_same_keys(mine, given, set())


def test_the_placeholder_export_comes_back_key_for_key(client):
    paired(client)
    enable(client)
    tournament = client.get(f"{FEED}/tournament.json").json()
    exported = read_json(EXPORT / "tournament-1/tournament.json")
    assert_same_keys(tournament, exported, CLOUD_ONLY["tournament"])
    index = client.get(f"{FEED}/round-1/index.json").json()
    theirs = read_json(EXPORT / "tournament-1/round-1/index.json")
    assert_same_keys(index, theirs, CLOUD_ONLY["index"])
    for mine, given in zip(index["pairings"], theirs["pairings"], strict=True):
        assert_same_keys(mine, given, set())
        assert_same_keys(mine["white"], given["white"], CLOUD_ONLY["player"])
    # An unpaired round of the export has no pairings; the hub has no such round at all.
    assert read_json(EXPORT / "tournament-1/round-2/index.json") == {"pairings": []}


# -- hostile input -----------------------------------------------------------------------------

ODD = [
    "0",
    "-1",
    "2147483648",
    "99999999999999999999",
    "1" * 5000,
    "abc",
    "1e3",
    "0x10",
    "%00",
    "%FF",
    "..%2F..",
    "%EF%BC%91",
    "😀",
]


def test_odd_values_in_any_place_of_any_path_are_a_4xx_never_a_5xx(tmp_path):
    settings = settings_of(tmp_path)
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        paired(client)
        enable(client)
        templates = (
            "/livechess/{}/tournament.json",
            "/livechess/{}/round-1/index.json",
            "/livechess/1/round-{}/index.json",
            "/livechess/{}/round-1/game-1.json",
            "/livechess/1/round-{}/game-1.json",
            "/livechess/1/round-1/game-{}.json",
        )
        for template in templates:
            for value in ODD:
                path = template.format(value)
                answer = client.get(path)
                assert 400 <= answer.status_code < 500, f"{path}: {answer.status_code}"
                assert answer.json()["detail"], path
        for path in (
            "/livechess/1/round-abc/index.json",
            "/livechess/1/round-/index.json",
            "/livechess/1/round-1/game-.json",
            "/livechess/1/round-1/game-1.pgn",
            "/livechess/1/round-1.5/game-1.json",
        ):
            assert 400 <= client.get(path).status_code < 500, path


def test_the_feeds_reads_are_rate_limited_like_every_public_read(tmp_path, still_time):
    settings = settings_of(tmp_path, rate_limit=0.1, rate_burst=3.0)
    with TestClient(create_app(settings)) as client:
        paired(client)
        enable(client)
        codes = [client.get(PATHS[0]).status_code for _ in range(8)]
    assert codes[0] == 200
    assert 429 in codes
