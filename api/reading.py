"""What the API and the overlay hand out, read through the one visibility gate.

Nothing here decides what an audience may see: events go through
table.log.visibility.event_data (the JSON export's shape: a sealed view of an event hidden
from the audience), scene and session state through table.writing.actions, sheets through
sheets.permissions.visible_sheets, and overlay cards through table.reading.rendering for the
players' audience.
"""

from __future__ import annotations

from typing import Any

from campaigns.models import Campaign, Membership
from rules.kit.table import MAX_ID
from sheets.exchange import export_sheet
from sheets.permissions import visible_sheets
from table.log import visibility
from table.models import TableEvent, TableLog
from table.reading.rendering import card_html
from table.writing import actions

PAGE_LIMIT = 200  # events in one page of the log, or one batch of a stream


def head(campaign_id: int) -> int:
    """The newest seq of the log (0 before the first event): every member sees every seq."""
    found = TableLog.objects.filter(campaign_id=campaign_id).values_list("last_seq", flat=True)
    return found.first() or 0


def events_after(
    campaign_id: int,
    audience: str,
    after: int,
    limit: int,
    viewer: int | None = None,
    *,
    upto: int | None = None,
) -> list[dict[str, Any]]:
    """The log after `after` (up to `upto`), oldest first, as this audience may see it
    (`viewer`: the reading member's user id: their own whispers to the GM whole, others'
    sealed)."""
    rows = TableEvent.objects.filter(
        visibility.log_filter(audience, viewer), campaign_id=campaign_id, seq__gt=min(after, MAX_ID)
    )
    if upto is not None:
        rows = rows.filter(seq__lte=upto)
    rows = rows.select_related("target").order_by("seq")[: max(0, min(limit, PAGE_LIMIT))]
    return [visibility.event_data(event, audience, viewer) for event in rows]


def one_event(
    campaign_id: int, audience: str, seq: int, viewer: int | None = None
) -> dict[str, Any] | None:
    """One event this audience may see in full; None for one hidden from it, exactly as
    for a seq that does not exist (table.log.visibility.referenced_event)."""
    if seq > MAX_ID:
        return None
    event = visibility.referenced_event(campaign_id, seq, audience, viewer)
    return None if event is None else visibility.event_data(event, audience, viewer)


def scene(campaign: Campaign, membership: Membership) -> dict[str, Any]:
    return actions.scene_state(campaign, membership=membership)


def session(campaign: Campaign, membership: Membership) -> dict[str, Any]:
    return actions.session_state(campaign, membership=membership)


def sheets(campaign: Campaign, membership: Membership) -> list[dict[str, Any]]:
    """Every sheet the member may open, as its JSON export (docs/sheet-format.md), with
    its id and player: hidden GM characters only for GMs, as on the sheet pages."""
    out = []
    for sheet in visible_sheets(campaign.pk, membership):
        sheet.campaign = campaign
        owner = sheet.owner.shown_name if sheet.owner is not None else None
        out.append({"id": sheet.pk, "player": owner, "sheet": export_sheet(sheet)})
    return out


def overlay_cards(campaign_id: int, count: int) -> list[str]:
    """The newest `count` events as players' roll cards, newest first: a hidden roll is
    its sealed card, and opens when the GM reveals it."""
    rows = TableEvent.objects.filter(
        visibility.log_filter(visibility.PLAYERS), campaign_id=campaign_id
    )
    rows = rows.select_related("target").order_by("-seq")[:count]
    return [card_html(event, visibility.PLAYERS) for event in rows]
