"""Several boards on one line (bus mode), sans I/O.

Every byte the host sends reaches every board; each board decides from the address whether
the command is its own. Replies are merged onto the line in the order they come due (ties in
board order). A chain is an :class:`~boardsim.endpoint.Endpoint`, so a pseudo-terminal or a
TCP port serves it exactly like a single board.
"""

from __future__ import annotations

from collections.abc import Sequence

from boardsim.board import VirtualBoard


class BusChain:
    """N boards sharing one serial line."""

    def __init__(self, boards: Sequence[VirtualBoard]) -> None:
        if not boards:
            raise ValueError("a chain needs at least one board")
        addresses = [board.address for board in boards]
        if 0 in addresses:
            raise ValueError("address 0 is the broadcast address; pick another serial number")
        if len(set(addresses)) != len(addresses):
            raise ValueError(f"two boards share a bus address: {addresses}")
        self._boards = tuple(boards)

    @property
    def boards(self) -> Sequence[VirtualBoard]:
        return self._boards

    def board_at(self, address: int) -> VirtualBoard:
        for board in self._boards:
            if board.address == address:
                return board
        raise KeyError(address)

    def receive_data(self, data: bytes, now: float | None = None) -> None:
        for board in self._boards:
            board.receive_data(data, now)

    def advance(self, now: float) -> None:
        for board in self._boards:
            board.advance(now)

    def data_to_send(self) -> bytes:
        due = [
            (at, number, data)
            for number, board in enumerate(self._boards)
            for at, data in board.take_output()
        ]
        due.sort(key=lambda item: (item[0], item[1]))
        return b"".join(data for _, _, data in due)

    def next_deadline(self) -> float | None:
        times = [t for board in self._boards if (t := board.next_deadline()) is not None]
        return min(times) if times else None
