"""The load of the table's benchmarks: a database of campaigns and signed-in sessions, a
daphne (or another ASGI server) started on it, light websocket clients on the
`websockets` library's sans-I/O protocol (LoadSocket), an open-loop load of rolls and
what it measured (latency from a roll sent to its card on every socket, deliveries,
lost, server CPU and memory per roll). bench/table_load.py, bench/scale_out.py,
bench/soak.py and the other benches drive it.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import resource
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench.scratch import SETTINGS_ENV

ROOT = Path(__file__).resolve().parents[1]

SEQ = re.compile(rb'<template hx-swap-oob="afterbegin:#log" data-seq="(\d+)"')
ROLL = {"pool": [{"die": "d8", "trait": "Goons", "group": "situation"},
                 {"die": "d6", "trait": "Bad light", "group": "situation"}]}  # fmt: skip
PLAYERS = 7
BASELINE_PAYLOAD = 2400  # bytes, about the size of a rendered roll card


# --------------------------------------------------------------------------- setup


def build_database(path: Path, campaigns: int) -> dict:
    """A fresh SQLite database with `campaigns` Serenity campaigns, one GM and 7 players
    in each, and a logged-in session per user."""
    os.environ["SQLITE_PATH"] = str(path)
    os.environ.update(SETTINGS_ENV)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rollcall.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client

    from accounts.models import User
    from campaigns.models import Campaign, Membership, Role

    call_command("migrate", verbosity=0)
    gm = User.objects.create_user("bench-gm", password="bench-password-1")
    players = [
        User.objects.create_user(f"bench-p{i}", password="bench-password-1") for i in range(PLAYERS)
    ]
    ids = []
    for number in range(campaigns):
        campaign = Campaign.objects.create(name=f"Bench {number}", system="serenity")
        Membership.objects.create(campaign=campaign, user=gm, role=Role.GM)
        Membership.objects.bulk_create(
            Membership(campaign=campaign, user=p, role=Role.PLAYER) for p in players
        )
        ids.append(campaign.pk)
    cookies = []
    for user in [gm, *players]:
        client = Client()
        client.force_login(user)
        cookies.append(f"sessionid={client.cookies['sessionid'].value}")
    connection.close()
    return {"campaigns": ids, "cookies": cookies}


SERVERS = {
    # daphne is the server Rollcall ships (README, docs/deploy.md); uvicorn is measured
    # beside it (`--server uvicorn`, from the bench extra) because design.md asks for both.
    "daphne": lambda port: ["daphne", "-b", "127.0.0.1", "-p", str(port),
                            "--access-log", os.devnull],
    "uvicorn": lambda port: ["uvicorn", "--host", "127.0.0.1", "--port", str(port),
                             "--ws", "websockets", "--no-access-log", "--log-level", "error"],
}  # fmt: skip


def start_daphne(
    db: Path, port: int, log: Path, server: str = "daphne", services: dict[str, str] | None = None,
    options: tuple[str, ...] = (),
) -> subprocess.Popen:  # fmt: skip
    """The server on `port`, on the SQLite database `db`, or on `services` (DATABASE_URL
    and REDIS_URL) when given; `options` go on the server's command line."""
    env = {
        **os.environ,
        "SQLITE_PATH": str(db),
        "TABLE_SOCKET_RATE": "1000000",
        "TABLE_SOCKET_WINDOW": "1",
        "TABLE_USER_RATE": "1000000",  # one user (the GM) rolls at every table
        "TABLE_USER_WINDOW": "1",
        "TABLE_SOCKET_OPENS": "1000000",  # and each session has a socket at every table
        "LOG_LEVEL": "ERROR",
        **SETTINGS_ENV,
    }
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    env.update(services or {})
    command = SERVERS[server](port)
    command[0] = str(Path(sys.executable).with_name(command[0]))
    if os.environ.get("BENCH_DAPHNE"):  # e.g. a profiling wrapper
        command[0] = os.environ["BENCH_DAPHNE"]
    return subprocess.Popen(
        [*command, *options, "rollcall.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
    )


# --------------------------------------------------------------------------- the load


@dataclass
class Room:
    """One campaign under load: when each roll left, when each socket saw each seq."""

    sockets: list = field(default_factory=list)
    sent: list[float] = field(default_factory=list)
    seen: list[dict[int, float]] = field(default_factory=list)
    warmup: int = 0  # the first seqs, rolled before the measured window


class LoadSocket(asyncio.Protocol):
    """One client socket on websockets' sans-I/O protocol. Frames are parsed as bytes
    arrive and each card's seq is recorded right there: no reader task, no future per
    message, no text decoding. The load generator shares the servers' cores, so the less
    it takes of them, the more the figures describe the servers (its own CPU per roll is
    reported as load_cpu_ms_per_roll)."""

    def __init__(self, protocol, request) -> None:
        self.protocol = protocol
        self.request = request  # the handshake, sent once connected
        self.transport: asyncio.Transport | None = None
        self.seen: dict[int, float] | None = None
        self.early: list[tuple[bytes, float]] = []  # before a reader attached its dict
        self.fragments: list[bytes] = []
        loop = asyncio.get_running_loop()
        self.opened = loop.create_future()
        self.closed = loop.create_future()

    def connection_made(self, transport) -> None:
        self.transport = transport
        self.protocol.send_request(self.request)
        self._flush()

    def data_received(self, data: bytes) -> None:
        from websockets.frames import Frame, Opcode

        now = time.perf_counter()
        self.protocol.receive_data(data)
        for event in self.protocol.events_received():
            if not isinstance(event, Frame):  # the handshake's response
                if not self.opened.done():
                    error = self.protocol.handshake_exc
                    self.opened.set_exception(error) if error else self.opened.set_result(None)
            elif event.opcode in (Opcode.TEXT, Opcode.BINARY, Opcode.CONT):
                self.fragments.append(event.data)
                if event.fin:
                    message, self.fragments = b"".join(self.fragments), []
                    self._record(message, now)
        self._flush()  # pongs and the closing handshake

    def _record(self, message: bytes, now: float) -> None:
        if self.seen is None:
            self.early.append((message, now))
            return
        for match in SEQ.finditer(message):
            self.seen.setdefault(int(match.group(1)), now)

    def _flush(self) -> None:
        for data in self.protocol.data_to_send():
            if data and self.transport is not None and not self.transport.is_closing():
                self.transport.write(data)
        if self.protocol.close_expected() and self.transport is not None:
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.opened.done():
            self.opened.set_exception(exc or ConnectionError("closed during the handshake"))
        if not self.closed.done():
            self.closed.set_result(None)

    async def send(self, text: str) -> None:
        self.protocol.send_text(text.encode())
        self._flush()

    async def close(self) -> None:
        if not self.closed.done() and self.transport is not None:
            self.protocol.send_close()
            self._flush()
            try:
                await asyncio.wait_for(asyncio.shield(self.closed), 5)
            except TimeoutError:
                self.transport.abort()


async def connect(
    url: str, cookie: str | None, origin: str, receive_buffer: int | None = None
) -> LoadSocket:
    """A LoadSocket, open; `receive_buffer` sets the socket's SO_RCVBUF (a slow reader)."""
    from websockets.client import ClientProtocol
    from websockets.typing import Origin
    from websockets.uri import parse_uri

    uri = parse_uri(url)
    error: Exception | None = None
    for attempt in range(5):
        protocol = ClientProtocol(uri, origin=Origin(origin), max_size=None)
        request = protocol.connect()
        if cookie:
            request.headers["Cookie"] = cookie
        loop = asyncio.get_running_loop()
        socket_ = LoadSocket(protocol, request)
        try:
            if receive_buffer is None:
                await loop.create_connection(lambda s=socket_: s, uri.host, uri.port)
            else:
                raw = socket.socket()
                raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
                raw.setblocking(False)
                await loop.sock_connect(raw, (uri.host, uri.port))
                await loop.create_connection(lambda s=socket_: s, sock=raw)
            await asyncio.wait_for(socket_.opened, 30)
            return socket_
        except (OSError, TimeoutError, ConnectionError) as failed:
            error = failed
            await asyncio.sleep(0.2 * (attempt + 1))
    raise SystemExit(f"could not connect to {url}: {error!r}")


async def reader(ws: LoadSocket, seen: dict[int, float]) -> None:
    """Record into `seen` when each seq arrives on `ws`, until it closes."""
    ws.seen = seen
    for message, at in ws.early:
        ws._record(message, at)
    ws.early.clear()
    await asyncio.shield(ws.closed)


def measured(room: Room, seen: dict[int, float]) -> int:
    """How many of the room's measured rolls (after the warm-up) one socket has seen."""
    return sum(1 for seq in seen if room.warmup < seq <= len(room.sent))


async def run_load(
    kind: str, port: int | list[int], campaigns: list[int], cookies: list[str], rate: float,
    duration: float, sockets_per_room: int, pid: int | list[int],
) -> dict:  # fmt: skip
    """With several ports (servers), each room's sockets alternate between them, so
    every card crosses the channel layer; CPU is summed over the servers' pids."""
    ports = port if isinstance(port, list) else [port]
    pids = pid if isinstance(pid, list) else [pid]
    rooms: dict[int, Room] = {c: Room() for c in campaigns}

    async def open_room(campaign: int) -> None:
        room = rooms[campaign]
        for index in range(sockets_per_room):
            port = ports[(campaigns.index(campaign) + index) % len(ports)]
            origin = f"http://127.0.0.1:{port}"
            if kind == "rollcall":
                url = f"ws://127.0.0.1:{port}/ws/campaign/{campaign}/?last_seq=0"
                ws = await connect(url, cookies[index % len(cookies)], origin)
            else:
                ws = await connect(f"ws://127.0.0.1:{port}/c/{campaign}", None, origin)
            room.sockets.append(ws)
            room.seen.append({})

    for start in range(0, len(campaigns), 25):
        await asyncio.gather(*(open_room(c) for c in campaigns[start : start + 25]))
    readers = [
        asyncio.create_task(reader(ws, seen))
        for room in rooms.values()
        for ws, seen in zip(room.sockets, room.seen, strict=True)
    ]
    await asyncio.sleep(0.5)
    roll = json.dumps({"type": "act", "action": "roll", "request": ROLL})

    async def roller(room: Room) -> None:
        interval = 1.0 / rate
        begin = time.perf_counter() + random.random() * interval
        count = int(duration * rate)
        for k in range(count):
            delay = begin + k * interval - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            room.sent.append(time.perf_counter())
            await room.sockets[0].send(roll if kind == "rollcall" else "roll")

    # Warm-up: one roll per campaign, out of the figures. A campaign's first roll creates
    # its log head and a fresh server's first ones compile templates and fill caches:
    # a start-up cost, not the steady state the figures describe.
    for room in rooms.values():
        room.sent.append(time.perf_counter())
        await room.sockets[0].send(roll if kind == "rollcall" else "roll")
        room.warmup = len(room.sent)
    deadline = time.perf_counter() + 30
    while time.perf_counter() < deadline and not all(
        room.warmup in seen for room in rooms.values() for seen in room.seen
    ):
        await asyncio.sleep(0.05)

    if kind == "rollcall" and os.environ.get("BENCH_DAPHNE"):
        for each in pids:  # a profiling wrapper (bench/profile_server.py) starts afresh
            os.kill(each, signal.SIGUSR1)
    cpu_before = sum(cpu_seconds(p) for p in pids)
    load_before = load_cpu_seconds()
    machine_before = machine_busy_seconds()
    started = time.perf_counter()
    await asyncio.gather(*(roller(room) for room in rooms.values()))
    window_end = time.perf_counter()
    machine_busy = (machine_busy_seconds() - machine_before) / (window_end - started)
    total = sum(len(room.sent) - room.warmup for room in rooms.values())
    expected = total * sockets_per_room
    deadline = time.perf_counter() + 10
    while time.perf_counter() < deadline:
        got = sum(measured(room, seen) for room in rooms.values() for seen in room.seen)
        if got >= expected:
            break
        await asyncio.sleep(0.05)
    cpu_used = sum(cpu_seconds(p) for p in pids) - cpu_before
    load_used = load_cpu_seconds() - load_before
    rss = sum(rss_bytes(p) for p in pids)
    elapsed = window_end - started

    latencies = []
    in_window = completed_in_window = 0
    for room in rooms.values():
        for seq, sent_at in enumerate(room.sent, start=1):
            if seq <= room.warmup:
                continue
            times = [seen.get(seq) for seen in room.seen]
            in_window += sum(1 for t in times if t is not None and t <= window_end)
            if all(t is not None for t in times):
                latencies.append(max(times) - sent_at)
                completed_in_window += max(times) <= window_end
    gaps_before = expected - sum(
        measured(room, seen) for room in rooms.values() for seen in room.seen
    )

    lost = await wind_up(rooms.values(), readers, kind, wait=2 if gaps_before else 0)
    latencies.sort()

    def pct(p: float) -> float | None:
        if not latencies:
            return None
        return round(1000 * latencies[min(len(latencies) - 1, int(p * len(latencies)))], 2)

    return {
        "rolls": total,
        "p50_ms": pct(0.50),
        "p99_ms": pct(0.99),
        "rolls_per_s": round(completed_in_window / elapsed, 1),
        "delivered_per_s": round(in_window / elapsed, 1),
        "gaps_before_replay": gaps_before,
        "lost": lost,
        "server_cpu_ms_per_roll": round(1000 * cpu_used / max(1, total), 3),
        "load_cpu_ms_per_roll": round(1000 * load_used / max(1, total), 3),
        "machine_busy_cores": round(machine_busy, 2),
        "server_rss_mb": round(rss / 2**20, 1),
    }


async def resume_missing(rooms, kind: str = "rollcall", wait: float = 2) -> None:
    """Every socket that missed a seq asks for a replay ("resume") from its first gap,
    then the replays get `wait` seconds to arrive."""
    for room in rooms:
        for ws, seen in zip(room.sockets, room.seen, strict=True):
            missing = [s for s in range(1, len(room.sent) + 1) if s not in seen]
            if missing:
                last = missing[0] - 1
                message = json.dumps({"type": "resume", "last_seq": last})
                await ws.send(message if kind == "rollcall" else f"resume {last}")
    if wait:
        await asyncio.sleep(wait)


async def wind_up(rooms, readers, kind: str = "rollcall", wait: float = 2) -> int:
    """After a run: replays for whatever is missing, then every socket closed; the
    (socket, seq) pairs still missing."""
    await resume_missing(rooms, kind, wait)
    lost = count_missing(rooms)
    for room in rooms:
        for ws in room.sockets:
            await ws.close()
    for task in readers:
        task.cancel()
    return lost


def count_missing(rooms) -> int:
    """(socket, seq) pairs not seen, over every roll sent to each room."""
    return sum(
        sum(1 for s in range(1, len(room.sent) + 1) if s not in seen)
        for room in rooms
        for seen in room.seen
    )


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux /proc), 0 elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_bytes(pid: int) -> int:
    """A process's resident memory (Linux /proc), 0 elsewhere."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    found = re.search(r"^VmRSS:\s+(\d+) kB", status, re.MULTILINE)
    return int(found.group(1)) * 1024 if found else 0


def load_cpu_seconds() -> float:
    """This load generator's own CPU time."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def machine_busy_seconds() -> float:
    """CPU time the whole machine spent busy, over all cores (Linux /proc), 0 elsewhere:
    the servers, the database, Redis and this load generator share the same cores."""
    try:
        ticks = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except OSError:
        return 0.0
    idle = ticks[3] + ticks[4]  # idle + iowait
    return (sum(ticks[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def ratio(a: float | None, b: float | None) -> float | None:
    return None if not a or not b else round(a / b, 2)


def scenario(name, ports, pids, ids, cookies, rate, duration, sockets, targets) -> dict:
    rollcall = asyncio.run(
        run_load("rollcall", ports[0], ids, cookies, rate, duration, sockets, pids[0])
    )
    baseline = asyncio.run(
        run_load("baseline", ports[1], ids, cookies, rate, duration, sockets, pids[1])
    )
    return {
        "scenario": name,
        "campaigns": len(ids),
        "sockets_per_campaign": sockets,
        "offered_rolls_per_s": round(rate * len(ids), 1),
        "duration_s": duration,
        "rollcall": rollcall,
        "plain_websockets": baseline,
        "ratio_p99": ratio(rollcall["p99_ms"], baseline["p99_ms"]),
        "ratio_delivered": ratio(rollcall["delivered_per_s"], baseline["delivered_per_s"]),
        "targets": {label: check(rollcall) for label, check in targets.items()},
        "meets_targets": all(check(rollcall) for check in targets.values()),
    }
