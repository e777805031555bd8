"""Correspondence events through the API, whole games walked through the IECG rules on a
clock the test moves a day at a time (docs/correspondence.md): the round robin and its
keys, moves in turn, a flag at move 10, leave stopping one clock and cancelled by a move, a
31-day move forfeited, the TS's list, and hostile input."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from typing import Any

import chess.pgn
import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session

from relay.api.app import create_app
from relay.config import Settings
from relay.hub.correspondence import CorrespondenceDesk
from relay.store.event_log import read_events
from tests.relay.api.helpers import hub_of, token
from tests.smtp_server import HOST, Inbox, serve
from tests.stores import migrated_sqlite

START = date(2027, 3, 1)
DATA = Path(__file__).resolve().parents[2] / "data"


class Days:
    """The hub's clock: noon UTC of ``today``."""

    def __init__(self, today: date) -> None:
        self.today = today

    def now(self) -> float:
        return datetime.combine(self.today, time(12), UTC).timestamp()

    def to(self, day: date) -> None:
        assert day >= self.today
        self.today = day


class Event:
    """A correspondence event of four players on the test's days."""

    def __init__(
        self, client: TestClient, control: str = "standard", format: str = "class"
    ) -> None:
        self.client = client
        self.days = Days(START)
        hub_of(client).now = self.days.now
        self.arbiter = token(client, "arbiter")
        body = {
            "name": "IECG Class B 27",
            "control": control,
            "format": format,
            "started": START.isoformat(),
            "ts_email": "ts@iecg.example",
            "players": [
                {"name": "Alder, Ann", "email": "ann@example.org"},
                {"name": "Birch, Ben", "email": "ben@example.org", "time_zone": "Europe/Oslo"},
                {"name": "Cedar, Cy"},
                {"name": "Dogwood, Di"},
            ],
        }
        answer = client.post("/api/correspondence", json=body, headers=self.arbiter)
        assert answer.status_code == 201, answer.text
        self.created = answer.json()
        self.tournament_id = self.created["tournament_id"]
        self.keys = {
            key["name"]: {"Authorization": f"Bearer {key['key']}"} for key in self.created["keys"]
        }
        self.rounds = [
            r for r in client.get("/api/rounds").json() if r["tournament_id"] == self.tournament_id
        ]
        games = client.get(f"/api/rounds/{self.rounds[0]['id']}/games").json()
        self.game = games[0]
        self.game_id = self.game["id"]
        self.white = self.keys[self.game["white"]["name"]]
        self.black = self.keys[self.game["black"]["name"]]

    def on(self, day: date) -> Event:
        self.days.to(day)
        return self

    def move(self, ply: int, san: str, who: dict[str, str] | None = None) -> Any:
        who = who or (self.white if ply % 2 else self.black)
        return self.client.post(
            f"/api/correspondence/games/{self.game_id}/moves",
            json={"ply": ply, "move": san},
            headers=who,
        )

    def game_days(self, headers: dict[str, str] | None = None) -> dict[str, Any]:
        answer = self.client.get(f"/api/correspondence/games/{self.game_id}", headers=headers)
        assert answer.status_code == 200, answer.text
        return answer.json()  # type: ignore[no-any-return]

    def sweep(self) -> list[dict[str, Any]]:
        """What the hub did now in the test's game (the event's other games, unplayed,
        have their own flags falling)."""
        answer = self.client.post(
            f"/api/correspondence/{self.tournament_id}/sweep", headers=self.arbiter
        )
        assert answer.status_code == 200, answer.text
        return [item for item in answer.json() if item["game_id"] == self.game_id]

    def result(self) -> str:
        return str(
            self.client.get(f"/api/games/{self.game_id}", headers=self.arbiter).json()["result"]
        )


@pytest.fixture
def client(tmp_path) -> Iterator[TestClient]:
    settings = Settings(db_url=migrated_sqlite(tmp_path / "cc.db"), rate_limit=0)
    with TestClient(create_app(settings)) as client:
        yield client


def test_a_round_robin_of_four_is_six_games_in_three_rounds_with_a_key_each(client):
    event = Event(client)
    assert event.created["games"] == 6
    assert len(event.created["keys"]) == 4
    assert [r["number"] for r in event.rounds] == [1, 2, 3]
    assert all(r["published"] for r in event.rounds)
    listed = client.get("/api/correspondence").json()
    assert listed == [
        {
            "tournament_id": event.tournament_id,
            "name": "IECG Class B 27",
            "control": "standard",
            "format": "class",
            "started": START.isoformat(),
        }
    ]
    days = event.game_days()
    assert days["to_move"] == "white"
    # Standard: 40 days for the first 10 moves (C.6.A), nothing used yet.
    assert days["white"] | {"decision": None} == {
        "moves": 0, "used": 0, "next_control": 10, "allowance": 40, "left": 40, "decision": None
    }  # fmt: skip
    assert days["due"] == []  # the public sees no due list
    assert days["you"] is None
    assert event.game_days(event.black)["you"] == "black"  # the side a player's key plays


