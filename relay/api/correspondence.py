"""Correspondence events (docs/correspondence.md): an arbiter (the Tournament Secretary)
creates an event and gets each player's key; players move, send notices of delay and
announce leave with their keys; anyone reads a game's days; the TS reads what is due today
and has the hub act on it (``sweep``; the hub also sweeps on its own every hour)."""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Query, Request, status
from fastapi.responses import JSONResponse

from relay.api.csv_response import CsvResponse
from relay.api.deps import ArbiterDep, CallerDep, HubDep, RoleCheck, ViewerDep
from relay.api.entries import entry_answer, illegal_entry
from relay.api.ids import GameId, TournamentId
from relay.api.refusals import refusals
from relay.api.schemas.correspondence import (
    AdjudicationClaimIn,
    AdjudicationInfo,
    AdjudicationResultIn,
    ClaimInfo,
    ClockInfo,
    ConditionalAnswer,
    ConditionalIn,
    ConsentIn,
    DueInfo,
    DueItemInfo,
    EventCreated,
    EventIn,
    EventInfo,
    GameDays,
    LeaveIn,
    LeaveInfo,
    MoveIn,
    NoticeAnswer,
    PlayerKey,
    RatedGameInfo,
    RatingLine,
    RatingList,
    TableLineInfo,
    WithdrawalIn,
    WithdrawalInfo,
)
from relay.api.schemas.entries import EntryAnswer
from relay.domain.correspondence.adjudication_log import AdjudicationState
from relay.domain.correspondence.leave import Leave
from relay.domain.correspondence.rating_run import Period, period_of, rating_list_csv
from relay.domain.correspondence.silence import Due
from relay.domain.correspondence.timekeeping import PlayerClock
from relay.domain.game.entries import IllegalEntryError
from relay.hub.correspondence import DueItem
from relay.hub.correspondence_checks import NewEvent, NewPlayer
from relay.hub.hub import Hub
from relay.store.access import CC_PLAYER_ROLE, Identity

router = APIRouter(prefix="/api/correspondence", tags=["correspondence"])


class PlayerCheck(RoleCheck):
    """The dependency of a player's routes: it admits a correspondence player's key (the
    desk checks the game or event is theirs) and the hub's admin, the one role of ROLES it
    admits (``x-role`` admin), who is refused in words by the desk (an admin plays no
    game)."""

    def __init__(self) -> None:
        super().__init__("admin")

    def __call__(self, identity: CallerDep, request: Request) -> Identity:
        needs = "this needs admin or a correspondence player's key"
        if identity is None:
            raise HTTPException(
                status.HTTP_401_UNAUTHORIZED,
                f"{needs}: send 'Authorization: Bearer TOKEN'",
                headers={"WWW-Authenticate": "Bearer"},
            )
        if identity.role != CC_PLAYER_ROLE and not identity.may("admin"):
            raise HTTPException(
                status.HTTP_403_FORBIDDEN, f"{identity.user} is {identity.role}; {needs}"
            )
        return identity


PlayerDep = Annotated[Identity, Depends(PlayerCheck())]


PeriodText = Annotated[
    str | None,
    Query(
        pattern=r"^(199\d|2[01]\d\d)-[1-6]$",
        description="YEAR-N, the rating period (E.II.1); the current one when left out",
    ),
]


@router.get("/ratings", response_model=RatingList)
async def ratings(hub: HubDep, period: PeriodText = None) -> RatingList:
    """The IECG rating list after the period's run (E), replayed from every correspondence
    game of the hub."""
    chosen = _period(hub, period)
    with refusals("rating list"):
        run = await hub.correspondence.standings.ratings(chosen)
    return RatingList(
        period=f"{chosen.year}-{chosen.index}",
        run_date=run.run_date,
        lines=[
            RatingLine(
                position=e.position,
                class_position=e.class_position,
                rating_class=e.rating_class,
                number=e.number,
                name=e.name,
                country=e.country,
                rating=e.rating,
                ter=e.ter,
                games=e.games,
                wins=e.wins,
                draws=e.draws,
                losses=e.losses,
                indicator=e.indicator.value,
            )
            for e in run.rating_list
        ],
    )


@router.get("/ratings.csv", response_class=CsvResponse)
async def ratings_csv(hub: HubDep, period: PeriodText = None) -> CsvResponse:
    """The same list as CSV, with the fields of E.II.5 as its header."""
    with refusals("rating list"):
        run = await hub.correspondence.standings.ratings(_period(hub, period))
    return CsvResponse(rating_list_csv(run.rating_list))


