"""Cortex with Total and Effect slots's pool builder: the traits a player clicks, turned into its rules request
(rules.kit.builder runs it; the page and the odds fragment show it).
"""

from __future__ import annotations

from typing import Any

from ..kit import builder as kb
from . import rolls
from .table import POOL


def fill(pool, chosen, by_id, data, counters, character, target, traits=()) -> None:
    entries = [POOL.entry(t) for t in chosen] + kb.asset_entries(pool)
    request: dict[str, Any] = {"pool": entries}
    hero = next((t for t in traits if t.group == "big_hero" and t.die), None)
    pool.options["big_hero"] = kb.form_flag(data, "big_hero") and hero is not None
    pool.options["big_hero_die"] = hero.die_label if hero is not None else ""
    held = counters.get("plot_points", 0)
    pool.options["plot_points_held"] = held
    if pool.options["big_hero"]:
        request["big_hero"] = {"die": hero.die_label, "trait": hero.name}
        request["plot_points"] = held
    if target is not None:
        request["difficulty"] = target
    kb.check(pool, request, lambda r: rolls.parse_player_pool(r["pool"]))


BUILDER = kb.PoolBuilder(
    roll_action="roll",
    clickable=POOL.own_groups,
    fill=fill,
    one_of=("attributes", "distinctions"),
    table_assets=True,
    price=POOL.cost,
)
