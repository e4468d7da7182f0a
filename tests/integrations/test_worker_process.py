"""`manage.py discord_worker` as a real process, killed (SIGKILL) while Discord holds its
post, and restarted: the restarted worker takes the hook over once the dead one's lease
runs out, and posts everything in order. The post that was under way when it died may
show twice (Discord's webhooks take no idempotency key), and its repeat says so; every
other message shows once, and one posted before a clean stop is never posted again."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from integrations.embeds import RESENT_NOTE

from .receiver import Receiver

ROOT = Path(__file__).resolve().parents[2]
SETTINGS_VARS = ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE", "SECRET_KEY")


@pytest.fixture
def private(tmp_path):
    """The worker's own SQLite database and the environment of its processes."""
    receiver = Receiver().start()
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS_VARS}
    env.update(
        DJANGO_SETTINGS_MODULE="rollcall.settings",
        SECRET_KEY="worker-tests-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
        SQLITE_PATH=str(tmp_path / "db.sqlite3"),
        DISCORD_TEST_WEBHOOK_BASE=receiver.base,
        # long enough that no answer is missed on a busy machine; the held post's runs
        # out (the restarted worker waits for the lease: the timeout and a second more)
        DISCORD_TIMEOUT_SECONDS="5",
        DISCORD_LEASE_SECONDS="6",
        DISCORD_POLL_SECONDS="0.05",
        DISCORD_BACKOFF_SECONDS="0.05",
        PYTHONUNBUFFERED="1",
    )
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
        cwd=ROOT, env=env, check=True, timeout=180,
    )  # fmt: skip
    yield receiver, env, tmp_path / "db.sqlite3"
    receiver.stop()


def seed(env, receiver: Receiver, count: int) -> list[int]:
    done = subprocess.run(
        [sys.executable, "-m", "tests.integrations.seed_worker", receiver.url(1), str(count)],
        cwd=ROOT, env=env, check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    return json.loads(done.stdout)


def start_worker(env, log: Path) -> subprocess.Popen:
    with log.open("ab") as out:
        return subprocess.Popen(  # noqa: S603 - fixed arguments
            [sys.executable, "manage.py", "discord_worker"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip


def wait_for(condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


def states(db: Path) -> list[str]:
    with sqlite3.connect(db) as conn:
        return [r[0] for r in conn.execute("SELECT state FROM integrations_message ORDER BY id")]


def test_a_killed_worker_is_taken_over_and_nothing_is_lost_or_reordered(private, tmp_path):
    receiver, env, db = private
    log = tmp_path / "worker.log"
    seqs = seed(env, receiver, 6)
    receiver.then(1, ("ok",), ("ok",), ("hold",))  # the third post is saved, then held

    first = start_worker(env, log)
    try:
        assert receiver.holding.wait(60), log.read_text()
        first.send_signal(signal.SIGKILL)  # killed while it waits for Discord's answer
        first.wait(60)
    finally:
        if first.poll() is None:
            first.kill()
    receiver.release.set()
    assert states(db).count("sent") == 2  # the held one was never recorded as sent

    second = start_worker(env, log)
    try:
        wait_for(lambda: states(db) == ["sent"] * 6, 60, "the restarted worker")
        posted = [s for p in receiver.posts_to(1) for s in p.seqs]
        assert posted == seqs[:3] + seqs[2:]  # the one under way at the kill, twice
        repeat = receiver.posts_to(1)[3]
        assert repeat.seqs == [seqs[2]] and RESENT_NOTE in repeat.text
        assert all(RESENT_NOTE not in p.text for i, p in enumerate(receiver.posts_to(1)) if i != 3)
        second.send_signal(signal.SIGTERM)  # a clean stop: it gives its lease back
        assert second.wait(60) == 0
    finally:
        if second.poll() is None:
            second.kill()

    more = seed(env, receiver, 3)  # logged while no worker runs
    third = start_worker(env, log)
    try:
        wait_for(lambda: states(db) == ["sent"] * 9, 60, "the third worker")
    finally:
        third.send_signal(signal.SIGTERM)
        assert third.wait(60) == 0
    posted = [s for p in receiver.posts_to(1) for s in p.seqs]
    assert posted == seqs[:3] + seqs[2:] + more[6:]  # nothing posted before is posted again
    assert receiver.violations == []
