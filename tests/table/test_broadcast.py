"""The process-local fan-out: messages released in log order per audience, late
predecessors waited for briefly, and the channel-layer path used across processes."""

import asyncio
import time

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from table.live import broadcast
from table.reading import reads as reading

from .sockets import HANG_GUARD


class FakeSocket:
    def __init__(self) -> None:
        self.got: list[dict] = []

    async def push(self, message: dict) -> None:
        self.got.append(message)


def msg(seq, after):
    return {"seq": seq, "after": after, "html": f"<p>{seq}</p>"}


async def settle():
    for _ in range(5):
        await asyncio.sleep(0)


async def until(condition) -> None:
    """Poll `condition`; failing after HANG_GUARD seconds only guards against a hang."""
    deadline = time.monotonic() + HANG_GUARD
    while not condition():
        assert time.monotonic() < deadline, "never happened"
        await asyncio.sleep(0.01)


async def test_out_of_order_messages_are_released_in_order():
    hub = broadcast.Hub(asyncio.get_running_loop())
    socket = FakeSocket()
    key = (1, "players")
    await hub.join(socket, key)
    hub.prime(key, 2)
    hub.deliver(key, msg(5, 4))  # 3 and 4 are late
    hub.deliver(key, msg(4, 3))
    await settle()
    assert socket.got == []
    hub.deliver(key, msg(3, 2))
    hub.deliver(key, msg(3, 2))  # a duplicate is dropped
    await settle()
    assert [m["seq"] for m in socket.got] == [3, 4, 5]


async def gap_held_past_the_hold(monkeypatch, read_log) -> tuple:
    """A GM socket whose stream started at seq 0 is sent 3, then 2 (1 never comes), and
    the hold passes; read_log stands in for reading the log. (hub, key, socket)"""
    monkeypatch.setattr(broadcast, "HOLD_SECONDS", 0.05)
    monkeypatch.setattr(reading, "fetch_stream", read_log)
    hub = broadcast.Hub(asyncio.get_running_loop())
    socket = FakeSocket()
    key = (1, "gm")
    await hub.join(socket, key)
    hub.prime(key, 0)
    hub.deliver(key, msg(3, 2))
    hub.deliver(key, msg(2, 1))
    await until(lambda: any(m["seq"] == 3 for m in socket.got))  # released past the hold
    return hub, key, socket


async def test_a_missing_predecessor_is_read_from_the_log(monkeypatch):
    """A predecessor whose publish never came (Redis down, or its process died after
    committing) is read from the log after the hold and sent first: no gap."""
    reads = []

    def from_log(campaign_id, audience, after, limit):
        reads.append((campaign_id, audience, after))
        messages = [{"seq": 1, "html": "<p>1</p>"}, {"seq": 2, "html": "<p>2</p>"}]
        return {"head": 3, "reload": None, "messages": messages}

    hub, key, socket = await gap_held_past_the_hold(monkeypatch, from_log)
    assert [m["seq"] for m in socket.got] == [1, 2, 3]
    assert reads == [(1, "gm", 0)]  # once for the audience, from what it had
    hub.deliver(key, msg(1, 0))  # too late: already passed
    await settle()
    assert [m["seq"] for m in socket.got] == [1, 2, 3]


async def test_a_missing_predecessor_is_given_up_on_when_the_log_cannot_be_read(monkeypatch):
    def unreachable(*args):
        raise RuntimeError("database unreachable")

    _, _, socket = await gap_held_past_the_hold(monkeypatch, unreachable)
    assert [m["seq"] for m in socket.got] == [2, 3]  # the client catches up on resume


async def test_messages_without_seq_and_leaving(monkeypatch):
    hub = broadcast.Hub(asyncio.get_running_loop())
    a, b = FakeSocket(), FakeSocket()
    await hub.join(a, (1, "gm"))
    await hub.join(b, (1, "players"))
    hub.deliver((1, "gm"), {"html": "<p>note</p>"})
    await settle()
    assert a.got and not b.got
    hub.leave(a, (1, "gm"))
    assert (1, "gm") not in hub.sockets and (1, "gm") not in hub.streams


