"""The campaign's table socket (docs/protocol.md).

In: JSON messages ({"type": "act" | "say" | "reveal" | "void" | "resume", ...}), including
htmx ws-send form posts (form values as strings plus a HEADERS object).
Out: HTML fragments for htmx out-of-band swaps; each event fragment carries
data-seq. Errors and acknowledgements go to the sender only, as #table-notice.

Connecting: members only; refused after accept() with 4401 (not logged in) or
4403 (not a member). A user keeps at most TABLE_SOCKETS_PER_USER sockets at a table:
a newer one closes their oldest with 4429, in whichever process it is (table.live.limits). The socket joins its audience in this process's hub first,
then reads the log and replays every visible event after the client's last seq,
once and in order, then goes live. Every message re-checks the user's role; a
member removed mid-session is closed with 4403, a changed role with 4409.

Broadcasts reach the socket through the hub (table/live/broadcast.py), never through
channels' per-message dispatch. Actions sent on sockets spend from the user's budget at
the table (shared with their other sockets and their HTTP requests, table.live.limits), then
run in the database thread a batch at a time (ActionQueue), each in its own
transaction, users taking turns.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.db import DatabaseError, InterfaceError, OperationalError

from table.live import broadcast, limits
from table.live.dbthread import in_db_thread
from table.log import visibility
from table.reading import reads as reading
from table.reading.reads import audience_of, membership_of
from table.reading.rendering import notice_html
from table.talk import chat
from table.talk.messages import DIGITS, TOO_DEEP, ProtocolError, parse_message, too_deep
from table.writing.actions import (
    ActionError,
    NotMember,
    RoleChanged,
    confirm_write,
    forget_write,
    perform_in,
    reveal,
    void,
)

log = logging.getLogger(__name__)

CLOSE_NOT_LOGGED_IN = 4401
CLOSE_NOT_A_MEMBER = 4403
CLOSE_ROLE_CHANGED = 4409
CLOSE_REPLACED = 4429  # the user opened more sockets at this table than they may keep
REPLACED_TEXT = (
    "You opened this table in another tab or device; this one was closed. Reload to use it here."
)
PENDING_SECONDS = 2.0  # without a last_seq, wait this long for a "resume" before going live


# --------------------------------------------------------------------------- database work


def _member(user, campaign_id: int) -> tuple[str | None, int | None]:
    """(audience, role-check token) for the user, or (None, None) for non-members."""
    membership = membership_of(campaign_id, user)
    return audience_of(membership), None if membership is None else membership.pk


def _session_ended(session) -> bool:
    """The handshake's session is gone (logged out) since the auth middleware read it."""
    key = getattr(session, "session_key", None)
    if not key or settings.SESSION_ENGINE.endswith("signed_cookies"):
        return False  # nothing stored server-side to end
    return not session.exists(key)


