"""pytest-cov's ``no_cover`` mark made to work in a pytest-xdist worker.

pytest-cov (7.1) builds its plugin in every process from the command line. A worker's
command line has ``-n`` too, so the worker first starts coverage as a controller would,
then, at the session's start, its own on top of it. Coverage keeps its tracers in a stack:
when ``no_cover`` pauses the worker's, the one beneath takes over, and the test is traced
all the same (the fake-time corpus: 46-70 s a shard instead of 14-17). The one beneath is
never read (the worker sends its own data to the controller), so it is stopped as soon as
the worker is configured, before the worker's own starts.
"""

from __future__ import annotations

import pytest


def stop_the_unread_tracer(config: pytest.Config) -> None:
    """In a pytest-xdist worker, stop the coverage pytest-cov started as for a controller."""
    if not hasattr(config, "workerinput"):
        return
    plugin = config.pluginmanager.get_plugin("_cov")
    controller = getattr(plugin, "cov_controller", None)
    if controller is None or type(controller).__name__ != "DistMaster":
        return
    controller.cov.stop()
