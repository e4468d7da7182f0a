"""Sheets as JSON: export, and an import as strict as the form (docs/sheet-format.md).

The importer runs every value through sheets.validation, the same cleaners the
form uses, and collects every problem before refusing, so a file with five
mistakes is reported once with five lines, and nothing is created.

What changes at the table (plot points, stress, ...: `table_owned` in the sheet
template) comes in as it would on a new sheet when a player imports: a counter at
most its starting value, a table-owned group as a new sheet has it. The import's
`notices` say what was set back. A GM's import keeps the file's values; it creates a
sheet, which is no table event (the GM sets values at the table afterwards if the
table should see them change).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field

from django.db import transaction

from campaigns.models import Campaign, Membership
from rules.kit.starting import Line
from rules.registry import SYSTEMS

from . import import_shape as shape
from . import limits
from . import validation as v
from .models import Counter, Sheet, Trait

FORMAT = "rollcall-sheet"
VERSION = 1
MAX_BYTES = 256 * 1024
MAX_PROBLEMS = 40  # listed on the page; the rest are counted
TOP_LEVEL = (
    "format",
    "version",
    "system",
    "name",
    "kind",
    "npc_kind",
    "hidden",
    "notes",
    "counters",
    "overrides",
    "traits",
)
TRAIT_KEYS = ("name", "die", "rating", "parent", "link", "flags", "notes")


# --------------------------------------------------------------------------- export


def export_sheet(sheet: Sheet) -> dict:
    """The sheet as a JSON-ready dict: groups and counters in the template's order."""
    system = sheet.campaign.system
    template = v.template_for(system)
    traits = list(Trait.objects.filter(sheet=sheet).order_by("position", "pk"))
    names = {t.pk: t.name for t in traits}
    counters = {c.key: c.value for c in Counter.objects.filter(sheet=sheet)}
    doc: dict = {
        "format": FORMAT,
        "version": VERSION,
        "system": system,
        "name": sheet.name,
        "kind": sheet.kind,
    }
    if sheet.kind == v.KIND_NPC:
        if sheet.npc_kind:
            doc["npc_kind"] = sheet.npc_kind
        doc["hidden"] = sheet.hidden
    if sheet.notes:
        doc["notes"] = sheet.notes
    doc["counters"] = {c.key: counters.get(c.key, c.default) for c in template.counters}
    if sheet.overrides and v.has_scores(system, sheet.kind, sheet.npc_kind):
        doc["overrides"] = {k: sheet.overrides[k] for k in v.SCORE_KEYS if k in sheet.overrides}
    doc["traits"] = {}
    for group in template.groups:
        rows = []
        relation = v.reference_of(group)
        for t in (t for t in traits if t.group == group.key):
            row: dict = {"name": t.name}
            if group.kind in v.DIE_KINDS:
                row["die"] = v.die_label(t.die, t.plus_die) or None
            if group.kind == "rating":
                row["rating"] = t.rating
            if relation is not None:
                ref = t.parent_id if relation[0] == "parent" else t.link_id
                row[relation[0]] = names.get(ref)
            flags = {f: True for f in v.flags_for(system, group) if (t.flags or {}).get(f)}
            if flags:
                row["flags"] = flags
            if t.notes:
                row["notes"] = t.notes
            rows.append(row)
        doc["traits"][group.key] = rows
    return doc


def export_json(sheet: Sheet) -> str:
    return json.dumps(export_sheet(sheet), indent=2, ensure_ascii=False) + "\n"


# --------------------------------------------------------------------------- import


@dataclass
class CleanTrait:
    group: str
    name: str
    die: int | None
    plus_die: int | None
    rating: int | None
    notes: str
    flags: dict
    ref: str | None  # casefolded name of the trait it is filed under / linked to


@dataclass
class CleanSheet:
    name: str
    kind: str
    npc_kind: str
    hidden: bool
    notes: str
    counters: dict[str, int]
    overrides: dict[str, int]
    traits: list[CleanTrait] = field(default_factory=list)
    notices: list[v.Problem] = field(default_factory=list)  # values set back, not refused


