"""The pool builder: a sheet's clicked traits turned into a rules request.

Pure functions over a sheet's traits and the builder's form data, so the page, the odds
fragment and the tests all share one reading of the pool rules. Rules are enforced as
the player clicks: a click that would break a pool rule replaces the trait it conflicts
with (a second Stylin' replaces the first), and traits that cannot join are shown
disabled with the reason. What the rules module itself refuses is reported as `errors`;
a pool with errors cannot be rolled.

Each game declares its builder (`BUILDER`, a `PoolBuilder`) in its package: which sheet
groups a player clicks, which allow one trait only, the action the Roll button performs,
and the function that turns the chosen traits into its rules request. The table's own
Assets (a scene Asset, or a session Asset promoted by an extraordinary success) join a
pool as {"group": "assets", "trait": name} where the game takes them (SER-1, SER-10;
CTX-1, CTX-7): they are clicked by name in the `table_asset` field, never as trait ids;
only names the table holds now count, and the die shown is the one the server read (the
game's transition takes it from the table again when rolling).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .costs import Cost
from .errors import RulesError
from .table import norm, sentence

MAX_PLOT_POINTS_IN_ROLL = 20
TABLE_ASSET_LABEL = "Scene and session Assets"
MAX_TABLE_ASSET_FIELDS = 50  # more than any table keeps; the rest of a flood is not read

# The game's part: (pool, chosen traits, clickable traits by id, form data, counters,
# character's name, the scene's number to beat, all the sheet's traits) -> None; it sets
# pool.request (and options, notes, errors, cost).
Fill = Callable[..., None]


@dataclass(frozen=True)
class PoolBuilder:
    """One game's pool builder.

    `clickable`: the sheet groups a player clicks (the others are the opposition's or the
    scene's); `one_of`: groups allowing one trait per roll (a new click replaces the old);
    `at_most`: groups allowing that many; `one_of_when`: more single groups, by the form
    (Unisystem: one attribute unless the roll takes two); `link`: (clicked trait, kept
    ids, traits by id, notes) -> kept ids, for traits that bring or drop others (SER-1
    Refinements and their Stylin', PER-1 a skill's attribute); `table_assets`: whether the
    pool takes the table's Assets; `price`: (request, gm=...) -> the `Cost` of the roll,
    the same function the roll checks its cost with (rules.kit.costs); `scene_keys`: the
    scene state the fill reads (as the member may see it), in pool.table["scene"] (SMV-6:
    the scene's Useful Details and Trouble Pool); `suggest`: (the sheet's clickable traits)
    -> the pools the builder suggests, each picked in one tap (SER-11)."""

    roll_action: str
    clickable: tuple[str, ...]
    fill: Fill
    one_of: tuple[str, ...] = ()
    at_most: Mapping[str, int] = field(default_factory=dict)
    one_of_when: Callable[[Mapping], tuple[str, ...]] | None = None
    link: Callable[..., list[int]] | None = None
    table_assets: bool = False
    price: Callable[..., Cost] | None = None
    scene_keys: tuple[str, ...] = ()
    suggest: Callable[[Sequence], list[Suggestion]] | None = None


@dataclass(frozen=True)
class Suggestion:
    """A pool the builder suggests: its words, the traits it picks, and why."""

    label: str
    traits: tuple[int, ...]
    why: str = ""


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
    cost: int = 0  # the most the roll charges (rules.kit.costs.Cost.most)
    cost_lines: list[str] = field(default_factory=list)
    cost_headline: str = ""
    assets: list[AssetChoice] = field(default_factory=list)  # the table's, not the sheet's
    asset_label: str = TABLE_ASSET_LABEL
    # d10 games: the GM's difficulty and bonus dice, and whether the GM builds (see build).
    table: dict[str, Any] = field(default_factory=dict)
    # A free-text field the pool waits on (a goal): its name -> the error typing in it
    # clears, so the page can enable Roll as the player types instead of on a re-render.
    fillable: dict[str, str] = field(default_factory=dict)
    gm_side: bool = False  # the GM's own pool (a GM character's), priced as the GM's
    suggestions: list[Suggestion] = field(default_factory=list)

    @property
    def ready(self) -> bool:
        return self.request is not None and not self.errors

    @property
    def ready_when_filled(self) -> list[str]:
        """The fields whose filling alone makes the pool ready (empty when it is ready
        already, or when something else is wrong too)."""
        waits = set(self.fillable.values())
        if self.request is None or not self.errors or not set(self.errors) <= waits:
            return []
        return [name for name, error in self.fillable.items() if error in self.errors]

    @property
    def error_lines(self) -> list[tuple[str, str]]:
        """Each error with the field that clears it ("" when typing clears nothing)."""
        cleared_by = {error: name for name, error in self.fillable.items()}
        return [(error, cleared_by.get(error, "")) for error in self.errors]

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


def form_ints(values: Iterable[object]) -> list[int]:
    out: list[int] = []
    for v in values:
        try:
            n = int(str(v))
        except (TypeError, ValueError):
            continue
        if n not in out:
            out.append(n)
    return out


def form_list(data: Mapping, key: str) -> list:
    if hasattr(data, "getlist"):
        return data.getlist(key)
    value = data.get(key, [])
    return list(value) if isinstance(value, list | tuple) else [value]


def form_int(data: Mapping, key: str, default: int | None, lo: int, hi: int) -> int | None:
    raw = data.get(key)
    if raw in (None, ""):
        return default
    try:
        value = int(str(raw))
    except ValueError:
        return default
    return max(lo, min(hi, value))


def form_flag(data: Mapping, key: str) -> bool:
    return str(data.get(key, "")).lower() in {"1", "true", "on", "yes"}


def trait_label(trait) -> str:
    return trait.die_label if trait.die else str(trait.rating if trait.rating is not None else "")


# --------------------------------------------------------------------------- the builder


def build(
    system: Any,
    traits: Sequence,
    data: Mapping,
    *,
    counters: Mapping[str, int] | None = None,
    character: str = "",
    target: int | None = None,
    table_assets: Sequence[tuple[str, str, str]] = (),
    table: Mapping[str, Any] | None = None,
    additions: Sequence[Mapping[str, Any]] = (),
    gm_side: bool = False,
) -> Pool:
    """Read the builder's form data against a sheet's traits and enforce the pool rules
    of `system` (the game, from the registry).

    `data` holds "trait" (ids, in the order they were ticked), "clicked" (the id
    just clicked, which wins any conflict), "table_asset" (names of scene or session
    Assets) and the system's options. `target` is the number to beat taken from the
    scene (a difficulty or a contest's standing result), used where the request
    carries it. `table_assets` is what the table holds now: (name, die, scope).
    `table` is what the d10 games' builders take from the table for a player:
    {"gm": False, "difficulty": the scene's as they see it, "bonus_dice": the grant};
    without it (or with "gm": True) those fields are typed, as the GM does.
    `additions` are the dice the GM added to this roll (the pool in the open), each named
    with its holder: they join the request as the game's `UI.additions.merge` says, so
    the cost and the odds shown are those of the roll that will be made. `gm_side`: the
    pool is the GM's own (a GM character's), priced as the roll prices the GM's.
    """
    counters = dict(counters or {})
    game = system
    builder: PoolBuilder = game.builder
    clickable = [t for t in traits if t.group in builder.clickable]
    by_id = {t.pk: t for t in clickable}
    wanted = [i for i in form_ints(form_list(data, "trait")) if i in by_id]
    clicked = form_ints([data.get("clicked")])
    clicked_id = clicked[0] if clicked and clicked[0] in by_id else None
    suggestions = builder.suggest(clickable) if builder.suggest is not None else []
    picked = form_ints([data.get("suggestion")])
    if picked and 0 <= picked[0] < len(suggestions):
        # A suggestion tapped: its traits are the pool (the rest of the form stays).
        wanted, clicked_id = [i for i in suggestions[picked[0]].traits if i in by_id], None
    notes: list[str] = []
    selected = _enforce(builder, by_id, wanted, clicked_id, data, notes)
    labels = {g.key: g.label for g in game.sheet_template.groups}
    groups = []
    for key in builder.clickable:
        members = [t for t in clickable if t.group == key]
        if not members:
            continue
        choices = [
            Choice(t.pk, key, t.name, trait_label(t), selected=t.pk in selected) for t in members
        ]
        groups.append((key, labels.get(key, key.title()), choices))
    pool = Pool(
        system=game.slug,
        action=builder.roll_action,
        groups=groups,
        selected=selected,
        options={},
        request=None,
        table=dict(table or {}),
        gm_side=gm_side,
        suggestions=suggestions,
    )
    chosen = [by_id[i] for i in selected]
    if builder.table_assets:
        pool.assets = _table_assets(table_assets, traits, data, notes)
    builder.fill(pool, chosen, by_id, data, counters, character, target, traits)
    pool.notes = notes + pool.notes
    if pool.request is not None and additions:
        pool.request = game.ui.additions.merge(pool.request, list(additions))
    if pool.request is not None and builder.price is not None:
        _price(pool, builder.price, counters, character, gm_side)
    return pool


def _price(pool: Pool, price: Callable[..., Cost], counters, character: str, gm: bool) -> None:
    """The cost line, from the function the roll checks and charges with; a pool the
    character cannot pay for is refused in the roll's words."""
    try:
        cost = price(pool.request, gm=gm)
    except RulesError as error:
        message = sentence(str(error))
        if message not in pool.errors:
            pool.errors.append(message)
        return
    pool.cost, pool.cost_lines, pool.cost_headline = cost.most, cost.lines, cost.headline
    refusal = cost.refusal(character or "the character", counters.get(cost.counter, 0))
    if refusal:
        pool.errors.append(refusal)


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
    hides a session one of the same name, as rules.kit.table.table_asset reads them.
    """
    own = {norm(t.name) for t in traits if t.group == "assets"}
    choices: dict[str, AssetChoice] = {}
    for name, die, scope in offered:
        key = norm(name)
        if key and die and key not in own and key not in choices:
            choices[key] = AssetChoice(str(name), str(die), str(scope))
    for raw in form_list(data, "table_asset")[:MAX_TABLE_ASSET_FIELDS]:
        choice = choices.get(norm(raw))
        if choice is not None:
            choice.selected = True
        elif str(raw).strip():
            note = f"“{str(raw).strip()[:40]}” is not a scene or session Asset now: left out."
            if note not in notes:
                notes.append(note)
    return list(choices.values())


def asset_entries(pool: Pool) -> list[dict[str, Any]]:
    """The chosen table Assets as pool entries; the die is replaced by the table's on roll."""
    return [{"die": a.die, "trait": a.name, "group": "assets"} for a in pool.assets if a.selected]


def _enforce(
    builder: PoolBuilder,
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
    singles = builder.one_of
    if builder.one_of_when is not None:
        singles = (*singles, *builder.one_of_when(data))
    for trait_id in reversed(order):
        trait = by_id[trait_id]
        if trait.group in singles:
            rival = next((k for k in kept if by_id[k].group == trait.group), None)
            if rival is not None:
                notes.append(
                    f"{by_id[rival].name} replaces {trait.name}: one {trait.group[:-1]} per roll."
                )
                continue
        limit = builder.at_most.get(trait.group)
        if limit is not None:
            same = [k for k in kept if by_id[k].group == trait.group]
            if len(same) >= limit:
                notes.append(f"{trait.name} dropped: {limit} {trait.group} at most.")
                continue
        kept.append(trait_id)
    kept.reverse()
    if builder.link is not None:
        kept = builder.link(by_id, kept, clicked, notes)
    return kept


# --------------------------------------------------------------------------- for the games


def entry(trait, group: str | None = None) -> dict[str, Any]:
    return {"die": trait.die_label, "trait": trait.name, "group": group or trait.group}


def plot_points(pool: Pool, data: Mapping, counters: Mapping[str, int]) -> int:
    held = counters.get("plot_points", 0)
    spend = form_int(data, "plot_points", 0, 0, MAX_PLOT_POINTS_IN_ROLL) or 0
    pool.options["plot_points"] = spend
    pool.options["plot_points_held"] = held
    return spend


def from_table(pool: Pool) -> bool:
    """A player's d10 builder: the GM's numbers come from the table, read-only."""
    return pool.table.get("gm", True) is False


def table_difficulty(pool: Pool) -> tuple[dict[str, Any] | None, bool]:
    """(the difficulty the GM set for the scene as this player sees it, whether it was set
    behind the screen): PER-1, UNI-4."""
    shown = pool.table.get("difficulty")
    if not isinstance(shown, Mapping):
        return None, False
    if shown.get("secret"):
        return None, True
    return (dict(shown) if isinstance(shown.get("value"), int) else None), False


def to_beat(pool: Pool) -> None:
    """SER-5, SMV-10: the number to beat the GM's opposition set for the scene, as this
    member sees it, for the builder's "To beat" line (the roll reads it from the table
    again): `to_beat` (None: none yet), `to_beat_secret` (set behind the screen),
    `to_beat_seq` (the event that set it) and `to_beat_note` (why, if the GM said)."""
    shown, secret = table_difficulty(pool)
    pool.options["to_beat"] = shown.get("value") if shown else None
    pool.options["to_beat_secret"] = secret
    pool.options["to_beat_seq"] = shown.get("seq") if shown else None
    pool.options["to_beat_note"] = shown.get("note") if shown else None
    pool.options["to_beat_gm"] = pool.table.get("gm") is True


SECRET_DIFFICULTY_NOTE = (
    "The GM set the difficulty behind the screen: the roll goes to the GM blind, and the "
    "GM reveals how it went."
)


def all_choices(pool: Pool) -> list[Choice]:
    return [c for _, _, choices in pool.groups for c in choices]


def check(pool: Pool, request: dict[str, Any], validate) -> Any:
    """Run the rules module's own validation; its message becomes the builder's error."""
    pool.request = request
    try:
        return validate(request)
    except RulesError as error:
        message = str(error)
        pool.errors.append(message[:1].upper() + message[1:])
        return None
