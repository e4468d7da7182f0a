"""What the sheet templates show, computed once in Python.

The page of a 60-trait sheet is rendered from plain objects built here in a
fixed number of queries (the sheet, its traits, its counters), so the number of
queries never grows with the number of traits and the template does no lookups.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from rules.kit.sheet import Counter as CounterSpec
from rules.kit.sheet import TraitGroup
from rules.kit.ui import Scores
from rules.registry import get_system

from . import validation as v
from .models import Counter, Sheet, Trait
from .ready import Readiness


class Blank(dict):
    """A dict whose missing keys read as "" (templates test errors.name etc. on every row).

    Django's template engine takes a slow path (an exception, then dir()) for a
    missing key; this keeps the common no-error render on the fast path.
    """

    def __missing__(self, key):
        return ""


class Lookup:
    """Let templates read attributes with one dict-style lookup instead of a failed [] first."""

    def __getitem__(self, key: str):
        try:
            return getattr(self, key)
        except AttributeError:
            raise KeyError(key) from None


@dataclass
class TraitRow(Lookup):
    pk: int
    id: str  # str(pk): rendered ~20 times per row, and ints go through number formatting
    ver: str
    name: str
    die: int | None
    plus_die: int | None
    die_label: str
    rating: int | None
    notes: str
    version: int
    ref_key: str
    ref_name: str
    flags: list[tuple[str, str, bool]]
    url: str
    can_up: bool
    can_down: bool
    down_removes: bool
    die_options: SafeString = SafeString("")
    down_attrs: SafeString = SafeString("")
    up_attrs: SafeString = SafeString("")
    ref_options: SafeString = SafeString("")
    ref_error: str = ""
    flag_error: str = ""
    first: bool = False
    last: bool = False


@dataclass
class GroupView(Lookup):
    spec: TraitGroup
    key: str
    label: str
    one: str
    a_one: str
    help: str
    dice: bool
    rated: bool
    fixed: bool
    ref: str  # "parent", "link" or ""
    ref_label: str
    a_ref_label: str
    ref_choices: list[tuple[str, str]]
    flags: list[tuple[str, str]]
    die_choices: list[str]
    default_die: str
    rating_label: str
    rating_title: str
    min_rating: int
    max_rating: int
    rows: list[TraitRow]
    dom_id: str
    url: str
    add_url: str
    can_add: bool
    table_owned: bool = False
    at_the_table: str = ""
    add_values: Mapping = field(default_factory=Blank)
    add_errors: Mapping = field(default_factory=Blank)


@dataclass
class CounterView(Lookup):
    key: str
    label: str
    help: str
    minimum: int
    maximum: int
    value: int
    version: int
    dom_id: str
    url: str
    table_owned: bool = False
    at_the_table: str = ""


def _urls(sheet: Sheet) -> dict[str, str]:
    """URL prefixes, reversed once per page instead of once per row."""
    args = [sheet.campaign_id, sheet.pk]
    return {
        "trait": reverse("trait", args=[*args, 0])[: -len("0/")],
        "group": reverse("sheet_group", args=[*args, "x"])[: -len("x/")],
        "counter": reverse("sheet_counter", args=[*args, "x"])[: -len("x/")],
    }


def trait_row(
    trait: Trait, spec: TraitGroup, system: str, names: Mapping[int, str], trait_url: str
) -> TraitRow:
    relation = v.reference_of(spec)
    ref_id = None
    if relation is not None:
        ref_id = trait.parent_id if relation[0] == "parent" else trait.link_id
    flags = trait.flags or {}
    dice = spec.kind in v.DIE_KINDS
    die = trait.die
    plus = trait.plus_die
    row = TraitRow(
        pk=trait.pk,
        id=SafeString(trait.pk),
        ver=SafeString(trait.version),
        name=trait.name,
        die=die,
        plus_die=plus,
        die_label=v.die_label(die, plus),
        rating=trait.rating,
        notes=trait.notes,
        version=trait.version,
        ref_key="" if ref_id is None else str(ref_id),
        ref_name=names.get(ref_id, "") if ref_id is not None else "",
        flags=[
            (f, v.FLAG_LABELS.get(f, f.title()), bool(flags.get(f)))
            for f in v.flags_for(system, spec)
        ],
        url=SafeString(f"{trait_url}{trait.pk}/"),
        can_up=dice
        and (die is None or die < 12 or (spec.kind == "die_or_compound" and (plus or 0) < 12)),
        can_down=dice and die is not None,
        down_removes=dice and die == 4 and not spec.fixed_names,
    )
    if dice:
        if not row.can_down:
            row.down_attrs = SafeString(" disabled")
        elif row.down_removes:
            row.down_attrs = SafeString(
                ' hx-confirm="Stepping down a d4 removes it from the sheet. Remove it?"'
            )
        if not row.can_up:
            row.up_attrs = SafeString(" disabled")
    return row


def group_view(
    sheet: Sheet,
    spec: TraitGroup,
    traits: list[Trait],
    *,
    by_group: Mapping[str, list[Trait]],
    names: Mapping[int, str],
    urls: Mapping[str, str],
    add_values: Mapping | None = None,
    add_errors: Mapping | None = None,
) -> GroupView:
    system = sheet.campaign.system
    template = v.template_for(system)
    relation = v.reference_of(spec)
    ref_choices: list[tuple[str, str]] = []
    ref_label = ""
    if relation is not None:
        target = template.group(relation[1])
        ref_label = v.singular(target.label)
        ref_choices = [(str(t.pk), t.name) for t in by_group.get(target.key, [])]
    rows = [trait_row(t, spec, system, names, urls["trait"]) for t in traits]
    rating_label, rating_title = get_system(system).ui.rating_label(spec.key)
    if spec.kind in v.DIE_KINDS:
        choices = tuple(v.die_choices(spec))
        for row in rows:
            row.die_options = die_options(choices, bool(spec.fixed_names), row.die_label)
    if relation is not None:
        options: dict[str, SafeString] = {}
        for row in rows:
            if row.ref_key not in options:
                options[row.ref_key] = ref_options(ref_choices, row.ref_key)
            row.ref_options = options[row.ref_key]
    if rows:
        rows[0].first = True
        rows[-1].last = True
    return GroupView(
        spec=spec,
        key=spec.key,
        label=spec.label,
        one=escape(v.singular(spec.label)),
        a_one=v.with_article(v.singular(spec.label)),
        help=spec.help,
        dice=spec.kind in v.DIE_KINDS,
        rated=spec.kind == "rating",
        fixed=bool(spec.fixed_names),
        ref=relation[0] if relation else "",
        ref_label=escape(ref_label),
        a_ref_label=v.with_article(ref_label) if ref_label else "",
        ref_choices=ref_choices,
        flags=[(f, v.FLAG_LABELS.get(f, f.title())) for f in v.flags_for(system, spec)],
        die_choices=v.die_choices(spec),
        default_die=v.die_label(spec.default_die, None),
        rating_label=rating_label,
        rating_title=rating_title,
        min_rating=spec.min_rating,
        max_rating=spec.max_rating,
        rows=rows,
        dom_id=SafeString(f"group-{sheet.pk}-{spec.key}"),
        url=f"{urls['group']}{spec.key}/",
        add_url=f"{urls['group']}{spec.key}/add/",
        can_add=not spec.fixed_names and len(rows) < spec.max_traits,
        table_owned=spec.table_owned,
        at_the_table=v.at_the_table(spec.label) if spec.table_owned else "",
        add_values=Blank(add_values or {}),
        add_errors=Blank(add_errors or {}),
    )


_DIE_OPTIONS: dict[tuple, SafeString] = {}


def die_options(choices: tuple[str, ...], fixed: bool, selected: str) -> SafeString:
    """The <option>s of a die picker (a handful of combinations, built once each)."""
    key = (choices, fixed, selected)
    html = _DIE_OPTIONS.get(key)
    if html is None:
        parts = (
            [f'<option value=""{" selected" if not selected else ""}>none</option>']
            if fixed
            else []
        )
        parts += [f"<option{' selected' if d == selected else ''}>{d}</option>" for d in choices]
        html = _DIE_OPTIONS[key] = mark_safe("".join(parts))  # noqa: S308 - fixed die labels only
    return html


def ref_options(choices: list[tuple[str, str]], selected: str) -> SafeString:
    """The <option>s naming the traits a trait can be filed under (names escaped)."""
    parts = [] if selected else ['<option value="" selected>— choose —</option>']
    for key, name in choices:
        mark = " selected" if key == selected else ""
        parts.append(f'<option value="{escape(key)}"{mark}>{escape(name)}</option>')
    return mark_safe("".join(parts))  # noqa: S308 - every value is escaped above


def _by_group(traits: Iterable[Trait]) -> dict[str, list[Trait]]:
    grouped: dict[str, list[Trait]] = {}
    for t in sorted(traits, key=lambda t: (t.position, t.pk)):
        grouped.setdefault(t.group, []).append(t)
    return grouped


def _trait_columns():
    return (
        "id",
        "group",
        "name",
        "die",
        "plus_die",
        "rating",
        "parent_id",
        "link_id",
        "flags",
        "notes",
        "position",
        "version",
    )


def load_traits(sheet: Sheet, groups: Iterable[str] | None = None) -> list[Trait]:
    rows = Trait.objects.filter(sheet=sheet).only(*_trait_columns())
    if groups is not None:
        rows = rows.filter(group__in=list(groups))
    return list(rows)


def groups_for(sheet: Sheet, keys: Iterable[str], **extra) -> dict[str, GroupView]:
    """Views of some groups of a sheet, plus the groups their traits are filed under."""
    template = v.template_for(sheet.campaign.system)
    wanted = set(keys)
    needed = set(wanted)
    for key in wanted:
        relation = v.reference_of(template.group(key))
        if relation:
            needed.add(relation[1])
    traits = load_traits(sheet, needed)
    by_group = _by_group(traits)
    names = {t.pk: t.name for t in traits}
    urls = _urls(sheet)
    return {
        g.key: group_view(
            sheet, g, by_group.get(g.key, []), by_group=by_group, names=names, urls=urls, **extra
        )
        for g in template.groups
        if g.key in wanted
    }


def single_row(sheet: Sheet, trait: Trait) -> tuple[GroupView, TraitRow]:
    """The row of one trait, with its group's choices (one query at most)."""
    template = v.template_for(sheet.campaign.system)
    spec = template.group(trait.group)
    relation = v.reference_of(spec)
    by_group: dict[str, list[Trait]] = {}
    if relation is not None:
        by_group = _by_group(load_traits(sheet, [relation[1]]))
    names = {t.pk: t.name for ts in by_group.values() for t in ts}
    gv = group_view(sheet, spec, [trait], by_group=by_group, names=names, urls=_urls(sheet))
    return gv, gv.rows[0]


