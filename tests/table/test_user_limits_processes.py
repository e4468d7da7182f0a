"""The cap on a user's sockets at a table across two daphne processes that share Redis
(table/live/limits.py): a socket opened on one process closes the user's oldest, served by
the other, with 4429 and the reason, as a deployment with several processes runs it.

Two real daphne processes on one SQLite file built for the test, and a private
redis-server (the cache and the channel layer); the clients are `websockets`
connections. Runs in the services pass (where redis-server is at hand), or directly:
`python -m tests.table.test_user_limits_processes`.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

from bench.scratch import SETTINGS_ENV as BENCH_SETTINGS
from rollcall.localserver import free_port, start_daphne, start_redis, stop, wait_for_port

ROOT = Path(__file__).resolve().parents[2]
CAP = 2
HANG_GUARD = 60.0  # seconds: the ceiling of every wait, only against a hang
SETTINGS_ENV = {
    **BENCH_SETTINGS,  # the sessions bench/load.py builds are signed with its key
    "LOG_LEVEL": "WARNING",
    "DJANGO_SETTINGS_MODULE": "rollcall.settings",
    "TABLE_SOCKETS_PER_USER": str(CAP),
}


def build(db: Path) -> dict:
    """bench/load.py's database (1 campaign: a GM, 7 players, their sessions), built
    in a child process: this one's Django, if any, is configured for the test database."""
    import subprocess

    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    code = (
        "import json, sys; from pathlib import Path; from bench.load import build_database; "
        "print(json.dumps(build_database(Path(sys.argv[1]), 1)))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(db)], cwd=ROOT, env=env, capture_output=True, timeout=120,
        check=True,
    )  # fmt: skip
    return json.loads(done.stdout.decode().strip().splitlines()[-1])


class Tab:
    """One table socket; keeps what it receives and how it was closed."""

    def __init__(self, ws) -> None:
        self.ws = ws
        self.texts: list[str] = []
        self.close_code: int | None = None
        self.close_reason = ""
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        import websockets

        try:
            async for text in self.ws:
                self.texts.append(text)
        except websockets.ConnectionClosed:
            pass
        frame = self.ws.protocol.close_rcvd
        if frame is not None:
            self.close_code, self.close_reason = frame.code, frame.reason

    async def live(self) -> None:
        """Answers a ping: open, joined and registered."""
        before = sum('data-code="pong"' in t for t in self.texts)
        await self.ws.send(json.dumps({"type": "ping"}))
        for _ in range(int(HANG_GUARD / 0.025)):
            if sum('data-code="pong"' in t for t in self.texts) > before:
                return
            await asyncio.sleep(0.025)
        raise AssertionError("the socket did not answer a ping")

    async def closed_within(self, seconds: float) -> bool:
        try:
            await asyncio.wait_for(asyncio.shield(self.reader), seconds)
        except TimeoutError:
            return False
        return True


async def drive(ports: dict[str, int], campaign: int, cookie: str) -> dict:
    import websockets

    async def open_tab(side: str) -> Tab:
        port = ports[side]
        ws = await websockets.connect(
            f"ws://127.0.0.1:{port}/ws/campaign/{campaign}/?last_seq=0",
            origin=f"http://127.0.0.1:{port}",
            additional_headers={"Cookie": cookie},
            open_timeout=HANG_GUARD,
        )
        tab = Tab(ws)
        await tab.live()
        return tab

    first = await open_tab("a")
    second = await open_tab("b")
    third = await open_tab("b")  # one too many: the oldest, on the other process, closes
    first_closed = await first.closed_within(HANG_GUARD)
    for tab in (second, third):
        await tab.live()
    fourth = await open_tab("a")  # and again the other way round
    second_closed = await second.closed_within(HANG_GUARD)
    for tab in (third, fourth):
        await tab.live()
    result = {
        "first": (first_closed, first.close_code, first.close_reason, first.texts),
        "second": (second_closed, second.close_code, second.close_reason, second.texts),
    }
    for tab in (third, fourth):
        await tab.ws.close()
    return result


def run(workdir: Path) -> dict:
    data = build(workdir / "table.sqlite3")
    redis_port = free_port()
    redis = start_redis(redis_port, str(workdir))
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")},
        **SETTINGS_ENV,
        "SQLITE_PATH": str(workdir / "table.sqlite3"),
        "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0",
    }
    servers = {}
    try:
        for side in ("a", "b"):
            port = free_port()
            servers[side] = (port, start_daphne(port, env, str(workdir / f"{side}.log"), str(ROOT)))
        for port, process in servers.values():
            wait_for_port(port, process, timeout=120)
        ports = {side: port for side, (port, _) in servers.items()}
        return asyncio.run(drive(ports, data["campaigns"][0], data["cookies"][1]))
    finally:
        for _, process in servers.values():
            stop(process)
        stop(redis)


@pytest.mark.services
def test_a_socket_opened_on_one_process_closes_the_users_oldest_on_the_other(tmp_path):
    from table.talk.consumers import CLOSE_REPLACED, REPLACED_TEXT

    result = run(tmp_path)
    for name in ("first", "second"):
        closed, code, _reason, texts = result[name]  # daphne sends no close reason
        assert closed, f"the {name} socket stayed open"
        assert code == CLOSE_REPLACED
        assert any('data-code="replaced"' in t and REPLACED_TEXT in t for t in texts), texts


if __name__ == "__main__":
    directory = Path(tempfile.mkdtemp(prefix="rollcall-user-limits-"))
    try:
        print(run(directory))  # noqa: T201
    finally:
        shutil.rmtree(directory, ignore_errors=True)
