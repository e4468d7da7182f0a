"""Against PostgreSQL and Redis (DATABASE_URL and REDIS_URL set): plot points never go
negative when spends race on separate connections, and two daphne processes deliver
every roll to their sockets in the same order."""

from __future__ import annotations

import asyncio
import json
import os
import re
import threading
from pathlib import Path
from urllib.parse import urlparse, urlunparse

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client

from rollcall.localserver import free_port, start_daphne, stop, wait_for_port
from sheets.models import Counter
from table.reading.export import verify
from table.writing.actions import ActionError, perform

from .sockets import HANG_GUARD

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
SEQ = re.compile(r'<template hx-swap-oob="afterbegin:#log" data-seq="(\d+)"')
GOONS = {"die": "d8", "trait": "Goons", "group": "situation"}


def race(workers: int, job) -> list:
    """Run `job` in `workers` threads released together; each closes its connection."""
    barrier = threading.Barrier(workers)
    results: list = []
    lock = threading.Lock()

    def run():
        barrier.wait()
        try:
            outcome = job()
        except Exception as error:  # noqa: BLE001 - collected for the assertions
            outcome = error
        finally:
            connection.close()
        with lock:
            results.append(outcome)

    threads = [threading.Thread(target=run) for _ in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return results


def test_plot_points_never_go_negative_under_concurrent_spends(table_for):
    assert connection.vendor == "postgresql"
    t = table_for("cortex_slots")
    Counter.objects.filter(sheet=t.pc, key="plot_points").update(value=3)

    def spend():
        return perform(
            t.campaign, t.player, "spend_plot_point",
            {"kind": "scene_change", "description": "The lights go out"}, sheet_id=t.pc.pk,
        )  # fmt: skip

    results = race(8, spend)
    spent = [r for r in results if not isinstance(r, Exception)]
    refused = [r for r in results if isinstance(r, ActionError)]
    assert (len(spent), len(refused)) == (3, 5), results
    assert Counter.objects.get(sheet=t.pc, key="plot_points").value == 0
    assert sorted(e.seq for e in spent) == [1, 2, 3]
    assert verify(t.campaign).ok

    # The counter's own conditional UPDATE holds even without the table's lock.
    Counter.objects.filter(sheet=t.pc, key="plot_points").update(value=1)
    wins = race(8, lambda: Counter.spend(t.pc.pk, "plot_points", 1))
    assert wins.count(True) == 1
    assert Counter.objects.get(sheet=t.pc, key="plot_points").value == 0


def test_a_new_campaigns_first_actions_race_without_deadlock(table_for):
    """The first action at a table creates the campaign's log head. Actions racing to be
    first used to deadlock on PostgreSQL: one held the campaign row while it waited for
    the new head, another held the head while it waited for the campaign row."""
    pool = {"pool": [{"die": "d8", "trait": "Goons", "group": "situation"}]}
    for _ in range(15):
        t = table_for("serenity")
        results = race(8, lambda t=t: perform(t.campaign, t.gm, "roll", pool))
        assert not [r for r in results if isinstance(r, Exception)], results
        assert verify(t.campaign).ok


@pytest.fixture
def two_daphnes():
    url = urlparse(os.environ["DATABASE_URL"])
    test_db = urlunparse(url._replace(path="/" + settings.DATABASES["default"]["NAME"]))
    env = {**os.environ, "DATABASE_URL": test_db, "DJANGO_SETTINGS_MODULE": "rollcall.settings"}
    ports = [free_port(), free_port()]
    processes = [start_daphne(port, env, os.devnull, str(ROOT)) for port in ports]
    try:
        for port, process in zip(ports, processes, strict=True):
            wait_for_port(port, process, timeout=120)
        yield ports
    finally:
        for process in processes:
            stop(process)


def cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


def test_two_daphne_processes_deliver_every_roll_in_the_same_order(table_for, two_daphnes):
    import websockets

    t = table_for("serenity")
    player_cookie, gm_cookie = cookie(t.player), cookie(t.gm)
    rolls = 12

    async def client(port: int, user_cookie: str):
        return await websockets.connect(
            f"ws://127.0.0.1:{port}/ws/campaign/{t.campaign.pk}/?last_seq=0",
            origin=f"http://127.0.0.1:{port}",
            additional_headers={"Cookie": user_cookie},
        )

    async def collect(ws, count: int) -> list[int]:
        seen: list[int] = []
        while len(seen) < count:
            text = await asyncio.wait_for(ws.recv(), HANG_GUARD)
            seen += [int(s) for s in SEQ.findall(text)]
        return seen

    async def main():
        a = await client(two_daphnes[0], player_cookie)
        b = await client(two_daphnes[1], player_cookie)
        gm = await client(two_daphnes[1], gm_cookie)
        for ws in (a, b, gm):  # a ping is answered once the socket has joined: both
            await ws.send(json.dumps({"type": "ping"}))  # processes have subscribed
            while 'data-code="pong"' not in await asyncio.wait_for(ws.recv(), HANG_GUARD):
                pass
        pool_player = {"pool": [{"die": "d10", "trait": "Fightin'", "group": "stylins"}]}
        pool_gm = {"pool": [{"die": "d8", "trait": "Goons", "group": "situation"}]}
        sends = []
        for _ in range(rolls // 2):
            sends.append(a.send(json.dumps({"type": "act", "action": "roll", "sheet_id": t.pc.pk,
                                            "request": pool_player})))  # fmt: skip
            sends.append(gm.send(json.dumps({"type": "act", "action": "roll", "request": pool_gm})))
        await asyncio.gather(*sends)
        seen_a, seen_b = await asyncio.gather(collect(a, rolls), collect(b, rolls))
        for ws in (a, b, gm):
            await ws.close()
        return seen_a, seen_b

    seen_a, seen_b = asyncio.run(main())
    assert seen_a == seen_b == list(range(1, rolls + 1))
    assert verify(t.campaign).ok


def test_postgresql_connections_come_from_a_pool():
    """Each HTTP request runs in a thread of its own and closes its connection when it
    ends: without a pool, every request started a new server process."""
    pool = connection.pool
    assert pool is not None, settings.DATABASES["default"].get("OPTIONS")
    client = Client()
    for _ in range(3):  # opens the pool and its first connections
        assert client.get("/accounts/login/").status_code == 200
    opened = pool.get_stats()["connections_num"]
    for _ in range(20):
        assert client.get("/accounts/login/").status_code == 200
    assert pool.get_stats()["connections_num"] == opened


def _backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def _terminate(pid: int) -> None:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
    finally:
        connection.close()


async def test_a_connection_dropped_while_idle_is_replaced_before_the_next_roll(
    table_for, monkeypatch
):
    """A database restart or a firewall's idle timeout drops the socket's kept connection
    while the table is quiet: the next roll is made, not refused."""
    from asgiref.sync import sync_to_async

    from table.live import dbthread

    from .sockets import messages, open_socket, send, seqs

    t = await sync_to_async(table_for)("serenity")
    roll = {"type": "act", "action": "roll", "request": {"pool": [GOONS]}}
    gm, connected, _ = await open_socket(t.gm, t.campaign)
    assert connected
    await send(gm, roll)
    assert seqs(await messages(gm, 1)) == [1]

    kept = await dbthread.in_db_thread(_backend_pid)()
    await sync_to_async(_terminate, thread_sensitive=False)(kept)
    monkeypatch.setattr(dbthread, "IDLE_CHECK_SECONDS", 0.0)  # as if quiet for a while
    await send(gm, roll)
    received = await messages(gm, 1)
    assert seqs(received) == [2], received
    assert not any('data-kind="error"' in text for text in received), received
    assert await dbthread.in_db_thread(_backend_pid)() != kept
    await gm.disconnect()
