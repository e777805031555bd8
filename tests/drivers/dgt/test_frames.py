"""Bytes in, frames out: the DGT frame decoder and encoder."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from drivers.dgt.frames import (
    HEADER_LENGTH,
    MAX_MESSAGE_LENGTH,
    Discarded,
    Frame,
    FrameDecoder,
    encode_frame,
)

START_DUMP = bytes(
    (8, 9, 10, 12, 11, 10, 9, 8) + (7,) * 8 + (0,) * 32 + (1,) * 8 + (2, 3, 4, 6, 5, 4, 3, 2)
)


def board_dump_bytes() -> bytes:
    # Written out by hand from the wire description: id 0x86, total length 67 = 0x00 0x43.
    return bytes((0x86, 0x00, 0x43)) + START_DUMP


def field_update_bytes(index: int, code: int) -> bytes:
    return bytes((0x8E, 0x00, 0x05, index, code))


def feed_all(decoder: FrameDecoder, chunks: list[bytes]) -> list[Frame | Discarded]:
    out: list[Frame | Discarded] = []
    for chunk in chunks:
        out += decoder.feed(chunk)
    return out


def test_board_dump_is_one_frame() -> None:
    decoder = FrameDecoder()

    assert decoder.feed(board_dump_bytes()) == [Frame(0x86, START_DUMP)]
    assert decoder.pending == 0


def test_field_update_is_one_frame() -> None:
    decoder = FrameDecoder()

    assert decoder.feed(field_update_bytes(36, 1)) == [Frame(0x8E, bytes((36, 1)))]
    assert decoder.pending == 0


def test_several_frames_in_one_feed() -> None:
    decoder = FrameDecoder()
    data = board_dump_bytes() + field_update_bytes(52, 0) + field_update_bytes(36, 1)

    assert decoder.feed(data) == [
        Frame(0x86, START_DUMP),
        Frame(0x8E, bytes((52, 0))),
        Frame(0x8E, bytes((36, 1))),
    ]


def test_message_split_across_many_feeds() -> None:
    decoder = FrameDecoder()
    data = board_dump_bytes()

    for number, byte in enumerate(data[:-1], start=1):
        assert decoder.feed(bytes((byte,))) == []
        assert decoder.pending == number
    assert decoder.feed(data[-1:]) == [Frame(0x86, START_DUMP)]
    assert decoder.pending == 0


def test_empty_feed_returns_nothing() -> None:
    decoder = FrameDecoder()

    assert decoder.feed(b"") == []
    assert decoder.pending == 0


def test_empty_payload_frame() -> None:
    decoder = FrameDecoder()

    assert decoder.feed(bytes((0x93, 0x00, 0x03))) == [Frame(0x93, b"")]


def test_garbage_before_a_message_is_discarded() -> None:
    decoder = FrameDecoder()

    out = decoder.feed(b"\x01\x02\x7f" + field_update_bytes(0, 8))

    assert out == [
        Discarded(b"\x01\x02\x7f", "no message start"),
        Frame(0x8E, bytes((0, 8))),
    ]


def test_garbage_alone_is_discarded_not_held() -> None:
    decoder = FrameDecoder()

    assert decoder.feed(b"\x40\x42\x4b") == [Discarded(b"\x40\x42\x4b", "no message start")]
    assert decoder.pending == 0


def test_truncated_message_resynchronises_on_new_id() -> None:
    decoder = FrameDecoder()
    cut_short = board_dump_bytes()[:20]

    out = feed_all(decoder, [cut_short, field_update_bytes(63, 2)])

    assert out == [
        Discarded(cut_short, "truncated message"),
        Frame(0x8E, bytes((63, 2))),
    ]
    assert decoder.pending == 0


def test_truncated_message_in_one_feed() -> None:
    decoder = FrameDecoder()
    data = b"\x8e\x00\x05\x0c" + field_update_bytes(1, 9)

    assert decoder.feed(data) == [
        Discarded(b"\x8e\x00\x05\x0c", "truncated message"),
        Frame(0x8E, bytes((1, 9))),
    ]


@pytest.mark.parametrize(
    "chunks",
    [
        [b"\x8e\x00\x8e\x00\x05\x01\x02"],
        [b"\x8e", b"\x00", b"\x8e\x00\x05\x01\x02"],
        [b"\x8e", b"\x00\x8e", b"\x00\x05\x01\x02"],
    ],
)
def test_truncated_header_resynchronises(chunks: list[bytes]) -> None:
    decoder = FrameDecoder()

    assert feed_all(decoder, chunks) == [
        Discarded(b"\x8e\x00", "truncated header"),
        Frame(0x8E, bytes((1, 2))),
    ]


def test_id_byte_after_id_byte() -> None:
    decoder = FrameDecoder()

    assert decoder.feed(b"\x86" + field_update_bytes(3, 4)) == [
        Discarded(b"\x86", "truncated header"),
        Frame(0x8E, bytes((3, 4))),
    ]


@pytest.mark.parametrize("length", [0, 1, 2])
def test_impossible_length_is_discarded(length: int) -> None:
    decoder = FrameDecoder()
    bad = bytes((0x8E, 0x00, length, 0x01, 0x02))

    out = decoder.feed(bad + field_update_bytes(5, 6))

    assert out == [
        Discarded(bad, f"impossible length {length}"),
        Frame(0x8E, bytes((5, 6))),
    ]


def test_impossible_length_alone_is_not_held() -> None:
    decoder = FrameDecoder()

    assert decoder.feed(b"\x8e\x00\x02") == [Discarded(b"\x8e\x00\x02", "impossible length 2")]
    assert decoder.pending == 0
    # What follows without an id byte is not a message either.
    assert decoder.feed(b"\x01\x02") == [Discarded(b"\x01\x02", "no message start")]


def test_oversized_length_is_discarded() -> None:
    decoder = FrameDecoder()
    length = MAX_MESSAGE_LENGTH + 1
    bad = bytes((0x8F, length >> 7, length & 0x7F)) + b"\x00" * 10

    out = decoder.feed(bad + field_update_bytes(7, 7))

    assert out == [
        Discarded(bad, f"impossible length {length}"),
        Frame(0x8E, bytes((7, 7))),
    ]


def test_largest_length_field_is_discarded() -> None:
    decoder = FrameDecoder()

    assert decoder.feed(b"\x8f\x7f\x7f") == [Discarded(b"\x8f\x7f\x7f", "impossible length 16383")]


def test_longest_allowed_message_is_decoded() -> None:
    decoder = FrameDecoder()
    payload = bytes(i % 128 for i in range(MAX_MESSAGE_LENGTH - HEADER_LENGTH))
    data = encode_frame(0x8F, payload)

    out = feed_all(decoder, [data[i : i + 100] for i in range(0, len(data), 100)])

    assert out == [Frame(0x8F, payload)]
    assert decoder.pending == 0


def test_encode_frame_wire_form() -> None:
    assert encode_frame(0x86, START_DUMP) == board_dump_bytes()
    assert encode_frame(0x8E, bytes((36, 1))) == field_update_bytes(36, 1)
    assert encode_frame(0x92, b"") == b"\x92\x00\x03"


def test_encode_frame_length_halves() -> None:
    payload = b"\x01" * 200  # total 203 = 1 * 128 + 75

    assert encode_frame(0x8F, payload)[:3] == bytes((0x8F, 0x01, 0x4B))


def test_encode_frame_rejects_id_without_bit_7() -> None:
    with pytest.raises(ValueError, match="lacks bit 7"):
        encode_frame(0x0E, b"")


def test_encode_frame_rejects_payload_with_bit_7() -> None:
    with pytest.raises(ValueError, match="bit 7 clear"):
        encode_frame(0x8E, bytes((1, 0x80)))


def test_encode_frame_rejects_oversized_payload() -> None:
    with pytest.raises(ValueError, match="exceeds"):
        encode_frame(0x8F, b"\x00" * (MAX_MESSAGE_LENGTH - HEADER_LENGTH + 1))


@st.composite
def chunked(draw: st.DrawFn, data: bytes) -> list[bytes]:
    """``data`` split at arbitrary points."""
    cuts = sorted(
        draw(st.lists(st.integers(min_value=0, max_value=len(data)), max_size=len(data) + 1))
    )
    bounds = [0, *cuts, len(data)]
    return [data[start:end] for start, end in itertools.pairwise(bounds)]


@st.composite
def chunked_bytes(draw: st.DrawFn) -> list[bytes]:
    data = draw(st.binary(max_size=300))
    return draw(chunked(data))


@given(chunked_bytes())
def test_any_input_is_accounted_for(chunks: list[bytes]) -> None:
    decoder = FrameDecoder()
    total = 0
    accounted = 0

    for chunk in chunks:
        out = decoder.feed(chunk)
        total += len(chunk)
        for item in out:
            assert isinstance(item, Frame | Discarded)
            if isinstance(item, Frame):
                assert item.message_id & 0x80
                assert not any(b & 0x80 for b in item.payload)
                accounted += len(item.payload) + HEADER_LENGTH
            else:
                assert item.data
                accounted += len(item.data)
        assert accounted + decoder.pending == total


frames_strategy = st.lists(
    st.builds(
        Frame,
        message_id=st.integers(min_value=0x80, max_value=0xFF),
        payload=st.binary(max_size=80).map(lambda b: bytes(x & 0x7F for x in b)),
    ),
    max_size=8,
)
clear_garbage = st.binary(max_size=10).map(lambda b: bytes(x & 0x7F for x in b))


@given(frames_strategy, st.data())
def test_valid_frames_survive_interleaved_garbage(frames: list[Frame], data: st.DataObject) -> None:
    wire = bytearray(data.draw(clear_garbage))
    for frame in frames:
        wire += encode_frame(frame.message_id, frame.payload)
        wire += data.draw(clear_garbage)
    chunks = data.draw(chunked(bytes(wire)))
    decoder = FrameDecoder()

    out = feed_all(decoder, chunks)

    assert [item for item in out if isinstance(item, Frame)] == frames
    discards = [item for item in out if isinstance(item, Discarded)]
    assert all(item.reason == "no message start" for item in discards)
    assert decoder.pending == 0
