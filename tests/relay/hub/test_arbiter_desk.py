"""The arbiter's desk on its own, over a real store: results set, corrected and verified,
moves replaced, draw offers, rounds published and delayed, boards assigned, PGN imported;
each checked against the stored log, appended with its audit entry, and passed on to
whoever follows the game; each refusal stores nothing."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable

import chess
import pytest
from sqlalchemy import Engine
from sqlmodel import Session

from relay.bus.memory import MemoryBus
from relay.domain.formats.pgn_import import ImportedGame
from relay.domain.game.arbiter import ArbiterActionError
from relay.domain.game.draw_offers import DrawOfferError
from relay.domain.game.events import GameEvent, MoveMade
from relay.domain.game.record import GameRecord
from relay.domain.results import Result
from relay.hub.arbiter_desk import ArbiterDesk, GameChange, ImportReport
from relay.hub.game_views import GameViews
from relay.hub.recorder import GameRecorder
from relay.store.event_log import read_events
from relay.store.models import Game, Round
from relay.store.tournaments import (
    ConflictError,
    NotFoundError,
    get_round,
    list_games,
    list_players,
)
from tests.pairings import paired_round
from tests.relay.hub.desk_fakes import (
    ARBITER,
    DEPUTY,
    Heard,
    audit_trail,
    kinds,
    stored,
    without_at,
)

pytestmark = pytest.mark.anyio


def round_with(engine: Engine, games: int = 1, **options) -> tuple[int, list[int]]:
    with Session(engine) as session:
        return paired_round(session, games=games, **options)


def players_of(engine: Engine, round_id: int) -> dict[str, int]:
    """The round's tournament's players: start number by name."""
    with Session(engine) as session:
        tournament_id = get_round(session, round_id=round_id).tournament_id
        return {p.name: p.start_number for p in list_players(session, tournament_id=tournament_id)}


class Desk:
    """An arbiter's desk over a real store; ``changed`` is what it passed on."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.bus = MemoryBus()
        self.recorder = GameRecorder(engine, self.bus)
        self.views = GameViews(engine, self.bus)
        self.changed: list[tuple[int, GameRecord]] = []
        self.arbiter = ArbiterDesk(
            self.recorder,
            self.views,
            lambda game_id, record: self.changed.append((game_id, record)),
        )

    async def play(self, round_id: int, game_id: int, *sans: str) -> None:
        """Moves from the board, as a session records them."""
        board = chess.Board()
        events: list[GameEvent] = []
        for san in sans:
            move = board.push_san(san)
            events.append(MoveMade(board.ply(), move.uci(), san, board.fen(), float(board.ply())))
        await self.recorder.record(round_id=round_id, game_id=game_id, events=events)


@contextlib.asynccontextmanager
async def desk_on(engine: Engine) -> AsyncIterator[Desk]:
    desk = Desk(engine)
    try:
        yield desk
    finally:
        desk.views.close()
        desk.recorder.close()


# Results


async def test_a_result_is_stored_audited_published_and_passed_on(engine):
    _, (game_id,) = round_with(engine)
    async with desk_on(engine) as desk:
        heard = Heard(desk.bus, game_id)
        change = await desk.arbiter.set_result(
            game_id=game_id, result=Result.WHITE_WINS, who=ARBITER, reason="Black resigned"
        )
        assert heard.kinds == ["result"]
        view = await desk.views.game(game_id)
        assert view.record(view.version).result == "1-0"
    assert change.game_id == game_id
    assert (change.record.result, change.record.termination) == ("1-0", "arbiter")
    assert (change.record.result_by, change.record.verified) == ("Chief Arbiter", False)
    assert [(item.seq, item.kind) for item in change.stored] == [(1, "result")]
    assert desk.changed == [(game_id, change.record)]
    ((kind, data),) = stored(engine, game_id)
    assert kind == "result"
    assert without_at(data) == {
        "result": "1-0",
        "by": "Chief Arbiter",
        "reason": "Black resigned",
        "forfeit": False,
    }
    assert audit_trail(engine) == [
        ("Chief Arbiter", "set-result", f"game {game_id}", "Black resigned", {"result": "1-0"})
    ]


