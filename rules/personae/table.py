"""Personae at the table: what each action reads from the table and writes back.

A challenge's sides come from the sheets by name (PER-1): the skill's dice and its
attribute, the bank of criticals and the Potential Threshold (PER-4, PER-6); bonus dice are
the GM's grant for the next challenge; the other side is a named character or the GM's
difficulty for the scene (rules.kit.d10_table).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..kit.d10_table import (
    GRANT_PREFIX,
    NAME_THE_OTHER_SIDE,
    NO_DIFFICULTY,
    SetDifficulty,
    bonus_grant,
    player_difficulty,
    scene_difficulty,
)
from ..kit.order import INITIATIVE, OrderRules
from ..kit.table import (
    PC,
    ActionError,
    Points,
    SheetHandle,
    Table,
    TraitHandle,
    Transition,
    int_field,
)


def rated(skill: TraitHandle, attribute: TraitHandle) -> dict[str, Any]:
    """PER-1: a skill (its rating is the number of d10s) and the attribute added to the best
    die, as a challenge's side names them: the one translation of a sheet into a side, used
    by the pool builder and by the roll alike."""
    return {
        "skill": skill.rating or 0,
        "skill_name": skill.name,
        "attribute": attribute.rating or 0,
        "attribute_name": attribute.name,
    }


def fill_per_side(ctx: Table, raw: object, sheet: SheetHandle | None, *, banks: bool) -> object:
    """PER-1: the skill's dice and the attribute come from the sheet, by name."""
    if sheet is None or not isinstance(raw, Mapping):
        return raw
    char = ctx.character(sheet)
    side = {k: v for k, v in raw.items() if k != "bank_limit"}
    side["name"] = sheet.name[:80]
    skill = char.require("skills", side.get("skill_name", ""), "skill")
    attribute_name = side.get("attribute_name") or (skill.link.name if skill.link_id else "")
    attribute = char.require("attributes", attribute_name, "attribute")
    side.update(rated(skill, attribute))
    if banks:
        side.update(bank_fields(ctx, sheet, name=False))
    if not ctx.is_gm:
        side.pop("modifiers", None)  # circumstantial modifiers are the GM's to give
    return side


def apply_criticals(ctx: Table, sheet: SheetHandle | None, outcome: Mapping) -> None:
    """PER-4, PER-6: criticals banked (as many as the rules allowed) and spent."""
    if sheet is None:
        return
    crit = outcome.get("criticals") or {}
    ctx.spend(sheet, "criticals", int_field(crit, "spent"), "criticals")
    ctx.give(sheet, "criticals", int_field(crit, "banked"), "criticals")
    if outcome.get("development_marked"):
        ctx.give(sheet, "development", 1, "development marks")


def grant_of(ctx: Table, sheet: SheetHandle | None) -> tuple[str, dict[str, Any]] | None:
    """The grant a player's character's next challenge takes (None without one or a scene)."""
    if sheet is None or sheet.kind != PC or not ctx.in_scene:
        return None
    return bonus_grant(ctx.data, sheet.pk)


class GrantBonusDice(Transition):
    """PER-1: the GM grants a player's character bonus dice for their next challenge (a new
    grant replaces an unused one; 0 withdraws it). Kept for the scene; a grant in secret
    is veiled from players by the gate (Context.save_state)."""

    gm_only = True
    needs_scene = True
    sheet_required = True

    def prepare(self, ctx: Table) -> None:
        sheet = ctx.sheet
        if sheet.kind != PC:
            raise ActionError(
                f"Bonus dice are granted to players' characters: give {sheet.name} theirs "
                "when you roll for them."
            )
        held = grant_of(ctx, sheet)
        ctx.request["name"] = sheet.name[:80]
        ctx.request["replaces"] = held[1]["dice"] if held else 0

    def apply(self, ctx: Table, outcome: dict[str, Any]) -> None:
        sheet = ctx.sheet
        held = grant_of(ctx, sheet)
        if held is not None:
            ctx.data.pop(held[0])
        dice = int_field(outcome, "bonus_dice")
        if dice:
            key = f"{GRANT_PREFIX}{sheet.name}"
            if key in ctx.data:  # another character of the same name holds one
                key = f"{key} {sheet.pk}"
            ctx.data[key] = {"sheet": sheet.pk, "name": sheet.name, "dice": dice,
                             "note": outcome.get("note"), "seq": ctx.seq}  # fmt: skip
        ctx.note(bonus_dice={"sheet": sheet.pk, "dice": dice})


