"""Limits per user at a table, across all their sockets and HTTP requests (table/live/limits.py,
docs/reliability.md "Flood"): a cap on open sockets that closes the user's oldest with
4429 and says why; one action budget shared by every socket and form of the user and
no one else's; and turns, so one user's burst of actions does not go before another
player's roll. Attacked as a player who opens tab after tab and sends all they can."""

from __future__ import annotations

import asyncio
import threading

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.cache import cache
from django.core.cache.backends.locmem import LocMemCache
from django.test import Client
from django.urls import reverse

from rollcall.asgi import application
from sheets.models import Counter, Trait
from table.live import broadcast, limits
from table.models import TableEvent
from table.talk import consumers

from .sockets import HANG_GUARD, closed_with, messages, open_socket, send, seqs, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

FIGHTIN = {"die": "d10", "trait": "Fightin'", "group": "stylins"}
HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
async def t(table_for):
    return await sync_to_async(table_for)("serenity")


@pytest.fixture(params=["hub", "layer"])
def path(request, monkeypatch):
    """hub: the order to close reaches sockets in-process; layer: through the channel
    layer, as it reaches another daphne process (Redis in the services pass)."""
    monkeypatch.setattr(broadcast, "FORCE_LAYER", request.param == "layer")
    return request.param


def roll(sheet, goal: str = "") -> dict:
    request = {"pool": [FIGHTIN], **({"goal": goal} if goal else {})}
    return {"type": "act", "action": "roll", "request": request, "sheet_id": sheet.pk}


async def outputs_until_pong(comm, timeout: float = HANG_GUARD) -> list[dict]:
    """Ping, then everything the socket sends up to the pong (the socket is open and has
    handled every message sent before the ping)."""
    await send(comm, {"type": "ping"})
    got = []
    while True:
        output = await comm.receive_output(timeout)
        assert output["type"] != "websocket.close", f"closed with {output.get('code')}"
        got.append(output)
        if 'data-code="pong"' in output.get("text", ""):
            return got


async def live_socket(user, campaign):
    comm, connected, _ = await open_socket(user, campaign)
    assert connected
    await outputs_until_pong(comm)
    return comm


async def close_output(comm, timeout: float = HANG_GUARD) -> tuple[list[str], dict | None]:
    """The texts a socket gets, then its close frame (None if it never closes)."""
    texts = []
    while not await comm.receive_nothing(timeout=timeout):
        output = await comm.receive_output()
        if output["type"] == "websocket.close":
            return texts, output
        texts.append(output.get("text", ""))
    return texts, None


@sync_to_async
def events_of(user) -> int:
    return TableEvent.objects.filter(actor=user).count()


@sync_to_async
def http_roll(user, sheet, **extra):
    """The pool builder's Roll button, as that user."""
    client = Client()
    client.force_login(user)
    fightin = Trait.objects.get(sheet=sheet, group="stylins", name="Fightin'")
    url = reverse("table_pool_roll", args=[sheet.campaign_id, sheet.pk])
    return client.post(url, {"trait": [str(fightin.pk)], **extra}, **HX).content.decode()


# --------------------------------------------------------------------------- open sockets


async def test_one_socket_too_many_closes_the_users_oldest_and_says_why(t, settings, path):
    settings.TABLE_SOCKETS_PER_USER = 3
    gm = await live_socket(t.gm, t.campaign)
    tabs = [await live_socket(t.player, t.campaign) for _ in range(3)]
    newest = await live_socket(t.player, t.campaign)
    texts, close = await close_output(tabs[0])
    assert close is not None, "the oldest tab stayed open"
    assert close["code"] == consumers.CLOSE_REPLACED == 4429
    assert close["reason"] == consumers.REPLACED_TEXT
    (notice,) = [text for text in texts if 'data-code="replaced"' in text]
    assert (
        "You opened this table in another tab or device; this one was closed. "
        "Reload to use it here." in notice
    )
    # The user's three newest and everybody else's stay open and live.
    for comm in (*tabs[1:], newest, gm):
        await outputs_until_pong(comm)
    # Each further one closes the oldest still open, never a newer one.
    newer = await live_socket(t.player, t.campaign)
    assert await closed_with(tabs[1]) == 4429
    for comm in (tabs[2], newest, newer, gm):
        await outputs_until_pong(comm)
    for comm in (tabs[2], newest, newer, gm):
        await comm.disconnect()