def test_moves_go_in_turn_each_with_its_players_key(client):
    event = Event(client)
    assert event.move(1, "e4").status_code == 200
    assert event.move(1, "e4").json()["repeated"] is True  # sent again: acknowledged
    wrong_side = event.move(2, "e5", who=event.white)
    assert wrong_side.status_code == 409
    assert "Black's move" in wrong_side.json()["detail"]
    stranger = next(k for n, k in event.keys.items() if k not in (event.white, event.black))
    assert event.move(2, "e5", who=stranger).status_code == 409
    assert event.move(2, "e9").status_code == 422  # no such move
    event.on(START + timedelta(days=3))
    assert event.move(2, "e5").status_code == 200
    days = event.game_days()
    assert days["sent"] == [START.isoformat(), (START + timedelta(days=3)).isoformat()]
    # Black received e4 on the 2nd (one day of transmission, C.2.B) and replied on the 4th:
    # two days (C.6.D).
    assert days["black"]["used"] == 2
    assert days["to_move"] == "white"


# 1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4 Nf6 5.O-O Be7 6.Re1 b5 7.Bb3 d6 8.c3 O-O 9.h3 Nb8
RUY_LOPEZ = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5",
             "Bb3", "d6", "c3", "O-O", "h3", "Nb8"]  # fmt: skip


def test_a_flag_falls_at_move_10(client):
    # White takes 4 days a move and Black answers the day each move is sent. Move 1: from
    # the start (no transmission day) to the 4th day. Every later White move: Black's reply
    # sent on day B, received B+1, White's answer on B+5: 4 days. After 9 moves White has
    # used 36 of the 40 days the control at move 10 allows (C.6.A). Silent on move 10: by
    # B+5 4 days (40, still in time); on B+6 5 days, 41: the flag falls (C.6.B) and Black
    # wins. Nothing doubles: no move takes more than 10 days (C.3.1.B).
    event = Event(client)
    day = START
    for number in range(9):
        day += timedelta(days=4 if number == 0 else 5)
        assert event.on(day).move(2 * number + 1, RUY_LOPEZ[2 * number]).status_code == 200
        assert event.move(2 * number + 2, RUY_LOPEZ[2 * number + 1]).status_code == 200
    assert event.game_days()["white"]["used"] == 36
    event.on(day + timedelta(days=5))
    assert [item["due"]["kind"] for item in event.sweep()] == []
    assert event.game_days()["white"]["left"] == 0
    event.on(day + timedelta(days=6))
    acted = event.sweep()
    assert [(a["due"]["kind"], a["due"]["side"], a["due"]["article"]) for a in acted] == [
        ("flag", "white", "C.6.B")
    ]
    assert event.result() == "0-1"
    assert event.sweep() == []  # once
    late = event.move(19, "d4")
    assert late.status_code == 409
    assert "over" in late.json()["detail"]


def test_a_leave_stops_only_its_players_clock(client):
    # White plays e4 on the start day. Black, on the 2nd, announces a leave for the 4th to
    # the 13th (10 days, in advance: C.8.B). On the 16th Black has had the dates after the
    # 2nd (his day of receipt) up to the 16th: 14 days, 10 of them leave (C.8.A), so 4
    # count. White's clock is not stopped: it is not White's move.
    event = Event(client)
    assert event.move(1, "e4").status_code == 200
    event.on(START + timedelta(days=1))
    leave = client.post(
        f"/api/correspondence/{event.tournament_id}/leave",
        json={"first": "2027-03-04", "last": "2027-03-13"},
        headers=event.black,
    )
    assert leave.status_code == 201, leave.text
    event.on(START + timedelta(days=15))
    days = event.game_days()
    assert days["black"]["used"] == 4
    assert days["white"]["used"] == 0
    assert days["black_leaves"] == [
        {"announced": "2027-03-02", "first": "2027-03-04", "last": "2027-03-13"}
    ]


