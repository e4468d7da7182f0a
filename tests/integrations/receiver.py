"""A stand-in for Discord's webhook endpoint: a real HTTP server on 127.0.0.1, in a thread.

It enforces what Discord enforces, and writes down every breach as a `violation` (the
tests assert there is none): content ≤ 2,000 characters, ≤ 10 embeds, title ≤ 256,
description ≤ 4,096, ≤ 25 fields of name ≤ 256 and value ≤ 1,024 (neither empty), footer
≤ 2,048, author ≤ 256, 6,000 for all embeds together; `?wait=true`; no mention parsing;
a rate-limit bucket announced in `X-RateLimit-*` headers; and a `429` with `Retry-After`
that the client must honour (a post before that time is a violation, and is refused
again).

A test scripts what a hook answers next (`then(hook, ...)`): a failure status, a 429, a
request that takes longer than the client waits, or one that is saved and then never
answered (the worker is killed while it waits). A message counts as posted (`posts`)
when it is saved, as Discord saves it: before the answer is sent.
"""

from __future__ import annotations

import json
import math
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

PATH = re.compile(r"/api/webhooks/(\d+)/([A-Za-z0-9_-]+)")
TOKEN = "T" * 68


def webhook_id(n: int) -> str:
    return str(100000000000000000 + n)


@dataclass
class Post:
    hook: str
    payload: dict[str, Any]
    at: float

    @property
    def text(self) -> str:
        return json.dumps(self.payload, ensure_ascii=False)

    @property
    def seqs(self) -> list[int]:
        """The event numbers the post's footer names ("Rollcall #12 · ...")."""
        found = []
        for embed in self.payload.get("embeds", [])[:1]:
            m = re.match(r"Rollcall #(\d+)", (embed.get("footer") or {}).get("text", ""))
            if m:
                found.append(int(m.group(1)))
        return found


def limit_problems(payload: Any) -> list[str]:
    """What Discord would refuse in this body."""
    if not isinstance(payload, dict):
        return ["the body is not a JSON object"]
    problems = []
    content = payload.get("content") or ""
    embeds = payload.get("embeds") or []
    if not content and not embeds:
        problems.append("neither content nor embeds")
    if len(content) > 2000:
        problems.append(f"content of {len(content)} characters")
    if len(embeds) > 10:
        problems.append(f"{len(embeds)} embeds")
    total = 0
    for embed in embeds:
        sizes = {
            "title": (len(embed.get("title", "")), 256),
            "description": (len(embed.get("description", "")), 4096),
            "footer": (len((embed.get("footer") or {}).get("text", "")), 2048),
            "author": (len((embed.get("author") or {}).get("name", "")), 256),
        }
        for name, (size, most) in sizes.items():
            if size > most:
                problems.append(f"an embed {name} of {size} characters")
            total += size
        for key in ("title", "description"):
            if key in embed and not embed[key]:
                problems.append(f"an empty embed {key}")
        fields = embed.get("fields") or []
        if len(fields) > 25:
            problems.append(f"{len(fields)} fields")
        for f in fields:
            name, value = f.get("name", ""), f.get("value", "")
            if not name or not value:
                problems.append("an empty field name or value")
            if len(name) > 256 or len(value) > 1024:
                problems.append(f"a field of {len(name)}/{len(value)} characters")
            total += len(name) + len(value)
    if total > 6000:
        problems.append(f"embeds of {total} characters together")
    if payload.get("allowed_mentions") != {"parse": []}:
        problems.append("mentions would be parsed")
    return problems


@dataclass
class HookState:
    script: list[tuple] = field(default_factory=list)
    blocked_until: float = 0.0  # a 429 asked the client to wait until then
    bucket: list[float] = field(default_factory=list)  # times of the posts in the window
    revoked: bool = False


