"""The published API documents are current, and they describe every route and every event.

``docs/openapi.json`` and ``docs/events.schema.json`` are written by
``python -m relay.api.openapi_doc`` (see docs/api.md); a test here fails when either is
stale. Every HTTP route, found from ``app.routes``, must describe a 2xx answer; every kind
of logged event, encoded as the streams encode it, must validate against the event schema
(checked by the small validator below: the project has no JSON Schema library).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.routing import APIRoute, APIWebSocketRoute
from starlette.routing import BaseRoute

from relay.api.openapi_doc import openapi_document, render
from relay.api.schemas.events import event_schema
from relay.bus.messages import Published
from relay.domain.clock.change_causes import ClockChangeCause
from relay.domain.game import events as ev
from relay.domain.results import Result
from relay.edge.rooms import encode_event

DOCS = Path(__file__).resolve().parents[3] / "docs"


#: Routes whose answers the standings work types in its own change (relay.api.schemas
#: .standings); until then they only need some described answer, not a named model.
def http_routes(routes: list[BaseRoute]) -> Iterator[APIRoute]:
    """Every HTTP route of the app, looking inside included routers."""
    for route in routes:
        if isinstance(route, APIRoute):
            yield route
        elif isinstance(route, APIWebSocketRoute):
            continue
        else:
            included = getattr(route, "original_router", None)
            if included is not None:
                yield from http_routes(included.routes)


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    return openapi_document()


def test_published_openapi_document_is_current(document):
    published = (DOCS / "openapi.json").read_text(encoding="utf-8")
    assert published == render(document), (
        "docs/openapi.json is stale: python -m relay.api.openapi_doc > docs/openapi.json"
    )


def test_published_event_schema_is_current():
    published = (DOCS / "events.schema.json").read_text(encoding="utf-8")
    assert published == render(event_schema()), (
        "docs/events.schema.json is stale: "
        "python -m relay.api.openapi_doc --events > docs/events.schema.json"
    )


def test_every_route_describes_its_answer(document):
    from relay.api.app import create_app
    from relay.config import Settings

    routes = [r for r in http_routes(create_app(Settings()).routes) if r.include_in_schema]
    assert len(routes) > 40
    for route in routes:
        for method in route.methods or ():
            operation = document["paths"][route.path][method.lower()]
            answers = {
                code: answer
                for code, answer in operation["responses"].items()
                if code.startswith("2")
            }
            assert answers, f"{method} {route.path}: no 2xx answer"
            for answer in answers.values():
                content = answer.get("content")
                assert content, f"{method} {route.path}: no content described"
                for media_type, body in content.items():
                    assert body.get("schema"), f"{method} {route.path}: {media_type} has no schema"
                    if media_type == "application/json":
                        assert _named(body["schema"]), (
                            f"{method} {route.path}: the answer is not a named model"
                        )


def _named(schema: dict[str, Any]) -> bool:
    """A model from relay.api.schemas, a list of them, or one of several."""
    if "$ref" in schema:
        return True
    if schema.get("type") == "array":
        return _named(schema["items"])
    options: list[dict[str, Any]] = schema.get("anyOf") or schema.get("oneOf") or []
    return bool(options) and all(_named(option) for option in options)


# -- events --------------------------------------------------------------------------------

AT = 1_700_000_000.25
SAMPLES: list[ev.LoggedEvent] = [
    ev.MoveMade(ply=1, uci="e2e4", san="e4", fen="8/8/8/8/8/8/8/8 b - - 0 1", at=AT, clock=5399),
    ev.MoveCorrected(ply=1, uci="e2e3", san="e3", fen="x", replaced="e2e4", at=AT, unclocked=True),
    ev.MoveClocked(ply=1, clock=5399.0, at=AT),
    ev.TakenBack(ply=0, fen="x", at=AT),
    ev.NewGame(rotated=False, at=AT),
    ev.GameEnded(result=Result.WHITE_WINS, termination="checkmate", at=AT),
    ev.ResultProposed(result=Result.DRAW, gesture="kings", at=AT),
    ev.IllegalMoveCompleted(
        player="white", count=1, penalty="add-time", seconds=120, reason="r", at=AT
    ),
    ev.ClaimsChanged(ply=9, claims=(ev.Claim("threefold", False, ("Nf3",)),), at=AT),
    ev.ArbiterAlert(alert="uncertain-order", detail="d", ply=3, at=AT, orders=(("h3", "c6"),)),
    ev.ResultSet(result=Result.BLACK_WINS, by="arb", reason="r", at=AT, forfeit=True),
    ev.ResultVerified(result=Result.BLACK_WINS, by="arb", at=AT),
    ev.MovesReplaced(ply=3, uci=("g1f3", "b8c6"), by="arb", reason="r", at=AT),
    ev.ClocksStarted(white=5400, black=5400.0, by="arb", at=AT),
    ev.ClocksPaused(by="arb", reason="r", at=AT),
    ev.ClocksResumed(by="arb", at=AT),
    ev.TimeAdjusted(
        player="black",
        change="add",
        seconds=120,
        cause=ClockChangeCause.ARBITER,
        reason="r",
        by="a",
        at=AT,
    ),
    ev.ClockSideDecided(white_on="right", source="auto", reason="r", at=AT, clocks=((1, 5399.0),)),
    ev.FlagFell(player="white", at=AT),
    ev.DrawOffered(player="black", action="offer", at=AT),
    ev.NoteAdded(ply=34, text="rest of score indecipherable", by="Desk Ann", at=AT),
    ev.InputStatusSet(status="checked", by="Desk Ben", at=AT),
]


def encoded(event: ev.LoggedEvent) -> Any:
    """The event as a stream sends it (stored data goes through JSON on the way)."""
    data = json.loads(json.dumps(ev.event_data(event)))
    return json.loads(encode_event(Published(1, 7, 3, event.kind, data, AT)))


def test_every_kind_of_event_is_sampled():
    assert {event.kind for event in SAMPLES} == {cls.kind for cls in ev.LOGGED_EVENTS}


@pytest.mark.parametrize("event", SAMPLES, ids=lambda event: event.kind)
def test_encoded_events_validate(event):
    schema = event_schema()
    assert problems(encoded(event), schema, schema) == []


def test_the_schema_refuses_what_is_not_an_event():
    schema = event_schema()
    move = encoded(SAMPLES[0])
    assert problems({**move, "kind": "teleport"}, schema, schema)
    assert problems({**move, "data": {**move["data"], "ply": "one"}}, schema, schema)
    assert problems({**move, "data": {**move["data"], "extra": 1}}, schema, schema)
    without_at = {key: value for key, value in move["data"].items() if key != "at"}
    assert problems({**move, "data": without_at}, schema, schema)
    # An event stored before a defaulted field existed is still an event.
    old = {key: value for key, value in move["data"].items() if key != "confirmed"}
    assert problems({**move, "data": old}, schema, schema) == []


_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "null": (type(None),),
}


def problems(value: Any, schema: dict[str, Any], root: dict[str, Any], at: str = "$") -> list[str]:
    """What keeps ``value`` from matching ``schema``: the JSON Schema keywords the event
    schema uses, no more (an unknown keyword is an error, so none is silently skipped)."""
    known = {
        "$schema", "$id", "$ref", "$defs", "title", "description", "default", "type", "const",
        "enum", "properties", "required", "additionalProperties", "items", "prefixItems",
        "minItems", "maxItems", "oneOf", "anyOf",
    }  # fmt: skip
    unknown = set(schema) - known
    assert not unknown, f"{at}: the checker does not know {sorted(unknown)}"
    found: list[str] = []
    if "$ref" in schema:
        name = schema["$ref"].removeprefix("#/$defs/")
        found += problems(value, root["$defs"][name], root, at)
    for keyword, wanted in (("oneOf", 1), ("anyOf", None)):
        if keyword in schema:
            fits = sum(not problems(value, option, root, at) for option in schema[keyword])
            if fits == 0 or (wanted is not None and fits != wanted):
                found.append(f"{at}: fits {fits} of {keyword}")
    if "type" in schema:
        kinds = _TYPES[schema["type"]]
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            return [*found, f"{at}: not {schema['type']}"]
    if "const" in schema and value != schema["const"]:
        found.append(f"{at}: not {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        found.append(f"{at}: not one of {schema['enum']}")
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        found += [f"{at}: no {key}" for key in schema.get("required", ()) if key not in value]
        for key, item in value.items():
            if key in properties:
                found += problems(item, properties[key], root, f"{at}.{key}")
            elif schema.get("additionalProperties") is False:
                found.append(f"{at}: unexpected {key}")
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0) or len(value) > schema.get("maxItems", 1e9):
            found.append(f"{at}: {len(value)} items")
        prefix = schema.get("prefixItems", [])
        for index, item in enumerate(value):
            if index < len(prefix):
                found += problems(item, prefix[index], root, f"{at}[{index}]")
            elif "items" in schema:
                found += problems(item, schema["items"], root, f"{at}[{index}]")
    return found