def _period(hub: Hub, text: str | None) -> Period:
    if text is None:
        return period_of(hub.correspondence.today())
    year, index = text.split("-")
    return Period(int(year), int(index))


@router.post("", response_model=EventCreated, status_code=201)
async def create_event(hub: HubDep, who: ArbiterDep, body: EventIn) -> EventCreated:
    """A correspondence round robin, every game starting on ``started``, published at once;
    each player's key is in the answer, once."""
    event = NewEvent(
        name=body.name,
        control=body.control,
        format=body.format,
        started=body.started,
        players=tuple(NewPlayer(p.name, p.email, p.rating, p.time_zone) for p in body.players),
        ts_email=body.ts_email,
        double=body.double,
    )
    with refusals("event"):
        created = await hub.correspondence.create(event, who)
    return EventCreated(
        tournament_id=created.tournament_id,
        games=created.games,
        keys=[
            PlayerKey(player_id=pid, name=name, key=key)
            for pid, (name, key) in sorted(created.keys.items())
        ],
    )


@router.get("", response_model=list[EventInfo])
async def events(hub: HubDep) -> list[EventInfo]:
    """Every correspondence event."""
    return [
        EventInfo(
            tournament_id=e.tournament_id,
            name=name,
            control=e.control,  # type: ignore[arg-type]
            format=e.format,  # type: ignore[arg-type]
            started=e.started,
        )
        for e, name in await hub.correspondence.events()
    ]


@router.get("/games/{game_id}", response_model=GameDays)
async def game_days(hub: HubDep, viewer: ViewerDep, caller: CallerDep, game_id: GameId) -> GameDays:
    """A game's days: each player's clock, who is to move, the day each move was sent, the
    players' leaves; what is due today for staff and the game's players."""
    with refusals(f"correspondence game {game_id}"):
        view = await hub.correspondence.game(game_id)
        pairing = (await hub.views.game(game_id)).pairing
    sides = {pairing.white.id: "white", pairing.black.id: "black"}
    you = sides.get(caller.player_id) if caller is not None and caller.player_id else None
    sees_due = viewer is not None or you is not None
    return GameDays(
        game_id=view.game_id,
        tournament_id=view.tournament_id,
        started=view.started,
        today=view.today,
        finished=view.finished,
        to_move=view.to_move,
        sent=list(view.sent),
        white=_clock(view.white),
        black=_clock(view.black),
        white_leaves=[_leave(leave) for leave in view.leaves.white],
        black_leaves=[_leave(leave) for leave in view.leaves.black],
        time_zones=list(view.time_zones),
        due=[_due(item) for item in view.due] if sees_due else [],
        you=you,
    )


@router.post("/games/{game_id}/moves", response_model=EntryAnswer)
async def move(
    hub: HubDep, who: PlayerDep, game_id: GameId, body: MoveIn
) -> EntryAnswer | JSONResponse:
    """The player's move for ``ply``, sent today: recorded when it is the next legal move
    and theirs, acknowledged (``repeated``) when that ply already holds it; 409 in words
    otherwise (not their game or move, the game over); 422 with ``fitting`` for an illegal
    move. What fell due before it (a flag) is applied first: 503 when another sweep of the
    event holds it for more than 30 seconds (try again)."""
    with refusals(f"correspondence game {game_id}"):
        try:
            entered = await hub.correspondence.moves.move(
                game_id=game_id, ply=body.ply, text=body.move, who=who
            )
        except IllegalEntryError as error:
            return illegal_entry(error)
    return entry_answer(game_id, entered)


@router.post("/games/{game_id}/conditional", response_model=ConditionalAnswer)
async def conditional(
    hub: HubDep, who: PlayerDep, game_id: GameId, body: ConditionalIn
) -> ConditionalAnswer:
    """A conditional sequence with the move you have just sent (C.4.E): "if you play X, I
    play Y", step by step. It binds you until your opponent plays another move; each
    expected move is answered at once in your name. A new one replaces it; 422 for a move
    that is not legal in its turn."""
    with refusals(f"correspondence game {game_id}"):
        sequence = await hub.correspondence.moves.propose(
            game_id=game_id, steps=body.steps, who=who
        )
    return ConditionalAnswer(steps=len(sequence.steps), fen=sequence.fen)


@router.post("/games/{game_id}/notice", response_model=NoticeAnswer)
async def notice(hub: HubDep, who: PlayerDep, game_id: GameId) -> NoticeAnswer:
    """The player to move tells the opponent and the TS that this move will take longer
    than 10 (rapid: 5) days (C.3.1.B), today."""
    with refusals(f"correspondence game {game_id}"):
        kept = await hub.correspondence.moves.notice(game_id=game_id, who=who)
    return NoticeAnswer(kept=kept)


