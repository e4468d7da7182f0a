"""Whom a whisper is for: the GM (no recipient), or one player. A GM may whisper to any
player of the campaign; a player to another player only where the GM allows it in the
campaign's settings (Campaign.player_whispers). The refusal of a player's whisper
comes before any lookup of the recipient, and a recipient who is no player of the
campaign (a stranger, an observer, a GM, oneself) is refused exactly like an id that
names nobody. Who then reads the whisper is table.log.visibility's (`sees`)."""

from __future__ import annotations

from typing import Any

from campaigns.models import Campaign, Membership, Role
from table.acting.context import ActionError

NO_SUCH_PLAYER = "No such player in this campaign."
NOT_ALLOWED = (
    "Whispers between players are off in this campaign: whisper to the GM, "
    "or ask the GM to allow them in the campaign's settings."
)


def recipient(campaign_id: int, membership: Membership, to: object) -> dict[str, Any] | None:
    """The refs entry ("to") of a whisper to user `to`, or None for a whisper to the GM."""
    if to is None:
        return None
    if not membership.is_gm:
        allowed = Campaign.objects.filter(pk=campaign_id, player_whispers=True).exists()
        if not allowed:
            raise ActionError(NOT_ALLOWED)
    if isinstance(to, bool) or not isinstance(to, int):
        raise ActionError(NO_SUCH_PLAYER)
    found = (
        Membership.objects.filter(campaign_id=campaign_id, user_id=to, role=Role.PLAYER)
        .exclude(user_id=membership.user_id)
        .select_related("user")
        .first()
    )
    if found is None:
        raise ActionError(NO_SUCH_PLAYER)
    return {"id": found.user_id, "name": str(found.user), "by_gm": membership.is_gm}


def recipients(campaign: Campaign, membership: Membership) -> list[tuple[int, str]]:
    """The players this member may whisper to, for the chat line's picker: (user id, name)."""
    if not (membership.is_gm or (membership.can_play and campaign.player_whispers)):
        return []
    players = Membership.objects.filter(campaign=campaign, role=Role.PLAYER).exclude(
        user_id=membership.user_id
    )
    return sorted(
        ((m.user_id, str(m.user)) for m in players.select_related("user")),
        key=lambda pair: pair[1].casefold(),
    )
