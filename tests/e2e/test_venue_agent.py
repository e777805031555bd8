"""A round read at the venue by ``relay agent`` and relayed by a hub elsewhere
(docs/venue-agent.md), through a link that is cut and then blackholed mid-round (nothing
passes and nothing closes, until the agent's pings go unanswered and it connects again):
every game is stored move for move, no input is kept twice, and the hub shows the agent
gone while the link is cut.

Real processes: boardsim plays real games on pseudo-terminals, ``relay agent`` reads them
through the real DGT driver and its queue, a TCP proxy of the test's own stands for the
venue's internet, and ``relay serve`` follows the boards as ``agent://hall/N``.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from tests.e2e.test_kill_restart import differences, follow, stored_moves
from tests.link_proxy import LinkProxy
from tests.relay_serve import relay_serve
from tests.venue_round import (
    agent_round,
    agent_status,
    kept_inputs,
    operator_token,
    port_of,
    relay_agent,
)

FINISH_SECONDS = 240


def test_a_round_through_an_agent_survives_a_cut_and_a_blackholed_link(tmp_path: Path) -> None:
    with (
        agent_round(tmp_path, seed=5) as (boardsim, expected, event, db),
        relay_serve(tmp_path, event, db) as (_, address),
    ):
        operator = operator_token(db)
        stream = f"ws://{address}api/rounds/1/stream"
        with (
            LinkProxy(port_of(address)) as proxy,
            relay_agent(tmp_path, proxy.port, operator, boardsim.ports),
        ):
            follow(stream, lambda plies: sum(plies.values()) >= 40, 120)
            proxy.cut()
            boardsim.wait_until(lambda: len(boardsim.moved) >= 70, 60, "moves")
            assert agent_status(address, operator)["connected"] is False
            proxy.restore()
            follow(stream, lambda plies: sum(plies.values()) >= 90, 120)
            proxy.blackhole()
            # The agent hears no answer to its pings and connects again (held too).
            proxy.wait_accepted(3, 60)
            assert len(boardsim.moved) > 100  # the boards played on meanwhile
            proxy.restore()
            finished = {board: len(moves) for board, moves in expected.items()}
            with contextlib.suppress(AssertionError):  # the comparison below says what
                follow(stream, lambda plies: plies == finished, FINISH_SECONDS)
        after = stored_moves(db)
        assert after == expected, differences(after, expected)
        kept = kept_inputs(db)
        assert kept == list(range(1, len(kept) + 1))  # each input kept once, none missing


def test_a_hub_killed_mid_round_loses_nothing_the_agent_sent(tmp_path: Path) -> None:
    """kill -9 of the hub while the agent sends: the agent keeps what was not acknowledged,
    the hub started again on the same database resends nothing twice and picks each board
    up from what it had kept."""
    with agent_round(tmp_path, seed=9) as (boardsim, expected, event, db):
        with LinkProxy(1) as proxy, contextlib.ExitStack() as agent_scope:
            with relay_serve(tmp_path, event, db) as (first, address):
                proxy.retarget(port_of(address))
                operator = operator_token(db)
                agent_scope.enter_context(
                    relay_agent(tmp_path, proxy.port, operator, boardsim.ports)
                )
                follow(f"ws://{address}api/rounds/1/stream", lambda p: sum(p.values()) >= 60, 120)
                first.kill()  # SIGKILL: no shutdown, no flush
                first.wait(timeout=30)
            made = len(boardsim.moved)
            boardsim.wait_until(lambda: len(boardsim.moved) >= made + 40, 60, "moves")
            with relay_serve(tmp_path, event, db) as (_, again):
                proxy.retarget(port_of(again))
                finished = {board: len(moves) for board, moves in expected.items()}
                with contextlib.suppress(AssertionError):  # the comparison below says what
                    follow(f"ws://{again}api/rounds/1/stream", lambda p: p == finished, 240)
        after = stored_moves(db)
        assert after == expected, differences(after, expected)
        kept = kept_inputs(db)
        assert kept == list(range(1, len(kept) + 1))  # each input kept once, none missing
