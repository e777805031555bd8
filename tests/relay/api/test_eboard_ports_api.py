"""An electronic board's port changed through the API (a USB board replugged comes back as
another ``/dev/ttyACM*``), and an event file loaded again that changes one."""

from __future__ import annotations

from sqlmodel import Session

from relay.store.access import read_audit
from tests.pairings import paired_round
from tests.relay.api.helpers import hub_of, token


def test_an_operator_moves_a_board_to_another_port(client):
    with Session(hub_of(client).engine) as session:
        round_id, (game_id,) = paired_round(session, ports=["/dev/ttyACM0"])
    operator = token(client, "operator", user="Board crew")
    (eboard,) = client.get("/api/tournaments/1/eboards", headers=operator).json()
    url = f"/api/eboards/{eboard['id']}/port"
    answer = client.put(url, json={"url": "/dev/ttyACM1"}, headers=operator)
    assert answer.status_code == 200
    assert answer.json() == {
        "id": eboard["id"],
        "number": 1,
        "url": "/dev/ttyACM1",
        "not_followed": {},
    }
    (listed,) = client.get("/api/tournaments/1/eboards", headers=operator).json()
    assert listed["url"] == "/dev/ttyACM1"
    (row,) = client.get(f"/api/rounds/{round_id}/boards", headers=operator).json()
    assert (row["game_id"], row["url"]) == (game_id, "/dev/ttyACM1")
    with Session(hub_of(client).engine) as session:
        (entry,) = [e for e in read_audit(session) if e.action == "set-eboard-port"]
    assert (entry.user, entry.target) == ("Board crew", f"eboard {eboard['id']}")


def test_a_port_that_is_not_one_is_refused_and_nothing_changes(client):
    with Session(hub_of(client).engine) as session:
        paired_round(session, ports=["/dev/ttyACM0"])
    operator = token(client, "operator")
    (eboard,) = client.get("/api/tournaments/1/eboards", headers=operator).json()
    url = f"/api/eboards/{eboard['id']}/port"
    for bad in (
        {"url": ""},
        {"url": "/dev/tty ACM1"},
        {"url": "/dev/ttyACM1\n"},
        {"url": "x" * 501},
        {"url": None},
        {},
        {"url": "/dev/ttyACM1", "driver": "dgt"},
    ):
        assert client.put(url, json=bad, headers=operator).status_code == 422, bad
    assert (
        client.put("/api/eboards/999/port", json={"url": "/x"}, headers=operator).status_code == 404
    )
    assert client.put(url, json={"url": "/dev/ttyACM1"}).status_code == 401
    keyer = token(client, "keyer", user="Input desk")
    assert client.put(url, json={"url": "/dev/ttyACM1"}, headers=keyer).status_code == 403
    listed = client.get("/api/tournaments/1/eboards", headers=operator)
    assert listed.status_code == 200, listed.text
    assert listed.json()[0]["url"] == "/dev/ttyACM0"


EVENT = """
[tournament]
name = "Club Weekend"

[[player]]
number = 1
name = "Moss, Mary"

[[player]]
number = 2
name = "Lee, Hugo"

[[board]]
number = 1
url = "socket://127.0.0.1:7001"

[[round]]
number = 1
pairings = [[1, 2]]
"""


def test_an_event_file_loaded_again_says_which_ports_it_changed(client):
    admin = token(client, "admin")
    toml = {"Content-Type": "application/toml"}
    assert client.post("/api/event", content=EVENT, headers=admin | toml).status_code == 200
    moved = EVENT.replace("7001", "7002")
    answer = client.post("/api/event", content=moved, headers=admin | toml)
    assert answer.status_code == 200
    assert answer.json()["boards"] == 0
    assert answer.json()["notes"] == [
        "board 1: port socket://127.0.0.1:7002 (was socket://127.0.0.1:7001)"
    ]
    assert answer.json()["not_followed"] == {}
    (listed,) = client.get("/api/tournaments/1/eboards", headers=admin).json()
    assert listed["url"] == "socket://127.0.0.1:7002"