@router.post("/{tournament_id}/leave", response_model=LeaveInfo, status_code=201)
async def leave(
    hub: HubDep, who: PlayerDep, tournament_id: TournamentId, body: LeaveIn
) -> LeaveInfo:
    """A leave the player announces today (C.8: in advance, 45 days in 12 months, not in
    rapid events); 409 in words when the rules do not grant it."""
    with refusals(f"correspondence event {tournament_id}"):
        granted = await hub.correspondence.moves.leave(
            tournament_id=tournament_id, first=body.first, last=body.last, who=who
        )
    return _leave(granted)


@router.get("/{tournament_id}/due", response_model=list[DueItemInfo])
async def due(hub: HubDep, who: ArbiterDep, tournament_id: TournamentId) -> list[DueItemInfo]:
    """What is due today in the event's unfinished games, and whether the hub has done it
    (the Tournament Secretary's list)."""
    with refusals(f"correspondence event {tournament_id}"):
        items = await hub.correspondence.due(tournament_id)
    return [_item(item) for item in items]


@router.post("/{tournament_id}/sweep", response_model=list[DueItemInfo])
async def sweep(hub: HubDep, who: ArbiterDep, tournament_id: TournamentId) -> list[DueItemInfo]:
    """Act now on what is due today: rulings recorded, letters sent, each once; what was
    done. 503 when another sweep of the event (the hourly one, in this hub process or
    another sharing its store) holds it for more than 30 seconds: try again."""
    with refusals(f"correspondence event {tournament_id}"):
        items = await hub.correspondence.sweep(tournament_id)
    return [_item(item) for item in items]


@router.post("/{tournament_id}/withdrawals", response_model=WithdrawalInfo, status_code=201)
async def withdrawal(
    hub: HubDep, who: ArbiterDep, tournament_id: TournamentId, body: WithdrawalIn
) -> WithdrawalInfo:
    """A player withdraws (C.9): his unfinished games end today, won by his opponents and
    never rated; on the score table all his games are forfeits when at most half were
    finished, else only the unfinished ones (9.B). What fell due before it is applied
    first: 503 when another sweep of the event holds it for more than 30 seconds."""
    with refusals(f"correspondence event {tournament_id}"):
        done = await hub.correspondence.standings.withdraw(
            tournament_id=tournament_id, player_id=body.player_id, kind=body.kind, who=who
        )
    return WithdrawalInfo(
        player_id=done.player_id,
        kind=done.kind,
        on=done.on,
        finished=done.finished,
        games=done.games,
        all_forfeited=done.all_forfeited,
    )


@router.get("/{tournament_id}/table", response_model=list[TableLineInfo])
async def table(hub: HubDep, tournament_id: TournamentId) -> list[TableLineInfo]:
    """The score table: points, Sonneborn-Berger (C.14), withdrawals' forfeits (9.B)."""
    with refusals(f"correspondence event {tournament_id}"):
        lines = await hub.correspondence.standings.table(tournament_id)
        names = await hub.correspondence.standings.names(tournament_id)
    return [
        TableLineInfo(
            place=line.place,
            player_id=line.player,
            name=names.get(line.player, "?"),
            points=_number(line.points),
            sonneborn_berger=_number(line.sonneborn_berger),
            counted=line.counted,
            forfeits_won=line.forfeits_won,
            forfeits_lost=line.forfeits_lost,
        )
        for line in lines
    ]


@router.get("/{tournament_id}/rated", response_model=list[RatedGameInfo])
async def rated(hub: HubDep, tournament_id: TournamentId) -> list[RatedGameInfo]:
    """The games the rating run counts, with their real results: every finished game but
    those a withdrawal ended (E.VIII.2)."""
    with refusals(f"correspondence event {tournament_id}"):
        games = await hub.correspondence.standings.rated(tournament_id)
    return [RatedGameInfo(white_id=g.white, black_id=g.black, result=g.result) for g in games]


@router.get("/games/{game_id}/adjudication", response_model=AdjudicationInfo)
async def adjudication(hub: HubDep, game_id: GameId) -> AdjudicationInfo:
    """Where the game's adjudication stands; 404 before the TS has asked the players."""
    with refusals(f"adjudication of game {game_id}"):
        state = await hub.correspondence.adjudications.state(game_id)
    if state is None:
        raise HTTPException(404, f"no adjudication of game {game_id}")
    return _adjudication(state)


