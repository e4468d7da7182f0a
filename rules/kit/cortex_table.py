"""The Cortex family at the table: pools filled from the table, tests, contests, stress.

Serenity and Smallville play their rolls, tests and contests with these transitions,
each through a `CortexPlusRules` of its own (which sheet groups a pool takes, what a pool
costs, what else a roll writes); Cortex with Total/Effect slots fills its pools with the
same `fill_pool`. Everything goes through the `rules.kit.table.Table` interface.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .costs import Cost, require_payable
from .d10_table import SetDifficulty
from .errors import RulesError
from .table import (
    NPC,
    PUBLIC,
    ActionError,
    SheetHandle,
    Table,
    TableView,
    TraitHandle,
    Transition,
    check_counter,
    held_in,
    holder_id,
    int_field,
    new_id,
    norm,
    not_on_table,
    sentence,
    table_asset,
)

PLOT_POINTS = ("plot point", "plot points")
MAX_FINISHED = 10  # finished contests kept in the scene
OPEN_STATUSES = ("open", "stress_pending")


class PoolRules:
    """Where the dice of a Cortex pool come from, for one game.

    `own_groups`: the roller's sheet groups (an Asset not on the sheet may be a scene or
    session Asset); `other_side_groups`: dice of the other side, named with their holder
    (SER-1 complications and stress, SMV-4 stress, SMV-5 Limits); `parent_groups`: groups
    whose entries carry the trait they are filed under (SER-1 Refinements); `entry_flags`:
    a sheet flag an entry carries, by group (SMV-1 Heritage Distinctions)."""

    own_groups: tuple[str, ...] = ()
    other_side_groups: tuple[str, ...] = ()
    parent_groups: tuple[str, ...] = ()
    entry_flags: Mapping[str, str] = {}

    def cost(self, request: Mapping, *, gm: bool) -> Cost:
        """What a pool costs, read from its request as the table fills it: the one price
        the pool builder shows and the roll checks and charges (rules.kit.costs)."""
        return Cost()

    def entry(self, trait: TraitHandle) -> dict[str, Any]:
        """A trait of the roller's sheet as a pool entry: the one translation of a sheet
        into a pool, used by the pool builder and by the roll alike."""
        entry = {"die": trait.die_label, "trait": trait.name, "group": trait.group}
        if trait.group in self.parent_groups:
            entry["parent"] = trait.parent.name if trait.parent_id else ""
        flag = self.entry_flags.get(trait.group)
        if flag:
            entry[flag] = bool((trait.flags or {}).get(flag))
        return entry


def other_side_die(ctx: Table, raw: Mapping, view: TableView) -> dict[str, Any] | None:
    """SER-1, SMV-4, SMV-5: a complication, stress die or Limit of the other side, read
    where the table keeps it. The entry names its holder: "sheet" (a character: the die on
    their sheet, or a complication the GM activated for them in this scene) or "side" (a
    contest side without a sheet: the stress it took in this scene). None when it is not
    there, or its holder is hidden from the actor."""
    group, name = raw["group"], raw.get("trait", "")
    sheet_id = holder_id(raw)
    if sheet_id is not None:
        sheet = ctx.visible_sheet(sheet_id)
        if sheet is None:
            return None
        trait = ctx.character(sheet).trait(group, name)
        if trait is not None and trait.die:
            entry = {**raw, "trait": trait.name, "die": trait.die_label, "sheet": sheet.pk}
            if group == "limits":
                entry["ability"] = trait.link.name if trait.link_id else ""
            return entry
        if group == "complications":
            held = (view.data.get("complications") or {}).get(str(sheet.pk))
            found = held_in(held, name)
            if found is not None:
                return {**raw, "trait": found[0], "die": found[1], "sheet": sheet.pk}
        return None
    side = raw.get("side")
    if group == "stress" and isinstance(side, str) and side.strip():
        for side_name, track in (view.data.get("side_stress") or {}).items():
            found = held_in(track, name) if norm(side_name) == norm(side) else None
            if found is not None:
                return {**raw, "trait": found[0], "die": found[1], "side": side_name}
    return None


def fill_other_side(
    ctx: Table, raw: Mapping, roller: SheetHandle | None, view: TableView
) -> dict[str, Any]:
    """A die of the other side in a pool: the table's die, whatever size the client sent.
    A player may use only what is on the table and not their own character's (SER-1: the
    other side's; SMV-4, SMV-5: the opponent's); the GM may grant any die."""
    found = other_side_die(ctx, raw, view)
    if ctx.is_gm:
        return found if found is not None else dict(raw)
    if found is None:
        raise not_on_table(raw)
    if roller is not None and found.get("sheet") == roller.pk:
        raise ActionError(
            f"{found['trait']} {found['die']} is {roller.name}'s own: only the other "
            "side's dice join this pool."
        )
    return found


def fill_pool(ctx: Table, entries: object, sheet: SheetHandle | None, rules: PoolRules) -> object:
    """Every die of a pool comes from the table (SER-1, SMV-1..5, CTX-1).

    Dice from the character's own sheet groups take their size from the sheet (an Asset
    not on it may be a scene or session Asset); dice of the other side name their holder
    and take their size from where the table keeps them. For a player nothing else gets
    in: a die that is not on the table is refused before anything is drawn. The GM's
    entries that name no holder (the situation, a die the GM grants) are the GM's own.
    """
    if not isinstance(entries, list):
        return entries
    char = ctx.character(sheet) if sheet is not None else None
    own = rules.own_groups if char is not None else ()
    other = rules.other_side_groups
    view = TableView(ctx)
    filled = []
    for raw in entries:
        if not isinstance(raw, Mapping) or raw.get("group") not in (*own, *other):
            filled.append(raw)
            continue
        if raw["group"] in other:
            filled.append(fill_other_side(ctx, raw, sheet, view))
            continue
        group = raw["group"]
        trait = char.trait(group, raw.get("trait", ""))
        missing = trait is None or trait.die is None
        shared = table_asset(ctx, raw.get("trait", "")) if missing and group == "assets" else None
        if shared is not None and shared[1].get("die"):
            name, record, scope = shared  # a scene or session Asset: its die is the table's
            filled.append({**raw, "trait": name, "die": record["die"], "scope": scope})
            continue
        if trait is None or trait.die is None:
            label = ctx.system.sheet_template.group(group).label
            name = str(raw.get("trait", ""))[:40]
            raise ActionError(f"{char.name} has no “{name}” among their {label}.")
        entry = {**raw, "trait": trait.name, "die": trait.die_label}
        if group in rules.parent_groups:
            entry["parent"] = trait.parent.name if trait.parent_id else ""
        if group in rules.entry_flags:
            entry[rules.entry_flags[group]] = bool(
                (trait.flags or {}).get(rules.entry_flags[group])
            )
        filled.append(entry)
    return filled


def check_plot_points(ctx: Table, sheet: SheetHandle | None, wanted: int) -> None:
    check_counter(ctx, sheet, "plot_points", wanted, PLOT_POINTS)


def apply_value_step(ctx: Table, sheet: SheetHandle | None, step: Mapping | None) -> None:
    """SER-9 / SMV-2: a challenged trait steps down (a d4 is removed)."""
    if sheet is None or not isinstance(step, Mapping):
        return
    trait = ctx.character(sheet).trait(step.get("group", "values"), step.get("trait"))
    if trait is None:
        return
    ctx.set_die(sheet, step.get("group", "values"), trait.name, step.get("to"))


def apply_steps(ctx: Table, steps: list) -> None:
    for step in steps or []:
        if step.get("sheet"):
            apply_value_step(ctx, ctx.sheet_by_id(step["sheet"]), step)


class CortexPlusRules(PoolRules):
    """One Cortex Plus game's pools at the table; the game overrides what it adds."""

    gm_flag = "gm"  # the request field saying the GM rolls (Smallville: "watchtower")

    def prepare_side(self, ctx: Table, request: dict, sheet: SheetHandle | None) -> None:
        """One side's pool in a roll, test or contest, filled from the table."""
        if "pool" in request:
            request["pool"] = fill_pool(ctx, request["pool"], sheet, self)

    def cost(self, request: Mapping, *, gm: bool) -> Cost:
        """SER-8: the plot points named for more dice in the result, charged only for the
        dice that come up to take them."""
        return Cost(for_result=int_field(request, "plot_points"))

    def check_cost(self, ctx: Table, sheet: SheetHandle | None, request: Mapping, *, gm) -> None:
        """Refuse, before any die is drawn, a pool the character cannot pay for."""
        if sheet is None:
            return
        try:
            cost = self.cost(request, gm=gm)
        except RulesError as error:
            raise ActionError(sentence(str(error))) from error
        require_payable(ctx, sheet, cost)

    def apply_side(
        self, ctx: Table, sheet: SheetHandle | None, outcome: Mapping, *, later=None
    ) -> None:
        """Plot points a roll spent and challenged traits stepping down (now, or `later`
        when the contest ends)."""
        ctx.spend(sheet, "plot_points", int_field(outcome, "plot_points_spent"), "plot points")
        apply_value_step(ctx, sheet, outcome.get("value_steps_down"))
        for step in outcome.get("steps_down_after_conflict") or []:
            if later is not None:
                later.append({"sheet": sheet.pk if sheet else None, **step})
            else:
                apply_value_step(ctx, sheet, step)

    def after_stress(self, ctx: Table, winner: SheetHandle | None, outcome: Mapping) -> None:
        """What else a contest's stress step brings the winner (Serenity: a benefit)."""