async def test_a_result_is_corrected_then_verified_and_a_later_correction_unverifies_it(engine):
    _, (game_id,) = round_with(engine)
    async with desk_on(engine) as desk:
        await desk.arbiter.set_result(
            game_id=game_id, result=Result.WHITE_WINS, who=DEPUTY, reason="typed"
        )
        corrected = await desk.arbiter.set_result(
            game_id=game_id,
            result=Result.BLACK_WINS,
            who=ARBITER,
            reason="scoresheets say Black won",
        )
        assert (corrected.record.result, corrected.record.result_by) == ("0-1", "Chief Arbiter")
        with pytest.raises(ArbiterActionError, match=r"^the game's result is 0-1, not 1-0$"):
            await desk.arbiter.verify(game_id=game_id, result=Result.WHITE_WINS, who=ARBITER)
        verified = await desk.arbiter.verify(game_id=game_id, result=Result.BLACK_WINS, who=ARBITER)
        assert (verified.record.result, verified.record.verified) == ("0-1", True)
        again = await desk.arbiter.set_result(
            game_id=game_id, result=Result.DRAW, who=ARBITER, reason="the appeal was upheld"
        )
        assert (again.record.result, again.record.verified) == ("1/2-1/2", False)
    assert kinds(engine, game_id) == ["result", "result", "verified", "result"]
    assert without_at(stored(engine, game_id)[2][1]) == {"result": "0-1", "by": "Chief Arbiter"}
    assert [(user, action, detail) for user, action, _, _, detail in audit_trail(engine)] == [
        ("Deputy Arbiter", "set-result", {"result": "1-0"}),
        ("Chief Arbiter", "set-result", {"result": "0-1"}),
        ("Chief Arbiter", "verify", {"result": "0-1"}),
        ("Chief Arbiter", "set-result", {"result": "1/2-1/2"}),
    ]
    assert [record.result for _, record in desk.changed] == ["1-0", "0-1", "0-1", "1/2-1/2"]


async def test_a_forfeit_is_recorded_as_one(engine):
    _, (game_id,) = round_with(engine)
    async with desk_on(engine) as desk:
        change = await desk.arbiter.set_result(
            game_id=game_id,
            result=Result.BLACK_WINS,
            who=ARBITER,
            reason="White did not come",
            forfeit=True,
        )
    assert (change.record.result, change.record.forfeit) == ("0-1", True)
    assert stored(engine, game_id)[0][1]["forfeit"] is True
    assert audit_trail(engine)[0][4] == {"result": "0-1", "forfeit": True}


@pytest.mark.parametrize(
    ("action", "moves", "message"),
    [
        ("verify", (), "the game has no result to verify"),
        ("result 2-0", (), "result '2-0' is not one of ['*', '0-1', '1-0', '1/2-1/2']"),
        ("draw by forfeit", (), "a forfeit is won by one side: 1-0 or 0-1"),
        ("forfeit a played game", ("e4", "e5"), "the game has 2 plies: it was played"),
    ],
)
async def test_a_result_that_does_not_fit_the_game_is_refused(engine, action, moves, message):
    round_id, (game_id,) = round_with(engine)
    async with desk_on(engine) as desk:
        if moves:
            await desk.play(round_id, game_id, *moves)
        arbiter = desk.arbiter
        attempts: dict[str, Callable[[], Awaitable[GameChange]]] = {
            "verify": lambda: arbiter.verify(
                game_id=game_id, result=Result.WHITE_WINS, who=ARBITER
            ),
            "result 2-0": lambda: arbiter.set_result(
                game_id=game_id,
                result="2-0",  # type: ignore[arg-type]
                who=ARBITER,
                reason="",
            ),
            "draw by forfeit": lambda: arbiter.set_result(
                game_id=game_id, result=Result.DRAW, who=ARBITER, reason="", forfeit=True
            ),
            "forfeit a played game": lambda: arbiter.set_result(
                game_id=game_id, result=Result.WHITE_WINS, who=ARBITER, reason="", forfeit=True
            ),
        }
        attempt = attempts[action]
        with pytest.raises(ArbiterActionError) as refused:
            await attempt()
    assert str(refused.value) == message
    assert kinds(engine, game_id) == ["move"] * len(moves)
    assert audit_trail(engine) == []
    assert desk.changed == []