@router.post("/games/{game_id}/adjudication", response_model=AdjudicationInfo, status_code=201)
async def ask(hub: HubDep, who: ArbiterDep, game_id: GameId) -> AdjudicationInfo:
    """The TS asks both players whether they want to continue a game unfinished at the
    global time limit (C.15.C); 409 before the limit; 503 when another sweep of the event
    holds it for more than 30 seconds (what fell due is applied first)."""
    return await _step(hub, game_id, "ask", who)


@router.post("/games/{game_id}/adjudication/consent", response_model=AdjudicationInfo)
async def consent(
    hub: HubDep, who: PlayerDep, game_id: GameId, body: ConsentIn
) -> AdjudicationInfo:
    """A player's answer: go on or not. With both answers the game goes on, or it is sent
    to adjudication that day (C.15.C) and the 14 days for claims begin (C.10.A)."""
    return await _step(hub, game_id, "consent", who, {"continue": body.go_on})


@router.post("/games/{game_id}/adjudication/claim", response_model=AdjudicationInfo)
async def claim(
    hub: HubDep, who: PlayerDep, game_id: GameId, body: AdjudicationClaimIn
) -> AdjudicationInfo:
    """A player's claim within the 14 days (C.10.A): a win for him or a draw, with his
    analysis (without it, or late, he may not appeal: C.10.B)."""
    data = {"result": body.result.value, "analysis": body.analysis}
    return await _step(hub, game_id, "claim", who, data)


@router.post("/games/{game_id}/adjudication/decision", response_model=AdjudicationInfo)
async def decide(
    hub: HubDep, who: ArbiterDep, game_id: GameId, body: AdjudicationResultIn
) -> AdjudicationInfo:
    """The adjudicator's decision, notified today (C.10.D): final at once when neither
    player may appeal, else after 14 days without an appeal."""
    return await _step(hub, game_id, "decide", who, {"result": body.result.value})


@router.post("/games/{game_id}/adjudication/appeal", response_model=AdjudicationInfo)
async def appeal(hub: HubDep, who: PlayerDep, game_id: GameId) -> AdjudicationInfo:
    """A player's appeal to a second adjudicator within 14 days (C.11.A)."""
    return await _step(hub, game_id, "appeal", who)


@router.post("/games/{game_id}/adjudication/ruling", response_model=AdjudicationInfo)
async def rule(
    hub: HubDep, who: ArbiterDep, game_id: GameId, body: AdjudicationResultIn
) -> AdjudicationInfo:
    """The second adjudicator's ruling on the appeal: final (C.11.A)."""
    return await _step(hub, game_id, "rule", who, {"result": body.result.value})


async def _step(
    hub: Hub, game_id: int, action: str, who: Identity, data: dict[str, Any] | None = None
) -> AdjudicationInfo:
    with refusals(f"correspondence game {game_id}"):
        state = await hub.correspondence.adjudications.step(
            game_id=game_id, action=action, who=who, data=data
        )
    return _adjudication(state)


def _adjudication(state: AdjudicationState) -> AdjudicationInfo:
    process = state.process
    side = {True: "white", False: "black"}
    return AdjudicationInfo(
        stage=process.stage.value,
        close_of_play=process.close_of_play,
        asked_on=process.asked_on,
        answers=dict(state.consents),
        referred_on=process.referred_on,
        claim_deadline=process.claim_deadline,
        claims=[
            ClaimInfo(side=side[c.colour], result=c.result, analysed=c.analysed, sent_on=c.sent_on)
            for c in process.claims
        ],
        decision=process.decision,
        notified_on=process.notified_on,
        appeal_deadline=process.appeal_deadline,
        may_appeal=sorted(side[colour] for colour in process.may_appeal),
        appellant=None if process.appellant is None else side[process.appellant],
        result=process.result,
    )


def _number(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else float(value)


def _clock(clock: PlayerClock) -> ClockInfo:
    return ClockInfo(
        moves=clock.moves,
        used=clock.used,
        next_control=clock.next_control,
        allowance=clock.allowance,
        left=clock.left,
        decision=clock.decision.value,
    )


def _leave(leave: Leave) -> LeaveInfo:
    return LeaveInfo(announced=leave.announced, first=leave.first, last=leave.last)


def _due(item: Due) -> DueInfo:
    return DueInfo(since=item.since, kind=item.kind.value, side=item.side, article=item.article)


def _item(item: DueItem) -> DueItemInfo:
    return DueItemInfo(
        game_id=item.game_id,
        white=item.white,
        black=item.black,
        due=_due(item.due),
        done_on=item.done_on,
    )
