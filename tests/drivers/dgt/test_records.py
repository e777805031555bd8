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