async def test_an_action_on_a_game_that_does_not_exist_is_refused(engine):
    round_with(engine)
    async with desk_on(engine) as desk:
        with pytest.raises(NotFoundError, match=r"^game 9999$"):
            await desk.arbiter.set_result(
                game_id=9999, result=Result.WHITE_WINS, who=ARBITER, reason=""
            )
    assert audit_trail(engine) == []


# Moves


async def test_moves_are_replaced_from_a_ply_and_the_rest_taken_back(engine):
    round_id, (game_id,) = round_with(engine)
    async with desk_on(engine) as desk:
        await desk.play(round_id, game_id, "e4", "e5", "Nf3")
        corrected = await desk.arbiter.replace_moves(
            game_id=game_id, ply=3, san=["Bc4", "Nc6"], who=ARBITER, reason="scoresheet"
        )
        taken_back = await desk.arbiter.replace_moves(
            game_id=game_id, ply=4, san=[], who=ARBITER, reason="not played yet"
        )
    assert [move.san for move in corrected.record.moves] == ["e4", "e5", "Bc4", "Nc6"]
    assert [move.san for move in taken_back.record.moves] == ["e4", "e5", "Bc4"]
    expected = chess.Board()
    for san in ("e4", "e5", "Bc4"):
        expected.push_san(san)
    assert taken_back.record.board == expected
    log = stored(engine, game_id)
    assert [kind for kind, _ in log] == ["move"] * 3 + ["arbiter-correction"] * 2
    assert without_at(log[3][1]) == {
        "ply": 3,
        "uci": ["f1c4", "b8c6"],
        "by": "Chief Arbiter",
        "reason": "scoresheet",
    }
    assert [(action, reason, detail) for _, action, _, reason, detail in audit_trail(engine)] == [
        ("replace-moves", "scoresheet", {"ply": 3, "san": ["Bc4", "Nc6"]}),
        ("replace-moves", "not played yet", {"ply": 4, "san": []}),
    ]
    assert [game for game, _ in desk.changed] == [game_id, game_id]


@pytest.mark.parametrize(
    ("ply", "san", "message"),
    [
        (5, ["Nc6"], "ply 5 is not in a game of 3 plies"),
        (0, ["e4"], "ply 0 is not in a game of 3 plies"),
        (3, ["Bc4", "Ke6", "Qh5"], "ply 4: 'Ke6' is not a legal move here"),
        (2, ["e4"], "ply 2: 'e4' is not a legal move here"),
    ],
)
async def test_a_replacement_that_is_not_a_legal_game_is_refused(engine, ply, san, message):
    round_id, (game_id,) = round_with(engine)
    async with desk_on(engine) as desk:
        await desk.play(round_id, game_id, "e4", "e5", "Nf3")
        with pytest.raises(ArbiterActionError) as refused:
            await desk.arbiter.replace_moves(
                game_id=game_id, ply=ply, san=san, who=ARBITER, reason="try"
            )
    assert str(refused.value) == message
    assert kinds(engine, game_id) == ["move"] * 3
    assert audit_trail(engine) == []


# Draw offers from the scoresheet


