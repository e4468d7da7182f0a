"""The worker that posts the outbox to Discord: in order, once, within Discord's limits.

Each hook is served by one worker at a time: a worker *leases* the hook (its
`lease_owner` and `lease_until`, a conditional UPDATE), posts its waiting messages one at
a time in id order (the log's order), renews the lease before each, and gives it back
when it is done or must wait. A worker that is killed leaves its lease to expire
(DISCORD_LEASE_SECONDS); then another worker, or the same one restarted, takes the hook
over and carries on from the database, where everything is kept.

Delivery is at least once, and once in all but one case. A message is marked sent as
soon as Discord answers 2xx (posted with `?wait=true`, so a 2xx means Discord saved it),
and a sent message is never posted again. Discord's webhooks take no idempotency key, so
when an attempt ends without an answer (a timeout, a dropped connection, a 5xx, or the
worker killed while it waited) the message may or may not have been posted; it is
posted again, and that second post says so in its footer ("sent again after an
interruption: it may show twice"), carrying the same event number.

Answers:
- 2xx: sent. When `X-RateLimit-Remaining` is 0 the hook waits `X-RateLimit-Reset-After`.
- 429: not sent; the hook waits Discord's `retry_after` (the JSON body), else the
  `Retry-After` header, else `X-RateLimit-Reset-After`. Not counted as a failure.
- 401, 403, 404: the hook itself is refused (deleted, token reset, no access): it stops,
  and the GM is told on the integrations page and the GM dashboard. Its messages wait
  for a new URL.
- 400, 413: Discord refused this message; it is dropped (with the reason) and the next
  one goes. Three refused in a row stop the hook (it refuses everything: a forum channel
  without a thread, say).
- anything else, or no answer: retried after DISCORD_BACKOFF_SECONDS, doubling up to
  DISCORD_BACKOFF_MAX_SECONDS (with up to a fifth taken off at random, so hooks that
  failed together do not retry together).

The table never waits for any of this: its transaction only inserts rows
(integrations.outbox).
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import os
import random
import secrets
import socket
import ssl
import threading
from dataclasses import dataclass, field
from http.client import HTTPConnection, HTTPException, HTTPSConnection
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, Min, Q
from django.utils import timezone

from . import vault
from .embeds import event_payload, text_payload
from .models import Message, Webhook
from .wakeup import queued

log = logging.getLogger(__name__)

BATCH = 20  # messages one hook gets before the worker looks at the others
REFUSALS_TO_STOP = 3
USER_AGENT = "Rollcall-Webhooks/0.1"
MAX_ANSWER_BYTES = 64 * 1024

UNREADABLE = (
    "The stored webhook URL cannot be read: this server's key (SECRET_KEY, or "
    "DISCORD_WEBHOOK_KEY) changed since it was saved. Paste the webhook URL again."
)
REFUSED = {
    401: "Discord refused this webhook's token (401): the URL is wrong, or the webhook's "
    "token was reset.",
    403: "Discord refused to let this webhook post (403): it may no longer have access to "
    "its channel.",
    404: "Discord says this webhook does not exist any more (404): it was deleted, or its "
    "channel was.",
}
WHAT_NOW = " Nothing is posted to it until you paste a new webhook URL; what waits is posted then."


@dataclass
class Answer:
    """Discord's answer to one post; `status` None when none came (`error` says why)."""

    status: int | None
    headers: dict[str, str] = field(default_factory=dict)  # names in lower case
    body: bytes = b""
    error: str = ""

    def json(self) -> dict[str, Any]:
        try:
            data = json.loads(self.body or b"{}")
        except ValueError:
            return {}
        return data if isinstance(data, dict) else {}

    def reason(self) -> str:
        """Discord's own words for a refusal (its JSON `message` and `code`), short."""
        data = self.json()
        text = str(data.get("message") or f"HTTP {self.status}")
        if data.get("code"):
            text += f" (code {data['code']})"
        return text[:300]


