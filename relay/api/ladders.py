"""Club ladders (docs/ladders.md): the public tables (JSON and CSV) and a club's ladders and
games; the club's own routes for its officers and players, each admitting the hub's admin and
the keys of the club the path names (``ClubCheck``)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from typing import Annotated, Literal

from fastapi import APIRouter, HTTPException, Path, Query
from fastapi.responses import PlainTextResponse
from pydantic import BaseModel, ConfigDict, Field

from relay.api.csv_response import CSV_MEDIA_TYPE, CsvResponse
from relay.api.deps import AdminDep, ClubAdminDep, ClubOfficerDep, ClubPlayerDep, HubDep
from relay.api.ids import MAX_STORED, BodyId
from relay.api.refusals import refusals
from relay.api.schemas.common import PLAIN_TEXT
from relay.api.schemas.ladders import (
    ClubGameInfo,
    ClubInfo,
    ClubKey,
    ClubLadders,
    HistoryEntry,
    KeysRevoked,
    LadderInfo,
    LadderLine,
    LadderTable,
    MemberInfo,
    QuotaWarningInfo,
    ResultEntered,
    ResultEntry,
)
from relay.domain.errors import MissingError
from relay.domain.ladder.quota import QuotaWarning, season_label
from relay.domain.ladder.rules import LadderRate
from relay.domain.results import Result
from relay.hub.ladders import (
    MAX_GAMES_LISTED,
    ClubGameState,
    ClubPermissionError,
    Entered,
    LadderSpec,
    LadderView,
)
from relay.store.models import Club, ClubMember, LadderRow

router = APIRouter(prefix="/api", tags=["ladders"])

ClubId = Annotated[int, Path(ge=1, le=MAX_STORED, description="a club's id")]
LadderId = Annotated[int, Path(ge=1, le=MAX_STORED, description="a ladder's id")]
MemberId = Annotated[int, Path(ge=1, le=MAX_STORED, description="a club member's id")]
ClubGameId = Annotated[int, Path(ge=1, le=MAX_STORED, description="a club game's id")]
SeasonQuery = Annotated[
    int | None,
    Query(ge=1900, le=9998, description="an ECF season by the year it starts in: 2024 is 2024-25"),
]
#: Points, games and quotas a ladder may be given.
Count = Annotated[int, Field(ge=0, le=100_000)]
Name = Annotated[str, Field(min_length=1, max_length=200, pattern=PLAIN_TEXT)]
Reason = Annotated[
    str, Field(max_length=1000, pattern=PLAIN_TEXT, description="why, for the audit trail")
]


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ClubIn(Body):
    name: Name


class MemberIn(Body):
    name: Name = Field(description='"Family, Given"')
    ecf_member: bool = False
    grading_code: str | None = Field(default=None, max_length=20, pattern=PLAIN_TEXT)


class LadderIn(Body):
    name: Name
    rate: LadderRate
    starts: date
    ends: date
    initial_points: Count = 50
    min_games: Count = 8
    graded: bool = False
    quota_standard: Count = 3
    quota_rapid: Count = 6
    reason: Reason = ""

    def spec(self) -> LadderSpec:
        return LadderSpec(
            self.name,
            self.rate,
            self.starts,
            self.ends,
            self.initial_points,
            self.min_games,
            self.graded,
            self.quota_standard,
            self.quota_rapid,
        )


class GameIn(Body):
    played_on: date
    rate: Literal[LadderRate.STANDARD, LadderRate.RAPID]
    white: BodyId = Field(description="the member who had White")
    black: BodyId
    result: Result | None = Field(
        default=None, description="1-0, 0-1 or 1/2-1/2; null only with game_id (the board's)"
    )
    game_id: BodyId | None = Field(
        default=None, description="the hub game it was played as, on an electronic board"
    )
    reason: Reason = ""


class ResultIn(Body):
    result: Result
    reason: Reason = ""


class KeyIn(Body):
    role: Literal["club-player", "club-officer", "club-admin"]
    user: Name | None = Field(default=None, description="who holds an officer's or admin's key")
    member_id: BodyId | None = Field(default=None, description="the member a player key is for")


@contextmanager
def club_refusals(what: str) -> Iterator[None]:
    """Refusals by kind (``refusals``), with 403 for what a club key may not do and the
    missing thing named."""
    with refusals(what):
        try:
            yield
        except ClubPermissionError as error:
            raise HTTPException(403, str(error)) from None
        except MissingError as error:
            raise HTTPException(404, str(error)) from None


def _club(club: Club) -> ClubInfo:
    assert club.id is not None
    return ClubInfo(id=club.id, name=club.name)


def _member(member: ClubMember) -> MemberInfo:
    return MemberInfo.model_validate(member.model_dump())


def _ladder(ladder: LadderRow) -> LadderInfo:
    return LadderInfo.model_validate(ladder.model_dump())


def _game(state: ClubGameState) -> ClubGameInfo:
    game = state.game
    assert game.id is not None
    return ClubGameInfo(
        id=game.id,
        club_id=game.club_id,
        played_on=game.played_on,
        rate=game.rate,
        white=game.white_id,
        black=game.black_id,
        game_id=game.game_id,
        board_result=state.board,
        result=state.result,
        log=[
            ResultEntry(
                seq=row.seq,
                result=None if row.result is None else Result.parse(row.result),
                by=row.by,
                at=row.at,
                reason=row.reason,
            )
            for row in state.log
        ],
    )


def _warning(warning: QuotaWarning) -> QuotaWarningInfo:
    return QuotaWarningInfo(
        player=warning.player,
        name=warning.name,
        rate=warning.rate,
        games=warning.games,
        quota=warning.quota,
        season=season_label(warning.season),
        over=warning.over,
        message=str(warning),
    )


def _entered(entered: Entered) -> ResultEntered:
    return ResultEntered(game=_game(entered.game), warnings=[_warning(w) for w in entered.warnings])


def _table(view: LadderView) -> LadderTable:
    names = view.names
    return LadderTable(
        ladder=_ladder(view.ladder),
        club=_club(view.club),
        lines=[
            LadderLine(
                rank=line.rank,
                place=line.place,
                player=line.player,
                name=names.get(line.player, ""),
                points=line.points,
                games=line.games,
                wins=line.wins,
                draws=line.draws,
                losses=line.losses,
                qualified=line.qualified,
                history=[
                    HistoryEntry(
                        game=h.game_id,
                        played_on=h.played_on,
                        opponent=h.opponent,
                        opponent_name=names.get(h.opponent, ""),
                        colour=h.colour,
                        score=h.score,
                        before=h.before,
                        opponent_before=h.opponent_before,
                        change=h.change,
                        after=h.after,
                    )
                    for h in line.history
                ],
            )
            for line in view.standings
        ],
    )


#: The CSV's columns, in order; each a key of a line of the JSON table.
CSV_COLUMNS = ("place", "name", "points", "games", "wins", "draws", "losses", "qualified", "player")
#: What a spreadsheet takes a cell starting with for a formula (OWASP, "CSV Injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: object) -> object:
    """A text cell a spreadsheet would run as a formula, quoted with a leading ``'``;
    numbers (the hub's own, a negative score too) and other text as they are."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def table_csv(table: LadderTable) -> str:
    """The table as CSV: one row per player, the columns of :data:`CSV_COLUMNS`; text
    cells neutralised (:func:`safe_cell`), members' names being anyone's words."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for line in table.lines:
        row = line.model_dump()
        writer.writerow(
            safe_cell(("yes" if row[c] else "no") if c == "qualified" else row[c])
            for c in CSV_COLUMNS
        )
    return out.getvalue()


# -- public -------------------------------------------------------------------------------


@router.get("/ladders/{ladder_id}.csv", response_class=CsvResponse)
async def ladder_csv(hub: HubDep, ladder_id: LadderId) -> PlainTextResponse:
    """The ladder's table as CSV: place, name, points, games, wins, draws, losses,
    qualified (yes or no), the member's id."""
    with club_refusals(f"ladder {ladder_id}"):
        view = await hub.ladders.ladder(ladder_id=ladder_id)
    return PlainTextResponse(table_csv(_table(view)), media_type=CSV_MEDIA_TYPE)


@router.get("/ladders/{ladder_id}")
async def ladder_table(hub: HubDep, ladder_id: LadderId) -> LadderTable:
    """The ladder's table, replayed from its club's results: each player's place, points,
    games and whether they qualify, with the history of their games."""
    with club_refusals(f"ladder {ladder_id}"):
        return _table(await hub.ladders.ladder(ladder_id=ladder_id))


@router.get("/clubs/{club_id}/ladders")
async def club_ladders(hub: HubDep, club_id: ClubId) -> ClubLadders:
    """The club's ladders."""
    with club_refusals(f"club {club_id}"):
        club, ladders = await hub.ladders.ladders(club_id=club_id)
    return ClubLadders(club=_club(club), ladders=[_ladder(ladder) for ladder in ladders])


@router.get("/clubs/{club_id}/games")
async def club_games(
    hub: HubDep,
    club_id: ClubId,
    offset: Annotated[int, Query(ge=0, le=MAX_STORED, description="games skipped")] = 0,
    limit: Annotated[
        int, Query(ge=1, le=MAX_GAMES_LISTED, description="games listed at most")
    ] = MAX_GAMES_LISTED,
) -> list[ClubGameInfo]:
    """The club's games in the order they were entered, a page at a time (at most 500),
    each with its result log (who entered, edited or deleted what, when and why) and the
    result that counts."""
    with club_refusals(f"club {club_id}"):
        games = await hub.ladders.games(club_id=club_id, offset=offset, limit=limit)
        return [_game(state) for state in games]


# -- the hub's admin ---------------------------------------------------------------------


@router.post("/clubs")
async def create_club(hub: HubDep, who: AdminDep, body: ClubIn) -> ClubInfo:
    """A new club (the hub's admin); its admin's key comes from ``/clubs/{club_id}/keys``."""
    return _club(await hub.ladders.create_club(name=body.name, who=who))


# -- the club's keys ---------------------------------------------------------------------


@router.post("/clubs/{club_id}/keys")
async def issue_club_key(hub: HubDep, who: ClubAdminDep, club_id: ClubId, body: KeyIn) -> ClubKey:
    """A key for the club, shown once: a player key for a member (the club admin authorises
    the player), an officer's key, or (the hub's admin only) a club admin's key."""
    with club_refusals(f"club {club_id}"):
        user, token = await hub.ladders.issue_key(
            club_id=club_id, role=body.role, user=body.user, member_id=body.member_id, who=who
        )
    member = body.member_id if body.role == "club-player" else None
    return ClubKey(user=user, role=body.role, club_id=club_id, member_id=member, token=token)


@router.delete("/clubs/{club_id}/members/{member_id}/keys")
async def revoke_player_keys(
    hub: HubDep, who: ClubAdminDep, club_id: ClubId, member_id: MemberId
) -> KeysRevoked:
    """Withdraw a member's authorisation: their player keys stop working."""
    with club_refusals(f"member {member_id} in club {club_id}"):
        count = await hub.ladders.revoke_player_key(club_id=club_id, member_id=member_id, who=who)
    return KeysRevoked(revoked=count)


@router.delete("/clubs/{club_id}/officers/keys")
async def revoke_officer_keys(
    hub: HubDep,
    who: ClubAdminDep,
    club_id: ClubId,
    user: Annotated[str, Query(min_length=1, max_length=200, pattern=PLAIN_TEXT)],
) -> KeysRevoked:
    """Withdraw an officer's keys (``user``: the name the key was made for); a club
    admin's keys only the hub's admin withdraws."""
    with club_refusals(f"officer {user!r} of club {club_id}"):
        count = await hub.ladders.revoke_officer_keys(club_id=club_id, user=user, who=who)
    return KeysRevoked(revoked=count)


# -- the club's officers -----------------------------------------------------------------


@router.get("/clubs/{club_id}/members")
async def club_members(hub: HubDep, who: ClubPlayerDep, club_id: ClubId) -> list[MemberInfo]:
    """The club's members (for its own keys: ECF membership is the club's business)."""
    with club_refusals(f"club {club_id}"):
        return [_member(m) for m in await hub.ladders.members(club_id=club_id)]


@router.post("/clubs/{club_id}/members")
async def add_club_member(
    hub: HubDep, who: ClubOfficerDep, club_id: ClubId, body: MemberIn
) -> MemberInfo:
    with club_refusals(f"club {club_id}"):
        member = await hub.ladders.add_member(
            club_id=club_id,
            name=body.name,
            ecf_member=body.ecf_member,
            grading_code=body.grading_code,
            who=who,
        )
    return _member(member)


@router.put("/clubs/{club_id}/members/{member_id}")
async def update_club_member(
    hub: HubDep, who: ClubOfficerDep, club_id: ClubId, member_id: MemberId, body: MemberIn
) -> MemberInfo:
    with club_refusals(f"member {member_id} in club {club_id}"):
        member = await hub.ladders.update_member(
            club_id=club_id,
            member_id=member_id,
            name=body.name,
            ecf_member=body.ecf_member,
            grading_code=body.grading_code,
            who=who,
        )
    return _member(member)


@router.post("/clubs/{club_id}/ladders")
async def create_ladder(
    hub: HubDep, who: ClubOfficerDep, club_id: ClubId, body: LadderIn
) -> LadderInfo:
    """A new ladder: its rate, period (both days counted), initial points, minimum games,
    whether it is graded and the free quotas of non-members."""
    with club_refusals(f"club {club_id}"):
        return _ladder(await hub.ladders.create_ladder(club_id=club_id, spec=body.spec(), who=who))


@router.put("/clubs/{club_id}/ladders/{ladder_id}")
async def update_ladder(
    hub: HubDep, who: ClubOfficerDep, club_id: ClubId, ladder_id: LadderId, body: LadderIn
) -> LadderInfo:
    """Change a ladder's rules; its table is replayed under them."""
    with club_refusals(f"ladder {ladder_id} in club {club_id}"):
        ladder = await hub.ladders.update_ladder(
            club_id=club_id, ladder_id=ladder_id, spec=body.spec(), who=who, reason=body.reason
        )
    return _ladder(ladder)


@router.delete("/clubs/{club_id}/ladders/{ladder_id}")
async def delete_ladder(
    hub: HubDep,
    who: ClubOfficerDep,
    club_id: ClubId,
    ladder_id: LadderId,
    reason: Annotated[str, Query(max_length=1000, pattern=PLAIN_TEXT)] = "",
) -> LadderInfo:
    """Remove a ladder; the club's games stay (they may count for its other ladders)."""
    with club_refusals(f"ladder {ladder_id} in club {club_id}"):
        ladder = await hub.ladders.delete_ladder(
            club_id=club_id, ladder_id=ladder_id, who=who, reason=reason
        )
    return _ladder(ladder)


@router.get("/clubs/{club_id}/quota")
async def club_quota(
    hub: HubDep, who: ClubOfficerDep, club_id: ClubId, season: SeasonQuery = None
) -> list[QuotaWarningInfo]:
    """Non-members at or over a free quota of graded games in an ECF season (1 September
    to 31 August; by default the one running now)."""
    with club_refusals(f"club {club_id}"):
        await hub.ladders.ladders(club_id=club_id)  # 404 for no club
        warnings = await hub.ladders.quota(club_id=club_id, season=season, now=hub.now())
        return [_warning(w) for w in warnings]


# -- results: officers, and players for their own games ---------------------------------------


@router.post("/clubs/{club_id}/games")
async def enter_club_game(
    hub: HubDep, who: ClubPlayerDep, club_id: ClubId, body: GameIn
) -> ResultEntered:
    """A club game and its result, by an officer or by a player of the game (a player key:
    a new game they played, with its result). With ``game_id`` (an officer's), the hub game
    of a published round it was played as on an electronic board: its result counts as soon
    as the public sees the game end. Warns of free quotas."""
    with club_refusals(f"club {club_id}"):
        entered = await hub.ladders.enter(
            club_id=club_id,
            played_on=body.played_on,
            rate=LadderRate(body.rate),
            white_id=body.white,
            black_id=body.black,
            result=body.result,
            game_id=body.game_id,
            who=who,
            reason=body.reason,
        )
    return _entered(entered)


@router.put("/clubs/{club_id}/games/{club_game_id}")
async def edit_club_result(
    hub: HubDep, who: ClubOfficerDep, club_id: ClubId, club_game_id: ClubGameId, body: ResultIn
) -> ResultEntered:
    """Edit a game's result (an officer's; after a deletion, it restores the game):
    appended to its log, audited; the ladders are replayed."""
    with club_refusals(f"game {club_game_id} in club {club_id}"):
        entered = await hub.ladders.change(
            club_id=club_id,
            club_game_id=club_game_id,
            result=body.result,
            who=who,
            reason=body.reason,
        )
    return _entered(entered)


@router.delete("/clubs/{club_id}/games/{club_game_id}")
async def delete_club_result(
    hub: HubDep,
    who: ClubOfficerDep,
    club_id: ClubId,
    club_game_id: ClubGameId,
    reason: Annotated[str, Query(max_length=1000, pattern=PLAIN_TEXT)] = "",
) -> ResultEntered:
    """Delete a game from the ladders (an officer's): a deletion appended to its log,
    audited; an officer may restore it with a result."""
    with club_refusals(f"game {club_game_id} in club {club_id}"):
        entered = await hub.ladders.change(
            club_id=club_id, club_game_id=club_game_id, result=None, who=who, reason=reason
        )
    return _entered(entered)
