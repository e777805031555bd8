"""Leases: work that one hub process at a time may do among all that share the store.

A lease is a row: its holder and the time (Unix seconds) it lapses unless renewed. Taking
it is one conditional ``UPDATE`` (free, lapsed, or already ours), or the first ``INSERT``
of its row (``ON CONFLICT DO NOTHING``, on SQLite and PostgreSQL); the database decides
between two processes that try at once. The caller's
session holds the transaction and commits it.
"""

from __future__ import annotations

from sqlalchemy.dialects import postgresql, sqlite
from sqlmodel import Session, col, or_, update

from relay.store.models import HubLease

__all__ = ["give_back_lease", "take_lease"]


def take_lease(session: Session, *, name: str, holder: str, now: float, seconds: float) -> bool:
    """Take or renew the lease ``name`` for ``holder`` until ``now + seconds``; False when
    another holder has it and it has not lapsed."""
    taken = session.exec(
        update(HubLease)
        .where(col(HubLease.name) == name)
        .where(or_(col(HubLease.until) < now, col(HubLease.holder) == holder))
        .values(holder=holder, until=now + seconds)
    )
    if taken.rowcount == 1:
        return True
    # The lease's first taker adds its row; of two at once, one adds it and the other adds
    # nothing (and the row is then the first's).
    values = {"name": name, "holder": holder, "until": now + seconds}
    dialect = session.get_bind().dialect.name
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    added = session.exec(
        insert(HubLease)
        .values(values)
        .on_conflict_do_nothing(index_elements=["name"])
        .returning(col(HubLease.name))
    )
    return added.first() is not None


def give_back_lease(session: Session, *, name: str, holder: str) -> None:
    """Let the lease go, if ``holder`` has it."""
    session.exec(
        update(HubLease)
        .where(col(HubLease.name) == name, col(HubLease.holder) == holder)
        .values(until=0.0)
    )