def post(url: str, payload: dict[str, Any], timeout: float) -> Answer:
    """POST the payload to the webhook with ?wait=true; never raises for network trouble.
    Nothing here names the URL: it is a secret."""
    parts = urlsplit(url)
    if parts.scheme == "https":
        conn: HTTPConnection = HTTPSConnection(
            parts.hostname, parts.port, timeout=timeout, context=ssl.create_default_context()
        )
    elif parts.scheme == "http" and _under_test_base(url):
        conn = HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    else:
        return Answer(None, error="not an https URL")
    path = f"{parts.path}?{parts.query + '&' if parts.query else ''}wait=true"
    body = json.dumps(payload, ensure_ascii=False).encode("utf-8")
    headers = {"Content-Type": "application/json", "User-Agent": USER_AGENT}
    try:
        conn.request("POST", path, body, headers)
        response = conn.getresponse()
        data = response.read(MAX_ANSWER_BYTES)
        names = {k.lower(): v for k, v in response.getheaders()}
        return Answer(response.status, names, data)
    except TimeoutError:
        return Answer(None, error="Discord did not answer in time")
    except (OSError, HTTPException) as error:
        return Answer(None, error=f"could not reach Discord ({type(error).__name__})")
    finally:
        conn.close()


def _under_test_base(url: str) -> bool:
    base = settings.DISCORD_TEST_WEBHOOK_BASE
    return bool(base) and url.startswith(base.rstrip("/") + "/")


def _seconds(value: object) -> float | None:
    try:
        seconds = float(str(value))
    except ValueError:
        return None
    return seconds if seconds >= 0 else None


def retry_after(answer: Answer) -> float:
    """How long Discord asks us to wait after a 429."""
    for value in (
        answer.json().get("retry_after"),
        answer.headers.get("retry-after"),
        answer.headers.get("x-ratelimit-reset-after"),
    ):
        seconds = _seconds(value) if value is not None else None
        if seconds is not None:
            return min(seconds, 3600.0)
    return 1.0


def bucket_pause(answer: Answer) -> float | None:
    """After a success: the wait Discord's rate-limit headers ask for, if the bucket is empty."""
    if answer.headers.get("x-ratelimit-remaining") != "0":
        return None
    return _seconds(answer.headers.get("x-ratelimit-reset-after", "1"))


def backoff(failures: int) -> float:
    """Seconds before the next try after `failures` unanswered attempts in a row."""
    base = settings.DISCORD_BACKOFF_SECONDS * 2 ** min(max(failures - 1, 0), 30)
    delay = min(base, settings.DISCORD_BACKOFF_MAX_SECONDS)
    return delay * random.uniform(0.8, 1.0)


def _later(seconds: float) -> dt.datetime:
    return timezone.now() + dt.timedelta(seconds=seconds)


def lease_seconds() -> float:
    """A lease outlasts the longest request, so no hook is taken over while it is served."""
    return max(settings.DISCORD_LEASE_SECONDS, settings.DISCORD_TIMEOUT_SECONDS + 1)


