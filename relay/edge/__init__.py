"""The edge: websocket streams of games and rounds to spectators.

The wire, read sans I/O (``handshake``, ``frame_reader``) and written (``frames``); the
connection under uvicorn (``protocol``) and over ASGI elsewhere (``asgi``); who may follow
what (``joining``); the fan-out, one subscription and one encoding per room (``rooms``),
written to the sockets over the machine's cores (``fanout``). ``relay.api`` mounts it.
"""
