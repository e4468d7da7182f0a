"""Changes to sheets, traits and counters.

Every change to an existing row is one conditional UPDATE … WHERE version =
the version the editor loaded, so an edit made on stale data is refused
(Conflict, carrying the row as it is now) and nothing of the other person's is
overwritten. Values are checked by sheets.validation before anything is
written; after the transaction commits, sheets.live tells the other browsers.

Table-owned fields (plot points, stress, ...: `table_owned` in the game's sheet
template) change at the table. A change made from a page names its `Editor`: a
player's is refused (TableOwned) and a GM's becomes an event in the roll log,
written through sheets.table_hook in the same transaction. Code that builds
sheets (the demo, fixtures) names no editor and writes directly.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import F, Q

from campaigns.models import Campaign, Membership

from . import limits, live, table_hook
from . import validation as v
from .models import Counter, Sheet, Trait


class SheetError(Exception):
    """A refused change; `errors` maps fields to the messages shown beside them."""

    def __init__(self, errors: Mapping[str, str] | str):
        if isinstance(errors, str):
            errors = {"": errors}
        self.errors = dict(errors)
        super().__init__("; ".join(self.errors.values()))


class Conflict(Exception):
    """The row changed since the editor loaded it; `current` is the row as it is now."""

    def __init__(self, current):
        super().__init__("changed since you loaded it")
        self.current = current


class Gone(Exception):
    """The row was removed since the editor loaded it."""


class TableOwned(SheetError):
    """A player tried to change what changes only at the table; nothing was changed."""


@dataclass(frozen=True)
class Editor:
    """Who changes a sheet from a page: table-owned fields route on it."""

    user: Any
    is_gm: bool


def _refuse_player(spec, editor: Editor | None, field: str = "") -> None:
    """Players change no table-owned counter or group on the sheet (issue: nobody
    changes plot points, stress, ... silently)."""
    if spec.table_owned and editor is not None and not editor.is_gm:
        raise TableOwned({field: v.at_the_table(spec.label)})


def _through_table(spec, editor: Editor | None) -> bool:
    """A GM's change of a table-owned field is written as a table event."""
    return spec.table_owned and editor is not None and editor.is_gm


# --------------------------------------------------------------------------- sheets


def member_choices(campaign: Campaign) -> list[tuple[int, str]]:
    """Who can own a player character: the campaign's players and GMs."""
    rows = (
        Membership.objects.filter(campaign=campaign, role__in=("player", "gm"))
        .select_related("user")
        .order_by("user__username")
    )
    return [(m.user_id, m.user.shown_name) for m in rows]


@transaction.atomic
def create_sheet(
    campaign: Campaign,
    *,
    name: str,
    kind: str,
    owner=None,
    npc_kind: str = "",
    hidden: bool = False,
    notes: str = "",
    overrides: Mapping[str, int] | None = None,
    counters: Mapping[str, int] | None = None,
    creator: Membership | None = None,
) -> Sheet:
    """A new sheet with its system's fixed traits and every counter at its default.
    A member who makes it from a page is its `creator`: refused at their cap
    (limits.AtSheetCap)."""
    template = v.template_for(campaign.system)
    if creator is not None:
        limits.claim(creator)
    sheet = Sheet.objects.create(
        campaign=campaign,
        created_by_id=creator.user_id if creator is not None else None,
        name=name,
        kind=kind,
        owner=owner if kind == v.KIND_PC else None,
        npc_kind=npc_kind if kind == v.KIND_NPC else "",
        hidden=hidden if kind == v.KIND_NPC else False,
        notes=notes,
        overrides=dict(overrides or {}),
    )
    fixed = []
    for group in template.groups:
        for position, fixed_name in enumerate(group.fixed_names):
            fixed.append(
                Trait(
                    sheet=sheet,
                    group=group.key,
                    name=fixed_name,
                    die=group.default_die if group.kind in v.DIE_KINDS else None,
                    rating=group.default_rating if group.kind == "rating" else None,
                    position=position,
                )
            )
    Trait.objects.bulk_create(fixed)
    values = counters or {}
    Counter.objects.bulk_create(
        [
            Counter(sheet=sheet, key=c.key, value=values.get(c.key, _starting(c, fixed)))
            for c in template.counters
        ]
    )
    return sheet


def _starting(spec, traits) -> int:
    """A counter's value on a new sheet: worked out from its traits when the game's
    sheet derives it (Life Points from attributes), its default otherwise."""
    derived = spec.derive(traits)
    return spec.default if derived is None else derived


