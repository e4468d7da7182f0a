"""The pools a character rolled last, offered as one tap each ("Again: Agility +
Ex-Marine + Shoot"), so the roll a player makes every scene takes a tap and Roll.

A recent pool is a draft, like the traits ticked in a builder: it names the traits
(by id) and the table's Assets (by name) that were picked, never a die. Choosing it
puts those names back in the builder's fields, and the builder reads every die from
the sheet and the table again, applying the game's pool rules as for a click; a trait
since deleted is simply not there. Kept in the cache per (campaign, sheet), so it
follows the player from phone to laptop; it is not table state and is never logged.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from django.core.cache import cache
from django.http import QueryDict

from rules.kit.builder import Pool, all_choices

log = logging.getLogger(__name__)
KEPT = 3
TTL = 60 * 60 * 24 * 30  # a month between sessions


def _key(campaign_id: int, sheet_id: int) -> str:
    return f"table.recent_pools.{campaign_id}.{sheet_id}"


def recall(campaign_id: int, sheet_id: int) -> list[dict[str, Any]]:
    try:
        kept = cache.get(_key(campaign_id, sheet_id))
    except Exception:  # noqa: BLE001 - a convenience: the cache down shows none
        log.exception("recent pools: cache unavailable")
        return []
    return [p for p in kept if isinstance(p, dict)] if isinstance(kept, list) else []


def remember(campaign_id: int, sheet_id: int, pool: Pool) -> None:
    """A rolled pool becomes the first of the sheet's recent pools (once)."""
    picked = [c for c in all_choices(pool) if c.selected]
    assets = [a.name for a in pool.assets if a.selected]
    if not picked and not assets:
        return
    entry = {
        "traits": sorted(c.id for c in picked),
        "assets": sorted(assets),
        "label": " + ".join([c.name for c in picked] + assets),
    }
    same = (entry["traits"], entry["assets"])
    older = [p for p in recall(campaign_id, sheet_id) if (p["traits"], p["assets"]) != same]
    try:
        cache.set(_key(campaign_id, sheet_id), [entry, *older][:KEPT], TTL)
    except Exception:  # noqa: BLE001 - the roll is made; only its shortcut is not kept
        log.exception("recent pools: cache unavailable")


def with_recent(data: Mapping, campaign_id: int, sheet_id: int) -> Mapping:
    """The builder's fields with the recent pool it asks for (`again`: its place in the
    list) in place of its ticked traits and Assets; the fields as they are otherwise."""
    raw = str(data.get("again", "")).strip()
    recent = recall(campaign_id, sheet_id)
    if not raw.isdigit() or int(raw) >= len(recent):
        return data
    chosen = recent[int(raw)]
    fields = data.copy() if isinstance(data, QueryDict) else QueryDict(mutable=True)
    if not isinstance(data, QueryDict):
        for name, value in data.items():
            fields[name] = value
    fields.setlist("trait", [str(i) for i in chosen["traits"]])
    fields.setlist("table_asset", list(chosen["assets"]))
    fields["clicked"] = ""
    return fields
