"""SIGKILL one of two daphne processes mid-scene: its clients reconnect to the other
and resume, and every client ends up with every event of the log exactly once, in
order, while rolls keep coming from both sides."""

from __future__ import annotations

import asyncio
import sys
import time

import pytest

from .harness import HANG_GUARD, Socket, exactly_once_in_order, open_live, roll, settled, until

USERS = ["gm", "p0", "p1", "p2"]

pytestmark = pytest.mark.services


async def scene(cluster) -> dict:
    b = cluster.port("b")
    sockets = await open_live(cluster, [(side, user) for side in "ab" for user in USERS])
    # Who rolls, for which character: two sockets on each process.
    rollers = [
        (sockets["a", "p0"], "p0"),
        (sockets["a", "p1"], "p1"),
        (sockets["b", "p2"], "p2"),
        (sockets["b", "gm"], "p0"),
    ]
    stop = asyncio.Event()
    sent = {"rolls": 0}

    async def keep_rolling(socket: Socket, character: str) -> None:
        while not stop.is_set():
            if await socket.send(roll(cluster.sheets[character])):
                sent["rolls"] += 1
            await asyncio.sleep(0.06)

    reconnected: list[str] = []

    async def follow(socket: Socket, index: int) -> None:
        """When its process dies, reconnect to the other one and catch up, half of
        them with ?last_seq=, half with a "resume" message."""
        await socket.closed.wait()
        if index % 2:
            await socket.open(b, last_seq=socket.newest)
        else:
            await socket.open(b, resume=True)
        reconnected.append(socket.label)

    followers = [
        asyncio.create_task(follow(s, i))
        for i, ((side, _), s) in enumerate(sockets.items())
        if side == "a"
    ]
    rolling = [asyncio.create_task(keep_rolling(s, c)) for s, c in rollers]

    def logged() -> int:
        return len(cluster.log_seqs())

    await until(
        lambda: logged() >= 40, HANG_GUARD, lambda: f"rolls did not get logged\n{cluster.logs()}"
    )
    killed_at = logged()
    cluster.kill("a")
    started = time.monotonic()
    await asyncio.wait_for(asyncio.gather(*followers), HANG_GUARD)
    back_after = time.monotonic() - started
    await until(
        lambda: logged() >= killed_at + 40, HANG_GUARD, lambda: "rolls stopped after the kill"
    )
    stop.set()
    await asyncio.gather(*rolling)

    everyone = list(sockets.values())
    log = await settled(cluster, everyone)
    problems = exactly_once_in_order(everyone, log)
    for socket in everyone:
        await socket.close()
    errors = [(s.label, n) for s in everyone for n in s.notices if n[0] == "error"]
    return {
        "problems": problems,
        "errors": errors,
        "events": len(log),
        "killed_at": killed_at,
        "sent": sent["rolls"],
        "reconnected": reconnected,
        "back_after": back_after,
        "sockets": len(everyone),
    }


def test_clients_of_a_killed_process_resume_on_the_other_exactly_once(cluster):
    cluster.start("a")
    cluster.start("b")
    started = time.monotonic()
    result = asyncio.run(scene(cluster))
    assert result["problems"] == [], "\n".join(result["problems"]) + "\n" + cluster.logs()
    assert result["errors"] == []
    assert len(result["reconnected"]) == 4
    sys.stderr.write(
        f"\nSIGKILL: {result['events']} events x {result['sockets']} sockets checked, "
        f"{result['sent']} rolls sent, killed at event {result['killed_at']}, "
        f"4 sockets back in {result['back_after']:.2f}s, lost 0, "
        f"{time.monotonic() - started:.1f}s\n"
    )
