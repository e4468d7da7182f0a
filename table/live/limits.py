"""Limits per user and campaign, across all of a user's sockets and HTTP requests.

One user at one table may keep at most TABLE_SOCKETS_PER_USER sockets open (a newer
one closes the oldest) and spend at most TABLE_USER_RATE actions per
TABLE_USER_WINDOW seconds, whichever socket or form they come from; one session opens
at most TABLE_SOCKET_OPENS sockets per window (OpenThrottle). Without these, a user who
opens many sockets multiplies the per-socket rate limit, and their burst delays
everybody's cards (docs/reliability.md, "Flood").

All are kept in Django's default cache: process memory when Rollcall runs embedded
(one process), Redis when REDIS_URL is set, so every daphne process sees the same
sockets and the same counts. If the cache cannot be reached, they let people play and
log the error: a broken cache must not close the table.
"""

from __future__ import annotations

import asyncio
import contextvars
import hashlib
import logging
import secrets
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache, caches
from django.core.cache.backends.dummy import DummyCache
from django.core.cache.backends.locmem import LocMemCache

log = logging.getLogger(__name__)

T = TypeVar("T")


def now() -> float:
    """Wall-clock seconds: shared by processes on several machines (tests replace it)."""
    return time.time()


def _in_process() -> bool:
    """The cache lives in this process's memory: calls are quick and never block."""
    return isinstance(caches["default"], LocMemCache | DummyCache)


async def _call(func: Callable[..., T], *args: Any) -> T:
    """Run a cache operation from the event loop: at once when the cache is in memory,
    otherwise in a worker thread (not the database thread: it would wait behind rolls)."""
    if _in_process():
        return func(*args)
    return await sync_to_async(func, thread_sensitive=False)(*args)


# --------------------------------------------------------------------------- the action budget


def slow_down(rate: int, window: int) -> str:
    return (
        f"Slow down: at most {rate} actions every {window} seconds at this table, from all "
        "your tabs and devices together. Nothing was done; try again in a moment."
    )


