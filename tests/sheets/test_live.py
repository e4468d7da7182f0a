"""Saved changes reach every other open copy of the sheet over the campaign socket.

The broadcast carries no sheet data, only an order to re-fetch the changed row
through the viewer's own permission-checked GET. A hidden GM character's
changes go to the GMs' sockets only.
"""

import asyncio

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse

from rollcall.asgi import application
from sheets import services
from tests.table.sockets import HANG_GUARD

pytestmark = pytest.mark.django_db(transaction=True)

HTMX = {"HTTP_HX_REQUEST": "true"}


def logged_in(user) -> tuple[Client, str]:
    client = Client()
    client.force_login(user)
    return client, client.cookies["sessionid"].value


async def open_socket(campaign_id: int, session: str) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(
        application,
        f"/ws/campaign/{campaign_id}/",
        headers=[
            (b"host", b"testserver"),  # as a browser sends it; the Origin must match it
            (b"origin", b"http://testserver"),
            (b"cookie", f"sessionid={session}".encode()),
        ],
    )
    connected, _ = await communicator.connect()
    assert connected
    return communicator


async def next_sync(
    communicator: WebsocketCommunicator, needle: str, timeout: float = HANG_GUARD
) -> str:
    """The first message containing `needle` (table messages may arrive too); the
    timeout only guards against a hang."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        remaining = deadline - loop.time()
        assert remaining > 0, f"no message with {needle!r}"
        message = await communicator.receive_from(timeout=remaining)
        if needle in message:
            return message


async def nothing_with(communicator: WebsocketCommunicator, needle: str, wait: float = 0.5) -> bool:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + wait
    while (remaining := deadline - loop.time()) > 0:
        if await communicator.receive_nothing(timeout=remaining):
            return True
        message = await communicator.receive_from()
        if needle in message:
            return False
    return True


@sync_to_async
def setup_table(make_campaign, make_sheet, gm, player, other_player):
    campaign = make_campaign("serenity")
    sheet = make_sheet(campaign, "Mal")
    trait = services.add_trait(sheet, "stylins", {"name": "Fightin'", "die": "d8"}, {})
    npc = make_sheet(campaign, "Reaver Captain", kind="npc", hidden=True)
    npc_trait = services.add_trait(npc, "stylins", {"name": "Fightin'", "die": "d12"}, {})
    return (
        campaign,
        sheet,
        trait,
        npc,
        npc_trait,
        logged_in(gm),
        logged_in(player),
        logged_in(other_player),
    )


async def test_owner_save_reaches_another_members_socket_and_hidden_changes_stay_with_gms(
    make_campaign, make_sheet, gm, player, other_player
):
    (
        campaign,
        sheet,
        trait,
        npc,
        npc_trait,
        (gm_client, gm_session),
        (owner_client, _),
        (_, other_session),
    ) = await setup_table(make_campaign, make_sheet, gm, player, other_player)
    other_socket = await open_socket(campaign.pk, other_session)
    gm_socket = await open_socket(campaign.pk, gm_session)
    try:
        # The owner renames a trait: the other player's browser is told to re-fetch that row.
        url = reverse("trait", args=[campaign.pk, sheet.pk, trait.pk])
        response = await sync_to_async(owner_client.post)(
            url, {"field": "name", "name": "Fightin' Dirty", "version": 1}, **HTMX
        )
        assert response.status_code == 200
        message = await next_sync(other_socket, f"#trait-{trait.pk}")
        assert f'hx-swap-oob="beforeend:#sheet-sync-{sheet.pk}"' in message
        assert f'hx-get="{url}"' in message and 'hx-trigger="load"' in message
        assert "Fightin' Dirty" not in message  # no sheet data on the wire
        await next_sync(gm_socket, f"#trait-{trait.pk}")

        # What the re-fetch returns to that player is their read-only view of the new row.
        other_client = Client()
        await sync_to_async(other_client.force_login)(other_player)
        row = await sync_to_async(other_client.get)(url, **HTMX)
        assert row.status_code == 200 and "Fightin&#x27; Dirty" in row.content.decode()
        assert 'name="die"' not in row.content.decode()

        # The GM changes a hidden GM character: GMs hear of it, players do not.
        npc_url = reverse("trait", args=[campaign.pk, npc.pk, npc_trait.pk])
        response = await sync_to_async(gm_client.post)(
            npc_url, {"field": "die", "die": "d10", "version": 1}, **HTMX
        )
        assert response.status_code == 200
        await next_sync(gm_socket, f"#trait-{npc_trait.pk}")
        assert await nothing_with(other_socket, f"sheet-sync-{npc.pk}")

        # Counters and structure changes are pushed the same way (plot points change at the
        # table, so the GM sets them: a logged action that refreshes the sheet as well).
        counter_url = reverse("sheet_counter", args=[campaign.pk, sheet.pk, "plot_points"])
        await sync_to_async(gm_client.post)(counter_url, {"value": "2", "version": 1}, **HTMX)
        await next_sync(other_socket, f"#counter-{sheet.pk}-plot_points")
        add_url = reverse("trait_add", args=[campaign.pk, sheet.pk, "values"])
        await sync_to_async(owner_client.post)(add_url, {"name": "Freedom", "die": "d10"}, **HTMX)
        await next_sync(other_socket, f"#group-{sheet.pk}-values")
    finally:
        await other_socket.disconnect()
        await gm_socket.disconnect()


async def test_refused_saves_broadcast_nothing(make_campaign, make_sheet, gm, player, other_player):
    campaign, sheet, trait, *_, (owner_client, _), (_, other_session) = await setup_table(
        make_campaign, make_sheet, gm, player, other_player
    )
    other_socket = await open_socket(campaign.pk, other_session)
    try:
        url = reverse("trait", args=[campaign.pk, sheet.pk, trait.pk])
        bad = await sync_to_async(owner_client.post)(
            url, {"field": "die", "die": "d7", "version": 1}, **HTMX
        )
        stale = await sync_to_async(owner_client.post)(
            url, {"field": "die", "die": "d6", "version": 9}, **HTMX
        )
        assert (bad.status_code, stale.status_code) == (422, 409)
        assert await nothing_with(other_socket, f"#trait-{trait.pk}")
    finally:
        await other_socket.disconnect()