class Receiver:
    def __init__(self, *, bucket_size: int = 5, bucket_seconds: float = 0.2) -> None:
        self.lock = threading.Lock()
        self.posts: list[Post] = []
        self.violations: list[str] = []
        self.hooks: dict[str, HookState] = {}
        self.requests = 0
        self.bucket_size = bucket_size
        self.bucket_seconds = bucket_seconds
        self.release = threading.Event()  # lets a request held by ("hold",) finish
        self.holding = threading.Event()  # set while a request is held
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                receiver.handle(self)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    # ------------------------------------------------------------------ set-up

    def start(self) -> Receiver:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/"

    def url(self, n: int) -> str:
        return f"{self.base}api/webhooks/{webhook_id(n)}/{TOKEN}"

    def state(self, n: int) -> HookState:
        return self.hooks.setdefault(webhook_id(n), HookState())

    def then(self, n: int, *answers: tuple) -> None:
        """Script the next answers of hook n: ("status", 503), ("limit", seconds),
        ("slow", seconds) (saved after that long), ("hold",) (saved, then held until
        `release` is set)."""
        with self.lock:
            self.state(n).script.extend(answers)

    def revoke(self, n: int) -> None:
        with self.lock:
            self.state(n).revoked = True

    def posts_to(self, n: int) -> list[Post]:
        with self.lock:
            return [p for p in self.posts if p.hook == webhook_id(n)]

    # ------------------------------------------------------------------ answering

    def answer(self, handler, status: int, body: dict, headers: dict | None = None) -> None:
        data = json.dumps(body).encode()
        try:
            handler.send_response(status)
            handler.send_header("Content-Type", "application/json")
            handler.send_header("Content-Length", str(len(data)))
            for name, value in (headers or {}).items():
                handler.send_header(name, value)
            handler.end_headers()
            handler.wfile.write(data)
        except OSError:
            pass  # the client is gone (killed, or it stopped waiting)

    def handle(self, handler) -> None:
        parts = urlsplit(handler.path)
        found = PATH.fullmatch(parts.path)
        length = int(handler.headers.get("Content-Length") or 0)
        raw = handler.rfile.read(length)
        if found is None or found.group(2) != TOKEN:
            return self.answer(handler, 401, {"message": "Invalid Webhook Token", "code": 50027})
        hook_id = found.group(1)
        now = time.monotonic()
        with self.lock:
            self.requests += 1
            hook = self.hooks.setdefault(hook_id, HookState())
            if parse_qs(parts.query).get("wait") != ["true"]:
                self.violations.append(f"{hook_id}: posted without ?wait=true")
            if hook.revoked:
                return self.answer(handler, 404, {"message": "Unknown Webhook", "code": 10015})
            if now < hook.blocked_until:
                self.violations.append(f"{hook_id}: posted {hook.blocked_until - now:.3f}s early")
                return self.limited(handler, hook, hook.blocked_until - now)
            hook.bucket = [t for t in hook.bucket if now - t < self.bucket_seconds]
            if len(hook.bucket) >= self.bucket_size:
                self.violations.append(f"{hook_id}: went past the announced rate limit")
                return self.limited(handler, hook, self.bucket_seconds)
            try:
                payload = json.loads(raw)
            except ValueError:
                payload = None
            problems = limit_problems(payload)
            if problems:
                self.violations.append(f"{hook_id}: {', '.join(problems)}")
                return self.answer(handler, 400, {"message": "Invalid Form Body", "code": 50035})
            step = hook.script.pop(0) if hook.script else ("ok",)
            if step[0] == "status":
                return self.answer(handler, step[1], {"message": "Server error", "code": 0})
            if step[0] == "limit":
                return self.limited(handler, hook, step[1])
            hook.bucket.append(now)
            remaining = self.bucket_size - len(hook.bucket)
            if step[0] != "slow":
                self.posts.append(Post(hook_id, payload, now))
            number = len(self.posts)
        if step[0] == "slow":
            time.sleep(step[1])
            with self.lock:
                self.posts.append(Post(hook_id, payload, time.monotonic()))
                number = len(self.posts)
        if step[0] == "hold":
            self.holding.set()
            self.release.wait(30)
        reset = self.bucket_seconds - (now - hook.bucket[0]) if hook.bucket else 0.0
        self.answer(
            handler,
            200,
            {"id": str(900000000000000000 + number), "content": ""},
            {
                "X-RateLimit-Limit": str(self.bucket_size),
                "X-RateLimit-Remaining": str(remaining),
                "X-RateLimit-Reset-After": f"{max(reset, 0.0):.3f}",
                "X-RateLimit-Bucket": "test-bucket",
            },
        )

    def limited(self, handler, hook: HookState, seconds: float) -> None:
        """429 as Discord sends it: retry_after in the body (seconds, a float) and
        Retry-After in the headers (whole seconds, rounded up)."""
        hook.blocked_until = max(hook.blocked_until, time.monotonic() + seconds)
        self.answer(
            handler,
            429,
            {"message": "You are being rate limited.", "retry_after": seconds, "global": False},
            {"Retry-After": str(math.ceil(seconds)), "X-RateLimit-Scope": "shared"},
        )
