"""Cross-site websocket hijacking: a page on another site can make the browser open a
socket to the table with the user's cookie, so the handshake must check the Origin
header: the page must be this very site, scheme and port included, reached by an
allowed host, or one of CSRF_TRUSTED_ORIGINS (rollcall/wsorigin.py, in rollcall.asgi).
And the socket's rate limit, as the user reads it."""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from rollcall.asgi import application
from rollcall.wsorigin import SameOriginOnly
from table.models import TableEvent
from table.talk import consumers
from tests.table.sockets import messages, open_socket, send, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

FIGHTIN = {"die": "d10", "trait": "Fightin'", "group": "stylins"}

# (Host header, Origin) pairs of a page of this site opening its socket over ws://
SAME_SITE = [
    (b"testserver", b"http://testserver"),
    (b"127.0.0.1:8000", b"http://127.0.0.1:8000"),
    (b"localhost:8000", b"http://localhost:8000"),
    (b"[::1]:8000", b"http://[::1]:8000"),
    (b"LocalHost:8000", b"http://localhost:8000"),
]
# Origins of pages that are not this site though their host is allowed: another scheme
# or another port is another origin (another program may listen there).
OTHER_ORIGIN_SAME_HOST = [
    (b"testserver", b"https://testserver"),
    (b"testserver", b"http://testserver:8000"),
    (b"127.0.0.1:8000", b"http://127.0.0.1:9000"),
    (b"127.0.0.1:8000", b"http://127.0.0.1"),
    (b"127.0.0.1:8000", b"https://127.0.0.1:8000"),
    (b"127.0.0.1:8000", b"http://localhost:8000"),
    (b"localhost:8000", b"ws://localhost:8000"),
]
FOREIGN = [
    b"https://evil.example",
    b"http://testserver.evil.example",
    b"http://eviltestserver",
    b"http://localhost.evil.example:8000",
    b"http://evil.example/testserver",
    b"http://testserver@evil.example",
    b"null",  # sandboxed iframes and file: pages
    b"file://",
    b"chrome-extension://abcdefghijklmnop",
    b" ",
]


@pytest.fixture
def member(make_user):
    """Pete, a player at Firefly Nights with a character."""
    from campaigns import services
    from campaigns.models import Membership, Role
    from tests.table.conftest import make_sheet

    gina, pete = make_user("gina", "Gina"), make_user("pete", "Pete")
    campaign = services.create_campaign(
        gina, name="Firefly Nights", description="", system="serenity"
    )
    Membership.objects.create(campaign=campaign, user=pete, role=Role.PLAYER)
    return pete, campaign, make_sheet(campaign, pete, "Mal")


async def connect_as(user, campaign, host: bytes, origin: bytes | None, *, scheme="ws",
                     headers=()):  # fmt: skip
    """Open the table's socket as `user` with this Host and Origin; returns (comm, connected)."""
    sent = [(b"host", host), (b"cookie", f"sessionid={await session_cookie(user)}".encode())]
    if origin is not None:
        sent.append((b"origin", origin))
    comm = WebsocketCommunicator(application, f"/ws/campaign/{campaign.pk}/", [*sent, *headers])
    comm.scope["scheme"] = scheme
    connected, _ = await comm.connect()
    return comm, connected


def test_the_websocket_route_checks_the_origin():
    """rollcall.asgi builds its websocket stack on the origin check (the tests below check
    that every socket passes through it)."""
    import rollcall.asgi

    stack = [application.application_mapping["websocket"], *vars(rollcall.asgi).values()]
    assert [app for app in stack if isinstance(app, SameOriginOnly)], (
        "rollcall.asgi has no SameOriginOnly around the table's sockets"
    )


@pytest.mark.parametrize("host, origin", SAME_SITE)
async def test_same_site_origins_are_accepted(member, host, origin):
    pete, campaign, mal = member
    comm, connected = await connect_as(pete, campaign, host, origin)
    assert connected
    await send(comm, {"type": "ping"})
    (pong,) = await messages(comm, 1)
    assert 'data-code="pong"' in pong
    await comm.disconnect()


@pytest.mark.parametrize("host, origin", OTHER_ORIGIN_SAME_HOST)
async def test_another_scheme_or_port_is_another_origin(member, host, origin):
    """The host alone used to be checked: a page on http://127.0.0.1:9000 (any program on
    the machine) or served over another scheme could open the table's socket."""
    pete, campaign, _ = member
    comm, connected = await connect_as(pete, campaign, host, origin)
    assert not connected


async def test_a_secure_socket_wants_an_https_page(member):
    pete, campaign, _ = member
    _, connected = await connect_as(
        pete, campaign, b"testserver", b"https://testserver", scheme="wss"
    )
    assert connected
    _, connected = await connect_as(
        pete, campaign, b"testserver", b"http://testserver", scheme="wss"
    )
    assert not connected


async def test_behind_a_tls_proxy_its_forwarded_scheme_counts(member, settings):
    """nginx terminates TLS and says so in X-Forwarded-Proto (BEHIND_TLS_PROXY): the page
    is https even though the socket reaches daphne as ws."""
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    pete, campaign, _ = member
    proto = [(b"x-forwarded-proto", b"https")]
    _, connected = await connect_as(
        pete, campaign, b"testserver", b"https://testserver", headers=proto
    )
    assert connected
    _, connected = await connect_as(
        pete, campaign, b"testserver", b"http://testserver", headers=proto
    )
    assert not connected


