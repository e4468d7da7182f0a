"""The action order's tracker in the scene panel: whose turn it is, who has acted this
round, and the controls the member may use (rules.kit.order holds the rules; the order
is read from the scene state as the member may see it, through table.log.visibility).

`tracker(campaign, membership, scene, state)` is the partial's context
(table/templates/table/_order.html), part of the scene panel's; its form's view is
table.pages.order.order_move.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campaigns.models import Campaign, Membership
from rules.kit import order as rules_order
from sheets.models import Sheet, Trait


def _rows(order: Mapping[str, Any], mine: set[int]) -> list[dict[str, Any]]:
    acted = set(order.get("acted") or [])
    rows = []
    for slot in order.get("slots") or []:
        if not isinstance(slot, Mapping):
            continue
        rows.append(
            {
                "slot": slot.get("slot"),
                "label": slot.get("label") or "",
                "name": slot.get("name") or slot.get("label") or "",
                "rating": slot.get("rating") if not slot.get("hidden") else slot.get("rank"),
                # Hidden when it joined, or since (its label then no longer its name).
                "hidden": bool(slot.get("hidden")) or slot.get("label") != slot.get("name"),
                "current": slot.get("slot") == order.get("current"),
                "acted": slot.get("slot") in acted,
                "mine": slot.get("sheet") in mine,
            }
        )
    return rows


def _ratings(campaign: Campaign, sheets: list[Sheet]) -> tuple[str, ...]:
    """What an initiative may be ordered by: the game's list, or the names of the rating
    group's traits the sheets hold."""
    rules = campaign.game.order
    if rules.ratings or not rules.rating_group:
        return rules.ratings
    names = Trait.objects.filter(sheet__in=sheets, group=rules.rating_group)
    return tuple(sorted(set(names.values_list("name", flat=True))))


def tracker(
    campaign: Campaign,
    membership: Membership,
    scene: Mapping | None,
    state: Mapping,
    characters: list[dict[str, Any]],
) -> dict[str, Any]:
    """The tracker as this member sees it: `state` is the scene state and `characters`
    the panel's rows (scene_panel.character_rows), both as the gate gave them."""
    rules = campaign.game.order
    sheets = [row["sheet"] for row in characters]
    sheets = sorted(sheets, key=lambda s: (s.kind != Sheet.Kind.PC, s.name))  # PCs first
    mine = {s.pk for s in sheets if s.owner_id == membership.user_id and s.kind == Sheet.Kind.PC}
    order = state.get(rules_order.KEY) if isinstance(state, Mapping) else None
    context: dict[str, Any] = {
        "scene": scene,
        "kind": rules.kind,
        "popcorn": rules.kind == rules_order.POPCORN,
        "is_gm": membership.is_gm,
        "can_play": membership.can_play,
        "order": None,
    }
    if not isinstance(order, Mapping):
        if membership.is_gm and scene:
            context["start_sheets"] = sheets
            context["ratings"] = _ratings(campaign, sheets)
        return context
    rows = _rows(order, mine)
    holder = next((r for r in rows if r["current"]), None)
    waiting = [r for r in rows if not r["acted"] and not r["current"]]
    round_over = not waiting
    in_order = {s.get("sheet") for s in order.get("slots") or [] if isinstance(s, Mapping)}
    context.update(
        order=order,
        rows=rows,
        holder=holder,
        round=order.get("round", 1),
        by=order.get("by") or "",
        my_turn=bool(holder and holder["mine"]),
        can_pass=membership.is_gm or bool(holder and holder["mine"] and membership.can_play),
        # Popcorn: to someone who has not acted; at the round's end the last actor picks
        # anyone to start the next. Initiative: the GM's out-of-line choices.
        pass_to=rows if round_over else waiting,
        round_over=round_over,
        addable=[s for s in sheets if s.pk not in in_order] if membership.is_gm else [],
        gm_side_addable=membership.is_gm and None not in in_order,
    )
    return context
