"""The table socket over rollcall.asgi.application: who may connect, what each socket
receives (never a secret or blind event on a player's socket, not even in replay),
replay on reconnect, limits on what a socket may send, and role re-checks."""

import asyncio
import json
import time

import pytest
from asgiref.sync import sync_to_async

from campaigns.models import Membership, Role
from table.live import broadcast
from table.models import TableEvent
from table.talk import consumers
from table.writing import actions

from .sockets import HANG_GUARD, closed_with, messages, open_socket, send, seqs

pytestmark = pytest.mark.django_db(transaction=True)

FIGHTIN = {"die": "d10", "trait": "Fightin'", "group": "stylins"}
GOONS = {"die": "d8", "trait": "Goons", "group": "situation"}


@pytest.fixture
async def t(table_for):
    return await sync_to_async(table_for)("serenity")


def act(action="roll", request=None, **fields):
    return {"type": "act", "action": action, "request": request or {"pool": [GOONS]}, **fields}


def player_roll(t, **fields):
    return act(request={"pool": [FIGHTIN]}, sheet_id=t.pc.pk, **fields)


@sync_to_async
def perform(t, user, **kwargs):
    sheet = kwargs.pop("sheet_id", t.pc.pk if user == t.player else None)
    pool = [FIGHTIN] if sheet else [GOONS]
    return actions.perform(t.campaign, user, "roll", {"pool": pool}, sheet_id=sheet, **kwargs)


@sync_to_async
def events_count(t):
    return TableEvent.objects.filter(campaign=t.campaign).count()


async def close_all(*comms):
    for comm in comms:
        await comm.disconnect()


async def test_members_connect_others_are_refused_after_accept(t):
    for user, code in ((None, 4401), (t.outsider, 4403)):
        comm, connected, _ = await open_socket(user, t.campaign)
        assert connected  # accepted first, then closed with a reason
        assert await closed_with(comm) == code
    _, connected, _ = await open_socket(t.player, t.campaign, origin=None)
    assert not connected  # rollcall/wsorigin.py: no Origin header, no socket
    for user in (t.gm, t.player, t.observer):
        comm, connected, _ = await open_socket(user, t.campaign)
        assert connected and await closed_with(comm, 0.1) is None
        await comm.disconnect()


async def test_a_roll_reaches_every_member_once(t, faces):
    gm, _, _ = await open_socket(t.gm, t.campaign)
    player, _, _ = await open_socket(t.player, t.campaign)
    observer, _, _ = await open_socket(t.observer, t.campaign)
    await send(player, player_roll(t))
    for comm in (gm, player, observer):
        received = await messages(comm, 1)
        assert seqs(received) == [1]
        assert 'id="event-1"' in received[0]
    await close_all(gm, player, observer)


async def test_secret_and_blind_rolls_reach_players_sealed_until_revealed(t, faces):
    """Live and in replay, players get a sealed card (seq and commitment, nothing of the
    roll); the GM sees the rolls; a reveal opens the sealed card on every socket."""
    gm, _, _ = await open_socket(t.gm, t.campaign)
    other, _, _ = await open_socket(t.other, t.campaign)
    observer, _, _ = await open_socket(t.observer, t.campaign)
    roller, _, _ = await open_socket(t.player, t.campaign)
    await send(gm, act(visibility="gm"))
    assert seqs(await messages(gm, 1)) == [1]
    await send(roller, player_roll(t, visibility="blind"))
    assert seqs(await messages(gm, 1)) == [2]
    secret, blind = [await sync_to_async(TableEvent.objects.get)(seq=n) for n in (1, 2)]

    def sealed_only(received: list[str]) -> None:
        text = "".join(received)
        assert text.count("sealed-card") == len(received)
        for hidden in (secret, blind):
            assert hidden.outcome["headline"] not in text
            assert hidden.seal["salt"] not in text and hidden.hash not in text

    for comm in (other, observer):
        received = await messages(comm, 2)
        assert seqs(received) == [1, 2]
        sealed_only(received)
        assert secret.seal["commitment"] in received[0]
    received = await messages(roller, 2)
    assert "blind roll went to the GM" in "".join(received)
    sealed_only([m for m in received if "data-seq" in m])
    # Replay from the start: the same sealed cards, nothing more.
    late, _, _ = await open_socket(t.other, t.campaign, last_seq=0)
    replayed = await messages(late, 2)
    assert seqs(replayed) == [1, 2]
    sealed_only(replayed)
    # The GM reveals the blind roll: the reveal, and its card opens with its salt.
    await send(gm, {"type": "reveal", "event_id": blind.pk})
    for comm in (other, observer, roller, late):
        received = await messages(comm, 1)
        assert seqs(received) == [3]
        assert blind.outcome["headline"] in received[0]
        assert 'id="event-2" hx-swap-oob="true"' in received[0]
        assert blind.seal["salt"] in received[0]
        assert secret.outcome["headline"] not in received[0]
    gm_received = await messages(gm, 1)
    assert seqs(gm_received) == [3] and 'id="event-2" hx-swap-oob="true"' in gm_received[0]
    await close_all(gm, other, observer, roller, late)


