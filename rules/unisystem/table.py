"""Unisystem at the table: what each action reads from the table and writes back.

Every roller's attributes, skill and Qualities/Drawbacks take the sheet's ratings (UNI-1);
a player's task takes the GM's difficulty for the scene (UNI-4, rules.kit.d10_table);
trackers for lengthy tasks and chases are kept for the scene (UNI-11, UNI-13).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..kit.d10_table import (
    NAME_THE_HELPERS,
    NAME_THE_OTHER_SIDE,
    SetDifficulty,
    player_difficulty,
)
from ..kit.order import INITIATIVE, OrderRules
from ..kit.table import (
    NPC,
    ActionError,
    CharacterView,
    Points,
    SheetHandle,
    Table,
    Transition,
)
from .scores import SCORES


class SetUniDifficulty(SetDifficulty):
    """UNI-4: the scene keeps the preset and its label beside the modifier."""

    def record(self, outcome: dict[str, Any]) -> dict[str, Any]:
        return {
            "value": outcome["modifier"],
            "preset": outcome["difficulty"],
            "label": outcome["label"],
        }


# UNI-4: the difficulty of the task at hand is the GM's (set for the scene); and another
# character's numbers in a player's request are the GM's too.
# UNI-4: "the GM may type any integer": a free modifier is the GM's, like the difficulty.
UNI_DIFFICULTY_FIELDS = ("difficulty", "difficulty_modifier", "modifier")
UNI_OTHER_ROLLER_FIELDS = (*UNI_DIFFICULTY_FIELDS, "unskilled_penalty")


def fill_uni_spec(
    ctx: Table, raw: object, sheet: SheetHandle | None, *, unnamed: str = NAME_THE_OTHER_SIDE
) -> object:
    """UNI-1: attributes, skill and named Qualities/Drawbacks take the sheet's ratings.

    `sheet` is the roller's own character (a task, an attacker, a leader), or None for a
    roller the request names by `sheet_id`. In a player's request every roller is a
    character: one given as raw ratings is refused with `unnamed`; the player's own roll
    is their character's whatever `sheet_id` says; another character rolls with no
    modifier or difficulty from the player; no roll keeps the player's preset (UNI-4:
    the task's difficulty comes from the table, see uni_difficulty). The GM stays free-form.
    """
    if not isinstance(raw, Mapping):
        return raw
    spec = dict(raw)
    if "score_of" in spec:
        return fixed_score(ctx, spec.get("sheet_id"), spec.get("score_of"))
    sheet_id = spec.pop("sheet_id", None)
    if sheet_id is not None and (ctx.is_gm or sheet is None):
        sheet = ctx.other_sheet(sheet_id)
    if sheet is None:
        if ctx.is_gm:
            return spec
        raise ActionError(unnamed)
    if "score" in spec:
        if ctx.is_gm:
            return spec
        raise ActionError(
            f"{sheet.name} rolls with the sheet's ratings: a fixed Ability Score (UNI-8) is "
            "for the GM's Guest Stars and Adversaries."
        )
    char = ctx.character(sheet)
    if ctx.is_gm:
        spec.setdefault("name", sheet.name[:60])
    else:
        spec["name"] = sheet.name[:60]
        theirs = ctx.sheet is None or sheet.pk != ctx.sheet.pk
        for key in UNI_OTHER_ROLLER_FIELDS if theirs else UNI_DIFFICULTY_FIELDS:
            spec.pop(key, None)
    for key in ("attribute", "second_attribute"):
        name_key = f"{key}_name"
        if key == "second_attribute" and spec.get("kind") != "two_attributes":
            continue
        if not spec.get(name_key):
            which = "the second attribute" if key == "second_attribute" else "the attribute"
            raise ActionError(f"Tick {which} {sheet.name} rolls with.")
        trait = char.require("attributes", spec[name_key], "attribute")
        spec[key], spec[name_key] = trait.rating or 0, trait.name
    if spec.get("kind", "task") == "task":
        if spec.get("skill_name"):
            skill = char.require("skills", spec["skill_name"], "skill")
            spec["skill"], spec["skill_name"] = skill.rating or 0, skill.name[:60]
        else:
            spec["skill"] = 0
    named = spec.get("modifiers")
    if isinstance(named, list):
        spec["modifiers"] = [uni_named_modifier(ctx, char, entry) for entry in named]
    return spec


def fixed_score(ctx: Table, sheet_id: object, key: object) -> dict[str, Any]:
    """UNI-5, UNI-8: a Guest Star's or Adversary's fixed Ability Score, named by its sheet
    and the score's key, stands in for its roll: the number is the one its sheet shows
    (computed from its traits, or the GM's override), whatever the client sent. A sheet
    the actor may not see is refused as a missing one."""
    sheet = ctx.other_sheet(sheet_id)
    if sheet.kind != NPC or sheet.npc_kind not in SCORES.npc_kinds:
        raise ActionError(
            f"{sheet.name} has no fixed Ability Scores: only Guest Stars and Adversaries do."
        )
    scores = SCORES.compute(ctx.character(sheet).traits, sheet.overrides)
    score = scores.by_key().get(str(key))
    if score is None or score.value is None:
        raise ActionError(f"{sheet.name} has no {str(key)[:20].title()} score to use.")
    return {"name": sheet.name[:60], "score": score.value, "score_name": score.name}


def uni_difficulty(ctx: Table, spec: object, current: Mapping[str, Any] | None) -> object:
    """UNI-4: a player's roll of the task at hand takes the difficulty the GM set for the
    scene (`current`, from player_difficulty), or none."""
    if isinstance(spec, dict) and current is not None and not ctx.is_gm:
        spec["difficulty"], spec["difficulty_modifier"] = current["preset"], current["value"]
    return spec


def uni_named_modifier(ctx: Table, char: CharacterView, entry: object) -> object:
    """UNI-1, UNI-4: a named modifier is one of the sheet's Qualities or Drawbacks, at the
    sheet's rating whatever value the client sent. A player names no other; the GM may
    name any (a situation, a spell)."""
    if not isinstance(entry, Mapping):
        return entry
    name = entry.get("name")
    trait = char.trait("qualities", name) or char.trait("drawbacks", name)
    if trait is not None:
        return {**entry, "name": trait.name[:60], "value": trait.rating or 0}
    if ctx.is_gm:
        return entry
    label = " ".join(str(name or "").split())[:40] or "That modifier"
    raise ActionError(
        f"{label} is not on the table: it is none of {char.name}'s Qualities or Drawbacks."
    )


CHOOSE_CHARACTER = "Choose the character this is for."


def uni_attribute(ctx: Table, name: str) -> int:
    return ctx.character().require("attributes", name, "attribute").rating or 0


class UniTask(Transition):
    def prepare(self, ctx: Table) -> None:
        filled = fill_uni_spec(ctx, ctx.request, ctx.sheet)
        if not ctx.is_gm:
            uni_difficulty(ctx, filled, player_difficulty(ctx))
        ctx.request.clear()
        ctx.request.update(filled)


NO_SUCH_ROLL = "That roll is not one to resist: name a task or test on the table."


def resisted_roll(ctx: Table, seq: int) -> dict[str, Any]:
    """UNI-5: the acting side of a resisted action is a task or test already on the table
    (its card's total): one hidden from the actor, voided or missing is refused alike, and
    a character does not resist their own roll."""
    event = next(iter(ctx.logged("task", seq=seq)), None)
    total = event.outcome.get("total") if event is not None else None
    if event is None or not isinstance(total, int):
        raise ActionError(NO_SUCH_ROLL)
    if ctx.sheet is not None and event.character_id == ctx.sheet.pk:
        raise ActionError(f"{ctx.sheet.name} cannot resist their own roll.")
    name = str(event.outcome.get("name") or "The acting side")[:60]
    return {"name": name, "total": total, "rolled_on": event.seq}


class UniResisted(Transition):
    table_params = ("target", "roll")
    """UNI-5: a player's defender is a character, named by `sheet_id` or table.target;
    resisting a roll on the table (table.roll), the acting side is that roll's total and
    the resister (the acting sheet) rolls as the defender."""

    def prepare(self, ctx: Table) -> None:
        for key in ("attacker", "defender"):
            side = ctx.request.get(key)
            if isinstance(side, Mapping) and "rolled_on" in side:
                raise ActionError("A roll already made is named by its card, not by its total.")
        seq = ctx.param_int("roll")
        if seq is not None:
            if ctx.sheet is None:
                raise ActionError("Choose the character who resists.")
            ctx.request["attacker"] = resisted_roll(ctx, seq)
            ctx.request["defender"] = fill_uni_spec(ctx, ctx.request.get("defender"), ctx.sheet)
            ctx.request.pop("even_contest", None)
            return
        ctx.request["attacker"] = fill_uni_spec(ctx, ctx.request.get("attacker"), ctx.sheet)
        defender = ctx.request.get("defender")
        target = ctx.param_int("target")
        if target is not None and defender is None:
            defender = {}
        if target is not None and isinstance(defender, Mapping) and "sheet_id" not in defender:
            defender = {**defender, "sheet_id": target}
        ctx.request["defender"] = fill_uni_spec(ctx, defender, None)


class UniAttributes(Transition):
    """Fear Test, movement, jump: single attributes straight from the sheet."""

    fields = {
        "fear_test": ("willpower",),
        "movement": ("dexterity", "constitution"),
        "jump": ("strength",),
    }

    def prepare(self, ctx: Table) -> None:
        if ctx.sheet is None:
            if not ctx.is_gm:  # a player acts as a character, whose sheet gives these
                raise ActionError(CHOOSE_CHARACTER)
            return
        for key in self.fields.get(ctx.action.name, ()):
            ctx.request[key] = uni_attribute(ctx, key.title())
        if ctx.action.name == "fear_test":
            ctx.request.setdefault("name", ctx.sheet.name[:60])
            if not ctx.is_gm:  # UNI-12: its fear modifiers are its difficulty
                for key in UNI_DIFFICULTY_FIELDS:
                    ctx.request.pop(key, None)
        if "acrobatics" in ctx.request:
            ctx.request["acrobatics"] = fill_uni_spec(ctx, ctx.request["acrobatics"], ctx.sheet)


class UniLifePoints(Transition):
    table_params = ("target",)
    """UNI-9: damage and healing change the target's Life Points."""

    def authorize(self, ctx: Table) -> None:
        target = ctx.param_int("target")
        if target is not None:
            ctx.sheet = ctx.other_sheet(target)
        super().authorize(ctx)

    def prepare(self, ctx: Table) -> None:
        if ctx.sheet is None:
            if ctx.action.name == "heal":
                raise ActionError("Choose the character being healed.")
            if not ctx.is_gm:
                raise ActionError(CHOOSE_CHARACTER)
            return
        char = ctx.character()
        ctx.request["life_points"] = char.counter("life_points")
        if ctx.action.name == "heal":
            maximum = char.counter("max_life_points")
            if maximum > 0:
                ctx.request["max_life_points"] = maximum
            else:
                ctx.request.pop("max_life_points", None)

    def apply(self, ctx: Table, outcome: dict[str, Any]) -> None:
        if ctx.sheet is not None and isinstance(outcome.get("life_points"), int):
            ctx.set_counter(ctx.sheet, "life_points", outcome["life_points"])


def tracker(ctx: Table, kind: str, name: str) -> dict[str, Any] | None:
    return ctx.data.get("trackers", {}).get(kind, {}).get(name)


def save_tracker(ctx: Table, kind: str, name: str, value: dict[str, Any]) -> None:
    ctx.data.setdefault("trackers", {}).setdefault(kind, {})[name] = {**value, "seq": ctx.seq}
    ctx.note(tracker=kind, name=name, **{k: v for k, v in value.items() if k != "seq"})


def total_from(ctx: Table, key: str) -> None:
    """A roll already in the log gives its total: table.from_seq instead of a typed number."""
    seq = ctx.param_int("from_seq")
    if seq is None:
        return
    event = ctx.referenced_event(seq)
    if event is None or not isinstance(event.outcome.get("total"), int):
        raise ActionError("That event is not a roll with a total in this campaign's log.")
    ctx.request.pop("success_levels", None)
    ctx.request[key] = event.outcome["total"]


class LengthyTask(Transition):
    table_params = ("task", "from_seq")
    """UNI-11: a tracker per named task, kept for the scene."""

    needs_scene = True
    public_only = True

    def prepare(self, ctx: Table) -> None:
        name = ctx.param_str("task") or "Lengthy task"
        ctx.params["task"] = name
        current = tracker(ctx, "lengthy", name)
        if current is not None and not current.get("complete"):
            ctx.request["required_levels"] = current["required_levels"]
            ctx.request["accumulated"] = current["accumulated"]
            ctx.request["rolls_made"] = current["rolls_made"]
        else:
            ctx.request["accumulated"] = 0
            ctx.request["rolls_made"] = 0
        total_from(ctx, "total")

    def apply(self, ctx: Table, outcome: dict[str, Any]) -> None:
        save_tracker(
            ctx,
            "lengthy",
            ctx.params["task"],
            {
                "required_levels": outcome.get("required_levels"),
                "accumulated": outcome.get("accumulated"),
                "rolls_made": outcome.get("rolls_made"),
                "complete": bool(outcome.get("complete")),
            },
        )


class WorkingTogether(Transition):
    table_params = ("task",)
    """UNI-10: rollers named by sheet take their ratings; a long task can feed a tracker."""

    def prepare(self, ctx: Table) -> None:
        # UNI-4, UNI-10: one task, so every roller takes its difficulty.
        difficulty = None if ctx.is_gm else player_difficulty(ctx)
        for key in ("participants", "helpers"):
            if isinstance(ctx.request.get(key), list):
                ctx.request[key] = [
                    uni_difficulty(
                        ctx, fill_uni_spec(ctx, s, None, unnamed=NAME_THE_HELPERS), difficulty
                    )
                    for s in ctx.request[key]
                ]
        if "leader" in ctx.request:
            leader = fill_uni_spec(ctx, ctx.request["leader"], ctx.sheet)
            ctx.request["leader"] = uni_difficulty(ctx, leader, difficulty)
        name = ctx.param_str("task")
        if name and ctx.request.get("mode") == "long":
            current = tracker(ctx, "lengthy", name)
            if current is not None and not current.get("complete"):
                ctx.request["required_levels"] = current["required_levels"]
                ctx.request["levels_so_far"] = current["accumulated"]
            else:
                ctx.request["levels_so_far"] = 0
            ctx.params["task"] = name

    def apply(self, ctx: Table, outcome: dict[str, Any]) -> None:
        progress = outcome.get("progress")
        name = ctx.params.get("task")
        if name and isinstance(progress, Mapping) and ctx.in_scene:
            current = tracker(ctx, "lengthy", name) or {}
            save_tracker(
                ctx,
                "lengthy",
                name,
                {
                    "required_levels": progress.get("required_levels"),
                    "accumulated": progress.get("accumulated"),
                    "rolls_made": int(current.get("rolls_made", 0)) + 1,
                    "complete": bool(progress.get("complete")),
                },
            )


class Chase(Transition):
    table_params = ("chase",)
    """UNI-13: the lead is kept per named chase; caught or escaped ends it."""

    needs_scene = True
    public_only = True

    def prepare(self, ctx: Table) -> None:
        name = ctx.param_str("chase") or "Chase"
        ctx.params["chase"] = name
        current = tracker(ctx, "chase", name)
        if current is not None and current.get("status") == "running":
            ctx.request["lead"] = current["lead"]
            ctx.request["turn"] = current["turn"]
        else:
            ctx.request["turn"] = 0
        # The runner is the acting character (the form's "Your roll"); the chaser is named.
        ctx.request["runner"] = fill_uni_spec(ctx, ctx.request.get("runner"), ctx.sheet)
        ctx.request["chaser"] = fill_uni_spec(ctx, ctx.request.get("chaser"), None)

    def apply(self, ctx: Table, outcome: dict[str, Any]) -> None:
        save_tracker(
            ctx,
            "chase",
            ctx.params["chase"],
            {
                "lead": outcome.get("lead"),
                "turn": outcome.get("turn"),
                "status": outcome.get("status"),
            },  # fmt: skip
        )


ATTRIBUTES = UniAttributes()
LIFE_POINTS = UniLifePoints()

TABLE: dict[str, Transition] = {
    "task": UniTask(),
    "resisted": UniResisted(),
    "fear_test": ATTRIBUTES,
    "movement": ATTRIBUTES,
    "jump": ATTRIBUTES,
    "damage": LIFE_POINTS,
    "heal": LIFE_POINTS,
    "lengthy_task": LengthyTask(),
    "working_together": WorkingTogether(),
    "chase": Chase(),
    "set_difficulty": SetUniDifficulty(),
}

# The sheet's Drama Points (the game's plot points) are what the GM gives.
POINTS = Points(counter="drama_points", one="Drama Point", many="Drama Points")

# Dexterity first: the GM may order by another attribute.
ATTRIBUTES_FOR_ORDER = (
    "Dexterity",
    "Perception",
    "Intelligence",
    "Willpower",
    "Strength",
    "Constitution",
)
# Initiative by Dexterity (or another attribute the GM picks); UNI-12's Startled loses it for a Turn.
ORDER = OrderRules(INITIATIVE, rating_group="attributes", ratings=ATTRIBUTES_FOR_ORDER)
