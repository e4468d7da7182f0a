"""The table-state interface: what a game's table transitions may read and write.

A game's actions at the table are `Transition`s: `authorize` refuses what the actor's
role does not allow, `prepare` fills the request's state fields from the table (the
sheet's dice and ratings, counters, the scene's pools and contests), so the client's copy
of state is never trusted, `precheck` refuses what the character cannot afford before
any die is drawn (a refusal can never throw away a bad roll), and `apply` writes what the
outcome calls for. They see the table only through the `Table` protocol below, which the
engine (`table.acting.context.Context`) implements over the database inside the action's
transaction: a transition is plain Python with no Django, tested with any object that
speaks the protocol, and the engine stores, locks, logs and broadcasts whatever it wrote.

Sheets and traits reach a transition as opaque handles with the attributes listed in
`SheetHandle` and `TraitHandle`; nothing here knows where they are stored.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from .actions import Action
from .dice import parse_size
from .errors import RulesError

MAX_ID = 2**53  # ids and seqs beyond this are no row's (and overflow SQLite)
MAX_KEPT_ROLLS = 30  # kept rolls per scene, and how far back a claim looks

# An action's visibility (the log's values) and a sheet's kind.
PUBLIC, SECRET, BLIND = "public", "gm", "blind"
PC, NPC = "pc", "npc"


class ActionError(Exception):
    """A refused action; the message is shown to the player as is."""


# --------------------------------------------------------------------------- handles


class SheetHandle(Protocol):
    pk: int
    name: str
    kind: str  # PC or NPC
    npc_kind: str
    owner_id: int | None
    hidden: bool
    overrides: dict[str, Any]  # scores the GM typed instead of the computed ones (UNI-8)


class TraitHandle(Protocol):
    name: str
    group: str
    die: int | None
    rating: int | None
    flags: dict[str, Any] | None
    version: int
    parent_id: int | None
    link_id: int | None

    @property
    def die_label(self) -> str: ...

    @property
    def parent(self) -> TraitHandle: ...

    @property
    def link(self) -> TraitHandle: ...


class CharacterView(Protocol):
    """A sheet with its traits and counters, read once per action."""

    sheet: SheetHandle
    traits: list[TraitHandle]

    @property
    def id(self) -> int: ...

    @property
    def name(self) -> str: ...

    def group(self, group: str) -> list[TraitHandle]: ...

    def trait(self, group: str, name: object) -> TraitHandle | None: ...

    def require(self, group: str, name: object, what: str) -> TraitHandle: ...

    def counter(self, key: str) -> int: ...

    def counter_max(self, key: str) -> int | None: ...

    def stress_track(self) -> dict[str, str | None]: ...


class LoggedEvent(Protocol):
    seq: int
    character_id: int | None
    request: dict[str, Any]
    params: dict[str, Any]
    outcome: dict[str, Any]


class Table(Protocol):
    """One action's view of the table, inside its transaction."""

    system: Any  # the game (rules.kit.game.GameSystem)
    action: Action
    request: dict[str, Any]  # the rules request, filled by `prepare`
    params: dict[str, Any]  # table options ("table" in the request: contest, target, ...)
    visibility: str  # PUBLIC, SECRET or BLIND
    seq: int  # this event's place in the log
    sheet: SheetHandle | None  # the character acting (a transition may re-point it)
    veil_as: list[tuple[list, Any]]  # scene-state pieces a hidden action shows as a stand-in

    @property
    def is_gm(self) -> bool: ...

    @property
    def in_scene(self) -> bool: ...

    @property
    def scene_id(self) -> int | None: ...

    @property
    def scene_title(self) -> str | None: ...

    @property
    def data(self) -> dict[str, Any]:
        """The running scene's state (refused without a scene), locked and writable."""

    @property
    def seen_data(self) -> dict[str, Any]:
        """The scene state as the actor may see it: every lookup by a name or seq the client
        sent goes through this, so a hidden piece is as absent as a missing one."""

    @property
    def session_data(self) -> dict[str, Any]: ...

    @property
    def seen_session_data(self) -> dict[str, Any]: ...

    def character(self, sheet: SheetHandle | None = None) -> CharacterView: ...

    def other_sheet(self, sheet_id: object) -> SheetHandle:
        """A sheet of the campaign the actor may see, or ActionError."""

    def visible_sheet(self, sheet_id: int) -> SheetHandle | None:
        """A sheet of the campaign the actor may see, or None."""

    def sheet_by_id(self, sheet_id: int | None) -> SheetHandle | None:
        """A sheet of the campaign, hidden or not (for ids the table itself stored)."""

    def controls(self, sheet: SheetHandle | None) -> bool: ...

    def require_control(self, sheet: SheetHandle | None) -> None: ...

    def require_gm(self, what: str = "do that") -> None: ...

    def param_int(self, key: str) -> int | None: ...

    def param_str(self, key: str, default: str = "") -> str: ...

    def referenced_event(self, seq: object) -> LoggedEvent | None:
        """A logged, unvoided event the actor may see, by seq."""

    def logged(
        self, action: str, *, seq: int | None = None, sheet: SheetHandle | None = None
    ) -> Iterable[LoggedEvent]:
        """Unvoided events of one action the actor may see, newest first (at most
        MAX_KEPT_ROLLS)."""

    def logged_params(self, action: str, key: str) -> set[Any]:
        """The values of one table option across the unvoided events of an action."""

    def rests_on(self, seq: int) -> None:
        """This action's values come from the event at `seq`, even one hidden from the
        actor (a number to beat set behind the screen): while that event stays hidden from
        players, they read this action sealed, and what it changed as it was."""

    # writes, each recorded as an effect of the event (and undone by a void)
    def spend(self, sheet: SheetHandle | None, key: str, amount: int, label: str) -> None: ...

    def give(
        self, sheet: SheetHandle | None, key: str, amount: int, label: str, maximum=None
    ) -> None: ...

    def set_counter(self, sheet: SheetHandle, key: str, value: int) -> None: ...

    def set_die(self, sheet: SheetHandle, group: str, name: str, die: str | None) -> None: ...

    def flag_trait(self, sheet: SheetHandle, group: str, name: str, flag: str) -> None: ...

    def touch(self) -> None:
        """The scene state changed (written at the end of the action)."""

    def note(self, **change: Any) -> None:
        """A scene-state change, recorded as an effect."""

    def note_session(self, **change: Any) -> None:
        """A session-state change, recorded as an effect."""


