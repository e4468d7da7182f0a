"""Server-Sent Events: the campaign's news pushed to API clients and overlays, under daphne.

A stream takes its place in the table's fan-out (table.live.broadcast.Hub) beside the table's
sockets, for its campaign and audience, before it reads anything: subscribe, then
read, then wait. A message from the fan-out (a new event, a member's change) only
wakes it; it then reads the log itself, through the one visibility gate, so what it
sends is what a page of the log would show, in seq order, and a message lost on the
way is no gap. Without news it reads again every API_STREAM_KEEPALIVE seconds (and
sends a keep-alive comment); after API_STREAM_SECONDS it ends, and the client resumes
from the last id it got (EventSource does by itself, with Last-Event-ID).

Every read checks first that the key still opens the door (the token or link is not
revoked, the member is still there, with the same audience): a revoked key gets
nothing more, even on a stream it opened before.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections
from django.http import StreamingHttpResponse

from table.live import broadcast
from table.log import visibility

from . import access, reading

RETRY_MS = 3000  # how long EventSource waits before it reconnects


def sse(data: Any, *, event_id: int | None = None, event: str | None = None) -> str:
    """One Server-Sent Event; `data` as JSON on one line (JSON escapes every newline)."""
    lines = []
    if event_id is not None:
        lines.append(f"id: {event_id}")
    if event is not None:
        lines.append(f"event: {event}")
    lines.append("data: " + json.dumps(data, separators=(",", ":")))
    return "\n".join(lines) + "\n\n"


@dataclass
class Batch:
    chunks: list[str] = field(default_factory=list)
    more: bool = False  # read again at once: the batch was full
    end: bool = False  # the stream ends after these chunks


class Wakeup:
    """A stream's seat in the fan-out, where a socket would be: any message wakes it."""

    __slots__ = ("woken",)

    def __init__(self) -> None:
        self.woken = asyncio.Event()

    async def push(self, message: dict[str, Any]) -> None:
        self.woken.set()


Step = Callable[[], Awaitable[Batch]]


async def pushed(campaign_id: int, audience: str, step: Step) -> AsyncIterator[str]:
    """The chunks `step` returns when the table has news (or every keep-alive period),
    until it ends the stream or API_STREAM_SECONDS pass."""
    loop = asyncio.get_running_loop()
    hub, key, waker = broadcast.hub(), (campaign_id, audience), Wakeup()
    await hub.join(waker, key)
    try:
        yield f"retry: {RETRY_MS}\n\n"
        deadline = loop.time() + settings.API_STREAM_SECONDS
        while True:
            waker.woken.clear()
            batch = await step()
            for chunk in batch.chunks:
                yield chunk
            if batch.end:
                return
            if batch.more:
                continue
            left = deadline - loop.time()
            if left <= 0:
                yield sse({"detail": "This stream has run its time: reconnect."}, event="end")
                return
            try:
                await asyncio.wait_for(
                    waker.woken.wait(), timeout=min(settings.API_STREAM_KEEPALIVE, left)
                )
            except TimeoutError:
                yield ": keep-alive\n\n"
    finally:
        hub.leave(waker, key)


def response(chunks: AsyncIterator[str]) -> StreamingHttpResponse:
    answer = StreamingHttpResponse(chunks, content_type="text/event-stream; charset=utf-8")
    answer["Cache-Control"] = "private, no-store"
    # nginx: pass each event on at once (docs/integrations.md)
    answer["X-Accel-Buffering"] = "no"
    return answer


def _read(func: Callable[[], Batch]) -> Step:
    """Run a read in the request's database thread, then give its connection back: a
    stream stays open for an hour, and must not hold a pooled connection meanwhile."""

    def read() -> Batch:
        try:
            return func()
        finally:
            close_old_connections()

    return sync_to_async(read)


# --------------------------------------------------------------------------- the API's


def log_stream(found: access.Access, after: int) -> AsyncIterator[str]:
    """Every event after `after`, then each new one, as the token's member may see it
    (the log's JSON, one event per message, its seq as the id)."""
    token_id, campaign_id, audience = found.token.pk, found.membership.campaign_id, found.audience
    viewer = found.membership.user_id
    position = {"after": after}

    def read() -> Batch:
        now = access.current_audience(token_id)
        if now is None:
            gone = "This token was revoked, or its member left the campaign."
            return Batch([sse({"detail": gone}, event="end")], end=True)
        if now != audience:
            changed = "Your role in the campaign changed: reconnect to read as your new role."
            return Batch([sse({"detail": changed}, event="end")], end=True)
        events = reading.events_after(
            campaign_id, audience, position["after"], reading.PAGE_LIMIT, viewer
        )
        if events:
            position["after"] = events[-1]["seq"]
        chunks = [sse(event, event_id=event["seq"]) for event in events]
        return Batch(chunks, more=len(events) == reading.PAGE_LIMIT)

    return pushed(campaign_id, audience, _read(read))


# --------------------------------------------------------------------------- the overlay's


def overlay_stream(link_id: int, campaign_id: int, count: int) -> AsyncIterator[str]:
    """The overlay's cards (players' view), sent again whenever they change: a new
    event, or a sealed card opened by a reveal."""
    shown = {"html": None}

    def read() -> Batch:
        if not access.overlay_live(link_id):
            gone = {"detail": "This overlay link was revoked.", "revoked": True}
            return Batch([sse(gone, event="end")], end=True)
        html = "".join(reading.overlay_cards(campaign_id, count))
        if html == shown["html"]:
            return Batch()
        shown["html"] = html
        return Batch([sse({"html": html}, event="cards")])

    return pushed(campaign_id, visibility.PLAYERS, _read(read))
