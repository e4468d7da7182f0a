"""Getting already-rendered HTML to every socket at a campaign's table that may see it.

Each event is rendered once per audience ("gm": GMs see everything; "players":
players and observers see public events) in the thread that committed it, and
published with them. Each process keeps a registry (`Hub`) of its own
sockets per (campaign, audience) and writes the text to them itself:

- embedded default (in-memory channel layer, one process): the committing
  thread hands the message straight to the hub of the event loop that owns the
  sockets;
- with Redis (several processes): the committing process hands the message to its
  own hub at once, as above, and one group message per campaign goes over the
  channel layer for each batch of commits, carrying every audience's text, to the
  other processes (each skips what it published itself, by ORIGIN); each process
  subscribes ONE channel of its own to the groups of the campaigns it has sockets
  for, so Redis carries one message per process per event (or fewer) instead of
  one per socket or per audience, and a card for this process's own sockets never
  waits for Redis's round trip.

Sockets never pass through channels' per-message dispatch for broadcasts, and under
daphne a message's text is framed once and the same bytes written to each of its
sockets (Frames, TableConsumer.push_frame). Each
message carries `seq` and `after` (the previous seq that audience could see), so
a hub releases messages in log order even when two commits publish out of order;
a message whose predecessor is late is held briefly, then the hub reads what is
missing from the log and releases it first (a publish that failed, or a process
that died between commit and publish, leaves no gap on sockets that stay open).

A message is published only after the transaction that stored it commits, and a
failure to publish never loses the event: it stays in the log, and replay
delivers it.
"""

from __future__ import annotations

import asyncio
import contextvars
import gc
import logging
import secrets
import struct
import threading
from collections import defaultdict, deque
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings
from django.db import transaction
from django.utils.crypto import salted_hmac

from table.live.dbthread import in_db_thread
from table.reading import reads as reading
from table.reading.rendering import audiences_for, stream_message

log = logging.getLogger(__name__)

AUDIENCES = ("gm", "players")
# This process, on what it publishes over the channel layer: its own sockets have had it.
ORIGIN = secrets.token_hex(8)
HOLD_SECONDS = 0.5  # how long a hub waits for a late predecessor before releasing
# None: use the channel layer only when it spans processes (not the in-memory one).
FORCE_LAYER: bool | None = None


def group_name(campaign_id: int) -> str:
    return f"table.{campaign_id}"


def uses_layer() -> bool:
    if FORCE_LAYER is not None:
        return FORCE_LAYER
    layer = get_channel_layer()
    return layer is not None and not isinstance(layer, InMemoryChannelLayer)


# --------------------------------------------------------------------------- publishing


_local = threading.local()


@contextmanager
def collecting() -> Iterator[list]:
    """Within this block, this thread's publishes are collected instead of sent; the
    caller hands the list to dispatch_here() on the event loop (one wake-up per batch)."""
    _local.batch = items = []
    try:
        yield items
    finally:
        _local.batch = None


def publish(campaign_id: int, audience: str, message: dict[str, Any]) -> None:
    """Send one message to every socket of `audience` at the campaign, in every process.

    Callable from any thread that is not running an event loop (views, actions).
    """
    batch = getattr(_local, "batch", None)
    if batch is not None:
        batch.append((campaign_id, audience, message))
        return
    items = [(campaign_id, audience, message)]
    for hub in live_hubs():
        # A fresh context: the caller's (a sync thread inside sync_to_async) must not
        # leak into the tasks the hub starts, or their own sync_to_async calls fail.
        hub.loop.call_soon_threadsafe(hub.deliver_many, items, context=contextvars.Context())
    if uses_layer():  # and to the other processes
        async_to_sync(_group_send_all)(items)


def dispatch_here(items: list[tuple[int, str, dict[str, Any]]]) -> None:
    """Send collected messages, from the event loop thread."""
    if not items:
        return
    here = asyncio.get_running_loop()
    for hub in live_hubs():
        if hub.loop is here:
            hub.deliver_many(items)
        else:
            hub.loop.call_soon_threadsafe(hub.deliver_many, items, context=contextvars.Context())
    if uses_layer():  # and to the other processes
        # One publishing task after another, so batches reach Redis in the order they ran.
        for stale in [loop for loop in _publishing if loop.is_closed()]:
            del _publishing[stale]
        _publishing[here] = here.create_task(_group_send_all(items, _publishing.get(here)))


_publishing: dict[asyncio.AbstractEventLoop, asyncio.Task] = {}


