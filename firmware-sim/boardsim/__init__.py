"""A virtual DGT e-board that speaks the real wire protocol on a pseudo-terminal.

An independent implementation of the board side of the wire: it imports neither ``relay``
nor ``drivers``, so a driver that talks to it is tested against a second reading of the
protocol, not against itself. :mod:`.board` is the sans-I/O firmware, :mod:`.hands` turns
moves into the lifts and placements a player makes, :mod:`.pty_link` serves a board on a
pseudo-terminal, :mod:`.player` plays a PGN game on it and :mod:`.cli` is ``boardsim``.
"""
