"""Club ladders (docs/ladders.md), ``hub.ladders``: clubs, members, ladders, the games of a
club with their result logs, club keys, and each ladder's table.

Every change runs as one transaction on the store thread with its audit entry, and nothing
else: the answer (the game as it stands, the quota warnings) is worked out after the commit,
beside the store thread (``recorder.read``), which also records the live moves. A result is
never changed in place: an entry, an edit or a deletion appends to the game's result log
(who, when, why), and a ladder's table is replayed from the logs each time it is read
(:func:`relay.domain.ladder.rules.ladder_table`), so an edit or a deletion is in the table
at once.

A club game may be linked to a game of the hub (``game_id``: a game of a published round on
an electronic board, tagged for the club's ladders). Its result then comes from that game's
own log, the board's end or the arbiter's result, as the public sees it (its round
published, as of its transmission delay's cut), with no entry needed; an officer's later
entry stands over it (:func:`relay.domain.ladder.results_log.current_result`). It is read
from the hub's cached views of the round (:mod:`relay.hub.game_views`), never replayed from
the store. Nothing is copied from one log to the other, so nothing is missed while the hub
is down and two processes never write it twice. The link is no foreign key: an arbiter may
replace a round's pairings (its games are deleted); a tag then moves to the new game where
the board has the same players, and is cleared where it has not
(:func:`relay.store.pairings.set_pairings`), so a club game without a tag gives no board
result.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime

from sqlmodel import Session, col, select

from relay.domain.errors import RefusedError
from relay.domain.ladder.quota import QuotaWarning, game_warnings, quota_warnings, season_of
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
from relay.hub.game_views import GameViews, delay_cut
from relay.hub.recorder import GameRecorder
from relay.store.access import (
    CLUB_ROLES,
    OFFICER_USER,
    PLAYER_USER,
    Identity,
    audit,
    club_user,
    create_token,
    player_user,
    revoke_club_tokens,
    shown_name,
)
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
from relay.store.models import (
    Club,
    ClubGame,
    ClubMember,
    ClubResultRow,
    Game,
    LadderRow,
    Round,
    User,
)
from relay.store.tournaments import NotFoundError

#: The kinds of a game's log that give it a result.
RESULT_KINDS = ("end", "result")
#: The most club games one request lists (``GET /api/clubs/{id}/games?offset=&limit=``).
MAX_GAMES_LISTED = 500


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

    @property
    def non_members(self) -> set[int]:
        return {i for i, m in self.members.items() if not m.ecf_member}

    def warnings(self, game: ClubResult) -> list[QuotaWarning]:
        """What entering ``game`` tells the officer of its players' free quotas."""
        ladders = [rules_of(row) for row in self.ladders]
        return game_warnings(ladders, self.counted(), self.non_members, self.names, game)

    def quota(self, season: int) -> list[QuotaWarning]:
        """The non-members at or over a free quota in ``season``."""
        ladders = [rules_of(row) for row in self.ladders]
        return quota_warnings(ladders, self.counted(), self.non_members, self.names, season=season)


@dataclass(frozen=True, slots=True)
class ClubRows:
    """What the store holds of a club for its tables, read in one session: the games (all,
    or a page of them), their result logs, and the publication and transmission delay of
    the round of each hub game they are linked to (a game that no longer exists has none)."""

    club: Club
    members: dict[int, ClubMember]
    ladders: list[LadderRow]
    games: list[ClubGame]
    logs: dict[int, list[ClubResultRow]]
    rounds: dict[int, tuple[bool, float]]


def club_state(
    session: Session,
    club_id: int,
    *,
    offset: int = 0,
    limit: int | None = None,
    club_game_ids: Sequence[int] | None = None,
) -> ClubRows:
    """The club's rows (``offset``, ``limit``: a page of its games; ``club_game_ids``: only
    those games). It only reads: run it beside the store thread (``recorder.read``)."""
    club = get_club(session, club_id=club_id)
    members = {m.id: m for m in list_members(session, club_id=club_id) if m.id is not None}
    games = list(list_club_games(session, club_id=club_id, offset=offset, limit=limit))
    if club_game_ids is not None:
        games = [g for g in games if g.id in club_game_ids]
    logs = result_logs(session, club_game_ids=[g.id for g in games if g.id is not None])
    tagged = {g.game_id for g in games if g.game_id is not None}
    rounds: dict[int, tuple[bool, float]] = {}
    if tagged:
        for game_id, published, delay in session.exec(
            select(Game.id, Round.published, Round.delay_seconds)
            .join(Round, col(Round.id) == col(Game.round_id))
            .where(col(Game.id).in_(tagged))
        ).all():
            assert game_id is not None
            rounds[game_id] = (published, delay)
    return ClubRows(
        club, members, list(list_ladders(session, club_id=club_id)), games, logs, rounds
    )