def clean_sheet_changes(sheet: Sheet, changes: Mapping[str, object]) -> dict:
    """Model updates for the sheet's own fields, or SheetError with every bad field."""
    system = sheet.campaign.system
    template = v.template_for(system)
    updates: dict = {}
    errors: dict[str, str] = {}
    overrides = dict(sheet.overrides or {})
    for name, raw in changes.items():
        try:
            if name == "name":
                updates["name"] = v.clean_name(raw)
            elif name == "notes":
                updates["notes"] = v.clean_notes(raw, limit=v.MAX_SHEET_NOTES)
            elif name == "hidden":
                if sheet.kind != v.KIND_NPC:
                    raise v.FieldError("Only GM characters can be hidden.")
                updates["hidden"] = v.clean_flag(raw)
            elif name == "npc_kind":
                updates["npc_kind"] = v.clean_npc_kind(template, sheet.kind, raw)
            elif name == "owner":
                if sheet.kind != v.KIND_PC:
                    raise v.FieldError("GM characters have no owner.")
                owners = dict(member_choices(sheet.campaign))
                try:
                    owner_id = int(str(raw))
                except ValueError:
                    raise v.FieldError("Choose a player of this campaign.") from None
                if owner_id not in owners:
                    raise v.FieldError("Choose a player of this campaign.")
                updates["owner_id"] = owner_id
            elif name.startswith("override_") and name[9:] in v.SCORE_KEYS:
                if not v.has_scores(system, sheet.kind, updates.get("npc_kind", sheet.npc_kind)):
                    raise v.FieldError("Only Guest Stars and Adversaries have Ability Scores.")
                score = v.clean_score_override(raw)
                if score is None:
                    overrides.pop(name[9:], None)
                else:
                    overrides[name[9:]] = score
                updates["overrides"] = overrides
            else:
                raise v.FieldError("That cannot be changed here.")
        except v.FieldError as error:
            errors[name] = str(error)
    if errors:
        raise SheetError(errors)
    return updates


@transaction.atomic
def save_sheet(sheet: Sheet, changes: Mapping[str, object], version: object) -> Sheet:
    """Save the sheet's own fields if nobody changed the sheet since `version`."""
    updates = clean_sheet_changes(sheet, changes)
    loaded = _version(version)
    if not updates:
        return sheet
    rows = Sheet.objects.filter(pk=sheet.pk, version=loaded).update(
        **updates, version=F("version") + 1
    )
    if rows == 0:
        current = Sheet.objects.select_related("campaign").filter(pk=sheet.pk).first()
        if current is None:
            raise Gone()
        raise Conflict(current)
    was_hidden = sheet.hidden
    for key, value in updates.items():
        setattr(sheet, key, value)
    sheet.version = loaded + 1
    live.sheet_changed(sheet, also_players=was_hidden and not sheet.hidden)
    return sheet


@transaction.atomic
def delete_sheet(sheet: Sheet) -> None:
    live.sheet_removed(sheet)
    sheet.delete()


# --------------------------------------------------------------------------- traits


def _lock(sheet: Sheet) -> None:
    """Serialize structural changes (adding, reordering) to one sheet. NO KEY, so a roll
    that writes a trait or an event of this sheet meanwhile is not blocked by it
    (campaigns.locking's order)."""
    rows = Sheet.objects.select_for_update(no_key=True).filter(pk=sheet.pk)
    rows.values_list("pk", flat=True).first()


def _version(value: object) -> int:
    try:
        number = int(str(value))
    except (TypeError, ValueError):
        raise SheetError({"version": "This form is out of date: reload the page."}) from None
    if number < 1:
        raise SheetError({"version": "This form is out of date: reload the page."})
    return number


def _reference_choices(sheet: Sheet, target_group: str) -> dict[str, str]:
    """The traits of this sheet a trait can be filed under, by id (as the form sends it)."""
    rows = Trait.objects.filter(sheet=sheet, group=target_group).values_list("pk", "name")
    return {str(pk): name for pk, name in rows}


def _taken_names(sheet: Sheet, group_key: str, exclude: int | None = None) -> set[str]:
    rows = Trait.objects.filter(sheet=sheet, group=group_key)
    if exclude is not None:
        rows = rows.exclude(pk=exclude)
    return {name.casefold() for name in rows.values_list("name", flat=True)}


