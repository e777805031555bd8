"""Club ladders through the API (docs/ladders.md): keys scoped to one club, results from
officers, from authorised players and from a game played on the hub, edits and deletions
replayed and audited, graded quotas, and the table as JSON and CSV."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session

from relay.store.access import read_audit
from tests.relay.api.helpers import hub_of, setup_round, token

AUTUMN = {
    "name": "Autumn standard",
    "rate": "standard",
    "starts": "2024-09-01",
    "ends": "2024-12-31",
    "min_games": 2,
}
SEASON = {
    "name": "Season, all rates",
    "rate": "all",
    "starts": "2024-09-01",
    "ends": "2025-06-30",
    "graded": True,
    "quota_standard": 2,
}


MEMBERS = (("A", "Able, Ann"), ("B", "Baker, Bob"), ("C", "Cole, Cat"), ("D", "Dunn, Dan"))


def bearer(value: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {value}"}


class Club:
    """A club set up through the API: its admin's, an officer's and a player's keys, four
    members (Dunn not an ECF member) and two overlapping ladders."""

    def __init__(self, client: TestClient, name: str = "Hexham CC") -> None:
        self.client = client
        self.admin = token(client, "admin", user="hub admin")
        self.id = self.ok("POST", "/api/clubs", {"name": name}, self.admin)["id"]
        self.club_admin = self.key("club-admin", self.admin, user=f"{name} secretary")
        self.officer = self.key("club-officer", self.club_admin, user=f"{name} captain")
        self.members = {
            short: self.ok(
                "POST",
                f"/api/clubs/{self.id}/members",
                {"name": name_, "ecf_member": short != "D"},
                self.officer,
            )["id"]
            for short, name_ in MEMBERS
        }
        self.player = self.key("club-player", self.club_admin, member_id=self.members["B"])
        self.autumn = self.ok("POST", f"/api/clubs/{self.id}/ladders", AUTUMN, self.officer)["id"]
        self.season = self.ok("POST", f"/api/clubs/{self.id}/ladders", SEASON, self.officer)["id"]

    def key(self, role: str, by: dict[str, str], **body: Any) -> dict[str, str]:
        answer = self.ok("POST", f"/api/clubs/{self.id}/keys", {"role": role, **body}, by)
        assert answer["role"] == role
        return bearer(answer["token"])

    def ok(self, method: str, path: str, body: Any, headers: dict[str, str]) -> Any:
        answer = self.client.request(method, path, json=body, headers=headers)
        assert answer.status_code == 200, f"{method} {path}: {answer.text}"
        return answer.json()

    def game(self, day: str, white: str, black: str, result: str | None, **more: Any) -> Any:
        body = {
            "played_on": day,
            "rate": more.pop("rate", "standard"),
            "white": self.members[white],
            "black": self.members[black],
            "result": result,
            **more,
        }
        headers = more.pop("headers", None) or self.officer
        body.pop("headers", None)
        return self.ok("POST", f"/api/clubs/{self.id}/games", body, headers)

    def table(self, ladder: int) -> list[tuple[str, int, int, bool]]:
        lines = self.client.get(f"/api/ladders/{ladder}").json()["lines"]
        return [(line["name"], line["points"], line["games"], line["qualified"]) for line in lines]


@pytest.fixture
def club(client) -> Club:
    return Club(client)


def test_a_ladder_from_entries_to_table_with_json_and_csv_agreeing(club, client):
    club.game("2024-09-05", "A", "B", "1-0")  # 50 v 50: A 60, B 40
    club.game("2024-09-12", "B", "A", "1-0")  # B 40 v A 60 (20 apart): low win 14 -> B 54, A 46
    club.game("2024-10-02", "C", "D", "1/2-1/2", rate="rapid")  # the season ladder's only
    assert club.table(club.autumn) == [
        ("Baker, Bob", 54, 2, True),
        ("Able, Ann", 46, 2, True),
    ]
    # The same games count for the overlapping season ladder (rate all), with the rapid one.
    # (min_games 8 there: nobody qualifies yet, all ranked by points).
    assert club.table(club.season) == [
        ("Baker, Bob", 54, 2, False),
        ("Cole, Cat", 50, 1, False),
        ("Dunn, Dan", 50, 1, False),
        ("Able, Ann", 46, 2, False),
    ]
    table = client.get(f"/api/ladders/{club.autumn}").json()
    assert table["club"]["name"] == "Hexham CC"
    assert table["ladder"]["min_games"] == 2
    bob = table["lines"][0]
    assert [(h["opponent_name"], h["before"], h["change"], h["after"]) for h in bob["history"]] == [
        ("Able, Ann", 50, -10, 40),
        ("Able, Ann", 40, 14, 54),
    ]
    answer = client.get(f"/api/ladders/{club.autumn}.csv")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(answer.text)))
    from_csv = [
        (r["place"], r["name"], int(r["points"]), int(r["games"]), r["qualified"] == "yes")
        for r in rows
    ]
    fields = ("place", "name", "points", "games", "qualified")
    assert from_csv == [tuple(line[f] for f in fields) for line in table["lines"]]
    ladders = client.get(f"/api/clubs/{club.id}/ladders").json()
    assert [ladder["name"] for ladder in ladders["ladders"]] == [AUTUMN["name"], SEASON["name"]]


def test_an_edit_and_a_delete_replay_the_ladder_and_are_audited(club, client):
    first = club.game("2024-09-05", "A", "B", "1-0")["game"]["id"]
    club.game("2024-09-12", "B", "A", "1-0")
    path = f"/api/clubs/{club.id}/games/{first}"
    edited = club.ok("PUT", path, {"result": "0-1", "reason": "wrong way round"}, club.officer)
    assert edited["game"]["result"] == "0-1"
    # B beat A twice: 50 v 50 -> B 60, A 40; then B 60 v A 40 (20 apart), high win 6.
    assert club.table(club.autumn) == [("Baker, Bob", 66, 2, True), ("Able, Ann", 34, 2, True)]
    answer = client.delete(path, params={"reason": "not a ladder game"}, headers=club.officer)
    assert answer.status_code == 200
    assert answer.json()["game"]["result"] is None
    # Only the second game is left: B 50 v A 50.
    assert club.table(club.autumn) == [("Baker, Bob", 60, 1, False), ("Able, Ann", 40, 1, False)]
    games = client.get(f"/api/clubs/{club.id}/games").json()
    log = [(e["seq"], e["result"], e["reason"]) for e in games[0]["log"]]
    assert log == [(1, "1-0", ""), (2, "0-1", "wrong way round"), (3, None, "not a ladder game")]
    assert client.delete(path, headers=club.officer).status_code == 409  # deleted already
    with Session(hub_of(client).engine) as session:
        trail = [(e.action, e.target, e.reason) for e in read_audit(session)]
    assert trail[:2] == [
        ("club-result-delete", f"club game {first}", "not a ladder game"),
        ("club-result-edit", f"club game {first}", "wrong way round"),
    ]


def test_a_non_member_is_warned_at_and_over_the_free_quota(club, client):
    assert club.game("2024-09-05", "A", "D", "1-0")["warnings"] == []
    [at] = club.game("2024-09-06", "D", "B", "1-0")["warnings"]
    assert (at["name"], at["rate"], at["games"], at["quota"], at["over"]) == (
        "Dunn, Dan", "standard", 2, 2, False,
    )  # fmt: skip
    [over] = club.game("2024-09-07", "C", "D", "0-1")["warnings"]
    assert over["over"]
    assert "over the free quota of 2" in over["message"]
    assert club.game("2024-09-08", "D", "C", "1-0", rate="rapid")["warnings"] == []
    assert over["season"] == "2024-25"
    assert "in the 2024-25 season" in over["message"]
    # The list is of a season: the one running at the hub by default, or the one asked for.
    # The hub's day is UTC's: half past eleven at night on 31 August is still 2024-25.
    hub_of(client).now = lambda: datetime(2025, 8, 31, 23, 30, tzinfo=UTC).timestamp()
    quota = club.ok("GET", f"/api/clubs/{club.id}/quota", None, club.officer)
    assert [(w["name"], w["games"], w["season"]) for w in quota] == [("Dunn, Dan", 3, "2024-25")]
    hub_of(client).now = lambda: datetime(2025, 9, 1, 0, 30, tzinfo=UTC).timestamp()
    assert club.ok("GET", f"/api/clubs/{club.id}/quota", None, club.officer) == []
    again = club.ok("GET", f"/api/clubs/{club.id}/quota?season=2024", None, club.officer)
    assert again == quota
    # A graded ladder over the turn of the season: August still counts in 2024-25, and
    # September starts the count again.
    turn = {**SEASON, "name": "Summer", "starts": "2025-06-01", "ends": "2026-06-30"}
    club.ok("POST", f"/api/clubs/{club.id}/ladders", turn, club.officer)
    [august] = club.game("2025-08-20", "D", "A", "1-0")["warnings"]
    assert (august["games"], august["season"], august["over"]) == (4, "2024-25", True)
    assert club.game("2025-09-02", "D", "A", "1-0")["warnings"] == []
    assert club.game("2025-09-03", "A", "D", "1-0")["warnings"][0]["games"] == 2
    wrong = client.get(f"/api/clubs/{club.id}/quota?season=24", headers=club.officer)
    assert wrong.status_code == 422


def test_club_keys_act_on_their_own_club_only(club, client):
    other = Club(client, name="Morpeth CC")
    ladder = {**AUTUMN, "name": "Raid"}
    answer = client.post(f"/api/clubs/{other.id}/ladders", json=ladder, headers=club.officer)
    assert answer.status_code == 403
    assert answer.json()["detail"] == (
        f"Hexham CC captain's key is for club {club.id}; this needs admin or a club-officer "
        f"key of club {other.id}"
    )
    # A player key enters nothing but its holder's games, and creates no ladder.
    answer = client.post(f"/api/clubs/{club.id}/ladders", json=ladder, headers=club.player)
    assert answer.status_code == 403
    assert "this needs admin or a club-officer key" in answer.json()["detail"]
    own = club.game("2024-09-05", "B", "C", "1-0", headers=club.player)
    assert own["game"]["log"][0]["by"] == f"club {club.id} member {club.members['B']}"
    body = {"played_on": "2024-09-05", "rate": "standard", "white": club.members["A"],
            "black": club.members["C"], "result": "1-0"}  # fmt: skip
    answer = client.post(f"/api/clubs/{club.id}/games", json=body, headers=club.player)
    assert answer.status_code == 403
    assert "their own games only" not in answer.json()["detail"]  # refused as not an officer
    theirs = club.game("2024-09-06", "A", "C", "1-0")["game"]["id"]
    answer = client.put(
        f"/api/clubs/{club.id}/games/{theirs}", json={"result": "0-1"}, headers=club.player
    )
    assert answer.status_code == 403
    assert "this needs admin or a club-officer key" in answer.json()["detail"]
    # Only the club's admin authorises keys, and only the hub's admin makes a club admin.
    key = {"role": "club-player", "member_id": club.members["A"]}
    assert (
        client.post(f"/api/clubs/{club.id}/keys", json=key, headers=club.officer).status_code == 403
    )
    key = {"role": "club-admin", "user": "usurper"}
    answer = client.post(f"/api/clubs/{club.id}/keys", json=key, headers=club.club_admin)
    assert answer.status_code == 403
    # A club key is nobody outside its club; the tournament roles are nobody inside one.
    round_id, _ = setup_round(client)
    answer = client.post(f"/api/rounds/{round_id}/publish", json={}, headers=club.club_admin)
    assert answer.status_code == 403
    arbiter = token(client, "arbiter", user="chief")
    answer = client.post(f"/api/clubs/{club.id}/members", json={"name": "X, Y"}, headers=arbiter)
    assert answer.status_code == 403
    # Withdrawing a member's authorisation revokes the key.
    revoked = client.delete(
        f"/api/clubs/{club.id}/members/{club.members['B']}/keys", headers=club.club_admin
    )
    assert revoked.json() == {"revoked": 1}
    assert client.get(f"/api/clubs/{club.id}/members", headers=club.player).status_code == 401


def test_a_game_played_on_the_hub_reaches_the_ladder_when_it_ends(club, client):
    _round_id, game_id = setup_round(client)  # published, no delay
    entered = club.game("2024-09-05", "C", "A", None, game_id=game_id)
    assert entered["game"]["result"] is None
    assert club.table(club.autumn) == []
    keyer = token(client, "keyer", user="desk")
    for ply, move in enumerate(("f3", "e5", "g4", "Qh4#"), start=1):
        answer = client.post(
            f"/api/games/{game_id}/entries", json={"ply": ply, "move": move}, headers=keyer
        )
        assert answer.status_code == 200, answer.text
    # Fool's mate: the hub ends the game 0-1, and Ann (Black) takes 10 points from Cat.
    assert club.table(club.autumn) == [("Able, Ann", 60, 1, False), ("Cole, Cat", 40, 1, False)]
    games = client.get(f"/api/clubs/{club.id}/games").json()
    assert (games[0]["board_result"], games[0]["result"], games[0]["log"]) == ("0-1", "0-1", [])
    # The arbiter corrects the result on the hub: the ladder follows.
    arbiter = token(client, "arbiter", user="chief")
    answer = client.post(
        f"/api/games/{game_id}/result", json={"result": "1/2-1/2", "reason": "r"}, headers=arbiter
    )
    assert answer.status_code == 200, answer.text
    assert club.table(club.autumn) == [("Able, Ann", 50, 1, False), ("Cole, Cat", 50, 1, False)]
    # An officer's later entry stands over the board's.
    path = f"/api/clubs/{club.id}/games/{games[0]['id']}"
    club.ok("PUT", path, {"result": "1-0", "reason": "adjudicated"}, club.officer)
    assert club.table(club.autumn) == [("Cole, Cat", 60, 1, False), ("Able, Ann", 40, 1, False)]
    # A game is tagged once per club.
    body = {"played_on": "2024-09-05", "rate": "standard", "white": club.members["A"],
            "black": club.members["C"], "game_id": game_id}  # fmt: skip
    assert (
        client.post(f"/api/clubs/{club.id}/games", json=body, headers=club.officer).status_code
        == 409
    )


def test_a_delayed_hub_game_does_not_count_yet(club, client):
    _, delayed = setup_round(client, name="Delayed", delay=900)
    club.game("2024-09-05", "A", "B", None, game_id=delayed)
    admin = club.admin
    answer = client.post(f"/api/games/{delayed}/result", json={"result": "1-0"}, headers=admin)
    assert answer.status_code == 200
    assert club.table(club.autumn) == []


@pytest.mark.parametrize(
    ("change", "status", "words"),
    [
        ({"ends": "2024-08-01"}, 422, "before it starts"),
        ({"rate": "blitz"}, 422, "rate"),
        ({"min_games": -1}, 422, "min_games"),
        ({"name": ""}, 422, "name"),
    ],
)
def test_a_ladder_that_cannot_be_is_refused_in_words(club, client, change, status, words):
    answer = client.post(
        f"/api/clubs/{club.id}/ladders", json={**AUTUMN, **change}, headers=club.officer
    )
    assert answer.status_code == status
    assert words in json.dumps(answer.json())


@pytest.mark.parametrize(
    ("change", "status"),
    [
        ({"rate": "all"}, 422),
        ({"result": "*"}, 422),
        ({"result": None}, 422),
        ({"white": 999}, 404),
        ({"black": "A"}, 422),
        ({"game_id": 999}, 422),
    ],
)
def test_a_game_that_cannot_be_is_refused(club, client, change, status):
    body = {"played_on": "2024-09-05", "rate": "standard", "white": club.members["A"],
            "black": club.members["B"], "result": "1-0", **change}  # fmt: skip
    answer = client.post(f"/api/clubs/{club.id}/games", json=body, headers=club.officer)
    assert answer.status_code == status, answer.text


def test_unknown_ladders_and_clubs_are_404(client):
    assert client.get("/api/ladders/7").status_code == 404
    assert client.get("/api/ladders/7.csv").status_code == 404
    assert client.get("/api/clubs/7/ladders").json() == {"detail": "no club 7"}


# -- review findings ------------------------------------------------------------------------


def test_a_tagged_game_does_not_stop_the_arbiter_replacing_the_pairings(club, client):
    round_id, game_id = setup_round(client)  # published, not begun
    club.game("2024-09-05", "C", "A", None, game_id=game_id)
    arbiter = token(client, "arbiter", user="chief")
    # Saved again as they were (board 1: player 1 against player 2): the
    # same board has the same players, so the tag moves to the new game.
    path = f"/api/rounds/{round_id}/pairings"
    same = {"games": [[1, 2]]}
    assert client.put(path, json=same, headers=arbiter).status_code == 200
    [again] = client.get(f"/api/rounds/{round_id}/games").json()
    [game] = client.get(f"/api/clubs/{club.id}/games").json()
    assert game["game_id"] == again["id"]
    answer = client.put(path, json={"games": [[2, 1]]}, headers=arbiter)
    assert answer.status_code == 200, answer.text
    # Another pairing on the board: the tag goes (SQLite may give the new pairing the old
    # game's id, and the tag must not follow that game's result); the ladder still reads.
    assert client.get(f"/api/ladders/{club.autumn}").status_code == 200
    [game] = client.get(f"/api/clubs/{club.id}/games").json()
    assert (game["game_id"], game["board_result"], game["result"]) == (None, None, None)
    [new] = client.get(f"/api/rounds/{round_id}/games").json()
    answer = client.post(
        f"/api/games/{new['id']}/result",
        json={"result": "1-0", "reason": "resigned"},
        headers=arbiter,
    )
    assert answer.status_code == 200, answer.text
    [game] = client.get(f"/api/clubs/{club.id}/games").json()
    assert (game["game_id"], game["board_result"]) == (None, None)


def test_only_a_game_of_a_published_round_is_tagged_and_nothing_leaks(club, client):
    _, hidden = setup_round(client, name="Hidden", published=False)
    body = {"played_on": "2024-09-05", "rate": "standard", "white": club.members["A"],
            "black": club.members["B"]}  # fmt: skip
    path = f"/api/clubs/{club.id}/games"
    unpublished = client.post(path, json={**body, "game_id": hidden}, headers=club.officer)
    missing = client.post(path, json={**body, "game_id": 99_999}, headers=club.officer)
    assert (unpublished.status_code, missing.status_code) == (422, 422)
    words = unpublished.json()["detail"].replace(str(hidden), "N")
    assert words == missing.json()["detail"].replace("99999", "N")


def test_officer_names_are_the_clubs_own_and_player_names_are_reserved(club, client):
    other = Club(client, name="Morpeth CC")
    path = f"/api/clubs/{club.id}/keys"
    # Club 1's admin cannot take the name of club 2's player key ...
    squat = {"role": "club-officer", "user": f"club {other.id} member {other.members['A']}"}
    answer = client.post(path, json=squat, headers=club.club_admin)
    assert answer.status_code == 422
    assert "player key" in answer.json()["detail"]
    # ... so club 2 authorises its member, and withdrawing it touches nothing of club 1.
    officer = club.key("club-officer", club.club_admin, user="Treasurer")
    other.key("club-player", other.club_admin, member_id=other.members["A"])
    withdrawn = client.delete(
        f"/api/clubs/{other.id}/members/{other.members['A']}/keys", headers=other.club_admin
    )
    assert withdrawn.json() == {"revoked": 1}
    assert client.get(f"/api/clubs/{club.id}/members", headers=officer).status_code == 200
    # The same name in two clubs is two users.
    twin = other.key("club-officer", other.club_admin, user="Treasurer")
    assert client.get(f"/api/clubs/{other.id}/members", headers=twin).status_code == 200
    # An officer's key named like the club's admin is refused; the admin stays the admin.
    answer = client.post(
        path, json={"role": "club-officer", "user": "Hexham CC secretary"}, headers=club.club_admin
    )
    assert answer.status_code == 422
    assert "club-admin" in answer.json()["detail"]
    key = {"role": "club-player", "member_id": club.members["C"]}
    assert client.post(path, json=key, headers=club.club_admin).status_code == 200
    # The club's admin withdraws an officer's keys.
    answer = client.delete(
        f"/api/clubs/{club.id}/officers/keys", params={"user": "Treasurer"}, headers=club.club_admin
    )
    assert answer.json() == {"revoked": 1}
    assert client.get(f"/api/clubs/{club.id}/members", headers=officer).status_code == 401
    assert client.get(f"/api/clubs/{other.id}/members", headers=twin).status_code == 200


def test_a_player_enters_new_games_only_and_an_officer_restores_a_deleted_one(club, client):
    own = club.game("2024-09-05", "B", "C", "1-0", headers=club.player)["game"]["id"]
    path = f"/api/clubs/{club.id}/games/{own}"
    answer = client.put(path, json={"result": "0-1"}, headers=club.player)
    assert answer.status_code == 403
    assert "this needs admin or a club-officer key" in answer.json()["detail"]
    assert client.delete(path, headers=club.player).status_code == 403
    assert club.table(club.autumn) == [("Baker, Bob", 60, 1, False), ("Cole, Cat", 40, 1, False)]
    # An officer deletes it, then restores it with a result.
    assert client.delete(path, headers=club.officer).status_code == 200
    assert client.delete(path, headers=club.officer).status_code == 409
    assert club.table(club.autumn) == []
    restored = club.ok("PUT", path, {"result": "1-0", "reason": "restored"}, club.officer)
    assert restored["game"]["result"] == "1-0"
    assert club.table(club.autumn) == [("Baker, Bob", 60, 1, False), ("Cole, Cat", 40, 1, False)]


def test_a_deleted_tagged_game_may_be_tagged_again(club, client):
    _, game_id = setup_round(client)
    first = club.game("2024-09-05", "C", "A", None, game_id=game_id)["game"]["id"]
    path = f"/api/clubs/{club.id}/games/{first}"
    assert client.delete(path, headers=club.officer).status_code == 200
    club.game("2024-09-05", "A", "C", None, game_id=game_id)  # the colours put right


def test_the_csv_neutralises_cells_a_spreadsheet_would_run(club, client):
    evil = '=HYPERLINK("http://evil","x")'
    club.ok("PUT", f"/api/clubs/{club.id}/members/{club.members['A']}", {"name": evil},
            club.officer)  # fmt: skip
    club.ok("PUT", f"/api/clubs/{club.id}/members/{club.members['B']}", {"name": "@SUM(1)"},
            club.officer)  # fmt: skip
    club.game("2024-09-05", "A", "B", "1-0")
    rows = list(csv.DictReader(io.StringIO(client.get(f"/api/ladders/{club.autumn}.csv").text)))
    assert [row["name"] for row in rows] == ["'" + evil, "'@SUM(1)"]
    assert [row["points"] for row in rows] == ["60", "40"]


def test_results_are_worked_out_off_the_store_thread_and_the_games_are_paged(
    club, client, monkeypatch
):
    import threading

    import relay.hub.ladders

    threads = []
    club_state = relay.hub.ladders.club_state

    def watched(*args, **kwargs):
        threads.append(threading.current_thread().name)
        return club_state(*args, **kwargs)

    monkeypatch.setattr(relay.hub.ladders, "club_state", watched)
    first = club.game("2024-09-05", "A", "B", "1-0")["game"]["id"]
    club.ok("PUT", f"/api/clubs/{club.id}/games/{first}", {"result": "0-1"}, club.officer)
    club.game("2024-09-06", "C", "D", "1-0")
    assert threads
    assert not [name for name in threads if name.startswith("relay-store")]
    path = f"/api/clubs/{club.id}/games"
    assert [g["id"] for g in client.get(path, params={"limit": 1}).json()] == [first]
    assert [g["id"] for g in client.get(path, params={"offset": 1}).json()] == [first + 1]
    assert client.get(path, params={"limit": 501}).status_code == 422


def test_a_board_result_counts_as_the_public_saw_it_at_the_cut(club, client):
    from relay.store.event_log import read_events

    _, game_id = setup_round(client, delay=60)
    club.game("2024-09-05", "C", "A", None, game_id=game_id)
    keyer = token(client, "keyer", user="desk")
    for ply, move in enumerate(("f3", "e5", "g4", "Qh4#"), start=1):
        answer = client.post(
            f"/api/games/{game_id}/entries", json={"ply": ply, "move": move}, headers=keyer
        )
        assert answer.status_code == 200, answer.text
    arbiter = token(client, "arbiter", user="chief")
    answer = client.post(
        f"/api/games/{game_id}/result", json={"result": "1/2-1/2", "reason": "r"}, headers=arbiter
    )
    assert answer.status_code == 200, answer.text
    hub = hub_of(client)
    with Session(hub.engine) as session:
        times = [e.recorded_at for e in read_events(session, game_id=game_id)]
    # The public, 60 s behind, sees the mate (0-1) but not yet the arbiter's correction.
    cut = (times[-2] + times[-1]) / 2

    async def table(now: float) -> list[tuple[int, int]]:
        view = await hub.ladders.ladder(ladder_id=club.autumn, now=now)
        return [(line.player, line.points) for line in view.standings]

    assert client.portal is not None
    assert client.portal.call(table, cut + 60) == [(club.members["A"], 60), (club.members["C"], 40)]
    assert client.portal.call(table, times[-1] + 61) == [
        (club.members["A"], 50), (club.members["C"], 50),
    ]  # fmt: skip
    assert client.portal.call(table, times[0]) == []