async def test_reconnect_replays_every_event_after_last_seq_once_in_order(t, faces):
    player, _, _ = await open_socket(t.player, t.campaign)
    await perform(t, t.gm)
    assert seqs(await messages(player, 1)) == [1]
    await player.disconnect()
    await perform(t, t.gm)
    await perform(t, t.gm, visibility="gm")
    await perform(t, t.player)
    again, _, _ = await open_socket(t.player, t.campaign, last_seq=1)
    assert seqs(await messages(again, 3)) == [2, 3, 4]  # 3 sealed
    await send(again, {"type": "resume", "last_seq": 1})  # nothing twice
    assert await messages(again) == []
    await perform(t, t.gm)
    assert seqs(await messages(again, 1)) == [5]
    await again.disconnect()


async def test_without_last_seq_the_socket_waits_for_resume(t, faces):
    """The page sends "resume" on open: events logged meanwhile follow the replay."""
    await perform(t, t.gm)
    page, _, _ = await open_socket(t.player, t.campaign, last_seq=None)
    await perform(t, t.gm)
    assert await messages(page) == []
    await send(page, {"type": "resume", "last_seq": 0})
    assert seqs(await messages(page, 2)) == [1, 2]
    await page.disconnect()


async def test_too_far_behind_is_told_to_reload(t, faces, settings):
    settings.TABLE_REPLAY_LIMIT = 2
    for _ in range(3):
        await perform(t, t.gm)
    comm, _, _ = await open_socket(t.player, t.campaign, last_seq=0)
    received = await messages(comm, 1)
    assert len(received) == 1 and 'data-reload="true"' in received[0]
    await perform(t, t.gm)
    assert seqs(await messages(comm, 1)) == [4]
    await comm.disconnect()


async def test_an_event_whose_broadcast_failed_arrives_on_resume(t, faces, monkeypatch):
    comm, _, _ = await open_socket(t.player, t.campaign)

    def down(*args, **kwargs):
        raise ConnectionError("redis is down")

    monkeypatch.setattr(broadcast, "publish", down)
    await send(comm, player_roll(t))
    deadline = time.monotonic() + HANG_GUARD  # stored, however busy the machine
    while await events_count(t) < 1:
        assert time.monotonic() < deadline, "the roll was never stored"
        await asyncio.sleep(0.02)
    assert seqs(await messages(comm, quiet=0.3)) == []
    assert await events_count(t) == 1
    monkeypatch.undo()
    await send(comm, {"type": "resume", "last_seq": 0})
    assert seqs(await messages(comm, 1)) == [1]
    await comm.disconnect()


async def test_rate_limit(t, faces, settings):
    settings.TABLE_SOCKET_RATE = 3
    settings.TABLE_SOCKET_WINDOW = 60
    comm, _, _ = await open_socket(t.player, t.campaign)
    for _ in range(4):
        await send(comm, player_roll(t))
    received = await messages(comm, 4)
    assert seqs(received) == [1, 2, 3]
    (limited,) = [r for r in received if 'data-code="rate_limited"' in r]
    assert "at most 3 messages every 60 seconds" in limited
    assert await events_count(t) == 3
    await comm.disconnect()


async def test_oversized_and_malformed_messages_change_nothing(t, settings):
    settings.TABLE_MAX_MESSAGE_BYTES = 200
    comm, _, _ = await open_socket(t.player, t.campaign)
    bad = [
        json.dumps(player_roll(t, padding="x" * 300)),
        "not json",
        "[1, 2]",
        json.dumps({"type": "dance"}),
        json.dumps({"type": "act", "action": "roll", "request": "{nope"}),
        json.dumps({"type": "act", "action": "roll", "sheet_id": "three"}),
        json.dumps({"type": "resume", "last_seq": "x"}),
    ]
    for text in bad:
        await send(comm, text)
    await comm.send_to(bytes_data=b"\x00\x01")
    received = await messages(comm, 8)
    codes = [r.split('data-code="')[1].split('"')[0] for r in received]
    assert codes == ["too_large"] + ["malformed"] * 7
    assert await events_count(t) == 0
    assert await closed_with(comm, 0.1) is None  # the socket stays open
    await comm.disconnect()


