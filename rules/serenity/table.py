"""Serenity Plus at the table: what each action reads from the table and writes back.

Rolls, tests, contests and stress are the Cortex Plus transitions (rules.kit.cortex_table)
over Serenity's sheet groups; complications, benefits and the Awareness pool are its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..kit.cortex_table import CortexPlusRules, contest_transitions, fill_pool
from ..kit.order import POPCORN, OrderRules
from ..kit.table import (
    MAX_KEPT_ROLLS,
    PUBLIC,
    ActionError,
    LoggedEvent,
    SheetHandle,
    Table,
    TableView,
    Transition,
    held_in,
    not_on_table,
    table_asset,
)

NEW_ASSET_DIE = "d6"
NO_SUCH_TEST = "That is not a test with an extraordinary success that is still to be claimed."


class SerenityRules(CortexPlusRules):
    """SER-1: a pool takes the roller's Stylin', Refinements, Value, Aspects, Resources and
    Assets, and the other side's complications and stress, each named by its holder."""

    own_groups = ("stylins", "refinements", "values", "aspects", "resources", "assets")
    other_side_groups = ("complications", "stress")
    parent_groups = ("refinements",)
    gm_flag = "gm"

    def after_stress(self, ctx: Table, winner: SheetHandle | None, outcome: Mapping) -> None:
        apply_benefit(ctx, winner, outcome.get("benefit"))


RULES = SerenityRules()


def apply_benefit(ctx: Table, winner: SheetHandle | None, benefit: object) -> None:
    """SER-10: the chosen benefit lands where its die lives (the winner's sheet, or the
    scene's or session's Asset used in the roll)."""
    if not isinstance(benefit, Mapping) or winner is None:
        return
    key, trait = benefit.get("benefit"), benefit.get("trait")
    group = {
        "step_up_asset": "assets",
        "remove_complication": "complications",
        "step_down_complication": "complications",
        "step_down_stress": "stress",
    }.get(key)
    held = ctx.character(winner).trait(group, trait) if group and trait else None
    if held is not None:
        ctx.set_die(winner, group, held.name, benefit.get("to"))
    elif key == "step_up_asset" and trait and benefit.get("to"):
        shared = table_asset(ctx, trait)
        if shared is not None:
            name, record, scope = shared
            record["die"] = benefit["to"]
            if scope == "scene":
                ctx.note(asset=name, die=benefit["to"])
            else:
                ctx.note_session(session_asset=name, die=benefit["to"])
    elif key == "promote_asset" and trait:
        promote_asset(ctx, winner, str(trait))


def promote_asset(ctx: Table, winner: SheetHandle, name: str) -> None:
    """SER-10: a scene Asset becomes a session Asset. It leaves the scene's state for the
    session's (so it survives the scene's end), keeps its die, and expires at the next
    session_start. An Asset the app does not keep for the scene (made up in play)
    becomes a d6 session Asset. Refused (nothing is written; no dice were drawn) for an
    Asset on the winner's sheet or one that is a session Asset already."""
    if ctx.character(winner).trait("assets", name) is not None:
        raise ActionError(
            f"“{name}” is on {winner.name}'s sheet: it lasts longer than a session already."
        )
    shared = table_asset(ctx, name)
    if shared is not None and shared[2] == "session":
        raise ActionError(f"“{shared[0]}” is a session Asset already.")
    die = NEW_ASSET_DIE
    if shared is not None:
        name, record, _ = shared
        die = record.get("die") or NEW_ASSET_DIE
        ctx.data["assets"].pop(name)
        ctx.note(promoted=name)
    ctx.session_data.setdefault("assets", {})[name] = {
        "die": die,
        "sheet": winner.pk,
        "seq": ctx.seq,
        "scene": ctx.scene_title,
    }
    ctx.note_session(session_asset=name, die=die)


class ActivateComplication(Transition):
    """SER-3: the GM activates a 1; the roller gains a plot point and a complication."""

    gm_only = True
    sheet_required = True

    def prepare(self, ctx: Table) -> None:
        char = ctx.character()
        ctx.request["plot_points"] = char.counter("plot_points")
        held = {t.name: t.die_label for t in char.group("complications") if t.die}
        if ctx.in_scene:
            held.update(ctx.data.get("complications", {}).get(str(char.id), {}))
        ctx.request["complications"] = held

    def apply(self, ctx: Table, outcome: dict[str, Any]) -> None:
        ctx.give(ctx.sheet, "plot_points", 1, "plot points")
        change = outcome.get("change") or {}
        name = change.get("trait")
        if ctx.character().trait("complications", name) is not None:
            ctx.set_die(ctx.sheet, "complications", name, change.get("to"))
        elif name:
            scene = ctx.data.setdefault("complications", {}).setdefault(str(ctx.sheet.pk), {})
            scene[name] = change.get("to")
            ctx.note(complication=name, sheet=ctx.sheet.pk, to=change.get("to"))


