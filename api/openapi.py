"""The API's OpenAPI 3.1 document: what django-ninja writes for the GET operations, plus
what it cannot say by itself: the Problem body of every error, each message the event
stream sends, and the 405 every other method of every path answers (api/problems.py).
"""

from __future__ import annotations

import copy
from typing import Any

from ninja import Field, Schema
from pydantic.json_schema import models_json_schema

from . import endpoints, problems

REF = "#/components/schemas/{model}"
REFUSED_METHODS = ("put", "post", "delete", "options", "patch", "trace")
NO_ADDRESS = "The path names no address of the API (an id that is not a whole number)."


def _ref(name: str) -> dict[str, str]:
    return {"$ref": REF.format(model=name)}


def _json_text(schema: dict[str, Any]) -> dict[str, Any]:
    """A message's `data`: a line of JSON text, whose value `schema` describes."""
    return {"type": "string", "contentMediaType": "application/json", "contentSchema": schema}


STREAM_MESSAGES: dict[str, dict[str, Any]] = {
    "StreamMessage": {
        "title": "StreamMessage",
        "description": (
            "One message of the event stream, its fields as EventSource reads them: "
            "`event` (`message` when not sent), `id` and `data`."
        ),
        "oneOf": [_ref("StreamEventMessage"), _ref("StreamEndMessage")],
    },
    "StreamEventMessage": {
        "title": "StreamEventMessage",
        "description": "A new event of the log, as the token's member may see it.",
        "type": "object",
        "properties": {
            "event": {
                "const": "message",
                "description": "Not sent: a message without `event:` is a `message`.",
            },
            "id": {
                "type": "string",
                "pattern": "^[0-9]+$",
                "description": "The event's seq: send it back as Last-Event-ID to resume.",
            },
            "data": _json_text({"oneOf": [_ref("SealedEvent"), _ref("LogEvent")]}),
        },
        "required": ["id", "data"],
    },
    "StreamEndMessage": {
        "title": "StreamEndMessage",
        "description": (
            "The stream's last message: it has run its time, the token was revoked or its "
            "member left, or the member's role changed. Reconnect with Last-Event-ID."
        ),
        "type": "object",
        "properties": {
            "event": {"const": "end"},
            "id": {
                "type": "string",
                "description": "Not sent: EventSource keeps the last event's id.",
            },
            "data": _json_text(_ref("StreamEnd")),
        },
        "required": ["event", "data"],
    },
}


class StreamEnd(Schema):
    detail: str = Field(..., description="Why the stream ended, in a sentence.")


def _components() -> dict[str, Any]:
    """Problem and StreamEnd (with what they use) as pydantic describes them."""
    _, definitions = models_json_schema(
        [(endpoints.Problem, "serialization"), (StreamEnd, "serialization")], ref_template=REF
    )
    return {**definitions["$defs"], **STREAM_MESSAGES}


def _refused(operation: dict[str, Any], method: str) -> dict[str, Any]:
    return {
        "operationId": f"{operation['operationId']}_{method}",
        "summary": "Refused: the API is read-only",
        "description": (
            "Nothing can be changed through the API: any method but GET and HEAD is refused "
            "before the token, the query or the body is read."
        ),
        "security": [],
        "parameters": [p for p in operation.get("parameters", ()) if p["in"] == "path"],
        "responses": {
            "404": endpoints.problem_answer(NO_ADDRESS),
            "405": endpoints.problem_answer(
                "Not GET or HEAD.",
                {
                    "Allow": {
                        "schema": {"type": "string", "const": problems.ALLOW},
                        "required": True,
                    }
                },
            ),
        },
    }


def document() -> dict[str, Any]:
    schema = copy.deepcopy(dict(endpoints.api.get_openapi_schema(path_prefix=endpoints.PREFIX)))
    schema["components"]["schemas"].update(_components())
    for methods in schema["paths"].values():
        for method in REFUSED_METHODS:
            methods[method] = _refused(methods["get"], method)
    return schema
