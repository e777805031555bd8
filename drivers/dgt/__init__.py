"""DGT e-boards: the frame codec, the single-board protocol and an asyncio serial transport.

Byte-level facts are in ``docs/dgt-protocol.md``. The layers, from the wire up:
:mod:`.frames` splits bytes into messages, :mod:`.messages` gives them meaning,
:mod:`.protocol` keeps a board's state and turns messages into :mod:`drivers.events`, and
:mod:`.transport` moves the bytes.
"""
