"""A knock-out paired by the hub over HTTP: one game of every undecided match per round, the
tie-breaks of a level match alone, the next bracket stage, byes, withdrawals, the end."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from relay.domain.tournament.knockout import first_round, next_round
from tests.relay.api.test_pairings_api import event_file, finish, load

# ``rounds`` (the bracket's three stages) is no ceiling: game rounds depend on the tie-breaks.
KNOCKOUT = '[tournament]\nname = "City Cup"\nrounds = 3\npairing_system = "knockout"\n'


def games(view: dict[str, Any]) -> list[tuple[int, int]]:
    return [(g["white"], g["black"]) for g in view["games"]]


def byes(view: dict[str, Any]) -> list[tuple[int, str]]:
    return sorted((b["player"], b["kind"]) for b in view["byes"])


class Desk:
    def __init__(self, client: TestClient, players: int) -> None:
        self.client = client
        self.tournament_id, self.arbiter = load(client, event_file(KNOCKOUT, players))

    def next(self) -> Any:
        return self.client.post(
            f"/api/tournaments/{self.tournament_id}/rounds/next", headers=self.arbiter
        )

    def pair(self) -> dict[str, Any]:
        paired = self.next()
        assert paired.status_code == 200, paired.text
        view: dict[str, Any] = paired.json()
        return view

    def play(self, *results: str) -> dict[str, Any]:
        """Pair the next round and enter and verify its results, board 1 first."""
        view = self.pair()
        finish(self.client, view["round_id"], self.arbiter, list(results))
        return view

    def withdraw(self, start_number: int, after_round: int) -> None:
        withdrawn = self.client.put(
            f"/api/tournaments/{self.tournament_id}/players/{start_number}/withdrawal",
            json={"after_round": after_round},
            headers=self.arbiter,
        )
        assert withdrawn.is_success, withdrawn.text


def test_eight_players_play_to_a_winner_with_a_tie_break_on_the_way(client):
    desk = Desk(client, 8)
    one = desk.pair()
    assert one["number"] == 1
    assert games(one) == [(p.top, p.bottom) for p in first_round(8)]
    assert games(one) == [(1, 8), (4, 5), (2, 7), (3, 6)]
    assert byes(one) == []
    refused = desk.next()
    assert refused.status_code == 409
    assert "round 1: boards 1, 2, 3, 4" in refused.json()["detail"]
    finish(client, one["round_id"], desk.arbiter, ["1-0", "1/2-1/2", "1-0", "0-1"])

    two = desk.play("0-1", "1/2-1/2", "1/2-1/2", "1/2-1/2")
    assert (two["number"], games(two)) == (2, [(8, 1), (5, 4), (7, 2), (6, 3)])
    # 4 v 5 is 1-1 after the classical games: its rapid games are played alone, colours
    # alternating; 1, 2 and 6 wait.
    three = desk.play("1-0")
    assert (three["number"], games(three), byes(three)) == (3, [(4, 5)], [])
    assert three["warnings"] == []  # those waiting are rightly not paired
    four = desk.play("1/2-1/2")
    assert games(four) == [(5, 4)]

    semi_finals = desk.play("1-0", "1-0")
    assert semi_finals["number"] == 5
    assert games(semi_finals) == [(p.top, p.bottom) for p in next_round([1, 4, 2, 6])]
    assert games(semi_finals) == [(1, 4), (2, 6)]
    assert games(desk.play("0-1", "0-1")) == [(4, 1), (6, 2)]
    final = desk.play("1-0")
    assert (final["number"], games(final)) == (7, [(1, 2)])
    assert games(desk.play("1/2-1/2")) == [(2, 1)]

    over = desk.next()
    assert over.status_code == 409
    assert over.json()["detail"] == "the knock-out is over: start number 1 won"


def test_six_players_give_the_top_seeds_full_point_byes(client):
    desk = Desk(client, 6)
    one = desk.play("1/2-1/2", "1-0")
    assert games(one) == [(4, 5), (3, 6)]
    assert byes(one) == [(1, "full"), (2, "full")]
    two = desk.play("1-0", "1/2-1/2")
    assert (games(two), byes(two)) == ([(5, 4), (6, 3)], [])
    # 5 won 1.5-0.5, 3 likewise: the seeds with byes meet them.
    three = desk.pair()
    assert (games(three), byes(three)) == ([(1, 5), (2, 3)], [])


def test_a_withdrawal_sends_the_opponent_through(client):
    desk = Desk(client, 4)
    desk.play("1/2-1/2", "1-0")
    desk.withdraw(4, after_round=1)
    two = desk.play("0-1")
    assert (games(two), byes(two)) == ([(3, 2)], [])
    final = desk.pair()
    assert games(final) == [(1, 2)]


def test_knockout_is_a_pairing_system_of_the_rules(client):
    desk = Desk(client, 4)
    rules = client.put(
        f"/api/tournaments/{desk.tournament_id}/rules",
        json={"pairing_system": "knockout", "tie_breaks": None},
        headers=desk.arbiter,
    )
    assert rules.status_code == 200, rules.text
    assert rules.json()["pairing_system"] == "knockout"
