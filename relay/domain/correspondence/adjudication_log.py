"""A game's adjudication kept as its steps (C.15, C.10-11): the hub appends each step, and
the process is the steps replayed through :class:`Adjudication`, which refuses a step the
rules do not allow where the process stands.

The steps: ``ask`` (the TS asks both players whether to go on), ``consent`` (one player's
answer, ``side`` and ``continue``; the second answer settles it), ``claim`` (``side``,
``result``, ``analysis``), ``decide`` (``result``), ``appeal`` (``side``), ``rule``
(``result``) and ``lapse`` (the appeal window closed with no appeal). Each has its day.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

import chess

from relay.domain.correspondence.adjudication import (
    Adjudication,
    AdjudicationError,
    Claim,
    TournamentFormat,
)
from relay.domain.results import Result

__all__ = ["ACTIONS", "AdjudicationState", "Step", "replay"]

ACTIONS = ("ask", "consent", "claim", "decide", "appeal", "rule", "lapse")
_COLOURS = {"white": chess.WHITE, "black": chess.BLACK}


@dataclass(frozen=True, slots=True)
class Step:
    action: str
    on: date
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class AdjudicationState:
    """The process as its steps leave it, and the players' answers to the TS's question
    while only one of them has answered."""

    process: Adjudication
    consents: Mapping[str, bool]


def replay(
    kind: TournamentFormat, started: date, steps: Sequence[Step]
) -> AdjudicationState | None:
    """The adjudication ``steps`` make of a game of an event of ``kind`` started on
    ``started``; None before the TS asks. Raises :class:`AdjudicationError` (or one of its
    kinds) for a step the rules do not allow."""
    process: Adjudication | None = None
    consents: dict[str, bool] = {}
    for step in steps:
        if step.action == "ask":
            if process is not None:
                raise AdjudicationError("the players have been asked already")
            process = Adjudication.ask(kind, started, step.on)
            continue
        if process is None:
            raise AdjudicationError("the TS has not asked the players yet (C.15.C)")
        if step.action == "consent":
            side = _side(step)
            if side in consents:
                raise AdjudicationError(f"{side} has answered already")
            consents[side] = bool(step.data.get("continue"))
            if len(consents) == 2:
                process = process.answer(
                    white_agrees=consents["white"], black_agrees=consents["black"], on=step.on
                )
            elif process.stage.value != "asked":
                raise AdjudicationError(f"the adjudication is {process.stage}")
        elif step.action == "claim":
            result = _result(step)
            process = process.claim(
                Claim(_COLOURS[_side(step)], result, str(step.data.get("analysis", "")), step.on)
            )
        elif step.action == "decide":
            process = process.decide(_result(step), notified_on=step.on)
        elif step.action == "appeal":
            process = process.appeal(_COLOURS[_side(step)], sent_on=step.on)
        elif step.action == "rule":
            process = process.rule(_result(step))
        elif step.action == "lapse":
            process = process.lapse(step.on)
        else:
            raise AdjudicationError(f"no step {step.action!r}: one of {', '.join(ACTIONS)}")
    return None if process is None else AdjudicationState(process, consents)


def _side(step: Step) -> str:
    side = step.data.get("side")
    if side not in _COLOURS:
        raise AdjudicationError(f"a {step.action} is White's or Black's")
    return str(side)


def _result(step: Step) -> Result:
    return Result.parse(str(step.data.get("result")))
