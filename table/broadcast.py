"""Sending already-rendered HTML to everyone at a campaign's table who may see it.

Audiences: "all" reaches every member's socket; "gm" only the GMs'. A message is
sent only after the transaction that stored its state commits, so nobody sees a
change that was rolled back.
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

AUDIENCES = ("all", "gm")


def group_name(campaign_id: int, audience: str) -> str:
    if audience not in AUDIENCES:
        raise ValueError(f"unknown audience {audience!r}")
    return f"campaign.{campaign_id}.{audience}"


def send_html(campaign_id: int, html: str, audience: str = "all") -> None:
    layer = get_channel_layer()
    async_to_sync(layer.group_send)(
        group_name(campaign_id, audience), {"type": "table.html", "html": html}
    )


def send_html_on_commit(campaign_id: int, html: str, audience: str = "all") -> None:
    transaction.on_commit(lambda: send_html(campaign_id, html, audience))
