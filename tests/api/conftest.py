"""API fixtures: the table's campaign per system (tests/table/conftest.py), a token per
member, and readers for the JSON endpoints and the event stream."""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass

import pytest
from django.test import AsyncClient, Client

from api import access
from campaigns.models import Membership
from table.reading import rendering
from tests.table.conftest import faces, other_player, table_for  # noqa: F401 - fixtures
from tests.table.sockets import HANG_GUARD


def token_for(campaign, user, name: str = "bot") -> str:
    membership = Membership.objects.get(campaign=campaign, user=user)
    return access.create_token(membership, name)[1]


def bearer(token: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {token}"}


def get(url: str, token: str | None, **query):
    """A GET with the token and no session, as a bot would send it."""
    return Client().get(url, query, **(bearer(token) if token else {}))


def api_url(campaign_id: int, rest: str = "") -> str:
    return f"/api/v1/campaigns/{campaign_id}/{rest}"


@dataclass
class Message:
    id: int | None
    event: str | None
    data: dict | None
    comment: bool = False


def parse(block: str) -> Message:
    fields: dict[str, str] = {}
    comment = False
    for line in block.split("\n"):
        if line.startswith(":"):
            comment = True
        elif ":" in line:
            name, _, value = line.partition(":")
            fields[name] = value[1:] if value.startswith(" ") else value
    data = json.loads(fields["data"]) if "data" in fields else None
    seq = int(fields["id"]) if "id" in fields else None
    return Message(seq, fields.get("event"), data, comment and not fields)


class Stream:
    """An open Server-Sent Events answer, read message by message."""

    def __init__(self, response) -> None:
        self.response = response
        self.chunks = response.streaming_content.__aiter__()
        self.buffer = ""

    async def next(self, timeout: float = HANG_GUARD) -> Message:
        while "\n\n" not in self.buffer:
            chunk = await asyncio.wait_for(self.chunks.__anext__(), timeout)
            self.buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
        block, _, self.buffer = self.buffer.partition("\n\n")
        return parse(block)

    async def events(self, count: int, timeout: float = HANG_GUARD) -> list[Message]:
        """The next `count` messages with data (events, ends), skipping retry lines and
        keep-alive comments, within `timeout` seconds in all."""
        deadline = time.monotonic() + timeout
        out: list[Message] = []
        while len(out) < count:
            message = await self.next(max(deadline - time.monotonic(), 0.001))
            if message.data is not None:
                out.append(message)
        return out

    async def close(self) -> None:
        await self.chunks.aclose()


async def open_stream(url: str, token: str | None, headers: dict | None = None, **query):
    """(response, Stream or None): the stream when the answer is 200."""
    sent = {**({"Authorization": f"Bearer {token}"} if token else {}), **(headers or {})}
    response = await AsyncClient().get(url, query, headers=sent)
    if response.status_code != 200:
        return response, None
    return response, Stream(response)


@pytest.fixture(autouse=True)
def fresh_cards():
    """table.reading.rendering caches cards by event pk; test databases reuse pks."""
    rendering.clear_cache()
    yield
    rendering.clear_cache()


@pytest.fixture
def quiet_streams(settings):
    """Streams read again only when the table has news: a keep-alive period longer than
    any test, so what arrives came through the table's fan-out."""
    settings.API_STREAM_KEEPALIVE = 120
