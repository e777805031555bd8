"""The hub's outputs: the pushed ones kept fed, the LiveChess feed switched on, and how
each stands (``hub.outputs``; the console's Outputs card reads :meth:`OutputDesk.statuses`)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from sqlalchemy import Engine
from sqlmodel import Session

from relay.domain.formats.output_setup import FolderSetup, FtpSetup, LichessSetup, OutputSetup
from relay.domain.formats.pgn import render_round
from relay.hub.game_views import GameViews, delay_cut
from relay.hub.outputs.folder import ExportFolder
from relay.hub.outputs.ftp import FtpUpload
from relay.hub.outputs.lichess import LichessPush
from relay.hub.outputs.round_copy import GameCopy, Output, RoundCopy
from relay.hub.outputs.runner import OutputRunner, OutputStatus
from relay.hub.recorder import read_store
from relay.store.models import Round
from relay.store.tournaments import get_tournament, list_games, list_rounds


@dataclass(slots=True)
class _Served:
    """The LiveChess feed of one tournament: how often and when it was last read."""

    requests: int = 0
    last_at: float | None = None


class OutputDesk:
    """Runs the outputs of the tournaments whose event files ask for them."""

    def __init__(
        self,
        engine: Engine,
        views: GameViews,
        *,
        interval: float = 2.0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._engine = engine
        self._views = views
        self._interval = interval
        self._clock = clock
        self.runners: list[OutputRunner] = []
        self._tasks: list[asyncio.Task[None]] = []
        self._livechess: dict[int, _Served] = {}

    def start(self, tournament_id: int, outputs: Sequence[Output]) -> None:
        """Keep ``outputs`` fed with the tournament's published rounds."""
        for output in outputs:

            async def copies() -> list[RoundCopy]:
                return await self.copies(tournament_id)

            runner = OutputRunner(output, copies, interval=self._interval, clock=self._clock)
            self.runners.append(runner)
            self._tasks.append(asyncio.get_running_loop().create_task(runner.run()))

    def open(
        self, tournament_id: int, setups: Sequence[OutputSetup], environ: Mapping[str, str]
    ) -> list[str]:
        """Start the outputs an event file asks for (secrets read from ``environ``); what
        each feeds, in words. Raises :class:`LichessSetupError` before starting any when one
        cannot be built."""
        outputs: list[Output] = []
        livechess = False
        for setup in setups:
            if isinstance(setup, LichessSetup):
                outputs.append(LichessPush(setup, environ))
            elif isinstance(setup, FolderSetup):
                outputs.append(ExportFolder(setup))
            elif isinstance(setup, FtpSetup):
                outputs.append(FtpUpload(setup, environ))
            else:
                livechess = True
        self.start(tournament_id, outputs)
        if livechess:
            self.enable_livechess(tournament_id)
        named = [f"{output.kind}: {output.target}" for output in outputs]
        return named + ([f"livechess: /livechess/{tournament_id}/"] if livechess else [])

    def enable_livechess(self, tournament_id: int) -> None:
        """Serve the tournament's LiveChess feed (``/livechess/ID/...``)."""
        self._livechess.setdefault(tournament_id, _Served())

    def serves_livechess(self, tournament_id: int) -> bool:
        return tournament_id in self._livechess

    def note_served(self, tournament_id: int) -> None:
        served = self._livechess.get(tournament_id)
        if served is not None:
            served.requests += 1
            served.last_at = self._clock()

    def statuses(self) -> list[OutputStatus]:
        """Every output's status line: the pushed ones, then each LiveChess feed."""
        found = [runner.status() for runner in self.runners]
        for tournament_id, served in sorted(self._livechess.items()):
            found.append(
                OutputStatus(
                    kind="livechess",
                    target=f"/livechess/{tournament_id}/tournament.json",
                    state="ok" if served.requests else "waiting",
                    line=f"served {served.requests} requests" if served.requests else None,
                    last_ok_at=served.last_at,
                    error=None,
                    failures=0,
                    next_try_at=None,
                    delivered=served.requests,
                    pending=0,
                )
            )
        return found

    async def copies(self, tournament_id: int) -> list[RoundCopy]:
        """Each published round with games, as the public sees it now."""
        name, rounds = await read_store(self._engine, lambda s: _rounds(s, tournament_id))
        now = self._clock()
        found = []
        for round_ in rounds:
            assert round_.id is not None
            cut = delay_cut(round_.delay_seconds, now)
            views = await self._views.round(round_.id)
            games = tuple(
                GameCopy(board=view.board, game_id=view.game_id, pgn=view.pgn(view.version_at(cut)))
                for view in views
            )
            found.append(
                RoundCopy(
                    tournament_id=tournament_id,
                    tournament=name,
                    round_id=round_.id,
                    number=round_.number,
                    cut=cut,
                    pgn=render_round(game.pgn for game in games),
                    games=games,
                )
            )
        return found

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks.clear()


def _rounds(session: Session, tournament_id: int) -> tuple[str, list[Round]]:
    name = get_tournament(session, tournament_id=tournament_id).name
    rounds = [
        round_
        for round_ in list_rounds(session, tournament_id=tournament_id)
        if round_.published and round_.id is not None and list_games(session, round_id=round_.id)
    ]
    return name, rounds