async def test_a_forwarded_scheme_is_ignored_without_a_trusted_proxy(member, settings):
    settings.SECURE_PROXY_SSL_HEADER = None
    pete, campaign, _ = member
    proto = [(b"x-forwarded-proto", b"https")]
    _, connected = await connect_as(
        pete, campaign, b"testserver", b"https://testserver", headers=proto
    )
    assert not connected


async def test_csrf_trusted_origins_may_open_the_socket(member, settings):
    settings.CSRF_TRUSTED_ORIGINS = ["https://table.example", "https://*.example.org"]
    pete, campaign, _ = member
    for origin, accepted in [
        (b"https://table.example", True),
        (b"https://play.example.org", True),
        (b"http://table.example", False),
        (b"http://play.example.org", False),
        (b"https://table.example:8443", False),
        (b"https://evilexample.org", False),
    ]:
        _, connected = await connect_as(pete, campaign, b"testserver", origin)
        assert connected is accepted, origin


@pytest.mark.parametrize("origin", FOREIGN)
async def test_a_foreign_origin_is_refused_at_the_handshake(member, origin):
    """The member's own cookie, from another site's page: no socket, nothing done."""
    pete, campaign, mal = member
    comm, connected, code = await open_socket(pete, campaign, origin=origin)
    assert not connected
    assert code == 1000  # refused before accept: the browser sees the handshake fail
    roll = {"type": "act", "action": "roll", "sheet_id": mal.pk, "request": {"pool": [FIGHTIN]}}
    for _ in range(3):
        await comm.send_input({"type": "websocket.receive", "text": json.dumps(roll)})
    await asyncio.sleep(0.1)
    assert comm.output_queue.empty()
    assert not await sync_to_async(TableEvent.objects.filter(campaign=campaign).exists)()


async def test_no_origin_header_is_refused(member):
    """Browsers always send Origin on websockets; a request without one is not a page's."""
    pete, campaign, _ = member
    _, connected, _ = await open_socket(pete, campaign, origin=None)
    assert not connected


async def test_a_foreign_host_header_does_not_make_a_foreign_origin_same_site(member):
    """Origin must equal the Host, and the Host must be an allowed one."""
    pete, campaign, _ = member
    cookie = f"sessionid={await session_cookie(pete)}".encode()
    comm = WebsocketCommunicator(
        application,
        f"/ws/campaign/{campaign.pk}/",
        [(b"host", b"evil.example"), (b"origin", b"https://evil.example"), (b"cookie", cookie)],
    )
    connected, _ = await comm.connect()
    assert not connected


# ---------------------------------------------------------------------- the rate limit


@pytest.fixture
def clock(monkeypatch):
    """The socket's rate-limit clock (table/talk/consumers.py reads time.monotonic()), held
    still: how long the machine takes to answer never moves a message out of the
    window; the test moves it on by hand."""
    now = [1000.0]
    monkeypatch.setattr(consumers, "time", SimpleNamespace(monotonic=lambda: now[0]))
    return now


async def test_the_rate_limit_message_a_player_reads(member, settings, clock):
    """The default limit, 20 messages per 10 seconds: the 21st is not run, and the notice
    says so in words, to the sender only; the socket stays open."""
    settings.TABLE_SOCKET_RATE, settings.TABLE_SOCKET_WINDOW = 20, 10
    pete, campaign, mal = member
    comm, _, _ = await open_socket(pete, campaign)
    for _ in range(20):
        await send(comm, {"type": "ping"})
    roll = {"type": "act", "action": "roll", "sheet_id": mal.pk, "request": {"pool": [FIGHTIN]}}
    await send(comm, roll)
    received = await messages(comm, 21)
    assert sum('data-code="pong"' in r for r in received) == 20
    (limited,) = [r for r in received if 'data-code="rate_limited"' in r]
    assert limited == (
        '<div id="table-notice" hx-swap-oob="true" role="alert" data-kind="error" '
        'data-code="rate_limited">Slow down: at most 20 messages every 10 seconds. '
        "Nothing was done; try again in a moment.</div>"
    )
    assert not await sync_to_async(TableEvent.objects.filter(campaign=campaign).exists)()
    assert comm.output_queue.empty()
    await comm.disconnect()


async def test_after_the_window_the_socket_works_again(member, settings, clock):
    settings.TABLE_SOCKET_RATE, settings.TABLE_SOCKET_WINDOW = 2, 1
    pete, campaign, mal = member
    comm, _, _ = await open_socket(pete, campaign)
    for _ in range(3):
        await send(comm, {"type": "ping"})
    received = await messages(comm, 3)
    assert "Slow down: at most 2 messages every 1 seconds." in received[2]
    clock[0] += 0.5
    await send(comm, {"type": "ping"})
    assert "Slow down" in (await messages(comm, 1))[0]  # still within the window
    clock[0] += 0.55
    roll = {"type": "act", "action": "roll", "sheet_id": mal.pk, "request": {"pool": [FIGHTIN]}}
    await send(comm, roll)
    assert 'data-seq="1"' in (await messages(comm, 1))[0]
    await comm.disconnect()
