"""Leases among hub processes that share the store: one holder at a time, renewed by its
holder, taken over once lapsed, given back; two takers at once, one wins."""

from __future__ import annotations

import threading

import pytest
from sqlmodel import Session, select

from relay.store.leases import give_back_lease, take_lease
from relay.store.models import HubLease

pytestmark = pytest.mark.both_stores


def take(engine, holder: str, now: float, name: str = "sweep", seconds: float = 60.0) -> bool:
    with Session(engine) as session:
        taken = take_lease(session, name=name, holder=holder, now=now, seconds=seconds)
        session.commit()
    return taken


def test_one_holder_at_a_time_until_it_lapses_or_is_given_back(engine):
    assert take(engine, "a", now=1000.0)
    assert not take(engine, "b", now=1030.0)  # a holds it until 1060
    assert take(engine, "a", now=1050.0)  # renewed: until 1110
    assert not take(engine, "b", now=1100.0)
    assert take(engine, "b", now=1111.0)  # lapsed: b's now
    assert not take(engine, "a", now=1112.0)
    with Session(engine) as session:
        give_back_lease(session, name="sweep", holder="a")  # not a's: nothing changes
        session.commit()
    assert not take(engine, "a", now=1113.0)
    with Session(engine) as session:
        give_back_lease(session, name="sweep", holder="b")
        session.commit()
    assert take(engine, "a", now=1114.0)
    # Other leases are apart.
    assert take(engine, "b", now=1114.0, name="other")
    with Session(engine) as session:
        rows = sorted((r.name, r.holder) for r in session.exec(select(HubLease)))
    assert rows == [("other", "b"), ("sweep", "a")]


def takers_at_once(engine, holders: list[str], now: float) -> list[str]:
    """Each holder tries to take the lease at the same moment, from a thread of its own:
    the ones that got it."""
    start = threading.Barrier(len(holders))
    won: list[str] = []

    def try_it(holder: str) -> None:
        start.wait()
        if take(engine, holder, now=now):
            won.append(holder)

    threads = [threading.Thread(target=try_it, args=(holder,)) for holder in holders]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return won


def test_of_many_takers_at_once_one_wins(engine):
    # The first take of a lease races to insert its row; a lapsed one races to update it.
    first = takers_at_once(engine, [f"first-{n}" for n in range(6)], now=1000.0)
    assert len(first) == 1, first
    lapsed = takers_at_once(engine, [f"later-{n}" for n in range(6)], now=5000.0)
    assert len(lapsed) == 1, lapsed
