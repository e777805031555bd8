from __future__ import annotations

import chess
import chess.pgn
from hypothesis import given, settings

from relay.domain.game.events import GameEnded, MoveMade
from relay.domain.game.placement import Placement
from relay.domain.game.tracker import PositionTracker
from tests.strategies import legal_games

SETTLE = 0.25


def placement(board: chess.BaseBoard) -> Placement:
    return Placement.of_board(board)


def lifted(board: chess.Board, square: chess.Square) -> Placement:
    copy = board.copy()
    copy.remove_piece_at(square)
    return placement(copy)


def test_move_decided_only_after_settle_time():
    tracker = PositionTracker(settle_seconds=SETTLE)
    board = chess.Board()
    assert tracker.observe(lifted(board, chess.E2), 1.0, 0.0) == []
    board.push_san("e4")
    assert tracker.observe(placement(board), 1.1, 0.0) == []
    assert tracker.deadline == 1.1 + SETTLE
    assert tracker.settle(1.2, 0.0) == []
    events = tracker.settle(1.1 + SETTLE, 1700000000.0)
    assert events == [MoveMade(ply=1, uci="e2e4", san="e4", fen=board.fen(), at=1700000000.0)]
    assert tracker.deadline is None


def test_piece_in_the_air_is_waited_on_not_decided():
    tracker = PositionTracker(settle_seconds=SETTLE)
    tracker.observe(lifted(chess.Board(), chess.G1), 0.0, 0.0)
    assert tracker.settle(5.0, 0.0) == []
    assert tracker.deadline is None  # tried once; waits for the board to change
    assert tracker.board == chess.Board()


