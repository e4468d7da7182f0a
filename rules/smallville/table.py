"""Smallville at the table: what each action reads from the table and writes back.

Rolls, tests, contests and stress are the Cortex Plus transitions (rules.kit.cortex_table)
over Smallville's sheet groups, with its paid dice (SMV-3..7), Resources in a side pool
(SMV-7), Useful Details (SMV-6), the Trouble Pool (SMV-9) and Shut Down (SMV-5).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..kit.cortex_table import (
    CortexPlusRules,
    check_plot_points,
    contest_transitions,
)
from ..kit.costs import Cost, CostItem
from ..kit.dice import die_name, parse_size
from ..kit.order import POPCORN, OrderRules
from ..kit.table import (
    ActionError,
    SheetHandle,
    Table,
    TraitHandle,
    Transition,
    holder_id,
    int_field,
    norm,
    not_on_table,
    scene_view,
)
from .actions import build_pool
from .sheet import SIDE_GROUPS

# Flags a new session clears, by sheet group (SMV-7: every Resource is free again).
SESSION_FLAGS = {group: ("used",) for group in SIDE_GROUPS}


def side_entry(trait: TraitHandle) -> dict[str, Any]:
    """SMV-7: a Resource of the roller's own sheet as a side-pool entry, free unless used
    this session: the one translation the pool builder and the roll share."""
    return {
        "die": trait.die_label,
        "trait": trait.name,
        "group": trait.group,
        "on_sheet": True,
        "used": bool((trait.flags or {}).get("used")),
    }


def fill_side_pool(ctx: Table, entries: object, sheet: SheetHandle | None) -> object:
    """SMV-7: a Resource is free when on the roller's sheet and unused this session. One not
    on it costs 1 plot point and is another character's, named with its holder ("sheet"):
    its die is the one on that sheet. A player brings no Resource that is not on the
    table; the Watchtower may bring any."""
    if not isinstance(entries, list):
        return entries
    char = ctx.character(sheet) if sheet is not None else None
    filled = []
    for raw in entries:
        if not isinstance(raw, Mapping):
            filled.append(raw)
            continue
        holder = holder_id(raw)
        mine = holder is None or (sheet is not None and holder == sheet.pk)
        trait = char.trait(raw.get("group"), raw.get("trait", "")) if char and mine else None
        if trait is not None and trait.die:
            filled.append({**raw, **side_entry(trait)})
            continue
        other = ctx.visible_sheet(holder) if holder is not None and not mine else None
        if other is not None and raw.get("group") in SIDE_GROUPS:
            trait = ctx.character(other).trait(raw["group"], raw.get("trait", ""))
            if trait is not None and trait.die:
                filled.append(
                    {**raw, "trait": trait.name, "die": trait.die_label, "sheet": other.pk,
                     "on_sheet": False, "used": False}
                )  # fmt: skip
                continue
        if not ctx.is_gm:
            raise not_on_table(raw)
        filled.append({**raw, "on_sheet": False, "used": False})
    return filled


def useful_details(ctx: Table, request: dict) -> None:
    """SMV-6: a Useful Detail already made in this scene is reused for free (a player reuses
    only one they may see, at the die the scene holds for it); one the Watchtower takes from
    the Trouble Pool comes out of the scene's pool. A player's own is a d6 (the rules refuse
    any other size)."""
    details = [
        e
        for e in request.get("pool") or ()
        if isinstance(e, dict) and e.get("group") == "useful_details"
    ]
    if not ctx.in_scene or not details:
        return
    known = {
        norm(name): record
        for name, record in (scene_view(ctx).get("useful_details") or {}).items()
        if isinstance(record, Mapping)
    }
    for entry in details:
        record = known.get(norm(entry.get("trait", "")))
        entry["reused"] = record is not None
        if record is not None and not entry.get("from_trouble") and record.get("die"):
            entry["die"] = record["die"]  # the detail's die is the scene's
        if entry.get("from_trouble"):
            request["trouble_pool"] = list(ctx.data.get("trouble_pool", []))


class SmallvilleRules(CortexPlusRules):
    """SMV-1..5: a pool takes the roller's Value, Relationships, Abilities and Distinctions,
    and the opponent's stress and Limits, each named by its holder."""

    own_groups = ("values", "relationships", "abilities", "distinctions")
    other_side_groups = ("stress", "limits")
    entry_flags = {"distinctions": "heritage"}
    gm_flag = "watchtower"

    def prepare_side(self, ctx: Table, request: dict, sheet: SheetHandle | None) -> None:
        super().prepare_side(ctx, request, sheet)
        if "side_pool" in request:
            request["side_pool"] = fill_side_pool(ctx, request["side_pool"], sheet)
        useful_details(ctx, request)

    def cost(self, request: Mapping, *, gm: bool) -> Cost:
        """SMV-3..7: the paid dice, priced by the roll's own reading of the pool, and the
        plot points named for the result (SMV-8)."""
        pool = build_pool(request, watchtower=gm)
        items = tuple(
            CostItem(f"{c['trait']} {c['die']}".strip(), c["plot_points"], c["why"])
            for c in pool.costs
        )
        return Cost(items=items, for_result=pool.plot_points)

    def apply_side(
        self, ctx: Table, sheet: SheetHandle | None, outcome: Mapping, *, later=None
    ) -> None:
        """Resources used, new Useful Details and a die taken from the Trouble Pool, besides
        the plot points and stepped-down Values of every Cortex Plus roll."""
        super().apply_side(ctx, sheet, outcome, later=later)
        if sheet is not None:
            for name in outcome.get("resources_used") or []:
                for group in SIDE_GROUPS:
                    ctx.flag_trait(sheet, group, name, "used")
        made = [
            e
            for e in outcome.get("costs") or ()
            if e.get("group") == "useful_details" and e.get("trait")
        ]
        if ctx.in_scene and (made or "trouble_pool" in outcome):
            details = ctx.data.setdefault("useful_details", {})
            for entry in made:
                if entry["trait"] not in details:
                    details[entry["trait"]] = {
                        "die": entry.get("die"),
                        "sheet": sheet.pk if sheet else None,
                        "seq": ctx.seq,
                    }
                    ctx.note(useful_detail=entry["trait"])
            if "trouble_pool" in outcome and outcome["trouble_pool"] != ctx.data.get(
                "trouble_pool"
            ):
                ctx.data["trouble_pool"] = list(outcome["trouble_pool"])
                ctx.note(trouble_pool=ctx.data["trouble_pool"])