def test_a_move_during_the_leave_ends_it_for_that_game(client):
    # As above, but Black moves on the 6th, in his leave: the 4th and 5th stay leave, from
    # the 6th on the game counts normal time (C.8.C). Black's move 1: dates after the 2nd to
    # the 6th, 4, less 2 of leave: 2 days. White answers the same day (0 days). Black's move
    # 2 from the 6th: received the 7th; on the 11th, 4 days that count (8th to 11th), though
    # they are in his leave: 2 + 4 = 6. Were the leave not ended, 2 + 0.
    event = Event(client)
    assert event.move(1, "e4").status_code == 200
    event.on(START + timedelta(days=1))
    client.post(
        f"/api/correspondence/{event.tournament_id}/leave",
        json={"first": "2027-03-04", "last": "2027-03-13"},
        headers=event.black,
    )
    event.on(START + timedelta(days=5))
    assert event.move(2, "e5").status_code == 200
    assert event.move(3, "Nf3").status_code == 200
    event.on(START + timedelta(days=10))
    assert event.game_days()["black"]["used"] == 6


def test_a_leave_the_rules_do_not_grant_is_refused_in_words(client):
    event = Event(client)
    today = client.post(
        f"/api/correspondence/{event.tournament_id}/leave",
        json={"first": START.isoformat(), "last": "2027-03-05"},
        headers=event.black,
    )
    assert today.status_code == 409
    assert "in advance" in today.json()["detail"]
    too_long = client.post(
        f"/api/correspondence/{event.tournament_id}/leave",
        json={"first": "2027-03-10", "last": "2027-05-10"},
        headers=event.black,
    )
    assert too_long.status_code == 409
    assert "45" in too_long.json()["detail"]


def test_a_31_day_move_is_forfeited(client):
    # White, to make move 1, sends a notice of delay on the 3rd (C.3.1.B): his time doubles
    # only from the 21st day. On day 30 (the 31st of March) he has used 20 + 2 x 10 = 40,
    # still in time, but for a single move 30 days is the most (C.3.1.A). On day 31 both the
    # flag (42 > 40) and the 31-day move fall due: the single-move ruling first, the game
    # forfeited.
    event = Event(client)
    event.on(START + timedelta(days=2))
    notice = client.post(f"/api/correspondence/games/{event.game_id}/notice", headers=event.white)
    assert notice.json() == {"kept": True}
    event.on(START + timedelta(days=30))
    kinds = [item["due"]["kind"] for item in event.sweep()]
    assert "forfeit" not in kinds
    assert "flag" not in kinds
    assert event.result() == "*"
    event.on(START + timedelta(days=31))
    acted = event.sweep()
    assert [(a["due"]["kind"], a["due"]["article"]) for a in acted] == [("forfeit", "C.3.1.A")]
    assert event.result() == "0-1"


@pytest.fixture
def mailed(tmp_path) -> Iterator[tuple[TestClient, Inbox]]:
    """A hub with an SMTP server (the test's own), and what the server receives."""
    inbox = Inbox()
    for port in serve(inbox):
        settings = Settings(
            db_url=migrated_sqlite(tmp_path / "mail.db"),
            rate_limit=0,
            smtp=f"{HOST}:{port}",
            smtp_sender="relay@iecg.example",
            public_url="https://relay.iecg.example",
        )
        with TestClient(create_app(settings)) as client:
            yield client, inbox


def test_the_ts_list_shows_what_is_due_and_when_it_was_done(mailed):
    # White silent for 11 days: from the 11th day his time counts double (C.3.1.B), and
    # Black reminds him, copy to the TS (C.3.1.C); the hub writes both letters.
    client, _ = mailed
    event = Event(client)
    event.on(START + timedelta(days=11))
    url = f"/api/correspondence/{event.tournament_id}/due"
    due = client.get(url, headers=event.arbiter).json()
    mine = [item for item in due if item["game_id"] == event.game_id]
    assert {(i["due"]["kind"], i["due"]["side"], i["done_on"]) for i in mine} == {
        ("doubled-time", "white", None),
        ("reminder", "black", None),
    }
    assert {d["kind"] for d in event.game_days(event.white)["due"]} == {
        "doubled-time", "reminder"
    }  # fmt: skip
    assert {(a["due"]["kind"], a["done_on"]) for a in event.sweep()} == {
        ("doubled-time", "2027-03-12"), ("reminder", "2027-03-12")
    }  # fmt: skip
    done = client.get(url, headers=event.arbiter).json()
    # The reminder went out: it is no longer due; the doubling goes on, done (noted) today.
    assert {(i["due"]["kind"], i["done_on"]) for i in done if i["game_id"] == event.game_id} == {
        ("doubled-time", "2027-03-12")
    }
    assert event.sweep() == []  # each once
    assert client.get(url, headers=event.white).status_code == 403