def clean_trait_changes(sheet: Sheet, trait: Trait, changes: Mapping[str, object]) -> dict:
    """Model updates for some fields of an existing trait, or SheetError with every bad field."""
    system = sheet.campaign.system
    template = v.template_for(system)
    group = template.group(trait.group)
    updates: dict = {}
    errors: dict[str, str] = {}
    flags = dict(trait.flags or {})
    for name, raw in changes.items():
        try:
            if name == "name":
                new = v.clean_name(raw)
                v.check_renamable(group, trait.name, new)
                if new.casefold() != trait.name.casefold():
                    v.check_unique(group, new, _taken_names(sheet, group.key, exclude=trait.pk))
                updates["name"] = new
            elif name == "die":
                updates["die"], updates["plus_die"] = v.clean_die(group, raw)
            elif name == "rating":
                updates["rating"] = v.clean_rating(group, raw)
            elif name == "notes":
                updates["notes"] = v.clean_notes(raw)
            elif name in ("parent", "link"):
                relation = v.reference_of(group)
                if relation is None or relation[0] != name:
                    raise v.FieldError(f"{group.label} are not filed under anything.")
                choices = _reference_choices(sheet, relation[1])
                updates[f"{name}_id"] = int(v.clean_reference(group, template, raw, choices))
            elif name.startswith("flag_"):
                flag = name[5:]
                if flag not in v.flags_for(system, group):
                    raise v.FieldError(f"{group.label} have no flag called {flag[:40]!r}.")
                if v.clean_flag(raw):
                    flags[flag] = True
                else:
                    flags.pop(flag, None)
                updates["flags"] = flags
            else:
                raise v.FieldError("That cannot be changed here.")
        except v.FieldError as error:
            errors[name] = str(error)
    if errors:
        raise SheetError(errors)
    return updates


def _current(sheet: Sheet, trait_id: int) -> Trait:
    trait = Trait.objects.filter(pk=trait_id, sheet=sheet).first()
    if trait is None:
        raise Gone()
    return trait


def _conditional_update(sheet: Sheet, trait: Trait, loaded: int, updates: dict) -> Trait:
    rows = Trait.objects.filter(pk=trait.pk, sheet=sheet, version=loaded).update(
        **updates, version=F("version") + 1
    )
    if rows == 0:
        raise Conflict(_current(sheet, trait.pk))
    for key, value in updates.items():
        setattr(trait, key, value)
    trait.version = loaded + 1
    return trait


def _group_of(sheet: Sheet, trait: Trait):
    return v.template_for(sheet.campaign.system).group(trait.group)


@transaction.atomic
def save_trait(
    sheet: Sheet,
    trait_id: int,
    changes: Mapping[str, object],
    version: object,
    *,
    editor: Editor | None = None,
) -> Trait:
    """Save some fields of a trait if nobody changed it since `version`. A GM's new die
    in a table-owned group is logged at the table first; the other fields follow."""
    trait = _current(sheet, trait_id)
    group = _group_of(sheet, trait)
    _refuse_player(group, editor)
    updates = clean_trait_changes(sheet, trait, changes)
    loaded = _version(version)
    if trait.version != loaded:
        raise Conflict(trait)
    if _through_table(group, editor) and "die" in updates:
        die, plus = updates.pop("die"), updates.pop("plus_die")
        if (die, plus) != (trait.die, trait.plus_die):
            label = v.die_label(die, plus) or None
            trait = table_hook.writer().set_die(
                sheet, editor.user, group.key, trait.name, label, loaded
            )
            loaded = trait.version
        if not updates:
            return trait
    old_name = trait.name
    before = _derived_now(sheet)
    trait = _conditional_update(sheet, trait, loaded, updates)
    live.trait_changed(sheet, trait, renamed=trait.name != old_name)
    _follow_traits(sheet, before)
    return trait


@dataclass
class Stepped:
    trait: Trait
    removed: bool


@transaction.atomic
def step_trait(
    sheet: Sheet, trait_id: int, direction: str, version: object, *, editor: Editor | None = None
) -> Stepped:
    """Step a die up or down; a d4 stepped down is removed (a fixed trait just loses its die)."""
    trait = _current(sheet, trait_id)
    group = _group_of(sheet, trait)
    _refuse_player(group, editor, "die")
    loaded = _version(version)
    if trait.version != loaded:
        raise Conflict(trait)
    try:
        result = v.step(group, trait.die, trait.plus_die, direction)
    except v.FieldError as error:
        raise SheetError({"die": str(error)}) from None
    if _through_table(group, editor):
        if result.removed:
            _check_removable(sheet, trait)
        label = None if result.removed else (v.die_label(result.die, result.plus_die) or None)
        after = table_hook.writer().set_die(
            sheet, editor.user, group.key, trait.name, label, loaded
        )
        return Stepped(after or trait, removed=after is None)
    if result.removed:
        _remove(sheet, trait, loaded)
        return Stepped(trait, removed=True)
    trait = _conditional_update(
        sheet, trait, loaded, {"die": result.die, "plus_die": result.plus_die}
    )
    live.trait_changed(sheet, trait)
    return Stepped(trait, removed=False)