async def test_a_closed_tab_frees_its_place(t, settings):
    settings.TABLE_SOCKETS_PER_USER = 2
    first = await live_socket(t.player, t.campaign)
    second = await live_socket(t.player, t.campaign)
    await second.disconnect()  # the user closes a tab
    third = await live_socket(t.player, t.campaign)
    for comm in (first, third):
        await outputs_until_pong(comm)
    assert await closed_with(first, 0.2) is None
    await first.disconnect()
    await third.disconnect()


async def test_the_cap_counts_sockets_another_process_serves(t, settings, monkeypatch):
    """The registry is shared (Redis with several processes): a socket another, live
    process registered counts, and the order to close it goes out to every process; one
    of a process that stopped beating (killed) no longer counts."""
    settings.TABLE_SOCKETS_PER_USER = 2
    key = limits._registry_key(t.campaign.pk, t.player.pk)
    await sync_to_async(cache.set_many)(
        {
            key: {"elsewhere-old": [1.0, "elsewhere"], "killed-old": [0.5, "killed"]},
            limits._process_key("elsewhere"): 1.0,
        }
    )
    ordered = []
    real = broadcast.close_replaced

    def spy(campaign_id, audience, socket_ids):
        ordered.append((campaign_id, audience, list(socket_ids)))
        real(campaign_id, audience, socket_ids)

    monkeypatch.setattr(broadcast, "close_replaced", spy)
    first = await live_socket(t.player, t.campaign)
    assert ordered == []  # the killed process's socket does not count
    second = await live_socket(t.player, t.campaign)
    assert ordered == [(t.campaign.pk, "players", ["elsewhere-old"])]
    for comm in (first, second):
        await outputs_until_pong(comm)
    registry = await sync_to_async(cache.get)(key)
    assert len(registry) == 2 and "elsewhere-old" not in registry and "killed-old" not in registry
    await first.disconnect()
    await second.disconnect()


async def test_a_session_opening_sockets_too_fast_is_refused_at_the_handshake(
    t, settings, monkeypatch
):
    """A storm of sockets from one session is refused before anything is read for it; the
    same user's other session (another device) is counted apart; the window slides."""
    settings.TABLE_SOCKET_OPENS, settings.TABLE_USER_WINDOW = 3, 10
    clock = [1000.0]
    monkeypatch.setattr(limits, "now", lambda: clock[0])
    laptop = await session_cookie(t.player)

    async def open_with(session_key: str):
        headers = [
            (b"host", b"testserver"),
            (b"origin", b"http://testserver"),
            (b"cookie", f"sessionid={session_key}".encode()),
        ]
        comm = WebsocketCommunicator(application, f"/ws/campaign/{t.campaign.pk}/", headers)
        connected, _ = await comm.connect()
        return comm, connected

    opened = [await open_with(laptop) for _ in range(4)]
    assert [connected for _, connected in opened] == [True, True, True, False]
    phone, connected = await open_with(await session_cookie(t.player))
    assert connected
    clock[0] = 1020.0
    again, connected = await open_with(laptop)
    assert connected
    for comm in [*(c for c, ok in opened if ok), phone, again]:
        await comm.disconnect()


# --------------------------------------------------------------------------- the action budget


async def test_the_budget_is_shared_by_a_users_sockets_and_http_requests(t, faces, settings):
    settings.TABLE_USER_RATE, settings.TABLE_USER_WINDOW = 4, 60
    laptop = await live_socket(t.player, t.campaign)
    phone = await live_socket(t.player, t.campaign)
    other = await live_socket(t.other, t.campaign)
    await send(laptop, roll(t.pc))
    await send(laptop, roll(t.pc))
    await send(phone, roll(t.pc))
    assert seqs(await messages(other, 3)) == [1, 2, 3]
    assert "Rolled:" in await http_roll(t.player, t.pc)
    assert seqs(await messages(other, 1)) == [4]
    # Four actions in a minute, from two sockets and a form: the fifth is refused
    # wherever it comes from, with the socket limit's words, and changes nothing.
    await send(phone, roll(t.pc))
    (refused,) = [text for text in await messages(phone, 1) if "rate_limited" in text]
    assert (
        "Slow down: at most 4 actions every 60 seconds at this table, from all your tabs and "
        "devices together. Nothing was done; try again in a moment." in refused
    )
    page = await http_roll(t.player, t.pc, plot_points="1")
    assert "Slow down: at most 4 actions every 60 seconds" in page and "Rolled:" not in page
    await send(laptop, roll(t.pc))
    assert any("rate_limited" in text for text in await messages(laptop, 1))
    assert await events_of(t.player) == 4
    plot_points = await sync_to_async(Counter.objects.get)(sheet=t.pc, key="plot_points")
    assert plot_points.value == 2
    # Another player's budget is their own.
    await send(other, roll(t.other_pc))
    assert "Rolled:" in await http_roll(t.other, t.other_pc)
    assert await events_of(t.other) == 2
    for comm in (laptop, phone, other):
        await comm.disconnect()


