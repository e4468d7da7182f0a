"""Slow-reader benchmark: what a client that stops reading its socket costs the server's
memory and the other sockets' latency, with TABLE_SOCKET_MAX_BUFFER's bound and without.

Run from the repository root (not in CI):

    .venv/bin/python bench/slow_reader.py [--json] [--runs 3]
    .venv/bin/python bench/slow_reader.py --limit 0      # the bound switched off

Each run builds a fresh embedded database (SQLite, in a temporary directory; one
campaign: a GM, 7 players, their sessions, as bench/load.py builds it) and starts
ONE daphne process (`daphne rollcall.asgi:application`) with a small card cache
(TABLE_CARD_CACHE_BYTES 256 KiB, so that the cache filling up with big cards does not
hide what the stalled socket holds). Then:

- 7 sockets read normally (the GM's and 6 players'); an eighth reads in bursts (0.3 s
  paused, 0.05 s reading, a 4 KiB receive buffer); a raw TCP client does the websocket
  handshake with a 4 KiB receive buffer and never reads;
- the GM sends big rolls (a 40-dice pool with long trait names, ~15 KB a card):
  --warmup rolls at 100/s, then the server's resident memory is sampled ("before"),
  then --rolls rolls at --rate/s while memory is sampled every 0.1 s ("peak");
- the stalled socket is then read to see whether the server dropped it, and a new
  socket from the last seq minus 50 checks the replay.

Figures: memory before, peak and growth; the reading sockets' p50/p99 (a roll's delay
from sending it to its card reaching the last of the 7 normal sockets, measured rolls
only); cards missing; whether the stalled socket was dropped. With the bound (1 MiB)
growth stays around 0.1 MiB and the stalled socket is dropped; with --limit 0 it grows
by about one card per roll. tests/hardening/test_slow_reader.py runs the same scenario
and checks only the behaviour (the drop, every card to every reading socket, in order,
the replay), which holds whatever the machine's load.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.load import connect, reader, start_daphne  # noqa: E402
from bench.soak import rss_bytes  # noqa: E402
from rollcall.localserver import free_port, wait_for_port  # noqa: E402

LIMIT = 1024 * 1024  # TABLE_SOCKET_MAX_BUFFER's default (rollcall/settings.py)
BIG_ROLL = {
    "pool": [
        {"die": f"d{(4, 6, 8, 10, 12)[i % 5]}", "group": "situation",
         "trait": f"{i:02d} Reavers on the hull, port side, aft of the cargo bay doors, armed"}
        for i in range(40)
    ]
}  # fmt: skip
HANG_GUARD = 180.0  # seconds: only a server that has stopped delivering takes this long
REPLAYED = 50  # rolls the socket that comes back asks for
# daphne's keep-alive drops a socket that has not answered its ping for ping-timeout
# seconds: pushed out of the way, so that nothing but the bound can drop the stalled one
# however long the run takes.
NO_KEEPALIVE = ("--ping-interval", "86400", "--ping-timeout", "86400")
AHEAD = 30  # rolls the paced sender may be ahead of the slowest reading socket (~450 KB)


def build(db: Path) -> dict:
    """bench/load.py's database (1 campaign: a GM, 7 players, their sessions), built
    in a child process, so that the caller's Django (a test's) is left alone."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    code = (
        "import json, sys; from pathlib import Path; from bench.load import build_database; "
        "print(json.dumps(build_database(Path(sys.argv[1]), 1)))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(db)], cwd=ROOT, env=env, capture_output=True, timeout=300,
        check=True,
    )  # fmt: skip
    return json.loads(done.stdout.decode().strip().splitlines()[-1])


def stalled_socket(port: int, path: str, cookie: str) -> socket.socket:
    """The websocket handshake over a raw socket with a tiny receive buffer; the caller
    then never reads it."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
            f"Origin: http://127.0.0.1:{port}\r\nCookie: {cookie}\r\n\r\n"
        ).encode()
    )
    head = b""
    sock.settimeout(HANG_GUARD)
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(1)
        if not chunk:
            raise AssertionError(f"handshake refused: {head!r}")
        head += chunk
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def dropped(sock: socket.socket, within: float) -> bool:
    """Read what the server left for the socket: True once it ends (EOF or reset), False
    if it is still open after `within` seconds."""
    sock.settimeout(0.5)
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            if not sock.recv(1 << 16):
                return True
        except TimeoutError:
            continue
        except ConnectionResetError:
            return True
    return False


async def until(condition, what: str, seconds: float = HANG_GUARD) -> None:
    """Wait for `condition`; failing after `seconds` only guards against a hang."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.05)


