"""Every file of the fuzz corpus, fed in many ways: a value or a documented error, nothing else.

The corpus (``fuzz_corpus/``) holds valid sessions, truncations, absurd lengths, unknown
messages, bad piece codes, impossible clock bytes, junk logs, bus replies with bad checksums,
random bytes and bit-flipped sessions. Add a file whenever a new kind of bad input turns up.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from drivers.dgt.bus import DgtBusProtocol
from drivers.dgt.frames import Discarded, Frame, FrameDecoder
from drivers.dgt.protocol import DgtBoardProtocol
from drivers.dgt.records import ClockRecord, FieldRecord, TagRecord, decode_log
from drivers.events import BoardEvent

BOARD_EVENTS = BoardEvent.__args__

CORPUS = sorted((Path(__file__).parent / "fuzz_corpus").glob("*.bin"))


def chunks(data: bytes, rng: random.Random) -> list[bytes]:
    pieces = []
    i = 0
    while i < len(data):
        size = rng.choice((1, 2, 3, 5, 64, 4096))
        pieces.append(data[i : i + size])
        i += size
    return pieces


def test_the_corpus_is_there():
    assert len(CORPUS) >= 20


@pytest.mark.parametrize("path", CORPUS, ids=lambda path: path.name)
def test_corpus_file(path):
    data = path.read_bytes()
    for seed in range(3):
        rng = random.Random(seed)
        decoder = FrameDecoder()
        accounted = 0
        for piece in chunks(data, rng):
            for item in decoder.feed(piece):
                assert isinstance(item, Frame | Discarded)
                accounted += len(item.payload) + 3 if isinstance(item, Frame) else len(item.data)
        assert accounted + decoder.pending == len(data)

        board = DgtBoardProtocol()
        board.start(0.0)
        bus = DgtBusProtocol()
        bus.start(0.0)
        for now, piece in enumerate(chunks(data, rng)):
            board.receive_data(piece, float(now))
            board.advance(float(now))
            bus.receive_data(piece, float(now))
            bus.advance(float(now))
        assert all(isinstance(event, BOARD_EVENTS) for event in board.events_received())
        assert all(isinstance(item.event, BOARD_EVENTS) for item in bus.events_received())
    log = decode_log(data)
    sizes = {FieldRecord: 2, ClockRecord: 3, TagRecord: 1}
    assert sum(sizes[type(record)] for record in log.records) + log.skipped == len(data)
