"""What ``tests/coverage_workers.py`` is for: under ``make test`` (coverage on pytest-xdist
workers) a test marked ``no_cover`` runs with no tracer at all."""

from __future__ import annotations

import sys

import pytest


@pytest.mark.no_cover
def test_a_test_marked_no_cover_runs_untraced() -> None:
    assert sys.gettrace() is None


def test_the_others_are_traced_when_coverage_runs(request: pytest.FixtureRequest) -> None:
    measured = request.config.pluginmanager.get_plugin("_cov")
    if getattr(measured, "cov_controller", None) is not None:
        assert sys.gettrace() is not None
    else:
        assert sys.gettrace() is None