class Worker:
    """Delivers every hook's messages; run() until stop(), or run_once() for one pass."""

    def __init__(self, name: str | None = None, *, send=post) -> None:
        self.owner = (name or f"{socket.gethostname()}:{os.getpid()}")[:60]
        self.owner += f":{secrets.token_hex(4)}"
        self.send = send
        self.stopping = threading.Event()

    # ------------------------------------------------------------------ the loop

    def stop(self) -> None:
        self.stopping.set()
        queued.set()

    def run(self) -> None:
        log.info("discord worker %s started", self.owner)
        while not self.stopping.is_set():
            try:
                busy = self.run_once()
                pause = 0.0 if busy else self.pause()
            except Exception:
                log.exception("discord worker: a pass failed; trying again")
                connection.close()
                busy, pause = False, settings.DISCORD_POLL_SECONDS
            if not busy and not self.stopping.is_set():
                queued.wait(pause)
                queued.clear()
        connection.close()
        log.info("discord worker %s stopped", self.owner)

    def due(self) -> list[int]:
        """Hooks with waiting messages that nobody serves and nothing holds back."""
        now = timezone.now()
        rows = (
            Webhook.objects.filter(status=Webhook.Status.ACTIVE)
            .filter(Q(retry_at__isnull=True) | Q(retry_at__lte=now))
            .filter(Q(lease_until__isnull=True) | Q(lease_until__lt=now))
            .filter(messages__state=Message.State.PENDING)
            .order_by("pk")
            .values_list("pk", flat=True)
            .distinct()
        )
        return list(rows)

    def run_once(self) -> bool:
        """Serve every hook that is due; True if any message was attempted."""
        worked = False
        for pk in self.due():
            if self.stopping.is_set():
                break
            worked = self.serve(pk) or worked
        return worked

    def pause(self) -> float:
        """Until the next hook with waiting messages is due (a retry, a lease running out),
        at most DISCORD_POLL_SECONDS."""
        now = timezone.now()
        waiting = Webhook.objects.filter(
            status=Webhook.Status.ACTIVE, messages__state=Message.State.PENDING
        )
        soonest = waiting.filter(retry_at__gt=now).aggregate(at=Min("retry_at"))["at"]
        leased = waiting.filter(lease_until__gt=now).aggregate(at=Min("lease_until"))["at"]
        poll = settings.DISCORD_POLL_SECONDS
        for at in (soonest, leased):
            if at is not None:
                poll = min(poll, max((at - now).total_seconds(), 0.0) + 0.01)
        return poll

    # ------------------------------------------------------------------ one hook

    def claim(self, pk: int) -> Webhook | None:
        now = timezone.now()
        claimed = (
            Webhook.objects.filter(pk=pk, status=Webhook.Status.ACTIVE)
            .filter(Q(retry_at__isnull=True) | Q(retry_at__lte=now))
            .filter(Q(lease_until__isnull=True) | Q(lease_until__lt=now))
            .update(lease_owner=self.owner, lease_until=_later(lease_seconds()))
        )
        return Webhook.objects.filter(pk=pk).first() if claimed else None

    def release(self, pk: int) -> None:
        Webhook.objects.filter(pk=pk, lease_owner=self.owner).update(
            lease_owner="", lease_until=None
        )

    def serve(self, pk: int) -> bool:
        """Post up to BATCH of one hook's messages, in order, while it is ours."""
        hook = self.claim(pk)
        if hook is None:
            return False
        try:
            try:
                url = vault.unseal(hook.url_sealed)
            except vault.Unreadable:
                self.stop_hook(hook, UNREADABLE)
                return True
            for _ in range(BATCH):
                if self.stopping.is_set():
                    break
                message = (
                    Message.objects.filter(webhook_id=pk, state=Message.State.PENDING)
                    .select_related("event", "event__target")
                    .order_by("id")
                    .first()
                )
                if message is None or not self.take(hook, message):
                    break
                if not self.deliver(hook, url, message):
                    break
            return True
        finally:
            self.release(pk)

    def take(self, hook: Webhook, message: Message) -> bool:
        """Renew the lease and mark the message as possibly on its way, before posting it;
        False if the hook is no longer ours, or its URL was replaced meanwhile (the next
        pass takes the new one: nothing more goes to a URL the GM took back)."""
        with transaction.atomic():
            kept = Webhook.objects.filter(
                pk=hook.pk, lease_owner=self.owner, url_sealed=hook.url_sealed
            ).update(lease_until=_later(lease_seconds()))
            if not kept:
                return False
            Message.objects.filter(pk=message.pk).update(
                attempts=F("attempts") + 1, maybe_sent=True
            )
        return True

    def payload(self, message: Message) -> dict[str, Any]:
        resent = message.maybe_sent  # as read before this attempt: an earlier one was cut off
        if message.kind == Message.Kind.TEST or message.event is None:
            return text_payload(message.text, resent=resent)
        return event_payload(message.event, message.audience, sealed=message.sealed, resent=resent)

    def deliver(self, hook: Webhook, url: str, message: Message) -> bool:
        """Post one message and record Discord's answer; True to go on with the next."""
        answer = self.send(url, self.payload(message), settings.DISCORD_TIMEOUT_SECONDS)
        status = answer.status
        rows = Message.objects.filter(pk=message.pk)
        hooks = Webhook.objects.filter(pk=hook.pk)
        now = timezone.now()
        if status is not None and 200 <= status < 300:
            found = str(answer.json().get("id") or "")[:32]
            rows.update(state=Message.State.SENT, sent_at=now, maybe_sent=False, discord_id=found)
            pause = bucket_pause(answer)
            hook.failures = hook.refusals = 0
            hooks.update(
                failures=0,
                refusals=0,
                last_error="",
                last_sent_at=now,
                retry_at=_later(pause) if pause else None,
            )
            return pause is None
        if status == 429:
            rows.update(maybe_sent=False)
            hooks.update(retry_at=_later(retry_after(answer)))
            return False
        if status in REFUSED:
            rows.update(maybe_sent=False)
            self.stop_hook(hook, REFUSED[status] + WHAT_NOW)
            return False
        if status in (400, 413):
            reason = answer.reason()
            rows.update(state=Message.State.DROPPED, maybe_sent=False, error=reason)
            hook.refusals += 1
            hooks.update(refusals=hook.refusals, last_error=f"Discord refused a message: {reason}")
            if hook.refusals >= REFUSALS_TO_STOP:
                self.stop_hook(
                    hook, f"Discord refused the last {hook.refusals} messages: {reason}." + WHAT_NOW
                )
                return False
            return True
        if status is not None and status < 500:
            rows.update(maybe_sent=False)  # a definite refusal: nothing was posted
        hook.failures += 1
        error = answer.error or f"Discord answered {status} ({answer.reason()})"
        hooks.update(
            failures=hook.failures, retry_at=_later(backoff(hook.failures)), last_error=error
        )
        return False

    def stop_hook(self, hook: Webhook, problem: str) -> None:
        log.warning("discord hook %s (%s) stopped: %s", hook.pk, hook.url_hint, problem)
        Webhook.objects.filter(pk=hook.pk).update(
            status=Webhook.Status.BROKEN,
            problem=problem,
            problem_at=timezone.now(),
            retry_at=None,
            failures=0,
            refusals=0,
        )


