"""The published API documents, as the app describes itself.

``python -m relay.api.openapi_doc > docs/openapi.json`` writes the OpenAPI document;
``python -m relay.api.openapi_doc --events > docs/events.schema.json`` the JSON Schema of the
game events as the streams send them. ``tests/relay/api/test_openapi.py`` checks that both
published copies are current.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from relay.api.app import create_app
from relay.api.schemas.events import event_schema
from relay.config import Settings


def openapi_document() -> dict[str, Any]:
    """The app's OpenAPI document (no database is opened: the app is only built)."""
    return create_app(Settings()).openapi()


def render(document: dict[str, Any]) -> str:
    """Pretty-printed with sorted keys, so that the text changes only when the API does."""
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    if argv not in ([], ["--events"]):
        print("usage: python -m relay.api.openapi_doc [--events]", file=sys.stderr)
        return 2
    document = event_schema() if argv else openapi_document()
    sys.stdout.write(render(document))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