class TableConsumer(AsyncWebsocketConsumer):
    # The consumer needs no channel of its own: broadcasts reach it through the hub.
    channel_layer_alias = None

    async def dispatch(self, message: dict) -> None:
        # Skip channels' per-message aclose_old_connections() hop: database work here
        # goes through in_db_thread, which looks after the database thread's connection.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    # ---- connecting

    # Writes a frame to this socket's peer at once (rollcall.asgi: "frame_send").
    write_frame: Callable[[bytes], None] | None = None

    async def connect(self) -> None:
        self.write_frame = self.scope.get("frame_send")
        self.campaign_id = int(self.scope["url_route"]["kwargs"]["campaign_id"])
        self.user = self.scope.get("user")
        # Logging out closes the sockets opened with that session (broadcast.close_session).
        self.session_tag = broadcast.session_tag(
            getattr(self.scope.get("session"), "session_key", None)
        )
        self.key: tuple[int, str] | None = None
        self.socket_id: str | None = None  # in the user's socket registry (table.live.limits)
        self.sent_seq = 0
        self.pending: list[dict] | None = []
        self.pending_timer: asyncio.TimerHandle | None = None
        self.closing = False
        self.times: deque[float] = deque()
        self.rate = settings.TABLE_SOCKET_RATE
        self.window = settings.TABLE_SOCKET_WINDOW
        self.max_bytes = settings.TABLE_MAX_MESSAGE_BYTES
        self.replay_limit = settings.TABLE_REPLAY_LIMIT
        await self.accept()
        if not getattr(self.user, "is_authenticated", False):
            await self.shut(CLOSE_NOT_LOGGED_IN)
            return
        audience, self.membership_id = await in_db_thread(_member)(self.user, self.campaign_id)
        if audience is None:
            await self.shut(CLOSE_NOT_A_MEMBER)
            return
        self.audience = audience
        self.turn_key = (self.campaign_id, self.user.pk)  # ActionQueue's turns
        self.hub = broadcast.hub()
        self.key = (self.campaign_id, audience)
        await self.hub.join(self, self.key)  # subscribe first, then fetch, then replay
        # A removal or a logout that landed between the checks above and join() was
        # published before this socket could hear it: look again now that it can.
        if not await self.recheck():
            return
        if await in_db_thread(_session_ended)(self.scope.get("session")):
            await self.shut(CLOSE_NOT_LOGGED_IN)
            return
        await self.register()
        if self.closing:
            return
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        last = query.get("last_seq", [""])[0].strip()
        if DIGITS.fullmatch(last):
            await self.replay(int(last))
        else:
            loop = asyncio.get_running_loop()
            self.pending_timer = loop.call_later(
                PENDING_SECONDS, lambda: loop.create_task(self.go_live())
            )

    async def register(self) -> None:
        """Count this socket among the user's at the table; their oldest beyond the cap
        close (subscribed first: a newer socket's order reaches this one too)."""
        # Known before the registry answers: an order to close it may come meanwhile.
        self.socket_id = socket_id = secrets.token_hex(12)
        self.hub.name(self, socket_id)
        closing = await limits.aregister(self.campaign_id, self.user.pk, socket_id, limits.now())
        others = [s for s in closing if s != socket_id]
        if others:
            broadcast.close_replaced(self.campaign_id, self.audience, others)
        if socket_id in closing:
            if self.closing:
                self.socket_id = None
            else:
                await self.replaced()
        elif self.closing:
            # The peer left while the registry was asked (on Redis, from another thread):
            # disconnect()'s removal may have run first, so remove it once more.
            await limits.aunregister(self.campaign_id, self.user.pk, socket_id)

    async def replaced(self) -> None:
        await self.notice("error", REPLACED_TEXT, code="replaced")
        self.socket_id = None  # gone from the registry already
        await self.shut(CLOSE_REPLACED, REPLACED_TEXT)

    async def disconnect(self, code: int) -> None:
        self.closing = True
        if self.pending_timer is not None:
            self.pending_timer.cancel()
        if self.key is not None:
            self.hub.leave(self, self.key)
            self.key = None
        if self.socket_id is not None:
            socket_id, self.socket_id = self.socket_id, None
            await limits.aunregister(self.campaign_id, self.user.pk, socket_id)

    async def shut(self, code: int, reason: str | None = None) -> None:
        if self.closing:
            return
        self.closing = True
        if self.key is not None:
            self.hub.leave(self, self.key)
            self.key = None
        await self.close(code=code, reason=reason)

    # ---- replay and live delivery

    async def replay(self, last_seq: int) -> None:
        """Send every visible event after max(last_seq, what this socket sent), in order;
        live messages that arrive meanwhile wait in `pending` and follow without repeats."""
        if self.pending is None:
            self.pending = []
        if self.pending_timer is not None:
            self.pending_timer.cancel()
            self.pending_timer = None
        after = max(last_seq, self.sent_seq)
        result = await in_db_thread(reading.fetch_replay)(
            self.campaign_id, self.audience, after, self.replay_limit, self.user.pk
        )
        if self.closing:
            return
        self.hub.prime(self.key, result["head"])
        if result["reload"]:
            text = (
                "You missed too much while away: reload the page."
                if result["reload"] == "behind"
                else "The table's log changed: reload the page."
            )
            await self.send_text(notice_html("error", text, code="reload", reload=True))
            self.sent_seq = max(self.sent_seq, result["head"])
        for seq, html in result["messages"]:
            if seq > self.sent_seq:
                self.sent_seq = seq
                await self.send_text(html)
        await self.go_live()

    async def go_live(self) -> None:
        self.pending_timer = None
        pending, self.pending = self.pending, None
        for message in sorted(pending or (), key=lambda m: m["seq"]):
            await self.push(message)

    async def push(self, message: dict[str, Any]) -> None:
        """Called by the hub with an already-rendered message."""
        if self.closing:
            return
        if message.get("control") == "member":
            if message.get("user") == self.user.pk:
                asyncio.get_running_loop().create_task(self.recheck())
            return
        if message.get("control") == "session":
            if self.session_tag is not None and message.get("session") == self.session_tag:
                await self.shut(CLOSE_NOT_LOGGED_IN)
            return
        if message.get("control") == "replaced":
            if self.socket_id is not None and self.socket_id in message.get("sockets", ()):
                await self.replaced()
            return
        if message.get("user") is not None and message.get("user") != self.user.pk:
            return  # a fragment for one member's pages (broadcast.send_html_to_user)
        seq = message.get("seq")
        if seq is None:
            await self.send_text(message["html"])
            return
        if self.pending is not None:
            self.pending.append(message)
            return
        if seq <= self.sent_seq:
            return
        self.sent_seq = seq
        if self.user.pk in message.get("readers", ()) and "author_html" in message:
            await self.send_text(message["author_html"])  # a whisper they read, whole
            return
        await self.send_text(message["html"])

    def push_frame(self, message: dict[str, Any], frames: broadcast.Frames) -> bool:
        """The hub's way for a card or a page fragment under daphne: the frame built once
        for every socket of the audience, written now. False when push() must take it:
        no frame writer (another server, a test's communicator), a control message, a
        fragment for one member, a socket still replaying or closing."""
        write = self.write_frame
        if write is None or self.closing or self.pending is not None:
            return False
        if "control" in message or message.get("user") is not None:
            return False
        seq = message.get("seq")
        if seq is not None:
            if seq <= self.sent_seq:
                return True
            self.sent_seq = seq
            if "author_html" in message and self.user.pk in message.get("readers", ()):
                write(frames["author_html"])  # a whisper they read, whole
                return True
        write(frames["html"])
        return True

    async def send_text(self, text: str) -> None:
        # rollcall.asgi puts the server's send in the scope (see websocket_app there).
        send = self.scope.get("server_send") or self.base_send
        await send({"type": "websocket.send", "text": text})

    async def notice(self, kind: str, text: str, code: str = "") -> None:
        await self.send_text(notice_html(kind, text, code=code))

    async def recheck(self) -> bool:
        """Still a member with the same role? Otherwise close (4403 removed, 4409 role)."""
        if self.closing:
            return False
        audience, membership_id = await in_db_thread(_member)(self.user, self.campaign_id)
        if audience is None:
            await self.shut(CLOSE_NOT_A_MEMBER)
            return False
        if audience != self.audience or membership_id != self.membership_id:
            await self.notice("error", "Your role changed: reload the page.", code="role")
            await self.shut(CLOSE_ROLE_CHANGED)
            return False
        return True

    # ---- inbound

    def allowed(self) -> bool:
        now = time.monotonic()
        while self.times and now - self.times[0] >= self.window:
            self.times.popleft()
        if len(self.times) >= self.rate:
            return False
        self.times.append(now)
        return True

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None):
        if self.key is None or self.closing:
            return
        if not self.allowed():
            await self.notice(
                "error",
                f"Slow down: at most {self.rate} messages every {self.window} seconds. "
                "Nothing was done; try again in a moment.",
                "rate_limited",
            )
            return
        if text_data is None:
            await self.notice("error", "Send text: JSON messages only.", "malformed")
            return
        if len(text_data) > self.max_bytes or len(text_data.encode("utf-8")) > self.max_bytes:
            await self.notice(
                "error", f"That message is too large (at most {self.max_bytes} bytes).", "too_large"
            )
            return
        try:
            message = parse_message(json.loads(text_data))
            if too_deep(message):
                raise ProtocolError(TOO_DEEP)
        except RecursionError:  # "[" * 9000 fits in 16 KiB: json.loads raises this
            await self.notice("error", TOO_DEEP, "malformed")
            return
        except ValueError as error:  # ProtocolError and JSONDecodeError
            text = str(error) if isinstance(error, ProtocolError) else "That is not valid JSON."
            await self.notice("error", text, "malformed")
            return
        if message["type"] == "ping":
            await self.notice("ok", "pong", "pong")
            return
        if message["type"] == "resume":
            if await self.recheck():
                await self.replay(message["last_seq"])
            return
        refusal = await limits.aspend(self.campaign_id, self.user.pk)
        if refusal:
            await self.notice("error", refusal, "rate_limited")
            return
        if not self.closing:
            action_queue().submit(self, message)

    async def finish(self, status: str, text: str) -> None:
        """The action worker's answer for this socket's message."""
        if self.closing:
            return
        if status == "gone":
            await self.shut(CLOSE_NOT_A_MEMBER)
        elif status == "role":
            await self.notice("error", "Your role changed: reload the page.", code="role")
            await self.shut(CLOSE_ROLE_CHANGED)
        elif status == "error":
            await self.notice("error", text, "refused")
        elif text:
            await self.notice("ok", text, "done")

    def run(self, message: dict[str, Any]) -> tuple[str, str]:
        """In the database thread: the action re-checks the role inside its transaction."""
        expect = (self.audience, self.membership_id)
        try:
            if message["type"] == "say":
                event = chat.say(
                    self.campaign_id,
                    self.user,
                    message["mode"],
                    message["text"],
                    sheet_id=message["sheet_id"],
                    expect=expect,
                    to=message["to"],
                )
                if not visibility.sees(event, self.audience, self.user.pk):
                    return "ok", visibility.acknowledgement(event, self.audience)
                return "ok", ""
            if message["type"] == "act":
                event = perform_in(
                    self.campaign_id,
                    self.user,
                    message["action"],
                    message["request"],
                    sheet_id=message["sheet_id"],
                    visibility=message["visibility"],
                    expect=expect,
                )
                if not visibility.sees(event, self.audience):
                    return "ok", visibility.acknowledgement(event, self.audience)
                return "ok", ""
            membership = membership_of(self.campaign_id, self.user)
            if membership is None:
                return "gone", ""
            if (audience_of(membership), membership.pk) != expect:
                return "role", ""
            campaign = membership.campaign
            # By seq or by id, the event is looked up after the role is checked.
            event_id, seq = message.get("event_id"), message.get("seq")
            if message["type"] == "reveal":
                reveal(campaign, self.user, event_id, seq=seq)
            else:
                void(campaign, self.user, event_id, message["reason"], seq=seq)
            return "ok", ""
        except NotMember:
            return "gone", ""
        except RoleChanged:
            return "role", ""
        except ActionError as error:
            return "error", str(error)

    def settle(self, message: dict[str, Any]) -> tuple[str, str]:
        """In the database thread, after the connection failed during the message's
        action: say whether it was made. A failure during COMMIT may have committed it
        after all, so the log is checked once the database answers (confirm_write)."""
        act = message.get("type") == "act"
        what = "roll" if act and "roll" in str(message.get("action", "")) else "action"
        try:
            event = confirm_write()
        except DatabaseError:
            log.exception("table: could not find out whether an action was made")
            return "error", (
                f"The database is unreachable, so whether your {what} was made is not "
                "known yet: reload the page before you try again."
            )
        if event is None:
            return "error", f"Your {what} was not made: the database was unreachable; try again."
        if not visibility.sees(event, self.audience):
            return "ok", visibility.acknowledgement(event, self.audience)
        return "ok", f"Your {what} was made (#{event.seq})."


