"""The pool in the open: a player's pool while they build it.

Each change of a player's pool builder records the pool in progress for that sheet and
sends it to the campaign's pages: GMs get a live card with the dice and their odds
("Mal: d10 Fightin', d8 Brawler — 64 % to beat 11") and a picker to add dice to the
roll; the other players get "Mal is building a roll" and no dice; nobody but the GMs
hears of it when the player has chosen a blind roll (table.log.visibility.live_pool_audiences):
the other players' sockets get no message at all while it is built, not even an empty
slot, whose count and timing would give it away.
The roll takes the GM's additions: the server joins them to the request, the client
never names them.

The pool in progress is not table state and never becomes an event: it is a cache entry
per (campaign, sheet) that lives `TTL` seconds after the last change, and it is cleared
by the roll. The GM's additions live in the same entry, for the same reason: until the
roll they change nothing on the table (like the traits the player has ticked, they are
a draft of one roll), and once rolled they are part of the roll's request, logged,
hashed and voided with it. Only dice the roller's roll would take from the table are
offered (the game's `UI.additions`, the table as the roller may see it), and the roll
reads each one's die from the table again.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from django.core.cache import cache
from django.template.loader import render_to_string

from campaigns.models import Campaign, Membership
from rules.kit.builder import Pool, all_choices
from sheets.models import Sheet, Trait
from table.live import broadcast
from table.log import visibility
from table.pools.scene import scene_state

TTL = 120  # seconds a pool in progress lasts after its builder's last change
MAX_ADDITIONS = 6


def now() -> float:
    return time.time()


def _key(campaign_id: int, sheet_id: int) -> str:
    return f"table.pools.live_pool.{campaign_id}.{sheet_id}"


def current(campaign_id: int, sheet_id: int) -> dict[str, Any] | None:
    """The sheet's pool in progress, or None (never built, rolled, or gone stale)."""
    record = cache.get(_key(campaign_id, sheet_id))
    if not isinstance(record, dict) or record.get("until", 0) <= now():
        return None
    return record


def _store(campaign_id: int, record: dict[str, Any]) -> None:
    record["until"] = now() + TTL
    cache.set(_key(campaign_id, record["sheet"]), record, TTL)


def additions_of(campaign_id: int, sheet_id: int) -> list[dict[str, Any]]:
    record = current(campaign_id, sheet_id)
    return list(record["additions"]) if record else []


def dice_of(pool: Pool) -> list[str]:
    """The pool as the GM's card says it: each picked trait with its die or rating."""
    picked = [f"{c.label} {c.name}".strip() for c in all_choices(pool) if c.selected]
    return picked + [f"{a.die} {a.name}" for a in pool.assets if a.selected]


def addition_entries(campaign_id: int, sheet_id: int) -> list[dict[str, Any]]:
    """The GM's additions to this sheet's roll as pool entries, each named with its
    holder; the pool builder joins them to the roll's request (the game says how:
    `UI.additions.merge`) and prices the roll with them."""
    return [
        {"die": a["die"], "trait": a["trait"], "group": a["group"], "sheet": a["holder"]}
        for a in additions_of(campaign_id, sheet_id)
    ]


# --------------------------------------------------------------------------- changes


def record_pool(
    campaign: Campaign, membership: Membership, sheet: Sheet, pool: Pool, odds, chosen: str
) -> None:
    """A player's builder changed: keep its pool in progress and show it. A GM
    character's pool stays behind the screen; an emptied builder is no pool."""
    if membership.is_gm or sheet.kind != Sheet.Kind.PC:
        return
    if pool.untouched:
        clear(campaign, sheet)
        return
    old = current(campaign.pk, sheet.pk)
    record = {
        "sheet": sheet.pk,
        "name": sheet.name,
        "owner": sheet.owner_id,
        "dice": dice_of(pool),
        "odds": odds.error or odds.summary,
        # A hidden character's name stays behind the screen too.
        "blind": chosen == "blind" or bool(pool.options.get("secret_difficulty")) or sheet.hidden,
        "additions": old["additions"] if old else [],
    }
    _store(campaign.pk, record)
    show(campaign, sheet.pk, record, before=old)


def clear(campaign: Campaign, sheet: Sheet) -> None:
    """Rolled or emptied: the pool in progress is gone, from every page."""
    had = current(campaign.pk, sheet.pk)
    cache.delete(_key(campaign.pk, sheet.pk))
    if had is not None:  # the roll's answer renders the roller's builder without them
        show(campaign, sheet.pk, None, before=had)


class NotBuilding(Exception):
    """The player is not building a roll now (or the die is not one the GM may add)."""


def add(campaign: Campaign, sheet: Sheet, option_key: str) -> dict[str, Any]:
    """The GM adds one of the offered dice to the sheet's pending roll."""
    record = current(campaign.pk, sheet.pk)
    if record is None:
        raise NotBuilding(f"{sheet.name} is not building a roll now.")
    chosen = next((o for o in options_for(campaign, sheet) if o["key"] == option_key), None)
    if chosen is None:
        raise NotBuilding("That die is not on the table for this roll.")
    held = [a for a in record["additions"] if a["key"] != chosen["key"]]
    if len(held) >= MAX_ADDITIONS:
        raise NotBuilding(f"At most {MAX_ADDITIONS} dice from the GM in one roll.")
    record["additions"] = [*held, chosen]
    _store(campaign.pk, record)
    show(campaign, sheet.pk, record, before=record, to_roller=True)
    return record


