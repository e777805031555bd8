"""What a transport serves: one board, or a chain of boards sharing a line.

Both :class:`~boardsim.board.VirtualBoard` and :class:`~boardsim.chain.BusChain` are
sans-I/O endpoints with the same shape, so a pseudo-terminal or a TCP port can carry either.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from boardsim.board import VirtualBoard


class Endpoint(Protocol):
    """The firmware side of one serial line, driven with explicit time."""

    @property
    def boards(self) -> Sequence[VirtualBoard]:
        """The boards on this line, in order."""
        ...

    def receive_data(self, data: bytes, now: float | None = None) -> None:
        """Bytes from the host."""
        ...

    def advance(self, now: float) -> None:
        """Let time pass up to ``now``."""
        ...

    def data_to_send(self) -> bytes:
        """Bytes due on the line by the latest ``now``."""
        ...

    def next_deadline(self) -> float | None:
        """When ``advance`` next has something to do; None while nothing is due."""
        ...
