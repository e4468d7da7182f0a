"""Logging out closes that session's table sockets at once, in every campaign of the
user, with 4401; the user's sockets opened with other sessions (other devices)
and everybody else's stay open. Checked through the hub (one process), through the
channel layer (in memory here, Redis in the services pass), and across two processes
(a daphne serving the socket, this process logging out) in the services pass."""

from __future__ import annotations

import asyncio
import json
import os
import time
from pathlib import Path
from urllib.parse import urlparse, urlunparse

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.sessions.models import Session
from django.db import connection
from django.test import Client
from django.urls import reverse

from campaigns.models import Membership, Role
from rollcall.asgi import application
from rollcall.localserver import free_port, start_daphne, stop, wait_for_port
from table.live import broadcast
from table.talk import consumers

pytestmark = pytest.mark.django_db(transaction=True)

# The close is pushed to the socket: without the push a socket that sends nothing would
# stay open for good, so the tests wait for it with no bound but a hang guard. How soon
# it comes (well under a second) is the machine's figure, not the behaviour.
HANG_GUARD = 60.0


@sync_to_async
def new_session(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def communicator(campaign, session_key: str) -> WebsocketCommunicator:
    """A table socket for this session, not yet connected."""
    headers = [
        (b"host", b"testserver"),
        (b"origin", b"http://testserver"),
        (b"cookie", f"{settings.SESSION_COOKIE_NAME}={session_key}".encode()),
    ]
    return WebsocketCommunicator(application, f"/ws/campaign/{campaign.pk}/?last_seq=0", headers)


async def connect(campaign, session_key: str) -> WebsocketCommunicator:
    comm = communicator(campaign, session_key)
    connected, _ = await comm.connect()
    assert connected
    await until_pong(comm)
    return comm


async def next_output(comm, timeout: float) -> dict | None:
    """The socket's next output, or None after `timeout` (without cancelling the app,
    as receive_output's timeout would)."""
    if comm.future.done():
        comm.future.result()  # the consumer raised: fail with its exception
    try:
        return await asyncio.wait_for(comm.output_queue.get(), max(timeout, 0.001))
    except TimeoutError:
        return None


async def until_pong(comm, timeout: float = HANG_GUARD) -> None:
    """Ping until the pong comes back: the socket is open and reading."""
    await comm.send_to(text_data=json.dumps({"type": "ping"}))
    deadline = time.monotonic() + timeout
    while (output := await next_output(comm, deadline - time.monotonic())) is not None:
        assert output["type"] != "websocket.close", f"closed with {output.get('code')}"
        if 'data-code="pong"' in output.get("text", ""):
            return
    raise AssertionError("the socket never answered a ping")


async def close_code_within(comm, limit: float, started: float) -> tuple[int | None, float]:
    """The close code the socket gets within `limit` seconds of `started`, and when."""
    while (output := await next_output(comm, limit - (time.monotonic() - started))) is not None:
        if output["type"] == "websocket.close":
            return output.get("code"), time.monotonic() - started
    return None, time.monotonic() - started


@sync_to_async
def log_out(session_key: str) -> int:
    """POST to the real logout view with that session's cookie."""
    client = Client()
    client.cookies[settings.SESSION_COOKIE_NAME] = session_key
    return client.post(reverse("logout")).status_code


@pytest.fixture
def people(make_user):
    """Gina runs two campaigns (so her sockets live in two); Pete plays in the first."""
    from campaigns import services

    gina, pete = make_user("gina", "Gina"), make_user("pete", "Pete")
    first = services.create_campaign(gina, name="Firefly Nights", description="", system="serenity")
    second = services.create_campaign(gina, name="Elsewhere", description="", system="smallville")
    Membership.objects.create(campaign=first, user=pete, role=Role.PLAYER)
    Membership.objects.create(campaign=second, user=pete, role=Role.OBSERVER)
    return gina, pete, first, second


@pytest.fixture(params=["hub", "layer"])
def path(request, monkeypatch):
    """hub: the in-process hand-over; layer: through the channel layer (Redis when
    REDIS_URL is set, the in-memory layer otherwise)."""
    monkeypatch.setattr(broadcast, "FORCE_LAYER", request.param == "layer")
    return request.param


async def test_logout_closes_that_sessions_sockets_in_every_campaign(people, path):
    gina, pete, first, second = people
    laptop, phone = await new_session(gina), await new_session(gina)
    pete_session = await new_session(pete)
    laptop_first = await connect(first, laptop)
    laptop_second = await connect(second, laptop)
    phone_first = await connect(first, phone)
    pete_first = await connect(first, pete_session)
    pete_second = await connect(second, pete_session)

    started = time.monotonic()
    assert await log_out(laptop) == 302
    for comm in (laptop_first, laptop_second):
        code, _ = await close_code_within(comm, HANG_GUARD, started)
        assert code == consumers.CLOSE_NOT_LOGGED_IN, f"{path}: not closed"
    # Her phone (another session) and Pete stay at the table, in both campaigns.
    for comm in (phone_first, pete_first, pete_second):
        await until_pong(comm)
    assert not await sync_to_async(Session.objects.filter(session_key=laptop).exists)()
    assert await sync_to_async(Session.objects.filter(session_key=phone).exists)()
    # A socket closed this way ignores whatever it is sent afterwards.
    await laptop_first.send_to(text_data=json.dumps({"type": "ping"}))
    assert await laptop_first.receive_nothing(timeout=0.2)
    # The logged-out session opens no new socket: 4401 after accept.
    again = communicator(first, laptop)
    assert (await again.connect())[0]
    code, _ = await close_code_within(again, HANG_GUARD, time.monotonic())
    assert code == consumers.CLOSE_NOT_LOGGED_IN
    for comm in (laptop_first, laptop_second, phone_first, pete_first, pete_second, again):
        await comm.disconnect()


async def test_logging_out_a_session_whose_password_changed_closes_its_sockets(people, path):
    """After a password change elsewhere the old session is no longer signed in (its hash
    is stale), so logout() sees an anonymous user: its sockets close all the same."""
    gina, pete, first, second = people
    old = await new_session(gina)
    comm = await connect(first, old)

    def change_password():
        gina.set_password("a brand new passphrase")
        gina.save()

    await sync_to_async(change_password)()
    started = time.monotonic()
    assert await log_out(old) == 302
    code, _ = await close_code_within(comm, HANG_GUARD, started)
    assert code == consumers.CLOSE_NOT_LOGGED_IN
    await comm.disconnect()


async def test_a_logout_without_table_sockets_disturbs_nobody(people, path):
    gina, pete, first, second = people
    idle = await new_session(gina)
    playing = await new_session(gina)
    comm = await connect(first, playing)
    other = await connect(first, await new_session(pete))
    assert await log_out(idle) == 302
    assert await comm.receive_nothing(timeout=0.3)
    await until_pong(comm)
    await until_pong(other)
    await comm.disconnect()
    await other.disconnect()


async def test_removal_and_a_role_change_close_the_sockets_there(people, path):
    """Being removed from a campaign (4403), or made GM there (4409: it sees more),
    closes that member's sockets there at once; the other campaign's stay open."""
    from campaigns import services

    gina, pete, first, second = people
    pete_session = await new_session(pete)
    in_first, in_second = await connect(first, pete_session), await connect(second, pete_session)
    membership = await sync_to_async(Membership.objects.get)(campaign=first, user=pete)
    started = time.monotonic()
    await sync_to_async(services.remove_member)(first, membership.pk)
    code, _ = await close_code_within(in_first, HANG_GUARD, started)
    assert code == consumers.CLOSE_NOT_A_MEMBER, f"{path}: not closed"
    await until_pong(in_second)

    membership = await sync_to_async(Membership.objects.get)(campaign=second, user=pete)
    started = time.monotonic()
    await sync_to_async(services.change_role)(second, membership.pk, Role.GM)
    code, _ = await close_code_within(in_second, HANG_GUARD, started)
    assert code == consumers.CLOSE_ROLE_CHANGED
    for comm in (in_first, in_second):
        await comm.disconnect()


def once_after_the_check(monkeypatch, then):
    """The socket's first membership check finds the member; `then` runs right after it,
    before the socket has joined its audience (so a close published then reaches nobody)."""
    original, done = consumers._member, []

    def member(user, campaign_id):
        found = original(user, campaign_id)
        if not done:
            done.append(True)
            then()
        return found

    monkeypatch.setattr(consumers, "_member", member)


async def test_a_logout_during_the_handshake_still_closes_the_socket(people, path, monkeypatch):
    gina, pete, first, second = people
    laptop = await new_session(gina)
    client = Client()
    client.cookies[settings.SESSION_COOKIE_NAME] = laptop
    once_after_the_check(monkeypatch, lambda: client.post(reverse("logout")))
    comm = communicator(first, laptop)
    started = time.monotonic()
    assert (await comm.connect())[0]
    code, _ = await close_code_within(comm, HANG_GUARD, started)
    assert code == consumers.CLOSE_NOT_LOGGED_IN
    await comm.disconnect()


async def test_a_removal_during_the_handshake_still_closes_the_socket(people, path, monkeypatch):
    gina, pete, first, second = people
    session = await new_session(pete)
    once_after_the_check(monkeypatch, Membership.objects.filter(campaign=first, user=pete).delete)
    comm = communicator(first, session)
    started = time.monotonic()
    assert (await comm.connect())[0]
    code, _ = await close_code_within(comm, HANG_GUARD, started)
    assert code == consumers.CLOSE_NOT_A_MEMBER
    await comm.disconnect()


# ---------------------------------------------------------------------- two processes


@pytest.fixture
def daphne(tmp_path):
    """A daphne process on the services' test database and Redis."""
    url = urlparse(os.environ["DATABASE_URL"])
    test_db = urlunparse(url._replace(path="/" + settings.DATABASES["default"]["NAME"]))
    env = {**os.environ, "DATABASE_URL": test_db, "DJANGO_SETTINGS_MODULE": "rollcall.settings"}
    port = free_port()
    root = Path(__file__).resolve().parents[2]
    process = start_daphne(port, env, str(tmp_path / "daphne.log"), str(root))
    try:
        wait_for_port(port, process, timeout=120)
        yield port
    finally:
        stop(process)


@pytest.mark.services
def test_logout_here_closes_a_socket_served_by_another_process(people, daphne):
    """The socket lives in a separate daphne; the logout runs here: the close crosses Redis."""
    import websockets

    assert broadcast.uses_layer()
    gina, pete, first, second = people
    laptop, phone = Client(), Client()
    laptop.force_login(gina)
    phone.force_login(gina)

    def log_out_here() -> int:
        try:
            return laptop.post(reverse("logout")).status_code
        finally:
            connection.close()  # this thread's: the test database is dropped at the end

    async def main():
        def open_ws(client):
            key = client.cookies[settings.SESSION_COOKIE_NAME].value
            return websockets.connect(
                f"ws://127.0.0.1:{daphne}/ws/campaign/{first.pk}/?last_seq=0",
                origin=f"http://127.0.0.1:{daphne}",
                additional_headers={"Cookie": f"{settings.SESSION_COOKIE_NAME}={key}"},
            )

        a, b = await open_ws(laptop), await open_ws(phone)
        for ws in (a, b):  # live: a ping is answered once the socket has joined
            for _ in range(int(HANG_GUARD / 0.2)):
                await ws.send(json.dumps({"type": "ping"}))
                try:
                    while 'data-code="pong"' not in await asyncio.wait_for(ws.recv(), 0.2):
                        pass
                    break
                except TimeoutError:
                    continue
        started = time.monotonic()
        assert await asyncio.to_thread(log_out_here) == 302
        try:
            while True:
                await asyncio.wait_for(a.recv(), HANG_GUARD - (time.monotonic() - started))
        except websockets.ConnectionClosed as closed:
            code, elapsed = closed.rcvd.code if closed.rcvd else None, time.monotonic() - started
        except TimeoutError:
            code, elapsed = None, time.monotonic() - started
        await b.send(json.dumps({"type": "ping"}))
        still_open = 'data-code="pong"' in await asyncio.wait_for(b.recv(), HANG_GUARD)
        await b.close()
        return code, elapsed, still_open

    code, elapsed, still_open = asyncio.run(main())
    assert code == consumers.CLOSE_NOT_LOGGED_IN, f"closed with {code} after {elapsed:.2f} s"
    assert still_open
