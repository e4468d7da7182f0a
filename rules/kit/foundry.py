"""Reading a Foundry VTT actor of the Cortex Prime system into a game's sheet.

The community Cortex Prime system for Foundry VTT ("cortexprime") keeps a character's
traits in `system.actorType`: `traitSets` (each a label such as "Distinctions" and its
`traits`, each with a `name`, an optional `label`, `dice.value` as {"0": "8"}, and its
`sfx`, `descriptors` and `subTraits`), `simpleTraits`, `assets` and `complications`
(a label and dice), `notes`; plot points are `system.pp.value`. Older exports put the
same under `data` instead of `system`, and may hold lists instead of numbered objects.

A game that reads such actors declares a `FoundryReading` (its `FOUNDRY`): which trait
set goes to which of its sheet groups. `read_actor` turns an actor into the import
format's terms (traits by group, dice as "d8") and says, line by line, what it took and
what it left out and why, in the game's words; the sheets app then checks the result
as strictly as any imported sheet. Everything here is a pure function of the document:
anything that is not the shape above is left out with a reason, never an exception.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from .sheet import SheetTemplate, TraitGroup

SYSTEM_ID = "cortexprime"
SOURCE = "a Foundry VTT actor of the Cortex Prime system"
SIZES = (4, 6, 8, 10, 12)
MAX_NAME = 80
MAX_NOTES = 500
MAX_SHEET_NOTES = 4000
SHOWN = 60
DEFAULT_NAME = "Foundry character"


@dataclass(frozen=True)
class FoundrySet:
    """Trait sets read into one sheet group: their labels as Foundry users name them (any
    case, spacing or apostrophes), and flags their traits take ("signature")."""

    labels: tuple[str, ...]
    group: str
    flags: tuple[str, ...] = ()


@dataclass(frozen=True)
class FoundryReading:
    """How a game reads a Cortex Prime actor: its trait sets by label, and where the
    actor's Assets and Complications go (None: nowhere, each said in the report)."""

    sets: tuple[FoundrySet, ...]
    assets: str | None = None
    complications: str | None = None
    plot_points: str | None = None
    why_not: Mapping[str, str] = field(default_factory=dict)  # a label -> why it is left

    def target(self, label: str) -> FoundrySet | None:
        wanted = normal(label)
        for item in self.sets:
            if wanted in {normal(x) for x in item.labels}:
                return item
        return None


@dataclass
class Reading:
    """An actor in the import format's terms, with what was taken and what was not."""

    name: str
    notes: str
    counters: dict[str, int]
    traits: dict[str, list[dict]]
    taken: list[str] = field(default_factory=list)
    left: list[tuple[str, str]] = field(default_factory=list)  # (what, why)

    def body(self) -> dict:
        return {
            "name": self.name,
            "kind": "pc",
            "notes": self.notes,
            "counters": dict(self.counters),
            "traits": {k: [dict(r) for r in rows] for k, rows in self.traits.items()},
        }


def normal(label: str) -> str:
    """A label as compared: lower case, letters and digits only, no plural s."""
    text = re.sub(r"[^0-9a-z]", "", label.casefold())
    return text[:-1] if text.endswith("s") and len(text) > 3 else text


