"""The game-input desk (docs/game-input.md): games keyed from paper scoresheets.

A keyer reads the round's games with their desk status, keys a game's moves (as entries,
through :meth:`ArbiterDesk.enter_move`), adds notes from the scoresheet, proposes its result,
takes back a keying slip, marks it keyed; a second keyer marks it checked. Each action is
decided against the stored log by :mod:`relay.domain.game.keying`, then recorded, audited and
published like the arbiter's own (:meth:`ArbiterDesk.change`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from relay.domain.game.events import GameEvent
from relay.domain.game.keying import (
    KeyingError,
    add_note,
    legal_moves,
    mark_checked,
    mark_keyed,
    positions,
    propose_result,
    take_back,
)
from relay.domain.game.record import GameRecord
from relay.domain.results import Result
from relay.hub.arbiter_desk import ArbiterDesk, GameChange
from relay.hub.game_views import GameViews
from relay.store.access import Identity
from relay.store.tournaments import Pairing


@dataclass(frozen=True, slots=True)
class DeskGame:
    """A game as the desk shows it: its pairing, its record (shared: do not change it), its
    log version, and whether an electronic board follows it now."""

    pairing: Pairing
    record: GameRecord
    version: int
    followed: bool

    @property
    def eboard(self) -> bool:
        """The game has an electronic board: its moves come from the board, not the desk."""
        return self.followed or self.pairing.eboard is not None

    @property
    def legal(self) -> list[str]:
        return legal_moves(self.record)

    def positions(self) -> list[str]:
        return positions(self.record)


class InputDesk:
    """The desk's reads and actions on one hub's games."""

    def __init__(
        self, desk: ArbiterDesk, views: GameViews, followed: Callable[[int], bool]
    ) -> None:
        self._desk = desk
        self._views = views
        self._followed = followed

    async def round_games(self, round_id: int) -> list[DeskGame]:
        """The round's games in board order, live (the desk is staff)."""
        views = await self._views.round(round_id)
        return [
            DeskGame(
                view.pairing,
                view.record(view.version),
                view.version,
                self._followed(view.game_id),
            )
            for view in views
        ]

    async def game(self, game_id: int) -> DeskGame:
        view = await self._views.game(game_id)
        return DeskGame(
            view.pairing, view.record(view.version), view.version, self._followed(game_id)
        )

    async def mark(self, *, game_id: int, status: str, who: Identity) -> GameChange:
        """Mark the game ``keyed`` or ``checked`` (by a different keyer than keyed it)."""
        if status == "keyed":
            rule = mark_keyed
        elif status == "checked":
            rule = mark_checked
        else:
            raise KeyingError(f"a game is marked keyed or checked, not {status!r}")
        return await self._desk.change(
            game_id,
            lambda record, at: [rule(record, by=who.user, at=at)],
            who,
            f"mark-{status}",
            {"status": status},
        )

    async def note(self, *, game_id: int, ply: int, text: str, who: Identity) -> GameChange:
        return await self._desk.change(
            game_id,
            lambda record, at: [add_note(record, ply=ply, text=text, by=who.user, at=at)],
            who,
            "add-note",
            {"ply": ply, "text": text},
        )

    async def propose(self, *, game_id: int, result: Result, who: Identity) -> GameChange:
        """The scoresheet's result, proposed for the arbiter to enter and verify."""
        return await self._desk.change(
            game_id,
            lambda record, at: [propose_result(record, result=result, at=at)],
            who,
            "propose-result",
            {"result": result},
        )

    async def take_back(self, *, game_id: int, ply: int, who: Identity) -> GameChange:
        """The moves after ``ply`` go (a keying slip); refused for a game a board follows."""
        if self._followed(game_id):
            raise KeyingError(
                f"game {game_id} is followed by its electronic board: an arbiter corrects its moves"
            )

        def decide(record: GameRecord, at: float) -> list[GameEvent]:
            return [take_back(record, ply=ply, at=at)]

        return await self._desk.change(game_id, decide, who, "take-back", {"ply": ply})