# --------------------------------------------------------------------------- transitions


class Transition:
    """Default: anyone who may act runs it for a character they control; no state."""

    needs_scene = False  # keeps scene-scoped state: refused without an active scene
    public_only = False  # changes what everyone sees: cannot be secret or blind
    gm_only = False
    sheet_required = False  # even for the GM
    # The table options it reads (ctx.param_int, ctx.param_str): the page asks for these
    # only, and the table refuses to read one not named here.
    table_params: tuple[str, ...] = ()

    def authorize(self, ctx: Table) -> None:
        if self.gm_only:
            ctx.require_gm(f"use “{ctx.action.title}”")
        if ctx.sheet is not None:
            ctx.require_control(ctx.sheet)
        elif not ctx.is_gm or self.sheet_required:
            raise ActionError("Choose the character this is for.")

    def prepare(self, ctx: Table) -> None:
        pass

    def precheck(self, ctx: Table) -> None:
        pass

    def apply(self, ctx: Table, outcome: dict[str, Any]) -> None:
        pass


@dataclass(frozen=True)
class Points:
    """The counter the GM gives outside a roll (plot points, Drama Points, criticals) and
    its words; `cap_counter` names another counter that caps it (PER-6's bank limit)."""

    counter: str = "plot_points"
    one: str = "plot point"
    many: str = "plot points"
    cap_counter: str | None = None


