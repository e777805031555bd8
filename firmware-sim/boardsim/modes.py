"""The board's two mode switches: bus or single-board line, and the single-board update mode.

Kept apart from the firmware so the bus personality and the board can both name them.
"""

from __future__ import annotations

from enum import Enum


class UpdateMode(Enum):
    """Whether, and how, the board reports changes without being asked (single-board mode)."""

    IDLE = "idle"
    UPDATE = "update"
    UPDATE_BOARD = "update-board"
    UPDATE_NICE = "update-nice"


class LineMode(Enum):
    """Whether the board shares a bus or talks to one host alone."""

    BUS = "bus"
    SINGLE = "single"
