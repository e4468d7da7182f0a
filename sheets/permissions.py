"""Fetch a sheet together with what the user may do with it, or refuse.

Every sheet view, full page or htmx fragment, goes through these:
- outsiders get 404 (neither the campaign nor the sheet is disclosed);
- a hidden GM character is 404 for everyone but the campaign's GMs;
- the owner (while a player) and the GMs edit; other members only view (403 on edits);
- anonymous visitors are sent to log in (see `login_required_htmx`).
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404

from campaigns.models import Membership
from campaigns.permissions import get_campaign_for_user

from .models import Sheet


def can_edit_sheet(sheet: Sheet, membership: Membership) -> bool:
    if membership.is_gm:
        return True
    return (
        membership.can_play and sheet.owner_id is not None and sheet.owner_id == membership.user_id
    )


def get_sheet_for_user(user, campaign_id: int, sheet_id: int) -> tuple[Sheet, Membership, bool]:
    """The sheet, the user's membership and whether they may edit it; 404 if they may not see it."""
    campaign, membership = get_campaign_for_user(user, campaign_id)
    sheet = Sheet.objects.filter(pk=sheet_id, campaign_id=campaign.pk).first()
    if sheet is None or (sheet.hidden and not membership.is_gm):
        raise Http404("No such sheet")
    sheet.campaign = campaign
    return sheet, membership, can_edit_sheet(sheet, membership)


def get_sheet_for_editor(user, campaign_id: int, sheet_id: int) -> tuple[Sheet, Membership]:
    """As get_sheet_for_user, and refuse (403) members who may only view."""
    sheet, membership, can_edit = get_sheet_for_user(user, campaign_id, sheet_id)
    if not can_edit:
        raise PermissionDenied("Only the character's player and the GM can change this sheet.")
    return sheet, membership


def visible_sheets(campaign_id: int, membership: Membership):
    sheets = Sheet.objects.filter(campaign_id=campaign_id).select_related("owner")
    if not membership.is_gm:
        sheets = sheets.filter(hidden=False)
    return sheets


def login_required_htmx(view):
    """login_required; for an htmx request rollcall.middleware.HtmxLoginRedirectMiddleware
    turns the login redirect into 401 with HX-Redirect, as for every view."""
    return login_required(view)