def take_bonus_dice(ctx: Table, side: object, sheet: SheetHandle | None) -> object:
    """PER-1: a player's character rolls exactly the bonus dice the GM granted (none
    without a grant), whatever the request says; the GM types a GM character's."""
    if not isinstance(side, dict) or sheet is None:
        return side
    if sheet.kind == PC:
        held = grant_of(ctx, sheet)
        side["bonus_dice"] = held[1]["dice"] if held else 0
    elif not ctx.is_gm:
        side["bonus_dice"] = 0
    return side


def use_bonus_dice(ctx: Table, sheet: SheetHandle | None) -> None:
    """The challenge uses the grant up, in its own transaction (a void gives it back)."""
    held = grant_of(ctx, sheet)
    if held is not None:
        ctx.data.pop(held[0])
        ctx.note(bonus_dice_used={"sheet": sheet.pk, "dice": held[1]["dice"]})


REACTOR_NAMES = ("skill_name", "attribute_name")


def fill_opposition(ctx: Table) -> None:
    """PER-1: the other side of a challenge. A reactor named by sheet (table.target) rolls
    the skill named and its attribute from that sheet; for a player that is all the
    request gives of it, and a fixed number is the GM's difficulty for the scene. A
    player's reactor given as numbers is refused. The GM stays free-form."""
    request = ctx.request
    target = ctx.param_int("target")
    if target is not None:
        reactor = ctx.other_sheet(target)
        if ctx.sheet is not None and reactor.pk == ctx.sheet.pk:
            raise ActionError(f"{reactor.name} cannot challenge themself.")
        raw = request.get("reactor")
        raw = dict(raw) if isinstance(raw, Mapping) else {}
        if not ctx.is_gm:
            raw = {key: raw[key] for key in REACTOR_NAMES if key in raw}
            request.pop("difficulty", None)
        if not raw.get("skill_name"):
            raise ActionError(f"Choose the skill {reactor.name} resists with.")
        request["reactor"] = fill_per_side(ctx, raw, reactor, banks=False)
        ctx.params["target"] = reactor.pk
        return
    if not ctx.is_gm:
        if "reactor" in request:
            raise ActionError(NAME_THE_OTHER_SIDE)
        current = player_difficulty(ctx)
        if current is None:
            raise ActionError(NO_DIFFICULTY)
        request["difficulty"] = current["value"]
    elif "reactor" not in request and "difficulty" not in request:
        current, _ = scene_difficulty(ctx)
        if current is not None:
            request["difficulty"] = current["value"]


class Challenge(Transition):
    table_params = ("target",)

    def prepare(self, ctx: Table) -> None:
        actor = fill_per_side(ctx, ctx.request.get("actor"), ctx.sheet, banks=True)
        ctx.request["actor"] = take_bonus_dice(ctx, actor, ctx.sheet)
        fill_opposition(ctx)

    def apply(self, ctx: Table, outcome: dict[str, Any]) -> None:
        apply_criticals(ctx, ctx.sheet, outcome)
        use_bonus_dice(ctx, ctx.sheet)


