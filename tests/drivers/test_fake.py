"""The scripted board that hub tests use in place of hardware."""

from __future__ import annotations

import anyio
import pytest

from drivers.events import (
    ClockCommandResult,
    Disconnected,
    EndDisplay,
    PositionSnapshot,
    RunMode,
    SetAndRun,
)
from drivers.fake import ScriptedBoard, UnexpectedCommandError
from drivers.link import BoardLink

START = PositionSnapshot(tuple([None] * 64))
SET = SetAndRun(300, 300, RunMode.LEFT)


@pytest.mark.anyio
async def test_pushed_events_then_answers_to_expected_commands():
    board = ScriptedBoard()
    link: BoardLink = board  # it is a board link
    board.expect(SET, then=[ClockCommandResult(SET, ok=True)])
    board.push(START)
    link.send(SET)
    link.close()
    received = []
    with anyio.fail_after(1):
        async for event in link.events():
            received.append(event)
    assert received == [START, ClockCommandResult(SET, ok=True), Disconnected("closed by the host")]
    board.assert_done()


def test_unexpected_or_missing_commands_fail_the_test():
    board = ScriptedBoard()
    board.expect(SET)
    with pytest.raises(UnexpectedCommandError, match="expected SetAndRun"):
        board.send(EndDisplay())
    with pytest.raises(AssertionError, match="never sent"):
        board.assert_done()
