"""The campaign's table socket: members only, GM-only messages only to GMs."""

from __future__ import annotations

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from campaigns.models import Membership

from .broadcast import group_name

# Close codes: 4xxx after accept() so clients see a reason instead of a network error.
CLOSE_NOT_LOGGED_IN = 4401
CLOSE_NOT_A_MEMBER = 4403


@database_sync_to_async
def _membership(user, campaign_id: int) -> Membership | None:
    if not user.is_authenticated:
        return None
    return Membership.objects.filter(user=user, campaign_id=campaign_id).first()


class TableConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.campaign_id = int(self.scope["url_route"]["kwargs"]["campaign_id"])
        self.groups_joined: list[str] = []
        await self.accept()
        user = self.scope.get("user")
        membership = await _membership(user, self.campaign_id)
        if membership is None:
            code = CLOSE_NOT_LOGGED_IN if not getattr(user, "is_authenticated", False) else CLOSE_NOT_A_MEMBER
            await self.close(code=code)
            return
        self.membership = membership
        audiences = ["all", "gm"] if membership.is_gm else ["all"]
        for audience in audiences:
            name = group_name(self.campaign_id, audience)
            await self.channel_layer.group_add(name, self.channel_name)
            self.groups_joined.append(name)

    async def disconnect(self, code: int) -> None:
        for name in self.groups_joined:
            await self.channel_layer.group_discard(name, self.channel_name)

    async def table_html(self, message: dict) -> None:
        await self.send(text_data=message["html"])
