"""FEN of a position, built from its bitboards.

Every decided move carries the FEN of the position after it, so this runs once per move on
the hub's hot path. python-chess asks each of the 64 squares for its piece; here the pieces
are read from the twelve piece bitboards and each rank's text is looked up in a small cache
(a game has few distinct ranks), which is several times faster and gives the same string.
"""

from __future__ import annotations

import chess

_LETTERS = (
    (chess.PAWN, "P"),
    (chess.KNIGHT, "N"),
    (chess.BISHOP, "B"),
    (chess.ROOK, "R"),
    (chess.QUEEN, "Q"),
    (chess.KING, "K"),
)
_RANK_CACHE_LIMIT = 4096
_rank_texts: dict[str, str] = {}


def _rank_text(squares: str) -> str:
    """``"rn..kb.r"`` -> ``"rn2kb1r"``."""
    text = _rank_texts.get(squares)
    if text is None:
        parts: list[str] = []
        empty = 0
        for char in squares:
            if char == ".":
                empty += 1
                continue
            if empty:
                parts.append(str(empty))
                empty = 0
            parts.append(char)
        if empty:
            parts.append(str(empty))
        text = "".join(parts)
        if len(_rank_texts) >= _RANK_CACHE_LIMIT:
            _rank_texts.clear()
        _rank_texts[squares] = text
    return text


def board_fen(board: chess.BaseBoard) -> str:
    """The placement field of the FEN, equal to ``board.board_fen()``."""
    cells = ["."] * 64
    for piece_type, letter in _LETTERS:
        for square in chess.scan_forward(board.pieces_mask(piece_type, chess.WHITE)):
            cells[square] = letter
        lower = letter.lower()
        for square in chess.scan_forward(board.pieces_mask(piece_type, chess.BLACK)):
            cells[square] = lower
    return "/".join(
        _rank_text("".join(cells[rank * 8 : rank * 8 + 8])) for rank in range(7, -1, -1)
    )


def fen(board: chess.Board) -> str:
    """The full FEN, equal to ``board.fen()`` (en passant shown only when legal)."""
    rights = board.clean_castling_rights()
    castling = "".join(
        letter
        for letter, square in (("K", chess.H1), ("Q", chess.A1), ("k", chess.H8), ("q", chess.A8))
        if rights & chess.BB_SQUARES[square]
    )
    ep_square = board.ep_square
    legal_ep = ep_square is not None and board.has_legal_en_passant()
    ep = chess.square_name(ep_square) if legal_ep and ep_square is not None else "-"
    turn = "w" if board.turn == chess.WHITE else "b"
    return (
        f"{board_fen(board)} {turn} {castling or '-'} {ep} "
        f"{board.halfmove_clock} {board.fullmove_number}"
    )
