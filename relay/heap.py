"""Keeping the cyclic garbage collector's pauses out of the live path.

Python's collector walks every tracked container of the generation it collects. Once a hub
has started it holds a few hundred thousand of them that live as long as the process: the
modules, the app and its routes, the ORM's metadata, the round's trackers. A full collection
over those stalled the event loop for 110 ms in ``bench/e2e_latency.py``, under the moves of
every board at once. They are moved out of the collector's sight when the hub is ready
(``gc.freeze``); whatever is made afterwards is collected as usual.
"""

from __future__ import annotations

import gc


def freeze_startup_heap() -> int:
    """Collect what start-up left behind, then exempt the rest from later collections;
    returns how many objects were frozen."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
