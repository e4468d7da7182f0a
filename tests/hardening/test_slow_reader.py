"""A client that stops reading its socket must not hold the server's memory hostage nor
slow its table down: daphne drops it once TABLE_SOCKET_MAX_BUFFER bytes wait for it
(rollcall/wslimits.py), and the others at the table keep receiving every card.

Runs a real daphne process (`daphne rollcall.asgi:application`, as bench/table_load.py
starts it) on a SQLite database in a temporary directory. One raw TCP client does the
websocket handshake with a tiny receive buffer and never reads; the GM sends big rolls
(a 40-dice pool with long trait names, ~15 KB a card) that reach 7 reading sockets and
the stalled one. Without the bound, what the stalled socket is owed piles up in the
server process (see `measure` below to compare).
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from bench.table_load import connect, reader, start_daphne
from rollcall.localserver import free_port, wait_for_port

ROOT = Path(__file__).resolve().parents[2]
WARM_UP = 200  # rolls before the baseline is taken
ROLLS = 1000  # rolls measured: ~15 MB of cards for each socket
RATE = 80.0  # rolls/s the GM sends
BIG_ROLL = {
    "pool": [
        {"die": f"d{(4, 6, 8, 10, 12)[i % 5]}", "group": "situation",
         "trait": f"{i:02d} Reavers on the hull, port side, aft of the cargo bay doors, armed"}
        for i in range(40)
    ]
}  # fmt: skip
LIMIT = 1024 * 1024
RSS_GROWTH_BOUND = 3 * LIMIT  # the limit, twisted's own 64 KiB and some slack


def rss(pid: int) -> int:
    """The process's resident memory in bytes (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS")


