"""Client frames, sans I/O: the same frames for any split of the same bytes (several in one
read, one across many), and bad input ended with its close code however it arrives."""

from __future__ import annotations

import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

from relay.edge.frame_reader import (
    CLOSE_PROTOCOL_ERROR,
    CLOSE_TOO_BIG,
    MAX_CLIENT_FRAME,
    BadFrame,
    Frame,
    FrameReader,
    unmask,
)
from tests.strategies import pieces

MASK = b"\x01\x02\x03\x04"


def client_frame(
    opcode: int, payload: bytes, *, fin: bool = True, mask: bytes | None = MASK, first: int = 0
) -> bytes:
    """A frame as a client writes it (RFC 6455 section 5.2): masked unless ``mask`` is None;
    ``first`` is ORed into the first byte (the RSV bits)."""
    size = len(payload)
    if size < 126:
        length = bytes([size])
    elif size < 1 << 16:
        length = bytes([126]) + struct.pack("!H", size)
    else:
        length = bytes([127]) + struct.pack("!Q", size)
    head = bytes([(0x80 if fin else 0) | first | opcode])
    if mask is None:
        return head + length + payload
    masked = bytes(byte ^ mask[n % 4] for n, byte in enumerate(payload))
    return head + bytes([0x80 | length[0]]) + length[1:] + mask + masked


data_frames = st.builds(
    Frame,
    st.sampled_from([0x0, 0x1, 0x2]),
    st.one_of(st.binary(max_size=130), st.binary(min_size=126, max_size=MAX_CLIENT_FRAME)),
    st.booleans(),
)
control_frames = st.builds(
    Frame, st.sampled_from([0x8, 0x9, 0xA]), st.binary(max_size=125), st.just(True)
)
masks = st.binary(min_size=4, max_size=4)


@st.composite
def sent(draw: st.DrawFn) -> tuple[list[Frame], bytes]:
    """Frames, and the bytes a client sends for them (each with a mask of its own)."""
    frames = draw(st.lists(st.one_of(data_frames, control_frames), max_size=6))
    data = b"".join(client_frame(f.opcode, f.payload, fin=f.fin, mask=draw(masks)) for f in frames)
    return frames, data


def read_in(chunks: list[bytes]) -> list[Frame | BadFrame]:
    reader = FrameReader()
    return [item for chunk in chunks for item in reader.feed(chunk)]


@given(sent(), st.data())
def test_any_split_gives_the_frames_sent(frames_and_data, data):
    frames, sent_bytes = frames_and_data
    assert read_in([sent_bytes]) == frames
    assert read_in(data.draw(pieces(sent_bytes))) == frames


def test_a_frame_byte_by_byte_comes_out_with_its_last_byte():
    data = client_frame(0x9, b"ping") + client_frame(0x1, b"x" * 300)
    reader = FrameReader()
    got = [reader.feed(data[n : n + 1]) for n in range(len(data))]
    first_end = len(client_frame(0x9, b"ping"))
    assert [n for n, items in enumerate(got) if items] == [first_end - 1, len(data) - 1]
    assert got[first_end - 1] == [Frame(0x9, b"ping")]
    assert got[-1] == [Frame(0x1, b"x" * 300)]


BAD = {
    "unmasked": (client_frame(0x9, b"hi", mask=None), CLOSE_PROTOCOL_ERROR, "must be masked"),
    "rsv bits": (client_frame(0x1, b"hi", first=0x40), CLOSE_PROTOCOL_ERROR, "RSV bits set"),
    "too big": (client_frame(0x1, b"x" * 0x2000), CLOSE_TOO_BIG, "streams take no messages"),
    "64-bit size": (client_frame(0x2, bytes(70000)), CLOSE_TOO_BIG, "streams take no messages"),
    "opcode 3": (client_frame(0x3, b""), CLOSE_PROTOCOL_ERROR, "unknown opcode 3"),
    "opcode 11": (client_frame(0xB, b"x"), CLOSE_PROTOCOL_ERROR, "unknown opcode 11"),
    "long ping": (client_frame(0x9, b"x" * 126), CLOSE_PROTOCOL_ERROR, "at most 125 bytes"),
    "split close": (client_frame(0x8, b"", fin=False), CLOSE_PROTOCOL_ERROR, "whole"),
}


@given(sent(), st.sampled_from(sorted(BAD)), st.binary(max_size=20), st.data())
def test_bad_input_ends_the_reading_with_its_close_code_however_it_arrives(
    frames_and_data, bad, behind, data
):
    frames, good = frames_and_data
    wrong, code, words = BAD[bad]
    got = read_in(data.draw(pieces(good + wrong + behind)))
    assert got[:-1] == frames
    last = got[-1]
    assert isinstance(last, BadFrame)
    assert last.code == code
    assert words in last.reason


def test_nothing_is_read_after_bad_input():
    reader = FrameReader()
    assert reader.feed(client_frame(0x9, b"a") + b"\x89\x01a") == [
        Frame(0x9, b"a"),
        BadFrame(CLOSE_PROTOCOL_ERROR, "client frames must be masked"),
    ]
    assert reader.feed(client_frame(0x9, b"b")) == []


@pytest.mark.parametrize("size", [1, 125, 126, MAX_CLIENT_FRAME])
def test_the_size_limit_is_inclusive(size):
    data = client_frame(0x2, bytes(size))
    assert FrameReader(max_size=size).feed(data) == [Frame(0x2, bytes(size))]
    assert FrameReader(max_size=size - 1).feed(data) == [
        BadFrame(CLOSE_TOO_BIG, "streams take no messages")
    ]


@given(st.binary(max_size=300), masks)
def test_unmask_xors_with_the_repeating_key(payload, mask):
    expected = bytes(byte ^ mask[i % 4] for i, byte in enumerate(payload))
    assert unmask(payload, mask) == expected
    assert unmask(unmask(payload, mask), mask) == payload