def parse_json(text: str | bytes) -> object:
    if isinstance(text, bytes):
        if len(text) > MAX_BYTES:
            raise v.SheetProblems(
                [v.Problem("", f"The file is larger than {MAX_BYTES // 1024} KiB.")]
            )
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise v.SheetProblems([v.Problem("", "The file is not UTF-8 text.")]) from None
    if len(text) > MAX_BYTES:
        raise v.SheetProblems([v.Problem("", f"The text is larger than {MAX_BYTES // 1024} KiB.")])
    if not text.strip():
        raise v.SheetProblems([v.Problem("", "Paste a sheet's JSON or choose a file.")])
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        problems = [
            v.Problem(
                "",
                f"This is not valid JSON: {error.msg} (line {error.lineno}, column {error.colno}).",
            )
        ]
        if shape.looks_like_xml(text):
            problems.append(
                v.Problem(
                    "",
                    "This looks like XML, as some other tools export characters (Fantasy "
                    "Grounds, for one). Rollcall reads only its own JSON sheets: create the "
                    "character here with New sheet and copy the traits over.",
                )
            )
        raise v.SheetProblems(problems) from None
    except RecursionError:
        raise v.SheetProblems([v.Problem("", "This JSON is nested too deeply.")]) from None
    except ValueError:  # a number of more digits than Python converts (sys.int_info)
        raise v.SheetProblems(
            [v.Problem("", "This JSON holds a number far too long to be part of a sheet.")]
        ) from None


def _where(group: str, index: int, name: object) -> str:
    label = f"traits.{group}[{index}]"
    if isinstance(name, str) and name.strip():
        label += f" (“{shape.shown(name)}”)"
    return label


def _expected(expected: str, value: object) -> str:
    return f"Expected {expected}, got {shape.describe(value)}."


def _finish(problems: list[v.Problem]) -> v.SheetProblems:
    """Every problem, up to a page's worth: a document of junk is not a thousand lines."""
    if len(problems) > MAX_PROBLEMS:
        more = len(problems) - MAX_PROBLEMS
        problems = [*problems[:MAX_PROBLEMS], v.Problem("", f"…and {more} more problems.")]
    return v.SheetProblems(problems)


def _check_heading(doc: Mapping, system: str, problem) -> bool:
    """format, version and system: what says this is a Rollcall sheet for this game.
    False when the rest is not worth reading (another game, another tool's format)."""
    hint = shape.foreign_format(doc) if doc.get("format") != FORMAT else None
    if hint:
        problem("", hint)
    fmt = doc.get("format")
    if "format" not in doc:
        problem("format", f'Missing: a Rollcall sheet starts with "format": "{FORMAT}".')
    elif not isinstance(fmt, str):
        problem("format", _expected(f"the text “{FORMAT}”", fmt))
    elif fmt != FORMAT:
        problem("format", f"Must be “{FORMAT}” (not “{shape.shown(fmt)}”).")
    version = doc.get("version")
    if "version" not in doc:
        problem("version", f'Missing: a Rollcall sheet says "version": {VERSION}.')
    elif isinstance(version, bool) or not isinstance(version, int):
        problem("version", _expected(f"the number {VERSION}", version))
    elif version != VERSION:
        problem("version", f"Must be {VERSION} (the only version so far).")
    raw = doc.get("system")
    playing = SYSTEMS[system].name
    if "system" not in doc:
        problem("system", f"Missing: the game this sheet is for (“{system}” in this campaign).")
    elif not isinstance(raw, str):
        problem(
            "system",
            _expected(f"the name of a game, such as “{system}”", raw)
            + (" This is not a Rollcall sheet." if hint else ""),
        )
    elif raw in SYSTEMS and raw != system:
        problem(
            "system", f"This is a sheet for {SYSTEMS[raw].name}; this campaign plays {playing}."
        )
    elif raw not in SYSTEMS:
        problem(
            "system",
            f"“{shape.shown(raw)}” is not a game Rollcall knows; this campaign plays "
            f"{playing} (“{system}”).",
        )
    if hint or raw != system:
        return False
    for key in doc:
        if key not in TOP_LEVEL:
            problem(
                shape.shown(key),
                "Unknown field (see docs/sheet-format.md for the fields a sheet has).",
            )
    deep = shape.too_deep(doc)
    if deep is not None:
        problem(
            deep,
            f"Nested deeper than a sheet goes ({shape.MAX_DEPTH} levels: the sheet, its "
            "traits, a group's list, a trait, its flags).",
        )
        return False
    return True


def _row_types(row: Mapping) -> dict[str, str]:
    """Each field of an imported trait whose type is wrong, with what was expected."""
    errors = {}
    for name, types, expected in (
        ("name", (str,), "the trait's name as text"),
        ("die", (str, int, type(None)), "a die such as “d8”"),
        ("rating", (str, int, type(None)), "a whole number"),
        ("parent", (str, type(None)), "the name of a trait on this sheet"),
        ("link", (str, type(None)), "the name of a trait on this sheet"),
        ("notes", (str, type(None)), "text"),
        ("flags", (Mapping,), 'an object like {"…": true}'),
    ):
        if name in row and (
            not isinstance(row[name], types) or isinstance(row[name], bool) and bool not in types
        ):
            errors[name] = _expected(expected, row[name])
    for flag, value in (row.get("flags") or {}).items() if "flags" not in errors else ():
        if not isinstance(value, (bool, str, type(None))):
            errors["flags"] = f"“{shape.shown(flag)}”: " + _expected("true or false", value)
    return errors


