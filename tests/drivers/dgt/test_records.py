"""The board's log: records from bytes, never an exception."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from drivers.dgt.records import (
    ClockRecord,
    FieldRecord,
    Tag,
    TagRecord,
    decode_log,
    records_after_last,
    replay_positions,
)


def test_field_clock_and_tag_records():
    data = bytes(
        (
            *(0x7F, 0x7F, 0x7F, 0x6A),  # power-up
            *(0x41, 52),  # white pawn (1) on e2's field, slow
            *(0x50, 52),  # emptied, quick (r bit)
            *(0x61, 0x30, 0x05),  # right display 1:30:05
            *(0x70, 0x59, 0x59),  # left display 0:59:59
            *(0x6E, 0x7B, 0x6B),
        )
    )
    log = decode_log(data)
    assert log.skipped == 0
    assert log.records == [
        TagRecord(0x7F),
        TagRecord(0x7F),
        TagRecord(0x7F),
        TagRecord(Tag.POWER_UP),
        FieldRecord(52, 1, quick=False),
        FieldRecord(52, 0, quick=True),
        ClockRecord(left=False, seconds=5405),
        ClockRecord(left=True, seconds=3599),
        TagRecord(Tag.DOWNLOADED),
        TagRecord(Tag.START_TAG),
        TagRecord(Tag.EOF),
    ]


def test_unknown_and_cut_records_are_skipped():
    log = decode_log(bytes([0x80, 0x41, 0x62, 0x99]))
    assert log.records == []
    assert log.skipped == 4


def test_records_after_the_last_download_mark():
    records = decode_log(bytes([0x41, 1, 0x6E, 0x42, 2, 0x6E, 0x43, 3])).records
    assert records_after_last(records, Tag.DOWNLOADED) == [FieldRecord(3, 3, quick=False)]
    assert records_after_last(records, Tag.START_TAG) == records


@given(st.binary(max_size=600))
def test_any_bytes_decode_and_every_byte_is_accounted_for(data):
    log = decode_log(data)
    sizes = {FieldRecord: 2, ClockRecord: 3, TagRecord: 1}
    assert sum(sizes[type(r)] for r in log.records) + log.skipped == len(data)


START: tuple[str | None, ...] = (
    tuple("RNBQKBNR") + ("P",) * 8 + (None,) * 32 + ("p",) * 8 + tuple("rnbqkbnr")
)


def after(*changes: tuple[int, str | None]) -> tuple[str | None, ...]:
    squares = list(START)
    for square, piece in changes:
        squares[square] = piece
    return tuple(squares)


def test_replay_passes_through_every_logged_position():
    # With e2 empty, the f1 bishop slides f1-e2-d3-c4 (fields f1 61, e2 52, d3 43, c4 34).
    base = after((12, None))
    records = decode_log(
        bytes((0x40, 61, 0x54, 52, 0x50, 52, 0x54, 43, 0x50, 43, 0x54, 34))
    ).records
    positions = replay_positions(base, records)
    assert len(positions) == 6
    assert positions[1] == after((5, None), (12, "B"))
    assert positions[-1] == after((12, None), (5, None), (26, "B"))


def test_replay_drops_what_the_host_saw_live():
    # Live: Nf3 (g1 emptied, f3 knight); then while away: Nf6 (g8 emptied, f6 knight).
    records = decode_log(bytes((0x40, 62, 0x43, 45, 0x40, 6, 0x49, 21))).records
    live = after((6, None), (21, "N"))
    positions = replay_positions(START, records, last_known=live)
    assert positions == [
        after((6, None), (21, "N"), (62, None)),
        after((6, None), (21, "N"), (62, None), (45, "n")),
    ]


def test_power_up_starts_from_an_empty_board():
    records = decode_log(bytes((0x6A, 0x45, 60))).records  # power-up, then a king on e1
    king_alone: list[str | None] = [None] * 64
    king_alone[4] = "K"  # e1
    assert replay_positions(START, records) == [tuple(king_alone)]
