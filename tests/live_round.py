"""A round played live for page tests: boardsim's boards on pseudo-terminals, ``relay serve``
following them through the real DGT driver, and tokens for an arbiter and an operator.

    with live_round(tmp_path, games_pgn, boards=4, boardsim=("--wait-for-clock",)) as live:
        page.goto(live.url("game", game=live.games[1]))
        live.post("/api/rounds/1/clocks/start", token=live.arbiter)
"""

from __future__ import annotations

import contextlib
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from sqlmodel import Session

from bench.boardsim_process import BoardsimProcess
from relay.demo.pgn_round import event_setup, load_pairings
from relay.domain.formats.event_file import render_event_file
from relay.store.access import create_token
from relay.store.engine import open_store
from relay.store.tournaments import list_games
from tests.hub_calls import hub_call
from tests.relay_serve import relay_serve
from tests.stores import migrated_sqlite


@dataclass
class LiveRound:
    #: ``host:port/`` of the hub.
    address: str
    db: str
    sim: BoardsimProcess
    #: Game ids by board number (round 1).
    games: dict[int, int]
    arbiter: str
    operator: str

    def url(self, page: str = "", **query: Any) -> str:
        suffix = f"?{urllib.parse.urlencode(query)}" if query else ""
        return f"http://{self.address}{page}{suffix}"

    def get(self, path: str, token: str | None = None) -> Any:
        return self._call("GET", path, None, token)

    def post(self, path: str, body: dict[str, Any] | None = None, token: str | None = None) -> Any:
        return self._call("POST", path, body or {}, token)

    def _call(self, method: str, path: str, body: Any, token: str | None) -> Any:
        return hub_call(self.address, method, path, body, token)


@contextlib.contextmanager
def live_round(
    folder: Path,
    games_pgn: Path,
    *,
    boards: int,
    time_control: str = "90+30",
    boardsim: Sequence[str] = (),
) -> Iterator[LiveRound]:
    """Round 1 of a tournament: board ``n`` plays the ``n``-th game of ``games_pgn``."""
    sim = BoardsimProcess(games_pgn, boards, *boardsim)
    try:
        setup = event_setup(load_pairings(games_pgn, boards), sim.ports)
        setup = replace(setup, tournament=replace(setup.tournament, time_control=time_control))
        event = folder / "event.toml"
        event.write_text(render_event_file(setup), encoding="utf-8")
        db = migrated_sqlite(folder / "live.db")
        with relay_serve(folder, event, db) as (_, address):
            engine = open_store(db)
            try:
                with Session(engine) as session:
                    games = {g.board: g.id or 0 for g in list_games(session, round_id=1)}
                    arbiter = create_token(session, user="Chief Arbiter", role="arbiter")
                    operator = create_token(session, user="Scoresheets", role="operator")
                    session.commit()
            finally:
                engine.dispose()
            yield LiveRound(address, db, sim, games, arbiter, operator)
    finally:
        sim.stop()
