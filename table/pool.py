"""The pool builder: a sheet's clicked traits turned into a rules request, per system.

Pure functions over a sheet's traits and the builder's form data, so the page,
the odds fragment and the tests all share one reading of the pool rules. Rules
are enforced as the player clicks: a click that would break a pool rule
replaces the trait it conflicts with (a second Stylin' replaces the first), and
traits that cannot join are shown disabled with the reason. What the rules
module itself refuses is reported as `errors`; a pool with errors cannot be
rolled.

- SER-1: one Stylin', only the Refinements filed under it, at most one Value
  (optionally challenged, SER-9), any Aspects, Resources and Assets; plot points
  add dice to the result (SER-8).
- CTX-1: one Attribute, one Distinction, one or more Skills, any Assets and
  Talents; the Big Hero Die costs 1 plot point (CTX-6).
- SER-1, SER-10, CTX-1, CTX-7: the table's own Assets (a scene Asset, or a session
  Asset promoted by an extraordinary success) join a pool as {"group": "assets",
  "trait": name}. They are clicked by name in the `table_asset` field, never as
  trait ids; only names the table holds now count, and the die shown is the one the
  server read (table.state.fill_pool takes it from the table again when rolling).
- SMV-1..SMV-7: the Value and first Relationship are free, the first Ability or
  Distinction is free and every further one costs 1 plot point; Resources roll
  in a side pool; the cost is shown before rolling.
- PER-1: one skill (a number of d10s) plus one attribute; the skill's own
  attribute is picked with it. PER-9: the goal is stated before the roll. A
  player's bonus dice and difficulty are the GM's (granted, set for the scene),
  shown read-only; the GM types them for GM characters.
- UNI-1, UNI-2, UNI-4: an attribute, a skill or not (the kind of roll), named
  difficulty presets and a free modifier; Qualities and Drawbacks add their
  ratings as named modifiers. A player's difficulty is the one the GM set.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.cortex_slots import rolls as cortex_slots_rolls
from rules.kit.errors import RulesError
from rules.personae import reading as personae_reading
from rules.registry import get_system
from rules.serenity import actions as serenity_actions
from rules.smallville import actions as smallville_actions
from rules.smallville import sheet as smallville_sheet
from rules.unisystem import rolls as unisystem_rolls
from rules.unisystem import sheet as unisystem_sheet

# Groups a player can click, per system (the others are the opposition's or the scene's).
CLICKABLE: dict[str, tuple[str, ...]] = {
    "serenity": ("stylins", "refinements", "values", "aspects", "resources", "assets"),
    "cortex_slots": ("attributes", "distinctions", "skills", "assets", "talents"),
    "smallville": ("values", "relationships", "abilities", "distinctions", "locations", "extras"),
    "personae": ("skills", "attributes"),
    "unisystem": ("attributes", "skills", "qualities", "drawbacks"),
}
# At most one trait of these groups: a new click replaces the old one.
ONE_OF: dict[str, tuple[str, ...]] = {
    "serenity": ("stylins", "values"),
    "cortex_slots": ("attributes", "distinctions"),
    "smallville": ("values",),
    "personae": ("skills", "attributes"),
    "unisystem": ("skills",),
}
# The action the builder's Roll button performs, per system.
ROLL_ACTION = {
    "serenity": "roll",
    "cortex_slots": "roll",
    "smallville": "roll",
    "personae": "challenge",
    "unisystem": "task",
}
UNI_KINDS = (
    ("task", "Task: attribute + skill"),
    ("simple_test", "Simple Test: attribute doubled"),
    ("difficult_test", "Difficult Test: attribute once"),
    ("two_attributes", "Two attributes"),
)
UNI_DIFFICULTIES = tuple(
    (key, d.label, d.default) for key, d in unisystem_rolls.DIFFICULTIES.items()
)
MAX_PLOT_POINTS_IN_ROLL = 20
# Systems whose pools take scene and session Assets (SER-1, SER-10; CTX-1, CTX-7).
TABLE_ASSET_SYSTEMS = ("serenity", "cortex_slots")
TABLE_ASSET_LABEL = "Scene and session Assets"
MAX_TABLE_ASSET_FIELDS = 50  # more than any table keeps; the rest of a flood is not read


@dataclass
class Choice:
    """One clickable trait as the builder shows it."""

    id: int
    group: str
    name: str
    label: str  # "d8", "d12+d6" or the rating
    selected: bool = False
    disabled: bool = False
    note: str = ""  # why it is disabled, what it costs, what it is filed under


@dataclass
class AssetChoice:
    """A scene or session Asset the builder offers, with the die the table holds for it."""

    name: str
    die: str
    scope: str  # "scene" or "session"
    selected: bool = False


@dataclass
class Pool:
    """The builder's state after a click: what is chosen, the request, and what is wrong."""

    system: str
    action: str
    groups: list[tuple[str, str, list[Choice]]]  # (key, label, choices)
    selected: list[int]
    options: dict[str, Any]
    request: dict[str, Any] | None
    errors: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    cost: int = 0
    cost_lines: list[str] = field(default_factory=list)
    assets: list[AssetChoice] = field(default_factory=list)  # the table's, not the sheet's
    asset_label: str = TABLE_ASSET_LABEL
    # d10 games: the GM's difficulty and bonus dice, and whether the GM builds (see build).
    table: dict[str, Any] = field(default_factory=dict)

    @property
    def ready(self) -> bool:
        return self.request is not None and not self.errors

    @property
    def untouched(self) -> bool:
        """Nothing picked yet: the builder invites a pick instead of listing what is
        wrong with an empty pool."""
        return not self.selected and not any(a.selected for a in self.assets)

    def choice(self, trait_id: int) -> Choice | None:
        for _, _, choices in self.groups:
            for c in choices:
                if c.id == trait_id:
                    return c
        return None