# --------------------------------------------------------------------------- in the server

_started = threading.Lock()
_running: tuple[Worker, threading.Thread] | None = None


def start_in_server() -> threading.Thread | None:
    """Start delivering from a thread of this process when DISCORD_WORKER_IN_SERVER is on
    (`make run`: the embedded default, one daphne process); once per process.

    A thread rather than a process of its own: it lives and dies with the server, so
    `make run` has nothing more to start, watch or stop, and it is woken the moment a
    message is queued in this process. It only waits on the network and writes a row
    per message, so the table does not feel it; a production setup runs
    `manage.py discord_worker` beside its daphne processes instead (docs/deploy.md)."""
    global _running
    if not settings.DISCORD_WORKER_IN_SERVER:
        return None
    with _started:
        if _running is None:
            worker = Worker(f"{socket.gethostname()}:{os.getpid()}:server")
            thread = threading.Thread(target=worker.run, name="discord-worker", daemon=True)
            thread.start()
            _running = (worker, thread)
        return _running[1]


def stop_in_server(timeout: float = 10.0) -> None:
    """Stop the server's delivery thread (tests; the daemon thread ends with the process)."""
    global _running
    with _started:
        if _running is not None:
            worker, thread = _running
            worker.stop()
            thread.join(timeout)
            _running = None