async def test_a_draw_offer_is_made_and_accepted_by_the_opponent_only(engine):
    _, (game_id,) = round_with(engine)
    operator = DEPUTY  # the scoresheet's operator
    async with desk_on(engine) as desk:
        offered = await desk.arbiter.draw(
            game_id=game_id, player="white", action="offer", who=operator
        )
        assert offered.record.draw_offer == "white"
        with pytest.raises(DrawOfferError, match=r"^white has no draw offer to accept$"):
            await desk.arbiter.draw(game_id=game_id, player="white", action="accept", who=operator)
        accepted = await desk.arbiter.draw(
            game_id=game_id, player="black", action="accept", who=operator
        )
        await desk.arbiter.set_result(game_id=game_id, result=Result.DRAW, who=operator, reason="")
        with pytest.raises(DrawOfferError, match=r"^the game is over \(1/2-1/2\)$"):
            await desk.arbiter.draw(game_id=game_id, player="black", action="offer", who=operator)
    assert (accepted.record.draw_offer, accepted.record.proposed_result) == (None, "1/2-1/2")
    assert [without_at(data) for kind, data in stored(engine, game_id) if kind == "draw"] == [
        {"player": "white", "action": "offer"},
        {"player": "black", "action": "accept"},
    ]
    assert [(user, action, detail) for user, action, _, _, detail in audit_trail(engine)] == [
        ("Deputy Arbiter", "draw-offer", {"player": "white"}),
        ("Deputy Arbiter", "draw-accept", {"player": "black"}),
        ("Deputy Arbiter", "set-result", {"result": "1/2-1/2"}),
    ]


# Rounds


def round_row(engine: Engine, round_id: int) -> Round:
    with Session(engine) as session:
        found = session.get(Round, round_id)
        assert found is not None
        return found


async def test_a_round_is_published_and_hidden_again(engine):
    round_id, _ = round_with(engine, published=False)
    async with desk_on(engine) as desk:
        shown = await desk.arbiter.publish(round_id=round_id, published=True, who=ARBITER)
        assert (shown.id, shown.published) == (round_id, True)
        assert round_row(engine, round_id).published is True
        hidden = await desk.arbiter.publish(round_id=round_id, published=False, who=DEPUTY)
        assert hidden.published is False
    assert round_row(engine, round_id).published is False
    assert audit_trail(engine) == [
        ("Chief Arbiter", "publish", f"round {round_id}", "", {}),
        ("Deputy Arbiter", "unpublish", f"round {round_id}", "", {}),
    ]


async def test_a_round_gets_a_transmission_delay_within_bounds(engine):
    round_id, _ = round_with(engine)
    async with desk_on(engine) as desk:
        delayed = await desk.arbiter.set_delay(
            round_id=round_id, seconds=900, who=ARBITER, reason="anti-cheating"
        )
        assert delayed.delay_seconds == 900
        for seconds in (-1, 3601):
            with pytest.raises(ArbiterActionError, match=r"^a delay is 0 to 3600 seconds$"):
                await desk.arbiter.set_delay(
                    round_id=round_id, seconds=seconds, who=ARBITER, reason="no"
                )
    assert round_row(engine, round_id).delay_seconds == 900
    assert audit_trail(engine) == [
        ("Chief Arbiter", "set-delay", f"round {round_id}", "anti-cheating", {"from": 0, "to": 900})
    ]


# Electronic boards


