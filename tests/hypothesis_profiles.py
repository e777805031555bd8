"""Hypothesis profiles, chosen with ``HYPOTHESIS_PROFILE``; no test names its own number of
examples.

- ``dev`` (the default): 20 examples a property, random, remembered in ``.hypothesis/`` so
  that a failure found once is tried first next time. ``make check`` uses it.
- ``ci``: 100 examples, derandomized: every run tries the same examples, so a red run can be
  repeated by anyone and a green one is not luck. ``make test`` and so CI use it.
- ``thorough``: 1,000 random examples, for a search before a release or after changing a
  codec or a tracker: ``HYPOTHESIS_PROFILE=thorough make test``.

No profile has a deadline: the machines are shared and noisy, and a property is about
behaviour, never about speed (timing belongs in ``bench/``).
"""

from __future__ import annotations

import os

from hypothesis import settings

VARIABLE = "HYPOTHESIS_PROFILE"
DEFAULT = "dev"


def load() -> None:
    """Register the three profiles and load the one the environment names."""
    settings.register_profile("dev", max_examples=20, deadline=None)
    settings.register_profile(
        "ci", max_examples=100, deadline=None, derandomize=True, database=None, print_blob=True
    )
    settings.register_profile("thorough", max_examples=1000, deadline=None)
    name = os.environ.get(VARIABLE, DEFAULT)
    if name not in {"dev", "ci", "thorough"}:
        raise ValueError(f"{VARIABLE}={name!r}: use dev, ci or thorough")
    settings.load_profile(name)