def remove(campaign: Campaign, sheet: Sheet, option_key: str) -> dict[str, Any] | None:
    """The GM takes one of their additions back."""
    record = current(campaign.pk, sheet.pk)
    if record is None:
        return None
    record["additions"] = [a for a in record["additions"] if a["key"] != option_key]
    _store(campaign.pk, record)
    show(campaign, sheet.pk, record, before=record, to_roller=True)
    return record


def options_for(campaign: Campaign, sheet: Sheet) -> list[dict[str, Any]]:
    """The dice the GM may add to this sheet's roll: the other side's dice in the game's
    groups, as the roller may see the table (a hidden character's never: the roll could
    not take them, and the roller's builder would name them)."""
    groups = campaign.game.ui.additions.groups
    if not groups:
        return []
    roller = Membership.objects.filter(campaign=campaign, user_id=sheet.owner_id).first()
    if roller is None:
        return []
    holders = {
        s.pk: s for s in Sheet.objects.filter(campaign=campaign, hidden=False).exclude(pk=sheet.pk)
    }
    found: dict[str, dict[str, Any]] = {}

    def offer(holder: Sheet, group: str, name: str, die: str) -> None:
        key = f"{holder.pk}:{group}:{name}"
        if name and die and key not in found:
            found[key] = {
                "key": key,
                "holder": holder.pk,
                "holder_name": holder.name,
                "group": group,
                "trait": name,
                "die": die,
            }

    traits = Trait.objects.filter(sheet__in=holders.values(), group__in=groups).order_by(
        "sheet__name", "group", "position"
    )
    for trait in traits:
        if trait.die:
            offer(holders[trait.sheet_id], trait.group, trait.name, trait.die_label)
    if "complications" in groups:
        scene = scene_state(campaign, roller).get("complications") or {}
        for holder_id, held in scene.items() if isinstance(scene, Mapping) else ():
            holder = holders.get(int(holder_id)) if str(holder_id).isdigit() else None
            for name, die in held.items() if holder and isinstance(held, Mapping) else ():
                offer(holder, "complications", str(name), str(die))
    return list(found.values())


# --------------------------------------------------------------------------- pages


def card_html(campaign: Campaign, sheet_id: int, record: Mapping | None, *, gm: bool) -> str:
    """The sheet's slot in the "building" area, as GMs or players see it."""
    options: list = []
    if gm and record is not None:
        sheet = Sheet.objects.filter(campaign=campaign, pk=sheet_id).first()
        options = options_for(campaign, sheet) if sheet is not None else []
    return render_to_string(
        "table/_live_pool.html",
        {
            "campaign": campaign,
            "sheet_id": sheet_id,
            "slot": record,
            "gm": gm,
            "options": options,
            "note": campaign.game.ui.additions.note,
            "oob": True,
        },
    )


def additions_html(sheet_id: int, additions: list) -> str:
    """The roller's builder: what the GM added, arriving without a re-render."""
    return render_to_string(
        "table/_gm_additions.html", {"sheet_id": sheet_id, "gm_additions": additions, "oob": True}
    )


def show(
    campaign: Campaign,
    sheet_id: int,
    record: Mapping | None,
    *,
    before: Mapping | None,
    to_roller: bool = False,
) -> None:
    """Send the sheet's slot to each audience that may see the pool now, or saw it
    `before` this change (its slot empties). Any other audience gets nothing at all:
    an empty slot per tick of a blind pool would tell the players, by its count and
    timing, that one is being built. `to_roller`: the GM's additions changed, and go to
    the roller's own pages too. Only then: the roller's builder re-renders when they
    arrive, and that re-render records the pool again."""
    now_shown = visibility.live_pool_audiences(record)
    was_shown = visibility.live_pool_audiences(before)
    for audience, shown in now_shown.items():
        if not shown and not was_shown.get(audience):
            continue
        html = card_html(campaign, sheet_id, record if shown else None, gm=audience == "gm")
        broadcast.send_html(campaign.pk, html, audience)
    if to_roller and record is not None and record.get("owner") is not None:
        html = additions_html(sheet_id, list(record["additions"]))
        broadcast.send_html_to_user(campaign.pk, record["owner"], html)


def slots(campaign: Campaign, membership: Membership, user) -> list[dict[str, Any]]:
    """The "building" area of the page: one slot per player character, filled where a
    pool is in progress and the member may see it (the member's own are kept out of
    sight: their builder is on the page)."""
    gm = membership.is_gm
    sheets = Sheet.objects.filter(campaign=campaign, kind=Sheet.Kind.PC).order_by("name")
    if not gm:
        sheets = sheets.filter(hidden=False)
    out = []
    for sheet in sheets:
        record = current(campaign.pk, sheet.pk)
        if record is not None and not visibility.live_pool_audiences(record).get(
            visibility.audience_of(membership)
        ):
            record = None
        out.append(
            {
                "sheet_id": sheet.pk,
                "mine": not gm and sheet.owner_id == user.pk,
                "slot": record,
                "options": options_for(campaign, sheet) if gm and record else [],
            }
        )
    return out
