"""The fault tests' machinery: a private PostgreSQL database and a private Redis (so
stopping either never touches what other tests share), daphne processes with
production settings, and table clients that record every seq and notice they get."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlparse, urlunparse

import psycopg

from rollcall.localserver import free_port, start_daphne, start_redis, stop, wait_for_port

ROOT = Path(__file__).resolve().parents[2]
# Every wait polls for a condition; its ceiling only guards against a hang, so it leaves
# room for a machine busy with other work (two cores shared by many jobs).
HANG_GUARD = 120.0
SEQ = re.compile(r'<template hx-swap-oob="afterbegin:#log" data-seq="(\d+)"')
NOTICE = re.compile(
    r'<div id="table-notice"[^>]*data-kind="(\w+)"(?: data-code="(\w+)")?[^>]*>(.*?)</div>', re.S
)
SETTINGS_ENV = {
    "DEBUG": "false",
    "SECRET_KEY": "fault-tests-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "SECURE_SSL_REDIRECT": "false",
    "TABLE_SOCKET_RATE": "100000",
    "TABLE_SOCKET_WINDOW": "1",
    "TABLE_USER_RATE": "100000",
    "TABLE_USER_WINDOW": "1",
    "TABLE_SOCKET_OPENS": "100000",
    "LOG_LEVEL": "WARNING",
    "DJANGO_SETTINGS_MODULE": "rollcall.settings",
    "PYTHONUNBUFFERED": "1",
}


class PrivateDatabase:
    """A database of its own on the DATABASE_URL server, dropped at the end."""

    def __init__(self) -> None:
        self.server = urlparse(os.environ["DATABASE_URL"])
        self.name = f"rollcall_faults_{uuid.uuid4().hex[:12]}"
        self.url = urlunparse(self.server._replace(path="/" + self.name))
        self.host = self.server.hostname or "127.0.0.1"
        self.port = self.server.port or 5432
        with self._admin() as conn:
            conn.execute(f'CREATE DATABASE "{self.name}"')

    def _admin(self) -> psycopg.Connection:
        return psycopg.connect(urlunparse(self.server), autocommit=True, connect_timeout=10)

    def url_via(self, port: int) -> str:
        """This database's URL through a proxy listening on 127.0.0.1:`port`."""
        netloc = self.server.netloc.rsplit("@", 1)
        auth = netloc[0] + "@" if len(netloc) == 2 else ""
        return urlunparse(
            self.server._replace(netloc=f"{auth}127.0.0.1:{port}", path="/" + self.name)
        )

    def query(self, sql: str, params: list | tuple = ()) -> list[tuple]:
        with psycopg.connect(self.url, autocommit=True, connect_timeout=10) as conn:
            return conn.execute(sql, params).fetchall()

    def drop(self) -> None:
        with self._admin() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


