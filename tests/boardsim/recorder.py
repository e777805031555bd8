"""What tests of ``boardsim serve`` listen with: a recorder of its JSON lines."""

from __future__ import annotations

import asyncio
import json

import anyio


class Recorder:
    """Collects the JSON records ``serve`` emits and wakes whoever waits for one."""

    def __init__(self) -> None:
        self.records: list[dict[str, object]] = []
        self.changed = asyncio.Event()

    def __call__(self, record: dict[str, object]) -> None:
        json.dumps(record)  # every record must be JSON
        self.records.append(record)
        self.changed.set()

    def of(self, event: str, **fields: object) -> list[dict[str, object]]:
        """The records so far of kind ``event`` that match ``fields``."""
        return [
            record
            for record in self.records
            if record["event"] == event and all(record.get(k) == v for k, v in fields.items())
        ]

    async def wait_for(self, **fields: object) -> dict[str, object]:
        with anyio.fail_after(10):
            while True:
                for record in self.records:
                    if all(record.get(k) == v for k, v in fields.items()):
                        return record
                self.changed.clear()
                await self.changed.wait()
