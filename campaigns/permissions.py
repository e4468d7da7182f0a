"""Fetch an object together with the user's role in its campaign, or 404.

Every campaign view goes through these, so an outsider can never tell a
campaign exists and a role check is never forgotten.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404

from .models import Campaign, Membership


def get_campaign_for_user(user, campaign_id: int) -> tuple[Campaign, Membership]:
    """The campaign and the user's membership; 404 for anyone who is not a member."""
    if not user.is_authenticated:
        raise Http404("No such campaign")
    membership = (
        Membership.objects.select_related("campaign")
        .filter(campaign_id=campaign_id, user=user)
        .first()
    )
    if membership is None:
        raise Http404("No such campaign")
    membership.user = user  # the one asking: reading membership.user needs no query
    return membership.campaign, membership


def get_campaign_for_gm(user, campaign_id: int) -> tuple[Campaign, Membership]:
    """As get_campaign_for_user, and refuse (403) members who are not GMs."""
    campaign, membership = get_campaign_for_user(user, campaign_id)
    if not membership.is_gm:
        raise PermissionDenied("Only the GM can do that.")
    return campaign, membership


def get_campaign_for_player(user, campaign_id: int) -> tuple[Campaign, Membership]:
    """As get_campaign_for_user, and refuse observers (403)."""
    campaign, membership = get_campaign_for_user(user, campaign_id)
    if not membership.can_play:
        raise PermissionDenied("Observers can watch but not act.")
    return campaign, membership
