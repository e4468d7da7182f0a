"""Under daphne a card reaches the sockets of an audience as one websocket frame built
once and written to each of them (table.live.broadcast.Frames, TableConsumer.push_frame,
rollcall.wslimits.frame_writer): what each member reads is what the general path sends,
a whisper's author still reads it whole and other players its sealed line."""

from __future__ import annotations

import asyncio
import time

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from websockets.frames import Frame, Opcode
from websockets.streams import StreamReader

from rollcall.asgi import table_sockets
from table.live.broadcast import text_frame

from .sockets import HANG_GUARD, _head, caught_up, messages, open_socket, send, seqs, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

GOONS = {"die": "d8", "trait": "Goons", "group": "situation"}


def read_frame(data: bytes) -> Frame:
    """The one frame in `data`, parsed as a browser parses a server's frame."""
    reader = StreamReader()
    reader.feed_data(data)
    reader.feed_eof()
    parser = Frame.parse(reader.read_exact, mask=False)
    try:
        next(parser)
    except StopIteration as done:
        return done.value
    raise AssertionError("the frame was cut short")


@pytest.mark.parametrize("size", [0, 125, 126, 65535, 65536, 200_000])
def test_a_frame_reads_back_as_the_same_text_whatever_its_length(size):
    text = ("é" * size)[:size] if size else ""
    frame = read_frame(text_frame(text))
    assert frame.fin and frame.opcode is Opcode.TEXT
    assert frame.data.decode("utf-8") == text


class Framed:
    """A socket opened as daphne opens it: the table writes its cards as frames here."""

    def __init__(self) -> None:
        self.frames: list[bytes] = []

    def texts(self) -> list[str]:
        return [read_frame(frame).data.decode("utf-8") for frame in self.frames]

    async def open(self, user, campaign) -> WebsocketCommunicator:
        async def app(scope, receive, send):
            extra = {"server_send": send, "frame_send": self.frames.append}
            return await table_sockets({**scope, **extra}, receive, send)

        headers = [
            (b"host", b"testserver"),
            (b"origin", b"http://testserver"),
            (b"cookie", f"sessionid={await session_cookie(user)}".encode()),
        ]
        comm = WebsocketCommunicator(app, f"/ws/campaign/{campaign.pk}/?last_seq=0", headers)
        comm.head = await _head(campaign)
        connected, _ = await comm.connect()
        assert connected
        # Live once its replay is out (a socket still replaying takes the general path):
        # the replay ends with the log's head, so the fixture's log is never empty.
        await caught_up(comm)
        return comm

    async def wait(self, count: int) -> None:
        """Until `count` frames came; the bound only guards against a hang."""
        deadline = time.monotonic() + HANG_GUARD
        while len(self.frames) < count:
            assert time.monotonic() < deadline, f"{len(self.frames)} of {count} frames came"
            await asyncio.sleep(0.01)


@pytest.fixture
async def t(table_for):
    table = await sync_to_async(table_for)("serenity")
    # One event before any socket opens: each socket's replay then ends with a card the
    # test can wait for, and the socket is live (framed delivery) after it.
    await sync_to_async(table.perform)(table.gm, "roll", {"pool": [GOONS]})
    return table


async def test_each_audience_gets_its_card_framed_once_and_reads_what_the_general_path_sends(t):
    gm, player, other = Framed(), Framed(), Framed()
    comms = [await gm.open(t.gm, t.campaign), await player.open(t.player, t.campaign)]
    comms.append(await other.open(t.other, t.campaign))
    plain, connected, _ = await open_socket(t.observer, t.campaign)  # no frame writer
    assert connected
    await caught_up(plain)

    await send(comms[0], {"type": "act", "action": "roll", "request": {"pool": [GOONS]}})
    for framed in (gm, player, other):
        await framed.wait(1)
    by_path = await messages(plain, 1)

    assert seqs(gm.texts()) == seqs(player.texts()) == seqs(by_path) == [2]
    assert player.texts() == other.texts() == by_path  # players and observers alike
    assert player.frames[0] is other.frames[0]  # one frame for the audience
    assert "GM tools" in gm.texts()[0] and "GM tools" not in player.texts()[0]
    assert "Goons" in gm.texts()[0] and "Goons" in player.texts()[0]
    for comm in comms:  # nothing of the cards went the general way to a framed socket
        assert await comm.receive_nothing(timeout=0.1)
        await comm.disconnect()
    await plain.disconnect()


async def test_a_whisper_reaches_its_author_whole_and_other_players_sealed(t):
    gm, author, other = Framed(), Framed(), Framed()
    comms = [await gm.open(t.gm, t.campaign), await author.open(t.player, t.campaign)]
    comms.append(await other.open(t.other, t.campaign))

    await send(comms[1], {"type": "say", "mode": "whisper", "text": "the safe is open"})
    for framed in (gm, author, other):
        await framed.wait(1)

    assert "the safe is open" in gm.texts()[0]
    assert "the safe is open" in author.texts()[0]
    assert "the safe is open" not in other.texts()[0]
    assert "whispered to the GM" in other.texts()[0]
    for comm in comms:
        await comm.disconnect()
