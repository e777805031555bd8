"""The arbiter's actions: results, verification, move corrections, rounds and boards.

Every action is checked against the stored log on the store thread, appended with who and
why, audited in the same transaction, and only then published. A board following the game
is told, so its tracker continues from the corrected game.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlmodel import Session

from relay.domain.formats.event_file import MAX_DELAY_SECONDS
from relay.domain.formats.pgn_import import ImportedGame
from relay.domain.game.arbiter import ArbiterActionError, replace_moves, set_result, verify_result
from relay.domain.game.draw_claims import ClaimVerdict, DrawClaimError, claim_events
from relay.domain.game.draw_offers import draw_action
from relay.domain.game.entries import Accepted, EntryConflictError, Repeated, entry_events
from relay.domain.game.events import GameEvent, MovesReplaced, event_data, event_from_data
from relay.domain.game.record import GameRecord
from relay.domain.game.result_agreement import agreed_result
from relay.domain.results import Result
from relay.hub.game_views import GameViews
from relay.hub.recorder import GameRecorder, audited
from relay.store.access import Identity, audit
from relay.store.event_log import StoredEvent, append_events, read_events
from relay.store.models import Game, Round
from relay.store.tournaments import (
    Pairing,
    add_player,
    assign_eboard,
    create_game,
    get_game,
    get_round,
    list_players,
    publish_round,
    round_pairings,
    set_round_delay,
)


@dataclass(frozen=True, slots=True)
class GameChange:
    game_id: int
    record: GameRecord
    stored: list[StoredEvent]


@dataclass(frozen=True, slots=True)
class EntryChange:
    """A move entered by hand: what the entry was judged to be, and the game after it."""

    judged: Accepted | Repeated
    change: GameChange


@dataclass(frozen=True, slots=True)
class ClaimChange:
    """A draw claimed on the scoresheet: what the hub made of it, and the game after it."""

    verdict: ClaimVerdict
    change: GameChange


class ArbiterDesk:
    """Arbiter actions on one hub's store; ``on_game_changed`` hears of every changed game."""

    def __init__(
        self,
        recorder: GameRecorder,
        views: GameViews,
        on_game_changed: Callable[[int, GameRecord], None],
        followed: Callable[[int], bool] = lambda game_id: False,
        now: Callable[[], float] = time.time,
    ) -> None:
        self._recorder = recorder
        self._views = views
        self._on_game_changed = on_game_changed
        self._followed = followed
        #: The time each change is recorded at (tests of correspondence games move it on).
        self._now = now

    async def set_result(
        self, *, game_id: int, result: Result, who: Identity, reason: str, forfeit: bool = False
    ) -> GameChange:
        return await self._change(
            game_id,
            lambda record, at: [
                set_result(
                    record, result=result, by=who.user, reason=reason, at=at, forfeit=forfeit
                )
            ],
            who,
            "set-result",
            reason,
            {"result": result, "forfeit": forfeit} if forfeit else {"result": result},
        )

    async def verify(self, *, game_id: int, result: Result, who: Identity) -> GameChange:
        return await self._change(
            game_id,
            lambda record, at: [verify_result(record, result=result, by=who.user, at=at)],
            who,
            "verify",
            "",
            {"result": result},
        )

    async def replace_moves(
        self, *, game_id: int, ply: int, san: list[str], who: Identity, reason: str
    ) -> GameChange:
        return await self._change(
            game_id,
            lambda record, at: [
                replace_moves(record, ply=ply, san=san, by=who.user, reason=reason, at=at)
            ],
            who,
            "replace-moves",
            reason,
            {"ply": ply, "san": san},
        )

    async def enter_move(
        self, *, game_id: int, ply: int, text: str, who: Identity, timed: bool = True
    ) -> EntryChange:
        """A move entered by hand for ``ply`` (docs/game-input.md): recorded when it is the
        next legal move, acknowledged when that ply already holds it, refused otherwise. A
        game that an electronic board follows takes its moves from the board. A move keyed
        after it was played is not ``timed``."""
        if self._followed(game_id):
            raise EntryConflictError(
                f"game {game_id} is followed by its electronic board: its moves come from "
                "the board (an arbiter corrects them)"
            )
        judged: list[Accepted | Repeated] = []

        def decide(record: GameRecord, at: float) -> list[GameEvent]:
            verdict, events = entry_events(record, ply, text, at, timed=timed)
            judged.append(verdict)
            return events

        change = await self._change(
            game_id, decide, who, "enter-move", "", {"ply": ply, "move": text}
        )
        return EntryChange(judged[0], change)

    async def draw(self, *, game_id: int, player: str, action: str, who: Identity) -> GameChange:
        """A draw offer, acceptance, refusal or withdrawal from the scoresheet."""
        return await self._change(
            game_id,
            lambda record, at: [draw_action(record, player=player, action=action, at=at)],
            who,
            f"draw-{action}",
            "",
            {"player": player},
        )

    async def claim_draw(
        self, *, game_id: int, ply: int, rule: str, move: str | None, who: Identity
    ) -> ClaimChange:
        """A draw claimed on the scoresheet (9.2, 9.3) by the player to move, with the move
        for ``ply`` or none (docs/game-input.md): a correct claim proposes the draw, a wrong
        one alerts the arbiter (and plays the move); a claim made before is acknowledged."""
        if move is not None and self._followed(game_id):
            raise DrawClaimError(
                f"game {game_id} is followed by its electronic board: claim without a move, "
                "the board plays it"
            )
        verdicts: list[ClaimVerdict] = []

        def decide(record: GameRecord, at: float) -> list[GameEvent]:
            verdict, events = claim_events(record, ply=ply, rule=rule, move=move, at=at)
            verdicts.append(verdict)
            return events

        detail = {"ply": ply, "rule": rule, "move": move}
        change = await self._change(game_id, decide, who, "claim-draw", "", detail)
        return ClaimChange(verdicts[0], change)

    async def agree_result(
        self, *, game_id: int, result: Result, signed: Sequence[str], who: Identity
    ) -> GameChange:
        """The result both players confirmed on the scoresheet (White, then Black), proposed
        for the arbiter; nothing is recorded when the game has it or it is proposed already."""
        return await self._change(
            game_id,
            lambda record, at: [
                proposal
                for proposal in [agreed_result(record, result=result, signed=signed, at=at)]
                if proposal is not None
            ],
            who,
            "agree-result",
            "",
            {"result": result, "signed": list(signed)},
        )

    async def publish(self, *, round_id: int, published: bool, who: Identity) -> Round:
        def work(session: Session) -> Round:
            round_ = publish_round(session, round_id=round_id, published=published)
            audit(
                session,
                who=who,
                action="publish" if published else "unpublish",
                target=f"round {round_id}",
            )
            session.commit()
            return round_

        return await self._recorder.run(work)

    async def set_delay(self, *, round_id: int, seconds: int, who: Identity, reason: str) -> Round:
        if not 0 <= seconds <= MAX_DELAY_SECONDS:
            raise ArbiterActionError(f"a delay is 0 to {MAX_DELAY_SECONDS} seconds")

        def work(session: Session) -> Round:
            before = get_round(session, round_id=round_id).delay_seconds
            round_ = set_round_delay(session, round_id=round_id, seconds=seconds)
            audit(
                session,
                who=who,
                action="set-delay",
                target=f"round {round_id}",
                reason=reason,
                detail={"from": before, "to": seconds},
            )
            session.commit()
            return round_

        return await self._recorder.run(work)

    async def assign(self, *, game_id: int, eboard_id: int | None, who: Identity) -> Game:
        def work(session: Session) -> Game:
            game = assign_eboard(session, game_id=game_id, eboard_id=eboard_id)
            audit(
                session,
                who=who,
                action="assign-board",
                target=f"game {game_id}",
                detail={"eboard": eboard_id},
            )
            session.commit()
            return game

        game: Game = await self._recorder.run(work)
        self._views.forget(game.round_id)
        return game

    async def import_pgn(
        self, *, round_id: int, games: list[ImportedGame], who: Identity, reason: str
    ) -> ImportReport:
        """Create the round's games the PGN has and the round lacks, and bring the others'
        moves and results to what the PGN says; all in one transaction, or nothing."""

        def work(session: Session) -> tuple[ImportReport, dict[int, list[StoredEvent]]]:
            importer = _Importer(session, round_id, who, reason)
            for game in games:
                importer.add(game)
            audit(
                session,
                who=who,
                action="import-pgn",
                target=f"round {round_id}",
                reason=reason,
                detail={"created": importer.created, "corrected": importer.corrected},
            )
            session.commit()
            report = ImportReport(importer.created, importer.corrected, importer.unchanged)
            return report, importer.stored

        report, stored = await self._recorder.run(work)
        if report.created:
            self._views.forget(round_id)
        records = await self._recorder.run(
            lambda session: {game_id: stored_record(session, game_id) for game_id in stored}
        )
        for game_id, events in stored.items():
            self._recorder.publish(round_id, events)
            self._on_game_changed(game_id, records[game_id])
        return report

    async def change(
        self,
        game_id: int,
        decide: Callable[[GameRecord, float], Sequence[GameEvent]],
        who: Identity,
        action: str,
        detail: dict[str, Any],
        reason: str = "",
    ) -> GameChange:
        """A change another desk decides from the game's record on the store thread (the
        game-input desk's), checked, recorded, audited and published like the arbiter's."""
        return await self._change(game_id, decide, who, action, reason, detail)

    async def _change(
        self,
        game_id: int,
        decide: Callable[[GameRecord, float], Sequence[GameEvent]],
        who: Identity,
        action: str,
        reason: str,
        detail: dict[str, Any],
    ) -> GameChange:
        round_id = await self._recorder.run(
            lambda session: get_game(session, game_id=game_id).round_id
        )
        after: list[GameRecord] = []

        def work(session: Session) -> tuple[Sequence[GameEvent], Callable[[Session], None]]:
            record = stored_record(session, game_id)
            events = decide(record, self._now())
            for event in events:
                record.apply(event)
            after.append(record)
            if not events:  # nothing changed (an entry sent again): nothing to audit
                return events, lambda session: None
            also = audited(who=who, action=action, game_id=game_id, reason=reason, detail=detail)
            return events, also

        stored = await self._recorder.decide(round_id=round_id, game_id=game_id, work=work)
        if stored:
            self._on_game_changed(game_id, after[0])
        return GameChange(game_id, after[0], stored)


