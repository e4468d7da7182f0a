"""Smallville's pool builder: the traits a player clicks, turned into its rules request
(rules.kit.builder runs it; the page and the odds fragment show it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..kit import builder as kb
from ..kit.table import norm
from .actions import USEFUL_DETAIL_DIE, build_pool
from .sheet import SIDE_GROUPS
from .table import RULES, side_entry

DETAIL = "useful_details"
PLAYERS_DETAIL = f"d{USEFUL_DETAIL_DIE}"


def useful_details(pool, data, request: dict[str, Any]) -> list[dict[str, Any]]:
    """SMV-6: the Useful Details of this roll, as the builder offers them: one made now (a
    d6 for 1 plot point, named in `useful_detail`), the scene's earlier ones reused for
    free (ticked in `reuse_detail`; a player reuses a d6 one), and for the Watchtower a
    die taken out of the scene's Trouble Pool (`trouble_detail`), free. Only what the
    scene holds now counts; the roll reads it from the table again."""
    scene = pool.table.get("scene") or {}
    known: dict[str, tuple[str, str]] = {}
    theirs: dict[str, str] = {}  # the scene's details this roller cannot use (not a d6)
    for name, record in (scene.get(DETAIL) or {}).items():
        die = record.get("die") if isinstance(record, Mapping) else None
        if isinstance(name, str) and isinstance(die, str):
            if pool.gm_side or die == PLAYERS_DETAIL:
                known[norm(name)] = (name, die)
            else:
                theirs[norm(name)] = f"{name} {die}"
    ticked = {norm(x) for x in kb.form_list(data, "reuse_detail")[:40]}
    typed = " ".join(str(data.get("useful_detail", "") or "").split())[:80]
    trouble = [d for d in scene.get("trouble_pool") or () if isinstance(d, str)]
    taken = str(data.get("trouble_detail", "") or "")
    if not pool.gm_side or taken not in trouble:
        taken = ""
    if typed and not taken and norm(typed) in theirs:
        pool.errors.append(
            f"{theirs[norm(typed)]} is a Useful Detail of the Watchtower's: a player's is a d6."
        )
    if typed and not taken and norm(typed) in known:
        ticked.add(norm(typed))  # made earlier in the scene: reused, free
        typed = ""
    entries = [
        {"die": die, "trait": name, "group": DETAIL, "reused": True}
        for key, (name, die) in known.items()
        if key in ticked
    ]
    if taken:
        entries.append(
            {"die": taken, "trait": typed or "Trouble", "group": DETAIL, "from_trouble": True}
        )
        request["trouble_pool"] = list(trouble)
    elif typed:
        entries.append({"die": PLAYERS_DETAIL, "trait": typed, "group": DETAIL})
    pool.options["useful_detail"] = typed
    pool.options["scene_details"] = [
        {"name": name, "die": die, "selected": key in ticked} for key, (name, die) in known.items()
    ]
    pool.options["trouble_pool"] = list(dict.fromkeys(trouble)) if pool.gm_side else []
    pool.options["trouble_detail"] = taken
    return entries


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
    main.extend(useful_details(pool, data, request))
    if heritage_roll:
        request["heritage_roll"] = True
    for _, _, choices in pool.groups:
        for c in choices:
            trait = by_id[c.id]
            if c.group == "distinctions" and (trait.flags or {}).get("heritage"):
                c.note = "Heritage: only on a roll about it"
                if not heritage_roll:
                    c.disabled = not c.selected
    built = kb.check(pool, request, lambda r: build_pool(r, watchtower=pool.gm_side))
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
    scene_keys=(DETAIL, "trouble_pool"),
)
