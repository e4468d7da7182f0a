"""Serenity Plus's pool builder: the traits a player clicks, turned into its rules request
(rules.kit.builder runs it; the page and the odds fragment show it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..kit import builder as kb
from ..kit.errors import RulesError
from ..kit.table import norm
from .actions import awareness_pool, build_pool
from .table import RULES


def awareness(traits) -> list[kb.Suggestion]:
    """SER-11: for awareness or knowledge the builder suggests Finaglin' (the rules' own
    awareness_pool picks it); a fitting Refinement is ticked instead, and brings its own
    Stylin' (SER-1). A sheet without Finaglin' gets no suggestion."""
    stylins = {t.name: t.die_label for t in traits if t.group == "stylins" and t.die}
    try:
        pool = awareness_pool(stylins, [])
    except RulesError:
        return []
    ids = tuple(
        t.pk
        for entry in pool
        for t in traits
        if t.group == entry["group"] and norm(t.name) == norm(entry["trait"])
    )
    names = " + ".join(f"{e['trait']} {e['die']}" for e in pool)
    return [
        kb.Suggestion(
            label=f"Awareness or knowledge: {names}",
            traits=ids,
            why="Awareness and knowledge roll Finaglin', unless a Refinement fits: then tick "
            "that Refinement, which rolls with its own Stylin'.",
        )
    ]


def refinements_with_their_stylin(
    by_id: Mapping[int, Any], kept: list[int], clicked: int | None, notes: list[str]
) -> list[int]:
    """SER-1: a Refinement rolls only with its own Stylin'. Clicking one brings its Stylin'."""
    if clicked is not None and clicked in kept and by_id[clicked].group == "refinements":
        parent_id = by_id[clicked].parent_id
        if parent_id in by_id and parent_id not in kept:
            old = [k for k in kept if by_id[k].group == "stylins"]
            kept = [k for k in kept if k not in old] + [parent_id]
            if old:
                notes.append(
                    f"{by_id[clicked].name} rolls with {by_id[parent_id].name}, "
                    f"which replaces {by_id[old[0]].name}."
                )
    stylin = next((k for k in kept if by_id[k].group == "stylins"), None)
    out = []
    for k in kept:
        trait = by_id[k]
        if trait.group == "refinements" and trait.parent_id != stylin:
            notes.append(f"{trait.name} left the pool: it is filed under another Stylin'.")
            continue
        out.append(k)
    return out


def fill(pool, chosen, by_id, data, counters, character, target, traits=()) -> None:
    kb.to_beat(pool)
    stylin = next((t for t in chosen if t.group == "stylins"), None)
    challenged = set(kb.form_ints(kb.form_list(data, "challenged")))
    entries = []
    for t in chosen:
        entry = RULES.entry(t)
        if t.group == "values" and t.pk in challenged:
            entry["challenged"] = True
            pool.notes.append(f"{t.name} is challenged: three {t.die_label}, then it steps down.")
        entries.append(entry)
    entries += kb.asset_entries(pool)
    pool.options["challenged"] = sorted(challenged & set(pool.selected))
    for _, _, choices in pool.groups:
        for c in choices:
            trait = by_id[c.id]
            if c.group == "refinements":
                parent = trait.parent.name if trait.parent_id else "no Stylin'"
                c.note = f"under {parent}"
                if stylin is not None and trait.parent_id != stylin.pk:
                    c.note = f"only with {parent}"
    spend = kb.plot_points(pool, data, counters)
    request = {"pool": entries, "plot_points": spend}
    kb.check(pool, request, lambda r: build_pool(r, gm=False))


BUILDER = kb.PoolBuilder(
    roll_action="roll",
    clickable=RULES.own_groups,
    fill=fill,
    one_of=("stylins", "values"),
    link=refinements_with_their_stylin,
    table_assets=True,
    price=RULES.cost,
    suggest=awareness,
)
