"""Soak run of the live table: 50 campaigns × 8 sockets with steady rolls for ten minutes,
watching the server's memory.

Run from the repository root (not in CI):

    .venv/bin/python bench/soak.py [--json] [--duration 600]
    DATABASE_URL=postgres://... REDIS_URL=redis://... .venv/bin/python bench/soak.py --services

Each campaign's GM socket sends one roll a second (open loop, through the real roll
action); every card must reach the campaign's 8 sockets. By default ONE daphne process
serves the embedded default (a fresh SQLite database in a temporary directory, the
in-memory channel layer). With --services, TWO daphne processes share a fresh
PostgreSQL database (created on the server of DATABASE_URL for the run and dropped
after) and Redis (REDIS_URL); each campaign's sockets alternate between them, so
every card crosses the channel layer.

Every few seconds it samples each server process's resident memory (Linux /proc). The
figures: memory when the warm-up ends (the first minute: caches such as the table's
rendered cards fill up in it), at the end, min and max after the warm-up, and whether
every sample after the warm-up stays within 10 % of the warm-up figure; latency p50/p99
(a roll's from sending it to its card reaching all 8 sockets), rolls, deliveries, and
lost: (socket, seq) pairs still missing after every socket asked for a replay of
what it missed. Helpers come from bench/table_load.py and bench/scratch.py.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.load import (  # noqa: E402
    ROLL,
    Room,
    build_database,
    connect,
    cpu_seconds,
    measured,
    reader,
    start_daphne,
    wind_up,
)
from bench.scratch import (  # noqa: E402
    drop_database,
    fresh_database,
    spread_campaign_ids,
)
from rollcall.localserver import free_port, wait_for_port  # noqa: E402

FLAT = 0.10  # memory after the warm-up stays within this fraction of the warm-up figure


def rss_bytes(pid: int) -> int | None:
    """Resident memory of a process (Linux /proc), None if it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


# --------------------------------------------------------------------------- the load


async def soak(
    ports: list[int], pids: list[int], campaigns: list[int], cookies: list[str], args
) -> dict:
    rooms = {c: Room() for c in campaigns}
    for index, campaign in enumerate(campaigns):
        room = rooms[campaign]
        for k in range(args.sockets):
            port = ports[(index + k) % len(ports)]  # with two servers, a room spans both
            url = f"ws://127.0.0.1:{port}/ws/campaign/{campaign}/?last_seq=0"
            origin = f"http://127.0.0.1:{port}"
            room.sockets.append(await connect(url, cookies[k % len(cookies)], origin))
            room.seen.append({})
    readers = [
        asyncio.create_task(reader(ws, seen))
        for room in rooms.values()
        for ws, seen in zip(room.sockets, room.seen, strict=True)
    ]
    await asyncio.sleep(0.5)

    samples: list[tuple[float, list[int | None]]] = []
    started = time.perf_counter()

    async def sampler() -> None:
        while True:
            samples.append((time.perf_counter() - started, [rss_bytes(p) for p in pids]))
            await asyncio.sleep(args.sample)

    roll = json.dumps({"type": "act", "action": "roll", "request": ROLL})

    async def roller(room: Room) -> None:
        interval = 1.0 / args.rate
        begin = started + random.random() * interval
        for k in range(int(args.duration * args.rate)):
            delay = begin + k * interval - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            room.sent.append(time.perf_counter())
            await room.sockets[0].send(roll)

    async def progress() -> None:
        while True:
            await asyncio.sleep(60)
            elapsed = time.perf_counter() - started
            rss = [round(r / 2**20, 1) if r else None for r in samples[-1][1]]
            print(f"  {elapsed:5.0f} s  rolls {sum(len(r.sent) for r in rooms.values())}  "
                  f"rss MiB {rss}", file=sys.stderr, flush=True)  # fmt: skip

    cpu_before = [cpu_seconds(p) for p in pids]
    sampling = asyncio.create_task(sampler())
    reporting = asyncio.create_task(progress())
    await asyncio.gather(*(roller(room) for room in rooms.values()))
    window_end = time.perf_counter()
    reporting.cancel()
    total = sum(len(room.sent) for room in rooms.values())
    expected = total * args.sockets
    deadline = time.perf_counter() + 10
    while time.perf_counter() < deadline:
        if sum(len(seen) for room in rooms.values() for seen in room.seen) >= expected:
            break
        await asyncio.sleep(0.05)
    sampling.cancel()
    samples.append((time.perf_counter() - started, [rss_bytes(p) for p in pids]))
    cpu_used = [cpu_seconds(p) - b for p, b in zip(pids, cpu_before, strict=True)]

    latencies = []
    for room in rooms.values():
        for seq, sent_at in enumerate(room.sent, start=1):
            times = [seen.get(seq) for seen in room.seen]
            if all(t is not None for t in times):
                latencies.append(max(times) - sent_at)
    latencies.sort()
    deliveries = sum(measured(room, seen) for room in rooms.values() for seen in room.seen)
    gaps_before = expected - deliveries
    lost = await wind_up(rooms.values(), readers, wait=5 if gaps_before else 0)

    def pct(p: float) -> float | None:
        if not latencies:
            return None
        return round(1000 * latencies[min(len(latencies) - 1, int(p * len(latencies)))], 2)

    elapsed = window_end - started
    return {
        "rolls": total,
        "deliveries": deliveries,
        "delivered_per_s": round(deliveries / elapsed, 1),
        "p50_ms": pct(0.50),
        "p99_ms": pct(0.99),
        "max_ms": pct(1.0),
        "gaps_before_replay": gaps_before,
        "lost": lost,
        "memory": [memory(samples, i, pid, args.warmup) for i, pid in enumerate(pids)],
        "server_cpu_ms_per_roll": [round(1000 * c / max(1, total), 3) for c in cpu_used],
    }