def test_without_a_mail_server_letters_stay_due_and_rulings_are_made(client):
    # No SMTP server: the reminder cannot go, so it is not done and stays on the TS's list
    # (the rules count the next step from the day it goes); a flag is ruled all the same.
    event = Event(client)
    event.on(START + timedelta(days=11))
    assert event.sweep() == []
    due = client.get(f"/api/correspondence/{event.tournament_id}/due", headers=event.arbiter)
    assert ("reminder", None) in {
        (i["due"]["kind"], i["done_on"]) for i in due.json() if i["game_id"] == event.game_id
    }
    event.on(START + timedelta(days=40))
    assert [a["due"]["kind"] for a in event.sweep()] == ["flag"]
    assert event.result() == "0-1"


def test_two_sweeps_at_once_act_once(client):
    # The hourly sweep and the TS's at the same moment: one ruling per flag, not two.
    event = Event(client)
    event.on(START + timedelta(days=40))
    hub = hub_of(client)

    async def both() -> list[list[Any]]:
        return list(await asyncio.gather(
            hub.correspondence.sweep(event.tournament_id),
            hub.correspondence.sweep(event.tournament_id),
        ))  # fmt: skip

    assert client.portal is not None
    first, second = client.portal.call(both)
    assert len(first) + len(second) == 6  # six games, each White's flag once
    with Session(hub.engine) as session:
        logged = [e.kind for e in read_events(session, game_id=event.game_id)]
    assert logged.count("result") == 1


def another_process(client: TestClient) -> CorrespondenceDesk:
    """The correspondence desk of a second hub process on the same store: locks and a
    lease holder of its own."""
    hub = hub_of(client)
    other = CorrespondenceDesk(hub.recorder, hub.views, hub.desk, lambda: hub.now())
    assert other.holder != hub.correspondence.holder
    return other


def test_two_hub_processes_sweeping_at_once_act_once(client):
    # A second hub process on the same store: its own desk, with locks of its own; the
    # event's lease in the store lets one sweep it at a time.
    event = Event(client)
    event.on(START + timedelta(days=40))
    hub = hub_of(client)
    other = another_process(client)

    async def both() -> list[list[Any]]:
        return list(await asyncio.gather(
            hub.correspondence.sweep(event.tournament_id),
            other.sweep(),  # the hourly one: every event
        ))  # fmt: skip

    assert client.portal is not None
    first, second = client.portal.call(both)
    assert len(first) + len(second) == 6  # six games, each White's flag once
    assert [] in (first, second)  # one swept, the other waited and found nothing to do
    with Session(hub.engine) as session:
        logged = [e.kind for e in read_events(session, game_id=event.game_id)]
    assert logged.count("result") == 1


def test_a_sweep_waits_for_another_process_then_is_told_to_try_again(client):
    event = Event(client)
    event.on(START + timedelta(days=40))
    second = Event(client)  # another event: its own lease
    second.on(START + timedelta(days=40))  # the hub's day from now on
    hub = hub_of(client)
    other = another_process(client)
    assert client.portal is not None
    lease = other.lease_of(event.tournament_id)
    assert client.portal.call(lease.take)  # the other process is sweeping the event
    hub.correspondence.sweep_wait = 0.3
    # The TS's "act now" waits, then is told to try again; a player's move too.
    answer = client.post(f"/api/correspondence/{event.tournament_id}/sweep", headers=event.arbiter)
    assert answer.status_code == 503
    assert "another sweep of correspondence event" in answer.json()["detail"]
    # White's flag fell long ago: the move waits for the sweep, and is not taken without it.
    assert event.move(1, "e4").status_code == 503
    assert event.result() == "*"
    # The hourly sweep leaves that event to its sweep and does the others.
    acted = client.portal.call(hub.correspondence.sweep)
    seconds = {
        game["id"]
        for round_ in second.rounds
        for game in client.get(f"/api/rounds/{round_['id']}/games").json()
    }
    assert {item.game_id for item in acted} == seconds
    client.portal.call(lease.give_back)
    assert [a["due"]["kind"] for a in event.sweep()] == ["flag"]
    assert event.result() == "0-1"


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"started": "0001-01-01"}, "between"),
        ({"players": [{"name": "Solo, Sam"}]}, "players"),
        ({"players": [{"name": "A, A", "time_zone": "Mars/Olympus"}, {"name": "B, B"}]}, "zone"),
        ({"players": [{"name": "A, A", "email": "a@b\r\nBcc: all@x"}, {"name": "B, B"}]}, ""),
        ({"players": [{"name": "A, A"}, {"name": "A, A"}]}, "twice"),
        ({"control": "blitz"}, ""),
    ],
)
def test_an_event_that_cannot_be_is_refused_with_a_4xx(client, change, words):
    body = {
        "name": "Hostile",
        "control": "standard",
        "format": "class",
        "started": "2027-01-01",
        "players": [{"name": "A, A"}, {"name": "B, B"}],
    } | change
    answer = client.post("/api/correspondence", json=body, headers=token(client, "arbiter"))
    assert answer.status_code == 422, answer.text
    assert words in answer.text
    assert client.get("/api/correspondence").json() == []


