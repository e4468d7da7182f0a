"""Small validators for JSON-like requests, so every system refuses bad input the same way.

Each raises InvalidRequest with a message a player can act on.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import InvalidRequest

MISSING: Any = object()


def require_mapping(value: object, what: str = "request") -> Mapping:
    if not isinstance(value, Mapping):
        raise InvalidRequest(f"the {what} must be an object with named fields")
    return value


def get_int(
    req: Mapping,
    key: str,
    *,
    lo: int = -1000,
    hi: int = 1000,
    default: Any = MISSING,
    what: str | None = None,
) -> int:
    label = what or key.replace("_", " ")
    value = req.get(key, default)
    if value is MISSING:
        raise InvalidRequest(f"{label} is required")
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidRequest(f"{label} must be a whole number")
    if not lo <= value <= hi:
        raise InvalidRequest(f"{label} must be between {lo} and {hi}")
    return value


def get_bool(req: Mapping, key: str, *, default: bool = False) -> bool:
    value = req.get(key, default)
    if not isinstance(value, bool):
        raise InvalidRequest(f"{key.replace('_', ' ')} must be true or false")
    return value


def get_str(
    req: Mapping, key: str, *, default: Any = MISSING, max_len: int = 200, what: str | None = None
) -> str:
    label = what or key.replace("_", " ")
    value = req.get(key, default)
    if value is MISSING:
        raise InvalidRequest(f"{label} is required")
    if not isinstance(value, str):
        raise InvalidRequest(f"{label} must be text")
    if len(value) > max_len:
        raise InvalidRequest(f"{label} is at most {max_len} characters")
    return value


def get_choice(
    req: Mapping, key: str, choices: tuple[str, ...] | list[str], *, default: Any = MISSING
) -> str:
    value = req.get(key, default)
    if value is MISSING:
        raise InvalidRequest(f"{key.replace('_', ' ')} is required (one of: {', '.join(choices)})")
    if not isinstance(value, str) or value not in choices:
        raise InvalidRequest(f"{key.replace('_', ' ')} must be one of: {', '.join(choices)}")
    return value


def get_list(req: Mapping, key: str, *, default: Any = MISSING, max_len: int = 40) -> list:
    value = req.get(key, default)
    if value is MISSING:
        raise InvalidRequest(f"{key.replace('_', ' ')} is required")
    if not isinstance(value, list | tuple):
        raise InvalidRequest(f"{key.replace('_', ' ')} must be a list")
    if len(value) > max_len:
        raise InvalidRequest(f"{key.replace('_', ' ')} has more than {max_len} entries")
    return list(value)
