"""Secrets that open a door from outside the table: API tokens and overlay links.

A key reads `<kind>_<id>_<secret>`: the id (12 hex digits) is public and finds the row;
the secret (43 URL-safe characters, 256 random bits) is stored only as its SHA-256
digest and compared in constant time. A fast hash is enough for a secret this long:
no one can guess it, with or without the digest.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

TOKEN = "rc"  # a member's API token
OVERLAY = "ov"  # an overlay link
ID_LENGTH = 12
SECRET_BYTES = 32
_DUMMY_DIGEST = hashlib.sha256(b"no such key").hexdigest()


@dataclass(frozen=True)
class NewKey:
    text: str  # shown to its owner once, never stored
    key_id: str
    digest: str


def digest_of(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def new_key(kind: str) -> NewKey:
    key_id = secrets.token_hex(ID_LENGTH // 2)
    secret = secrets.token_urlsafe(SECRET_BYTES)
    return NewKey(f"{kind}_{key_id}_{secret}", key_id, digest_of(secret))


def split(text: object, kind: str) -> tuple[str, str] | None:
    """(id, secret) of a key of this kind, or None for anything else."""
    if not isinstance(text, str) or len(text) > 200:
        return None
    head = f"{kind}_"
    if not text.startswith(head):
        return None
    key_id, sep, secret = text[len(head) :].partition("_")
    if not sep or len(key_id) != ID_LENGTH or not secret:
        return None
    if any(c not in "0123456789abcdef" for c in key_id):
        return None
    return key_id, secret


def matches(secret: str, digest: str | None) -> bool:
    """Whether the secret is the one behind `digest` (None: no such key; compared all
    the same, so a missing id takes as long as a wrong secret)."""
    ok = hmac.compare_digest(digest_of(secret), digest or _DUMMY_DIGEST)
    return ok and digest is not None


def shown(kind: str, key_id: str) -> str:
    """How a key is named once created: its kind and id, never its secret."""
    return f"{kind}_{key_id}_…"