def test_leave_dates_out_of_range_are_refused(client):
    event = Event(client)
    answer = client.post(
        f"/api/correspondence/{event.tournament_id}/leave",
        json={"first": "9999-12-30", "last": "9999-12-31"},
        headers=event.black,
    )
    assert answer.status_code == 422


def test_reminders_go_by_email_once(tmp_path):
    # White silent for 11 days (C.3.1.B-C): the hub writes to White, copy to the TS, that
    # Black is waiting for his move, and warns him that his time now counts double; a
    # second sweep the same day writes nothing more.
    inbox = Inbox()
    for port in serve(inbox):
        settings = Settings(
            db_url=migrated_sqlite(tmp_path / "mail.db"),
            rate_limit=0,
            smtp=f"{HOST}:{port}",
            smtp_sender="relay@iecg.example",
            public_url="https://relay.iecg.example",
        )
        with TestClient(create_app(settings)) as client:
            event = Event(client)
            event.on(START + timedelta(days=11)).sweep()
            event.sweep()
    ours = [m for m in inbox.messages() if f"(game {event.game_id})" in m["Subject"]]
    assert sorted(m["To"] for m in ours) == ["ann@example.org", "ann@example.org, ts@iecg.example"]
    reminder = next(m for m in ours if "ts@" in m["To"])
    assert reminder["From"] == "relay@iecg.example"
    assert "C.3.1.C" in reminder.get_content()
    assert f"https://relay.iecg.example/correspondence?game={event.game_id}" in (
        reminder.get_content()
    )


def test_a_conditional_sequence_is_played_until_the_opponent_deviates(client):
    # White sends 1.e4 with "if 1...e5 then 2.Nf3; if 2...Nc6 then 3.Bb5" (C.4.E). Black
    # plays 1...e5 three days later: 2.Nf3 is played at once in White's name, the same day,
    # so White's second move takes no day. Black then plays 2...Nf6, not the Nc6 expected:
    # the sequence ends, and White is to move himself.
    event = Event(client)
    assert event.move(1, "e4").status_code == 200
    url = f"/api/correspondence/games/{event.game_id}/conditional"
    line = {"steps": [["e5", "Nf3"], ["Nc6", "Bb5"]]}
    assert client.post(url, json=line, headers=event.black).status_code == 409  # not his
    proposed = client.post(url, json=line, headers=event.white)
    assert proposed.status_code == 200, proposed.text
    assert proposed.json()["steps"] == 2
    event.on(START + timedelta(days=3))
    assert event.move(2, "e5").status_code == 200
    game = client.get(f"/api/games/{event.game_id}", headers=event.arbiter).json()
    assert [m["san"] for m in game["moves"]] == ["e4", "e5", "Nf3"]
    days = event.game_days()
    assert days["to_move"] == "black"
    assert days["white"]["used"] == 0  # e4 on the start day, Nf3 at once
    assert event.move(4, "Nf6").status_code == 200
    game = client.get(f"/api/games/{event.game_id}", headers=event.arbiter).json()
    assert [m["san"] for m in game["moves"]] == ["e4", "e5", "Nf3", "Nf6"]
    assert event.game_days()["to_move"] == "white"


def test_a_conditional_move_that_is_not_legal_is_refused_in_words(client):
    event = Event(client)
    assert event.move(1, "e4").status_code == 200
    answer = client.post(
        f"/api/correspondence/games/{event.game_id}/conditional",
        json={"steps": [["e5", "Ke3"]]},
        headers=event.white,
    )
    assert answer.status_code == 422
    assert "Ke3" in answer.text