async def drive(
    port: int, pid: int, campaign: int, cookies: list[str], warmup: int, rolls: int,
    rate: float, figures: bool,
) -> dict:  # fmt: skip
    """The scenario against a running server. With `figures`, the rolls go at a fixed
    rate (open loop, as latency is measured) and memory is sampled. Without, the sender
    waits 1/rate between rolls and never gets more than AHEAD rolls ahead of the slowest
    reading socket: the readers share the machine with the server, and a busy machine
    must make the run longer, not leave a reader so far behind that the bound drops it."""
    origin = f"http://127.0.0.1:{port}"
    path = f"/ws/campaign/{campaign}/?last_seq=0"
    url = f"ws://127.0.0.1:{port}{path}"
    sockets = [await connect(url, cookie, origin) for cookie in cookies[:7]]  # GM, 6 players
    seen: list[dict[int, float]] = [{} for _ in sockets]
    tasks = [asyncio.create_task(reader(ws, s)) for ws, s in zip(sockets, seen, strict=True)]
    stalled = await asyncio.to_thread(stalled_socket, port, path, cookies[7])
    # A reader that dawdles (reads in bursts) leaves the server's writes to it partial,
    # half in the kernel and half queued in daphne's transport: its cards must still
    # come whole and in order (rollcall/wslimits.py writes at once when nothing waits).
    sluggish = await connect(url, cookies[6], origin, receive_buffer=4096)
    in_bursts: dict[int, float] = {}
    tasks.append(asyncio.create_task(reader(sluggish, in_bursts)))

    async def dawdle() -> None:
        while True:
            sluggish.transport.pause_reading()
            await asyncio.sleep(0.3)
            sluggish.transport.resume_reading()
            await asyncio.sleep(0.05)

    dawdling = asyncio.create_task(dawdle())
    roll = json.dumps({"type": "act", "action": "roll", "request": BIG_ROLL})
    sent: list[float] = []
    readers = [*seen, in_bursts]

    async def send(count: int, per_second: float) -> None:
        begin = time.perf_counter()
        for k in range(count):
            if figures:
                await asyncio.sleep(max(begin + k / per_second - time.perf_counter(), 0))
            else:
                await asyncio.sleep(1 / per_second)
                await until(
                    lambda: min(map(len, readers)) >= len(sent) - AHEAD, "the readers stopped"
                )
            sent.append(time.perf_counter())
            await sockets[0].send(roll)
        await until(lambda: min(len(s) for s in seen) >= len(sent), "rolls went missing")

    # Warm-up: what serving a table costs anyway (buffers, templates, SQLite's cache)
    # is in the baseline; the stalled socket's kernel buffers fill up meanwhile.
    await send(warmup, 100.0)
    before = peak = 0
    sampler = None
    if figures:
        await asyncio.sleep(0.5)
        before = peak = rss_bytes(pid) or 0

        async def sample() -> None:
            nonlocal peak
            while True:
                peak = max(peak, rss_bytes(pid) or 0)
                await asyncio.sleep(0.1)

        sampler = asyncio.create_task(sample())
    measured_from = len(sent) + 1
    await send(rolls, rate)
    if sampler is not None:
        await asyncio.sleep(2.0)  # the drop's abort (after ABORT_AFTER), then the last sample
        sampler.cancel()
        peak = max(peak, rss_bytes(pid) or 0)
    total = len(sent)
    latencies = sorted(
        max(s[seq] for s in seen) - sent[seq - 1] for seq in range(measured_from, total + 1)
    )
    missing = sum(1 for s in seen for seq in range(1, total + 1) if seq not in s)
    dawdling.cancel()
    sluggish.transport.resume_reading()
    await until(lambda: len(in_bursts) >= total, "the dawdling reader lost cards")
    was_dropped = await asyncio.to_thread(dropped, stalled, HANG_GUARD)
    stalled.close()

    # A dropped client comes back with its last seq and gets what it missed.
    back: dict[int, float] = {}
    ws = await connect(
        url.replace("last_seq=0", f"last_seq={total - REPLAYED}"), cookies[7], origin
    )
    tasks.append(asyncio.create_task(reader(ws, back)))
    await until(lambda: len(back) >= REPLAYED, "the replay after the drop did not arrive")
    for socket_ in [*sockets, sluggish, ws]:
        await socket_.close()
    for task in tasks:
        task.cancel()
    return {
        "rolls": total,
        "rss_before": before,
        "rss_peak": peak,
        "growth": peak - before,
        "growth_mib": round((peak - before) / LIMIT, 2),
        "p50_ms": round(1000 * latencies[len(latencies) // 2], 1),
        "p99_ms": round(1000 * latencies[int(0.99 * len(latencies))], 1),
        "missing": missing,
        "arrived": [list(s) for s in seen],  # each reading socket's seqs, in arrival order
        "dropped": was_dropped,
        "replayed": sorted(back),
        "in_bursts": list(in_bursts),  # in the order they arrived
    }


def measure(
    limit: int = LIMIT, warmup: int = 200, rolls: int = 1000, rate: float = 80.0,
    figures: bool = True,
) -> dict:  # fmt: skip
    """One run on a fresh server; `limit` sets TABLE_SOCKET_MAX_BUFFER (0: no bound)."""
    workdir = Path(tempfile.mkdtemp(prefix="rollcall-slow-reader-"))
    db = workdir / "table.sqlite3"
    data = build(db)
    port = free_port()
    env = {
        "TABLE_SOCKET_MAX_BUFFER": str(limit),
        # a small card cache, so that its filling up with these big cards does not
        # hide what the stalled socket holds (table/reading/rendering.py)
        "TABLE_CARD_CACHE_BYTES": str(256 * 1024),
    }
    saved = {name: os.environ.get(name) for name in env}
    os.environ.update(env)  # start_daphne passes this process's environment on
    try:
        server = start_daphne(db, port, workdir / "daphne.log", options=NO_KEEPALIVE)
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name)
            else:
                os.environ[name] = value
    try:
        wait_for_port(port, server, timeout=HANG_GUARD)
        return asyncio.run(
            drive(port, server.pid, data["campaigns"][0], data["cookies"], warmup, rolls, rate,
                  figures)
        )  # fmt: skip
    finally:
        server.terminate()
        server.wait(30)
        shutil.rmtree(workdir, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--runs", type=int, default=1, help="runs, each on a fresh server")
    parser.add_argument("--limit", type=int, default=LIMIT, help="TABLE_SOCKET_MAX_BUFFER (0: off)")
    parser.add_argument("--warmup", type=int, default=200, help="rolls before the baseline")
    parser.add_argument("--rolls", type=int, default=1000, help="rolls measured (~15 KB a card)")
    parser.add_argument("--rate", type=float, default=80.0, help="rolls/s the GM sends")
    args = parser.parse_args()
    os.environ.pop("DATABASE_URL", None)  # the embedded default, whatever the shell has
    os.environ.pop("REDIS_URL", None)
    runs = []
    for _ in range(args.runs):
        run = measure(args.limit, args.warmup, args.rolls, args.rate)
        last = run["rolls"]
        run["replay_complete"] = run.pop("replayed") == list(range(last - REPLAYED + 1, last + 1))
        everything = list(range(1, last + 1))
        run["in_order"] = all(order == everything for order in run.pop("arrived"))
        run["in_bursts_in_order"] = run.pop("in_bursts") == everything
        runs.append(run)
    median = {
        name: statistics.median(run[name] for run in runs)
        for name in ("growth", "growth_mib", "p50_ms", "p99_ms")
    }
    if args.json:
        print(json.dumps({"limit": args.limit, "runs": runs, "median": median}, indent=2))
        return
    for number, run in enumerate(runs, 1):
        print(f"run {number}: {run['rolls']} rolls, limit {args.limit} B: memory "
              f"{run['rss_before'] / LIMIT:.1f} -> {run['rss_peak'] / LIMIT:.1f} MiB "
              f"(+{run['growth_mib']} MiB), p50 {run['p50_ms']} ms, p99 {run['p99_ms']} ms, "
              f"missing {run['missing']}, stalled socket "
              f"{'dropped' if run['dropped'] else 'NOT dropped'}")  # fmt: skip
    if len(runs) > 1:
        print(f"median: +{median['growth_mib']} MiB, p50 {median['p50_ms']} ms, "
              f"p99 {median['p99_ms']} ms")  # fmt: skip


if __name__ == "__main__":
    main()
