"""Smallville's pool builder: the traits a player clicks, turned into its rules request
(rules.kit.builder runs it; the page and the odds fragment show it).
"""

from __future__ import annotations

from typing import Any

from ..kit import builder as kb
from .actions import build_pool
from .sheet import SIDE_GROUPS
from .table import RULES, side_entry


def fill(pool, chosen, by_id, data, counters, character, target, traits=()) -> None:
    kb.to_beat(pool)
    challenged = set(kb.form_ints(kb.form_list(data, "challenged")))
    heritage_roll = kb.form_flag(data, "heritage_roll")
    main, side = [], []
    for t in chosen:
        if t.group in SIDE_GROUPS:
            side.append(side_entry(t))
            continue
        entry = RULES.entry(t)
        if t.group in ("values", "relationships") and t.pk in challenged:
            entry["challenged"] = True
        main.append(entry)
    pool.options["challenged"] = sorted(challenged & set(pool.selected))
    pool.options["heritage_roll"] = heritage_roll
    spend = kb.plot_points(pool, data, counters)
    request: dict[str, Any] = {"pool": main, "side_pool": side, "plot_points": spend}
    if heritage_roll:
        request["heritage_roll"] = True
    for _, _, choices in pool.groups:
        for c in choices:
            trait = by_id[c.id]
            if c.group == "distinctions" and (trait.flags or {}).get("heritage"):
                c.note = "Heritage: only on a roll about it"
                if not heritage_roll:
                    c.disabled = not c.selected
    built = kb.check(pool, request, lambda r: build_pool(r, watchtower=False))
    if built is not None:
        # Each picked trait says what it costs; the cost line is the kit's (BUILDER.price).
        for c in built.costs:
            choice = next(
                (x for x in kb.all_choices(pool) if x.selected and x.name == c["trait"]), None
            )
            if choice is not None:
                choice.note = "+1 plot point" if c["plot_points"] else "free"


BUILDER = kb.PoolBuilder(
    roll_action="roll",
    clickable=(*RULES.own_groups, *SIDE_GROUPS),
    fill=fill,
    one_of=("values",),
    price=RULES.cost,
)