# What a roll's request says of the scene's opposition: the table's, never the client's.
OPPOSITION_FIELDS = ("difficulty", "opposition_pool", "opposes")


def scene_opposition(ctx: Table) -> None:
    """SER-5, SMV-10: a player's roll takes the number to beat from the scene (the result
    of the GM's opposition pool, or a number the GM set), with the opposition's dice
    (SER-10's benefits). One set behind the screen is rolled against all the same: the
    roll rests on it (`Table.rests_on`), so players read the roll sealed until the GM
    reveals the opposition, and then its outcome."""
    record = ctx.data.get("difficulty") if ctx.in_scene else None
    if not isinstance(record, Mapping) or not isinstance(record.get("value"), int):
        return
    ctx.request["difficulty"] = record["value"]
    if isinstance(record.get("pool"), list) and record["pool"]:
        ctx.request["opposition_pool"] = list(record["pool"])
    if isinstance(record.get("seq"), int):
        ctx.rests_on(record["seq"])


def keep_opposition(ctx: Table, outcome: Mapping, pool: object) -> None:
    """SER-5, SMV-10: the GM's pool sets the number to beat for the scene's following
    rolls; one rolled behind the screen shows to players as set behind the screen."""
    ctx.data["difficulty"] = {
        "value": int_field(outcome, "result"),
        "seq": ctx.seq,
        "pool": [dict(e) for e in pool if isinstance(e, Mapping)] if isinstance(pool, list) else [],
    }
    if ctx.visibility != PUBLIC:
        ctx.veil_as.append((["difficulty"], {"secret": True}))
    ctx.note(difficulty=int_field(outcome, "result"))