class ConcertedEffort(Challenge):
    """PER-8: once per scene; contributors named by sheet lend their rating (a player's
    contributors must be so named; the GM may add others)."""

    needs_scene = True

    def prepare(self, ctx: Table) -> None:
        coordinator = fill_per_side(ctx, ctx.request.get("coordinator"), ctx.sheet, banks=True)
        coordinator = take_bonus_dice(ctx, coordinator, ctx.sheet)
        ctx.request["coordinator"] = coordinator
        skill_name = coordinator.get("skill_name") if isinstance(coordinator, Mapping) else None
        contributors = ctx.request.get("contributors")
        if isinstance(contributors, list):
            filled = []
            for raw in contributors:
                if isinstance(raw, Mapping) and raw.get("sheet_id") is not None:
                    entry = {k: v for k, v in raw.items() if k != "sheet_id"}
                    other = ctx.character(ctx.other_sheet(raw["sheet_id"]))
                    skill = other.trait("skills", skill_name or "")
                    entry["name"] = other.name[:80]
                    entry["rating"] = (skill.rating or 0) if skill else 0
                    entry["potential_threshold"] = max(1, other.counter("potential_threshold"))
                    filled.append(entry)
                elif ctx.is_gm:
                    filled.append(raw)
                else:
                    # A player's contributors are characters at the table: their dice and
                    # thresholds come from their sheets, never from the request.
                    name = raw.get("name") if isinstance(raw, Mapping) else None
                    label = " ".join(str(name or "").split())[:40] or "A contributor"
                    raise ActionError(
                        f"{label} is not on the table: name each contributor by their "
                        "character (sheet_id)."
                    )
            ctx.request["contributors"] = filled
        fill_opposition(ctx)
        ctx.request["used_this_scene"] = bool(ctx.data.get("concerted_effort_used"))

    def apply(self, ctx: Table, outcome: dict[str, Any]) -> None:
        super().apply(ctx, outcome)
        ctx.data["concerted_effort_used"] = {"seq": ctx.seq}
        ctx.note(concerted_effort_used=True)


def bank_fields(ctx: Table, sheet: SheetHandle, *, name: bool = True) -> dict[str, Any]:
    """PER-6: the sheet's Potential Threshold and banked criticals. A campaign keeps at
    most the Potential Threshold in the bank (the sheet enforces the same cap), so that
    is the bank limit the rules apply."""
    char = ctx.character(sheet)
    threshold = max(1, char.counter("potential_threshold"))
    fields: dict[str, Any] = {
        "potential_threshold": threshold,
        "criticals": max(0, char.counter("criticals")),
        "bank_limit": threshold,
    }
    if name:
        fields["name"] = sheet.name[:80]
    return fields


class SpendCritical(Transition):
    sheet_required = True

    def prepare(self, ctx: Table) -> None:
        ctx.request.update(bank_fields(ctx, ctx.sheet))

    def apply(self, ctx: Table, outcome: dict[str, Any]) -> None:
        apply_criticals(ctx, ctx.sheet, outcome)


class GiveCritical(Transition):
    table_params = ("target",)
    """PER-6: from the giver's bank to the receiver's (both read from their sheets)."""

    sheet_required = True

    def prepare(self, ctx: Table) -> None:
        target = ctx.param_int("target")
        if target is None:
            raise ActionError("Choose the character who receives the criticals (table.target).")
        receiver = ctx.other_sheet(target)
        ctx.params["target"] = receiver.pk
        ctx.request["giver"] = bank_fields(ctx, ctx.sheet)
        ctx.request["receiver"] = bank_fields(ctx, receiver)

    def apply(self, ctx: Table, outcome: dict[str, Any]) -> None:
        count = int_field(outcome, "given")
        ctx.spend(ctx.sheet, "criticals", count, "criticals")
        ctx.give(ctx.other_sheet(ctx.params["target"]), "criticals", count, "criticals")


TABLE: dict[str, Transition] = {
    "challenge": Challenge(),
    "concerted_effort": ConcertedEffort(),
    "spend_critical": SpendCritical(),
    "give_critical": GiveCritical(),
    "grant_bonus_dice": GrantBonusDice(),
    "set_difficulty": SetDifficulty(),
}

# PER-6: the GM gives criticals, at most the Potential Threshold in the bank.
POINTS = Points(
    counter="criticals", one="critical", many="criticals", cap_counter="potential_threshold"
)

# Initiative by an attribute the GM picks (the sheets name their own attributes).
ORDER = OrderRules(INITIATIVE, rating_group="attributes")
