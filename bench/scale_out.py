"""Scale-out of the live table on PostgreSQL + Redis, for bench/table_load.py --services:
one server process against two (each campaign's sockets alternating between them, so
every card crosses Redis), as the capacity each carries within the latency bound, or as
server CPU per roll at one offered load (--cpu).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import time
from pathlib import Path

from bench.load import build_database, cpu_seconds, ratio, run_load, start_daphne
from bench.scratch import (
    drop_database,
    fresh_database,
    spread_campaign_ids,
)
from rollcall.localserver import free_port, wait_for_port

CAPACITY_P99_MS = 100.0  # the bound the issue sets for 125 × 8 on one process
CAPACITY_STEPS = 9  # loads tried per server count at most
CAPACITY_PRECISION = 0.05  # stop when the last load kept up with and the first not are this close


def keeps_up(run: dict) -> bool:
    return run["lost"] == 0 and (run["p99_ms"] or 1e9) <= CAPACITY_P99_MS


def wait_until_idle(pids: list[int], limit: float = 60.0) -> None:
    """Before a step: the servers have worked off what an earlier step that fell behind
    left queued (rolls its sockets sent before closing), or that backlog would be
    counted against this step."""
    deadline = time.monotonic() + limit
    before = sum(cpu_seconds(p) for p in pids)
    while time.monotonic() < deadline:
        time.sleep(0.5)
        now = sum(cpu_seconds(p) for p in pids)
        if now - before < 0.05 * 0.5 * len(pids):  # under 5 % of a core each
            return
        before = now


class CapacitySearch:
    """The highest load (rolls/s per campaign) a setup keeps up with (p99 ≤ 100 ms,
    nothing lost), one step at a time: raise it by a quarter while it keeps up, lower it
    while it does not, then halve the interval. Steps of two searches can alternate."""

    def __init__(self, start: float) -> None:
        self.rate = start
        self.runs: list[dict] = []
        self.best: dict | None = None
        self.failed: float | None = None
        self.done = False

    def record(self, measured: dict) -> None:
        rate = self.rate
        run = {"offered_rolls_per_s_per_campaign": round(rate, 3), **measured}
        run["kept_up"] = keeps_up(run)
        self.runs.append(run)
        if run["kept_up"]:
            if self.best is None or rate > self.best["offered_rolls_per_s_per_campaign"]:
                self.best = run
        elif self.failed is None or rate < self.failed:
            self.failed = rate
        if len(self.runs) >= CAPACITY_STEPS:
            self.done = True
        elif self.best is None:
            self.rate = rate / 1.25
        else:
            kept = self.best["offered_rolls_per_s_per_campaign"]
            if self.failed is None:
                self.rate = kept * 1.25
            elif self.failed / kept <= 1 + CAPACITY_PRECISION:
                self.done = True
            else:
                self.rate = (kept * self.failed) ** 0.5


@contextlib.contextmanager
def services_setups(args, workdir: Path, campaigns: int, setups: tuple[int, ...] = (1, 2)):
    """A fresh database on the server of DATABASE_URL (dropped after) with `campaigns`
    campaigns, and a setup of 1 and one of 2 server processes on it and REDIS_URL, all
    running throughout: yields (data, ports, pids, every_pid), ports and pids by setup."""
    database_url, redis_url = os.environ.get("DATABASE_URL"), os.environ.get("REDIS_URL")
    if not database_url or not redis_url:
        raise SystemExit("--services needs DATABASE_URL and REDIS_URL")
    url, name = fresh_database(database_url)
    os.environ["DATABASE_URL"] = url
    services = {"DATABASE_URL": url, "REDIS_URL": redis_url}
    servers: list[subprocess.Popen] = []
    try:
        spread_campaign_ids()
        data = build_database(workdir / "unused.sqlite3", campaigns)
        ports = {processes: [free_port() for _ in range(processes)] for processes in setups}
        pids: dict[int, list[int]] = {}
        for processes, setup_ports in ports.items():
            for port in setup_ports:
                servers.append(
                    start_daphne(workdir / "unused.sqlite3", port, workdir / f"{port}.log",
                                 args.server, services)
                )  # fmt: skip
                wait_for_port(port, servers[-1], timeout=30)
            pids[processes] = [server.pid for server in servers[-processes:]]
        yield data, ports, pids, [server.pid for server in servers]
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait(10)
        from django.db import connections

        connections.close_all()
        drop_database(database_url, name)


def scale_out(args, workdir: Path) -> dict:
    """Capacity on one and on two server processes sharing PostgreSQL and Redis (a fresh
    database on the server of DATABASE_URL, dropped after; REDIS_URL): the most
    deliveries per second each setup carries within the latency bound, found by
    stepping the offered load, each step on fresh campaigns. All three servers run
    throughout and the two setups' steps alternate, so a machine whose speed drifts
    during the run weighs on both alike (an idle server costs nothing: it has no
    sockets, so no subscriptions)."""
    count = args.campaigns or 125
    start = args.rate or 1.2
    searches = {1: CapacitySearch(start), 2: CapacitySearch(start * 1.25)}
    with services_setups(args, workdir, 2 * CAPACITY_STEPS * count) as setup:
        data, ports, pids, every_pid = setup
        fresh = iter(data["campaigns"])
        while not all(search.done for search in searches.values()):
            for processes, search in searches.items():
                if search.done:
                    continue
                ids = [next(fresh) for _ in range(count)]
                wait_until_idle(every_pid)
                search.record(
                    asyncio.run(
                        run_load("rollcall", ports[processes], ids, data["cookies"],
                                 search.rate, args.duration, args.sockets, pids[processes])
                    )
                )  # fmt: skip

    def summary(processes: int) -> dict:
        best, runs = searches[processes].best, searches[processes].runs
        return {
            "capacity_delivered_per_s": best and best["delivered_per_s"],
            "capacity_rolls_per_s": best and best["rolls_per_s"],
            "at_capacity": best,
            "peak_delivered_per_s": max(run["delivered_per_s"] for run in runs),
            "steps": runs,
        }

    one, two = summary(1), summary(2)
    gain = ratio(two["capacity_delivered_per_s"], one["capacity_delivered_per_s"])
    return {
        "scenario": f"{count}x{args.sockets}, 1 vs 2 processes",
        "bound": f"p99 <= {CAPACITY_P99_MS:g} ms, lost 0",
        "duration_s": args.duration,
        "one_process": one,
        "two_processes": two,
        "ratio_capacity": gain,
        "ratio_peak": ratio(two["peak_delivered_per_s"], one["peak_delivered_per_s"]),
        "targets": {"ratio_capacity>=1.6": (gain or 0) >= 1.6},
    }


CPU_RATIO_TARGET = 1.10  # two processes' server CPU per roll, over one process's


def cpu_per_roll(runs: list[dict]) -> float | None:
    """Server CPU per roll over several runs: their CPU summed over their rolls."""
    rolls = sum(run["rolls"] for run in runs)
    if not rolls:
        return None
    return round(sum(run["server_cpu_ms_per_roll"] * run["rolls"] for run in runs) / rolls, 3)


def cpu_out(args, workdir: Path) -> dict:
    """Server CPU per roll on one and on two server processes (PostgreSQL + Redis, each
    campaign's sockets alternating between them, so every card crosses Redis) at ONE
    offered load, the same for both: CPU summed over the setup's processes, per roll
    sent. Each step on fresh campaigns, the setups' steps in the order 1 2 2 1 (then
    again per further pair of rounds), so a machine whose speed drifts weighs on both
    alike. The figure is meant for a load both keep up with: each step says whether
    every card reached every socket before its CPU window closed (all_handled: a setup
    that falls behind reads low, its rolls sent but not yet handled) and whether it also
    kept p99 <= 100 ms (kept_up, the bound of the capacity search)."""
    count = args.campaigns or 125
    rate = args.rate or 1.2
    order = [setup for r in range(args.rounds) for setup in ((1, 2) if r % 2 == 0 else (2, 1))]
    runs: dict[int, list[dict]] = {1: [], 2: []}
    with services_setups(args, workdir, len(order) * count) as setup:
        data, ports, pids, every_pid = setup
        fresh = iter(data["campaigns"])
        for processes in order:
            ids = [next(fresh) for _ in range(count)]
            wait_until_idle(every_pid)
            run = asyncio.run(
                run_load("rollcall", ports[processes], ids, data["cookies"], rate,
                         args.duration, args.sockets, pids[processes])
            )  # fmt: skip
            run["kept_up"] = keeps_up(run)
            run["all_handled"] = run["gaps_before_replay"] == 0 and run["lost"] == 0
            runs[processes].append(run)

    def summary(processes: int) -> dict:
        return {
            "server_cpu_ms_per_roll": cpu_per_roll(runs[processes]),
            "kept_up": all(run["kept_up"] for run in runs[processes]),
            "all_handled": all(run["all_handled"] for run in runs[processes]),
            "steps": runs[processes],
        }

    one, two = summary(1), summary(2)
    cpu_ratio = ratio(two["server_cpu_ms_per_roll"], one["server_cpu_ms_per_roll"])
    return {
        "scenario": f"{count}x{args.sockets} at {rate * count:g} rolls/s, 1 vs 2 processes",
        "offered_rolls_per_s_per_campaign": rate,
        "offered_rolls_per_s": round(rate * count, 1),
        "duration_s": args.duration,
        "order": order,
        "one_process": one,
        "two_processes": two,
        "ratio_cpu_per_roll": cpu_ratio,
        "both_kept_up": one["kept_up"] and two["kept_up"],
        "both_handled_all": one["all_handled"] and two["all_handled"],
        "targets": {
            f"ratio_cpu_per_roll<={CPU_RATIO_TARGET}": (cpu_ratio or 1e9) <= CPU_RATIO_TARGET
        },
    }