async def board_result(
    views: GameViews, game_id: int, round_: tuple[bool, float] | None, now: float
) -> tuple[float, Result] | None:
    """The result a hub game's log reached and when, as the public sees it at ``now``: its
    log as of the transmission delay's cut (:func:`~relay.hub.game_views.delay_cut`), from the hub's
    cached view of the game. None while its round is unpublished, before a result within the
    cut, or for a game that no longer exists (its round's pairings were replaced)."""
    if round_ is None or not round_[0]:
        return None
    try:
        view = await views.game(game_id)
    except (NotFoundError, KeyError):
        return None
    version = view.version_at(delay_cut(round_[1], now))
    for item in reversed(view.events[:version]):
        if item.kind in RESULT_KINDS:
            return item.recorded_at, view.record(version).result
    return None


async def states_of(views: GameViews, rows: ClubRows, now: float) -> ClubState:
    """The club's games with the results that count, their board results from ``views``."""
    states = []
    for game in rows.games:
        assert game.id is not None
        log = rows.logs[game.id]
        board = None
        if game.game_id is not None:
            board = await board_result(views, game.game_id, rows.rounds.get(game.game_id), now)
        entries = [
            (row.at, None if row.result is None else Result.parse(row.result)) for row in log
        ]
        states.append(
            ClubGameState(
                game, log, None if board is None else board[1], current_result(entries, board)
            )
        )
    return ClubState(rows.club, rows.members, rows.ladders, states)


def _check(who: Identity, club_id: int, role: str) -> None:
    if not who.may_in_club(club_id, role):
        raise ClubPermissionError(
            f"{shown_name(who.user)} may not do this in club {club_id}: it needs {role}"
        )


def _officer_only(who: Identity, club_id: int) -> None:
    """A player key enters the result of a new game its holder played, nothing more."""
    if not who.may_in_club(club_id, "club-officer"):
        raise ClubPermissionError(
            f"{shown_name(who.user)} may enter the results of new games they played only: "
            "editing or "
            "deleting a result, and a game on a board, are an officer's"
        )


