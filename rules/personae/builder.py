"""Personae's pool builder: the traits a player clicks, turned into its rules request
(rules.kit.builder runs it; the page and the odds fragment show it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..kit import builder as kb
from . import reading
from .sheet import SHEET_TEMPLATE
from .table import rated


def skill_brings_its_attribute(
    by_id: Mapping[int, Any], kept: list[int], clicked: int | None, notes: list[str]
) -> list[int]:
    """PER-1: picking a skill picks the attribute it names (a later click can change it)."""
    if clicked is None or clicked not in kept or by_id[clicked].group != "skills":
        return kept
    link = by_id[clicked].link_id
    if link in by_id:
        kept = [k for k in kept if by_id[k].group != "attributes"] + [link]
    return kept


def fill(pool, chosen, by_id, data, counters, character, target, traits=()) -> None:
    skill = next((t for t in chosen if t.group == "skills"), None)
    attribute = next((t for t in chosen if t.group == "attributes"), None)
    modifiers = kb.form_int(data, "modifiers", 0, -20, 20) or 0
    goal = str(data.get("goal", "") or "").strip()[: reading.MAX_GOAL]
    secret = False
    if kb.from_table(pool):
        # PER-1: bonus dice are granted by the GM and the number to beat is the GM's.
        grant = pool.table.get("bonus_dice")
        bonus = grant["dice"] if isinstance(grant, Mapping) and grant.get("dice") else 0
        shown, secret = kb.table_difficulty(pool)
        difficulty = shown["value"] if shown is not None else None
        pool.options.update(
            from_table=True,
            secret_difficulty=secret,
            bonus_note=(grant.get("note") or "") if bonus else "",
            difficulty_note=(shown.get("note") or "") if shown is not None else "",
        )
    else:
        bonus = kb.form_int(data, "bonus_dice", 0, 0, 10) or 0
        difficulty = kb.form_int(data, "difficulty", target, 1, 50)
    pool.options.update(bonus_dice=bonus, modifiers=modifiers, difficulty=difficulty, goal=goal)
    for _, _, choices in pool.groups:
        for c in choices:
            trait = by_id[c.id]
            if c.group == "skills" and trait.link_id in by_id:
                c.note = f"+ {by_id[trait.link_id].name}"
    if skill is None or attribute is None:
        pool.errors.append("Pick a skill (its dice) and an attribute (added to the best die).")
        return
    # PER-6: the sheet's threshold, or the sheet's default where none is stored yet.
    default = SHEET_TEMPLATE.counter("potential_threshold").default
    threshold = max(1, counters.get("potential_threshold", default))
    actor = {
        "name": character or "Actor",
        **rated(skill, attribute),
        "bonus_dice": bonus,
        "modifiers": modifiers,
        "potential_threshold": threshold,
        "criticals": min(counters.get("criticals", 0), threshold),
    }
    request: dict[str, Any] = {"actor": actor}
    versus = against(pool, data, request)
    if versus:
        pool.notes.append(
            f"Against {versus}: the higher total wins, and a natural 10 of theirs fails "
            "you even on a tie (PER-5)."
        )
    elif difficulty is not None:
        request["difficulty"] = difficulty
    elif secret:
        pool.notes.append(kb.SECRET_DIFFICULTY_NOTE)
    elif kb.from_table(pool):
        pool.errors.append("The GM has not set a difficulty for this scene: ask the GM for one.")
    else:
        pool.errors.append("Give a difficulty to beat (or set the scene's on the dashboard).")
    if goal:
        request["goal"] = goal
    else:
        missing = "State the goal first: what happens if the challenge succeeds."
        pool.errors.append(missing)
        pool.fillable["goal"] = missing
    pool.request = request


def against(pool, data, request: dict[str, Any]) -> str:
    """PER-1, PER-5: the roll is against another character, who resists with a skill of
    their sheet: the request names them (table.target) and the skill, and the table
    reads their dice and attribute. The character's name, or "" when none is picked."""
    others = {o["id"]: o for o in pool.table.get("against") or () if isinstance(o, Mapping)}
    picked = kb.form_ints([data.get("against")])
    other = others.get(picked[0]) if picked else None
    skill = str(data.get("against_skill", "") or "").strip()[:80]
    pool.options.update(
        against_choices=list(others.values()),
        against=other["id"] if other else None,
        against_skill=skill,
    )
    if other is None:
        return ""
    if skill not in other["traits"]:
        pool.errors.append(f"Pick the skill {other['name']} resists with.")
    request["reactor"] = {"skill_name": skill}
    request["table"] = {"target": other["id"]}
    return other["name"]


BUILDER = kb.PoolBuilder(
    roll_action="challenge",
    clickable=("skills", "attributes"),
    fill=fill,
    one_of=("skills", "attributes"),
    link=skill_brings_its_attribute,
)