def test_a_withdrawal_with_a_third_finished_forfeits_all_on_the_table_but_rates_the_real(client):
    # Ann (White here) mates Di at once (1.e4 f6 2.d4 g5 3.Qh5#), then withdraws with one of
    # her three games finished: 33%, at most half (C.9.B.a): on the table all three are
    # forfeit wins for her opponents, the mate too; the rating run keeps her real win
    # (E.VIII), and her two unfinished games end, never rated.
    event = Event(client)
    for ply, san in enumerate(["e4", "f6", "d4", "g5", "Qh5#"], start=1):
        assert event.move(ply, san).status_code == 200
    assert event.result() == "1-0"
    names = {line["name"]: line["player_id"] for line in client.get(
        f"/api/correspondence/{event.tournament_id}/table").json()}  # fmt: skip
    ann = names["Alder, Ann"]
    url = f"/api/correspondence/{event.tournament_id}/withdrawals"
    body = {"player_id": ann, "kind": "announced"}
    assert client.post(url, json=body, headers=event.white).status_code == 403
    done = client.post(url, json=body, headers=event.arbiter)
    assert done.status_code == 201, done.text
    assert done.json() | {"on": None} == {
        "player_id": ann, "kind": "announced", "on": None, "finished": 1, "games": 3,
        "all_forfeited": True,
    }  # fmt: skip
    assert client.post(url, json=body, headers=event.arbiter).status_code == 409  # once
    table = client.get(f"/api/correspondence/{event.tournament_id}/table").json()
    lines = {line["name"]: line for line in table}
    assert lines["Alder, Ann"]["points"] == 0
    assert lines["Alder, Ann"]["forfeits_lost"] == 3
    assert lines["Dogwood, Di"]["points"] == 1
    assert lines["Dogwood, Di"]["forfeits_won"] == 1
    assert table[-1]["name"] == "Alder, Ann"
    rated = client.get(f"/api/correspondence/{event.tournament_id}/rated").json()
    assert rated == [{"white_id": ann, "black_id": names["Dogwood, Di"], "result": "1-0"}]


def adjudicate(event: Event, step: str, who: dict[str, str], body: Any = None) -> Any:
    path = f"/api/correspondence/games/{event.game_id}/adjudication"
    return event.client.post(path + (f"/{step}" if step else ""), json=body, headers=who)


def a_year_of_play(event: Event) -> list[str]:
    """The game's first 92 plies (Kasparov-Kramnik, from the test corpus), a ply every 4
    days from the start: each player answers in 3 days (received the day after it was
    sent, C.2.B), well inside 40 days for 10 moves, so no flag falls before the last ply
    on 28 February 2028. The game's moves, all of them."""
    with open(DATA / "real-games.pgn", encoding="utf-8") as games:
        for _ in range(7):
            game = chess.pgn.read_game(games)
    assert game is not None
    sans = []
    board = game.board()
    for move in game.mainline_moves():
        sans.append(board.san(move))
        board.push(move)
    for ply, san in enumerate(sans[:92], start=1):
        assert event.on(START + timedelta(days=4 * (ply - 1))).move(ply, san).status_code == 200
    return sans


def test_a_game_past_the_global_limit_is_adjudicated_and_appealed(client):
    # A two-game match must be over 12 months after its start (C.15.A): 1 March 2027 + 12
    # months = 1 March 2028. The game is still going then. The TS asks; White will not go
    # on, so the game goes to adjudication that day and claims are due within 14 days, by
    # 15 March (C.10.A). White claims the win with analysis, Black a draw without: only
    # White may appeal (C.10.B). The adjudicator's draw, notified on the 20th, is appealed
    # by White on the 25th; the second adjudicator's win for White is final (C.11.A), and
    # the game's.
    event = Event(client, format="two-game match")
    sans = a_year_of_play(event)
    event.on(date(2028, 2, 29))
    early = adjudicate(event, "", event.arbiter)
    assert early.status_code == 409
    assert "2028-03-01" in early.json()["detail"]
    event.on(date(2028, 3, 1))
    asked = adjudicate(event, "", event.arbiter)
    assert asked.status_code == 201, asked.text
    assert asked.json()["stage"] == "asked"
    assert adjudicate(event, "consent", event.white, {"go_on": False}).json()["stage"] == "asked"
    referred = adjudicate(event, "consent", event.black, {"go_on": True}).json()
    assert (referred["stage"], referred["claim_deadline"]) == ("claims", "2028-03-15")
    assert event.move(93, sans[92]).status_code == 409  # with the adjudicator now
    event.on(date(2028, 3, 5))
    claim = {"result": "1-0", "analysis": "The passed pawn decides: 47.a6 wins."}
    assert adjudicate(event, "claim", event.white, claim).status_code == 200
    assert adjudicate(event, "claim", event.white, claim).status_code == 409  # once each
    assert adjudicate(event, "claim", event.black, {"result": "1-0"}).status_code == 422
    assert adjudicate(event, "claim", event.black, {"result": "1/2-1/2"}).status_code == 200
    event.on(date(2028, 3, 20))
    decided = adjudicate(event, "decision", event.arbiter, {"result": "1/2-1/2"}).json()
    assert (decided["stage"], decided["may_appeal"]) == ("decided", ["white"])
    assert event.result() == "*"  # not final while White may appeal
    event.on(date(2028, 3, 25))
    refused = adjudicate(event, "appeal", event.black)
    assert refused.status_code == 409
    assert "no analysis" in refused.json()["detail"]
    assert adjudicate(event, "appeal", event.white).json()["stage"] == "appealed"
    final = adjudicate(event, "ruling", event.arbiter, {"result": "1-0"}).json()
    assert (final["stage"], final["result"], final["appellant"]) == ("final", "1-0", "white")
    assert event.result() == "1-0"
    shown = client.get(f"/api/correspondence/games/{event.game_id}/adjudication").json()
    assert [c["side"] for c in shown["claims"]] == ["white", "black"]
    # Over: no more steps.
    assert adjudicate(event, "", event.arbiter).status_code == 409