def _take(base: str, rate: int, window: int) -> bool:
    """Count one under `base` if fewer than `rate` were counted in the last `window`
    seconds; False (and nothing counted) otherwise.

    A sliding window over two fixed ones: the current window's count (an atomic
    increment, so processes sharing Redis never let more through than the rate) plus
    the previous window's, weighted by how much of it is still within the last
    `window` seconds. If the cache cannot be reached, True (see the module docstring)."""
    if rate <= 0 or window <= 0:
        return True
    moment = now()
    slot = int(moment // window)
    key = f"{base}:{slot}"
    try:
        try:
            count = cache.incr(key)
        except ValueError:  # the window's first: start it (unless another just did)
            count = 1 if cache.add(key, 1, 2 * window + 5) else cache.incr(key)
        previous = cache.get(f"{base}:{slot - 1}") or 0
        if count + previous * (1 - (moment / window - slot)) <= rate:
            return True
        try:
            cache.decr(key)  # a refusal does not count
        except ValueError:
            pass
        return False
    except Exception:  # noqa: BLE001 - fail open
        log.exception("table limits: cache unavailable")
        return True


def spend(campaign_id: int, user_id: int) -> str:
    """Count one action of the user at the campaign: "" when it may go ahead, else the
    refusal to show (and the action is not counted)."""
    rate, window = settings.TABLE_USER_RATE, settings.TABLE_USER_WINDOW
    if _take(f"rollcall:table-budget:{campaign_id}:{user_id}", rate, window):
        return ""
    return slow_down(rate, window)


async def aspend(campaign_id: int, user_id: int) -> str:
    return await _call(spend, campaign_id, user_id)


# --------------------------------------------------------------------------- open sockets

PROCESS = secrets.token_hex(8)  # this process, in the registry
BEAT_SECONDS = 5.0  # how often a process with sockets says it is alive
ALIVE_SECONDS = 20.0  # a process silent this long is gone: its sockets no longer count
LOCK_SECONDS = 5.0  # a registry lock left by a process that died is free after this
LOCK_WAIT_SECONDS = 2.0  # then the change goes ahead without it
REGISTRY_SECONDS = 24 * 3600  # a registry untouched this long is forgotten


def _registry_key(campaign_id: int, user_id: int) -> str:
    return f"rollcall:table-sockets:{campaign_id}:{user_id}"


def _process_key(process: str) -> str:
    return f"rollcall:table-process:{process}"


@contextmanager
def _locked(key: str) -> Iterator[None]:
    """A short lock around one registry's read-change-write (cache.add is atomic, in
    memory and on Redis alike)."""
    lock, token = f"{key}:lock", secrets.token_hex(8)
    deadline = time.monotonic() + LOCK_WAIT_SECONDS
    held = cache.add(lock, token, LOCK_SECONDS)
    while not held and time.monotonic() < deadline:
        time.sleep(0.005)
        held = cache.add(lock, token, LOCK_SECONDS)
    if not held:
        log.warning("table sockets: %s stayed locked; changing it without the lock", key)
    try:
        yield
    finally:
        if held and cache.get(lock) == token:
            cache.delete(lock)


def _alive(entries: dict[str, list]) -> dict[str, list]:
    """The entries whose process still beats: a process that was killed leaves its
    sockets in the registry, and they stop counting once it has been silent a while."""
    processes = {entry[1] for entry in entries.values()}
    beating = cache.get_many([_process_key(p) for p in processes])
    return {s: e for s, e in entries.items() if _process_key(e[1]) in beating}


def beat() -> None:
    cache.set(_process_key(PROCESS), now(), ALIVE_SECONDS)


def register(campaign_id: int, user_id: int, socket_id: str, opened_at: float) -> list[str]:
    """Record an open socket; the ids of the same user's sockets at the campaign to
    close: the oldest, beyond TABLE_SOCKETS_PER_USER (never the one just opened, unless
    another process's clock puts it behind)."""
    limit = settings.TABLE_SOCKETS_PER_USER
    if limit <= 0:
        return []
    key = _registry_key(campaign_id, user_id)
    try:
        beat()
        with _locked(key):
            entries = _alive(cache.get(key) or {})
            entries[socket_id] = [opened_at, PROCESS]
            ordered = sorted(entries, key=lambda s: (entries[s][0], s))
            closing = ordered[: max(0, len(ordered) - limit)]
            for gone in closing:
                del entries[gone]
            cache.set(key, entries, REGISTRY_SECONDS)
        return closing
    except Exception:  # noqa: BLE001 - fail open
        log.exception("table sockets: cache unavailable")
        return []


def unregister(campaign_id: int, user_id: int, socket_id: str) -> None:
    key = _registry_key(campaign_id, user_id)
    try:
        with _locked(key):
            entries = cache.get(key) or {}
            if entries.pop(socket_id, None) is None:
                return  # closed as one too many: gone from the registry already
            if entries:
                cache.set(key, entries, REGISTRY_SECONDS)
            else:
                cache.delete(key)
    except Exception:  # noqa: BLE001
        log.exception("table sockets: cache unavailable")


_beating: dict[asyncio.AbstractEventLoop, asyncio.Task] = {}


async def _beat_forever() -> None:
    while True:
        await asyncio.sleep(BEAT_SECONDS)
        try:
            await _call(beat)
        except Exception:  # noqa: BLE001
            log.exception("table sockets: cache unavailable")


def _keep_beating() -> None:
    """While this event loop serves sockets, this process says it is alive."""
    loop = asyncio.get_running_loop()
    for stale in [other for other in _beating if other.is_closed()]:
        del _beating[stale]
    task = _beating.get(loop)
    if task is None or task.done():
        _beating[loop] = loop.create_task(_beat_forever(), context=contextvars.Context())


async def aregister(campaign_id: int, user_id: int, socket_id: str, opened_at: float) -> list[str]:
    _keep_beating()
    return await _call(register, campaign_id, user_id, socket_id, opened_at)


async def aunregister(campaign_id: int, user_id: int, socket_id: str) -> None:
    await _call(unregister, campaign_id, user_id, socket_id)


# --------------------------------------------------------------------------- opening sockets


def may_open(session_key: str) -> bool:
    """Count one socket opened with this session (at any table): False when it opened
    TABLE_SOCKET_OPENS in the last TABLE_USER_WINDOW seconds already."""
    digest = hashlib.sha256(session_key.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return _take(
        f"rollcall:table-opens:{digest}", settings.TABLE_SOCKET_OPENS, settings.TABLE_USER_WINDOW
    )


class OpenThrottle:
    """ASGI middleware, before the session and the user are read: a session that opens
    sockets faster than TABLE_SOCKET_OPENS per TABLE_USER_WINDOW seconds has the
    handshake refused (HTTP 403; the page tries again later with its backoff). Each
    socket that opens costs the server reads in the table's database thread, a replay
    and, past the cap, closing an older one; a refusal here costs one count in the cache,
    so one user's storm of sockets does not hold up everybody's rolls."""

    def __init__(self, inner) -> None:
        self.inner = inner

    async def __call__(self, scope, receive, send):
        session_key = (scope.get("cookies") or {}).get(settings.SESSION_COOKIE_NAME)
        if scope["type"] == "websocket" and session_key and not await _call(may_open, session_key):
            await receive()  # websocket.connect: answered by refusing the handshake
            await send({"type": "websocket.close"})
            return None
        return await self.inner(scope, receive, send)
