"""``relay demo``: a round of real games played on simulated boards, relayed live.

The games are bundled in ``games.pgn`` beside this module; ``boardsim`` plays them on
pseudo-terminals and the hub follows each board through the real DGT driver.
"""