async def test_htmx_ws_send_form_values(t, faces):
    """htmx's ws extension sends form values as strings with a HEADERS object."""
    comm, _, _ = await open_socket(t.player, t.campaign)
    await send(
        comm,
        {
            "action": "roll",
            "sheet_id": str(t.pc.pk),
            "request": json.dumps({"pool": [FIGHTIN]}),
            "request.plot_points": "1",
            "visibility": "public",
            "HEADERS": {"HX-Request": "true", "HX-Trigger": "roll-form", "HX-Current-URL": "/"},
        },
    )
    assert seqs(await messages(comm, 1)) == [1]
    event = await sync_to_async(TableEvent.objects.get)(seq=1)
    assert event.request["plot_points"] == 1
    await comm.disconnect()


async def test_refusals_reply_to_the_sender_only(t, faces):
    gm, _, _ = await open_socket(t.gm, t.campaign)
    observer, _, _ = await open_socket(t.observer, t.campaign)
    other, _, _ = await open_socket(t.other, t.campaign)
    await send(observer, act())
    await send(other, player_roll(t))  # Mal is not Zed's character
    await send(other, act(visibility="gm", request={"pool": [FIGHTIN]}, sheet_id=t.other_pc.pk))
    (refused,) = await messages(observer, 1)
    assert "Observers can watch but not act" in refused and 'data-kind="error"' in refused
    replies = await messages(other, 2)
    assert "your own characters" in replies[0] and "Only the GM can roll in secret" in replies[1]
    assert await messages(gm) == []
    await close_all(gm, observer, other)


async def test_a_member_removed_mid_session_is_closed(t):
    comm, _, _ = await open_socket(t.player, t.campaign)
    await sync_to_async(Membership.objects.filter(campaign=t.campaign, user=t.player).delete)()
    assert await closed_with(comm) == consumers.CLOSE_NOT_A_MEMBER


async def test_a_role_change_closes_the_socket(t):
    comm, _, _ = await open_socket(t.gm, t.campaign)
    player = await sync_to_async(Membership.objects.get)(campaign=t.campaign, user=t.player)
    player.role = Role.GM
    await sync_to_async(player.save)()  # another GM: the first GM's socket is untouched
    assert await closed_with(comm, 0.2) is None
    gm = await sync_to_async(Membership.objects.get)(campaign=t.campaign, user=t.gm)
    gm.role = Role.PLAYER
    await sync_to_async(gm.save)()
    assert await closed_with(comm) == consumers.CLOSE_ROLE_CHANGED


async def test_every_message_rechecks_the_role(t, faces):
    """Even without the membership signal, the next message finds the change."""
    player, _, _ = await open_socket(t.player, t.campaign)
    gm, _, _ = await open_socket(t.gm, t.campaign)
    await sync_to_async(Membership.objects.filter(campaign=t.campaign, user=t.player).update)(
        role=Role.OBSERVER
    )
    await send(player, player_roll(t))
    assert "Observers can watch but not act" in (await messages(player, 1))[0]
    await sync_to_async(Membership.objects.filter(campaign=t.campaign, user=t.gm).update)(
        role=Role.PLAYER
    )
    await send(gm, act())
    assert await closed_with(gm) == consumers.CLOSE_ROLE_CHANGED
    members = Membership.objects.filter(campaign=t.campaign, user=t.player)
    await sync_to_async(lambda: members._raw_delete(members.db))()
    await send(player, {"type": "resume", "last_seq": 0})
    assert await closed_with(player) == consumers.CLOSE_NOT_A_MEMBER
    assert await events_count(t) == 0


async def test_gm_voids_over_the_socket(t, faces):
    gm, _, _ = await open_socket(t.gm, t.campaign)
    player, _, _ = await open_socket(t.player, t.campaign)
    await send(player, player_roll(t))
    await messages(gm, 1)
    await messages(player, 1)
    await send(player, {"type": "void", "seq": 1, "reason": "misclick"})
    assert "Only the GM can void" in (await messages(player, 1))[0]
    await send(gm, {"type": "void", "seq": 1, "reason": "misclick"})
    received = await messages(player, 1)
    assert seqs(received) == [2] and 'id="event-1" hx-swap-oob="true"' in received[0]
    await close_all(gm, player)


async def test_open_sheet_pages_hear_of_changed_points(t, faces):
    """A spend reaches sheet pages too: the sheets app's re-fetch order for the counter."""
    comm, _, _ = await open_socket(t.player, t.campaign)
    pool = [FIGHTIN, {"die": "d8", "trait": "Loyalty", "group": "values"},
            {"die": "d8", "trait": "War Veteran", "group": "refinements"}]  # fmt: skip
    faces.queue.extend([5, 5, 5])
    await send(comm, act(request={"pool": pool, "plot_points": 1}, sheet_id=t.pc.pk))
    received = await messages(comm, 2)
    assert seqs(received) == [1]
    assert any(f"counter-{t.pc.pk}-plot_points" in r for r in received)
    await comm.disconnect()