def check_document(
    doc: object, system: str, *, may_import_npc: bool, keep_table_values: bool = False
) -> CleanSheet:
    """Validate a whole document; SheetProblems lists every problem found.

    keep_table_values: the GM imports, so table-owned counters and groups keep the
    file's values; otherwise they start as on a new sheet (see `_start_at_the_table`)."""
    problems: list[v.Problem] = []

    def problem(where: str, message: str) -> None:
        problems.append(v.Problem(where, message))

    if not isinstance(doc, Mapping):
        problem(
            "",
            f'A sheet is a JSON object: {{ "format": "{FORMAT}", … }}; this is '
            f"{shape.describe(doc)}."
            + (" Import one sheet at a time." if isinstance(doc, list) else ""),
        )
        hint = shape.foreign_format(doc)
        if hint:
            problem("", hint)
        raise _finish(problems)
    if not _check_heading(doc, system, problem):
        raise _finish(problems)
    template = v.template_for(system)

    def clean(where: str, func, *args):
        try:
            return func(*args)
        except v.FieldError as error:
            problem(where, str(error))
            return None

    raw_name = doc.get("name")
    if "name" not in doc:
        problem("name", "Missing: the character's name.")
        name = None
    elif not isinstance(raw_name, str):
        problem("name", _expected("the character's name as text", raw_name))
        name = None
    else:
        name = clean("name", v.clean_name, raw_name)
    kind = doc.get("kind", v.KIND_PC)
    if kind not in (v.KIND_PC, v.KIND_NPC):
        problem(
            "kind",
            "Must be “pc” (player character) or “npc” (GM character)"
            + (f", not {shape.describe(kind)}." if not isinstance(kind, str) else "."),
        )
        kind = v.KIND_PC
    if kind == v.KIND_NPC and not may_import_npc:
        problem("kind", "Only the GM can import GM characters.")
    raw_npc_kind = doc.get("npc_kind", "")
    if raw_npc_kind is not None and not isinstance(raw_npc_kind, str):
        problem("npc_kind", _expected("the kind of GM character as text", raw_npc_kind))
        npc_kind = ""
    else:
        npc_kind = clean("npc_kind", v.clean_npc_kind, template, kind, raw_npc_kind) or ""
    hidden = doc.get("hidden", False)
    if not isinstance(hidden, bool):
        problem("hidden", "Must be true or false" + f", not {shape.describe(hidden)}.")
        hidden = False
    elif hidden and kind != v.KIND_NPC:
        problem("hidden", "Only GM characters can be hidden.")
    raw_notes = doc.get("notes", "")
    if raw_notes is not None and not isinstance(raw_notes, str):
        problem("notes", _expected("text", raw_notes))
        notes = ""
    else:
        notes = clean("notes", v.clean_notes, raw_notes, v.MAX_SHEET_NOTES) or ""

    counters = {c.key: c.default for c in template.counters}
    raw_counters = doc.get("counters", {})
    if not isinstance(raw_counters, Mapping):
        example = template.counters[0].key if template.counters else "…"
        problem("counters", _expected(f'an object like {{"{example}": 1}}', raw_counters))
        raw_counters = {}
    known = {c.key for c in template.counters}
    for key in raw_counters:
        if key not in known:
            problem(
                f"counters.{shape.shown(key)}",
                f"This game's sheets have no such counter (only: {', '.join(sorted(known))}).",
            )
    parsed = {}
    for spec in template.counters:
        if spec.key in raw_counters:
            raw = raw_counters[spec.key]
            if isinstance(raw, bool) or not isinstance(raw, (int, str)):
                problem(
                    f"counters.{spec.key}",
                    _expected(f"a whole number from {spec.minimum} to {spec.maximum}", raw),
                )
                continue
            value = clean(
                f"counters.{spec.key}", v.parse_whole_number, raw, spec.minimum, spec.maximum
            )
            if value is not None:
                parsed[spec.key] = value
    counters.update(parsed)
    for key in parsed:
        clean(f"counters.{key}", v.clean_counter, template, system, key, counters[key], counters)

    overrides = (
        clean("overrides", v.clean_overrides, system, kind, npc_kind, doc.get("overrides", {}))
        or {}
    )

    sheet = CleanSheet(
        name=name or "",
        kind=kind,
        npc_kind=npc_kind,
        hidden=hidden,
        notes=notes,
        counters=counters,
        overrides=overrides,
    )
    raw_traits = doc.get("traits", {})
    if not isinstance(raw_traits, Mapping):
        problem("traits", _expected("an object mapping each group to a list of traits", raw_traits))
        raw_traits = {}
    groups = {g.key: g for g in template.groups}
    for key in raw_traits:
        if key not in groups:
            problem(
                f"traits.{shape.shown(key)}",
                f"This game's sheets have no such group (only: {', '.join(groups)}).",
            )
    # Names each group will hold, so references can be checked whatever the order.
    declared: dict[str, dict[str, str]] = {}
    for key in groups:
        rows = raw_traits.get(key, [])
        if isinstance(rows, list):
            declared[key] = {
                " ".join(r["name"].split()).casefold(): r["name"]
                for r in rows
                if isinstance(r, Mapping) and isinstance(r.get("name"), str) and r["name"].strip()
            }
    for key, group in groups.items():
        rows = raw_traits.get(key, [])
        if not isinstance(rows, list):
            problem(f"traits.{key}", _expected("a list of traits", rows))
            continue
        if len(rows) > group.max_traits:
            problem(
                f"traits.{key}",
                f"A sheet holds at most {group.max_traits} {group.label} (this has {len(rows)}).",
            )
            continue
        relation = v.reference_of(group)
        choices = declared.get(relation[1], {}) if relation else {}
        taken: set[str] = set()
        for index, row in enumerate(rows):
            if not isinstance(row, Mapping):
                problem(
                    f"traits.{key}[{index}]", _expected('a trait, an object like {"name": …}', row)
                )
                continue
            where = _where(key, index, row.get("name"))
            for extra in row:
                if extra not in TRAIT_KEYS:
                    problem(f"{where}.{shape.shown(extra)}", "Unknown field for a trait.")
            wrong = _row_types(row)
            for fieldname, message in wrong.items():
                problem(f"{where}.{fieldname}", message)
            if wrong:
                if "name" not in wrong and isinstance(row.get("name"), str):
                    taken.add(" ".join(row["name"].split()).casefold())
                continue
            raw_flags = row.get("flags") or {}
            values, errors = v.clean_trait(
                system, group, row, choices=choices, taken=taken, flag_values=raw_flags
            )
            for fieldname, message in errors.items():
                problem(f"{where}.{fieldname}", message)
            if relation is not None:
                other = "link" if relation[0] == "parent" else "parent"
                if row.get(other) not in (None, ""):
                    problem(
                        f"{where}.{other}", f"{group.label} use “{relation[0]}”, not “{other}”."
                    )
            elif row.get("parent") not in (None, "") or row.get("link") not in (None, ""):
                problem(f"{where}", f"{group.label} are not filed under anything.")
            if errors:
                if "name" not in errors:
                    taken.add(values["name"].casefold())
                continue
            taken.add(values["name"].casefold())
            flags = values["flags"] if raw_flags else v.default_flags(system, group, values["name"])
            sheet.traits.append(
                CleanTrait(
                    group=key,
                    name=values["name"],
                    die=values["die"],
                    plus_die=values["plus_die"],
                    rating=values["rating"],
                    notes=values["notes"],
                    flags=flags,
                    ref=values.get(relation[0]) if relation else None,
                )
            )
    if problems:
        raise _finish(problems)
    _derive(sheet, template, set(parsed), keep_table_values)
    if not keep_table_values:
        _start_at_the_table(sheet, template)
    return sheet