def _remove(sheet: Sheet, trait: Trait, loaded: int) -> None:
    _check_removable(sheet, trait)
    rows = Trait.objects.filter(pk=trait.pk, sheet=sheet, version=loaded).delete()[0]
    if rows == 0:
        raise Conflict(_current(sheet, trait.pk))
    live.group_changed(sheet, trait.group)


def _check_removable(sheet: Sheet, trait: Trait) -> None:
    """Fixed traits stay on every sheet; a trait others are filed under stays until they go."""
    group = v.template_for(sheet.campaign.system).group(trait.group)
    if group.fixed_names:
        raise SheetError(
            f"“{trait.name}” is part of every sheet of this game and cannot be removed."
        )
    dependants = list(
        Trait.objects.filter(Q(parent=trait) | Q(link=trait)).values_list("group", flat=True)[:1]
    )
    if dependants:
        what = v.template_for(sheet.campaign.system).group(dependants[0]).label
        raise SheetError(
            f"{what} belong to “{trait.name}”: remove them or move them to another "
            f"{v.singular(group.label)} first."
        )


@transaction.atomic
def delete_trait(
    sheet: Sheet, trait_id: int, version: object, *, editor: Editor | None = None
) -> Trait:
    trait = _current(sheet, trait_id)
    group = _group_of(sheet, trait)
    _refuse_player(group, editor, "row")
    loaded = _version(version)
    if trait.version != loaded:
        raise Conflict(trait)
    if _through_table(group, editor):
        _check_removable(sheet, trait)
        table_hook.writer().set_die(sheet, editor.user, group.key, trait.name, None, loaded)
        return trait
    before = _derived_now(sheet)
    _remove(sheet, trait, loaded)
    _follow_traits(sheet, before)
    return trait


@transaction.atomic
def move_trait(
    sheet: Sheet, trait_id: int, direction: str, *, editor: Editor | None = None
) -> Trait:
    """Swap a trait with its neighbour in the group (positions are renumbered 0..n-1)."""
    trait = _current(sheet, trait_id)
    _refuse_player(_group_of(sheet, trait), editor)
    if direction not in ("up", "down"):
        raise SheetError("Move up or move down.")
    _lock(sheet)
    rows = list(Trait.objects.filter(sheet=sheet, group=trait.group).order_by("position", "pk"))
    index = next(i for i, t in enumerate(rows) if t.pk == trait.pk)
    other = index - 1 if direction == "up" else index + 1
    if not 0 <= other < len(rows):
        return trait
    rows[index], rows[other] = rows[other], rows[index]
    changed = [t for position, t in enumerate(rows) if t.position != position]
    for position, t in enumerate(rows):
        t.position = position
    Trait.objects.bulk_update(changed, ["position"])
    live.group_changed(sheet, trait.group)
    return trait


@transaction.atomic
def add_trait(
    sheet: Sheet,
    group_key: str,
    data: Mapping[str, object],
    flags: Mapping[str, object],
    *,
    editor: Editor | None = None,
) -> Trait:
    """Add a trait. In a table-owned group a GM's new trait is logged at the table
    (the log's lock is taken before the sheet's, as every table action takes it)."""
    system = sheet.campaign.system
    template = v.template_for(system)
    try:
        group = template.group(group_key)
    except KeyError:
        raise SheetError("This sheet has no such group.") from None
    _refuse_player(group, editor)
    if group.fixed_names:
        raise SheetError(f"{group.label} are always the same: they cannot be added.")
    logged = _through_table(group, editor)
    if not logged:
        _lock(sheet)
    existing = list(
        Trait.objects.filter(sheet=sheet, group=group.key).values_list("name", "position")
    )
    if len(existing) >= group.max_traits:
        raise SheetError(f"A sheet holds at most {group.max_traits} {group.label}.")
    relation = v.reference_of(group)
    choices = _reference_choices(sheet, relation[1]) if relation else {}
    values, errors = v.clean_trait(
        system,
        group,
        data,
        choices=choices,
        taken={name.casefold() for name, _ in existing},
        flag_values=flags,
    )
    if errors:
        raise SheetError(errors)
    if not flags and values.get("name"):
        values["flags"] = v.default_flags(system, group, values["name"])
    if logged:
        return _add_at_the_table(sheet, group, values, editor)
    before = _derived_now(sheet)
    trait = Trait.objects.create(
        sheet=sheet,
        group=group.key,
        name=values["name"],
        die=values["die"],
        plus_die=values["plus_die"],
        rating=values["rating"],
        notes=values["notes"],
        flags=values["flags"],
        parent_id=int(values["parent"]) if values.get("parent") else None,
        link_id=int(values["link"]) if values.get("link") else None,
        position=(max((p for _, p in existing), default=-1) + 1),
    )
    live.group_changed(sheet, group.key)
    _follow_traits(sheet, before)
    return trait


