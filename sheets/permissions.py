"""Fetch a sheet together with what the user may do with it, or refuse.

Every sheet view, full page or htmx fragment, goes through these:
- outsiders get 404 (neither the campaign nor the sheet is disclosed);
- a hidden GM character is 404 for everyone but the campaign's GMs;
- the owner (while a player) and the GMs edit; other members only view (403 on edits);
- anonymous visitors are sent to log in (see `login_required_htmx`).
"""

from __future__ import annotations

from functools import wraps
from urllib.parse import urlparse

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import resolve_url

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
    """login_required that also works for htmx fragment requests.

    A full page is redirected to the login page as usual. An htmx request gets
    401 with HX-Redirect, so the whole browser page goes to the login page
    (and comes back to the page it was on) instead of a login form being
    swapped into a fragment.
    """

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if request.user.is_authenticated:
            return view(request, *args, **kwargs)
        login_url = resolve_url(settings.LOGIN_URL)
        if getattr(request, "htmx", False):
            current = request.htmx.current_url or ""
            parsed = urlparse(current)
            next_path = parsed.path if parsed.path else request.get_full_path()
            if parsed.query:
                next_path += "?" + parsed.query
            response = HttpResponse(status=401)
            response["HX-Redirect"] = redirect_to_login(next_path, login_url)["Location"]
            return response
        return redirect_to_login(request.get_full_path(), login_url)

    return wrapper