def _derive(sheet: CleanSheet, template, given: set[str], keep_table_values: bool) -> None:
    """Counters the game works out from the sheet (Life Points from attributes): filled in
    where the file gives none; on a player's import a table-owned one is always worked
    out, and a different number in the file is said in plain words."""
    specs = template.derived_counters()
    if not specs:
        return
    lines = [Line(t.group, t.name, die=t.die, rating=t.rating) for t in sheet.traits]
    present = {(t.group, t.name) for t in sheet.traits}
    for group in template.groups:
        for name in group.fixed_names:
            if (group.key, name) not in present:
                rating = group.default_rating if group.kind == "rating" else None
                die = group.default_die if group.kind in v.DIE_KINDS else None
                lines.append(Line(group.key, name, die=die, rating=rating))
    for spec in specs:
        value = spec.derive(lines)
        if spec.key not in given:
            sheet.counters[spec.key] = value
        elif spec.table_owned and not keep_table_values and sheet.counters[spec.key] != value:
            sheet.notices.append(
                v.Problem(
                    "",
                    f"{spec.label}: {value}, worked out from the sheet (the file said "
                    f"{sheet.counters[spec.key]}). {v.at_the_table(spec.label)}",
                )
            )
            sheet.counters[spec.key] = value


def _start_at_the_table(sheet: CleanSheet, template) -> None:
    """A player's import: table-owned counters at most their starting value, table-owned
    groups as a new sheet has them (fixed traits at their default die, nothing else);
    each change is a notice for the import report."""
    for spec in template.table_owned_counters():
        if spec.derived is not None:
            continue  # worked out from the sheet instead (_derive)
        if sheet.counters.get(spec.key, spec.default) > spec.default:
            sheet.notices.append(
                v.Problem(
                    "",
                    f"{spec.label}: set to {spec.default}, where a new character starts. "
                    f"{v.at_the_table(spec.label)}",
                )
            )
            sheet.counters[spec.key] = spec.default
    for group in template.table_owned_groups():
        kept, changed = [], False
        for t in sheet.traits:
            if t.group != group.key:
                kept.append(t)
            elif t.name in group.fixed_names:
                changed |= (t.die, t.plus_die) != (group.default_die, None)
                t.die, t.plus_die = group.default_die, None
                kept.append(t)
            else:
                changed = True
        if changed:
            sheet.notices.append(
                v.Problem(
                    "",
                    f"{group.label}: left as on a new character. {v.at_the_table(group.label)}",
                )
            )
        sheet.traits = kept


