from __future__ import annotations

import gc

from relay.heap import freeze_startup_heap


def test_what_start_up_built_is_frozen_and_what_comes_after_is_collected_as_usual():
    built_at_start_up = [{"board": n} for n in range(1000)]
    try:
        frozen = freeze_startup_heap()
        assert frozen >= len(built_at_start_up)
        assert frozen == gc.get_freeze_count()
        cycle: list[object] = []
        cycle.append(cycle)  # made after: the collector still finds it
        del cycle
        assert gc.collect() >= 1
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()
    assert len(built_at_start_up) == 1000
