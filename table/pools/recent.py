"""The pools a character rolled last, offered as one tap each ("Again: Agility +
Ex-Marine + Shoot"), so the roll a player makes every scene takes a tap and Roll.

A recent pool is a draft, like the traits ticked in a builder: it names the traits
(by id) and the table's Assets (by name) that were picked, never a die. Choosing it
puts those names back in the builder's fields, and the builder reads every die from
the sheet and the table again, applying the game's pool rules as for a click; a trait
since deleted is simply not there. Kept in the cache per (campaign, sheet), so it
follows the player from phone to laptop; it is not table state and is never logged.

A pool is offered to a member only if they may see the roll it was (table.log.visibility),
or made it: a secret roll the GM makes through a player's builder is the GMs' to roll
again, never the player's; a player's own blind roll is theirs and the GMs'. Each
roller's hidden rolls are kept apart from the public ones (`_scope`), so a GM's secret
rolls never push a player's pools out of their list either.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from django.core.cache import cache
from django.http import QueryDict

from campaigns.models import Membership
from rules.kit.builder import Pool, all_choices
from table.log import visibility
from table.models import TableEvent

log = logging.getLogger(__name__)
KEPT = 3
TTL = 60 * 60 * 24 * 30  # a month between sessions


def _key(campaign_id: int, sheet_id: int) -> str:
    return f"table.pools.recent.{campaign_id}.{sheet_id}"


def _kept(campaign_id: int, sheet_id: int) -> list[dict[str, Any]]:
    """Every pool kept for the sheet, newest first, whoever may see it."""
    try:
        kept = cache.get(_key(campaign_id, sheet_id))
    except Exception:  # noqa: BLE001 - a convenience: the cache down shows none
        log.exception("recent pools: cache unavailable")
        return []
    return [p for p in kept if isinstance(p, dict)] if isinstance(kept, list) else []


def _scope(entry: Mapping[str, Any]) -> str:
    """Public pools share one list; each roller's hidden ones are a list of their own."""
    return "public" if entry.get("public") else f"hidden:{entry.get('actor')}"


def _same(entry: Mapping[str, Any]) -> tuple:
    return (entry.get("traits"), entry.get("assets"))


def _opened(campaign_id: int, kept: list[dict[str, Any]], membership: Membership) -> set:
    """Which of the kept hidden rolls the member may see now (the gate: revealed)."""
    seqs = {e["seq"] for e in kept if not e.get("public") and isinstance(e.get("seq"), int)}
    if not seqs:
        return set()
    rows = TableEvent.objects.filter(campaign_id=campaign_id, seq__in=seqs)
    audience = visibility.audience_of(membership)
    return {
        event.seq
        for event in rows.only("seq", "visibility", "revealed", "actor")
        if visibility.sees(event, audience, membership.user_id)
    }


def recall(campaign_id: int, sheet_id: int, membership: Membership) -> list[dict[str, Any]]:
    """The sheet's recent pools this member may roll again, newest first: a public
    roll's, their own hidden roll's, and a hidden roll's the gate shows them (a GM's
    secret roll through their builder is left out, exactly as if it were not kept; one
    kept before rolls were told apart says nothing of its roll, so it is the GMs')."""
    kept = _kept(campaign_id, sheet_id)
    if visibility.audience_of(membership) != visibility.GM:
        viewer = membership.user_id
        opened = _opened(campaign_id, kept, membership)
        kept = [
            e
            for e in kept
            if e.get("public")
            or (viewer is not None and e.get("actor") == viewer)
            or e.get("seq") in opened
        ]
    shown: list[dict[str, Any]] = []
    for entry in kept:
        if all(_same(entry) != _same(s) for s in shown):
            shown.append(entry)
    return shown[:KEPT]


def remember(campaign_id: int, sheet_id: int, pool: Pool, event: TableEvent) -> None:
    """A rolled pool becomes the first of the sheet's recent pools (once in its scope)."""
    picked = [c for c in all_choices(pool) if c.selected]
    assets = [a.name for a in pool.assets if a.selected]
    if not picked and not assets:
        return
    entry = {
        "traits": sorted(c.id for c in picked),
        "assets": sorted(assets),
        "label": " + ".join([c.name for c in picked] + assets),
        "seq": event.seq,
        "actor": event.actor_id,
        "public": not visibility.is_hidden(event),
    }
    kept: list[dict[str, Any]] = []
    counts: dict[str, int] = {}
    for older in [entry, *_kept(campaign_id, sheet_id)]:
        scope = _scope(older)
        same_scope = (k for k in kept if _scope(k) == scope)
        if counts.get(scope, 0) >= KEPT or any(_same(k) == _same(older) for k in same_scope):
            continue
        counts[scope] = counts.get(scope, 0) + 1
        kept.append(older)
    try:
        cache.set(_key(campaign_id, sheet_id), kept, TTL)
    except Exception:  # noqa: BLE001 - the roll is made; only its shortcut is not kept
        log.exception("recent pools: cache unavailable")


def with_recent(data: Mapping, campaign_id: int, sheet_id: int, membership: Membership) -> Mapping:
    """The builder's fields with the recent pool it asks for (`again`: its place in the
    member's list) in place of its ticked traits and Assets; the fields as they are
    otherwise."""
    raw = str(data.get("again", "")).strip()
    recent = recall(campaign_id, sheet_id, membership)
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