class LadderDesk:
    """Club ladders on one hub's store; board results from the hub's views of its games."""

    def __init__(self, recorder: GameRecorder, views: GameViews) -> None:
        self._recorder = recorder
        self._views = views

    async def _state(
        self, club_id: int, now: float | None = None, club_game_ids: Sequence[int] | None = None
    ) -> ClubState:
        at = time.time() if now is None else now
        rows = await self._recorder.read(
            lambda session: club_state(session, club_id, club_game_ids=club_game_ids)
        )
        return await states_of(self._views, rows, at)

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
        """A new club key (shown once): returns the user it is for, as shown, and the token.
        A player key is for a member (its user is ``club C member M``); an officer's or a
        club admin's for a named user, in the club's namespace (stored as ``club C: NAME``,
        shown as NAME; a name like a player key's is refused). A key is never given to a
        user of another role or club. Only the global admin makes a club admin's key."""
        if role not in CLUB_ROLES:
            raise LadderError(f"a club key's role is one of {', '.join(CLUB_ROLES)}")
        _check(who, club_id, "club-admin")
        if role == "club-admin" and not who.may("admin"):
            raise ClubPermissionError("only the hub's admin makes a club admin's key")
        if role == "club-player":
            if member_id is None:
                raise LadderError("a player key is for a member: give member_id")
            holder = shown = player_user(club_id, member_id)
        else:
            if not user:
                raise LadderError(f"a {role} key is for a named user: give user")
            if PLAYER_USER.fullmatch(user) or OFFICER_USER.fullmatch(user):
                raise LadderError(
                    f"{user!r} is named like a player key's or another club's user: "
                    "give the key another name"
                )
            holder, shown = club_user(club_id, user), user

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
            return shown, token

        return await self._recorder.run(work)

    async def revoke_player_key(self, *, club_id: int, member_id: int, who: Identity) -> int:
        """Withdraw a member's authorisation: their player keys are revoked."""

        def work(session: Session) -> int:
            get_member(session, club_id=club_id, member_id=member_id)
            count = revoke_club_tokens(session, club_id=club_id, member_id=member_id)
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

    async def revoke_officer_keys(self, *, club_id: int, user: str, who: Identity) -> int:
        """Withdraw an officer's keys (``user`` as shown); a club admin's keys only the hub's
        admin withdraws. Keys of other clubs are never touched."""
        _check(who, club_id, "club-admin")
        holder = club_user(club_id, user)

        def work(session: Session) -> int:
            get_club(session, club_id=club_id)
            role = session.exec(select(User.role).where(User.name == holder)).first()
            if role is None:
                raise NotFoundError(f"no officer {user!r} in club {club_id}")
            if role != "club-officer" and not who.may("admin"):
                raise ClubPermissionError(f"only the hub's admin withdraws a {role}'s keys")
            count = revoke_club_tokens(session, club_id=club_id, user=holder)
            audit(
                session,
                who=who,
                action="revoke-club-key",
                target=f"club {club_id}",
                detail={"user": holder, "revoked": count},
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

        def read(session: Session) -> tuple[LadderRow, ClubRows]:
            ladder = get_ladder(session, ladder_id=ladder_id)
            return ladder, club_state(session, ladder.club_id)

        ladder, rows = await self._recorder.read(read)
        state = await states_of(self._views, rows, at)
        names = state.names
        table = ladder_table(rules_of(ladder), state.counted(), names)
        return LadderView(ladder, state.club, table, names)

    # -- results ---------------------------------------------------------------------------

    async def games(
        self,
        *,
        club_id: int,
        offset: int = 0,
        limit: int = MAX_GAMES_LISTED,
        now: float | None = None,
    ) -> list[ClubGameState]:
        """A page of the club's games (``limit``: at most :data:`MAX_GAMES_LISTED`)."""
        at = time.time() if now is None else now
        size = min(limit, MAX_GAMES_LISTED)
        rows = await self._recorder.read(
            lambda session: club_state(session, club_id, offset=offset, limit=size)
        )
        return (await states_of(self._views, rows, at)).games

    async def quota(
        self, *, club_id: int, season: int | None = None, now: float | None = None
    ) -> list[QuotaWarning]:
        """The club's non-members at or over a free quota of graded games in ``season`` (the
        year it starts in; by default the season of ``now``'s day)."""
        at = time.time() if now is None else now
        if season is None:
            season = season_of(datetime.fromtimestamp(at, UTC).date())
        return (await self._state(club_id, at)).quota(season)

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
        key: a new game they played, with its result), or, with ``game_id`` (an officer's),
        a game of a published round of the hub whose result comes from its board (``result``
        may then be None: the board's result counts once there is one)."""
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

        def work(session: Session) -> int:
            if game_id is not None:
                # One answer for a game that is not there and one of a round not published,
                # so that nothing tells whether an unpublished game exists. The hub game's
                # players are not matched against the club's members (their names may be
                # written differently): that is the officer's care.
                hub_game = session.get(Game, game_id)
                round_ = None if hub_game is None else session.get(Round, hub_game.round_id)
                if round_ is None or not round_.published:
                    raise LadderError(f"no game {game_id} of a published round in the hub")
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
            return _id(game)

        return await self._entered(club_id, await self._recorder.run(work))

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
        an entry appended to its log, audited. An officer's (or the hub admin's) only; a
        result after a deletion restores the game, a deletion of a deleted game is
        refused."""
        if result is not None and not result.is_decided:
            raise LadderError("a result is 1-0, 0-1 or 1/2-1/2")
        _officer_only(who, club_id)
        states = (await self._state(club_id, club_game_ids=[club_game_id])).games
        before = states[0].result if states else None

        def work(session: Session) -> int:
            get_club_game(session, club_id=club_id, club_game_id=club_game_id)
            log = result_logs(session, club_game_ids=[club_game_id])[club_game_id]
            if result is None and log and log[-1].result is None:
                raise ClubResultError(f"club game {club_game_id} is deleted already")
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
                detail={
                    "club": club_id,
                    "from": before,
                    "to": result,
                },
            )
            session.commit()
            return club_game_id

        return await self._entered(club_id, await self._recorder.run(work))

    async def _entered(self, club_id: int, club_game_id: int) -> Entered:
        """The game as it stands after the commit and its warnings, worked out beside the
        store thread."""
        state = await self._state(club_id)
        [game] = [g for g in state.games if g.id == club_game_id]
        counted = game.counted()
        return Entered(game, [] if counted is None else state.warnings(counted))


class ClubResultError(ValueError, RefusedError):
    """A change to a club game that its log refuses (a deleted game is not edited)."""


def _id(game: ClubGame) -> int:
    assert game.id is not None
    return game.id
