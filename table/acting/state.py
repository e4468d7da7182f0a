"""The table's own state changes, beside the games' transitions.

Each game declares its actions' transitions in its package (`rules.<game>.table`, read
into `GameSystem.table`); `handler_for` finds the one for an action, or one of the
table's own below (the GM's points, table-owned counters and dice on a sheet), or the
default (members act for their own characters and nothing is written but the event).
The engine that runs them is `table.writing.actions.perform`, over a `table.acting.context.Context`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db.models import F

from campaigns.models import Campaign
from rules.kit import order
from rules.kit.actions import Action
from rules.kit.errors import RulesError
from rules.kit.faces import FaceSource
from rules.kit.game import GameSystem
from rules.kit.requests import get_bool, get_int, get_str
from rules.kit.table import PUBLIC, ActionError, Table, Transition
from sheets import live
from sheets import validation as sheet_rules
from sheets.models import Trait
from table.acting.context import lock_session
from table.log import undo, visibility

DEFAULT = Transition()


def asset_label(name: str, record: object) -> str:
    die = record.get("die") if isinstance(record, Mapping) else None
    return f"{name} {die}" if die else name


def expire_session(campaign: Campaign, number: int) -> tuple[list[dict[str, Any]], list[str]]:
    """SER-10: a new session ends the session Assets of the last one. Empties the session
    state for session `number`; returns the effects and the expired Assets ("Cover d6")."""
    row = lock_session(campaign)
    # The card is public: a session Asset promoted behind the screen is not named.
    seen = visibility.visible_state(campaign.pk, row.data, visibility.PLAYERS)
    expired = [asset_label(n, a) for n, a in (seen.get("assets") or {}).items()]
    row.data, row.session = {}, number
    row.version += 1
    row.save(update_fields=["data", "session", "version", "updated_at"])
    effects = [{"session_state": {"expired": {"assets": expired}}}] if expired else []
    return effects, expired


def visible_state(campaign: Campaign, data: Mapping[str, Any], *, gm: bool) -> dict[str, Any]:
    """The scene or session state as a user may see it (table.log.visibility decides)."""
    audience = visibility.GM if gm else visibility.PLAYERS
    return visibility.visible_state(campaign.pk, data, audience)


def expired_summary(data: Mapping[str, Any]) -> dict[str, Any]:
    """What ending the scene drops: everything kept for the scene, counted by kind."""
    summary = {}
    for key, value in data.items():
        if key in undo.NOT_UNDONE or not value:
            continue
        summary[key] = len(value) if isinstance(value, list | dict) else value
    return summary


def reset_session(campaign: Campaign, system: GameSystem) -> tuple[list[dict[str, Any]], list[str]]:
    """A new session clears the sheet flags the game keeps for a session (SMV-7: every
    Resource marked used is free again). Returns the effects (for the session's event) and
    "Sheet: Resource" names; open sheets refresh."""
    effects, freed = [], []
    groups = system.session_flags
    traits = Trait.objects.filter(sheet__campaign_id=campaign.pk, group__in=list(groups))
    for trait in traits.select_related("sheet").order_by("sheet_id", "group", "position", "pk"):
        flags = [f for f in groups.get(trait.group, ()) if (trait.flags or {}).get(f)]
        if not flags:
            continue
        trait.flags = {k: v for k, v in trait.flags.items() if k not in flags}
        Trait.objects.filter(pk=trait.pk).update(flags=trait.flags, version=F("version") + 1)
        live.trait_changed(trait.sheet, trait)
        if trait.sheet.hidden:
            continue  # freed too, but a hidden GM character is not named to players
        effects.append(
            {"sheet": trait.sheet_id, "trait": trait.name, "group": trait.group,
             "flag": flags[0], "cleared": True}
        )  # fmt: skip
        freed.append(f"{trait.sheet.name}: {trait.name}")
    return effects, freed


# ---- The table's own actions (every system): the GM's plot points outside a roll

MAX_GIVE = 10


def resolve_give_points(request: Mapping, faces: FaceSource) -> dict[str, Any]:
    """SER-8 (and each game's points): the GM gives 1-10, or takes back with a minus;
    taking back more than the character holds is refused (never below zero)."""
    amount = get_int(request, "amount", lo=-MAX_GIVE, hi=MAX_GIVE)
    if amount == 0:
        raise RulesError(f"Give between 1 and {MAX_GIVE} (or take back with a minus).")
    held = get_int(request, "held", lo=0, hi=10**6)
    cap = request.get("maximum")
    name = get_str(request, "character", max_len=80)
    one, many = get_str(request, "one", max_len=40), get_str(request, "many", max_len=40)

    def count(n: int) -> str:
        return f"{n} {one if n == 1 else many}"

    now = held + amount
    if now < 0:
        raise RulesError(
            f"{name} has only {count(held)}: you cannot take back {-amount}. Nothing changed."
        )
    if isinstance(cap, int) and not isinstance(cap, bool) and now > cap:
        raise RulesError(f"{name} can hold at most {count(cap)} (has {held}). Nothing changed.")
    if amount > 0:
        headline = f"GM gave {name} {count(amount)}"
    else:
        headline = f"GM took back {count(-amount)} from {name}"
    return {
        "headline": headline,
        "explanation": f"{name} now has {count(now)} (had {held}).",
        "counter": get_str(request, "counter", max_len=40),
        "amount": amount,
        "held": held,
        "now": now,
    }


MAX_EACH = 40  # characters in one give


def names_list(names: list[str]) -> str:
    """ "Mal", "Mal and Zoe", "Mal, Zoe and Wash"."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def resolve_give_points_each(request: Mapping, faces: FaceSource) -> dict[str, Any]:
    """The GM gives the same number of points to several characters at once: one card;
    if one of them cannot hold that many, nobody gets any."""
    amount = get_int(request, "amount", lo=1, hi=MAX_GIVE)
    one, many = get_str(request, "one", max_len=40), get_str(request, "many", max_len=40)
    characters = request.get("characters")
    if not isinstance(characters, list) or not 0 < len(characters) <= MAX_EACH:
        raise RulesError("Tick at least one character.")

    def count(n: int) -> str:
        return f"{n} {one if n == 1 else many}"

    now = []
    for entry in characters:
        if not isinstance(entry, Mapping):
            raise RulesError("Tick at least one character.")
        name = get_str(entry, "name", max_len=80)
        held = get_int(entry, "held", lo=0, hi=10**6)
        cap = entry.get("maximum")
        if isinstance(cap, int) and not isinstance(cap, bool) and held + amount > cap:
            raise RulesError(f"{name} can hold at most {count(cap)} (has {held}). Nothing changed.")
        now.append(f"{name} {held + amount}")
    names = [get_str(e, "name", max_len=80) for e in characters]
    each = " each" if len(names) > 1 else ""
    return {
        "headline": f"GM gave {names_list(names)} {count(amount)}{each}",
        "explanation": f"Now: {', '.join(now)}.",
        "counter": get_str(request, "counter", max_len=40),
        "amount": amount,
    }


TABLE_ACTIONS: dict[str, Action] = {
    "give_points": Action(
        name="give_points",
        title="Points from the GM",
        resolver=resolve_give_points,
        rules=("SER-8",),
        schema={
            "amount": {"type": "int", "meaning": "how many to give", "bounds": "1-10, or -10..-1"}
        },
        rolls=False,
    ),
    "give_points_each": Action(
        name="give_points_each",
        title="Points from the GM",
        resolver=resolve_give_points_each,
        rules=("SER-8",),
        schema={
            "amount": {"type": "int", "meaning": "how many each character gets", "bounds": "1-10"},
            "sheets": {"type": "list", "meaning": "the characters' sheet ids"},
        },
        rolls=False,
    ),
}


def action_for(system: GameSystem, name: object) -> Action:
    """The system's rules action, or one of the table's own (TABLE_ACTIONS)."""
    try:
        return system.action(name)
    except RulesError:
        if isinstance(name, str) and name in TABLE_ACTIONS:
            return TABLE_ACTIONS[name]
        raise


class GivePoints(Transition):
    """The GM gives (or takes back) the game's points (its POINTS) outside a roll: a
    logged action, so it can be voided like any other."""

    gm_only = True
    sheet_required = True

    def prepare(self, ctx: Table) -> None:
        points = ctx.system.points
        key, one, many = points.counter, points.one, points.many
        char = ctx.character()
        cap = char.counter_max(key)
        if points.cap_counter:  # the game caps them by another of the sheet's counters
            limit = max(1, char.counter(points.cap_counter))
            cap = limit if cap is None else min(cap, limit)
        ctx.request.update(
            counter=key, one=one, many=many, held=max(0, char.counter(key)), maximum=cap
        )
        ctx.request["character"] = ctx.sheet.name[:80]

    def apply(self, ctx: Table, outcome: dict[str, Any]) -> None:
        key, amount = outcome["counter"], outcome["amount"]
        label = ctx.request["many"]
        if amount > 0:
            ctx.give(ctx.sheet, key, amount, label, maximum=ctx.request["maximum"])
        else:
            ctx.spend(ctx.sheet, key, -amount, label)


class GivePointsEach(Transition):
    """The GM gives points to several characters in one step (every player character at
    once, say): one logged action, one card, voided as one. The characters are named by
    id and looked up here; a hidden GM character among them keeps the give behind the
    screen, as giving to it alone does."""

    gm_only = True

    def authorize(self, ctx: Table) -> None:
        ctx.require_gm(f"use “{ctx.action.title}”")

    def prepare(self, ctx: Table) -> None:
        ids = ctx.request.get("sheets")
        if not isinstance(ids, list) or not ids:
            raise ActionError("Tick at least one character.")
        if len(ids) > MAX_EACH or len(set(map(repr, ids))) != len(ids):
            raise ActionError(f"Tick each character once (at most {MAX_EACH}).")
        sheets = [ctx.other_sheet(i) for i in ids]
        if any(s.hidden for s in sheets) and ctx.visibility == PUBLIC:
            raise ActionError(
                "A hidden GM character is among them: give behind the screen, or untick it."
            )
        points = ctx.system.points
        characters = []
        for sheet in sheets:
            char = ctx.character(sheet)
            cap = char.counter_max(points.counter)
            if points.cap_counter:  # the game caps them by another of the sheet's counters
                limit = max(1, char.counter(points.cap_counter))
                cap = limit if cap is None else min(cap, limit)
            held = max(0, char.counter(points.counter))
            characters.append({"name": sheet.name[:80], "held": held, "maximum": cap})
        ctx.request.update(
            counter=points.counter, one=points.one, many=points.many, characters=characters
        )

    def apply(self, ctx: Table, outcome: dict[str, Any]) -> None:
        label = ctx.request["many"]
        for sheet_id, entry in zip(ctx.request["sheets"], ctx.request["characters"], strict=True):
            sheet = ctx.other_sheet(sheet_id)
            ctx.give(sheet, outcome["counter"], outcome["amount"], label, maximum=entry["maximum"])


TABLE_HANDLERS: dict[str, Transition] = {
    "give_points": GivePoints(),
    "give_points_each": GivePointsEach(),
}


# ---- Sheet edits of what changes at the table (`table_owned` in the sheet template):
# the GM's edit of plot points, stress, ... on a sheet is a logged, voidable event.


class StaleSheetValue(ActionError):
    """The counter or trait changed since the editor loaded it (the sheet page shows
    both versions); `table.version` in the request names the version loaded."""


def counter_words(label: str) -> str:
    """ "Plot points" -> "plot points"; a game's own term ("Drama Points") keeps its capitals."""
    words = label.split()
    if len(words) > 1 and all(word[:1].isupper() for word in words):
        return label
    return label[:1].lower() + label[1:]


def resolve_set_counter(request: Mapping, faces: FaceSource) -> dict[str, Any]:
    """The GM sets a table-owned counter to a value the sheet allows (checked in
    SetCounter.prepare against the sheet template, as the sheet form checks it)."""
    value = get_int(request, "value", lo=-(10**6), hi=10**6)
    held = get_int(request, "held", lo=-(10**6), hi=10**6)
    name = get_str(request, "character", max_len=80)
    label = get_str(request, "label", max_len=40)
    if value == held:
        raise RulesError(f"{name} already has {held} {label}. Nothing changed.")
    return {
        "headline": f"GM set {name}'s {label} to {value} (was {held})",
        "explanation": f"The GM changed {name}'s {label} from {held} to {value} on the sheet.",
        "counter": get_str(request, "counter", max_len=40),
        "value": value,
        "held": held,
    }


def resolve_set_die(request: Mapping, faces: FaceSource) -> dict[str, Any]:
    """The GM sets, adds or removes a die in a table-owned group (stress SER-7/SMV-10,
    complications SER-3, conditions CTX-4)."""
    name = get_str(request, "character", max_len=80)
    trait = get_str(request, "trait", max_len=80)
    one = get_str(request, "one", max_len=40)
    die = request.get("die")
    held = request.get("held")
    for value, what in ((die, "die"), (held, "held")):
        if value is not None and (not isinstance(value, str) or len(value) > 12):
            raise RulesError(f"{what} must be a die like d8, or nothing")
    fixed = get_bool(request, "fixed")
    if die == held:
        raise RulesError(f"{name}'s {trait} is already {die or 'without a die'}. Nothing changed.")
    if held is None and not fixed:
        headline = f"GM gave {name} the {one} “{trait}” at {die}"
    elif die is None and not fixed:
        headline = f"GM removed {name}'s {one} “{trait}” (was {held})"
    else:
        headline = f"GM set {name}'s {trait} {one} to {die or 'no die'} (was {held or 'no die'})"
    return {
        "headline": headline,
        "explanation": f"The GM changed {name}'s {trait} {one} on the sheet: "
        f"{held or 'no die'} → {die or 'no die'}.",
        "group": get_str(request, "group", max_len=40),
        "trait": trait,
        "die": die,
        "held": held,
    }


TABLE_ACTIONS["set_counter"] = Action(
    name="set_counter",
    title="Set by the GM",
    resolver=resolve_set_counter,
    rules=(),
    schema={
        "counter": {"type": "str", "meaning": "a table-owned counter of the sheet"},
        "value": {"type": "int", "meaning": "its new value", "bounds": "the sheet's"},
    },
    rolls=False,
)
TABLE_ACTIONS["set_die"] = Action(
    name="set_die",
    title="Die set by the GM",
    resolver=resolve_set_die,
    rules=(),
    schema={
        "group": {"type": "str", "meaning": "a table-owned group (stress, complications, ...)"},
        "trait": {"type": "str", "meaning": "the trait's name (a new one is added)"},
        "die": {"type": "str", "meaning": "d4-d12 (d12+dN where allowed), or null to clear"},
    },
    rolls=False,
)


def _table_owned(specs, key: object, what: str):
    for spec in specs:
        if spec.key == key:
            return spec
    raise ActionError(f"Choose {what} that changes at the table.")


class SetCounter(Transition):
    table_params = ("version",)
    """The GM sets a table-owned counter (plot points, Life Points, a bank, ...): the
    value is checked as the sheet form checks it, and the change is an event in the log,
    voidable like any other."""

    gm_only = True
    sheet_required = True

    def prepare(self, ctx: Table) -> None:
        template = ctx.system.sheet_template
        spec = _table_owned(
            template.table_owned_counters(), ctx.request.get("counter"), "a counter"
        )
        char = ctx.character()
        held = char.counter(spec.key)
        expected = ctx.param_int("version")
        if expected is not None and char._counters[spec.key].version != expected:
            raise StaleSheetValue(f"{spec.label} changed since you loaded the sheet.")
        values = {key: row.value for key, row in char._counters.items()}
        try:
            value = sheet_rules.clean_counter(
                template, ctx.system.slug, spec.key, ctx.request.get("value"), values
            )
        except sheet_rules.FieldError as error:
            raise ActionError(str(error)) from None
        ctx.request.update(
            counter=spec.key,
            value=value,
            held=held,
            label=counter_words(spec.label),
            character=ctx.sheet.name[:80],
        )

    def apply(self, ctx: Table, outcome: dict[str, Any]) -> None:
        ctx.set_counter(ctx.sheet, outcome["counter"], outcome["value"])


class SetDie(Transition):
    table_params = ("version",)
    """The GM sets a die in a table-owned group; a new name adds a trait there and no
    die removes one (a fixed trait, a stress type, keeps its row without a die)."""

    gm_only = True
    sheet_required = True

    def prepare(self, ctx: Table) -> None:
        template = ctx.system.sheet_template
        group = _table_owned(template.table_owned_groups(), ctx.request.get("group"), "dice")
        char = ctx.character()
        raw_name = ctx.request.get("trait")
        trait = char.trait(group.key, raw_name) if isinstance(raw_name, str) else None
        expected = ctx.param_int("version")
        adding = ctx.params.get("new") is True
        try:
            if trait is None:
                if group.fixed_names or not adding and expected is not None:
                    raise ActionError(f"{ctx.sheet.name} has no such {group.label.lower()}.")
                name = sheet_rules.clean_name(raw_name)
                if len(char.group(group.key)) >= group.max_traits:
                    raise ActionError(f"A sheet holds at most {group.max_traits} {group.label}.")
            else:
                if adding:
                    raise ActionError(f"{ctx.sheet.name} already has “{trait.name}”.")
                if expected is not None and trait.version != expected:
                    raise StaleSheetValue(f"“{trait.name}” changed since you loaded the sheet.")
                name = trait.name
            raw_die = ctx.request.get("die")
            die = None
            if raw_die not in (None, ""):
                die = sheet_rules.die_label(*sheet_rules.clean_die(group, raw_die)) or None
        except sheet_rules.FieldError as error:
            raise ActionError(str(error)) from None
        if die is None and trait is None:
            raise ActionError("Choose a die for it: d4, d6, d8, d10 or d12.")
        ctx.request.update(
            group=group.key,
            trait=name,
            die=die,
            held=(trait.die_label or None) if trait is not None else None,
            one=sheet_rules.singular(group.label).lower(),
            fixed=bool(group.fixed_names),
            character=ctx.sheet.name[:80],
        )

    def apply(self, ctx: Table, outcome: dict[str, Any]) -> None:
        ctx.set_die(ctx.sheet, outcome["group"], outcome["trait"], outcome["die"])


TABLE_HANDLERS["set_counter"] = SetCounter()
TABLE_HANDLERS["set_die"] = SetDie()

# ---- The scene's action order and spotlight (rules.kit.order): the same actions in every
# game, so they are the table's own; each game's ORDER says which kind of order they play.
TABLE_ACTIONS.update(order.ACTIONS)
TABLE_HANDLERS.update(order.TRANSITIONS)


def handler_for(system: GameSystem, action: str) -> Transition:
    """The game's transition for the action, else the table's own, else the default."""
    return system.table.get(action) or TABLE_HANDLERS.get(action, DEFAULT)