# --------------------------------------------------------------------------- form data


def _ints(values: Iterable[object]) -> list[int]:
    out: list[int] = []
    for v in values:
        try:
            n = int(str(v))
        except (TypeError, ValueError):
            continue
        if n not in out:
            out.append(n)
    return out


def _getlist(data: Mapping, key: str) -> list:
    if hasattr(data, "getlist"):
        return data.getlist(key)
    value = data.get(key, [])
    return list(value) if isinstance(value, list | tuple) else [value]


def _int(data: Mapping, key: str, default: int | None, lo: int, hi: int) -> int | None:
    raw = data.get(key)
    if raw in (None, ""):
        return default
    try:
        value = int(str(raw))
    except ValueError:
        return default
    return max(lo, min(hi, value))


def _flag(data: Mapping, key: str) -> bool:
    return str(data.get(key, "")).lower() in {"1", "true", "on", "yes"}


def _die(trait) -> str:
    return trait.die_label


def _label(trait) -> str:
    return trait.die_label if trait.die else str(trait.rating if trait.rating is not None else "")


# --------------------------------------------------------------------------- the builder


def build(
    system: str,
    traits: Sequence,
    data: Mapping,
    *,
    counters: Mapping[str, int] | None = None,
    character: str = "",
    target: int | None = None,
    table_assets: Sequence[tuple[str, str, str]] = (),
    table: Mapping[str, Any] | None = None,
) -> Pool:
    """Read the builder's form data against a sheet's traits and enforce the pool rules.

    `data` holds "trait" (ids, in the order they were ticked), "clicked" (the id
    just clicked, which wins any conflict), "table_asset" (names of scene or session
    Assets) and the system's options. `target` is the number to beat taken from the
    scene (a difficulty or a contest's standing result), used where the request
    carries it. `table_assets` is what the table holds now: (name, die, scope).
    `table` is what the d10 games' builders take from the table for a player:
    {"gm": False, "difficulty": the scene's as they see it, "bonus_dice": the grant};
    without it (or with "gm": True) those fields are typed, as the GM does.
    """
    counters = dict(counters or {})
    game = get_system(system)
    clickable = [t for t in traits if t.group in CLICKABLE[system]]
    by_id = {t.pk: t for t in clickable}
    wanted = [i for i in _ints(_getlist(data, "trait")) if i in by_id]
    clicked = _ints([data.get("clicked")])
    clicked_id = clicked[0] if clicked and clicked[0] in by_id else None
    notes: list[str] = []
    selected = _enforce(system, by_id, wanted, clicked_id, data, notes)
    labels = {g.key: g.label for g in game.sheet_template.groups}
    groups = []
    for key in CLICKABLE[system]:
        members = [t for t in clickable if t.group == key]
        if not members:
            continue
        choices = [Choice(t.pk, key, t.name, _label(t), selected=t.pk in selected) for t in members]
        groups.append((key, labels.get(key, key.title()), choices))
    pool = Pool(
        system=system,
        action=ROLL_ACTION[system],
        groups=groups,
        selected=selected,
        options={},
        request=None,
        table=dict(table or {}),
    )
    chosen = [by_id[i] for i in selected]
    if system in TABLE_ASSET_SYSTEMS:
        pool.assets = _table_assets(table_assets, traits, data, notes)
    builder = BUILDERS[system]
    builder(pool, chosen, by_id, data, counters, character, target, traits)
    pool.notes = notes + pool.notes
    return pool


