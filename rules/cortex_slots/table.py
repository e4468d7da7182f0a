"""Cortex with Total and Effect slots at the table: what each action reads and writes.

A roll's pool comes from the table (CTX-1, with `rules.kit.cortex_table.fill_pool`), and
the roll is kept in the scene so the player can re-split it (CTX-2), move a die from the
Bank (CTX-3) or have a hitch bought (CTX-4); the GM's pool sets the difficulty; plot
points buy scene changes and Assets (CTX-7); advances raise traits (CTX-9).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..kit.cortex_table import PoolRules, fill_pool
from ..kit.costs import Cost, CostItem, require_payable
from ..kit.order import POPCORN, OrderRules
from ..kit.table import (
    MAX_KEPT_ROLLS,
    PC,
    PUBLIC,
    ActionError,
    SheetHandle,
    Table,
    Transition,
    int_field,
    not_on_table,
)


class SlotsPool(PoolRules):
    """CTX-1: one Attribute, one Distinction, Skills, Assets and Talents from the sheet."""

    own_groups = ("attributes", "distinctions", "skills", "assets", "talents")

    def cost(self, request: Mapping, *, gm: bool) -> Cost:
        """CTX-6: the Big Hero Die costs 1 plot point to add."""
        hero = request.get("big_hero")
        if not isinstance(hero, Mapping):
            return Cost()
        what = f"{hero.get('trait') or 'the Big Hero Die'} {hero.get('die') or ''}".strip()
        return Cost(items=(CostItem(what, 1, "the Big Hero Die, CTX-6"),))


POOL = SlotsPool()


def keep_roll(ctx: Table, sheet: SheetHandle | None, dice: list, **extra: Any) -> None:
    if not ctx.in_scene:
        return
    rolls = ctx.data.setdefault("rolls", {})
    rolls[str(ctx.seq)] = {"seq": ctx.seq, "sheet": sheet.pk if sheet else None, "dice": dice,
                           **extra}  # fmt: skip
    for key in sorted(rolls, key=int)[:-MAX_KEPT_ROLLS]:
        rolls.pop(key)
    ctx.touch()


# The same words for a roll that is hidden from the actor and one that does not exist.
NO_SUCH_ROLL = "That roll is not one of this scene's recent rolls."


def kept_roll(ctx: Table, *, sheet: SheetHandle | None = None) -> dict[str, Any]:
    """The kept roll the request names (table.roll) or the latest one, among the rolls
    the actor may see: a secret or blind roll is as unknown to players as a missing one."""
    rolls = ctx.data.get("rolls", {})
    seen = ctx.seen_data.get("rolls") or {}
    wanted = ctx.param_int("roll")
    if wanted is not None:
        if str(wanted) not in seen or str(wanted) not in rolls:
            raise ActionError(NO_SUCH_ROLL)
        return rolls[str(wanted)]
    candidates = [
        rolls[key]
        for key, record in seen.items()
        if key in rolls and (sheet is None or record.get("sheet") == sheet.pk)
    ]
    if not candidates:
        raise ActionError("There is no roll in this scene to do that with.")
    return max(candidates, key=lambda r: r["seq"])


class CtxRoll(Transition):
    def prepare(self, ctx: Table) -> None:
        request = ctx.request
        sheet = ctx.sheet
        if sheet is not None:
            request["pool"] = fill_pool(ctx, request.get("pool"), sheet, POOL)
            request["roller_kind"] = "pc" if sheet.kind == PC else (sheet.npc_kind or "plot")
            if request["roller_kind"] not in ("pc", "boss", "plot", "mob"):
                request["roller_kind"] = "plot"
            if request.get("big_hero"):
                hero = next((t for t in ctx.character().group("big_hero") if t.die), None)
                if hero is None:
                    raise ActionError(f"{sheet.name} has no Big Hero Die.")
                request["big_hero"] = {"die": hero.die_label, "trait": hero.name}
                request["plot_points"] = ctx.character().counter("plot_points")
            else:
                request.pop("big_hero", None)
        if not ctx.is_gm:
            request.pop("difficulty_pool", None)
            request.pop("difficulty_kind", None)
            current = ctx.data.get("difficulty") if ctx.in_scene else None
            seen = ctx.seen_data.get("difficulty") if ctx.in_scene else None
            current = current if isinstance(current, dict) else {}
            if current and current != seen:
                # Set behind the screen: the roll is not scored against it on the card
                # everyone sees; the GM's card compares it (params are the GM's only).
                request["difficulty"], request["difficulty_botch"] = None, False
                ctx.params["secret_difficulty"] = {
                    "value": current.get("value"),
                    "botch": bool(current.get("botch")),
                    "seq": current.get("seq"),
                }
            else:
                request["difficulty"] = current.get("value")
                request["difficulty_botch"] = bool(current.get("botch"))

    def precheck(self, ctx: Table) -> None:
        require_payable(ctx, ctx.sheet, POOL.cost(ctx.request, gm=ctx.is_gm))

    def apply(self, ctx: Table, outcome: dict[str, Any]) -> None:
        for spend in outcome.get("spends") or []:
            ctx.spend(ctx.sheet, "plot_points", int_field(spend, "cost", 1), "plot points")
        keep_roll(
            ctx,
            ctx.sheet,
            outcome.get("dice", []),
            difficulty=outcome.get("difficulty"),
            difficulty_botch=bool(outcome.get("difficulty_botch")),
            roller_kind=outcome.get("roller_kind"),
        )


class GmPool(Transition):
    gm_only = True

    def prepare(self, ctx: Table) -> None:
        if ctx.sheet is not None and ctx.sheet.npc_kind in ("boss", "plot", "mob"):
            ctx.request["roller_kind"] = ctx.sheet.npc_kind

    def apply(self, ctx: Table, outcome: dict[str, Any]) -> None:
        if not ctx.in_scene:
            return
        keep_roll(
            ctx, None, outcome.get("dice", []), gm=True, roller_kind=outcome.get("roller_kind")
        )
        ctx.data["difficulty"] = {
            "value": outcome.get("result"),
            "botch": bool(outcome.get("botch")),
            "seq": ctx.seq,
        }
        if ctx.visibility != PUBLIC:
            # Players see that a difficulty is set, not the older one it replaced.
            ctx.veil_as.append((["difficulty"], {"secret": True}))
        ctx.note(difficulty=outcome.get("result"))


class KeptRollMove(Transition):
    table_params = ("roll",)
    """CTX-2 and CTX-3 after the roll: the character's kept roll (its dice, its difficulty)
    comes from the scene, and the new dice go back there."""

    needs_scene = True
    spends = 0

    def authorize(self, ctx: Table) -> None:
        pass

    def prepare(self, ctx: Table) -> None:
        record = kept_roll(ctx, sheet=ctx.sheet)
        if record.get("gm"):
            raise ActionError("That is for a character's own roll.")
        sheet = ctx.other_sheet(record["sheet"]) if record.get("sheet") else None
        ctx.require_control(sheet)
        ctx.sheet = sheet
        ctx.params["roll"] = record["seq"]
        ctx.request["dice"] = record["dice"]
        ctx.request["difficulty"] = record.get("difficulty")
        ctx.request["difficulty_botch"] = bool(record.get("difficulty_botch"))
        if self.spends:
            ctx.request["plot_points"] = ctx.character(sheet).counter("plot_points") if sheet else 0

    def apply(self, ctx: Table, outcome: dict[str, Any]) -> None:
        ctx.spend(ctx.sheet, "plot_points", self.spends, "plot points")
        ctx.data["rolls"][str(ctx.params["roll"])]["dice"] = outcome["dice"]
        ctx.touch()


class BankMove(KeptRollMove):
    """CTX-3: a banked die joins a slot for 1 plot point."""

    spends = 1


class Resplit(KeptRollMove):
    """CTX-2: the player changes the split of their kept roll."""


class BuyHitch(Transition):
    table_params = ("roll",)
    """CTX-4: the GM buys a player's hitch (+1 plot point to them); players buy the GM's."""

    needs_scene = True

    def authorize(self, ctx: Table) -> None:
        pass

    def prepare(self, ctx: Table) -> None:
        record = kept_roll(ctx)
        ctx.params["roll"] = record["seq"]
        players_roll = record.get("roller_kind") == "pc" and not record.get("gm")
        ctx.request["scene"] = str(ctx.scene_id)
        ctx.request["dice"] = record["dice"]
        if players_roll:
            ctx.require_gm("buy a player's hitch")
            ctx.request["buyer"] = "gm"
            ctx.sheet = ctx.other_sheet(record["sheet"])
        else:
            ctx.request["buyer"] = "players"
            if ctx.sheet is None:
                raise ActionError("Choose the character who buys the GM's hitch.")
            ctx.require_control(ctx.sheet)
        ctx.request["plot_points"] = ctx.character().counter("plot_points")

    def apply(self, ctx: Table, outcome: dict[str, Any]) -> None:
        if outcome.get("buyer") == "gm":
            ctx.give(ctx.sheet, "plot_points", 1, "plot points")
        else:
            ctx.spend(ctx.sheet, "plot_points", 1, "plot points")
        ctx.data["rolls"][str(ctx.params["roll"])]["dice"] = outcome["dice"]
        held = {**(outcome.get("held") or {}), "seq": ctx.seq, "sheet": ctx.sheet.pk}
        ctx.data.setdefault("held_hitches", []).append(held)
        ctx.note(held_hitch=held.get("die"), use=held.get("use"))


class SpendPlotPoint(Transition):
    """CTX-7: one plot point for a scene change, an Opportunity, an asset, ..."""

    sheet_required = True

    def prepare(self, ctx: Table) -> None:
        kind = ctx.request.get("kind")
        if kind == "bank_die":
            raise ActionError("Use “Move a die from the Bank”: it charges the plot point.")
        if kind == "big_hero_die":
            raise ActionError("Add the Big Hero Die to the roll itself: the roll charges it.")
        if kind in ("scene_asset", "activate_asset") and not ctx.in_scene:
            raise ActionError("Start a scene first: assets are kept for the scene.")
        if kind == "activate_asset" and not ctx.is_gm:
            # CTX-7: a player activates one of the character's own Assets, at its die.
            name = ctx.request.get("asset")
            trait = ctx.character().trait("assets", name)
            if trait is None or not trait.die:
                raise not_on_table({"trait": name, "die": ctx.request.get("die")})
            ctx.request["asset"], ctx.request["die"] = trait.name, trait.die_label
        if kind == "step_up_asset":
            name = ctx.request.get("asset")
            trait = ctx.character().trait("assets", name)
            seen = ctx.seen_data.get("assets", {}) if ctx.in_scene else {}
            scene_asset = (
                ctx.data["assets"].get(name) if isinstance(name, str) and name in seen else None
            )
            if trait is not None and trait.die:
                ctx.request["die"] = trait.die_label
            elif scene_asset:
                ctx.request["die"] = scene_asset["die"]
            else:
                raise ActionError(f"{ctx.sheet.name} has no asset called “{str(name)[:40]}”.")
        ctx.request["plot_points"] = ctx.character().counter("plot_points")

    def apply(self, ctx: Table, outcome: dict[str, Any]) -> None:
        ctx.spend(ctx.sheet, "plot_points", int_field(outcome, "cost", 1), "plot points")
        kind = outcome.get("kind")
        asset = outcome.get("asset")
        if kind in ("scene_asset", "activate_asset"):
            ctx.data.setdefault("assets", {})[asset] = {
                "die": outcome.get("die"),
                "sheet": ctx.sheet.pk,
                "seq": ctx.seq,
            }
            ctx.note(asset=asset, die=outcome.get("die"))
        elif kind == "step_up_asset":
            if ctx.character().trait("assets", asset) is not None:
                ctx.set_die(ctx.sheet, "assets", asset, outcome.get("stepped_to"))
            else:
                ctx.data["assets"][asset]["die"] = outcome.get("stepped_to")
                ctx.note(asset=asset, die=outcome.get("stepped_to"))
        elif kind == "opportunity" and ctx.in_scene:
            ctx.data.setdefault("opportunities", []).append(
                {
                    "target": outcome.get("target"),
                    "die": outcome.get("die"),
                    "to": outcome.get("stepped_to"),
                    "sheet": ctx.sheet.pk,
                    "seq": ctx.seq,
                }  # fmt: skip
            )
            ctx.note(opportunity=outcome.get("target"))


class Advance(Transition):
    """CTX-9: the GM's session award; raising a trait one step for its cost."""

    sheet_required = True

    def authorize(self, ctx: Table) -> None:
        super().authorize(ctx)
        if ctx.request.get("operation") == "award":
            ctx.require_gm("award advance points")

    def prepare(self, ctx: Table) -> None:
        char = ctx.character()
        ctx.request["advance_points"] = char.counter("advance_points")
        if ctx.request.get("operation") == "award":
            ctx.request["milestones"] = char.counter("milestones")
            return
        group = ctx.request.get("group")
        if group not in ("attributes", "distinctions", "skills", "talents", "assets"):
            return  # the rules name the allowed groups
        trait = char.require(group, ctx.request.get("trait", ""), group[:-1])
        ctx.request["trait"] = trait.name
        ctx.request["from"] = trait.die_label
        ctx.request["signature"] = bool((trait.flags or {}).get("signature"))

    def apply(self, ctx: Table, outcome: dict[str, Any]) -> None:
        if outcome.get("operation") == "award":
            ctx.give(ctx.sheet, "advance_points", int_field(outcome, "earned"), "advance points")
            gained = int_field(outcome, "milestones") - ctx.character().counter("milestones")
            ctx.give(ctx.sheet, "milestones", gained, "milestone points")
            return
        ctx.spend(ctx.sheet, "advance_points", int_field(outcome, "cost"), "advance points")
        ctx.set_die(ctx.sheet, outcome["group"], outcome["trait"], outcome["to"])


TABLE: dict[str, Transition] = {
    "roll": CtxRoll(),
    "gm_pool": GmPool(),
    "bank_move": BankMove(),
    "resplit": Resplit(),
    "buy_hitch": BuyHitch(),
    "spend_plot_point": SpendPlotPoint(),
    "advance": Advance(),
}

# Popcorn: whoever acts hands the spotlight on.
ORDER = OrderRules(POPCORN)