def memory(samples: list[tuple[float, list[int | None]]], index: int, pid: int, warmup: float):
    """One process's memory figures (MiB) from the samples."""
    series = [(t, rss[index]) for t, rss in samples if rss[index] is not None]
    after = [(t, r) for t, r in series if t >= warmup] or series[-1:]
    at_warmup = after[0][1]
    values = [r for _, r in after]
    mib = lambda b: round(b / 2**20, 1)  # noqa: E731
    return {
        "pid": pid,
        "start_mib": mib(series[0][1]),
        "warmup_end_mib": mib(at_warmup),
        "warmup_end_s": round(after[0][0], 1),
        "end_mib": mib(series[-1][1]),
        "min_after_warmup_mib": mib(min(values)),
        "max_after_warmup_mib": mib(max(values)),
        "change_after_warmup_pct": round(100 * (series[-1][1] - at_warmup) / at_warmup, 1),
        "flat_within_10pct": all(abs(r - at_warmup) <= FLAT * at_warmup for r in values),
        "samples": len(series),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--duration", type=float, default=600.0, help="seconds of rolls")
    parser.add_argument("--warmup", type=float, default=60.0, help="seconds before memory counts")
    parser.add_argument("--campaigns", type=int, default=50)
    parser.add_argument("--sockets", type=int, default=8, help="sockets per campaign")
    parser.add_argument("--rate", type=float, default=1.0, help="rolls/s per campaign")
    parser.add_argument("--sample", type=float, default=5.0, help="seconds between samples")
    parser.add_argument(
        "--services", action="store_true",
        help="two daphne processes on PostgreSQL + Redis (DATABASE_URL, REDIS_URL)",
    )  # fmt: skip
    args = parser.parse_args()
    args.warmup = min(args.warmup, args.duration / 2)

    workdir = Path(tempfile.mkdtemp(prefix="rollcall-soak-"))
    services = None
    dropped = None
    if not args.services:  # the embedded default, whatever this shell points at
        os.environ.pop("DATABASE_URL", None)
        os.environ.pop("REDIS_URL", None)
    else:
        database_url, redis_url = os.environ.get("DATABASE_URL"), os.environ.get("REDIS_URL")
        if not database_url or not redis_url:
            raise SystemExit("--services needs DATABASE_URL and REDIS_URL")
        url, name = fresh_database(database_url)
        dropped = (database_url, name)
        os.environ["DATABASE_URL"] = url  # build_database works in it
        services = {"DATABASE_URL": url, "REDIS_URL": redis_url}
    servers = []
    try:
        if args.services:
            spread_campaign_ids()
        data = build_database(workdir / "soak.sqlite3", args.campaigns)
        ports = [free_port() for _ in range(2 if args.services else 1)]
        servers = [
            start_daphne(workdir / "soak.sqlite3", port, workdir / f"daphne-{port}.log",
                         services=services)
            for port in ports
        ]  # fmt: skip
        for port, server in zip(ports, servers, strict=True):
            wait_for_port(port, server, timeout=30)
        result = asyncio.run(
            soak(ports, [s.pid for s in servers], data["campaigns"], data["cookies"], args)
        )
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait(10)
        if dropped:
            from django.db import connections

            connections.close_all()
            drop_database(*dropped)
    figures = {
        "server": (
            "daphne ×2, PostgreSQL + Redis pub/sub layer"
            if args.services
            else "daphne, SQLite + in-memory layer, 1 process"
        ),
        "campaigns": args.campaigns,
        "sockets": args.campaigns * args.sockets,
        "offered_rolls_per_s": round(args.rate * args.campaigns, 1),
        "duration_s": args.duration,
        "warmup_s": args.warmup,
        **result,
    }
    figures["flat"] = all(m["flat_within_10pct"] for m in result["memory"])
    figures["lost_is_zero"] = result["lost"] == 0
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print(f"{figures['server']}: {figures['campaigns']} campaigns, {figures['sockets']} sockets, "
          f"{figures['offered_rolls_per_s']} rolls/s for {args.duration:.0f} s")  # fmt: skip
    print(f"  rolls {result['rolls']}  deliveries {result['deliveries']} "
          f"({result['delivered_per_s']}/s)  p50 {result['p50_ms']} ms  p99 {result['p99_ms']} ms  "
          f"lost {result['lost']} (gaps before replay {result['gaps_before_replay']})")  # fmt: skip
    for m in result["memory"]:
        print(f"  pid {m['pid']}: {m['warmup_end_mib']} MiB at {m['warmup_end_s']} s, "
              f"{m['end_mib']} MiB at the end ({m['change_after_warmup_pct']:+} %), "
              f"after warm-up {m['min_after_warmup_mib']}-{m['max_after_warmup_mib']} MiB, "
              f"{'flat' if m['flat_within_10pct'] else 'NOT flat'} within 10 %")  # fmt: skip


if __name__ == "__main__":
    main()