def test_a_decision_nobody_appeals_becomes_final_after_14_days(client):
    # Both decline to go on; White claims with analysis, so he may appeal the decision
    # (C.10.B), notified on 20 March, until 3 April (C.11.A). He does not: on 4 April the
    # sweep makes the decision final, and the game's result.
    event = Event(client, format="two-game match")
    a_year_of_play(event)
    event.on(date(2028, 3, 1))
    adjudicate(event, "", event.arbiter)
    adjudicate(event, "consent", event.white, {"go_on": False})
    adjudicate(event, "consent", event.black, {"go_on": False})
    adjudicate(event, "claim", event.white, {"result": "1-0", "analysis": "White is winning."})
    event.on(date(2028, 3, 20))
    assert (
        adjudicate(event, "decision", event.arbiter, {"result": "0-1"}).json()["appeal_deadline"]
        == "2028-04-03"
    )
    event.on(date(2028, 4, 3))
    event.sweep()
    assert event.result() == "*"
    event.on(date(2028, 4, 4))
    event.sweep()
    assert event.result() == "0-1"
    assert (
        client.get(f"/api/correspondence/games/{event.game_id}/adjudication").json()["stage"]
        == "final"
    )


def test_a_flag_that_fell_before_the_limit_stands_and_nothing_is_adjudicated(client):
    # Nobody moves for 18 months: White's flag fell long ago (C.6.B). When the TS asks
    # after the limit, the hub first applies what fell due: the game is over, 0-1.
    event = Event(client)
    event.on(date(2028, 9, 1))
    refused = adjudicate(event, "", event.arbiter)
    assert refused.status_code == 409
    assert event.result() == "0-1"


def test_the_rating_list_counts_the_finished_games_of_the_period(client):
    # Ann mates Di on 1 March 2027, in period 2027-2 (March-April, E.II.1). Nobody has six
    # games: no rating is published, each is listed with the starting rating of 800 as the
    # Tournament Entry Rating (E.III.3, E.VII.3), with the game counted.
    event = Event(client)
    for ply, san in enumerate(["e4", "f6", "d4", "g5", "Qh5#"], start=1):
        assert event.move(ply, san).status_code == 200
    answer = client.get("/api/correspondence/ratings", params={"period": "2027-2"})
    assert answer.status_code == 200, answer.text
    listed = answer.json()
    assert listed["period"] == "2027-2"
    assert listed["run_date"] == "2027-05-01"  # the first Saturday of May (E.II.2)
    lines = {line["name"]: line for line in listed["lines"]}
    assert set(lines) == {"Alder, Ann", "Birch, Ben", "Cedar, Cy", "Dogwood, Di"}
    assert {k: lines["Alder, Ann"][k] for k in ("rating", "ter", "games", "wins", "indicator")} == {
        "rating": None, "ter": 800, "games": 1, "wins": 1, "indicator": "T"
    }  # fmt: skip
    assert lines["Dogwood, Di"]["losses"] == 1
    csv = client.get("/api/correspondence/ratings.csv", params={"period": "2027-2"})
    assert csv.headers["content-type"].startswith("text/csv")
    assert csv.text.splitlines()[0].startswith("position,class position,")
    assert client.get("/api/correspondence/ratings", params={"period": "2027-7"}).status_code == 422