def _add_at_the_table(sheet: Sheet, group, values: dict, editor: Editor) -> Trait:
    """The table writes the new trait and its die; its notes, flags and place follow."""
    label = v.die_label(values["die"], values["plus_die"]) or None
    trait = table_hook.writer().set_die(sheet, editor.user, group.key, values["name"], label, None)
    _lock(sheet)
    others = Trait.objects.filter(sheet=sheet, group=group.key).exclude(pk=trait.pk)
    position = max(others.values_list("position", flat=True), default=-1) + 1
    extra = {
        "notes": values["notes"],
        "flags": values["flags"],
        "parent_id": int(values["parent"]) if values.get("parent") else None,
        "link_id": int(values["link"]) if values.get("link") else None,
        "position": position,
    }
    Trait.objects.filter(pk=trait.pk).update(**extra)
    for key, value in extra.items():
        setattr(trait, key, value)
    return trait


# --------------------------------------------------------------------------- derived counters


def _derived_now(sheet: Sheet) -> dict[str, int]:
    """The derived counters' values as the sheet's traits give them now ({} when the
    game derives none, without a query)."""
    specs = v.template_for(sheet.campaign.system).derived_counters()
    if not specs:
        return {}
    traits = list(Trait.objects.filter(sheet=sheet).only("group", "name", "die", "rating"))
    return {spec.key: spec.derive(traits) for spec in specs}


def _follow_traits(sheet: Sheet, before: Mapping[str, int]) -> None:
    """After a trait changed: a derived counter that still holds the value worked out
    before moves to the new one; one that differs (damage taken, the GM's own number)
    stays as it is."""
    if not before:
        return
    for key, value in _derived_now(sheet).items():
        if value == before[key]:
            continue
        counter = Counter.objects.filter(sheet=sheet, key=key, value=before[key]).first()
        if counter is None:
            continue
        rows = Counter.objects.filter(pk=counter.pk, version=counter.version).update(
            value=value, version=F("version") + 1
        )
        if rows:
            counter.value, counter.version = value, counter.version + 1
            live.counter_changed(sheet, counter)


# --------------------------------------------------------------------------- counters


@transaction.atomic
def save_counter(
    sheet: Sheet,
    key: str,
    raw: object,
    version: object,
    *,
    delta: int = 0,
    editor: Editor | None = None,
) -> Counter:
    """Set a counter (or move it by `delta`) if nobody changed it since `version`. A GM's
    change of a table-owned counter is a logged table event; a player's is refused."""
    system = sheet.campaign.system
    template = v.template_for(system)
    try:
        spec = template.counter(key)
    except KeyError:
        raise Gone() from None
    _refuse_player(spec, editor, "value")
    counters = {c.key: c for c in Counter.objects.filter(sheet=sheet)}
    counter = counters.get(key)
    if counter is None:
        counter = Counter.objects.create(sheet=sheet, key=key, value=spec.default)
        counters[key] = counter
    loaded = _version(version)
    if counter.version != loaded:
        raise Conflict(counter)
    if delta:
        raw = counter.value + delta
    values = {k: c.value for k, c in counters.items()}
    try:
        value = v.clean_counter(template, system, key, raw, values)
    except v.FieldError as error:
        raise SheetError({"value": str(error)}) from None
    if _through_table(spec, editor):
        if value == counter.value:
            return counter
        return table_hook.writer().set_counter(sheet, editor.user, key, value, loaded)
    rows = Counter.objects.filter(pk=counter.pk, version=loaded).update(
        value=value, version=F("version") + 1
    )
    if rows == 0:
        raise Conflict(Counter.objects.get(pk=counter.pk))
    counter.value = value
    counter.version = loaded + 1
    live.counter_changed(sheet, counter)
    return counter