async def test_an_electronic_board_moves_to_another_game_of_the_round(engine, tmp_path):
    round_id, (first, second) = round_with(engine, 2, ports=[str(tmp_path / "board-1")])
    with Session(engine) as session:
        eboard = session.get(Game, first)
        assert eboard is not None
        eboard_id = eboard.eboard_id
    assert eboard_id is not None
    async with desk_on(engine) as desk:
        before = await desk.views.game(second)
        assert before.pairing.eboard is None
        with pytest.raises(ConflictError, match=r"^board 1 already plays board 1$"):
            await desk.arbiter.assign(game_id=second, eboard_id=eboard_id, who=ARBITER)
        freed = await desk.arbiter.assign(game_id=first, eboard_id=None, who=ARBITER)
        moved = await desk.arbiter.assign(game_id=second, eboard_id=eboard_id, who=ARBITER)
        with pytest.raises(NotFoundError, match=r"^eboard 999$"):
            await desk.arbiter.assign(game_id=first, eboard_id=999, who=ARBITER)
        # The round is read again: its views show the board where it is now.
        after = await desk.views.game(second)
        assert after.pairing.eboard is not None
        assert after.pairing.eboard.id == eboard_id
        assert (await desk.views.game(first)).pairing.eboard is None
    assert (freed.eboard_id, moved.eboard_id) == (None, eboard_id)
    with Session(engine) as session:
        assert [(g.id, g.eboard_id) for g in list_games(session, round_id=round_id)] == [
            (first, None),
            (second, eboard_id),
        ]
    assert audit_trail(engine) == [
        ("Chief Arbiter", "assign-board", f"game {first}", "", {"eboard": None}),
        ("Chief Arbiter", "assign-board", f"game {second}", "", {"eboard": eboard_id}),
    ]


# PGN import


def imported(white: str, black: str, result: str, board: int | None, *sans: str) -> ImportedGame:
    position = chess.Board()
    return ImportedGame(
        white, black, Result(result), board, tuple(position.push_san(san).uci() for san in sans)
    )


async def test_a_pgn_corrects_the_rounds_games_and_adds_the_missing_ones(engine):
    round_id, (first, second) = round_with(engine, 2)
    games = [
        imported("White1, Player", "Black1, Player", "1-0", 1, "e4", "e5", "Qh5"),
        imported("White2, Player", "Black2, Player", "*", 2),  # as stored: unchanged
        imported("Newcomer, One", "Newcomer, Two", "0-1", None, "d4"),
    ]
    async with desk_on(engine) as desk:
        await desk.views.round(round_id)
        report = await desk.arbiter.import_pgn(
            round_id=round_id, games=games, who=ARBITER, reason="scoresheets typed in"
        )
        views = await desk.views.round(round_id)
    assert report == ImportReport(created=1, corrected=1, unchanged=1)
    assert [view.board for view in views] == [1, 2, 3]
    created = views[2].game_id
    assert [view.game_id for view in views[:2]] == [first, second]
    assert views[2].record(views[2].version).result == "0-1"
    assert kinds(engine, first) == kinds(engine, created) == ["arbiter-correction", "result"]
    assert kinds(engine, second) == []
    assert without_at(stored(engine, first)[0][1])["uci"] == ["e2e4", "e7e5", "d1h5"]
    players = players_of(engine, round_id)
    assert (players["Newcomer, One"], players["Newcomer, Two"]) == (5, 6)
    assert sorted(game for game, _ in desk.changed) == sorted([first, created])
    assert audit_trail(engine) == [
        (
            "Chief Arbiter",
            "import-pgn",
            f"round {round_id}",
            "scoresheets typed in",
            {"created": 1, "corrected": 1},
        )
    ]


async def test_a_pgn_that_contradicts_a_pairing_changes_nothing(engine):
    round_id, (first,) = round_with(engine, 1)
    games = [
        imported("Newcomer, One", "Newcomer, Two", "1-0", 2, "e4"),  # would be created
        imported("Black1, Player", "White1, Player", "0-1", 1, "d4"),  # colours reversed
    ]
    async with desk_on(engine) as desk:
        with pytest.raises(ArbiterActionError) as refused:
            await desk.arbiter.import_pgn(round_id=round_id, games=games, who=ARBITER, reason="")
    assert str(refused.value) == (
        "board 1 is White1, Player - Black1, Player, not Black1, Player - White1, Player"
    )
    with Session(engine) as session:
        assert [g.id for g in list_games(session, round_id=round_id)] == [first]
        assert read_events(session, game_id=first) == []
    assert sorted(players_of(engine, round_id)) == ["Black1, Player", "White1, Player"]
    assert audit_trail(engine) == []
    assert desk.changed == []