async def _group_send_all(
    items: list[tuple[int, str, dict[str, Any]]], previous: asyncio.Task | None = None
) -> None:
    """One group message per campaign, its audiences' messages in the order published:
    every publish to Redis is a round trip, and every process decodes every message of
    the campaigns it serves."""
    if previous is not None and not previous.done():
        await asyncio.wait([previous])
    by_campaign: dict[int, list] = {}
    for campaign_id, audience, message in items:
        by_campaign.setdefault(campaign_id, []).append([audience, message])
    layer = get_channel_layer()
    for campaign_id, messages in by_campaign.items():
        try:
            await layer.group_send(
                group_name(campaign_id),
                {
                    "type": "table.fanout",
                    "campaign": campaign_id,
                    "items": messages,
                    "origin": ORIGIN,
                },
            )
        except Exception:
            log.exception("table: publishing to %s failed", group_name(campaign_id))


def publish_event(event, after: dict[str, int]) -> None:
    """Render the event once per audience and publish it. A whisper to the GM reaches
    the players' sockets as its sealed line, with its author's card beside it, which
    only the author's own sockets send (TableConsumer.push)."""
    try:
        for audience in audiences_for(event):
            message = {**stream_message(event, audience), "after": after[audience]}
            publish(event.campaign_id, audience, message)
    except Exception:
        log.exception("broadcast of event #%s failed; clients catch up on resume", event.seq)


def send_html(campaign_id: int, html: str, audience: str = "all") -> None:
    """Send any fragment now: "all" reaches every member's socket, "gm" only GMs'."""
    for name in AUDIENCES if audience == "all" else (audience,):
        publish(campaign_id, name, {"html": html})


def send_html_to_user(campaign_id: int, user_id: int, html: str) -> None:
    """Send a fragment to one member's own sockets (table.pools.live_pool: the GM's additions
    reach the roller's builder only); each socket compares the user (consumers.push)."""
    for name in AUDIENCES:
        publish(campaign_id, name, {"html": html, "user": user_id})


def send_html_on_commit(campaign_id: int, html: str, audience: str = "all") -> None:
    transaction.on_commit(lambda: send_html(campaign_id, html, audience), robust=True)


def notify_member(campaign_id: int, user_id: int) -> None:
    """A membership changed: that user's sockets re-check their role (and close if removed)."""
    for audience in AUDIENCES:
        publish(campaign_id, audience, {"control": "member", "user": user_id})


def close_replaced(campaign_id: int, audience: str, socket_ids: list[str]) -> None:
    """A user opened one socket too many at the campaign (table.live.limits): these of theirs
    close, in whichever process serves them (each hub finds them by id, without
    visiting the campaign's other sockets). Called from the event loop."""
    dispatch_here([(campaign_id, audience, {"control": "replaced", "sockets": list(socket_ids)})])


def session_tag(session_key: str | None) -> str | None:
    """What a socket and a logout compare: a keyed digest, so the session key itself
    never travels through the channel layer."""
    if not session_key:
        return None
    return salted_hmac("table.session", session_key).hexdigest()


def close_session(campaign_ids: Iterable[int], session_key: str | None) -> None:
    """A session ended (logout): its sockets at these campaigns close with 4401; the
    same user's sockets opened with other sessions (other devices) stay open."""
    tag = session_tag(session_key)
    if tag is None:
        return
    for campaign_id in campaign_ids:
        for audience in AUDIENCES:
            publish(campaign_id, audience, {"control": "session", "session": tag})


# --------------------------------------------------------------------------- the hub

_hubs: dict[asyncio.AbstractEventLoop, Hub] = {}
_hubs_lock = threading.Lock()


def live_hubs() -> list[Hub]:
    with _hubs_lock:
        for loop in [loop for loop in _hubs if loop.is_closed()]:
            del _hubs[loop]
        return list(_hubs.values())


def hub() -> Hub:
    """The hub of the running event loop (one per process in production)."""
    loop = asyncio.get_running_loop()
    with _hubs_lock:
        found = _hubs.get(loop)
        if found is None:
            found = _hubs[loop] = Hub(loop)
            _settle_garbage_collector()
        return found


_gc_frozen = False


def _settle_garbage_collector() -> None:
    """Once per process, when it first serves table sockets: move everything alive now
    (Django, the rules, compiled templates) out of the collector's sight. Full
    collections then scan only what the table creates, so they stop pausing every
    socket of the process for 40-125 ms (measured with 1,000 sockets)."""
    global _gc_frozen
    if not _gc_frozen:
        _gc_frozen = True
        gc.collect()
        gc.freeze()