class CortexRoll(Transition):
    """SER-1..4, 8, 9 and SMV-1..9: one pool from the character's sheet. SER-5, SMV-10: a
    GM pool is the scene's opposition, and a player's roll is scored against it."""

    def __init__(self, rules: CortexPlusRules) -> None:
        self.rules = rules

    def gm_pool(self, ctx: Table) -> bool:
        return ctx.is_gm and (ctx.sheet is None or ctx.sheet.kind == NPC)

    def prepare(self, ctx: Table) -> None:
        gm = self.gm_pool(ctx)
        ctx.request[self.rules.gm_flag] = gm
        for key in OPPOSITION_FIELDS:
            ctx.request.pop(key, None)
        self.rules.prepare_side(ctx, ctx.request, ctx.sheet)
        if gm and ctx.in_scene:
            ctx.request["opposes"] = True
        elif not gm:
            scene_opposition(ctx)

    def precheck(self, ctx: Table) -> None:
        self.rules.check_cost(ctx, ctx.sheet, ctx.request, gm=self.gm_pool(ctx))

    def apply(self, ctx: Table, outcome: dict[str, Any]) -> None:
        self.rules.apply_side(ctx, ctx.sheet, outcome)
        if ctx.request.get("opposes"):
            keep_opposition(ctx, outcome, ctx.request.get("pool"))


class CortexTest(Transition):
    """SER-5 / SMV-10 test: the GM runs it, with the player's pool from their sheet."""

    gm_only = True

    def __init__(self, rules: CortexPlusRules) -> None:
        self.rules = rules

    def prepare(self, ctx: Table) -> None:
        player = ctx.request.get("player")
        if isinstance(player, dict):
            player = dict(player)
            self.rules.prepare_side(ctx, player, ctx.sheet)
            ctx.request["player"] = player

    def precheck(self, ctx: Table) -> None:
        player = ctx.request.get("player")
        if isinstance(player, dict):
            self.rules.check_cost(ctx, ctx.sheet, player, gm=False)

    def apply(self, ctx: Table, outcome: dict[str, Any]) -> None:
        self.rules.apply_side(ctx, ctx.sheet, outcome.get("player") or {})


# ---- Contests (SER-6, SER-7, SER-10, SMV-10)


