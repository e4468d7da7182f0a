"""Load benchmark of the live table: rolls through the real roll action, persisted and
hash-chained, delivered to 8 sockets per campaign, against a plain `websockets`
broadcast server under the same load in the same run.

Run from the repository root:

    .venv/bin/python bench/table_load.py [--json] [--duration 10]
    .venv/bin/python bench/table_load.py --campaigns 125 --rate 3.2 --duration 15
    .venv/bin/python bench/table_load.py --server uvicorn       # the same, served by uvicorn
    DATABASE_URL=postgres://... REDIS_URL=redis://... .venv/bin/python bench/table_load.py --services
    DATABASE_URL=... REDIS_URL=... .venv/bin/python bench/table_load.py --services --cpu --rate 0.6

Without --campaigns it runs both scenarios of design.md: 1 campaign × 8 sockets
(target p99 ≤ 15 ms) and 125 campaigns × 8 sockets (≥ 3,000 deliveries/s, p99 ≤ 100 ms,
lost = 0). It builds a fresh embedded database (SQLite) in a temporary directory,
starts ONE daphne process with the embedded default (in-memory channel layer), and
drives it from this process with clients on the `websockets` library's sans-I/O
protocol (LoadSocket: the load generator shares the servers' cores, so it is kept
light). Each campaign's GM socket sends rolls at a fixed rate (open loop), after one
warm-up roll per campaign that the figures leave out; a roll's latency runs from sending
it to its card reaching all 8 sockets. rolls_per_s and delivered_per_s count what was
complete within the sending window; "lost" counts (socket, seq) pairs still missing
after every socket has asked for a replay ("resume") of what it missed;
server_cpu_ms_per_roll is the server process's CPU time (Linux /proc) per roll,
load_cpu_ms_per_roll the load generator's, machine_busy_cores what the whole machine
was busy with during the window, server_rss_mb the server's resident memory at its end.

The bench's daphne runs with production settings (DEBUG off) and raised rate limits
(TABLE_SOCKET_RATE, TABLE_USER_RATE): one socket per campaign sends every roll, all of
them the same GM's.
BENCH_DAPHNE=/path/to/executable runs another server command (a profiling wrapper).

--services measures scale-out instead, on a fresh PostgreSQL database and Redis: the
capacity of ONE server process and of TWO (each campaign's sockets alternating
between them, so every card crosses Redis), where capacity is the most deliveries per
second a setup carries while the 125 × 8 rooms keep p99 ≤ 100 ms with nothing lost.
Each setup is stepped through offered loads (up by a quarter while it keeps up, then
halving the interval), each step on fresh campaigns, the two setups' steps alternating
(a machine whose speed drifts weighs on both alike); the figure is the ratio of the two
capacities (target ≥ 1.6), with the peak deliveries seen at any step beside it.
--services --cpu instead runs both setups at ONE offered load (--rate, rolls/s per
campaign), steps in the order 1 2 2 1 (--rounds), and reports each setup's server CPU
per roll summed over its processes and the ratio two / one (target ≤ 1.10), for a load
both keep up with. The fresh database is named after DATABASE_URL's (bench_scale ->
bench_scale_1a2b3c4d, never test*: bench/scratch.py).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.load import (  # noqa: E402
    BASELINE_PAYLOAD,
    SERVERS,
    build_database,
    scenario,
    start_daphne,
)
from bench.scale_out import cpu_out, scale_out  # noqa: E402
from rollcall.localserver import free_port, wait_for_port  # noqa: E402


def start_baseline(port: int, log: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, __file__, "--serve-baseline", str(port)],
        cwd=ROOT,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
    )


# --------------------------------------------------------------------------- baseline server


def serve_baseline(port: int) -> None:
    """A plain websockets broadcast server: "roll" appends a numbered fragment to the
    campaign's history and broadcasts it to the campaign's sockets; "resume N" replays."""
    import websockets

    rooms: dict[str, set] = {}
    history: dict[str, list[bytes]] = {}
    filler = "x" * BASELINE_PAYLOAD

    async def handler(ws):
        room = ws.request.path
        rooms.setdefault(room, set()).add(ws)
        log = history.setdefault(room, [])
        try:
            async for message in ws:
                if message == "roll":
                    seq = len(log) + 1
                    text = (
                        f'<template hx-swap-oob="afterbegin:#log" data-seq="{seq}">'
                        f"<li>{filler}</li></template>"
                    )
                    log.append(text)
                    websockets.broadcast(rooms[room], text)
                elif message.startswith("resume "):
                    for text in log[int(message.split()[1]) :]:
                        await ws.send(text)
        finally:
            rooms[room].discard(ws)

    async def main():
        async with websockets.serve(handler, "127.0.0.1", port, max_queue=None):
            await asyncio.Future()

    asyncio.run(main())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--campaigns", type=int, help="one custom scenario with this many")
    parser.add_argument("--sockets", type=int, default=8, help="sockets per campaign")
    parser.add_argument(
        "--rate",
        type=float,
        help="rolls/s per campaign (3.2; with --services, the first step; with --cpu, the load: 1.2)",
    )
    parser.add_argument("--duration", type=float, default=10.0, help="seconds of load per run")
    parser.add_argument(
        "--server",
        choices=sorted(SERVERS),
        default="daphne",
        help="the ASGI server to measure (default: daphne, the one we ship)",
    )
    parser.add_argument(
        "--services",
        action="store_true",
        help="one vs two server processes on PostgreSQL + Redis (DATABASE_URL, REDIS_URL)",
    )
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="with --services: server CPU per roll on one vs two processes at one load (--rate)",
    )
    parser.add_argument(
        "--rounds", type=int, default=2, help="with --cpu: steps per setup (default 2: 1 2 2 1)"
    )
    parser.add_argument("--serve-baseline", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_baseline:
        serve_baseline(args.serve_baseline)
        return
    if args.services and args.cpu:
        result = cpu_out(args, Path(tempfile.mkdtemp(prefix="rollcall-bench-")))
        if args.json:
            print(json.dumps({"server": f"{args.server}, PostgreSQL + Redis pub/sub layer",
                              "results": [result]}, indent=2))  # fmt: skip
            return
        print(f"{result['scenario']} for {result['duration_s']} s a step, "
              f"steps in the order {' '.join(map(str, result['order']))}")  # fmt: skip
        for label in ("one_process", "two_processes"):
            f = result[label]
            for step in f["steps"]:
                print(f"{label:14} p99 {step['p99_ms']} ms  {step['delivered_per_s']} deliveries/s  "
                      f"lost {step['lost']}  server CPU {step['server_cpu_ms_per_roll']} ms/roll  "
                      f"load generator {step['load_cpu_ms_per_roll']} ms/roll  "
                      f"machine {step['machine_busy_cores']} cores busy  "
                      f"{'all handled' if step['all_handled'] else 'FELL BEHIND'}, "
                      f"{'p99 kept' if step['kept_up'] else 'p99 over'} 100 ms")  # fmt: skip
            print(f"{label:14} server CPU {f['server_cpu_ms_per_roll']} ms/roll, summed over its "
                  f"processes")  # fmt: skip
        verdicts = ", ".join(
            f"{k} {'met' if ok else 'MISSED'}" for k, ok in result["targets"].items()
        )
        print(f"two / one: {result['ratio_cpu_per_roll']} ({verdicts}); "
              f"{'both handled every roll' if result['both_handled_all'] else 'a setup FELL BEHIND'}"
              f"{', both at p99 <= 100 ms' if result['both_kept_up'] else ''}")  # fmt: skip
        return
    if args.services:
        result = scale_out(args, Path(tempfile.mkdtemp(prefix="rollcall-bench-")))
        if args.json:
            print(json.dumps({"server": f"{args.server}, PostgreSQL + Redis pub/sub layer",
                              "results": [result]}, indent=2))  # fmt: skip
            return
        for label in ("one_process", "two_processes"):
            f = result[label]
            for step in f["steps"]:
                print(f"{label:14} {step['offered_rolls_per_s_per_campaign']:6.3f} rolls/s each: "
                      f"p99 {step['p99_ms']} ms  {step['delivered_per_s']} deliveries/s  "
                      f"lost {step['lost']}  machine {step['machine_busy_cores']} cores busy  "
                      f"{'kept up' if step['kept_up'] else 'fell behind'}")  # fmt: skip
            print(f"{label:14} capacity {f['capacity_delivered_per_s']} deliveries/s "
                  f"({result['bound']}); peak {f['peak_delivered_per_s']}")  # fmt: skip
        print(f"two / one: {result['ratio_capacity']} at capacity (target 1.6), "
              f"{result['ratio_peak']} at peak")  # fmt: skip
        return
    os.environ.pop("DATABASE_URL", None)  # the embedded default, whatever the shell has
    os.environ.pop("REDIS_URL", None)

    if args.campaigns:
        plans = [(f"{args.campaigns}x{args.sockets}", args.campaigns, args.rate or 3.2, {})]
    else:
        plans = [
            ("1x8", 1, 20.0, {"p99_ms<=15": lambda r: (r["p99_ms"] or 1e9) <= 15}),
            (
                "125x8",
                125,
                3.2,
                {
                    "delivered_per_s>=3000": lambda r: r["delivered_per_s"] >= 3000,
                    "p99_ms<=100": lambda r: (r["p99_ms"] or 1e9) <= 100,
                    "lost==0": lambda r: r["lost"] == 0,
                },
            ),
        ]
    workdir = Path(tempfile.mkdtemp(prefix="rollcall-bench-"))
    db = workdir / "bench.sqlite3"
    data = build_database(db, sum(p[1] for p in plans))
    ports = [free_port(), free_port()]
    servers = [
        start_daphne(db, ports[0], workdir / f"{args.server}.log", args.server),
        start_baseline(ports[1], workdir / "baseline.log"),
    ]
    results = []
    try:
        for port, server in zip(ports, servers, strict=True):
            wait_for_port(port, server, timeout=30)
        ids = iter(data["campaigns"])
        for name, count, rate, targets in plans:
            chosen = [next(ids) for _ in range(count)]
            pids = [server.pid for server in servers]
            result = scenario(
                name, ports, pids, chosen, data["cookies"], rate, args.duration, args.sockets,
                targets,
            )  # fmt: skip
            results.append(result)
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait(10)
    if args.json:
        print(json.dumps({"server": f"{args.server}, SQLite + in-memory layer, 1 process",
                          "results": results}, indent=2))  # fmt: skip
        return
    for r in results:
        print(f"{r['scenario']}: {r['campaigns']} campaigns x {r['sockets_per_campaign']} sockets, "
              f"{r['offered_rolls_per_s']} rolls/s offered for {r['duration_s']} s")  # fmt: skip
        for label in ("rollcall", "plain_websockets"):
            f = r[label]
            print(f"  {label:17} p50 {f['p50_ms']} ms  p99 {f['p99_ms']} ms  "
                  f"{f['rolls_per_s']} rolls/s  {f['delivered_per_s']} deliveries/s  "
                  f"lost {f['lost']} (gaps before replay {f['gaps_before_replay']})  "
                  f"server CPU {f['server_cpu_ms_per_roll']} ms/roll")  # fmt: skip
        verdicts = ", ".join(f"{k} {'met' if ok else 'MISSED'}" for k, ok in r["targets"].items())
        print(f"  ratio p99 {r['ratio_p99']}  ratio deliveries {r['ratio_delivered']}  "
              f"targets: {verdicts or 'none'}")  # fmt: skip


if __name__ == "__main__":
    main()
