"""Redis stops (SIGTERM) and comes back on the same port while two daphne processes
serve a scene and rolls keep coming: every roll made meanwhile is logged (a failed
publish never fails a roll), live delivery across processes resumes once Redis is
back, and every client ends up with every event exactly once, in order."""

from __future__ import annotations

import asyncio
import json
import sys
import time

import pytest

from .harness import (
    HANG_GUARD,
    Socket,
    exactly_once_in_order,
    logged_markers,
    marker,
    open_live,
    roll,
    settled,
    until,
)

pytestmark = pytest.mark.services

OUTAGE_SECONDS = 1.5


async def scene(cluster) -> dict:
    placement = [("a", "gm"), ("a", "p0"), ("a", "p1"), ("b", "gm"), ("b", "p1"), ("b", "p2")]
    sockets = await open_live(cluster, placement)
    rollers = [
        (sockets["a", "p0"], "p0"),
        (sockets["b", "p2"], "p2"),
        (sockets["b", "gm"], "p1"),
    ]
    stop = asyncio.Event()
    sent: list[tuple[str, float]] = []  # (marker, when)

    async def keep_rolling(socket: Socket, character: str) -> None:
        number = 0
        while not stop.is_set():
            number += 1
            name = marker(socket, number)
            assert await socket.send(roll(cluster.sheets[character], name))
            sent.append((name, time.monotonic()))
            await asyncio.sleep(0.1)

    def logged() -> int:
        return len(cluster.log_seqs())

    rolling = [asyncio.create_task(keep_rolling(s, c)) for s, c in rollers]
    await until(
        lambda: logged() >= 20,
        HANG_GUARD,
        lambda: f"rolls not logged: {[s.notices[-3:] for s, _ in rollers]}",
    )

    cluster.stop_redis()
    down_at, logged_at_down = time.monotonic(), logged()
    await until(
        lambda: logged() >= logged_at_down + 15 and time.monotonic() - down_at >= OUTAGE_SECONDS,
        HANG_GUARD,
        lambda: f"rolls stopped being logged while Redis was down\n{cluster.logs()}",
    )
    cluster.start_redis()
    up_at, logged_at_up = time.monotonic(), logged()

    # Live delivery across processes is back: a roll sent on process a after Redis
    # returned reaches a socket on process b without any resume.
    prefix = marker(sockets["a", "p0"], 0)[:-5]

    def crossed() -> bool:
        after = [m for m, when in sent if when > up_at and m.startswith(prefix)]
        return bool(after) and sockets["b", "gm"].has_card(after[0])

    await until(
        crossed, HANG_GUARD, lambda: f"no live delivery after Redis came back\n{cluster.logs()}"
    )
    live_again = time.monotonic() - up_at
    await until(
        lambda: logged() >= logged_at_up + 15, HANG_GUARD, lambda: "rolls stopped after Redis"
    )
    stop.set()
    await asyncio.gather(*rolling)

    everyone = list(sockets.values())
    await settled(cluster, everyone)
    # A resume (as a reconnecting page sends) repeats nothing already delivered.
    for socket in everyone:
        await socket.send(json.dumps({"type": "resume", "last_seq": socket.newest // 2}))
    for socket in everyone:
        await socket.live()
    log = cluster.log_seqs()
    problems = exactly_once_in_order(everyone, log)
    markers = logged_markers(cluster)
    for socket in everyone:
        await socket.close()
    return {
        "problems": problems,
        "errors": [(s.label, n) for s in everyone for n in s.notices if n[0] == "error"],
        "unlogged": [m for m, _ in sent if len(markers.get(m, ())) != 1],
        "sent": len(sent),
        "during": sum(1 for _, when in sent if down_at <= when < up_at),
        "logged_during": logged_at_up - logged_at_down,
        "events": len(log),
        "sockets": len(everyone),
        "live_again": live_again,
    }


def test_rolls_survive_a_redis_restart_and_live_delivery_resumes(cluster):
    cluster.start("a")
    cluster.start("b")
    started = time.monotonic()
    result = asyncio.run(scene(cluster))
    assert result["problems"] == [], "\n".join(result["problems"]) + "\n" + cluster.logs()
    assert result["errors"] == []
    assert result["unlogged"] == [], "rolls not logged exactly once"
    assert result["logged_during"] >= 15
    sys.stderr.write(
        f"\nRedis restart: {result['events']} events x {result['sockets']} sockets checked, "
        f"{result['sent']} rolls sent ({result['during']} while Redis was down, "
        f"{result['logged_during']} logged meanwhile), live again {result['live_again']:.2f}s "
        f"after restart, lost 0, {time.monotonic() - started:.1f}s\n"
    )