def _table_assets(
    offered: Sequence[tuple[str, str, str]],
    traits: Sequence,
    data: Mapping,
    notes: list[str],
) -> list[AssetChoice]:
    """SER-1, SER-10, CTX-1, CTX-7: the scene and session Assets the pool may take.

    Only what the table holds counts: a name the client sent that is not among them
    is left out with a note. An Asset named like one on the sheet is the sheet's (the
    server fills the sheet's die first), so it is not offered twice; a scene Asset
    hides a session one of the same name, as table.state.table_asset reads them.
    """
    own = {_norm(t.name) for t in traits if t.group == "assets"}
    choices: dict[str, AssetChoice] = {}
    for name, die, scope in offered:
        key = _norm(name)
        if key and die and key not in own and key not in choices:
            choices[key] = AssetChoice(str(name), str(die), str(scope))
    for raw in _getlist(data, "table_asset")[:MAX_TABLE_ASSET_FIELDS]:
        choice = choices.get(_norm(raw))
        if choice is not None:
            choice.selected = True
        elif str(raw).strip():
            note = f"“{str(raw).strip()[:40]}” is not a scene or session Asset now: left out."
            if note not in notes:
                notes.append(note)
    return list(choices.values())


def _norm(text: object) -> str:
    """Names compare as table.state.norm does: case, curly quotes and spaces aside."""
    return " ".join(str(text).replace("\u2019", "'").casefold().split())


def _asset_entries(pool: Pool) -> list[dict[str, Any]]:
    """The chosen table Assets as pool entries; the die is replaced by the table's on roll."""
    return [{"die": a.die, "trait": a.name, "group": "assets"} for a in pool.assets if a.selected]


def _enforce(
    system: str,
    by_id: Mapping[int, Any],
    wanted: list[int],
    clicked: int | None,
    data: Mapping,
    notes: list[str],
) -> list[int]:
    """Apply the "only one of" rules, the clicked trait winning; keep click order otherwise."""
    order = [i for i in wanted if i != clicked]
    if clicked is not None and clicked in wanted:
        order.append(clicked)  # the newest choice is last, so it wins below
    kept: list[int] = []
    singles = ONE_OF[system]
    if system == "unisystem" and str(data.get("kind", "task")) != "two_attributes":
        singles = (*singles, "attributes")
    for trait_id in reversed(order):
        trait = by_id[trait_id]
        if trait.group in singles:
            rival = next((k for k in kept if by_id[k].group == trait.group), None)
            if rival is not None:
                notes.append(
                    f"{by_id[rival].name} replaces {trait.name}: one {trait.group[:-1]} per roll."
                )
                continue
        if system == "unisystem" and trait.group == "attributes":
            same = [k for k in kept if by_id[k].group == "attributes"]
            if len(same) >= 2:
                notes.append(f"{trait.name} dropped: two attributes at most.")
                continue
        kept.append(trait_id)
    kept.reverse()
    if system == "serenity":
        kept = _serenity_refinements(by_id, kept, clicked, notes)
    if system == "personae":
        kept = _personae_link(by_id, kept, clicked)
    return kept


