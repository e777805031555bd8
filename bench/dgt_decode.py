"""DGT decoding speed: frame decoder throughput and the cost of one field update.

Prints MB/s for the frame decoder over a realistic byte stream (field updates, clock
messages, board dumps, some line noise), and µs per field update through the whole
single-board protocol (frame, decode, position, event). Medians over several runs; never
fails. The bus poll cycle over a simulated line is measured by ``bench/dgt_bus_cycle.py``.

    .venv/bin/python -m bench.dgt_decode [--runs N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from drivers.dgt.frames import FrameDecoder, encode_frame
from drivers.dgt.protocol import DgtBoardProtocol

START = bytes(
    [8, 9, 10, 12, 11, 10, 9, 8] + [7] * 8 + [0] * 32 + [1] * 8 + [2, 3, 4, 6, 5, 4, 3, 2]
)


def stream(updates: int, rng: random.Random) -> bytes:
    """Mostly field updates, a clock message every 10 and a dump every 200, some noise."""
    parts = [encode_frame(0x86, START)]
    for n in range(updates):
        parts.append(encode_frame(0x8E, bytes((rng.randrange(64), rng.randrange(13)))))
        if n % 10 == 0:
            parts.append(encode_frame(0x8D, bytes((0, 0x59, 0x30, 1, 0x00, 0x12, 0x09))))
        if n % 200 == 0:
            parts.append(encode_frame(0x86, START))
        if n % 500 == 0:
            parts.append(b"\x01\x02\x03")
    return b"".join(parts)


def decode_seconds(data: bytes, chunk: int) -> float:
    decoder = FrameDecoder()
    start = time.perf_counter()
    for i in range(0, len(data), chunk):
        decoder.feed(data[i : i + chunk])
    return time.perf_counter() - start


def protocol_seconds(data: bytes, chunk: int) -> float:
    protocol = DgtBoardProtocol()
    start = time.perf_counter()
    for i in range(0, len(data), chunk):
        protocol.receive_data(data[i : i + chunk], 0.0)
        protocol.events_received()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    rng = random.Random(1)
    updates = 50_000
    data = stream(updates, rng)
    for chunk, what in ((64, "64-byte reads"), (5, "5-byte reads (one update per read)")):
        decoder_s = [decode_seconds(data, chunk) for _ in range(args.runs)]
        protocol_s = [protocol_seconds(data, chunk) for _ in range(args.runs)]
        mbps = len(data) / statistics.median(decoder_s) / 1e6
        per_update = statistics.median(protocol_s) / updates * 1e6
        print(f"{what}: frame decoder {mbps:.1f} MB/s; protocol {per_update:.1f} µs per update")
    wire = len(data) / 960  # bytes per second at 9600 baud, 8N1
    print(f"({len(data)} bytes: {wire:.0f} s of a 9600-baud line)")


if __name__ == "__main__":
    main()
