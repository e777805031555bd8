"""The tables. One class per entity; a game's moves and result live only in its event log.

The schema is created and changed by the migrations in :mod:`relay.store.migrations`; a test
checks that they build exactly these tables.
"""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import UniqueConstraint
from sqlmodel import Field, SQLModel

from relay.domain.ladder.rules import LadderRate
from relay.domain.tournament.byes import ByeKind
from relay.domain.tournament.pairing_systems import PairingSystem
from relay.store.word_columns import WordColumn


class Tournament(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    name: str
    site: str = "?"
    start_date: date | None = None
    end_date: date | None = None
    #: PGN standard syntax, for example ``40/5400+30:1800+30``.
    time_control: str | None = None
    rounds_planned: int | None = None
    #: How the hub pairs the next round; None: pairings come from the event file or the
    #: arbiter.
    pairing_system: PairingSystem | None = Field(
        default=None, sa_type=WordColumn(PairingSystem.parse)
    )
    #: Tie-breaks in order, comma-separated FIDE C.07 names; None: the default order.
    tie_breaks: str | None = None
    #: The edition of FIDE C.07 that ranks the tournament, ``2024`` or ``2026``; None: the
    #: one in force at the start date (see ``relay.domain.tournament.tie_break_editions``).
    tie_break_edition: str | None = None


class Player(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("tournament_id", "start_number"),)

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int = Field(foreign_key="tournament.id", index=True)
    start_number: int
    name: str  # "Family, Given"
    fide_id: int | None = None
    title: str | None = None
    rating: int | None = None
    federation: str | None = None
    team: str | None = None
    #: The last round the player took part in before withdrawing (seed 004 ch. 12).
    withdrawn_after: int | None = None


class Round(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("tournament_id", "number"),)

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int = Field(foreign_key="tournament.id", index=True)
    number: int
    starts_at: datetime | None = None
    #: Public views and public PGN show the round as it was this many seconds ago.
    delay_seconds: int = 0
    published: bool = False


class EBoard(SQLModel, table=True):
    """An electronic board of the venue: which driver reads it, on which port."""

    __tablename__ = "eboard"
    __table_args__ = (UniqueConstraint("tournament_id", "number"),)

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int = Field(foreign_key="tournament.id", index=True)
    number: int
    driver: str = "dgt"
    url: str
    #: Which side of the clock White's is: ``auto`` (decided from the clock's presses),
    #: ``white-left`` or ``white-right`` (see :mod:`relay.domain.clock.orientation`).
    clock: str = "auto"
    #: What the event file said of ``url`` and ``clock`` when it was last loaded (None: the
    #: board came from elsewhere). Loading the file again applies a value the file changed
    #: since, and keeps one the operator changed on the console (:mod:`relay.store.setup`).
    loaded_url: str | None = None
    loaded_clock: str | None = None


class Game(SQLModel, table=True):
    """A pairing on a board of a round. Moves and result come from the game's event log."""

    __table_args__ = (UniqueConstraint("round_id", "board"),)

    id: int | None = Field(default=None, primary_key=True)
    round_id: int = Field(foreign_key="round.id", index=True)
    board: int
    white_id: int = Field(foreign_key="player.id")
    black_id: int = Field(foreign_key="player.id")
    #: The electronic board that plays this game, when one is assigned.
    eboard_id: int | None = Field(default=None, foreign_key="eboard.id")


class GameEventRow(SQLModel, table=True):
    """One event of a game's log; ``seq`` counts from 1 within the game, with no gaps."""

    __tablename__ = "game_event"
    __table_args__ = (UniqueConstraint("game_id", "seq"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    seq: int
    kind: str
    data: str  # JSON object
    recorded_at: float  # Unix seconds


class User(SQLModel, table=True):
    """Someone who may change things: an operator, an arbiter or an admin."""

    __tablename__ = "relay_user"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(unique=True)
    role: str


class Token(SQLModel, table=True):
    """An API token; only its SHA-256 digest is stored."""

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="relay_user.id", index=True)
    digest: str = Field(unique=True)
    created_at: float
    revoked_at: float | None = None
    #: A device token: it enters the moves of this game only (docs/game-input.md).
    game_id: int | None = Field(default=None, foreign_key="game.id")
    #: A club key: it acts on this club only, with the user's club role (docs/ladders.md).
    club_id: int | None = Field(default=None, foreign_key="club.id")
    #: A player key: the club member who holds it (enters the results of their own games).
    member_id: int | None = Field(default=None, foreign_key="club_member.id")
    #: A correspondence player's key: the player of a correspondence event who holds it
    #: (moves in their own games, announces leave; docs/correspondence.md).
    player_id: int | None = Field(default=None, foreign_key="player.id")


class AuditEntry(SQLModel, table=True):
    """Who did what, when and why."""

    __tablename__ = "audit"

    id: int | None = Field(default=None, primary_key=True)
    at: float
    user: str
    role: str
    action: str
    target: str
    reason: str = ""
    detail: str = "{}"  # JSON object


class Bye(SQLModel, table=True):
    """A round a player is not paired in, and which kind of bye it is."""

    __table_args__ = (UniqueConstraint("round_id", "player_id"),)

    id: int | None = Field(default=None, primary_key=True)
    round_id: int = Field(foreign_key="round.id", index=True)
    player_id: int = Field(foreign_key="player.id")
    kind: ByeKind = Field(sa_type=WordColumn(ByeKind.parse))


class AgentInput(SQLModel, table=True):
    """A board event a venue agent forwarded, as the hub committed it before acknowledging
    it (docs/venue-agent.md): numbered per agent from 1 with no gaps."""

    __tablename__ = "agent_input"

    agent: str = Field(primary_key=True)
    seq: int = Field(primary_key=True)
    board: str
    #: When the venue's driver read it: the venue's monotonic and Unix seconds.
    mono: float
    wall: float
    event: str  # JSON object: drivers/event_codec.py
    received_at: float


class HubLease(SQLModel, table=True):
    """Work that one hub process at a time may do, among all that share the store (the
    correspondence sweep): who holds it, and until when (Unix seconds) unless renewed."""

    __tablename__ = "hub_lease"

    name: str = Field(primary_key=True)
    holder: str
    until: float


class AgentMark(SQLModel, table=True):
    """Per game followed on an agent's board: the last of that board's inputs whose
    consequences are in the game's log. It is written with the events it accounts for, so a
    hub restarted after a crash feeds the game exactly the inputs after it."""

    __tablename__ = "agent_mark"

    #: A game's id (no foreign key: a game with a mark has play and is never deleted).
    game_id: int = Field(primary_key=True)
    agent: str
    board: str
    seq: int


class Club(SQLModel, table=True):
    """A chess club, with its members and ladders (docs/ladders.md)."""

    id: int | None = Field(default=None, primary_key=True)
    name: str


class ClubMember(SQLModel, table=True):
    __tablename__ = "club_member"

    id: int | None = Field(default=None, primary_key=True)
    club_id: int = Field(foreign_key="club.id", index=True)
    name: str  # "Family, Given"
    #: An ECF member; a non-member has free quotas of graded games (seed 002).
    ecf_member: bool = False
    grading_code: str | None = None


class LadderRow(SQLModel, table=True):
    """A ladder of a club: its rate, period and rules (relay.domain.ladder.rules.Ladder)."""

    __tablename__ = "ladder"

    id: int | None = Field(default=None, primary_key=True)
    club_id: int = Field(foreign_key="club.id", index=True)
    name: str
    rate: LadderRate = Field(sa_type=WordColumn(LadderRate.parse))
    starts: date
    ends: date
    initial_points: int = 50
    min_games: int = 8
    graded: bool = False
    quota_standard: int = 3
    quota_rapid: int = 6


class ClubGame(SQLModel, table=True):
    """A game between two club members; its result is the last entry of its
    :class:`ClubResultRow` log, or the result of the hub game it is linked to."""

    __tablename__ = "club_game"

    id: int | None = Field(default=None, primary_key=True)
    club_id: int = Field(foreign_key="club.id", index=True)
    played_on: date
    rate: LadderRate = Field(sa_type=WordColumn(LadderRate.parse))
    white_id: int = Field(foreign_key="club_member.id")
    black_id: int = Field(foreign_key="club_member.id")
    #: A game played on an electronic board of the hub: its result comes from its log. No
    #: foreign key: an arbiter may replace the round's pairings (deleting its games), which
    #: clears the tags of those games (relay.store.pairings), so the club game gives no board
    #: result until it is tagged again.
    game_id: int | None = Field(default=None)


class ClubResultRow(SQLModel, table=True):
    """One entry of a club game's result log: appended, never changed. ``result`` None is a
    deletion; ``seq`` counts from 1 per game."""

    __tablename__ = "club_result"
    __table_args__ = (UniqueConstraint("club_game_id", "seq"),)

    id: int | None = Field(default=None, primary_key=True)
    club_game_id: int = Field(foreign_key="club_game.id", index=True)
    seq: int
    result: str | None = None
    by: str
    at: float  # Unix seconds
    reason: str = ""


class CorrespondenceEvent(SQLModel, table=True):
    """A tournament played by correspondence (docs/correspondence.md): its rounds' games
    all start on ``started`` and are played by days under the IECG rules."""

    __tablename__ = "correspondence_event"

    tournament_id: int = Field(foreign_key="tournament.id", primary_key=True)
    #: The time control's kind: ``standard``, ``team`` or ``rapid``
    #: (relay.domain.correspondence.days.EventKind).
    control: str
    #: The tournament's format for its global time limit (C.15):
    #: relay.domain.correspondence.adjudication.TournamentFormat.
    format: str
    started: date
    #: The Tournament Secretary's address, for the reminders' copies and reports.
    ts_email: str | None = None


class CorrespondencePlayer(SQLModel, table=True):
    """How to reach a player of a correspondence event, and the time zone the pages show
    the player's dates in (the rules' days are counted on UTC dates)."""

    __tablename__ = "correspondence_player"

    player_id: int = Field(foreign_key="player.id", primary_key=True)
    email: str | None = None
    time_zone: str = "UTC"


class CorrespondenceLeave(SQLModel, table=True):
    """A leave a player announced (C.8): from ``first`` to ``last``, both included."""

    __tablename__ = "correspondence_leave"

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int = Field(foreign_key="tournament.id", index=True)
    player_id: int = Field(foreign_key="player.id")
    announced: date
    first: date
    last: date


class CorrespondenceNotice(SQLModel, table=True):
    """A player's notice that the move at ``ply`` will take longer (C.3.1.B)."""

    __tablename__ = "correspondence_notice"
    __table_args__ = (UniqueConstraint("game_id", "ply"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    ply: int
    sent: date


class CorrespondenceMail(SQLModel, table=True):
    """Something due in a game that the hub acted on (a letter sent, a ruling recorded), so
    that it is never done twice: what (``kind``, relay.domain.correspondence.silence.DueKind),
    for which side, due since when, and for the move at ``ply``."""

    __tablename__ = "correspondence_mail"
    __table_args__ = (UniqueConstraint("game_id", "ply", "kind", "side"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    ply: int
    kind: str
    side: str
    since: date
    done_on: date
    #: Whom the letter went to (comma-separated), empty when nobody could be written to.
    sent_to: str = ""


class CorrespondenceConditional(SQLModel, table=True):
    """The conditional sequence that binds a player in a game (C.4.E): from the position
    ``fen`` (the opponent to move), each step the opponent's expected move and the reply,
    as UCI pairs in a JSON list. One per game: a new proposal replaces it; a deviation or
    the end of the line removes it."""

    __tablename__ = "correspondence_conditional"

    game_id: int = Field(foreign_key="game.id", primary_key=True)
    #: ``white`` or ``black``: the player it binds.
    proposer: str
    fen: str
    steps: str  # JSON: [["e7e5", "g1f3"], ...]


class CorrespondenceWithdrawal(SQLModel, table=True):
    """A player's withdrawal from a correspondence event (C.9): ``announced`` or
    ``silent``, on which day, and the games it ended unfinished (a JSON list of ids),
    which are scored for the opponents but never rated (E.VIII.2)."""

    __tablename__ = "correspondence_withdrawal"

    tournament_id: int = Field(foreign_key="tournament.id", primary_key=True)
    player_id: int = Field(foreign_key="player.id", primary_key=True)
    kind: str
    on: date
    unfinished: str = "[]"


class CorrespondenceAdjudicationStep(SQLModel, table=True):
    """One step of a game's adjudication after the global time limit (C.15, C.10-11),
    appended, never changed: the process is its steps replayed
    (relay.domain.correspondence.adjudication.Adjudication). ``action`` is ``ask``,
    ``consent``, ``claim``, ``decide``, ``appeal``, ``rule`` or ``lapse``; ``data`` its
    details (JSON)."""

    __tablename__ = "correspondence_adjudication_step"
    __table_args__ = (UniqueConstraint("game_id", "seq"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    seq: int
    action: str
    on: date
    data: str = "{}"
    by: str
