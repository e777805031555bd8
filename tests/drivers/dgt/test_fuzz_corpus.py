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
from drivers.dgt.records import decode_log

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
        board.events_received()
        bus.events_received()
    log = decode_log(data)
    assert log.skipped <= len(data)