class Cluster:
    """Private Redis and database, seeded, and named daphne processes serving them."""

    def __init__(self, directory: Path, players: int = 3, plot_points: int = 1000) -> None:
        self.directory = directory
        self.redis_port = free_port()
        self.redis: subprocess.Popen | None = None
        self.daphnes: dict[str, tuple[int, subprocess.Popen]] = {}
        self.db = PrivateDatabase()
        try:
            self.start_redis()
            self.env = {
                **{k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")},
                **SETTINGS_ENV,
                "DATABASE_URL": self.db.url,
                "REDIS_URL": f"redis://127.0.0.1:{self.redis_port}/0",
            }
            self.manage("migrate", "--noinput", "-v0")
            seeded = subprocess.run(
                [sys.executable, "-m", "tests.faults.seed", str(players), str(plot_points)],
                cwd=ROOT, env=self.env, check=True, capture_output=True, timeout=120,
            )  # fmt: skip
            seed = json.loads(seeded.stdout)
            self.campaign: int = seed["campaign"]
            self.cookies: dict[str, str] = seed["cookies"]
            self.sheets: dict[str, int] = seed["sheets"]
        except BaseException:
            self.close()
            raise

    def manage(self, *args: str) -> None:
        subprocess.run(
            [sys.executable, "manage.py", *args], cwd=ROOT, env=self.env, check=True, timeout=120
        )

    def start_redis(self) -> None:
        self.redis = start_redis(self.redis_port, str(self.directory))

    def stop_redis(self) -> None:
        """SIGTERM, as a service manager stops it."""
        stop(self.redis)

    def start(self, name: str, database_url: str | None = None) -> int:
        port = free_port()
        env = {**self.env, "DATABASE_URL": database_url or self.db.url}
        process = start_daphne(port, env, str(self.log_path(name)), str(ROOT))
        self.daphnes[name] = (port, process)
        try:
            wait_for_port(port, process, timeout=120)
        except RuntimeError as error:
            raise RuntimeError(f"{error}\n{self.logs()}") from error
        return port

    def port(self, name: str) -> int:
        return self.daphnes[name][0]

    def kill(self, name: str) -> None:
        process = self.daphnes[name][1]
        process.kill()
        process.wait(10)

    def log_path(self, name: str) -> Path:
        return self.directory / f"daphne-{name}.log"

    def logs(self) -> str:
        """The servers' output, for a failing assertion's message."""
        parts = []
        for name in self.daphnes:
            text = self.log_path(name).read_text(errors="replace")
            parts.append(f"--- daphne {name} ---\n{text[-6000:]}")
        return "\n".join(parts)

    def log_seqs(self) -> list[int]:
        rows = self.db.query(
            "SELECT seq FROM table_tableevent WHERE campaign_id = %s ORDER BY seq", [self.campaign]
        )
        return [r[0] for r in rows]

    def close(self) -> None:
        for _, process in self.daphnes.values():
            stop(process)
        if self.redis is not None:
            stop(self.redis)
        self.db.drop()


def roll(sheet_id: int, marker: str = "", plot_points: int = 0) -> str:
    """A roll from a character's sheet; `marker` is its goal (SER-1), so the roll can be
    found in the log and on the cards."""
    pool = [
        {"die": "d10", "trait": "Fightin'", "group": "stylins"},
        {"die": "d8", "trait": "Loyalty", "group": "values"},
        {"die": "d12", "trait": "Pistol", "group": "assets"},
    ]
    request = {"pool": pool, "plot_points": plot_points}
    if marker:
        request["goal"] = marker
    return json.dumps({"type": "act", "action": "roll", "sheet_id": sheet_id, "request": request})


def marker(socket: Socket, number: int) -> str:
    """A name no other roll of the test uses (capitalised and plain, as cards show it)."""
    return "M" + re.sub(r"\W", "", socket.label) + f"x{number:05d}"


def logged_markers(cluster: Cluster) -> dict[str, list[int]]:
    """Marker -> the seqs of the events that carry it."""
    found: dict[str, list[int]] = {}
    rows = cluster.db.query(
        "SELECT seq, request FROM table_tableevent WHERE campaign_id = %s", [cluster.campaign]
    )
    for seq, request in rows:
        request = json.loads(request) if isinstance(request, str) else request
        goal = str(request.get("goal") or "")
        if goal.startswith("M"):
            found.setdefault(goal, []).append(seq)
    return found


class Socket:
    """One table socket of a user; keeps every seq and notice it receives, across
    reconnections, in arrival order."""

    def __init__(self, cluster: Cluster, user: str, label: str = "") -> None:
        self.cluster = cluster
        self.user = user
        self.label = label or user
        self.seqs: list[int] = []
        self.notices: list[tuple[str, str, str]] = []
        self.cards: list[str] = []
        self.ws = None
        self.reader: asyncio.Task | None = None
        self.closed = asyncio.Event()
        self.port = 0

    @property
    def newest(self) -> int:
        return max(self.seqs, default=0)

    async def open(self, port: int, *, last_seq: int | None = None, resume: bool = False) -> None:
        """Connect with ?last_seq= (replay at once), or without it and then send a
        "resume" message as the page does."""
        import websockets

        query = "" if last_seq is None else f"?last_seq={last_seq}"
        self.ws = await websockets.connect(
            f"ws://127.0.0.1:{port}/ws/campaign/{self.cluster.campaign}/{query}",
            origin=f"http://127.0.0.1:{port}",
            additional_headers={"Cookie": self.cluster.cookies[self.user]},
            open_timeout=HANG_GUARD,
            max_queue=None,
        )
        self.port = port
        self.closed = asyncio.Event()
        self.reader = asyncio.create_task(self._read(self.ws))
        if resume:
            await self.ws.send(json.dumps({"type": "resume", "last_seq": self.newest}))

    async def _read(self, ws) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for text in ws:
                found = [int(s) for s in SEQ.findall(text)]
                if found:
                    self.seqs += found
                    self.cards.append(text)
                for kind, code, body in NOTICE.findall(text):
                    self.notices.append((kind, code, body))
        except ConnectionClosed:
            pass
        finally:
            self.closed.set()

    async def send(self, text: str) -> bool:
        """False when the socket is closed (the caller reconnects)."""
        from websockets.exceptions import ConnectionClosed

        if self.ws is None or self.closed.is_set():
            return False
        try:
            await self.ws.send(text)
        except ConnectionClosed:
            return False
        return True

    async def live(self, timeout: float = HANG_GUARD) -> None:
        """Wait until the socket answers a ping: connected, replayed and live."""
        before = sum(1 for n in self.notices if n[1] == "pong")
        await self.ws.send(json.dumps({"type": "ping"}))
        await until(
            lambda: sum(1 for n in self.notices if n[1] == "pong") > before,
            timeout,
            lambda: f"{self.label} did not answer a ping",
        )

    def has_card(self, marker: str) -> bool:
        return any(marker in card for card in self.cards)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            await asyncio.wait([self.reader], timeout=5)


async def open_live(cluster: Cluster, placement: list[tuple[str, str]]) -> dict:
    """A socket per (process name, user), each opened from seq 0 and live before the
    scene starts: {(process name, user): Socket}."""
    sockets = {(side, user): Socket(cluster, user, f"{user}@{side}") for side, user in placement}
    for (side, _), socket in sockets.items():
        await socket.open(cluster.port(side), last_seq=0)
    for socket in sockets.values():
        await socket.live()
    return sockets


async def until(condition: Callable[[], bool], timeout: float, why: Callable[[], str]) -> None:
    """Poll `condition` until it holds; fail with why() after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(why())
        await asyncio.sleep(0.05)


async def settled(
    cluster: Cluster, sockets: list[Socket], timeout: float = HANG_GUARD
) -> list[int]:
    """Wait until every socket holds exactly the log, and the log has stopped growing
    (rolls sent just before the end are still being answered) for a second; the log."""
    deadline = time.monotonic() + timeout
    size, since = -1, time.monotonic()
    while True:
        log = cluster.log_seqs()
        if len(log) != size:
            size, since = len(log), time.monotonic()
        if all(s.seqs == log for s in sockets) and time.monotonic() - since >= 1.0:
            return log
        if time.monotonic() > deadline:
            raise AssertionError("\n".join(exactly_once_in_order(sockets, log)) or "still growing")
        await asyncio.sleep(0.1)


def exactly_once_in_order(sockets: list[Socket], log: list[int]) -> list[str]:
    """Every socket holds every seq of the log, once each, in order: the problems."""
    problems = []
    if log != list(range(1, len(log) + 1)):
        problems.append(f"the log has gaps: {log}")
    for socket in sockets:
        if socket.seqs != log:
            missing = sorted(set(log) - set(socket.seqs))
            doubled = sorted({s for s in socket.seqs if socket.seqs.count(s) > 1})
            problems.append(
                f"{socket.label}: {len(socket.seqs)} cards for {len(log)} events, "
                f"missing {missing[:20]}, duplicated {doubled[:20]}, "
                f"in order: {socket.seqs == sorted(socket.seqs)}"
            )
    return problems
