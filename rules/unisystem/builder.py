"""Unisystem's pool builder: the traits a player clicks, turned into its rules request
(rules.kit.builder runs it; the page and the odds fragment show it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..kit import builder as kb
from . import rolls, sheet
from .ui import BUILDER_KINDS


def fill(pool, chosen, by_id, data, counters, character, target, traits=()) -> None:
    kinds = [k for k, _ in BUILDER_KINDS]
    kind = str(data.get("kind") or "task")
    if kind not in kinds:
        kind = "task"
    attributes = [t for t in chosen if t.group == "attributes"]
    skill = next((t for t in chosen if t.group == "skills"), None)
    if skill is not None and kind in ("simple_test", "difficult_test", "two_attributes"):
        pool.notes.append(f"{skill.name} left the pool: a {kind.replace('_', ' ')} uses no skill.")
        pool.selected = [i for i in pool.selected if i != skill.pk]
        skill = None
    if kind != "two_attributes" and len(attributes) > 1:
        attributes = attributes[-1:]
    modifier = kb.form_int(data, "modifier", 0, -50, 50) or 0
    preset_value = None
    if kb.from_table(pool):
        # UNI-4: the task's difficulty is the one the GM set for the scene.
        shown, secret = kb.table_difficulty(pool)
        difficulty = str(shown.get("preset") or "") if shown is not None else ""
        preset = rolls.DIFFICULTIES.get(difficulty)
        if preset is not None:
            preset_value = shown["value"]
        label = ""
        if preset is not None:
            shown_value = f"+{preset_value}" if preset_value > 0 else rolls.signed(preset_value)
            label = f"{preset.label} ({shown_value})"
        pool.options.update(
            from_table=True,
            secret_difficulty=secret,
            difficulty_label=label,
            difficulty_note=(shown.get("note") or "") if shown is not None else "",
        )
        if secret:
            pool.notes.append(kb.SECRET_DIFFICULTY_NOTE)
    else:
        difficulty = str(data.get("difficulty") or "")
        preset = rolls.DIFFICULTIES.get(difficulty)
    pool.options.update(kind=kind, difficulty=difficulty if preset else "", modifier=modifier)
    for _, _, choices in pool.groups:
        for c in choices:
            c.selected = c.id in pool.selected
            if c.group == "skills" and kind != "task":
                c.disabled = True
                c.note = "tasks only"
    if not attributes:
        pool.errors.append("Pick an attribute.")
        return
    if kind == "two_attributes" and len(attributes) < 2:
        pool.errors.append("Pick a second attribute.")
        return
    first = attributes[0]
    request: dict[str, Any] = {
        "name": character[:60],
        "kind": kind,
        "attribute": first.rating or 1,
        "attribute_name": first.name if first.name in sheet.ATTRIBUTES else None,
    }
    if request["attribute_name"] is None:
        del request["attribute_name"]
    if kind == "task":
        request["skill"] = skill.rating if skill is not None and skill.rating else 0
        if skill is not None:
            request["skill_name"] = skill.name[:60]
        else:
            pool.notes.append("No skill: an unskilled task (skill 0).")
    if kind == "two_attributes":
        second = attributes[1]
        request["second_attribute"] = second.rating or 1
        if second.name in sheet.ATTRIBUTES:
            request["second_attribute_name"] = second.name
    if preset is not None:
        request["difficulty"] = difficulty
        if preset_value is not None:
            request["difficulty_modifier"] = preset_value
    if modifier:
        request["modifier"] = modifier
    named = [
        {"name": t.name[:60], "value": t.rating or 0}
        for t in chosen
        if t.group in ("qualities", "drawbacks") and t.rating
    ]
    if named:
        request["modifiers"] = named
    kb.check(pool, request, lambda r: rolls.parse_modifiers(r))


def one_attribute_unless_two(data: Mapping) -> tuple[str, ...]:
    """UNI-2: one attribute per roll, except the roll of two attributes."""
    return () if str(data.get("kind", "task")) == "two_attributes" else ("attributes",)


BUILDER = kb.PoolBuilder(
    roll_action="task",
    clickable=("attributes", "skills", "qualities", "drawbacks"),
    fill=fill,
    one_of=("skills",),
    at_most={"attributes": 2},
    one_of_when=one_attribute_unless_two,
)
