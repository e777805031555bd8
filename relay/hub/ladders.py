"""Club ladders (docs/ladders.md), ``hub.ladders``: clubs, members, ladders, the games of a
club with their result logs, club keys, and each ladder's table.

Every change runs as one transaction on the store thread with its audit entry. A result is
never changed in place: an entry, an edit or a deletion appends to the game's result log
(who, when, why), and a ladder's table is replayed from the logs each time it is read
(:func:`relay.domain.ladder.rules.ladder_table`), so an edit or a deletion is in the table
at once.

A club game may be linked to a game of the hub (``game_id``: a game on an electronic board,
tagged for the club's ladders). Its result then comes from that game's own log, the board's
end or the arbiter's result, as soon as the public may see it (its round published, its
transmission delay passed), with no entry needed; an officer's later entry stands over it
(:func:`relay.domain.ladder.results_log.current_result`). Nothing is copied from one log to
the other, so nothing is missed while the hub is down and two processes never write it
twice.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date

from sqlmodel import Session

from relay.domain.errors import RefusedError
from relay.domain.game.events import event_from_data
from relay.domain.game.record import GameRecord
from relay.domain.ladder.quota import QuotaWarning, quota_warnings
from relay.domain.ladder.results_log import current_result
from relay.domain.ladder.rules import (
    ClubResult,
    Ladder,
    LadderError,
    LadderRate,
    Standing,
    ladder_table,
)
from relay.domain.results import Result
from relay.hub.recorder import GameRecorder
from relay.store.access import CLUB_ROLES, Identity, audit, create_token, revoke_tokens
from relay.store.clubs import (
    add_club_game,
    add_ladder,
    add_member,
    append_result,
    create_club,
    delete_ladder,
    get_club,
    get_club_game,
    get_ladder,
    get_member,
    list_club_games,
    list_ladders,
    list_members,
    result_logs,
)
from relay.store.event_log import read_events
from relay.store.models import Club, ClubGame, ClubMember, ClubResultRow, Game, LadderRow, Round

#: The kinds of a game's log that give it a result.
RESULT_KINDS = ("end", "result")


class ClubPermissionError(PermissionError, RefusedError):
    """A club key asked for something its role or its club does not allow (the API answers
    403)."""


@dataclass(frozen=True, slots=True)
class LadderSpec:
    """What an officer says a ladder is."""

    name: str
    rate: LadderRate
    starts: date
    ends: date
    initial_points: int = 50
    min_games: int = 8
    graded: bool = False
    quota_standard: int = 3
    quota_rapid: int = 6

    def row(self) -> LadderRow:
        self.rules()  # LadderError for rules that cannot be
        return LadderRow(
            club_id=0,
            name=self.name,
            rate=self.rate,
            starts=self.starts,
            ends=self.ends,
            initial_points=self.initial_points,
            min_games=self.min_games,
            graded=self.graded,
            quota_standard=self.quota_standard,
            quota_rapid=self.quota_rapid,
        )

    def rules(self) -> Ladder:
        return Ladder(
            self.rate,
            self.starts,
            self.ends,
            self.initial_points,
            self.min_games,
            self.graded,
            self.quota_standard,
            self.quota_rapid,
        )


def rules_of(row: LadderRow) -> Ladder:
    return Ladder(
        row.rate,
        row.starts,
        row.ends,
        row.initial_points,
        row.min_games,
        row.graded,
        row.quota_standard,
        row.quota_rapid,
    )


@dataclass(frozen=True, slots=True)
class ClubGameState:
    """A club game, its result log, the result of the board game it is linked to (when the
    public may see it) and the result that counts (None: it does not count)."""

    game: ClubGame
    log: list[ClubResultRow]
    board: Result | None
    result: Result | None

    @property
    def id(self) -> int:
        assert self.game.id is not None
        return self.game.id

    def counted(self) -> ClubResult | None:
        if self.result is None:
            return None
        return ClubResult(
            self.id,
            self.game.played_on,
            self.game.rate,
            self.game.white_id,
            self.game.black_id,
            self.result,
        )


@dataclass(frozen=True, slots=True)
class Entered:
    """A result entered, edited or deleted: the game as it stands now, and the warnings for
    the officer (free quotas of graded games)."""

    game: ClubGameState
    warnings: list[QuotaWarning] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class LadderView:
    ladder: LadderRow
    club: Club
    standings: list[Standing]
    names: dict[int, str]


@dataclass(frozen=True, slots=True)
class ClubState:
    """Everything of a club the tables need, read in one session."""

    club: Club
    members: dict[int, ClubMember]
    ladders: list[LadderRow]
    games: list[ClubGameState]

    @property
    def names(self) -> dict[int, str]:
        return {member_id: member.name for member_id, member in self.members.items()}

    def counted(self) -> list[ClubResult]:
        return [r for g in self.games if (r := g.counted()) is not None]

    def warnings(self, game: ClubResult | None = None) -> list[QuotaWarning]:
        non_members = {i for i, m in self.members.items() if not m.ecf_member}
        return quota_warnings(
            [rules_of(row) for row in self.ladders],
            self.counted(),
            non_members,
            self.names,
            game=game,
        )


def board_result(session: Session, game_id: int, now: float) -> tuple[float, Result] | None:
    """The result a hub game's log reached and when, as the public may see it now: None
    while its round is unpublished or its transmission delay has not passed."""
    game = session.get(Game, game_id)
    round_ = None if game is None else session.get(Round, game.round_id)
    if round_ is None or not round_.published:
        return None
    events = read_events(session, game_id=game_id)
    times = [item.recorded_at for item in events if item.kind in RESULT_KINDS]
    if not times or max(times) > now - round_.delay_seconds:
        return None
    record = GameRecord.from_events(event_from_data(item.kind, item.data) for item in events)
    return max(times), record.result


def game_states(session: Session, games: Sequence[ClubGame], now: float) -> list[ClubGameState]:
    logs = result_logs(session, club_game_ids=[g.id for g in games if g.id is not None])
    states = []
    for game in games:
        assert game.id is not None
        log = logs[game.id]
        board = None if game.game_id is None else board_result(session, game.game_id, now)
        entries = [
            (row.at, None if row.result is None else Result.parse(row.result)) for row in log
        ]
        states.append(
            ClubGameState(
                game, log, None if board is None else board[1], current_result(entries, board)
            )
        )
    return states


def club_state(session: Session, club_id: int, now: float) -> ClubState:
    club = get_club(session, club_id=club_id)
    members = {m.id: m for m in list_members(session, club_id=club_id) if m.id is not None}
    games = game_states(session, list_club_games(session, club_id=club_id), now)
    return ClubState(club, members, list(list_ladders(session, club_id=club_id)), games)


def _check(who: Identity, club_id: int, role: str) -> None:
    if not who.may_in_club(club_id, role):
        raise ClubPermissionError(f"{who.user} may not do this in club {club_id}: it needs {role}")


def _own_game(who: Identity, game: ClubGame) -> None:
    """A player key acts on the games its holder played only."""
    if who.may_in_club(game.club_id, "club-officer"):
        return
    if who.member_id is None or who.member_id not in (game.white_id, game.black_id):
        raise ClubPermissionError(
            f"{who.user} may enter and change the results of their own games only"
        )


class LadderDesk:
    """Club ladders on one hub's store."""

    def __init__(self, recorder: GameRecorder) -> None:
        self._recorder = recorder

    # -- clubs, members, keys --------------------------------------------------------------

    async def create_club(self, *, name: str, who: Identity) -> Club:
        def work(session: Session) -> Club:
            club = create_club(session, name=name)
            audit(
                session,
                who=who,
                action="create-club",
                target=f"club {club.id}",
                detail={"name": name},
            )
            session.commit()
            return club

        return await self._recorder.run(work)

    async def add_member(
        self,
        *,
        club_id: int,
        name: str,
        ecf_member: bool,
        grading_code: str | None,
        who: Identity,
    ) -> ClubMember:
        def work(session: Session) -> ClubMember:
            member = add_member(
                session,
                club_id=club_id,
                name=name,
                ecf_member=ecf_member,
                grading_code=grading_code,
            )
            audit(
                session,
                who=who,
                action="add-member",
                target=f"club {club_id}",
                detail={"member": member.id, "name": name, "ecf_member": ecf_member},
            )
            session.commit()
            return member

        return await self._recorder.run(work)

    async def update_member(
        self,
        *,
        club_id: int,
        member_id: int,
        name: str,
        ecf_member: bool,
        grading_code: str | None,
        who: Identity,
    ) -> ClubMember:
        def work(session: Session) -> ClubMember:
            member = get_member(session, club_id=club_id, member_id=member_id)
            before = {"name": member.name, "ecf_member": member.ecf_member}
            member.name, member.ecf_member, member.grading_code = name, ecf_member, grading_code
            session.add(member)
            audit(
                session,
                who=who,
                action="update-member",
                target=f"club {club_id}",
                detail={
                    "member": member_id,
                    "from": before,
                    "name": name,
                    "ecf_member": ecf_member,
                },
            )
            session.commit()
            return member

        return await self._recorder.run(work)

    async def members(self, *, club_id: int) -> list[ClubMember]:
        def read(session: Session) -> list[ClubMember]:
            get_club(session, club_id=club_id)
            return list(list_members(session, club_id=club_id))

        return await self._recorder.read(read)

    async def issue_key(
        self,
        *,
        club_id: int,
        role: str,
        user: str | None,
        member_id: int | None,
        who: Identity,
    ) -> tuple[str, str]:
        """A new club key (shown once): returns the user it is for and the token. A player
        key is for a member (its user is named for the member); an officer's or a club
        admin's for a named user. Only the global admin makes a club admin's key."""
        if role not in CLUB_ROLES:
            raise LadderError(f"a club key's role is one of {', '.join(CLUB_ROLES)}")
        _check(who, club_id, "club-admin")
        if role == "club-admin" and not who.may("admin"):
            raise ClubPermissionError("only the hub's admin makes a club admin's key")
        if role == "club-player":
            if member_id is None:
                raise LadderError("a player key is for a member: give member_id")
            holder = f"club {club_id} member {member_id}"
        else:
            if not user:
                raise LadderError(f"a {role} key is for a named user: give user")
            holder = user

        def work(session: Session) -> tuple[str, str]:
            token = create_token(
                session,
                user=holder,
                role=role,
                club_id=club_id,
                member_id=member_id if role == "club-player" else None,
            )
            audit(
                session,
                who=who,
                action="club-key",
                target=f"club {club_id}",
                detail={"user": holder, "role": role, "member": member_id},
            )
            session.commit()
            return holder, token

        return await self._recorder.run(work)

    async def revoke_player_key(self, *, club_id: int, member_id: int, who: Identity) -> int:
        """Withdraw a member's authorisation: their player keys are revoked."""

        def work(session: Session) -> int:
            get_member(session, club_id=club_id, member_id=member_id)
            count = revoke_tokens(session, user=f"club {club_id} member {member_id}")
            audit(
                session,
                who=who,
                action="revoke-club-key",
                target=f"club {club_id}",
                detail={"member": member_id, "revoked": count},
            )
            session.commit()
            return count

        return await self._recorder.run(work)

    # -- ladders ---------------------------------------------------------------------------

    async def create_ladder(self, *, club_id: int, spec: LadderSpec, who: Identity) -> LadderRow:
        row = spec.row()

        def work(session: Session) -> LadderRow:
            ladder = add_ladder(session, club_id=club_id, ladder=row)
            audit(
                session,
                who=who,
                action="create-ladder",
                target=f"ladder {ladder.id}",
                detail={"club": club_id, "name": spec.name},
            )
            session.commit()
            return ladder

        return await self._recorder.run(work)

    async def update_ladder(
        self, *, club_id: int, ladder_id: int, spec: LadderSpec, who: Identity, reason: str
    ) -> LadderRow:
        new = spec.row()

        def work(session: Session) -> LadderRow:
            ladder = get_ladder(session, ladder_id=ladder_id, club_id=club_id)
            before = ladder.model_dump(mode="json")
            for name in LadderSpec.__dataclass_fields__:
                setattr(ladder, name, getattr(new, name))
            session.add(ladder)
            audit(
                session,
                who=who,
                action="update-ladder",
                target=f"ladder {ladder_id}",
                reason=reason,
                detail={"from": before},
            )
            session.commit()
            return ladder

        return await self._recorder.run(work)

    async def delete_ladder(
        self, *, club_id: int, ladder_id: int, who: Identity, reason: str
    ) -> LadderRow:
        """Remove a ladder; its games stay the club's (they may count for other ladders)."""

        def work(session: Session) -> LadderRow:
            ladder = delete_ladder(session, club_id=club_id, ladder_id=ladder_id)
            audit(
                session,
                who=who,
                action="delete-ladder",
                target=f"ladder {ladder_id}",
                reason=reason,
                detail=ladder.model_dump(mode="json"),
            )
            session.commit()
            return ladder

        return await self._recorder.run(work)

    async def ladders(self, *, club_id: int) -> tuple[Club, list[LadderRow]]:
        def read(session: Session) -> tuple[Club, list[LadderRow]]:
            return get_club(session, club_id=club_id), list(list_ladders(session, club_id=club_id))

        return await self._recorder.read(read)

    async def ladder(self, *, ladder_id: int, now: float | None = None) -> LadderView:
        """A ladder's table, replayed from its club's result logs."""
        at = time.time() if now is None else now

        def read(session: Session) -> LadderView:
            ladder = get_ladder(session, ladder_id=ladder_id)
            state = club_state(session, ladder.club_id, at)
            names = state.names
            table = ladder_table(rules_of(ladder), state.counted(), names)
            return LadderView(ladder, state.club, table, names)

        return await self._recorder.read(read)

    # -- results ---------------------------------------------------------------------------

    async def games(self, *, club_id: int, now: float | None = None) -> list[ClubGameState]:
        at = time.time() if now is None else now
        return await self._recorder.read(lambda session: club_state(session, club_id, at).games)

    async def quota(self, *, club_id: int, now: float | None = None) -> list[QuotaWarning]:
        """The club's non-members at or over a free quota of graded games."""
        at = time.time() if now is None else now
        return await self._recorder.read(
            lambda session: club_state(session, club_id, at).warnings()
        )

    async def enter(
        self,
        *,
        club_id: int,
        played_on: date,
        rate: LadderRate,
        white_id: int,
        black_id: int,
        result: Result | None,
        game_id: int | None,
        who: Identity,
        reason: str = "",
    ) -> Entered:
        """A club game and its result: from an officer, from a player of the game (a player
        key), or, with ``game_id``, a game of the hub whose result comes from its board
        (``result`` may then be None: the board's result counts once there is one)."""
        if rate is LadderRate.ALL:
            raise LadderError("a game is played at standard or rapid, not 'all'")
        if white_id == black_id:
            raise LadderError("a player cannot play himself")
        if result is not None and not result.is_decided:
            raise LadderError("a result is 1-0, 0-1 or 1/2-1/2")
        if result is None and game_id is None:
            raise LadderError("a game needs its result, or the hub game it was played as")
        _check(who, club_id, "club-player")
        if game_id is not None:
            _check(who, club_id, "club-officer")  # tagging a board game is an officer's
        elif who.member_id not in (white_id, black_id):
            _check(who, club_id, "club-officer")

        def work(session: Session) -> Entered:
            if game_id is not None and session.get(Game, game_id) is None:
                raise LadderError(f"no game {game_id} in the hub")
            game = add_club_game(
                session,
                club_id=club_id,
                played_on=played_on,
                rate=rate,
                white_id=white_id,
                black_id=black_id,
                game_id=game_id,
            )
            if result is not None:
                append_result(
                    session, club_game_id=_id(game), result=result, by=who.user, at=time.time(),
                    reason=reason,
                )  # fmt: skip
            audit(
                session,
                who=who,
                action="club-result",
                target=f"club game {game.id}",
                reason=reason,
                detail={
                    "club": club_id,
                    "played_on": played_on.isoformat(),
                    "rate": rate,
                    "white": white_id,
                    "black": black_id,
                    "result": result,
                    "game": game_id,
                },
            )
            session.commit()
            return self._entered(session, club_id, _id(game))

        return await self._recorder.run(work)

    async def change(
        self,
        *,
        club_id: int,
        club_game_id: int,
        result: Result | None,
        who: Identity,
        reason: str = "",
    ) -> Entered:
        """Edit a game's result (``result``) or delete the game from the ladders (None):
        an entry appended to its log, audited."""
        if result is not None and not result.is_decided:
            raise LadderError("a result is 1-0, 0-1 or 1/2-1/2")

        def work(session: Session) -> Entered:
            game = get_club_game(session, club_id=club_id, club_game_id=club_game_id)
            _own_game(who, game)
            [before] = game_states(session, [game], time.time())
            if before.log and before.log[-1].result is None:
                raise ClubResultError(f"club game {club_game_id} is deleted")
            append_result(
                session, club_game_id=club_game_id, result=result, by=who.user, at=time.time(),
                reason=reason,
            )  # fmt: skip
            audit(
                session,
                who=who,
                action="club-result-edit" if result is not None else "club-result-delete",
                target=f"club game {club_game_id}",
                reason=reason,
                detail={"club": club_id, "from": before.result, "to": result},
            )
            session.commit()
            return self._entered(session, club_id, club_game_id)

        return await self._recorder.run(work)

    @staticmethod
    def _entered(session: Session, club_id: int, club_game_id: int) -> Entered:
        state = club_state(session, club_id, time.time())
        [game] = [g for g in state.games if g.id == club_game_id]
        counted = game.counted()
        return Entered(game, [] if counted is None else state.warnings(counted))


class ClubResultError(ValueError, RefusedError):
    """A change to a club game that its log refuses (a deleted game is not edited)."""


def _id(game: ClubGame) -> int:
    assert game.id is not None
    return game.id
