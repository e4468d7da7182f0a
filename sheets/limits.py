"""How many sheets one member may make in a campaign (SHEETS_PER_PLAYER, SHEETS_PER_GM).

Every member's page lists every sheet they may see, so one member making a hundred
sheets slows and clutters everyone's. GMs keep the GM characters, so they get more.
A deleted sheet frees its place; 0 in the settings means no limit.
"""

from __future__ import annotations

from django.conf import settings

from campaigns.models import Membership

from .models import Sheet


class AtSheetCap(Exception):
    """The member has made as many sheets here as they may; the message says what to do."""


def cap_for(membership: Membership) -> int:
    return settings.SHEETS_PER_GM if membership.is_gm else settings.SHEETS_PER_PLAYER


def made_by(membership: Membership) -> int:
    return Sheet.objects.filter(
        campaign_id=membership.campaign_id, created_by_id=membership.user_id
    ).count()


def why_not(membership: Membership) -> str:
    """Why this member may make no more sheets here, or "" when they may."""
    cap = cap_for(membership)
    if cap <= 0 or made_by(membership) < cap:
        return ""
    if membership.is_gm:
        return (
            f"You have made {cap} sheets in this campaign, as many as a GM may: "
            "delete one that is no longer needed to make another."
        )
    return (
        f"You have made {cap} character sheets in this campaign, as many as a player "
        "may: delete one you no longer play, or ask the GM to make the next one."
    )


def claim(membership: Membership) -> None:
    """Refuse (AtSheetCap) a member at their cap. Inside the transaction that creates the
    sheet: the membership row is locked, so two tabs cannot both take the last place."""
    Membership.objects.select_for_update().filter(pk=membership.pk).first()
    message = why_not(membership)
    if message:
        raise AtSheetCap(message)