# --------------------------------------------------------------------------- shared helpers


def norm(text: object) -> str:
    """A name as the table compares names: case, spacing and curly quotes do not count."""
    return " ".join(str(text).replace("\u2019", "'").casefold().split())


def int_field(request: Mapping, key: str, default: int = 0) -> int:
    value = request.get(key, default)
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def sentence(text: str) -> str:
    return text[:1].upper() + text[1:] if text else "That is not allowed."


def entry_label(raw: Mapping) -> str:
    """'Injured d12': the entry as the request named it."""
    name = " ".join(str(raw.get("trait") or "").split())[:40]
    try:
        die = f"d{parse_size(raw.get('die'))}"
    except RulesError:
        die = ""
    return " ".join(part for part in (name, die) if part) or "That die"


def not_on_table(raw: Mapping) -> ActionError:
    """The refusal for a die the roller may not use. Its words come from the request alone,
    so a die hidden from the roller is refused exactly as one that does not exist."""
    return ActionError(f"{entry_label(raw)} is not on the table.")


def holder_id(raw: Mapping) -> int | None:
    """The sheet id an entry names as its holder ("sheet"), or None."""
    value = raw.get("sheet")
    if isinstance(value, str) and re.fullmatch(r"[0-9]{1,16}", value.strip()):
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= MAX_ID:
        return None
    return value


def held_in(records: object, name: object) -> tuple[str, str] | None:
    """(name, die) of the record called `name` in a {name: die} mapping of the scene."""
    if not isinstance(records, Mapping):
        return None
    wanted = norm(name)
    for key, die in records.items():
        if norm(key) == wanted and isinstance(die, str) and die:
            return key, die
    return None


def new_id(ctx: Table) -> int:
    """The next number for something kept in the scene (a contest)."""
    data = ctx.data
    number = int(data.get("next_id", 1))
    data["next_id"] = number + 1
    return number


def scene_view(ctx: Table) -> Mapping[str, Any]:
    """The scene state a pool may draw on: what the actor may see (all of it for a GM),
    nothing without a scene."""
    return ctx.seen_data if ctx.in_scene else {}


class TableView:
    """The scene state for one pool, read (and filtered for the actor) on first use."""

    def __init__(self, ctx: Table) -> None:
        self.ctx = ctx
        self._data: Mapping[str, Any] | None = None

    @property
    def data(self) -> Mapping[str, Any]:
        if self._data is None:
            self._data = scene_view(self.ctx)
        return self._data


def table_asset(ctx: Table, name: object) -> tuple[str, dict[str, Any], str] | None:
    """A scene Asset (CTX-7) or session Asset (SER-10) the actor may see, by name: (name,
    the stored record, "scene" or "session"); the scene's first, as it is the nearer one.
    One hidden from the actor is as missing as one that does not exist."""
    wanted = norm(name)
    scopes = []
    if ctx.in_scene:
        scopes.append(("scene", ctx.seen_data.get("assets") or {}, ctx.data))
    scopes.append(("session", ctx.seen_session_data.get("assets") or {}, ctx.session_data))
    for scope, seen, data in scopes:
        for key, record in seen.items():
            stored = (data.get("assets") or {}).get(key)
            if norm(key) == wanted and isinstance(record, dict) and isinstance(stored, dict):
                return key, stored, scope
    return None


def check_counter(ctx: Table, sheet: SheetHandle | None, key: str, wanted: int, words) -> None:
    """Refuse, before any die is drawn, a cost the character cannot pay: `words` is
    (one, many) ("plot point", "plot points")."""
    if sheet is None or wanted <= 0:
        return
    held = ctx.character(sheet).counter(key)
    if wanted > held:
        one, many = words
        raise ActionError(
            f"That costs {wanted} {one if wanted == 1 else many}; {sheet.name} has {held}."
        )