class _Stream:
    """Release order for one (campaign, audience): the last seq released, and
    messages held until their predecessor arrives."""

    __slots__ = ("last", "held", "timer", "filling")

    def __init__(self) -> None:
        self.last: int | None = None
        self.held: dict[int, dict[str, Any]] = {}
        self.timer: asyncio.TimerHandle | None = None
        self.filling = False


class Hub:
    """This process's sockets per (campaign, audience), fed from one place."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.sockets: dict[tuple[int, str], set] = defaultdict(set)
        self.by_id: dict[str, Any] = {}  # sockets by their id in table.live.limits' registry
        self.streams: dict[tuple[int, str], _Stream] = {}
        self.outbox: deque[tuple[list, dict[str, Any]]] = deque()
        self.draining = False
        self.channel: str | None = None
        self.listener: asyncio.Task | None = None
        self.subscribed: set[int] = set()  # campaigns
        self._subscribing: dict[int, asyncio.Future] = {}

    # ---- sockets come and go (event loop thread only)

    async def join(self, socket, key: tuple[int, str]) -> None:
        self.sockets[key].add(socket)
        if uses_layer():
            await self._subscribe(key[0])

    def name(self, socket, socket_id: str) -> None:
        """Let control messages find this socket by its id (socket.hub_id)."""
        socket.hub_id = socket_id
        self.by_id[socket_id] = socket

    def leave(self, socket, key: tuple[int, str]) -> None:
        socket_id = getattr(socket, "hub_id", None)
        if socket_id is not None and self.by_id.get(socket_id) is socket:
            del self.by_id[socket_id]
        sockets = self.sockets.get(key)
        if sockets is None:
            return
        sockets.discard(socket)
        if sockets:
            return
        del self.sockets[key]
        stream = self.streams.pop(key, None)
        if stream is not None and stream.timer is not None:
            stream.timer.cancel()
        campaign_id = key[0]
        if campaign_id in self.subscribed and not self._serves(campaign_id):
            self.subscribed.discard(campaign_id)
            self.loop.create_task(self._unsubscribe(campaign_id))

    def _serves(self, campaign_id: int) -> bool:
        return any((campaign_id, audience) in self.sockets for audience in AUDIENCES)

    def prime(self, key: tuple[int, str], head: int) -> None:
        """A new stream starts after the log's head, as a joining socket read it."""
        stream = self.streams.setdefault(key, _Stream())
        if stream.last is None:
            stream.last = head

    def sockets_of(self, campaign_id: int) -> list:
        return [s for (c, _), group in self.sockets.items() if c == campaign_id for s in group]

    # ---- the channel layer (several processes)

    async def _subscribe(self, campaign_id: int) -> None:
        if campaign_id in self.subscribed:
            return
        pending = self._subscribing.get(campaign_id)
        if pending is not None:
            await pending
            return
        future = self.loop.create_future()
        self._subscribing[campaign_id] = future
        try:
            layer = get_channel_layer()
            if self.channel is None:
                self.channel = await layer.new_channel("table.")
                self.listener = self.loop.create_task(self._listen(layer, self.channel))
            await layer.group_add(group_name(campaign_id), self.channel)
            self.subscribed.add(campaign_id)
        finally:
            del self._subscribing[campaign_id]
            future.set_result(None)

    async def _unsubscribe(self, campaign_id: int) -> None:
        try:
            if campaign_id not in self.subscribed and not self._serves(campaign_id):
                await get_channel_layer().group_discard(group_name(campaign_id), self.channel)
        except Exception:
            log.exception("could not leave %s", group_name(campaign_id))

    async def _listen(self, layer, channel: str) -> None:
        while True:
            try:
                message = await layer.receive(channel)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("table listener: receive failed")
                await asyncio.sleep(0.5)
                continue
            if message.get("origin") == ORIGIN:
                continue  # this process's own, delivered here when it was published
            campaign_id = message.get("campaign")
            for audience, item in message.get("items") or ():
                self.deliver((campaign_id, audience), item)

    # ---- delivery (event loop thread only)

    def deliver_many(self, items: list[tuple[int, str, dict[str, Any]]]) -> None:
        for campaign_id, audience, message in items:
            self.deliver((campaign_id, audience), message)

    def deliver(self, key: tuple[int, str], message: dict[str, Any]) -> None:
        seq = message.get("seq")
        if seq is None:
            if message.get("control") == "replaced":
                found = (self.by_id.get(socket_id) for socket_id in message.get("sockets", ()))
                self._send_to([socket for socket in found if socket is not None], message)
            else:
                self._emit(key, message)
            return
        if key not in self.sockets:
            return
        stream = self.streams.setdefault(key, _Stream())
        if stream.last is not None and seq <= stream.last:
            return
        after = message.get("after")
        if stream.last is None or after is None or after <= stream.last:
            self._release(key, stream, message)
            return
        stream.held[seq] = message
        if stream.timer is None:
            stream.timer = self.loop.call_later(HOLD_SECONDS, self._give_up, key)

    def _release(self, key, stream: _Stream, message: dict[str, Any]) -> None:
        self._emit(key, message)
        stream.last = message["seq"]
        while stream.held:
            nxt = min(stream.held)
            if nxt <= stream.last:
                stream.held.pop(nxt)
                continue
            if (stream.held[nxt].get("after") or 0) > stream.last:
                break
            self._emit(key, stream.held.pop(nxt))
            stream.last = nxt
        if not stream.held and stream.timer is not None:
            stream.timer.cancel()
            stream.timer = None

    def _give_up(self, key: tuple[int, str]) -> None:
        stream = self.streams.get(key)
        if stream is None:
            return
        stream.timer = None
        if not stream.filling:
            stream.filling = True
            self.loop.create_task(self._fill(key, stream), context=contextvars.Context())

    async def _fill(self, key: tuple[int, str], stream: _Stream) -> None:
        """A predecessor never came: its publish failed (Redis was down) or the process
        that committed it died first. Read what is missing from the log, once for the
        audience, and release it in order before what was held; sockets that stayed
        connected would otherwise skip those events until they reconnect."""
        result = None
        try:
            result = await in_db_thread(reading.fetch_stream)(
                key[0], key[1], stream.last or 0, settings.TABLE_REPLAY_LIMIT
            )
        except Exception:
            log.exception("table: could not read missed events from the log")
        stream.filling = False
        if self.streams.get(key) is not stream:
            return
        if result is not None and not result["reload"]:
            for message in result["messages"]:
                seq = message["seq"]
                if stream.last is None or seq > stream.last:
                    stream.held.pop(seq, None)
                    self._emit(key, message)
                    stream.last = seq
        # Anything still held (the log could not be read) goes out as it is.
        for seq in sorted(stream.held):
            message = stream.held.pop(seq)
            if stream.last is None or seq > stream.last:
                self._emit(key, message)
                stream.last = seq
        if stream.timer is not None:
            stream.timer.cancel()
            stream.timer = None

    def _emit(self, key: tuple[int, str], message: dict[str, Any]) -> None:
        self._send_to(list(self.sockets.get(key, ())), message)

    def _send_to(self, targets: list, message: dict[str, Any]) -> None:
        if not targets:
            return
        self.outbox.append((targets, message))
        if not self.draining:
            self.draining = True
            self.loop.create_task(self._drain())

    async def _drain(self) -> None:
        """One writer per process: messages leave in the order they were released. A
        message's text is framed once for all its sockets (Frames); a socket that can
        take the frame (TableConsumer.push_frame) is written to at once."""
        try:
            while self.outbox:
                targets, message = self.outbox.popleft()
                frames = Frames(message)
                for socket in targets:
                    try:
                        framed = getattr(socket, "push_frame", None)
                        if framed is None or not framed(message, frames):
                            await socket.push(message)
                    except Exception:
                        log.exception("table: a socket failed to take a message")
        finally:
            self.draining = False

    def all_sockets(self) -> Iterable:
        for group in self.sockets.values():
            yield from group


# --------------------------------------------------------------------------- frames


def text_frame(text: str) -> bytes:
    """`text` as a server's websocket text frame (RFC 6455, 5.2): final, opcode 1,
    unmasked, its length in 7, 16 or 64 bits; built once, written to every socket."""
    payload = text.encode("utf-8")
    size = len(payload)
    if size < 126:
        head = bytes((0x81, size))
    elif size < 1 << 16:
        head = struct.pack("!BBH", 0x81, 126, size)
    else:
        head = struct.pack("!BBQ", 0x81, 127, size)
    return head + payload


class Frames:
    """A message's texts ("html", a whisper's "author_html") as frames, each built the
    first time a socket takes it."""

    __slots__ = ("message", "built")

    def __init__(self, message: dict[str, Any]) -> None:
        self.message = message
        self.built: dict[str, bytes] = {}

    def __getitem__(self, key: str) -> bytes:
        frame = self.built.get(key)
        if frame is None:
            frame = self.built[key] = text_frame(self.message[key])
        return frame
