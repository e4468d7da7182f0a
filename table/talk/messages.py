"""What the table socket reads (docs/protocol.md): one inbound JSON message, or an htmx
ws-send form post, parsed into {"type": ..., fields}, or a ProtocolError whose text goes
back to the sender. Nothing here reads the database: the consumer
(table.talk.consumers) checks the role and runs what is parsed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from table.talk import chat


class ProtocolError(ValueError):
    """A message the socket cannot read; the text is sent back to the sender."""


MAX_ID = 2**53  # ids and seqs beyond this are no row's
DIGITS = re.compile(r"[0-9]{1,16}")


def as_int(value: object, what: str) -> int:
    if isinstance(value, str) and DIGITS.fullmatch(value.strip()):
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_ID:
        raise ProtocolError(f"{what} must be a whole number.")
    return value


def _loose(value: object) -> object:
    """A form value: JSON when it reads as JSON (3, true, [..]), the text otherwise."""
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


MAX_DEPTH = 16  # a message's nesting; real ones need about 6
TOO_DEEP = "That message is nested too deeply."


def too_deep(value: object) -> bool:
    """Deeper than MAX_DEPTH: refused before the rules (and their recursion) see it."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth >= MAX_DEPTH:
                return True
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return False


def parse_message(data: object) -> dict[str, Any]:
    """Read one inbound message into {"type": ..., fields}; raise ProtocolError.

    htmx ws-send posts a form's values (strings) plus "HEADERS"; a missing
    "type" is read from the fields present; "request" may be a JSON string, and
    "request.<field>" / "table.<field>" form fields build the request.
    """
    if not isinstance(data, Mapping):
        raise ProtocolError("Send a JSON object.")
    data = {k: v for k, v in data.items() if k != "HEADERS"}
    kind = data.get("type")
    if kind is None:
        if "action" in data:
            kind = "act"
        elif "reason" in data:
            kind = "void"
        elif "event_id" in data or "seq" in data:
            kind = "reveal"
        elif "last_seq" in data:
            kind = "resume"
    if kind == "resume":
        return {"type": "resume", "last_seq": as_int(data.get("last_seq", 0), "last_seq")}
    if kind == "ping":
        return {"type": "ping"}
    if kind == "act":
        action = data.get("action")
        if not isinstance(action, str) or not action or len(action) > 40:
            raise ProtocolError("Say which action (action).")
        request = data.get("request", {})
        if isinstance(request, str):
            try:
                request = json.loads(request) if request.strip() else {}
            except ValueError as error:
                raise ProtocolError("The request is not valid JSON.") from error
        if not isinstance(request, dict):
            raise ProtocolError("The request must be an object with named fields.")
        request = dict(request)
        for key, value in data.items():
            if key.startswith("request."):
                request[key[len("request.") :]] = _loose(value)
            elif key.startswith("table."):
                request.setdefault("table", {})
                if not isinstance(request["table"], dict):
                    raise ProtocolError("The table options must be an object.")
                request["table"][key[len("table.") :]] = _loose(value)
        sheet_id = data.get("sheet_id")
        visibility = data.get("visibility") or "public"
        if not isinstance(visibility, str):
            raise ProtocolError("Visibility must be public, gm or blind.")
        return {
            "type": "act",
            "action": action,
            "request": request,
            "sheet_id": None if sheet_id in (None, "") else as_int(sheet_id, "sheet_id"),
            "visibility": visibility,
        }
    if kind == "say":
        return _say_message(data)
    if kind in ("reveal", "void"):
        fields: dict[str, Any] = {"type": kind}
        if data.get("event_id") not in (None, ""):
            fields["event_id"] = as_int(data["event_id"], "event_id")
        elif data.get("seq") not in (None, ""):
            fields["seq"] = as_int(data["seq"], "seq")
        else:
            raise ProtocolError("Say which event (event_id or seq).")
        if kind == "void":
            reason = data.get("reason", "")
            if not isinstance(reason, str):
                raise ProtocolError("The reason must be text.")
            fields["reason"] = reason
        return fields
    raise ProtocolError("Unknown message type: use act, say, reveal, void, resume or ping.")


def _say_message(data: Mapping) -> dict[str, Any]:
    """A chat line: {"type": "say", "mode": "ic" | "ooc" | "whisper", "text", "sheet_id",
    "to"} ("to": the user id a whisper is for, if not the GM; table.talk.chat checks the mode,
    the text and the recipient)."""
    text = data.get("text")
    if not isinstance(text, str):
        raise ProtocolError("Write something to say (text).")
    if not isinstance(data.get("mode", ""), str) or not isinstance(data.get("speak", ""), str):
        raise ProtocolError("Say how: ic, ooc or whisper (mode).")
    sheet_id = data.get("sheet_id")
    if sheet_id not in (None, ""):
        as_int(sheet_id, "sheet_id")
    mode, sheet = chat.speaker(data)
    return {"type": "say", "mode": mode, "text": text, "sheet_id": sheet, "to": chat.to_of(data)}