def test_an_arbiters_correction_keeps_the_day_the_move_was_sent(mailed):
    # White's 1.e4 on the start day; Black silent, reminded on day 14 (C.3.1.C). On day 15
    # the arbiter corrects ply 1 to 1.d4 from the scoresheets: the move was still sent on
    # the start day, so Black's days and the reminder stand.
    client, _ = mailed
    event = Event(client)
    assert event.move(1, "e4").status_code == 200
    event.on(START + timedelta(days=14)).sweep()
    event.on(START + timedelta(days=15))
    body = {"ply": 1, "san": ["d4"], "reason": "the scoresheets say 1.d4"}
    corrected = client.post(f"/api/games/{event.game_id}/moves", json=body, headers=event.arbiter)
    assert corrected.status_code == 200, corrected.text
    days = event.game_days(event.black)
    assert days["sent"] == [START.isoformat()]
    assert "reminder" not in {d["kind"] for d in days["due"]}  # sent already
    due = client.get(f"/api/correspondence/{event.tournament_id}/due", headers=event.arbiter)
    assert due.status_code == 200


def test_two_withdrawals_count_their_game_as_the_first_left_it(client):
    # Ann and Di both withdraw with nothing finished (C.9.B.a): every game of each is a
    # forfeit on the table. Their game together is counted as Ann's withdrawal, the first,
    # left it: won by Di; Di's own withdrawal does not turn it round.
    event = Event(client)
    table = client.get(f"/api/correspondence/{event.tournament_id}/table").json()
    ids = {line["name"]: line["player_id"] for line in table}
    url = f"/api/correspondence/{event.tournament_id}/withdrawals"
    for name in ("Alder, Ann", "Dogwood, Di"):
        body = {"player_id": ids[name], "kind": "announced"}
        assert client.post(url, json=body, headers=event.arbiter).status_code == 201
    lines = {
        line["name"]: line
        for line in client.get(f"/api/correspondence/{event.tournament_id}/table").json()
    }
    assert (lines["Alder, Ann"]["points"], lines["Alder, Ann"]["forfeits_lost"]) == (0, 3)
    assert (lines["Dogwood, Di"]["points"], lines["Dogwood, Di"]["forfeits_won"]) == (1, 1)
    assert lines["Birch, Ben"]["points"] == 2


def test_a_withdrawal_applies_what_fell_due_first(client):
    # White's flag fell on day 26 (doubled from the 11th day: 10 + 2 x 15 = 40 on day 25,
    # 42 on day 26); the sweep has not run. Ann withdrawing on day 40 does not make her
    # opponent's loss on time a win by withdrawal: the flag is ruled first.
    event = Event(client)
    event.on(START + timedelta(days=40))
    table = client.get(f"/api/correspondence/{event.tournament_id}/table").json()
    ann = next(line["player_id"] for line in table if line["name"] == "Alder, Ann")
    url = f"/api/correspondence/{event.tournament_id}/withdrawals"
    done = client.post(url, json={"player_id": ann, "kind": "silent"}, headers=event.arbiter)
    assert done.status_code == 201, done.text
    assert done.json()["finished"] == 3  # every game of hers was lost on time first
    with Session(hub_of(client).engine) as session:
        results = [e.data for e in read_events(session, game_id=event.game_id)
                   if e.kind == "result"]  # fmt: skip
    assert len(results) == 1
    assert results[0]["reason"] == "White: flag since 2027-03-27 (C.6.B)"


def test_names_one_person_could_be_taken_for_twice_are_refused(client):
    body = {
        "name": "Twins",
        "control": "standard",
        "format": "class",
        "started": "2027-01-01",
        "players": [{"name": "Bob, Bo"}, {"name": "bob,  BO"}],
    }
    answer = client.post("/api/correspondence", json=body, headers=token(client, "arbiter"))
    assert answer.status_code == 422
    assert "twice" in answer.text


def test_a_rating_period_not_yet_begun_is_refused(client):
    event = Event(client)
    assert event.days.today == START
    future = client.get("/api/correspondence/ratings", params={"period": "2199-6"})
    assert future.status_code == 422
    assert "has not begun" in future.text
    before = client.get("/api/correspondence/ratings", params={"period": "2026-1"}).json()
    assert before["period"] == "2026-1"
    assert all(line["games"] == 0 for line in before["lines"])
