"""The EEPROM log: record layouts, the ring, the bus cursors, and the position tags."""

from __future__ import annotations

import pytest

from boardsim.board import VirtualBoard
from boardsim.board_log import CAPACITY, BoardLog, Tag, clock_record, field_record
from boardsim.pieces import EMPTY_POSITION, ROTATED_START_POSITION, START_POSITION


def test_field_record_layout() -> None:
    assert field_record(63, 12, quick=False) == bytes((0x4C, 63))
    assert field_record(0, 0, quick=True) == bytes((0x50, 0))
    assert field_record(27, 15, quick=True) == bytes((0x5F, 27))


@pytest.mark.parametrize(("square", "piece"), [(64, 1), (-1, 1), (0, 16)])
def test_field_record_rejects_bad_values(square: int, piece: int) -> None:
    with pytest.raises(ValueError, match="square"):
        field_record(square, piece, quick=False)


def test_clock_record_layout() -> None:
    assert clock_record(left=False, hours=1, minutes=29, seconds=5) == bytes((0x61, 0x29, 0x05))
    assert clock_record(left=True, hours=9, minutes=59, seconds=59) == bytes((0x79, 0x59, 0x59))


def test_the_tags_of_the_header() -> None:
    assert {tag.name: int(tag) for tag in Tag} == {
        "NOP2": 0x00,
        "POWERUP": 0x6A,
        "EOF": 0x6B,
        "FOURROWS": 0x6C,
        "EMPTYBOARD": 0x6D,
        "DOWNLOADED": 0x6E,
        "BEGINPOS": 0x6F,
        "BEGINPOS_ROT": 0x7A,
        "START_TAG": 0x7B,
        "WATCHDOG_ACTION": 0x7C,
        "NOP": 0x7F,
    }


def test_quick_bit_follows_the_previous_change() -> None:
    log = BoardLog()
    log.field_change(1, 0, 0.0)
    log.field_change(2, 0, 0.2)
    log.field_change(3, 0, 0.5)

    assert log.contents() == bytes((0x40, 1, 0x50, 2, 0x40, 3))


def test_a_second_change_of_the_same_square_overwrites_the_record() -> None:
    log = BoardLog()
    log.field_change(10, 0, 0.0)
    log.field_change(10, 7, 1.0)  # the pawn put back: one record, the latest

    assert log.contents() == bytes((0x47, 10))
    assert len(log) == 2


def test_a_fetched_record_is_not_overwritten() -> None:
    log = BoardLog()
    log.field_change(10, 0, 0.0)
    assert log.take_changes() == bytes((0x40, 10))

    log.field_change(10, 7, 1.0)

    assert log.take_changes() == bytes((0x47, 10))
    assert log.contents() == bytes((0x40, 10, 0x47, 10))


def test_overwriting_can_be_switched_off() -> None:
    log = BoardLog(overwrite_same_square=False)
    log.field_change(10, 0, 0.0)
    log.field_change(10, 7, 1.0)

    assert log.contents() == bytes((0x40, 10, 0x47, 10))


def test_the_ring_drops_whole_records_from_the_front() -> None:
    log = BoardLog(capacity=7)
    log.tag(Tag.POWERUP)
    log.clock(left=True, hours=1, minutes=0, seconds=0)
    log.field_change(5, 1, 0.0)
    log.field_change(6, 1, 10.0)  # 8 bytes: the tag goes

    assert log.contents() == bytes((0x71, 0, 0, 0x41, 5, 0x41, 6))

    log.field_change(7, 1, 20.0)  # 9 bytes: the clock record goes, whole
    assert log.dump() == bytes((0x41, 5, 0x41, 6, 0x41, 7, 0x6B))


def test_a_full_log_is_at_most_the_eeprom_size() -> None:
    log = BoardLog()
    for n in range(5000):
        log.field_change(n % 64, 1, float(n))

    assert len(log) <= CAPACITY
    assert len(log.dump()) <= 0x1F00
    assert len(log.dump()) >= 0x1F00 - 2


def test_take_changes_returns_each_record_once() -> None:
    log = BoardLog()
    log.tag(Tag.POWERUP)
    assert log.take_changes() == bytes((0x6A,))
    assert log.take_changes() == b""

    log.field_change(3, 0, 1.0)
    log.tag(Tag.EMPTYBOARD)

    assert log.take_changes() == bytes((0x40, 3, 0x6D))


def test_from_start_runs_from_the_latest_start_tag_to_the_fetched_changes() -> None:
    log = BoardLog()
    log.field_change(1, 0, 0.0)
    log.tag(Tag.START_TAG)
    log.field_change(2, 0, 1.0)
    log.take_changes()
    log.field_change(3, 0, 2.0)  # not fetched yet: not in FROM_START

    assert log.from_start() == bytes((0x7B, 0x40, 2))


def test_from_start_without_a_start_tag_is_the_fetched_log() -> None:
    log = BoardLog()
    log.tag(Tag.POWERUP)
    log.take_changes()

    assert log.from_start() == bytes((0x6A,))


def test_power_up_sequence() -> None:
    board = VirtualBoard(squares=EMPTY_POSITION)

    assert board.log.contents() == bytes((0x7F, 0x7F, 0x7F, 0x6A, 0x6D))


def test_power_up_records_every_piece_in_a_seeded_order() -> None:
    orders = [VirtualBoard(seed=seed).log.contents()[4:68] for seed in (1, 1, 2)]

    assert orders[0] == orders[1]
    assert orders[0] != orders[2]
    assert sorted(orders[0][1::2]) == [i for i, p in enumerate(START_POSITION) if p]


def test_position_tags_are_written_when_the_position_appears() -> None:
    board = VirtualBoard(squares=EMPTY_POSITION, now=0.0)

    board.set_position(START_POSITION, now=1.0)
    assert board.log.contents()[-1] == Tag.BEGINPOS

    board.set_position(EMPTY_POSITION, now=2.0)
    assert board.log.contents()[-1] == Tag.EMPTYBOARD

    board.set_position(ROTATED_START_POSITION, now=3.0)
    assert board.log.contents()[-1] == Tag.BEGINPOS_ROT

    four_rows = list(START_POSITION)
    four_rows[0], four_rows[1] = four_rows[1], four_rows[0]  # knight and rook swapped
    board.set_position(EMPTY_POSITION, now=4.0)
    board.set_position(four_rows, now=5.0)
    assert board.log.contents()[-1] == Tag.FOURROWS


def test_the_start_tag_is_followed_by_every_piece() -> None:
    board = VirtualBoard(now=0.0)
    board.log.take_changes()

    board.write_start_tag(5.0)

    changes = board.log.take_changes()
    assert changes[0] == Tag.START_TAG
    assert len(changes) == 1 + 2 * 32
