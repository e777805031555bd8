"""Correspondence events (docs/correspondence.md): a new event, its players' keys, a game's
days and clocks, what is due."""

from __future__ import annotations

from datetime import date
from typing import Annotated

from pydantic import Field

from relay.api.schemas.common import PLAIN_TEXT, Number, Schema
from relay.domain.correspondence.adjudication import TournamentFormat
from relay.domain.correspondence.days import EventKind
from relay.domain.correspondence.withdrawal import WithdrawalKind
from relay.domain.results import Result

Name = Annotated[str, Field(min_length=1, max_length=200, pattern=PLAIN_TEXT)]


class PlayerIn(Schema):
    name: Name
    email: str | None = Field(default=None, max_length=200, pattern=PLAIN_TEXT)
    rating: int | None = Field(default=None, ge=0, le=4000)
    time_zone: str = Field(
        default="UTC", max_length=64, pattern=PLAIN_TEXT, description="IANA, e.g. Europe/Oslo"
    )


class EventIn(Schema):
    name: Name
    control: EventKind = Field(
        description="standard and team: 40 days per 10 moves; rapid: 10 days + 1 a move"
    )
    format: TournamentFormat = Field(
        description="the tournament's kind for its global limit (C.15)"
    )
    started: date = Field(description="the day every game's clock starts")
    players: list[PlayerIn] = Field(min_length=2, max_length=40)
    ts_email: str | None = Field(
        default=None, max_length=200, pattern=PLAIN_TEXT, description="the Tournament Secretary's"
    )
    double: bool = Field(default=False, description="a double round robin")


class PlayerKey(Schema):
    player_id: int
    name: str
    key: str = Field(description="the player's key, shown once: moves, notices and leave")


class EventCreated(Schema):
    tournament_id: int
    games: int
    keys: list[PlayerKey]


class EventInfo(Schema):
    tournament_id: int
    name: str
    control: EventKind
    format: TournamentFormat
    started: date


class ClockInfo(Schema):
    """One player's days (C.6): used, and left before the next control."""

    moves: int = Field(description="moves made")
    used: int = Field(description="days charged so far, doubling and penalties included")
    next_control: int = Field(description="the move the next time control is at")
    allowance: int = Field(description="days allowed up to that move")
    left: int = Field(description="days left before the next control")
    decision: str = Field(description="in-time, flag-fell, forfeited or withdrawn")


class LeaveInfo(Schema):
    announced: date
    first: date
    last: date


class DueInfo(Schema):
    since: date
    kind: str = Field(description="reminder, inform-ts, doubled-time, flag, forfeit, ...")
    side: str = Field(description="white or black: who must act, or whom it concerns")
    article: str = Field(description="the article of the IECG rules, section C")


class GameDays(Schema):
    game_id: int
    tournament_id: int
    started: date
    today: date = Field(description="the hub's day (UTC)")
    finished: bool
    to_move: str | None = Field(description="white or black; null once the game is over")
    sent: list[date] = Field(description="the day each ply was sent, ply 1 first (UTC)")
    white: ClockInfo
    black: ClockInfo
    white_leaves: list[LeaveInfo]
    black_leaves: list[LeaveInfo]
    time_zones: list[str] = Field(description="White's and Black's, for showing their dates")
    due: list[DueInfo] = Field(description="what is due today (staff and the players only)")
    you: str | None = Field(
        default=None, description="white or black: the side the caller's player key plays"
    )


class DueItemInfo(Schema):
    game_id: int
    white: str
    black: str
    due: DueInfo
    done_on: date | None = Field(description="the day the hub acted on it, if it has")


class MoveIn(Schema):
    ply: int = Field(ge=1, le=10_000, description="the ply the move is for; 1 is White's first")
    move: str = Field(min_length=1, max_length=20, pattern=PLAIN_TEXT, examples=["Nf3"])


class NoticeAnswer(Schema):
    kept: bool = Field(description="false when this move had a notice already")


class LeaveIn(Schema):
    first: date
    last: date


Move = Annotated[str, Field(min_length=1, max_length=12, pattern=PLAIN_TEXT)]


class ConditionalIn(Schema):
    steps: list[tuple[Move, Move]] = Field(
        min_length=1,
        max_length=40,
        description='each step: the opponent\'s move and your reply, e.g. [["e5", "Nf3"]]',
    )


class ConditionalAnswer(Schema):
    steps: int = Field(description="the steps that bind you now")
    fen: str = Field(description="the position the sequence starts from")


class WithdrawalIn(Schema):
    player_id: int = Field(ge=1, le=2**31 - 1)
    kind: WithdrawalKind = Field(description="announced (he told the TS) or silent (C.9.A)")


class WithdrawalInfo(Schema):
    player_id: int
    kind: WithdrawalKind
    on: date
    finished: int = Field(description="his games finished when he withdrew")
    games: int
    all_forfeited: bool = Field(
        description="at most half finished: every game of his is a forfeit on the table (9.B)"
    )


class TableLineInfo(Schema):
    place: int = Field(description="equal points and Sonneborn-Berger share a place")
    player_id: int
    name: str
    points: Number
    sonneborn_berger: Number = Field(description="C.14")
    counted: int = Field(description="games counted: finished, or forfeited")
    forfeits_won: int
    forfeits_lost: int


class RatedGameInfo(Schema):
    white_id: int
    black_id: int
    result: Result


class ClaimInfo(Schema):
    side: str
    result: Result
    analysed: bool = Field(description="sent with analysis: keeps the right to appeal (C.10.B)")
    sent_on: date


class AdjudicationInfo(Schema):
    """A game's adjudication after the global time limit (C.15, C.10-11)."""

    stage: str = Field(description="asked, continued, claims, decided, appealed or final")
    close_of_play: date = Field(description="the day the global time limit elapsed")
    asked_on: date
    answers: dict[str, bool] = Field(description="the answers so far: side -> go on")
    referred_on: date | None
    claim_deadline: date | None
    claims: list[ClaimInfo]
    decision: Result | None
    notified_on: date | None
    appeal_deadline: date | None
    may_appeal: list[str]
    appellant: str | None
    result: Result | None = Field(description="the final result")


class ConsentIn(Schema):
    go_on: bool = Field(description="whether you want to continue the game (C.15.C)")


class AdjudicationClaimIn(Schema):
    result: Result = Field(description="a win for you, or a draw")
    analysis: str = Field(default="", max_length=20_000, description="without it, no appeal")


class AdjudicationResultIn(Schema):
    result: Result


class RatingLine(Schema):
    """One line of the IECG rating list, the fields of E.II.5."""

    position: int
    class_position: int
    rating_class: str
    number: str = Field(description="the hub's number for the player (no membership numbers)")
    name: str
    country: str
    rating: int | None = Field(description="none published before six games (E.III.3)")
    ter: int = Field(description="the Tournament Entry Rating (E.III.7)")
    games: int
    wins: int
    draws: int
    losses: int
    indicator: str = Field(description="T: TER only, P: provisional, E: established")


class RatingList(Schema):
    period: str = Field(description="YEAR-N: N 1 is January-February ... 6 November-December")
    run_date: date
    lines: list[RatingLine]