@pytest.mark.django_db(transaction=True)
async def test_the_channel_layer_path_carries_one_message_per_process(monkeypatch):
    """With a cross-process layer, the hub subscribes one channel of its own to each
    campaign's group and fans out locally, to the sockets of each audience."""
    monkeypatch.setattr(broadcast, "FORCE_LAYER", True)
    hub = broadcast.hub()
    sockets = [FakeSocket() for _ in range(3)]
    for socket in sockets:
        await hub.join(socket, (7, "players"))
    assert hub.subscribed == {7}
    await sync_to_async(broadcast.publish)(7, "players", msg(1, 0))
    await sync_to_async(broadcast.send_html)(7, "<p>all</p>")
    await until(lambda: all(len(s.got) == 2 for s in sockets))
    assert all([m.get("seq") for m in s.got] == [1, None] for s in sockets)
    for socket in sockets:
        hub.leave(socket, (7, "players"))
    assert not hub.subscribed
    hub.listener.cancel()


@pytest.mark.django_db(transaction=True)
async def test_one_layer_message_carries_every_audience_of_a_campaign(monkeypatch):
    """Every publish to Redis is a round trip and every process decodes every message of
    the campaigns it serves: a batch's GM and player texts of one campaign travel in one
    group message, and each audience's sockets still get only their own."""
    monkeypatch.setattr(broadcast, "FORCE_LAYER", True)
    layer = get_channel_layer()
    groups: list[str] = []
    send = layer.group_send

    async def counted(group, message):
        groups.append(group)
        await send(group, message)

    monkeypatch.setattr(layer, "group_send", counted)
    hub = broadcast.hub()
    gm, player = FakeSocket(), FakeSocket()
    await hub.join(gm, (8, "gm"))
    await hub.join(player, (8, "players"))
    assert hub.subscribed == {8}

    def commit_two_events() -> list:
        with broadcast.collecting() as items:
            for seq in (1, 2):
                broadcast.publish(8, "gm", {"seq": seq, "after": seq - 1, "html": f"gm {seq}"})
                broadcast.publish(8, "players", {"seq": seq, "after": seq - 1, "html": f"{seq}"})
        return items

    broadcast.dispatch_here(await sync_to_async(commit_two_events)())
    await until(lambda: len(gm.got) == len(player.got) == 2)
    assert groups == ["table.8"]
    assert [m["html"] for m in gm.got] == ["gm 1", "gm 2"]
    assert [m["html"] for m in player.got] == ["1", "2"]
    hub.leave(gm, (8, "gm"))
    assert hub.subscribed == {8}  # the players' socket is still here
    hub.leave(player, (8, "players"))
    assert not hub.subscribed
    hub.listener.cancel()


@pytest.mark.django_db(transaction=True)
async def test_own_messages_reach_this_process_at_once_and_others_come_over_the_layer(
    monkeypatch,
):
    """With a cross-process layer, what this process publishes goes to its own sockets
    straight away and to the layer for the others; its echo from the layer is skipped
    (each message once), and what another process published arrives through the layer."""
    monkeypatch.setattr(broadcast, "FORCE_LAYER", True)
    layer = get_channel_layer()
    published: list[dict] = []
    send = layer.group_send

    async def recorded(group, message):
        published.append(message)
        await send(group, message)

    monkeypatch.setattr(layer, "group_send", recorded)
    hub = broadcast.hub()
    socket = FakeSocket()
    await hub.join(socket, (9, "players"))
    await sync_to_async(broadcast.publish)(9, "players", {"html": "<p>ours</p>"})
    await until(lambda: socket.got)
    assert [m["origin"] for m in published] == [broadcast.ORIGIN]
    elsewhere = {"html": "<p>theirs</p>"}
    await send(
        "table.9",
        {"type": "table.fanout", "campaign": 9, "items": [["players", elsewhere]], "origin": "b"},
    )
    await until(lambda: len(socket.got) == 2)
    # The layer keeps the group's order: our echo came (and was skipped) before theirs.
    assert [m["html"] for m in socket.got] == ["<p>ours</p>", "<p>theirs</p>"]
    hub.leave(socket, (9, "players"))
    hub.listener.cancel()
