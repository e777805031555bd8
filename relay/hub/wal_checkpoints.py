"""The hub's timer for SQLite checkpoints (why: :mod:`relay.store.checkpoints`)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError

from relay.store.checkpoints import Checkpoint, checkpoint

log = logging.getLogger(__name__)

#: Seconds between two checkpoints: a few hundred log pages at the pace of a 500-board round.
CHECKPOINT_SECONDS = 2.0


async def checkpoint_every(
    engine: Engine,
    seconds: float = CHECKPOINT_SECONDS,
    *,
    on_checkpoint: Callable[[Checkpoint], None] | None = None,
) -> None:
    """Checkpoint now and then every ``seconds`` on a worker thread, until cancelled.

    Failures are logged and tried again next time: the log only grows meanwhile, and
    SQLite's own checkpoint at :data:`relay.store.checkpoints.BACKSTOP_PAGES` bounds it.
    """
    while True:
        try:
            done = await asyncio.to_thread(checkpoint, engine)
        except SQLAlchemyError as error:
            log.error("checkpoint of the database failed: %s", error)
        else:
            if not done.complete:
                log.debug("checkpoint: %d of %d pages", done.copied_pages, done.log_pages)
            if on_checkpoint is not None:
                on_checkpoint(done)
        await asyncio.sleep(seconds)
