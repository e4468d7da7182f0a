"""Discord webhook fixtures: a local receiver standing in for Discord, the settings that
point the app at it with short waits, and the table fixtures (tests/table/conftest.py)."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from integrations import vault
from integrations.models import Audience, Webhook
from integrations.worker import Worker
from tests.table.conftest import faces, other_player, table_for  # noqa: F401

from .receiver import Receiver

HANG_GUARD = 60.0  # seconds: the ceiling of every wait, only against a hang


@pytest.fixture
def receiver(settings):
    """Discord, on 127.0.0.1; the worker's pauses scaled down to hundredths. Its request
    timeout (and so its lease) stays long: a post that takes a while on a busy machine
    must not be taken for an answer that never came (a test that wants one holds it)."""
    server = Receiver().start()
    settings.DISCORD_TEST_WEBHOOK_BASE = server.base
    settings.DISCORD_BACKOFF_SECONDS = 0.02
    settings.DISCORD_BACKOFF_MAX_SECONDS = 0.1
    settings.DISCORD_TIMEOUT_SECONDS = HANG_GUARD
    settings.DISCORD_LEASE_SECONDS = 1.0  # the lease runs for the timeout and a second more
    settings.DISCORD_POLL_SECONDS = 0.05
    yield server
    server.stop()


def set_hook(campaign, audience: str, url: str) -> Webhook:
    parsed = vault.parse(url)
    return Webhook.objects.create(
        campaign=campaign,
        audience=audience,
        url_sealed=vault.seal(parsed.url),
        url_hint=parsed.hint,
    )


@pytest.fixture
def hooks(receiver):
    """hooks(campaign): the campaign's public hook (receiver hook 1) and GM-only hook (2)."""

    def make(campaign, *, gm: bool = True) -> tuple[Webhook, Webhook | None]:
        public = set_hook(campaign, Audience.PUBLIC, receiver.url(1))
        private = set_hook(campaign, Audience.GM, receiver.url(2)) if gm else None
        return public, private

    return make


def drain(worker: Worker, until: Callable[[], bool], timeout: float = HANG_GUARD) -> None:
    """Run the worker in this thread until `until()` holds."""
    deadline = time.monotonic() + timeout
    while not until():
        assert time.monotonic() < deadline, "the worker did not get there in time"
        if not worker.run_once():
            time.sleep(min(worker.pause(), 0.02))