RULES = SmallvilleRules()


# The same words for a roll that is hidden from the actor and one that does not exist.
NO_SUCH_ROLL = "That roll is not one of this table's rolls."


class Trouble(Transition):
    """SMV-9: the Trouble Pool is the scene's; the Watchtower adds to it, a player pays to
    take a die out of it against a 1 the Watchtower rolled."""

    table_params = ("roll",)
    needs_scene = True
    public_only = True

    def authorize(self, ctx: Table) -> None:
        operation = ctx.request.get("operation")
        if operation == "add":
            ctx.require_gm("add to the Trouble Pool")
        if ctx.sheet is not None:
            if operation != "add":
                ctx.require_control(ctx.sheet)
        elif not ctx.is_gm or operation == "remove":
            raise ActionError("Choose the character who pays.")

    def prepare(self, ctx: Table) -> None:
        ctx.request["trouble_pool"] = list(ctx.data.get("trouble_pool", []))
        if not ctx.is_gm:
            ctx.request["operation"] = "remove"  # a player only ever takes a die out
        removing = ctx.request.get("operation") == "remove"
        if removing and (not ctx.is_gm or "one_die" not in ctx.request):
            ctx.request["one_die"] = self.watchtower_one(ctx)

    def watchtower_one(self, ctx: Table) -> str:
        """The size of the Watchtower's 1 this removal answers: of the roll named
        (table.roll) or her latest roll the actor may see with a 1 not answered yet. Each
        1 answers one removal; the smallest 1 that allows the die asked for is used."""
        seq = ctx.param_int("roll")
        if seq is not None:
            event = ctx.referenced_event(seq)
            if event is None:
                raise ActionError(NO_SUCH_ROLL)
            candidates = [event]
        else:
            candidates = list(ctx.logged("roll"))
        answered = ctx.data.get("trouble_answered") or {}
        wanted = ctx.request.get("die")
        wanted_size = parse_size(wanted) if isinstance(wanted, str | int) and wanted else None
        for event in candidates:
            ones = [parse_size(d) for d in (event.outcome or {}).get("trouble_removal") or []]
            for used in answered.get(str(event.seq), []):
                if parse_size(used) in ones:
                    ones.remove(parse_size(used))
            if not ones:
                continue
            fits = [size for size in ones if wanted_size is None or size >= wanted_size]
            ctx.params["roll"] = event.seq
            return die_name(min(fits) if fits and wanted_size is not None else max(ones))
        if seq is not None:
            raise ActionError("That roll has no 1 of the Watchtower's left to pay against.")
        raise ActionError(
            "No roll of the Watchtower's has a 1 left to pay against: a Trouble Pool die "
            "is removed when she rolls a 1."
        )

    def precheck(self, ctx: Table) -> None:
        if ctx.request.get("operation") == "remove":
            check_plot_points(ctx, ctx.sheet, 1)

    def apply(self, ctx: Table, outcome: dict[str, Any]) -> None:
        paid = int_field(outcome, "plot_points_paid")
        if outcome.get("paid_by") == "watchtower":
            ctx.give(ctx.sheet, "plot_points", paid, "plot points")
        else:
            ctx.spend(ctx.sheet, "plot_points", paid, "plot points")
            seq = ctx.params.get("roll")
            if seq is not None:
                answered = ctx.data.setdefault("trouble_answered", {})
                answered.setdefault(str(seq), []).append(ctx.request.get("one_die"))
        ctx.data["trouble_pool"] = list(outcome.get("trouble_pool", []))
        ctx.note(trouble_pool=ctx.data["trouble_pool"])


class ShutDown(Transition):
    table_params = ("target",)
    """SMV-5: shutting down an Ability costs a plot point, unless its holder was stressed
    out of the scene."""

    def prepare(self, ctx: Table) -> None:
        target = ctx.param_int("target")
        if target is not None and ctx.in_scene:
            ctx.request["stressed_out"] = any(
                t.get("sheet") == target for t in ctx.data.get("taken_out", [])
            )

    def precheck(self, ctx: Table) -> None:
        if not ctx.request.get("stressed_out"):
            check_plot_points(ctx, ctx.sheet, 1)

    def apply(self, ctx: Table, outcome: dict[str, Any]) -> None:
        ctx.spend(ctx.sheet, "plot_points", int_field(outcome, "plot_points_paid"), "plot points")
        if ctx.in_scene:
            ctx.data.setdefault("shut_down", []).append(
                {
                    "ability": outcome.get("shut_down"),
                    "target": ctx.param_int("target"),
                    "seq": ctx.seq,
                }  # fmt: skip
            )
            ctx.note(shut_down=outcome.get("shut_down"))


TABLE: dict[str, Transition] = {
    **contest_transitions(RULES),
    "trouble": Trouble(),
    "shut_down": ShutDown(),
}

# Popcorn: whoever acts hands the spotlight on.
ORDER = OrderRules(POPCORN)
