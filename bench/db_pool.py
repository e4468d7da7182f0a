"""What PostgreSQL's connection pool saves: the latency of HTTP requests to the table
(the scene panel fragment htmx fetches) and of rolls made between them, on one daphne
process, with the pool (the default) and without it (DB_POOL_MAX=0).

Run from the repository root, with the production services:

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python bench/db_pool.py [--json] [--requests 150] [--rounds 2]

Each HTTP request runs in a thread of its own and closes its database connection when it
ends: without a pool each one starts a new PostgreSQL server process, whose caches are
cold for its first queries. The two setups alternate for `--rounds` rounds on a fresh
database (dropped after), so a machine whose speed drifts weighs on both alike.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.load import (  # noqa: E402
    ROLL,
    build_database,
    connect,
    reader,
    start_daphne,
)
from bench.scratch import drop_database, fresh_database, spread_campaign_ids  # noqa: E402
from rollcall.localserver import free_port, wait_for_port  # noqa: E402

SETUPS = {"pool": {}, "no pool": {"DB_POOL_MAX": "0"}}


def figures(samples: list[float]) -> dict:
    ordered = sorted(samples)
    return {
        "p50_ms": round(1000 * statistics.median(ordered), 2),
        "p90_ms": round(1000 * ordered[int(0.9 * len(ordered))], 2),
    }


async def measure(port: int, campaign: int, cookie: str, requests: int) -> dict:
    base = f"http://127.0.0.1:{port}"

    def fetch(path: str) -> float:
        request = urllib.request.Request(base + path, headers={"Cookie": f"{cookie}"})
        started = time.perf_counter()
        with urllib.request.urlopen(request) as response:  # noqa: S310 - our own server
            response.read()
        return time.perf_counter() - started

    ws = await connect(f"ws://127.0.0.1:{port}/ws/campaign/{campaign}/?last_seq=0", cookie, base)
    seen: dict[int, float] = {}
    listening = asyncio.create_task(reader(ws, seen))
    text = json.dumps({"type": "act", "action": "roll", "request": ROLL})
    sent = 0

    async def roll() -> float:
        nonlocal sent
        sent += 1
        started = time.perf_counter()
        await ws.send(text)
        while sent not in seen:
            await asyncio.sleep(0.0005)
        return seen[sent] - started

    panel = f"/c/{campaign}/table/scene/"
    for _ in range(10):  # warm-up: templates compiled, caches filled
        await roll()
        await asyncio.to_thread(fetch, panel)
    http, rolls = [], []
    for _ in range(requests):
        http.append(await asyncio.to_thread(fetch, panel))
        await asyncio.sleep(0.01)
        rolls.append(await roll())
        await asyncio.sleep(0.01)
    listening.cancel()
    await ws.close()
    return {"http_scene_panel": figures(http), "roll_between_requests": figures(rolls)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--requests", type=int, default=150, help="HTTP requests per setup")
    parser.add_argument("--rounds", type=int, default=2, help="times each setup is measured")
    args = parser.parse_args()
    database_url, redis_url = os.environ.get("DATABASE_URL"), os.environ.get("REDIS_URL")
    if not database_url or not database_url.startswith("postgres") or not redis_url:
        raise SystemExit("needs DATABASE_URL (PostgreSQL) and REDIS_URL")
    workdir = Path(tempfile.mkdtemp(prefix="rollcall-bench-"))
    url, name = fresh_database(database_url)
    os.environ["DATABASE_URL"] = url
    results: list[dict] = []
    try:
        spread_campaign_ids()
        data = build_database(workdir / "unused.sqlite3", 2 * args.rounds)
        campaigns = iter(data["campaigns"])
        for round_number in range(1, args.rounds + 1):
            for setup, env in SETUPS.items():
                port = free_port()
                services = {"DATABASE_URL": url, "REDIS_URL": redis_url, **env}
                server = start_daphne(
                    workdir / "unused.sqlite3", port, workdir / f"{port}.log", "daphne", services
                )
                try:
                    wait_for_port(port, server, timeout=30)
                    found = asyncio.run(
                        measure(port, next(campaigns), data["cookies"][0], args.requests)
                    )
                finally:
                    server.terminate()
                    server.wait(10)
                results.append({"round": round_number, "setup": setup, **found})
    finally:
        from django.db import connections

        connections.close_all()
        drop_database(database_url, name)
    if args.json:
        print(json.dumps({"server": "daphne, PostgreSQL + Redis", "results": results}, indent=2))
        return
    for r in results:
        h, k = r["http_scene_panel"], r["roll_between_requests"]
        print(
            f"round {r['round']} {r['setup']:8} HTTP scene panel p50 {h['p50_ms']} ms "
            f"p90 {h['p90_ms']} ms; roll between requests p50 {k['p50_ms']} ms "
            f"p90 {k['p90_ms']} ms"
        )


if __name__ == "__main__":
    main()