def test_dragged_rook_decided_where_it_stops():
    board = chess.Board("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    tracker = PositionTracker(board, settle_seconds=SETTLE)
    for square, t in ((chess.B1, 0.0), (chess.C1, 0.05), (chess.D1, 0.1)):
        path = board.copy()
        path.remove_piece_at(chess.A1)
        path.set_piece_at(square, chess.Piece(chess.ROOK, chess.WHITE))
        assert tracker.observe(placement(path), t, 0.0) == []  # each square too brief
    events = tracker.settle(0.1 + SETTLE, 0.0)
    assert [e.uci for e in events if isinstance(e, MoveMade)] == ["a1d1"]


def test_missed_position_recovered():
    tracker = PositionTracker(settle_seconds=SETTLE)
    board = chess.Board()
    board.push_san("e4")
    board.push_san("e5")
    tracker.observe(placement(board), 0.0, 0.0)
    events = tracker.settle(SETTLE, 0.0)
    assert [e.san for e in events if isinstance(e, MoveMade)] == ["e4", "e5"]
    assert [e.ply for e in events if isinstance(e, MoveMade)] == [1, 2]


def test_checkmate_ends_the_game_and_stops_tracking():
    tracker = PositionTracker(settle_seconds=0.0)
    board = chess.Board()
    events = []
    for t, san in enumerate(("f3", "e5", "g4", "Qh4#")):
        board.push_san(san)
        events += tracker.observe(placement(board), float(t), 42.0)
        events += tracker.settle(float(t), 42.0)
    assert events[-1] == GameEnded(result="0-1", termination="checkmate", at=42.0)
    assert tracker.finished
    assert tracker.observe(placement(chess.Board()), 10.0, 0.0) == []
    assert tracker.deadline is None


def test_resumes_from_a_given_board():
    board = chess.Board()
    board.push_san("d4")
    tracker = PositionTracker(board, settle_seconds=0.0)
    board.push_san("Nf6")
    tracker.observe(placement(board), 0.0, 0.0)
    assert [e.ply for e in tracker.settle(0.0, 0.0) if isinstance(e, MoveMade)] == [2]


def test_stable_position_decided_when_the_next_change_arrives_late():
    """A host that never got to its settle timer still decides what stood long enough."""
    tracker = PositionTracker(settle_seconds=SETTLE)
    board = chess.Board()
    board.push_san("e4")
    assert tracker.observe(placement(board), 0.0, 0.0) == []
    # The lift for Black's reply arrives after e4 stood for the settle time: e4 is decided.
    events = tracker.observe(lifted(board, chess.E7), SETTLE + 0.01, 5.0)
    assert [e.san for e in events if isinstance(e, MoveMade)] == ["e4"]
    # A position that stood shorter than the settle time is not decided on the next change.
    board.push_san("e5")
    assert tracker.observe(placement(board), SETTLE + 0.02, 0.0) == []
    assert tracker.observe(lifted(board, chess.G1), SETTLE + 0.03, 0.0) == []
    assert tracker.board.fullmove_number == 1


@settings(max_examples=60, deadline=None)
@given(legal_games(60))
def test_random_games_played_square_by_square_are_reconstructed(game):
    """Lift, (remove captured,) place: every game comes out move for move."""
    tracker = PositionTracker(settle_seconds=SETTLE)
    board = chess.Board()
    now = 0.0
    played: list[str] = []
    decided: list[str] = []
    for move in game:
        shown = board.copy()
        shown.remove_piece_at(move.from_square)
        tracker.observe(placement(shown), now, now)
        now += 0.1
        played.append(move.uci())
        board.push(move)
        tracker.observe(placement(board), now, now)
        now += SETTLE
        decided += [e.uci for e in tracker.settle(now, now) if isinstance(e, MoveMade)]
    assert decided == played
    assert tracker.finished == (board.outcome() is not None)


def test_replayed_log_decides_each_legal_continuation_and_skips_the_past():
    tracker = PositionTracker(settle_seconds=SETTLE)
    board = chess.Board()
    board.push_san("e4")
    tracker.observe(placement(board), 0.0, 0.0)
    tracker.settle(SETTLE, 0.0)  # e4 is known
    history = [lifted(chess.Board(), chess.E2), placement(board)]  # the past, replayed
    for san in ("c5", "Nf3", "d6"):
        history.append(lifted(board, board.parse_san(san).from_square))
        board.push_san(san)
        history.append(placement(board))
    events = tracker.replay(history, 9.0)
    assert [e.san for e in events if isinstance(e, MoveMade)] == ["c5", "Nf3", "d6"]
    assert all(e.at == 9.0 for e in events)
    assert tracker.deadline is None


def test_replayed_slide_is_one_move_to_where_the_piece_stopped():
    board = chess.Board()
    for san in ("e4", "e5"):
        board.push_san(san)
    tracker = PositionTracker(board, settle_seconds=SETTLE)
    trail = [lifted(board, chess.F1)]
    for square in (chess.E2, chess.D3, chess.C4):  # Bf1 slides to c4 via e2 and d3
        step = board.copy()
        step.remove_piece_at(chess.F1)
        step.set_piece_at(square, chess.Piece(chess.BISHOP, chess.WHITE))
        trail.append(placement(step))
    board.push_san("Bc4")
    reply = board.copy()
    reply.push_san("Nc6")
    trail.append(placement(reply))
    events = tracker.replay(trail, 1.0)
    assert [e.san for e in events if isinstance(e, MoveMade)] == ["Bc4", "Nc6"]


def test_replay_starts_after_the_last_showing_of_the_current_position():
    # Stored: 1. Nf3 Nf6 2. Ng1 Ng8 (the start placement again). The log replays the
    # whole game, then 3. e4 made while the hub was away.
    board = chess.Board()
    history = []
    for san in ("Nf3", "Nf6", "Ng1", "Ng8"):
        board.push_san(san)
        history.append(placement(board))
    tracker = PositionTracker(board, settle_seconds=SETTLE)
    board.push_san("e4")
    history.append(placement(board))
    events = tracker.replay(history, 1.0)
    assert [e.san for e in events if isinstance(e, MoveMade)] == ["e4"]