def shown(value: object, limit: int = SHOWN) -> str:
    text = value if isinstance(value, str) else str(value)
    text = " ".join("".join(ch if ch.isprintable() else " " for ch in text[: limit * 2]).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def plain(value: object) -> str:
    """Foundry's rich text as plain text: tags dropped, entities read, spaces tidied."""
    if not isinstance(value, str):
        return ""
    text = re.sub(r"<br\s*/?>|</p>|</li>|</div>", "\n", value, flags=re.IGNORECASE)
    text = html.unescape(re.sub(r"<[^>]*>", "", text))
    lines = (" ".join(line.split()) for line in text.splitlines())
    return "\n".join(line for line in lines if line)


def _digits(text: str) -> bool:
    """Plain 0-9 digits (str.isdigit also takes superscripts, which int() refuses)."""
    return text.isascii() and text.isdigit()


def entries(value: object) -> list[object]:
    """A Foundry collection, stored as a numbered object ({"0": …, "1": …}) or a list."""
    if isinstance(value, list):
        return list(value)
    if isinstance(value, Mapping):

        def order(key: object) -> tuple[int, str]:
            text = str(key)
            return (int(text), text) if _digits(text) and len(text) < 10 else (1 << 40, text)

        return [value[k] for k in sorted(value, key=order)]
    return []


# What a Foundry export holds beside its data, to tell an old export's `data` from any
# document that happens to have one.
MARKS = frozenset({"_id", "prototypeToken", "token", "items", "effects", "_stats", "img"})


def actor_data(doc: object) -> Mapping | None:
    """The actor's own data (`system`, or `data` in exports before Foundry v10)."""
    if not isinstance(doc, Mapping):
        return None
    if isinstance(doc.get("system"), Mapping):
        return doc["system"]
    if isinstance(doc.get("data"), Mapping) and MARKS & set(doc):
        return doc["data"]
    return None


def system_id(doc: object) -> str | None:
    """Which Foundry game system made this actor: "cortexprime", another system's id,
    "" for a Foundry actor that does not say, None for no Foundry actor at all."""
    data = actor_data(doc)
    if data is None:
        return None
    stats = doc.get("_stats") if isinstance(doc, Mapping) else None
    said = stats.get("systemId") if isinstance(stats, Mapping) else None
    if isinstance(said, str) and said.strip():
        return said.strip()
    if isinstance(data.get("actorType"), Mapping):
        return SYSTEM_ID
    return ""


def dice_of(value: object) -> tuple[list[int], list[str]]:
    """The die sizes in a Foundry `dice` ({"value": {"0": "8"}}), and what was not a die."""
    raw = value.get("value") if isinstance(value, Mapping) else value
    sizes, odd = [], []
    for item in entries(raw):
        text = str(item).strip().lower().removeprefix("d") if isinstance(item, (str, int)) else ""
        if isinstance(item, bool) or not _digits(text) or int(text) not in SIZES:
            odd.append(shown(item, 12))
        else:
            sizes.append(int(text))
    return sizes, odd


def die_for(group: TraitGroup, sizes: list[int]) -> tuple[str | None, str]:
    """The one die (or d12+dN where the group takes it) a Rollcall trait keeps, and a
    note when the Foundry trait had more."""
    if not sizes:
        return None, ""
    ordered = sorted(sizes, reverse=True)
    if len(ordered) == 1:
        return f"d{ordered[0]}", ""
    rolled = "+".join(f"d{s}" for s in ordered)
    if group.kind == "die_or_compound" and len(ordered) == 2 and ordered[0] == 12:
        return rolled, ""
    return f"d{ordered[0]}", f" (Foundry had {rolled}; a trait here holds one die)"


def _title(trait: Mapping, has_label: bool) -> str:
    name = trait.get("name") if isinstance(trait.get("name"), str) else ""
    label = trait.get("label") if isinstance(trait.get("label"), str) else ""
    first, second = (label, name) if has_label else (name, label)
    return " ".join((first.strip() or second.strip()).split())


def _notes(trait: Mapping) -> str:
    parts = []
    description = plain(trait.get("description"))
    if description:
        parts.append(description)
    for d in entries(trait.get("descriptors")):
        if isinstance(d, Mapping):
            text = ": ".join(x for x in (plain(d.get("label")), plain(d.get("value"))) if x)
            if text:
                parts.append(text)
    for sfx in entries(trait.get("sfx")):
        if isinstance(sfx, Mapping) and sfx.get("unlocked", True) is not False:
            label, text = plain(sfx.get("label")), plain(sfx.get("description"))
            if label or text:
                parts.append(f"SFX {label}: {text}".rstrip(": ") if label else f"SFX: {text}")
    return "\n".join(parts)


class _Sheet:
    """The reading under way: rows by group, what each group already holds."""

    def __init__(self, template: SheetTemplate):
        self.template = template
        self.groups = {g.key: g for g in template.groups}
        self.rows: dict[str, list[dict]] = {}
        self.names: dict[str, set[str]] = {}
        self.taken: list[str] = []
        self.left: list[tuple[str, str]] = []

    def child_of(self, key: str) -> TraitGroup | None:
        return next((g for g in self.template.groups if g.parent == key), None)

    def add(self, where: str, trait: Mapping, key: str, *, flags=(), parent=None, title=None):
        """One Foundry trait into the group `key`; True when it was taken."""
        group = self.groups[key]
        name = title if title is not None else _title(trait, True)
        what = f"{where} “{shown(name)}”" if name else where
        if not name:
            self.left.append((where, "it has no name."))
            return False
        if group.fixed_names:
            canon = {n.casefold(): n for n in group.fixed_names}
            if name.casefold() not in canon:
                self.left.append(
                    (what, f"{group.label} here are always {', '.join(group.fixed_names)}.")
                )
                return False
            name = canon[name.casefold()]
        held = self.names.setdefault(key, set())
        if name.casefold() in held:
            self.left.append((what, f"{group.label} already has a trait of that name."))
            return False
        if len(self.rows.get(key, [])) >= group.max_traits:
            self.left.append((what, f"a sheet holds at most {group.max_traits} {group.label}."))
            return False
        row: dict = {"name": name}
        note = ""
        if group.kind == "rating":
            self.left.append((what, f"{group.label} take a number, not Foundry's dice."))
            return False
        sizes, odd = dice_of(trait.get("dice"))
        die, note = die_for(group, sizes)
        if die is None and not group.fixed_names:
            why = f"its dice ({', '.join(odd)}) are not d4 to d12." if odd else "it has no die."
            self.left.append((what, why))
            return False
        row["die"] = die
        if parent is not None:
            row["parent"] = parent
        wanted = {f: True for f in flags if f in group.flags}
        if wanted:
            row["flags"] = wanted
        notes = _notes(trait)
        if len(notes) > MAX_NOTES:
            notes = notes[: MAX_NOTES - 1] + "…"
            self.left.append(
                (f"{what}: the rest of its notes", f"notes hold {MAX_NOTES} characters.")
            )
        if notes:
            row["notes"] = notes
        held.add(name.casefold())
        self.rows.setdefault(key, []).append(row)
        if odd:
            note += f" (left out what is not a die: {', '.join(odd)})"
        self.taken.append(f"{what} → {group.label}, {die or 'no die'}{note}")
        return True


def read_actor(doc: object, reading: FoundryReading, template: SheetTemplate) -> Reading:
    """The actor as a sheet of this game, and a line for everything taken or left."""
    data = actor_data(doc) or {}
    actor = data.get("actorType") if isinstance(data.get("actorType"), Mapping) else {}
    sheet = _Sheet(template)
    raw_name = doc.get("name") if isinstance(doc, Mapping) else None
    name = " ".join(raw_name.split()) if isinstance(raw_name, str) else ""
    if not name:
        name = DEFAULT_NAME
        sheet.left.append(("The character's name", f"none in the file: it is called “{name}”."))
    elif len(name) > MAX_NAME:
        name = name[: MAX_NAME - 1] + "…"
        sheet.left.append(("The rest of the name", f"a name holds {MAX_NAME} characters."))

    for index, item in enumerate(entries(actor.get("traitSets"))):
        if not isinstance(item, Mapping):
            sheet.left.append((f"Trait set {index + 1}", "it is not a set of traits."))
            continue
        label = plain(item.get("label")) or f"Trait set {index + 1}"
        where = shown(label)
        traits = [t for t in entries(item.get("traits")) if isinstance(t, Mapping)]
        target = reading.target(label)
        if target is None or target.group not in sheet.groups:
            why = reading.why_not.get(normal(label)) or (
                "this game's sheets have no such group (they have: "
                + ", ".join(g.label for g in template.groups)
                + ")."
            )
            count = f"{len(traits)} trait{'' if len(traits) == 1 else 's'}"
            sheet.left.append((f"{where} ({count})", why))
            continue
        settings = item.get("settings") if isinstance(item.get("settings"), Mapping) else {}
        has_label = settings.get("hasLabel", True) is not False
        child = sheet.child_of(target.group)
        for trait in traits:
            title = _title(trait, has_label)
            took = sheet.add(where, trait, target.group, flags=target.flags, title=title)
            for sub in entries(trait.get("subTraits")):
                if not isinstance(sub, Mapping):
                    continue
                sub_name = _title(sub, True)
                sub_where = f"{where} “{shown(title)}”, sub-trait"
                if child is None:
                    sheet.left.append(
                        (
                            f"{sub_where} “{shown(sub_name)}”",
                            f"{sheet.groups[target.group].label} here have no sub-traits.",
                        )
                    )
                elif not took:
                    sheet.left.append(
                        (f"{sub_where} “{shown(sub_name)}”", f"“{shown(title)}” was not taken.")
                    )
                else:
                    sheet.add(sub_where, sub, child.key, parent=title, title=sub_name)

    for label, key in (("Assets", reading.assets), ("Complications", reading.complications)):
        items = [t for t in entries(actor.get(label.lower())) if isinstance(t, Mapping)]
        for trait in items:
            title = _title(trait, True)
            if key is None or key not in sheet.groups:
                sheet.left.append(
                    (f"{label} “{shown(title)}”", f"this game's sheets have no {label}.")
                )
            else:
                sheet.add(label, trait, key, title=title)

    for item in entries(actor.get("simpleTraits")):
        if not isinstance(item, Mapping):
            continue
        label = plain(item.get("label")) or "A simple trait"
        settings = item.get("settings") if isinstance(item.get("settings"), Mapping) else {}
        target = reading.target(label)
        if settings.get("valueType") == "dice" and target and target.group in sheet.groups:
            sheet.add(shown(label), item, target.group, flags=target.flags, title=label)
        else:
            sheet.left.append((shown(label), "this game's sheets have no place for it."))

    for item in entries(doc.get("items") if isinstance(doc, Mapping) else None):
        if isinstance(item, Mapping):
            kind = item.get("type") if isinstance(item.get("type"), str) else "item"
            sheet.left.append(
                (
                    f"Foundry {shown(kind, 20)} “{shown(item.get('name', ''))}”",
                    "Foundry's items carry no die: add it on the sheet if it should roll.",
                )
            )

    counters: dict[str, int] = {}
    pp = data.get("pp")
    value = pp.get("value") if isinstance(pp, Mapping) else None
    if value is not None:
        text = str(value).strip()
        number = int(text) if isinstance(value, (int, str)) and _digits(text) else None
        if reading.plot_points is None:
            sheet.left.append(("Plot points", "this game's sheets keep none."))
        elif number is None or isinstance(value, bool) or len(text) > 4:
            sheet.left.append(("Plot points", f"“{shown(value, 12)}” is not a number of points."))
        else:
            spec = next((c for c in template.counters if c.key == reading.plot_points), None)
            if spec is not None and not spec.minimum <= number <= spec.maximum:
                sheet.left.append(
                    (
                        "Plot points",
                        f"{number} is more than a sheet holds ({spec.minimum} to {spec.maximum}).",
                    )
                )
            else:
                counters[reading.plot_points] = number
                sheet.taken.append(f"Plot points: {number}")

    notes = []
    for item in entries(actor.get("notes")):
        if isinstance(item, Mapping):
            text = plain(item.get("value"))
            if text:
                title = plain(item.get("label"))
                shown_title = title and normal(title) != "note"
                notes.append(f"{title}\n{text}" if shown_title else text)
    details = data.get("details") if isinstance(data.get("details"), Mapping) else {}
    for key in ("description", "biography"):
        part = details.get(key)
        text = plain(part.get("value") if isinstance(part, Mapping) else part)
        if text:
            notes.append(text)
    joined = "\n\n".join(notes)
    if len(joined) > MAX_SHEET_NOTES:
        joined = joined[: MAX_SHEET_NOTES - 1] + "…"
        sheet.left.append(
            ("The rest of the notes", f"a sheet's notes hold {MAX_SHEET_NOTES} characters.")
        )
    if joined:
        sheet.taken.append("Notes")
    return Reading(
        name=name,
        notes=joined,
        counters=counters,
        traits=sheet.rows,
        taken=sheet.taken,
        left=sheet.left,
    )


def describe_groups(reading: FoundryReading, template: SheetTemplate) -> list[tuple[str, str]]:
    """(Foundry trait set, sheet group) pairs, for the docs and the import page."""
    labels = {g.key: g.label for g in template.groups}
    pairs = [(" / ".join(s.labels), labels.get(s.group, s.group)) for s in reading.sets]
    for what, key in (("Assets", reading.assets), ("Complications", reading.complications)):
        if key:
            pairs.append((f"the actor's {what}", labels.get(key, key)))
    return pairs
