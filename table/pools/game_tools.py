"""A game's scene-panel hooks (its TOOLS, rules.kit.tools), read for the table's pages:
the scene panel's box and the side whose move it is there, and what a side's roll from
its pool builder becomes on its turn. (The GM dashboard's tool blocks are laid out by
table.pages.table.dashboard_tools, played by table.pages.gm.gm_tool.)

The game declares the actions, their partials and how its forms read; this module only
asks the declaration, so it names no action of any game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campaigns.models import Campaign, Membership
from sheets.models import Sheet
from table.pools import recent as recent_pools


def panel_box(campaign: Campaign, state: Mapping[str, Any]) -> dict[str, Any] | None:
    """What the game's panel box shows of the scene (`state`, as the member may see it),
    or None: no box."""
    box = campaign.game.tools.panel
    return box.read(state) if box is not None else None


def side_turn(
    campaign: Campaign, membership: Membership, shown: Mapping[str, Any] | None
) -> dict[str, Any] | None:
    """The side whose move it is in the panel's box, when this member may make it (the
    side's player, or a GM; a side the GM names, or one without its character, the
    GM's): its name, its character and the pools that character rolled last (the
    member's recent pools, table.pools.recent), each one tap away as the side's roll.
    None for everyone else: they see whose turn it is, not its buttons (and the
    action's transition refuses the move to them all the same)."""
    box = campaign.game.tools.panel
    if box is None or shown is None or not membership.can_play:
        return None
    turn = box.turn(shown)
    if turn is None:
        return None
    sheet = None
    if turn.sheet_id is not None:
        sheet = Sheet.objects.filter(campaign=campaign, pk=turn.sheet_id).first()
    if turn.gm or sheet is None:
        allowed = membership.is_gm
    else:
        allowed = membership.is_gm or sheet.owner_id == membership.user_id
    if not allowed:
        return None
    again = recent_pools.recall(campaign.pk, sheet.pk, membership) if sheet else []
    return {"name": turn.name, "sheet": sheet, "again": again}


def box_context(
    campaign: Campaign, membership: Membership, state: Mapping[str, Any]
) -> dict[str, Any]:
    """The scene panel's box for the page and the panel: `panel_box`, its template, what
    it shows and the side this member may move for (None: no box)."""
    box = campaign.game.tools.panel
    shown = panel_box(campaign, state)
    if box is None or shown is None:
        return {"panel_box": None}
    return {
        "panel_box": {
            "template": campaign.game.partials[box.partial],
            "box": shown,
            "turn": side_turn(campaign, membership, shown),
        }
    }


def turn_roll(campaign: Campaign, shown: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """While a side of the panel's box is to move, what a pool builder shows of the roll
    it makes then: its more fields (a template) and the words after "Roll"; None
    otherwise."""
    box = campaign.game.tools.panel
    roll = box.roll if box is not None else None
    if roll is None or shown is None or roll.action not in campaign.game.actions:
        return None
    if box.turn(shown) is None:
        return None
    fields = campaign.game.partials[roll.fields] if roll.fields else None
    return {"action": roll.action, "fields": fields, "words": roll.words}


def roll_on_turn(
    campaign: Campaign,
    sheet: Sheet,
    request: Mapping[str, Any],
    form: Mapping[str, Any],
    state: Mapping[str, Any],
) -> tuple[str, dict[str, Any]] | None:
    """(the action, its request) a built pool's roll becomes when `sheet` is the side
    whose move it is in the panel's box, in a game whose box declares that roll; None
    for a plain roll."""
    box = campaign.game.tools.panel
    roll = box.roll if box is not None else None
    if roll is None or roll.action not in campaign.game.actions:
        return None
    shown = box.read(state)
    turn = box.turn(shown) if shown is not None else None
    if turn is None or turn.sheet_id != sheet.pk:
        return None
    turned = roll.request(dict(request), form, shown)
    return (roll.action, turned) if turned is not None else None
