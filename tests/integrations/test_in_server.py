"""`make run`'s worker: a thread of the daphne process (DISCORD_WORKER_IN_SERVER), woken
the moment an event is queued rather than on its next poll."""

from __future__ import annotations

import time

import pytest

from integrations.models import Message
from integrations.worker import start_in_server, stop_in_server

from .conftest import HANG_GUARD

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_server_thread_posts_as_soon_as_an_event_is_logged(
    table_for, receiver, hooks, settings
):
    settings.DISCORD_POLL_SECONDS = 3600  # a poll would come far too late: only the wake-up counts
    t = table_for("serenity")
    hooks(t.campaign, gm=False)
    assert start_in_server() is None  # off unless asked for
    settings.DISCORD_WORKER_IN_SERVER = True
    thread = start_in_server()
    try:
        assert thread is not None and thread.is_alive() and start_in_server() is thread
        time.sleep(0.1)  # it is idle, waiting
        t.start_scene()
        deadline = time.monotonic() + HANG_GUARD
        while Message.objects.filter(state="pending").exists():
            assert time.monotonic() < deadline, "the server's worker did not post"
            time.sleep(0.02)
        assert [s for p in receiver.posts_to(1) for s in p.seqs] == [1]
    finally:
        stop_in_server()
    assert not thread.is_alive()


def test_make_run_turns_the_server_thread_on():
    from tests.test_serving import make_run_commands

    *_, daphne = make_run_commands(8000)
    assert "DISCORD_WORKER_IN_SERVER=1" in daphne and daphne[-1] == "rollcall.asgi:application"