def contest_record(ctx: Table) -> dict[str, Any]:
    contests = ctx.data.get("contests", {})
    wanted = ctx.param_int("contest")
    if wanted is not None:
        record = contests.get(str(wanted))
        if record is None or record["contest"]["status"] not in OPEN_STATUSES:
            raise ActionError(f"There is no contest #{wanted} going on in this scene.")
        return record
    going = [r for r in contests.values() if r["contest"]["status"] in OPEN_STATUSES]
    if not going:
        raise ActionError("No contest is going on in this scene: start one first.")
    if len(going) > 1:
        raise ActionError("Several contests are going on: say which one (table.contest).")
    return going[0]


def side_sheet(ctx: Table, record: Mapping, side: int) -> SheetHandle | None:
    return ctx.sheet_by_id(record["sheets"][side])


def require_side(ctx: Table, record: Mapping, side: int) -> SheetHandle | None:
    """The GM plays GM sides; a player side is played by its sheet's owner (or the GM)."""
    sheet = side_sheet(ctx, record, side)
    name = record["contest"]["sides"][side]["name"]
    if record["contest"]["sides"][side]["gm"] or sheet is None:
        ctx.require_gm(f"act for {name}")
    else:
        ctx.require_control(sheet)
    if ctx.sheet is not None and sheet is not None and ctx.sheet.pk != sheet.pk:
        raise ActionError(f"It is {name}'s move, not {ctx.sheet.name}'s.")
    ctx.sheet = sheet
    return sheet


def finish_contest(ctx: Table, record: dict) -> None:
    apply_steps(ctx, record.pop("steps_down", []))
    contests = ctx.data["contests"]
    done = [k for k, r in contests.items() if r["contest"]["status"] not in OPEN_STATUSES]
    for key in done[:-MAX_FINISHED]:
        contests.pop(key)


class ContestStart(Transition):
    needs_scene = True
    public_only = True

    def authorize(self, ctx: Table) -> None:
        pass  # checked in prepare, once the sides are known

    def prepare(self, ctx: Table) -> None:
        sides = ctx.request.get("sides")
        if not isinstance(sides, list) or len(sides) != 2:
            raise ActionError("A contest has exactly two sides.")
        sheets: list[int | None] = []
        cleaned = []
        for index, raw in enumerate(sides):
            if not isinstance(raw, Mapping):
                raise ActionError(f"Side {index + 1} must be an object with a name and a goal.")
            side = dict(raw)
            sheet_id = side.pop("sheet_id", None)
            sheet = ctx.other_sheet(sheet_id) if sheet_id is not None else None
            if sheet is not None:
                side.setdefault("name", sheet.name)
            side["gm"] = sheet is None or sheet.kind == NPC
            sheets.append(sheet.pk if sheet else None)
            cleaned.append(side)
        ctx.request["sides"] = cleaned
        ctx.params["sheets"] = sheets
        if not ctx.is_gm:
            mine = [s for s in sheets if s is not None and ctx.sheet and s == ctx.sheet.pk]
            if ctx.sheet is None or not mine:
                raise ActionError("Start a contest for your own character.")
            ctx.require_control(ctx.sheet)

    def apply(self, ctx: Table, outcome: dict[str, Any]) -> None:
        number = new_id(ctx)
        ctx.data.setdefault("contests", {})[str(number)] = {
            "id": number,
            "contest": outcome["contest"],
            "sheets": ctx.params["sheets"],
            "seq": ctx.seq,
            "steps_down": [],
        }
        ctx.params["contest"] = number
        ctx.note(contest=number, status=outcome["contest"]["status"])


class ContestStep(Transition):
    table_params = ("contest",)
    """A step of a contest going on: who may take it is decided in prepare, once the
    contest (and whose move it is) is known."""

    needs_scene = True
    public_only = True

    def __init__(self, rules: CortexPlusRules) -> None:
        self.rules = rules

    def authorize(self, ctx: Table) -> None:
        pass

    @staticmethod
    def contest_at(ctx: Table, status: str, refusal: str) -> dict[str, Any]:
        """The contest the request names, refused unless it is at `status`; the request
        takes its state from the scene."""
        record = contest_record(ctx)
        ctx.params["contest"] = record["id"]
        if record["contest"]["status"] != status:
            raise ActionError(refusal)
        ctx.request["contest"] = record["contest"]
        return record

    @staticmethod
    def held(ctx: Table) -> dict[str, Any]:
        return ctx.data["contests"][str(ctx.params["contest"])]