async def test_the_budget_comes_back_as_its_window_slides(t, faces, settings, monkeypatch):
    settings.TABLE_USER_RATE, settings.TABLE_USER_WINDOW = 2, 10
    clock = [1000.0]
    monkeypatch.setattr(limits, "now", lambda: clock[0])
    comm = await live_socket(t.player, t.campaign)

    async def attempt() -> bool:
        """Roll: True when its card comes, False when refused as too fast."""
        await send(comm, roll(t.pc))
        while True:
            text = await comm.receive_from(timeout=HANG_GUARD)
            if 'data-code="rate_limited"' in text:
                return False
            if seqs([text]):
                return True

    assert [await attempt() for _ in range(3)] == [True, True, False]
    clock[0] = 1005.0  # half a window on: still two in the last ten seconds
    assert await attempt() is False
    clock[0] = 1015.0  # the first two are half out of the last ten seconds
    assert [await attempt() for _ in range(2)] == [True, False]
    clock[0] = 1030.0
    assert [await attempt() for _ in range(3)] == [True, True, False]
    assert await events_of(t.player) == 5
    await comm.disconnect()


async def test_a_broken_cache_lets_people_play(t, faces, settings, monkeypatch):
    """Like the log-in throttle: the cache down must not close the table."""
    settings.TABLE_USER_RATE, settings.TABLE_SOCKETS_PER_USER = 1, 1

    def broken(*args, **kwargs):
        raise ConnectionError("the cache is down")

    for name in ("add", "incr", "get", "get_many", "set"):
        monkeypatch.setattr(LocMemCache, name, broken)
    first = await live_socket(t.player, t.campaign)
    second = await live_socket(t.player, t.campaign)
    for _ in range(3):
        await send(second, roll(t.pc))
    assert seqs(await messages(first, 3)) == [1, 2, 3]
    await first.disconnect()
    await second.disconnect()


def test_every_table_form_that_acts_spends_the_same_budget(t, settings, client_for):
    """Once the GM's budget is spent, every form of the table that acts says "Slow down"
    where it shows a refusal, and changes nothing."""
    from table.writing import actions

    settings.TABLE_USER_RATE, settings.TABLE_USER_WINDOW = 1, 60
    t.start_scene()
    gm = client_for(t.gm)
    event = actions.perform(t.campaign, t.gm, "roll", {"pool": [FIGHTIN]}, sheet_id=t.npc.pk)
    fightin = Trait.objects.get(sheet=t.npc, group="stylins", name="Fightin'")
    c = t.campaign.pk
    assert (
        "Rolled:"
        in gm.post(
            reverse("table_pool_roll", args=[c, t.npc.pk]), {"trait": [str(fightin.pk)]}, **HX
        ).content.decode()
    )
    forms = [
        ("table_pool_roll", [c, t.npc.pk], {"trait": [str(fightin.pk)]}),
        (
            "table_act",
            [c, "stress"],
            {"stress-type": "Afraid", "stress-die": "d6", "sheet": t.pc.pk},
        ),
        ("table_quick", [c, "activate_complication"], {"sheet": t.pc.pk, "complication": "Hurt"}),
        ("table_reveal", [c, event.pk], {}),
        ("table_void", [c, event.pk], {"reason": "misclick"}),
        ("table_gm_roll", [c], {"dice": "d8 Goons", "visibility": "public"}),
        (
            "table_gm_contest",
            [c],
            {"a_sheet": t.pc.pk, "a_goal": "escape", "b_name": "Thugs", "b_goal": "catch"},
        ),
        ("table_gm_scene", [c], {"op": "session"}),
        ("table_gm_points", [c], {"sheet": t.pc.pk, "amount": "1"}),
    ]
    events = TableEvent.objects.count()
    for name, args, data in forms:
        page = gm.post(reverse(name, args=args), data, **HX).content.decode()
        assert "Slow down: at most 1 actions every 60 seconds" in page, name
    assert TableEvent.objects.count() == events
    assert Counter.objects.get(sheet=t.pc, key="plot_points").value == 2
    # A player's contest move is counted the same way, after a roll from the builder.
    player = client_for(t.player)
    pc_fightin = Trait.objects.get(sheet=t.pc, group="stylins", name="Fightin'")
    rolled = player.post(
        reverse("table_pool_roll", args=[c, t.pc.pk]), {"trait": [str(pc_fightin.pk)]}, **HX
    )
    assert "Rolled:" in rolled.content.decode()
    refused = player.post(reverse("table_contest", args=[c]), {"op": "give_in"}, **HX)
    assert "Slow down: at most 1 actions" in refused.content.decode()
    assert TableEvent.objects.count() == events + 1