def counter_views(sheet: Sheet, counters: Iterable[Counter] | None = None) -> list[CounterView]:
    template = v.template_for(sheet.campaign.system)
    stored = {c.key: c for c in (counters if counters is not None else sheet.counters.all())}
    base = _urls(sheet)["counter"]
    views = []
    for spec in template.counters:
        views.append(counter_view(sheet, spec, stored.get(spec.key), base))
    return views


def counter_view(
    sheet: Sheet, spec: CounterSpec, counter: Counter | None, base: str | None = None
) -> CounterView:
    base = base or _urls(sheet)["counter"]
    return CounterView(
        key=spec.key,
        label=spec.label,
        help=spec.help,
        minimum=spec.minimum,
        maximum=spec.maximum,
        value=counter.value if counter else spec.default,
        version=counter.version if counter else 1,
        dom_id=f"counter-{sheet.pk}-{spec.key}",
        url=f"{base}{spec.key}/",
        table_owned=spec.table_owned,
        at_the_table=v.at_the_table(spec.label) if spec.table_owned else "",
    )


@dataclass
class SheetPage:
    groups: list[GroupView]
    counters: list[CounterView]
    scores: Scores | None
    ready: Readiness


def sheet_page(sheet: Sheet) -> SheetPage:
    """Everything the sheet page shows: three queries whatever the sheet's size."""
    template = v.template_for(sheet.campaign.system)
    traits = load_traits(sheet)
    by_group = _by_group(traits)
    names = {t.pk: t.name for t in traits}
    urls = _urls(sheet)
    groups = [
        group_view(sheet, g, by_group.get(g.key, []), by_group=by_group, names=names, urls=urls)
        for g in template.groups
    ]
    counters = counter_views(sheet, list(Counter.objects.filter(sheet=sheet)))
    declared = v.sheet_scores(sheet.campaign.system, sheet.kind, sheet.npc_kind)
    scores = declared.compute(traits, sheet.overrides) if declared is not None else None
    ready = Readiness(get_system(sheet.campaign.system).missing_to_roll(traits))
    return SheetPage(groups=groups, counters=counters, scores=scores, ready=ready)


def scores_for(sheet: Sheet) -> Scores | None:
    """The sheet's computed scores (UNI-8), read from the trait groups they need."""
    declared = v.sheet_scores(sheet.campaign.system, sheet.kind, sheet.npc_kind)
    if declared is None:
        return None
    return declared.compute(load_traits(sheet, list(declared.groups)), sheet.overrides)