# --------------------------------------------------------------------------- the action queue

_queues: dict[asyncio.AbstractEventLoop, ActionQueue] = {}
BATCH = 64
BATCH_PER_USER = 4  # of one (campaign, user) in a batch: see ActionQueue


def action_queue() -> ActionQueue:
    """The action queue of the running event loop (one per process in production)."""
    loop = asyncio.get_running_loop()
    for stale in [other for other in _queues if other.is_closed()]:
        del _queues[stale]
    found = _queues.get(loop)
    if found is None:
        found = _queues[loop] = ActionQueue(loop)
    return found


def run_batch(batch: list) -> tuple[list, list]:
    """In the database thread: each message in its own transaction, broadcasts collected."""
    results = []
    with broadcast.collecting() as published:
        for consumer, message in batch:
            forget_write()
            try:
                outcome = consumer.run(message)
            except (OperationalError, InterfaceError):
                log.exception("table action failed: the database connection failed")
                outcome = consumer.settle(message)
            except Exception:
                log.exception("table action failed")
                outcome = ("error", "Something went wrong; nothing was done.")
            results.append((consumer, outcome))
    return published, results


class ActionQueue:
    """The sockets' actions, run in the database thread a batch at a time, users taking
    turns.

    Each (campaign, user) has a queue of its own, in arrival order (so one socket's
    actions run in the order it sent them); a batch takes one action from each user
    with actions waiting, in turn, then another round, at most BATCH_PER_USER from any
    one user and BATCH in all. A user's burst thus never sits in front of another
    player's roll: that roll goes into the next batch, near its start. While a batch
    runs, new messages gather. Each batch costs one trip to the database thread and
    back, and its broadcasts are handed to the hub together, so under load the event
    loop and the database thread trade the interpreter lock once per batch rather than
    several times per roll.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.waiting: dict[tuple[int, int], deque] = {}
        self.turns: deque[tuple[int, int]] = deque()  # the keys in self.waiting, in turn
        self.running = False

    def submit(self, consumer: TableConsumer, message: dict[str, Any]) -> None:
        key = consumer.turn_key
        queue = self.waiting.get(key)
        if queue is None:
            queue = self.waiting[key] = deque()
            self.turns.append(key)
        queue.append((consumer, message))
        if not self.running:
            self.running = True
            self.loop.create_task(self._drain(), context=contextvars.Context())

    def next_batch(self) -> list:
        batch: list = []
        served: dict[tuple[int, int], int] = {}
        full: list[tuple[int, int]] = []  # took their share of this batch: back in line
        while self.turns and len(batch) < BATCH:
            key = self.turns.popleft()
            queue = self.waiting[key]
            batch.append(queue.popleft())
            served[key] = served.get(key, 0) + 1
            if not queue:
                del self.waiting[key]
            elif served[key] >= BATCH_PER_USER:
                full.append(key)
            else:
                self.turns.append(key)
        self.turns.extend(full)
        return batch

    async def _drain(self) -> None:
        try:
            while self.turns:
                batch = self.next_batch()
                published, results = await in_db_thread(run_batch)(batch)
                broadcast.dispatch_here(published)
                for consumer, (status, text) in results:
                    if status != "ok" or text:
                        await consumer.finish(status, text)
        finally:
            self.running = False