def _serenity_refinements(
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


def _personae_link(by_id: Mapping[int, Any], kept: list[int], clicked: int | None) -> list[int]:
    """PER-1: picking a skill picks the attribute it names (a later click can change it)."""
    if clicked is None or clicked not in kept or by_id[clicked].group != "skills":
        return kept
    link = by_id[clicked].link_id
    if link in by_id:
        kept = [k for k in kept if by_id[k].group != "attributes"] + [link]
    return kept


# --------------------------------------------------------------------------- per system


def _entry(trait, group: str | None = None) -> dict[str, Any]:
    return {"die": _die(trait), "trait": trait.name, "group": group or trait.group}


def _plot_points(pool: Pool, data: Mapping, counters: Mapping[str, int]) -> int:
    held = counters.get("plot_points", 0)
    spend = _int(data, "plot_points", 0, 0, MAX_PLOT_POINTS_IN_ROLL) or 0
    pool.options["plot_points"] = spend
    pool.options["plot_points_held"] = held
    return spend


def _serenity(pool, chosen, by_id, data, counters, character, target, traits=()) -> None:
    stylin = next((t for t in chosen if t.group == "stylins"), None)
    challenged = set(_ints(_getlist(data, "challenged")))
    entries = []
    for t in chosen:
        entry = _entry(t)
        if t.group == "refinements":
            entry["parent"] = t.parent.name if t.parent_id else ""
        if t.group == "values" and t.pk in challenged:
            entry["challenged"] = True
            pool.notes.append(f"{t.name} is challenged: three {t.die_label}, then it steps down.")
        entries.append(entry)
    entries += _asset_entries(pool)
    pool.options["challenged"] = sorted(challenged & set(pool.selected))
    for _, _, choices in pool.groups:
        for c in choices:
            trait = by_id[c.id]
            if c.group == "refinements":
                parent = trait.parent.name if trait.parent_id else "no Stylin'"
                c.note = f"under {parent}"
                if stylin is not None and trait.parent_id != stylin.pk:
                    c.note = f"only with {parent}"
    spend = _plot_points(pool, data, counters)
    request = {"pool": entries, "plot_points": spend}
    if spend:
        pool.cost, pool.cost_lines = spend, [f"{spend} plot point(s) to add dice to the result"]
    _check(pool, request, lambda r: serenity_actions.build_pool(r, gm=False))


def _cortex(pool, chosen, by_id, data, counters, character, target, traits=()) -> None:
    entries = [_entry(t) for t in chosen] + _asset_entries(pool)
    request: dict[str, Any] = {"pool": entries}
    hero = next((t for t in traits if t.group == "big_hero" and t.die), None)
    pool.options["big_hero"] = _flag(data, "big_hero") and hero is not None
    pool.options["big_hero_die"] = hero.die_label if hero is not None else ""
    held = counters.get("plot_points", 0)
    pool.options["plot_points_held"] = held
    if pool.options["big_hero"]:
        request["big_hero"] = {"die": hero.die_label, "trait": hero.name}
        request["plot_points"] = held
        pool.cost, pool.cost_lines = 1, ["1 plot point for the Big Hero Die (CTX-6)"]
    if target is not None:
        request["difficulty"] = target
    _check(pool, request, lambda r: cortex_slots_rolls.parse_player_pool(r["pool"]))
    if pool.options["big_hero"] and held < 1:
        pool.errors.append("The Big Hero Die costs 1 plot point, and none is left.")


def _smallville(pool, chosen, by_id, data, counters, character, target, traits=()) -> None:
    challenged = set(_ints(_getlist(data, "challenged")))
    heritage_roll = _flag(data, "heritage_roll")
    main, side = [], []
    for t in chosen:
        if t.group in smallville_sheet.SIDE_GROUPS:
            side.append({**_entry(t), "on_sheet": True, "used": False})
            continue
        entry = _entry(t)
        if t.group in ("values", "relationships") and t.pk in challenged:
            entry["challenged"] = True
        if t.group == "distinctions" and (t.flags or {}).get("heritage"):
            entry["heritage"] = True
        main.append(entry)
    pool.options["challenged"] = sorted(challenged & set(pool.selected))
    pool.options["heritage_roll"] = heritage_roll
    spend = _plot_points(pool, data, counters)
    request: dict[str, Any] = {"pool": main, "side_pool": side, "plot_points": spend}
    if heritage_roll:
        request["heritage_roll"] = True
    for _, _, choices in pool.groups:
        for c in choices:
            trait = by_id[c.id]
            if c.group == "distinctions" and (trait.flags or {}).get("heritage"):
                c.note = "Heritage: only on a roll about it"
                if not heritage_roll:
                    c.disabled = not c.selected
    built = _check(pool, request, lambda r: smallville_actions.build_pool(r, watchtower=False))
    if built is not None:
        lines = [f"{c['trait'] or c['die']}: {c['why']}" for c in built.costs if c["plot_points"]]
        pool.cost = built.dice_cost + spend
        pool.cost_lines = lines + ([f"{spend} for more dice in the result"] if spend else [])
        for c in built.costs:
            choice = next((x for x in _choices(pool) if x.selected and x.name == c["trait"]), None)
            if choice is not None:
                choice.note = "+1 plot point" if c["plot_points"] else "free"
        if pool.cost > counters.get("plot_points", 0):
            pool.errors.append(
                f"This pool costs {pool.cost} plot point(s); "
                f"{character or 'the character'} has {counters.get('plot_points', 0)}."
            )


def _from_table(pool: Pool) -> bool:
    """A player's d10 builder: the GM's numbers come from the table, read-only."""
    return pool.table.get("gm", True) is False


def _table_difficulty(pool: Pool) -> tuple[dict[str, Any] | None, bool]:
    """(the difficulty the GM set for the scene as this player sees it, whether it was set
    behind the screen): PER-1, UNI-4."""
    shown = pool.table.get("difficulty")
    if not isinstance(shown, Mapping):
        return None, False
    if shown.get("secret"):
        return None, True
    return (dict(shown) if isinstance(shown.get("value"), int) else None), False


SECRET_DIFFICULTY_NOTE = (
    "The GM set the difficulty behind the screen: the roll goes to the GM blind, and the "
    "GM reveals how it went."
)


def _personae(pool, chosen, by_id, data, counters, character, target, traits=()) -> None:
    skill = next((t for t in chosen if t.group == "skills"), None)
    attribute = next((t for t in chosen if t.group == "attributes"), None)
    modifiers = _int(data, "modifiers", 0, -20, 20) or 0
    goal = str(data.get("goal", "") or "").strip()[: personae_reading.MAX_GOAL]
    secret = False
    if _from_table(pool):
        # PER-1: bonus dice are granted by the GM and the number to beat is the GM's.
        grant = pool.table.get("bonus_dice")
        bonus = grant["dice"] if isinstance(grant, Mapping) and grant.get("dice") else 0
        shown, secret = _table_difficulty(pool)
        difficulty = shown["value"] if shown is not None else None
        pool.options.update(
            from_table=True,
            secret_difficulty=secret,
            bonus_note=(grant.get("note") or "") if bonus else "",
            difficulty_note=(shown.get("note") or "") if shown is not None else "",
        )
    else:
        bonus = _int(data, "bonus_dice", 0, 0, 10) or 0
        difficulty = _int(data, "difficulty", target, 1, 50)
    pool.options.update(bonus_dice=bonus, modifiers=modifiers, difficulty=difficulty, goal=goal)
    for _, _, choices in pool.groups:
        for c in choices:
            trait = by_id[c.id]
            if c.group == "skills" and trait.link_id in by_id:
                c.note = f"+ {by_id[trait.link_id].name}"
    if skill is None or attribute is None:
        pool.errors.append("Pick a skill (its dice) and an attribute (added to the best die).")
        return
    threshold = max(1, counters.get("potential_threshold", 3))
    actor = {
        "name": character or "Actor",
        "skill": skill.rating or 0,
        "skill_name": skill.name,
        "attribute": attribute.rating or 0,
        "attribute_name": attribute.name,
        "bonus_dice": bonus,
        "modifiers": modifiers,
        "potential_threshold": threshold,
        "criticals": min(counters.get("criticals", 0), threshold),
    }
    request: dict[str, Any] = {"actor": actor}
    if difficulty is not None:
        request["difficulty"] = difficulty
    elif secret:
        pool.notes.append(SECRET_DIFFICULTY_NOTE)
    elif _from_table(pool):
        pool.errors.append("The GM has not set a difficulty for this scene: ask the GM for one.")
    else:
        pool.errors.append("Give a difficulty to beat (or set the scene's on the dashboard).")
    if goal:
        request["goal"] = goal
    else:
        pool.errors.append("State the goal first: what happens if the challenge succeeds.")
    pool.request = request


def _unisystem(pool, chosen, by_id, data, counters, character, target, traits=()) -> None:
    kinds = [k for k, _ in UNI_KINDS]
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
    modifier = _int(data, "modifier", 0, -50, 50) or 0
    preset_value = None
    if _from_table(pool):
        # UNI-4: the task's difficulty is the one the GM set for the scene.
        shown, secret = _table_difficulty(pool)
        difficulty = str(shown.get("preset") or "") if shown is not None else ""
        preset = unisystem_rolls.DIFFICULTIES.get(difficulty)
        if preset is not None:
            preset_value = shown["value"]
        label = ""
        if preset is not None:
            shown_value = (
                f"+{preset_value}" if preset_value > 0 else unisystem_rolls.signed(preset_value)
            )
            label = f"{preset.label} ({shown_value})"
        pool.options.update(
            from_table=True,
            secret_difficulty=secret,
            difficulty_label=label,
            difficulty_note=(shown.get("note") or "") if shown is not None else "",
        )
        if secret:
            pool.notes.append(SECRET_DIFFICULTY_NOTE)
    else:
        difficulty = str(data.get("difficulty") or "")
        preset = unisystem_rolls.DIFFICULTIES.get(difficulty)
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
        "attribute_name": first.name if first.name in unisystem_sheet.ATTRIBUTES else None,
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
        if second.name in unisystem_sheet.ATTRIBUTES:
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
    _check(pool, request, lambda r: unisystem_rolls.parse_modifiers(r))


def _choices(pool: Pool) -> list[Choice]:
    return [c for _, _, choices in pool.groups for c in choices]


def _check(pool: Pool, request: dict[str, Any], validate) -> Any:
    """Run the rules module's own validation; its message becomes the builder's error."""
    pool.request = request
    try:
        return validate(request)
    except RulesError as error:
        message = str(error)
        pool.errors.append(message[:1].upper() + message[1:])
        return None


BUILDERS = {
    "serenity": _serenity,
    "cortex_slots": _cortex,
    "smallville": _smallville,
    "personae": _personae,
    "unisystem": _unisystem,
}
