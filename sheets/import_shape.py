"""What a pasted document is, before what it says: its shape, and whose format it is.

The importer checks every field's type before its value, so the person pasting reads
"expected text, got an object" rather than a rule about names; and a character
exported from another tool (Foundry VTT, Roll20) is recognised and named, so they
know at once why it cannot be read, instead of a screenful of unknown fields. (A Foundry
VTT actor of the Cortex Prime system is read, where the game says how: sheets.foreign.)
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping

# A Rollcall sheet goes five levels deep: the sheet, its traits, a group's list, a
# trait, its flags. Anything deeper is not a sheet.
MAX_DEPTH = 5
SHOWN_CHARS = 40


def describe(value: object) -> str:
    """What a JSON value is, in a player's words: "an object", "a list", "a number"."""
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "empty text" if not value.strip() else "text"
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, list):
        return "a list"
    return "something else"


def shown(value: object, limit: int = SHOWN_CHARS) -> str:
    """A piece of the document fit to quote back: short, and without characters a page
    cannot show (control characters, lone surrogates)."""
    text = value if isinstance(value, str) else str(value)
    text = text[: limit * 2]
    kept = "".join(
        "\ufffd" if unicodedata.category(ch) in ("Cc", "Cs", "Co") else ch for ch in text
    )
    kept = " ".join(kept.split())
    return kept if len(kept) <= limit else kept[: limit - 1] + "…"


def too_deep(doc: object) -> str | None:
    """Where the document goes deeper than a sheet does, or None. Iterative: a document
    deep enough to matter would exhaust Python's recursion first."""
    stack: list[tuple[object, int, str]] = [(doc, 1, "")]
    while stack:
        value, depth, where = stack.pop()
        if isinstance(value, Mapping):
            children = [
                (v, f"{where}.{shown(k, 20)}" if where else shown(k, 20)) for k, v in value.items()
            ]
        elif isinstance(value, list):
            children = [(v, f"{where}[{i}]") for i, v in enumerate(value)]
        else:
            continue
        if depth > MAX_DEPTH and children:
            return where
        stack.extend((child, depth + 1, path) for child, path in children)
    return None


def foreign_format(doc: object) -> str | None:
    """A sentence naming the other tool's format this document is in, or None."""
    if isinstance(doc, list):
        if doc and all(isinstance(d, Mapping) for d in doc):
            inner = foreign_format(doc[0])
            if inner:
                return inner
        return None
    if not isinstance(doc, Mapping):
        return None
    keys = set(doc)
    foundry_marks = {"_id", "prototypeToken", "token", "items", "effects", "_stats", "img"}
    if (
        isinstance(doc.get("system"), Mapping)
        or isinstance(doc.get("data"), Mapping)
        and (keys & foundry_marks)
    ):
        return (
            "This looks like a character exported from Foundry VTT (its “system” holds "
            "that tool's own data). Rollcall reads one Foundry actor of the Cortex Prime "
            "system at a time, into a Cortex game; otherwise create the character here "
            "with New sheet and copy the traits over, or import a sheet exported from "
            "Rollcall."
        )
    if "attribs" in keys or ("schema_version" in keys and "abilities" in keys):
        return (
            "This looks like a character exported from Roll20. Rollcall cannot read "
            "Roll20's format: create the character here with New sheet and copy the "
            "traits over, or import a sheet exported from Rollcall."
        )
    return None


def looks_like_xml(text: str) -> bool:
    """Fantasy Grounds and other tools export XML, which no JSON reader takes."""
    return text.lstrip("\ufeff \t\r\n").startswith("<")