def stored_record(session: Session, game_id: int) -> GameRecord:
    """The game as its stored log has it."""
    return GameRecord.from_events(
        event_from_data(item.kind, item.data) for item in read_events(session, game_id=game_id)
    )


@dataclass(frozen=True, slots=True)
class ImportReport:
    created: int
    corrected: int
    unchanged: int


class _Importer:
    """Matches imported games to a round's pairings and writes what differs."""

    def __init__(self, session: Session, round_id: int, who: Identity, reason: str) -> None:
        self._session = session
        self._round_id = round_id
        self._who = who
        self._reason = reason
        round_ = get_round(session, round_id=round_id)
        self._tournament_id = round_.tournament_id
        self._pairings = round_pairings(session, round_id=round_id)
        self._players = {
            p.name: p for p in list_players(session, tournament_id=round_.tournament_id)
        }
        self.created = self.corrected = self.unchanged = 0
        self.stored: dict[int, list[StoredEvent]] = {}

    def add(self, imported: ImportedGame) -> None:
        names = (imported.white, imported.black)
        pairing = self._find(imported)
        if pairing is None:
            game_id = self._create(imported)
            record = GameRecord()
        else:
            if (pairing.white.name, pairing.black.name) != names:
                raise ArbiterActionError(
                    f"board {pairing.game.board} is {pairing.white.name} - "
                    f"{pairing.black.name}, not {imported.white} - {imported.black}"
                )
            game_id = pairing.game_id
            record = stored_record(self._session, game_id)
        at = time.time()
        events: list[GameEvent] = []
        if [move.uci for move in record.moves] != list(imported.uci):
            events.append(
                MovesReplaced(
                    ply=1, uci=imported.uci, by=self._who.user, reason=self._reason, at=at
                )
            )
            record.apply(events[-1])
        if imported.result != record.result:
            events.append(
                set_result(
                    record, result=imported.result, by=self._who.user, reason=self._reason, at=at
                )
            )
        if not events:
            self.unchanged += 1
            return
        if pairing is not None:
            self.corrected += 1
        self.stored[game_id] = append_events(
            self._session,
            game_id=game_id,
            events=[(event.kind, event_data(event)) for event in events],
            recorded_at=at,
        )

    def _find(self, imported: ImportedGame) -> Pairing | None:
        for pairing in self._pairings:
            if imported.board is not None:
                if pairing.game.board == imported.board:
                    return pairing
            elif (pairing.white.name, pairing.black.name) == (imported.white, imported.black):
                return pairing
        return None

    def _create(self, imported: ImportedGame) -> int:
        taken = {p.game.board for p in self._pairings}
        board = imported.board or max(taken, default=0) + 1
        game = create_game(
            self._session,
            round_id=self._round_id,
            board=board,
            white_id=self._player(imported.white),
            black_id=self._player(imported.black),
        )
        assert game.id is not None
        self._pairings = round_pairings(self._session, round_id=self._round_id)
        self.created += 1
        return game.id

    def _player(self, name: str) -> int:
        player = self._players.get(name)
        if player is None:
            number = max((p.start_number for p in self._players.values()), default=0) + 1
            player = add_player(
                self._session,
                tournament_id=self._tournament_id,
                start_number=number,
                name=name,
            )
            self._players[name] = player
        assert player.id is not None
        return player.id