def extraordinary_test(ctx: Table) -> LoggedEvent:
    """SER-10: the logged test (or roll against the scene's opposition, SER-5) whose
    extraordinary success a benefit claims: the one `table.roll` names, or the latest the
    actor may see; one hidden from the actor, one without an extraordinary success and one
    already claimed are refused alike."""
    wanted = ctx.param_int("roll")
    sheet = ctx.sheet if wanted is None else None
    tests = sorted(
        [
            *ctx.logged("test", seq=wanted, sheet=sheet),
            *ctx.logged("roll", seq=wanted, sheet=sheet),
        ],
        key=lambda event: -event.seq,
    )
    claimed = ctx.logged_params("benefit", "roll")
    for event in tests[:MAX_KEPT_ROLLS]:
        if isinstance(event.outcome.get("extraordinary"), Mapping) and event.seq not in claimed:
            return event
    raise ActionError(NO_SUCH_TEST)


def sides_of(event: LoggedEvent) -> list[Mapping[str, Any]]:
    """The player's side and the opposition's of a test, or of a roll against the number
    to beat the GM's opposition pool set (its dice kept with it)."""
    if "player" in event.request:
        return [event.request.get("player") or {}, event.request.get("opposition") or {}]
    return [{"pool": event.request.get("pool")}, {"pool": event.request.get("opposition_pool")}]


class Benefit(Transition):
    table_params = ("roll",)
    """SER-10 after a test: the margin, both pools and who won come from the logged test
    (table.roll); the winner's player picks (the GM for the GM's side). The GM may also
    name a benefit for a roll-off the table did not record, free-form."""

    def authorize(self, ctx: Table) -> None:
        if ctx.sheet is not None:
            ctx.require_control(ctx.sheet)
        elif not ctx.is_gm:
            raise ActionError("Choose the character this is for.")

    def prepare(self, ctx: Table) -> None:
        if ctx.is_gm and ctx.param_int("roll") is None and "margin" in ctx.request:
            self.fill_sides(ctx)
            return
        test = extraordinary_test(ctx)
        won = test.outcome["extraordinary"]
        by_gm = won.get("by") == "opposition"
        if by_gm:
            ctx.require_gm("claim the GM side's extraordinary success")
        elif ctx.sheet is None or test.character_id != ctx.sheet.pk:
            raise ActionError(NO_SUCH_TEST)
        sides = sides_of(test)
        winner, loser = (sides[1], sides[0]) if by_gm else (sides[0], sides[1])
        ctx.params["roll"] = test.seq
        loser_pool = list(loser.get("pool") or [])
        if not by_gm:
            # The winner's own stress and complications as their sheet holds them now.
            view = TableView(ctx)
            loser_pool = [self.winners_own(ctx, raw, view, strict=False) for raw in loser_pool]
        ctx.request.update(
            gm=by_gm,
            margin=int(won.get("margin") or 0),
            winner_pool=list(winner.get("pool") or []),
            loser_pool=loser_pool,
            stress_die=None,
        )
        if by_gm:
            ctx.sheet = None

    def fill_sides(self, ctx: Table) -> None:
        if ctx.sheet is None:
            return
        ctx.request["winner_pool"] = fill_pool(
            ctx, ctx.request.get("winner_pool"), ctx.sheet, RULES
        )
        loser = ctx.request.get("loser_pool")
        if isinstance(loser, list):
            view = TableView(ctx)
            ctx.request["loser_pool"] = [self.winners_own(ctx, raw, view) for raw in loser]

    @staticmethod
    def winners_own(ctx: Table, raw: object, view: TableView, *, strict: bool = True) -> object:
        """A stress or complication die in the other side's pool was rolled against the
        winner, so it is the winner's: read from their sheet, or from the complications the
        GM activated for them in this scene. A player cannot name one the winner lacks."""
        if not isinstance(raw, Mapping) or raw.get("group") not in ("stress", "complications"):
            return raw
        trait = ctx.character().trait(raw["group"], raw.get("trait", ""))
        if trait is not None and trait.die:
            return {**raw, "trait": trait.name, "die": trait.die_label, "sheet": ctx.sheet.pk}
        if raw["group"] == "complications":
            held = (view.data.get("complications") or {}).get(str(ctx.sheet.pk))
            found = held_in(held, raw.get("trait", ""))
            if found is not None:
                return {**raw, "trait": found[0], "die": found[1], "sheet": ctx.sheet.pk}
        if ctx.is_gm or not strict:
            return raw
        raise not_on_table(raw)

    def precheck(self, ctx: Table) -> None:
        if ctx.request.get("benefit") == "promote_asset" and ctx.visibility != PUBLIC:
            raise ActionError("Promoting an Asset changes what everyone sees, so it is public.")

    def apply(self, ctx: Table, outcome: dict[str, Any]) -> None:
        apply_benefit(ctx, ctx.sheet, outcome.get("benefit"))


class Awareness(Transition):
    """SER-11: the pool is suggested from the sheet's own Stylin's and Refinements."""

    def prepare(self, ctx: Table) -> None:
        if ctx.sheet is None:
            return
        char = ctx.character()
        ctx.request["stylins"] = {t.name: t.die_label for t in char.group("stylins") if t.die}
        ctx.request["refinements"] = [
            {"trait": t.name, "die": t.die_label, "parent": t.parent.name if t.parent_id else ""}
            for t in char.group("refinements")
            if t.die
        ]


TABLE: dict[str, Transition] = {
    **contest_transitions(RULES),
    "activate_complication": ActivateComplication(),
    "benefit": Benefit(),
    "awareness_pool": Awareness(),
}

# Popcorn: whoever acts hands the spotlight on (SER-6's contests already go in turn).
ORDER = OrderRules(POPCORN)
