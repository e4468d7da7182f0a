"""Helpers for socket tests: a logged-in websocket to a campaign's table."""

from __future__ import annotations

import json
import re

from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from rollcall.asgi import application

SEQ = re.compile(r'data-seq="(\d+)"')
# Seconds to wait for something that must come: only a hang takes this long, so a
# machine busy with other work is never too slow for a test.
HANG_GUARD = 30.0


@sync_to_async
def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


async def open_socket(user, campaign, *, last_seq: int | None = 0, origin=b"http://testserver"):
    """Connect as `user` (None: anonymous); returns (communicator, connected, close code)."""
    headers = [(b"host", b"testserver")]
    if origin:
        headers.append((b"origin", origin))
    if user is not None:
        headers.append((b"cookie", f"sessionid={await session_cookie(user)}".encode()))
    path = f"/ws/campaign/{campaign.pk}/"
    if last_seq is not None:
        path += f"?last_seq={last_seq}"
    comm = WebsocketCommunicator(application, path, headers=headers)
    # What `caught_up` waits for: the replay a last_seq asks for (none without one).
    comm.head = 0 if last_seq is None else await _head(campaign)
    connected, code = await comm.connect()
    return comm, connected, code


@sync_to_async
def _head(campaign) -> int:
    from table.models import TableEvent

    return (
        TableEvent.objects.filter(campaign=campaign)
        .order_by("-seq")
        .values_list("seq", flat=True)
        .first()
        or 0
    )


async def caught_up(comm) -> list[str]:
    """What a socket just opened replays: every event up to the log's head when it
    connected (each member is sent every seq, a hidden one sealed), then whatever else
    comes before a quiet moment. Waiting for the head, not for quiet alone, keeps a busy
    machine's late replay from being read as the answer to what the test sends next."""
    got: list[str] = []
    while max(seqs(got), default=0) < comm.head and not any("reload" in m for m in got):
        got.append(await comm.receive_from(timeout=HANG_GUARD))
    return got + await messages(comm)


async def messages(comm, expect: int = 0, quiet: float = 0.1) -> list[str]:
    """The next `expect` messages (waiting up to HANG_GUARD for each), then everything
    else that arrives until the socket stays quiet for `quiet` seconds."""
    got = [await comm.receive_from(timeout=HANG_GUARD) for _ in range(expect)]
    while not await comm.receive_nothing(timeout=quiet):
        got.append(await comm.receive_from())
    return got


async def closed_with(comm, timeout: float = HANG_GUARD):
    """The close code the server sent (None if it did not close within `timeout` of quiet).

    The default only guards against a hang: it is spent only when a close that was
    expected never comes."""
    while not await comm.receive_nothing(timeout=timeout):
        output = await comm.receive_output()
        if output["type"] == "websocket.close":
            return output.get("code")
    return None


def seqs(received: list[str]) -> list[int]:
    """The event seq of each event message (the first data-seq of each)."""
    found = []
    for text in received:
        match = SEQ.search(text)
        if match and 'hx-swap-oob="afterbegin:#log"' in text:
            found.append(int(match.group(1)))
    return found


async def send(comm, payload) -> None:
    await comm.send_to(text_data=payload if isinstance(payload, str) else json.dumps(payload))