# --------------------------------------------------------------------------- turns


async def test_one_users_burst_does_not_go_before_another_players_roll(
    t, faces, settings, monkeypatch
):
    """Fifty actions of one player wait; another player's one roll comes in after them.
    It is run before most of them (users take turns), and each socket's own actions
    still run in the order sent."""
    settings.TABLE_SOCKET_RATE = settings.TABLE_USER_RATE = 1000
    ran: list[tuple[int, str]] = []
    entered, gate = threading.Event(), threading.Event()
    real_run = consumers.TableConsumer.run

    def run(self, message):
        ran.append((self.user.pk, message["request"].get("goal", "")))
        if len(ran) == 1:  # hold the database thread until everything is queued
            entered.set()
            gate.wait(HANG_GUARD)
        return real_run(self, message)

    monkeypatch.setattr(consumers.TableConsumer, "run", run)
    flooder = await live_socket(t.player, t.campaign)
    other = await live_socket(t.other, t.campaign)
    try:
        await send(flooder, roll(t.pc, "burst 0"))
        assert await sync_to_async(entered.wait, thread_sensitive=False)(HANG_GUARD)
        for number in range(1, 50):
            await send(flooder, roll(t.pc, f"burst {number}"))
        await outputs_until_pong(flooder)  # the burst is queued ...
        await send(other, roll(t.other_pc, "other"))
        await outputs_until_pong(other)  # ... and then the other player's roll
    finally:
        gate.set()
    assert len(seqs(await messages(other, 51))) == 51
    users = [user for user, _ in ran]
    assert users.count(t.player.pk) == 50 and users.count(t.other.pk) == 1
    assert users.index(t.other.pk) <= 2, f"{users.index(t.other.pk)} of the burst went first"
    burst = [goal for user, goal in ran if user == t.player.pk]
    assert burst == [f"burst {n}" for n in range(50)]
    await flooder.disconnect()
    await other.disconnect()


def test_batches_take_turns_and_keep_each_users_order():
    """The queue itself: round-robin across users, at most BATCH_PER_USER each a batch."""
    loop = asyncio.new_event_loop()
    try:
        queue = consumers.ActionQueue(loop)
        queue.running = True  # no drain task: batches are taken by hand here

        class Sock:
            def __init__(self, key):
                self.turn_key = key

        a, b, c = Sock((1, 1)), Sock((1, 2)), Sock((2, 1))
        for n in range(10):
            queue.submit(a, {"n": f"a{n}"})
        queue.submit(b, {"n": "b0"})
        queue.submit(c, {"n": "c0"})
        queue.submit(b, {"n": "b1"})
        taken = [[m["n"] for _, m in queue.next_batch()] for _ in range(3)]
    finally:
        loop.close()
    assert taken == [
        ["a0", "b0", "c0", "a1", "b1", "a2", "a3"],
        ["a4", "a5", "a6", "a7"],
        ["a8", "a9"],
    ]
    assert consumers.BATCH_PER_USER == 4