def build(db: Path) -> dict:
    """bench/table_load.py's database (1 campaign: a GM, 7 players, their sessions), built
    in a child process: this one's Django is configured for the test database."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    code = (
        "import json, sys; from pathlib import Path; from bench.table_load import build_database; "
        "print(json.dumps(build_database(Path(sys.argv[1]), 1)))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(db)], cwd=ROOT, env=env, capture_output=True, timeout=120,
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
    sock.settimeout(10)
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(1)
        if not chunk:
            raise AssertionError(f"handshake refused: {head!r}")
        head += chunk
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def dropped(sock: socket.socket, within: float) -> bool:
    """Read what the server left for the socket: True if it ends (EOF or reset) in time."""
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


async def until(condition, seconds: float, what: str) -> None:
    deadline = time.perf_counter() + seconds
    while not condition():
        assert time.perf_counter() < deadline, what
        await asyncio.sleep(0.05)


async def drive(port: int, pid: int, campaign: int, cookies: list[str]) -> dict:
    origin = f"http://127.0.0.1:{port}"
    path = f"/ws/campaign/{campaign}/?last_seq=0"
    url = f"ws://127.0.0.1:{port}{path}"
    sockets = [await connect(url, cookie, origin) for cookie in cookies[:7]]  # GM, 6 players
    seen: list[dict[int, float]] = [{} for _ in sockets]
    tasks = [asyncio.create_task(reader(ws, s)) for ws, s in zip(sockets, seen, strict=True)]
    stalled = stalled_socket(port, path, cookies[7])
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

    async def rolls(count: int, rate: float) -> None:
        begin = time.perf_counter()
        for k in range(count):
            delay = begin + k / rate - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            sent.append(time.perf_counter())
            await sockets[0].send(roll)
        await until(lambda: min(len(s) for s in seen) >= len(sent), 30, "rolls went missing")

    # Warm-up: what serving a table costs anyway (buffers, templates, SQLite's cache)
    # is in the baseline; the stalled socket's kernel buffers fill up meanwhile.
    await rolls(WARM_UP, 100.0)
    await asyncio.sleep(0.5)
    before = peak = rss(pid)

    async def sample() -> None:
        nonlocal peak
        while True:
            peak = max(peak, rss(pid))
            await asyncio.sleep(0.1)

    sampler = asyncio.create_task(sample())
    measured_from = len(sent) + 1
    await rolls(ROLLS, RATE)
    await asyncio.sleep(2.0)  # the drop's abort (after ABORT_AFTER), then the last sample
    sampler.cancel()
    total = len(sent)
    peak = max(peak, rss(pid))
    latencies = sorted(
        max(s[seq] for s in seen) - sent[seq - 1] for seq in range(measured_from, total + 1)
    )
    missing = sum(1 for s in seen for seq in range(1, total + 1) if seq not in s)
    dawdling.cancel()
    sluggish.transport.resume_reading()
    await until(lambda: len(in_bursts) >= total, 10, "the dawdling reader lost cards")
    was_dropped = await asyncio.to_thread(dropped, stalled, 5.0)
    stalled.close()

    # A dropped client comes back with its last seq and gets what it missed.
    back: dict[int, float] = {}
    ws = await connect(url.replace("last_seq=0", f"last_seq={total - 50}"), cookies[7], origin)
    tasks.append(asyncio.create_task(reader(ws, back)))
    await until(lambda: len(back) >= 50, 10, "the replay after the drop did not arrive")
    for socket_ in [*sockets, sluggish, ws]:
        await socket_.close()
    for task in tasks:
        task.cancel()
    return {
        "rolls": total,
        "rss_before": before,
        "rss_peak": peak,
        "growth": peak - before,
        "p50_ms": round(1000 * latencies[len(latencies) // 2], 1),
        "p99_ms": round(1000 * latencies[int(0.99 * len(latencies))], 1),
        "missing": missing,
        "dropped": was_dropped,
        "replayed": sorted(back),
        "in_bursts": list(in_bursts),  # in the order they arrived
    }


def measure(limit: int | None = None) -> dict:
    """One run of the scenario; `limit` sets TABLE_SOCKET_MAX_BUFFER (0: no bound)."""
    workdir = Path(tempfile.mkdtemp(prefix="rollcall-slow-reader-"))
    db = workdir / "table.sqlite3"
    data = build(db)
    port = free_port()
    env = {
        "TABLE_SOCKET_MAX_BUFFER": str(LIMIT if limit is None else limit),
        # a small card cache, so that its filling up with these big cards does not
        # hide what the stalled socket holds (table/rendering.py)
        "TABLE_CARD_CACHE_BYTES": str(256 * 1024),
    }
    saved = {name: os.environ.get(name) for name in env}
    os.environ.update(env)  # start_daphne passes this process's environment on
    try:
        server = start_daphne(db, port, workdir / "daphne.log")
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name)
            else:
                os.environ[name] = value
    try:
        wait_for_port(port, server, timeout=30)
        figures = asyncio.run(drive(port, server.pid, data["campaigns"][0], data["cookies"]))
    finally:
        server.terminate()
        server.wait(10)
        shutil.rmtree(workdir, ignore_errors=True)
    return figures


@pytest.mark.timeout(90)
def test_a_client_that_stops_reading_is_dropped_and_the_table_keeps_up(record_property):
    result = measure()
    for name in ("growth", "p50_ms", "p99_ms", "rolls"):
        record_property(f"slow_reader_{name}", result[name])
    assert result["dropped"], "the stalled socket was never dropped"
    assert result["growth"] < RSS_GROWTH_BOUND, result
    assert result["missing"] == 0, result
    assert result["p99_ms"] < 1000, result
    assert result["replayed"] == list(range(result["rolls"] - 49, result["rolls"] + 1))
    assert result["in_bursts"] == list(range(1, result["rolls"] + 1))


if __name__ == "__main__":
    # Compare: .venv/bin/python -m tests.hardening.test_slow_reader [limit]
    figures = measure(int(sys.argv[1]) if len(sys.argv) > 1 else None)
    figures.pop("replayed")
    figures.pop("in_bursts")
    print(json.dumps(figures, indent=2))  # noqa: T201
