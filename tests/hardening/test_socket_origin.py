"""Cross-site websocket hijacking: a page on another site can make the browser open a
socket to the table with the user's cookie, so the handshake must check the Origin
header against ALLOWED_HOSTS (channels' AllowedHostsOriginValidator in rollcall.asgi).
And the socket's rate limit, as the user reads it."""

from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async
from channels.security.websocket import OriginValidator
from django.conf import settings

from rollcall.asgi import application
from table.models import TableEvent
from tests.table.sockets import messages, open_socket, send

pytestmark = pytest.mark.django_db(transaction=True)

FIGHTIN = {"die": "d10", "trait": "Fightin'", "group": "stylins"}

SAME_SITE = [b"http://testserver", b"https://testserver", b"http://localhost:8000",
             b"https://127.0.0.1", b"http://[::1]:8000"]  # fmt: skip
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


def test_the_websocket_route_checks_the_origin_against_allowed_hosts():
    """rollcall.asgi builds its websocket stack on the origin check, from ALLOWED_HOSTS, and
    no pattern lets every origin in (the tests below check that every socket passes it)."""
    import rollcall.asgi

    stack = [application.application_mapping["websocket"], *vars(rollcall.asgi).values()]
    validators = [app for app in stack if isinstance(app, OriginValidator)]
    assert validators, "rollcall.asgi has no OriginValidator around the table's sockets"
    for validator in validators:
        assert set(validator.allowed_origins) == set(settings.ALLOWED_HOSTS)
        assert "*" not in validator.allowed_origins


@pytest.mark.parametrize("origin", SAME_SITE)
async def test_same_site_origins_are_accepted(member, origin):
    pete, campaign, mal = member
    comm, connected, _ = await open_socket(pete, campaign, origin=origin)
    assert connected
    await send(comm, {"type": "ping"})
    (pong,) = await messages(comm, 1)
    assert 'data-code="pong"' in pong
    await comm.disconnect()


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
    """The check is Origin against ALLOWED_HOSTS, not Origin against Host."""
    from channels.testing import WebsocketCommunicator

    from tests.table.sockets import session_cookie

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


async def test_the_rate_limit_message_a_player_reads(member, settings):
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


async def test_after_the_window_the_socket_works_again(member, settings):
    settings.TABLE_SOCKET_RATE, settings.TABLE_SOCKET_WINDOW = 2, 1
    pete, campaign, mal = member
    comm, _, _ = await open_socket(pete, campaign)
    for _ in range(3):
        await send(comm, {"type": "ping"})
    received = await messages(comm, 3)
    assert "Slow down: at most 2 messages every 1 seconds." in received[2]
    await asyncio.sleep(1.05)
    roll = {"type": "act", "action": "roll", "sheet_id": mal.pk, "request": {"pool": [FIGHTIN]}}
    await send(comm, roll)
    assert 'data-seq="1"' in (await messages(comm, 1))[0]
    await comm.disconnect()
