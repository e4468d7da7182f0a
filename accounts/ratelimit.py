"""Counting failed log-ins and sign-ups in Django's cache, to slow down password guessing.

The counts live in the default cache: the in-process memory cache when Rollcall runs
embedded (one process), Redis when REDIS_URL is set, so every daphne process sees the
same counts. A window opens at the first hit and lasts `window` seconds; once `limit`
hits are counted in it, the key is locked until the window closes.

If the cache cannot be reached the limiter lets requests through and logs the error:
a broken cache must not lock everybody out.
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache

log = logging.getLogger(__name__)


def now() -> float:
    return time.time()


@dataclass(frozen=True)
class Limit:
    scope: str  # a name for the keys: "login-user", "login-ip", "signup-ip", ...
    limit: int
    window: int  # seconds

    def _keys(self, ident: str) -> tuple[str, str]:
        digest = hashlib.sha256(ident.encode("utf-8", "surrogatepass")).hexdigest()[:40]
        base = f"rollcall:rl:{self.scope}:{digest}"
        return f"{base}:n", f"{base}:t"

    def retry_after(self, ident: str) -> int:
        """Seconds until `ident` may try again; 0 when it is not locked."""
        count_key, start_key = self._keys(ident)
        try:
            values = cache.get_many([count_key, start_key])
        except Exception:  # noqa: BLE001 - fail open, see the module docstring
            log.exception("rate limit cache unavailable")
            return 0
        start, count = values.get(start_key), values.get(count_key) or 0
        if start is None or count < self.limit:
            return 0
        return max(0, math.ceil(start + self.window - now()))

    def hit(self, ident: str) -> int:
        """Count one hit; the seconds until `ident` may try again (0: not locked)."""
        count_key, start_key = self._keys(ident)
        moment = now()
        timeout = self.window + 5
        try:
            start = cache.get(start_key)
            if start is not None and moment >= start + self.window:
                cache.delete_many([count_key, start_key])  # the window has closed
                start = None
            if start is None:
                cache.add(start_key, moment, timeout)
                cache.add(count_key, 0, timeout)
                start = cache.get(start_key, moment)
            try:
                count = cache.incr(count_key)
            except ValueError:  # expired between the two calls
                cache.set(count_key, 1, timeout)
                count = 1
        except Exception:  # noqa: BLE001
            log.exception("rate limit cache unavailable")
            return 0
        if count < self.limit:
            return 0
        return max(1, math.ceil(start + self.window - moment))

    def reset(self, ident: str) -> None:
        try:
            cache.delete_many(list(self._keys(ident)))
        except Exception:  # noqa: BLE001
            log.exception("rate limit cache unavailable")


def login_user_limit() -> Limit:
    return Limit("login-user", settings.LOGIN_FAILURE_LIMIT, settings.LOGIN_FAILURE_WINDOW)


def login_ip_limit() -> Limit:
    return Limit("login-ip", settings.LOGIN_IP_FAILURE_LIMIT, settings.LOGIN_FAILURE_WINDOW)


def signup_limit() -> Limit:
    return Limit("signup-ip", settings.SIGNUP_LIMIT, settings.SIGNUP_WINDOW)


def signup_attempt_limit() -> Limit:
    return Limit("signup-try-ip", settings.SIGNUP_ATTEMPT_LIMIT, settings.SIGNUP_WINDOW)


def client_ip(request) -> str:
    """The client's address: REMOTE_ADDR, or with TRUSTED_PROXY_HOPS proxies in front the
    address the outermost trusted proxy saw (X-Forwarded-For, counted from the right, so
    a client cannot choose its own address by sending the header)."""
    hops = settings.TRUSTED_PROXY_HOPS
    if hops > 0:
        forwarded = [
            part.strip()
            for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
            if part.strip()
        ]
        if len(forwarded) >= hops:
            return forwarded[-hops]
    return request.META.get("REMOTE_ADDR", "") or "unknown"


def login_ident(request, username: str) -> str:
    return f"{username.strip().casefold()}|{client_ip(request)}"


def minutes(seconds: int) -> str:
    n = max(1, math.ceil(seconds / 60))
    return f"{n} minute" if n == 1 else f"{n} minutes"
