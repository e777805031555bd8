from __future__ import annotations

import pytest
from sqlmodel import Session

from relay.hub.backups import BackupError, backup, backups, restore
from relay.store.engine import open_store
from relay.store.event_log import append_events, read_round_events
from tests.pairings import paired_round


def logs(url: str, round_id: int) -> dict[int, list[tuple[int, str, dict[str, object], float]]]:
    engine = open_store(url)
    try:
        with Session(engine) as session:
            return {
                game: [(e.seq, e.kind, e.data, e.recorded_at) for e in events]
                for game, events in read_round_events(session, round_id=round_id).items()
            }
    finally:
        engine.dispose()


def test_a_restore_reproduces_every_game_exactly(tmp_path):
    url = f"sqlite:///{tmp_path / 'live.db'}"
    engine = open_store(url)
    with Session(engine) as session:
        round_id, games = paired_round(session, games=3)
        for n, game in enumerate(games):
            events = [("move", {"ply": ply, "uci": f"m{ply}"}) for ply in range(1, n + 3)]
            append_events(session, game_id=game, events=events, recorded_at=100.0 + n)
    before = logs(url, round_id)
    made = backup(url, tmp_path / "backups", keep=3)
    assert made.name.startswith("relay-")
    # The games go on after the backup, then the machine is lost: restore elsewhere.
    with Session(engine) as session:
        append_events(session, game_id=games[0], events=[("end", {})], recorded_at=200.0)
    engine.dispose()
    elsewhere = f"sqlite:///{tmp_path / 'new' / 'restored.db'}"
    restore(made, elsewhere)
    assert logs(elsewhere, round_id) == before
    # Restoring over a live database replaces it.
    restore(made, url)
    assert logs(url, round_id) == before


def test_backups_are_rotated(tmp_path):
    url = f"sqlite:///{tmp_path / 'live.db'}"
    open_store(url).dispose()
    folder = tmp_path / "backups"
    for second in range(5):
        backup(url, folder, keep=2, now=1_800_000_000 + second)
    assert [p.name for p in backups(folder)] == [
        "relay-20270115-080003.db",
        "relay-20270115-080004.db",
    ]


def test_bad_backups_and_other_databases_are_refused(tmp_path):
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not a database at all" * 100)
    with pytest.raises(BackupError, match="not a database"):
        restore(junk, f"sqlite:///{tmp_path / 'x.db'}")
    with pytest.raises(BackupError, match="no backup"):
        restore(tmp_path / "missing.db", f"sqlite:///{tmp_path / 'x.db'}")
    with pytest.raises(BackupError, match="pg_dump"):
        backup("postgresql+psycopg://localhost/test", tmp_path, keep=1)
    with pytest.raises(BackupError, match="no database"):
        backup(f"sqlite:///{tmp_path / 'absent.db'}", tmp_path, keep=1)
