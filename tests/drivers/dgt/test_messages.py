"""DGT payload decoders: square numbering and piece codes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from drivers.dgt.messages import (
    MessageError,
    decode_board_dump,
    decode_field_update,
    dgt_to_square,
    square_to_dgt,
)
from drivers.events import MARKER_SYMBOLS, Position

# Piece codes from the wire description.
EMPTY = 0
WP, WR, WN, WB, WK, WQ = 1, 2, 3, 4, 5, 6
BP, BR, BN, BB, BK, BQ = 7, 8, 9, 10, 11, 12

#: The start position in DGT order, a8 first, row by row down to h1.
START_CODES = bytes(
    [BR, BN, BB, BQ, BK, BB, BN, BR]
    + [BP] * 8
    + [EMPTY] * 32
    + [WP] * 8
    + [WR, WN, WB, WQ, WK, WB, WN, WR]
)
START_PLACEMENT = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"


def placement(position: Position) -> str:
    """The FEN piece placement of a position given a1 first."""
    rows = []
    for rank in range(7, -1, -1):
        row = ""
        empty = 0
        for file in range(8):
            piece = position[rank * 8 + file]
            if piece is None:
                empty += 1
            else:
                row += (str(empty) if empty else "") + piece
                empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows)


@pytest.mark.parametrize(
    ("index", "square"),
    [(0, 56), (1, 57), (7, 63), (8, 48), (56, 0), (63, 7), (36, 28), (52, 12)],
)
def test_dgt_to_square(index: int, square: int) -> None:
    assert dgt_to_square(index) == square
    assert square_to_dgt(square) == index


@given(st.integers(min_value=0, max_value=63))
def test_square_mapping_is_an_involution(index: int) -> None:
    square = dgt_to_square(index)

    assert 0 <= square < 64
    assert dgt_to_square(square) == index
    assert square_to_dgt(dgt_to_square(index)) == index
    # Same file, mirrored rank.
    assert square % 8 == index % 8
    assert square // 8 == 7 - index // 8


def test_square_mapping_is_a_permutation() -> None:
    assert sorted(dgt_to_square(index) for index in range(64)) == list(range(64))


def test_board_dump_of_start_position() -> None:
    position = decode_board_dump(START_CODES)

    assert len(position) == 64
    assert placement(position) == START_PLACEMENT
    assert position[0] == "R"  # a1
    assert position[4] == "K"  # e1
    assert position[59] == "q"  # d8
    assert position[63] == "r"  # h8


def test_board_dump_of_empty_board() -> None:
    assert placement(decode_board_dump(bytes(64))) == "8/8/8/8/8/8/8/8"


@pytest.mark.parametrize(("marker", "result"), [(13, "1/2-1/2"), (14, "1-0"), (15, "0-1")])
def test_marker_codes_read_as_marker_symbols_not_chessmen(marker: int, result: str) -> None:
    codes = bytearray(START_CODES)
    codes[27] = marker  # d5
    codes[0] = marker  # a8, over the rook

    position = decode_board_dump(bytes(codes))

    symbol = position[dgt_to_square(27)]
    assert symbol is not None
    assert MARKER_SYMBOLS[symbol] == result
    assert position[dgt_to_square(0)] == symbol
    chessmen = tuple(None if s in MARKER_SYMBOLS else s for s in position)
    assert placement(chessmen) == "1nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"


@pytest.mark.parametrize("code", [16, 17, 0x7F])
def test_unknown_piece_code_in_dump_raises(code: int) -> None:
    codes = bytearray(START_CODES)
    codes[40] = code

    with pytest.raises(MessageError, match=f"unknown piece code {code}"):
        decode_board_dump(bytes(codes))


@pytest.mark.parametrize("length", [0, 63, 65])
def test_board_dump_of_wrong_length_raises(length: int) -> None:
    with pytest.raises(MessageError, match="board dump"):
        decode_board_dump(bytes(length))


def test_message_error_is_a_value_error() -> None:
    assert issubclass(MessageError, ValueError)


@pytest.mark.parametrize(
    ("payload", "expected"),
    [
        (bytes((52, EMPTY)), (12, None)),  # e2 emptied
        (bytes((36, WP)), (28, "P")),  # white pawn on e4
        (bytes((0, BR)), (56, "r")),  # black rook on a8
        (bytes((63, WQ)), (7, "Q")),  # white queen on h1
        (bytes((27, 14)), (35, "1")),  # the white-wins marker on d5
    ],
)
def test_decode_field_update(payload: bytes, expected: tuple[int, str | None]) -> None:
    assert decode_field_update(payload) == expected


@pytest.mark.parametrize(
    ("payload", "match"),
    [
        (b"", "field update of 0 bytes"),
        (b"\x01", "field update of 1 bytes"),
        (b"\x01\x02\x03", "field update of 3 bytes"),
        (bytes((64, 1)), "square index 64"),
        (bytes((0x7F, 1)), "square index 127"),
        (bytes((10, 16)), "unknown piece code 16"),
    ],
)
def test_bad_field_update_raises(payload: bytes, match: str) -> None:
    with pytest.raises(MessageError, match=match):
        decode_field_update(payload)
