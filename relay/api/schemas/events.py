"""The game events as the server encodes them, described once as a JSON Schema.

Every logged event of :mod:`relay.domain.game.events` travels as ``{"type": "event",
"game": ID, "v": VERSION, "kind": KIND, "data": FIELDS}`` on the websocket streams
(``relay.edge.rooms.encode_event``); ``data`` holds the event's own fields
(``relay.domain.game.events.event_data``). The schema is built from the event classes, so a
field added to an event is described at once; ``docs/events.schema.json`` is its published
copy (``python -m relay.api.openapi_doc --events`` writes it).
"""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter

from relay.domain.game.events import LOGGED_EVENTS

SCHEMA_ID = "https://chess-relay.invalid/events.schema.json"


def event_schema() -> dict[str, Any]:
    """A JSON Schema (draft 2020-12) of one encoded event message, any kind."""
    defs: dict[str, Any] = {}
    messages: list[dict[str, Any]] = []
    for cls in LOGGED_EVENTS:
        data = TypeAdapter(cls).json_schema(ref_template="#/$defs/{model}")
        defs.update(data.pop("$defs", {}))
        defs[cls.__name__] = data
        messages.append(
            {
                "type": "object",
                "properties": {
                    "type": {"const": "event"},
                    "game": {"type": "integer", "description": "the game's id"},
                    "v": {"type": "integer", "description": "the event's place in the log"},
                    "kind": {"const": cls.kind},
                    "data": {"$ref": f"#/$defs/{cls.__name__}"},
                },
                "required": ["type", "game", "v", "kind", "data"],
                "additionalProperties": False,
            }
        )
    for nested in defs.values():
        if nested.get("type") == "object":
            nested.setdefault("additionalProperties", False)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "Game event",
        "description": (
            "One logged event of a game as the websocket streams send it; data holds the "
            "event's fields (see docs/formats.md). Fields with a default may be absent from "
            "events stored before they existed."
        ),
        "oneOf": messages,
        "$defs": dict(sorted(defs.items())),
    }
