"""Webhook URLs: checked, encrypted at rest, and only ever shown masked.

A Discord webhook URL is a password: whoever has it can post to the channel. So it is
stored encrypted (Fernet, from the `cryptography` package: AES-128-CBC with an
HMAC-SHA256), under a key derived from DISCORD_WEBHOOK_KEY or, unset, from SECRET_KEY;
pages, the admin and logs see only `mask(url)`: "…/webhooks/<id>/<first 4 of the token>…".
The encryption keeps the URLs out of a database dump or backup that lacks the key; it
does not protect them from someone who can read the server's settings too.
"""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlsplit

from cryptography.fernet import Fernet, InvalidToken
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from django.conf import settings

DISCORD_HOSTS = frozenset(
    {
        "discord.com",
        "ptb.discord.com",
        "canary.discord.com",
        "discordapp.com",
        "ptb.discordapp.com",
        "canary.discordapp.com",
    }
)
# /api/webhooks/<id>/<token>, optionally with the API version (/api/v10/...).
WEBHOOK_PATH = re.compile(r"/?api(?:/v\d{1,2})?/webhooks/(\d{15,22})/([A-Za-z0-9_-]{20,200})/?")
MAX_URL = 400


class InvalidWebhook(ValueError):
    """Not a Discord webhook URL; the message says what is wrong, for the GM."""


class Unreadable(Exception):
    """A stored URL that this server's key cannot decrypt (the key changed)."""


@dataclass(frozen=True)
class WebhookUrl:
    url: str  # canonical: https://<host>/api/webhooks/<id>/<token>[?thread_id=<n>]
    webhook_id: str
    token: str

    @property
    def hint(self) -> str:
        return mask(self.webhook_id, self.token)


def mask(webhook_id: str, token: str) -> str:
    return f"…/webhooks/{webhook_id}/{token[:4]}…"


def parse(text: str) -> WebhookUrl:
    """The webhook URL the GM pasted, checked and put in one spelling; InvalidWebhook
    says why not. Accepted: https on discord.com or discordapp.com (and their ptb. and
    canary. hosts), /api/webhooks/<id>/<token>, and at most a thread_id in the query;
    and, when DISCORD_TEST_WEBHOOK_BASE is set (tests), the same path under that base."""
    text = (text or "").strip()
    if not text:
        raise InvalidWebhook("Paste the webhook URL from Discord.")
    if len(text) > MAX_URL or any(c.isspace() for c in text):
        raise InvalidWebhook("That is not a Discord webhook URL.")
    test_base = settings.DISCORD_TEST_WEBHOOK_BASE
    if test_base and text.startswith(test_base.rstrip("/") + "/"):
        rest = text[len(test_base.rstrip("/")) :]
        base = test_base.rstrip("/")
    else:
        try:
            parts = urlsplit(text)
        except ValueError:
            raise InvalidWebhook("That is not a Discord webhook URL.") from None
        if parts.scheme != "https":
            raise InvalidWebhook("A Discord webhook URL starts with https://")
        host = (parts.hostname or "").lower()
        if host not in DISCORD_HOSTS or parts.port not in (None, 443) or parts.username:
            raise InvalidWebhook(
                "That is not a Discord webhook URL: it must be on discord.com "
                "(copy it from the channel's Integrations → Webhooks)."
            )
        if parts.fragment:
            raise InvalidWebhook("That is not a Discord webhook URL.")
        base = f"https://{host}"
        rest = parts.path + (f"?{parts.query}" if parts.query else "")
    path, _, query = rest.partition("?")
    found = WEBHOOK_PATH.fullmatch(path)
    if found is None:
        raise InvalidWebhook(
            "That is not a Discord webhook URL: it ends in /api/webhooks/<number>/<token>."
        )
    thread = ""
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        if (
            len(pairs) != 1
            or pairs[0][0] != "thread_id"
            or not re.fullmatch(r"\d{15,22}", pairs[0][1])
        ):
            raise InvalidWebhook(
                "The only part a webhook URL may have after ? is thread_id=<number>."
            )
        thread = f"?thread_id={pairs[0][1]}"
    webhook_id, token = found.groups()
    return WebhookUrl(f"{base}/api/webhooks/{webhook_id}/{token}{thread}", webhook_id, token)


# --------------------------------------------------------------------------- at rest


def _fernet() -> Fernet:
    secret = settings.DISCORD_WEBHOOK_KEY or settings.SECRET_KEY
    key = HKDF(
        algorithm=hashes.SHA256(), length=32, salt=None, info=b"rollcall discord webhook urls"
    ).derive(secret.encode("utf-8"))
    return Fernet(base64.urlsafe_b64encode(key))


def seal(url: str) -> str:
    return _fernet().encrypt(url.encode("utf-8")).decode("ascii")


def unseal(sealed: str) -> str:
    try:
        return _fernet().decrypt(sealed.encode("ascii")).decode("utf-8")
    except (InvalidToken, ValueError, UnicodeError) as error:
        raise Unreadable("the stored webhook URL cannot be decrypted with this key") from error