class ContestMove(ContestStep):
    """Roll, give in: the side whose turn it is moves."""

    rolls = False

    def prepare(self, ctx: Table) -> None:
        record = self.contest_at(
            ctx, "open", "This contest is decided: the winner picks the stress."
        )
        contest = record["contest"]
        sheet = require_side(ctx, record, contest["turn"])
        if self.rolls:
            self.rules.prepare_side(ctx, ctx.request, sheet)

    def precheck(self, ctx: Table) -> None:
        if self.rolls:
            contest = ctx.request["contest"]
            gm = contest["sides"][contest["turn"]]["gm"]
            self.rules.check_cost(ctx, ctx.sheet, ctx.request, gm=gm)

    def apply(self, ctx: Table, outcome: dict[str, Any]) -> None:
        record = self.held(ctx)
        record["contest"] = outcome["contest"]
        if self.rolls:
            later = record.setdefault("steps_down", [])
            self.rules.apply_side(ctx, ctx.sheet, outcome.get("roll") or {}, later=later)
        if outcome["contest"]["status"] not in OPEN_STATUSES:
            finish_contest(ctx, record)
        ctx.note(contest=record["id"], status=outcome["contest"]["status"])


class ContestRoll(ContestMove):
    rolls = True


def held_stress(ctx: Table, record: Mapping, side: int) -> tuple[SheetHandle | None, dict]:
    sheet = side_sheet(ctx, record, side)
    if sheet is not None:
        return sheet, ctx.character(sheet).stress_track()
    name = record["contest"]["sides"][side]["name"]
    return None, dict(ctx.data.get("side_stress", {}).get(name, {}))


def write_stress(ctx: Table, sheet: SheetHandle | None, side_name: str, change: Mapping) -> None:
    """SER-7: the stress die now held; past d12 the character is taken out of the scene."""
    stress_type, now = change.get("type"), change.get("to")
    if not stress_type:
        return
    if sheet is not None:
        ctx.set_die(sheet, "stress", stress_type, now)
    else:
        ctx.data.setdefault("side_stress", {}).setdefault(side_name, {})[stress_type] = now
        ctx.note(side_stress=side_name, type=stress_type, to=now)
    if change.get("taken_out") and ctx.in_scene:
        who = {"sheet": sheet.pk if sheet else None, "name": sheet.name if sheet else side_name}
        taken = ctx.data.setdefault("taken_out", [])
        if who not in taken:
            taken.append({**who, "seq": ctx.seq})
            ctx.note(taken_out=who["name"])


class ContestStress(ContestStep):
    """SER-7 / SMV-10: the winner picks the loser's stress."""

    def prepare(self, ctx: Table) -> None:
        record = self.contest_at(
            ctx, "stress_pending", "This contest is not waiting for stress to be chosen."
        )
        contest = record["contest"]
        winner = contest["winner"]
        winner_sheet = side_sheet(ctx, record, winner)
        if contest["sides"][winner]["gm"] or winner_sheet is None:
            ctx.require_gm("choose the stress for the GM's side")
        else:
            ctx.require_control(winner_sheet)
        loser = contest["failed"]["side"]
        sheet, track = held_stress(ctx, record, loser)
        ctx.request["stress"] = track
        ctx.sheet = sheet

    def apply(self, ctx: Table, outcome: dict[str, Any]) -> None:
        record = self.held(ctx)
        loser = record["contest"]["failed"]["side"]
        record["contest"] = outcome["contest"]
        name = record["contest"]["sides"][loser]["name"]
        write_stress(ctx, ctx.sheet, name, outcome.get("stress_change") or {})
        winner = record["contest"]["winner"]
        self.rules.after_stress(ctx, side_sheet(ctx, record, winner), outcome)
        finish_contest(ctx, record)
        ctx.note(contest=record["id"], status=outcome["contest"]["status"])


class TakeStress(Transition):
    """SER-7 / SMV-10 outside a contest: the character's own stress track."""

    def prepare(self, ctx: Table) -> None:
        if ctx.sheet is None:
            raise ActionError("Choose the character taking stress.")
        ctx.request["stress"] = ctx.character().stress_track()

    def apply(self, ctx: Table, outcome: dict[str, Any]) -> None:
        write_stress(ctx, ctx.sheet, ctx.sheet.name, outcome)


def contest_transitions(rules: CortexPlusRules) -> dict[str, Transition]:
    """The roll, test, contest and stress transitions a Cortex Plus game plays with, and
    the GM's number to beat (SER-5, SMV-10: `rules.kit.d10_table.SetDifficulty`)."""
    return {
        "roll": CortexRoll(rules),
        "test": CortexTest(rules),
        "contest_start": ContestStart(),
        "contest_roll": ContestRoll(rules),
        "contest_give_in": ContestMove(rules),
        "contest_stress": ContestStress(rules),
        "stress": TakeStress(),
        "set_difficulty": SetDifficulty(),
    }