@transaction.atomic
def import_sheet(
    campaign: Campaign, clean: CleanSheet, *, owner=None, creator: Membership | None = None
) -> Sheet:
    """Create the sheet a checked document describes (fixed traits it leaves out get
    defaults). A member importing from the page is its `creator`: refused at their cap
    (limits.AtSheetCap)."""
    template = v.template_for(campaign.system)
    if creator is not None:
        limits.claim(creator)
    sheet = Sheet.objects.create(
        campaign=campaign,
        created_by_id=creator.user_id if creator is not None else None,
        name=clean.name,
        kind=clean.kind,
        owner=owner if clean.kind == v.KIND_PC else None,
        npc_kind=clean.npc_kind,
        hidden=clean.hidden,
        notes=clean.notes,
        overrides=clean.overrides,
    )
    Counter.objects.bulk_create(
        [Counter(sheet=sheet, key=key, value=value) for key, value in clean.counters.items()]
    )
    by_group: dict[str, list[CleanTrait]] = {}
    for t in clean.traits:
        by_group.setdefault(t.group, []).append(t)
    created: dict[tuple[str, str], Trait] = {}
    # Groups others refer to first, so every reference has an id to point at.
    ordered = sorted(template.groups, key=lambda g: v.reference_of(g) is not None)
    for group in ordered:
        rows = list(by_group.get(group.key, []))
        present = {t.name for t in rows}
        for fixed_name in group.fixed_names:
            if fixed_name not in present:
                rows.append(
                    CleanTrait(
                        group=group.key,
                        name=fixed_name,
                        die=group.default_die if group.kind in v.DIE_KINDS else None,
                        plus_die=None,
                        rating=group.default_rating if group.kind == "rating" else None,
                        notes="",
                        flags={},
                        ref=None,
                    )
                )
        if group.fixed_names:
            order = {name: i for i, name in enumerate(group.fixed_names)}
            rows.sort(key=lambda t: order.get(t.name, len(order)))
        relation = v.reference_of(group)
        objs = []
        for position, t in enumerate(rows):
            trait = Trait(
                sheet=sheet,
                group=group.key,
                name=t.name,
                die=t.die,
                plus_die=t.plus_die,
                rating=t.rating,
                notes=t.notes,
                flags=t.flags,
                position=position,
            )
            if relation is not None and t.ref is not None:
                target = created[(relation[1], t.ref)]
                setattr(trait, relation[0], target)
            objs.append(trait)
        for trait in Trait.objects.bulk_create(objs):
            created[(group.key, trait.name.casefold())] = trait
    return sheet


def import_json(
    campaign: Campaign,
    text: str | bytes,
    *,
    owner,
    may_import_npc: bool,
    keep_table_values: bool = False,
    creator: Membership | None = None,
) -> Sheet:
    clean = check_document(
        parse_json(text),
        campaign.system,
        may_import_npc=may_import_npc,
        keep_table_values=keep_table_values,
    )
    return import_sheet(campaign, clean, owner=owner, creator=creator)
