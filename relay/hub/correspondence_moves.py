"""What a correspondence player does with their key (docs/correspondence.md): a move, a
conditional line with it (C.4.E), a notice of delay (C.3.1.B), a leave (C.8). Each move is
an entry in the game's own log; what fell due before it is applied first."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Sequence
from datetime import date

from sqlmodel import Session

from relay.domain.correspondence.adjudication import Stage
from relay.domain.correspondence.conditional import (
    ConditionalSequence,
    follow,
    from_stored,
    propose,
    stored_steps,
)
from relay.domain.correspondence.leave import Leave, check_leave
from relay.domain.correspondence.silence import Side
from relay.domain.game.entries import Accepted
from relay.hub.arbiter_desk import EntryChange
from relay.hub.correspondence_checks import CorrespondenceError, check_day
from relay.hub.correspondence_games import (
    DeskRoom,
    DeskTools,
    control_of,
    player_identity,
    side_of,
)
from relay.hub.game_views import GameView
from relay.store.access import Identity, audit
from relay.store.correspondence import (
    add_leave,
    add_notice,
    drop_conditional,
    event_of_game,
    get_conditional,
    get_event,
    leaves,
    set_conditional,
)
from relay.store.models import CorrespondenceEvent
from relay.store.tournaments import list_players

__all__ = ["Moves"]


class Moves(DeskRoom):
    """The players' actions in one hub's correspondence games; ``sweep_game`` applies what
    fell due in a game before a move comes (a flag that fell yesterday ends the game
    first)."""

    def __init__(
        self, tools: DeskTools, sweep_game: Callable[[CorrespondenceEvent, int], Awaitable[object]]
    ) -> None:
        super().__init__(tools)
        self._sweep_game = sweep_game

    async def _game(self, game_id: int) -> tuple[CorrespondenceEvent, GameView]:
        """A correspondence game (refused for any other) and its event."""
        event = await self._recorder.read(lambda s: event_of_game(s, game_id=game_id))
        return event, await self._views.game(game_id)

    async def move(self, *, game_id: int, ply: int, text: str, who: Identity) -> EntryChange:
        """A player's move for ``ply`` of their game, refused out of turn and while the game
        is with the adjudicator; a line the opponent had proposed answers it at once."""
        event, view = await self._game(game_id)
        side = side_of(view.pairing, who)
        mover: Side = "white" if ply % 2 else "black"
        if side != mover:
            raise CorrespondenceError(f"ply {ply} is {mover.capitalize()}'s move, not yours")
        state = (await self._games.adjudications(event, [game_id]))[game_id]
        if state is not None and state.process.stage not in (Stage.ASKED, Stage.CONTINUED):
            raise CorrespondenceError(
                f"game {game_id} is with the adjudicator ({state.process.stage}): no more moves"
            )
        await self._sweep_game(event, game_id)
        before = view.record(view.version).board.fen()
        entered = await self._desk.enter_move(
            game_id=game_id, ply=ply, text=text, who=who, timed=False
        )
        if isinstance(entered.judged, Accepted) and not entered.change.record.result.is_decided:
            await self._follow(view, ply, before, entered.judged.san, side)
        return entered

    async def propose(
        self, *, game_id: int, steps: Sequence[tuple[str, str]], who: Identity
    ) -> ConditionalSequence:
        """A conditional line (C.4.E) from the player who has just moved: each step the
        opponent's move and the reply, in SAN. It binds the proposer until the opponent
        deviates; a new one replaces it."""
        _, view = await self._game(game_id)
        side = side_of(view.pairing, who)
        record = view.record(view.version)
        if record.result.is_decided:
            raise CorrespondenceError(f"game {game_id} is over")
        board = record.board.copy()
        if not board.move_stack or ("white" if board.turn else "black") == side:
            raise CorrespondenceError("a conditional line goes with the move you have sent")
        sequence = propose(board, steps)

        def keep(session: Session) -> None:
            set_conditional(
                session, game_id=game_id, proposer=side, fen=sequence.fen,
                steps=stored_steps(sequence),
            )  # fmt: skip
            audit(session, who=who, action="conditional", target=f"game {game_id}",
                  detail={"steps": [list(step) for step in steps]})  # fmt: skip
            session.commit()

        await self._recorder.run(keep)
        return sequence

    async def _follow(self, view: GameView, ply: int, before: str, san: str, mover: Side) -> None:
        """The opponent of a bound player moved ``san`` at ``ply`` from the position
        ``before``: the move the line expected is answered at once, in the proposer's name;
        any other ends the line."""
        game_id = view.game_id
        row = await self._recorder.read(lambda s: get_conditional(s, game_id=game_id))
        if row is None or row.proposer == mover:
            return
        followed = follow(from_stored(row.proposer == "white", row.fen, json.loads(row.steps)),
                          before, san)  # fmt: skip
        if followed.reply is not None:
            await self._desk.enter_move(
                game_id=game_id,
                ply=ply + 1,
                text=followed.reply,
                who=player_identity(row.proposer, view.pairing),
                timed=False,
            )

        def keep(session: Session) -> None:
            if followed.remaining is None:
                drop_conditional(session, game_id=game_id)
            else:
                set_conditional(
                    session, game_id=game_id, proposer=row.proposer,
                    fen=followed.remaining.fen, steps=stored_steps(followed.remaining),
                )  # fmt: skip
            session.commit()

        await self._recorder.run(keep)

    async def notice(self, *, game_id: int, who: Identity) -> bool:
        """The player to move tells the opponent and the TS that this move will take longer
        (C.3.1.B), today; False when the move had a notice already."""
        _, view = await self._game(game_id)
        side = side_of(view.pairing, who)
        record = view.record(view.version)
        if record.result.is_decided:
            raise CorrespondenceError(f"game {game_id} is over")
        if side != ("white" if record.board.turn else "black"):
            raise CorrespondenceError("a notice of delay is for the move you are to make")
        ply, today = len(record.board.move_stack) + 1, self._today()

        def work(session: Session) -> bool:
            kept = add_notice(session, game_id=game_id, ply=ply, sent=today)
            if kept:
                audit(session, who=who, action="notice", target=f"game {game_id}",
                      detail={"ply": ply})  # fmt: skip
            session.commit()
            return kept

        return await self._recorder.run(work)

    async def leave(self, *, tournament_id: int, first: date, last: date, who: Identity) -> Leave:
        """A leave the player announces today (C.8), refused in words when the rules do not
        grant it."""
        if who.player_id is None:
            raise CorrespondenceError("a leave is announced with a player's key")
        check_day(first, "a leave's first day")
        check_day(last, "a leave's last day")
        player_id, today = who.player_id, self._today()

        def work(session: Session) -> Leave:
            event = get_event(session, tournament_id=tournament_id)
            if player_id not in {p.id for p in list_players(session, tournament_id=tournament_id)}:
                raise CorrespondenceError(f"you play no game in tournament {tournament_id}")
            taken = [
                Leave(row.announced, row.first, row.last)
                for row in leaves(session, tournament_id=tournament_id)
                if row.player_id == player_id
            ]
            new = Leave(today, first, last)
            check_leave(new, taken, event.started, control_of(event))
            add_leave(session, tournament_id=tournament_id, player_id=player_id,
                      announced=today, first=first, last=last)  # fmt: skip
            audit(session, who=who, action="leave", target=f"tournament {tournament_id}",
                  detail={"first": first.isoformat(), "last": last.isoformat()})  # fmt: skip
            session.commit()
            return new

        return await self._recorder.run(work)
