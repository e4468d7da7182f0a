"""What each rules action reads from the database and what it writes back.

`table.actions.perform` runs every action through a `Handler`:

- `authorize` refuses what the user's role does not allow for this action;
- `prepare` fills the request's state fields from the database (the sheet's
  dice and ratings, counters, the scene's Trouble Pool or contest), so the
  client's copy of state is never trusted;
- `precheck` refuses what the character cannot afford before any die is drawn,
  so a refusal can never be used to throw away a bad roll;
- `apply` writes what the outcome calls for: counters through
  `Counter.spend`/`Counter.add` (never below zero, even when two spends race),
  stress and other dice on sheet traits, and scene-scoped state in the locked
  `SceneState` row. Every write is also recorded in the event's `effects`.

Actions without a handler of their own (new ones included) get the default:
members may run them for their own characters and nothing is written but the
event. Table-level options travel in the request under the key "table" (see
docs/protocol.md): which contest, which target sheet, which earlier roll, which
tracker.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from django.db.models import F

from campaigns.models import Campaign, Membership, Scene
from rules.kit.actions import Action
from rules.kit.dice import parse_size
from rules.kit.errors import RulesError
from rules.kit.faces import FaceSource
from rules.kit.game import GameSystem
from rules.kit.requests import get_bool, get_int, get_str
from sheets import validation as sheet_rules
from sheets.models import Counter, Sheet, Trait

from . import undo, visibility
from .models import Kind, SceneState, SessionState, TableEvent, Visibility, canonical_json

MAX_KEPT_ROLLS = 30
MAX_ID = 2**53  # ids and seqs beyond this are no row's (and overflow SQLite)
MAX_FINISHED = 10


class ActionError(Exception):
    """A refused action; the message is shown to the player as is."""


# --------------------------------------------------------------------------- reading sheets


def norm(text: object) -> str:
    return " ".join(str(text).replace("\u2019", "'").casefold().split())


class Character:
    """A sheet with its traits and counters, read once per action."""

    def __init__(self, sheet: Sheet, system: GameSystem) -> None:
        self.sheet = sheet
        self.system = system
        self.traits: list[Trait] = list(
            Trait.objects.filter(sheet=sheet).select_related("parent", "link")
        )
        self._counters: dict[str, Counter] = {c.key: c for c in Counter.objects.filter(sheet=sheet)}

    @property
    def id(self) -> int:
        return self.sheet.pk

    @property
    def name(self) -> str:
        return self.sheet.name

    def group(self, group: str) -> list[Trait]:
        return [t for t in self.traits if t.group == group]

    def trait(self, group: str, name: object) -> Trait | None:
        wanted = norm(name)
        return next((t for t in self.traits if t.group == group and norm(t.name) == wanted), None)

    def require(self, group: str, name: object, what: str) -> Trait:
        trait = self.trait(group, name)
        if trait is None:
            raise ActionError(f"{self.name} has no {what} called “{str(name)[:40]}”.")
        return trait

    def counter(self, key: str) -> int:
        """The counter's value; a missing row is created with the template's default."""
        row = self._counters.get(key)
        if row is None:
            try:
                default = self.system.sheet_template.counter(key).default
            except KeyError:
                default = 0
            row, _ = Counter.objects.get_or_create(
                sheet=self.sheet, key=key, defaults={"value": default}
            )
            self._counters[key] = row
        return row.value

    def counter_max(self, key: str) -> int | None:
        try:
            return self.system.sheet_template.counter(key).maximum
        except KeyError:
            return None

    def stress_track(self) -> dict[str, str | None]:
        return {t.name: (t.die_label or None) for t in self.group("stress")}


def sheet_in(campaign: Campaign, sheet_id: object, *, is_gm: bool) -> Sheet:
    """A sheet of this campaign; hidden GM characters exist only for GMs."""
    if isinstance(sheet_id, bool) or not isinstance(sheet_id, int):
        raise ActionError("Choose a character.")
    if not 0 < sheet_id <= MAX_ID:
        raise ActionError("No such character in this campaign.")
    sheet = Sheet.objects.filter(campaign=campaign, pk=sheet_id).first()
    if sheet is None or (sheet.hidden and not is_gm):
        raise ActionError("No such character in this campaign.")
    return sheet


# --------------------------------------------------------------------------- the context


@dataclass
class Context:
    """Everything one action needs, built by perform() inside its transaction."""

    campaign: Campaign
    system: GameSystem
    action: Action
    user: Any
    membership: Membership
    request: dict[str, Any]
    params: dict[str, Any]
    visibility: str
    seq: int
    scene: Scene | None = None
    sheet: Sheet | None = None
    effects: list[dict[str, Any]] = field(default_factory=list)
    state_changed: bool = False
    # What changed on sheets, for their open pages (sheets.live): (sheet, trait or None
    # for a trait added or removed, group) and (sheet, counter key).
    changed_traits: list[tuple[Sheet, Trait | None, str]] = field(default_factory=list)
    changed_counters: list[tuple[Sheet, str]] = field(default_factory=list)
    _state: SceneState | None = None
    _before: str = ""  # the state as first read (canonical JSON), for undo_plan
    session_changed: bool = False
    _session: SessionState | None = None
    _session_before: str = ""
    _characters: dict[int, Character] = field(default_factory=dict)
    # Pieces of scene state a hidden action veils with a stand-in of its own choosing.
    veil_as: list[tuple[list, Any]] = field(default_factory=list)

    @property
    def is_gm(self) -> bool:
        return self.membership.is_gm

    @property
    def audience(self) -> str:
        return visibility.GM if self.is_gm else visibility.PLAYERS

    @property
    def seen_data(self) -> dict[str, Any]:
        """The scene state as the actor may see it: every lookup by a name or a seq the
        client sent goes through this, so a hidden piece is as absent as a missing one."""
        return visibility.visible_state(self.campaign.pk, self.data, self.audience)

    @property
    def seen_session_data(self) -> dict[str, Any]:
        return visibility.visible_state(self.campaign.pk, self.session_data, self.audience)

    @property
    def state(self) -> SceneState | None:
        """The running scene's state row, locked on first use (None without a scene)."""
        if self._state is None and self.scene is not None:
            self._state, _ = SceneState.objects.select_for_update().get_or_create(
                scene=self.scene, defaults={"campaign": self.campaign, "data": empty_state()}
            )
            self._before = canonical_json(self._state.data)
        return self._state

    @property
    def data(self) -> dict[str, Any]:
        if self.state is None:
            raise ActionError("Start a scene first: this is kept for the scene.")
        return self.state.data

    @property
    def session(self) -> SessionState:
        """The campaign's session state row (SER-10 session Assets), locked on first use;
        it outlives scenes, so it needs none."""
        if self._session is None:
            self._session = lock_session(self.campaign)
            self._session_before = canonical_json(self._session.data)
        return self._session

    @property
    def session_data(self) -> dict[str, Any]:
        return self.session.data

    def undo_plan(self) -> dict[str, Any]:
        """What voiding this event must give back: counter deltas, dice, flags, and the
        before/after of each piece of scene and session state the action changed."""
        state = []
        if self._state is not None and self.state_changed:
            before = undo.snapshot(json.loads(self._before))
            state = undo.changes(before, self._state.data)
        session = None
        if self._session is not None and self.session_changed:
            before = undo.snapshot(json.loads(self._session_before))
            session = {
                "number": self._session.session,
                "state": undo.changes(before, self._session.data),
            }
        return undo.record(self.effects, state, self.scene, session)

    def save_state(self) -> None:
        """Write the changed scene and session state, veiling from players what a
        hidden action changed (table.visibility)."""
        public = self.visibility == Visibility.PUBLIC
        if self._state is not None and self.state_changed:
            before = undo.snapshot(json.loads(self._before))
            visibility.record_veils(self._state.data, before, self.seq, public=public)
            for path, shown in self.veil_as:
                visibility.veil_piece(self._state.data, path, self.seq, shown)
            self._state.version += 1
            self._state.save(update_fields=["data", "version", "updated_at"])
        if self._session is not None and self.session_changed:
            before = undo.snapshot(json.loads(self._session_before))
            visibility.record_veils(self._session.data, before, self.seq, public=public)
            self._session.version += 1
            self._session.save(update_fields=["data", "version", "updated_at"])

    def touch(self) -> None:
        self.state_changed = True

    def character(self, sheet: Sheet | None = None) -> Character:
        sheet = sheet or self.sheet
        if sheet is None:
            raise ActionError("Choose the character this is for.")
        if sheet.pk not in self._characters:
            self._characters[sheet.pk] = Character(sheet, self.system)
        return self._characters[sheet.pk]

    def other_sheet(self, sheet_id: object) -> Sheet:
        return sheet_in(self.campaign, sheet_id, is_gm=self.is_gm)

    def controls(self, sheet: Sheet | None) -> bool:
        """GMs act for anyone and for GM characters; players only for their own PCs."""
        if self.is_gm:
            return True
        return sheet is not None and sheet.kind == Sheet.Kind.PC and sheet.owner_id == self.user.pk

    def require_control(self, sheet: Sheet | None) -> None:
        if not self.controls(sheet):
            raise ActionError("You can only act for your own characters.")

    def require_gm(self, what: str = "do that") -> None:
        if not self.is_gm:
            raise ActionError(f"Only the GM can {what}.")

    def param_int(self, key: str) -> int | None:
        value = self.params.get(key)
        if value is None or value == "":
            return None
        if isinstance(value, str) and re.fullmatch(r"[0-9]{1,16}", value.strip()):
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_ID:
            raise ActionError(f"table.{key} must be a whole number.")
        return value

    def param_str(self, key: str, default: str = "") -> str:
        value = self.params.get(key, default)
        if not isinstance(value, str) or len(value) > 80:
            raise ActionError(f"table.{key} must be text of at most 80 characters.")
        return value.strip()

    # ---- writes, each recorded as an effect

    def spend(self, sheet: Sheet | None, key: str, amount: int, label: str) -> None:
        if sheet is None or amount <= 0:
            return
        char = self.character(sheet)
        held = char.counter(key)
        if not Counter.spend(sheet.pk, key, amount):
            raise ActionError(f"{sheet.name} has only {held} {label} left.")
        char._counters[key].value = held - amount
        self.changed_counters.append((sheet, key))
        self.effects.append({"sheet": sheet.pk, "counter": key, "from": held, "to": held - amount})

    def give(self, sheet: Sheet | None, key: str, amount: int, label: str, maximum=None) -> None:
        if sheet is None or amount <= 0:
            return
        char = self.character(sheet)
        held = char.counter(key)
        cap = maximum if maximum is not None else char.counter_max(key)
        if not Counter.add(sheet.pk, key, amount, maximum=cap):
            raise ActionError(f"{sheet.name} cannot hold more than {cap} {label}.")
        char._counters[key].value = held + amount
        self.changed_counters.append((sheet, key))
        self.effects.append({"sheet": sheet.pk, "counter": key, "from": held, "to": held + amount})

    def set_counter(self, sheet: Sheet, key: str, value: int) -> None:
        char = self.character(sheet)
        held = char.counter(key)
        if held == value:
            return
        Counter.objects.filter(sheet=sheet, key=key).update(value=value, version=F("version") + 1)
        char._counters[key].value = value
        self.changed_counters.append((sheet, key))
        self.effects.append({"sheet": sheet.pk, "counter": key, "from": held, "to": value})

    def set_die(self, sheet: Sheet, group: str, name: str, die: str | None) -> None:
        """Set a die trait (d4-d12, d12+dN for Skills); None removes the die."""
        char = self.character(sheet)
        trait = char.trait(group, name)
        size, plus = _spec(die)
        if trait is None:
            if size is None:
                return
            trait = Trait.objects.create(
                sheet=sheet, group=group, name=name, die=size, plus_die=plus
            )
            char.traits.append(trait)
            before = None
            self.changed_traits.append((sheet, None, group))
        else:
            before = trait.die_label or None
            if group == "stress" or size is not None:
                Trait.objects.filter(pk=trait.pk).update(
                    die=size, plus_die=plus, version=F("version") + 1
                )
                trait.die, trait.plus_die = size, plus
                self.changed_traits.append((sheet, trait, group))
            else:
                trait.delete()
                char.traits.remove(trait)
                self.changed_traits.append((sheet, None, group))
        self.effects.append(
            {"sheet": sheet.pk, "trait": name, "group": group, "from": before, "to": die}
        )

    def flag_trait(self, sheet: Sheet, group: str, name: str, flag: str) -> None:
        trait = self.character(sheet).trait(group, name)
        if trait is None or (trait.flags or {}).get(flag):
            return
        trait.flags = {**(trait.flags or {}), flag: True}
        Trait.objects.filter(pk=trait.pk).update(flags=trait.flags, version=F("version") + 1)
        self.changed_traits.append((sheet, trait, group))
        self.effects.append({"sheet": sheet.pk, "trait": name, "group": group, "flag": flag})

    def notify_sheets(self) -> None:
        """Open sheet pages re-fetch what this action changed (sent after commit)."""
        from sheets import live

        for sheet, trait, group in dict.fromkeys(self.changed_traits):
            if trait is None:
                live.group_changed(sheet, group)
            else:
                live.trait_changed(sheet, trait)
        for sheet, key in dict.fromkeys(self.changed_counters):
            live.counter_changed(sheet, SimpleNamespace(key=key))

    def note(self, **change: Any) -> None:
        """A scene-state change, recorded as an effect."""
        self.touch()
        self.effects.append({"scene_state": change})

    def note_session(self, **change: Any) -> None:
        """A session-state change (SER-10 session Assets), recorded as an effect."""
        self.session_changed = True
        self.effects.append({"session_state": change})


def _spec(die: object) -> tuple[int | None, int | None]:
    if die is None:
        return None, None
    text = str(die)
    if "+" in text:
        base, plus = text.split("+", 1)
        return parse_size(base), parse_size(plus)
    return parse_size(text), None


# --------------------------------------------------------------------------- scene state


def empty_state() -> dict[str, Any]:
    return {"next_id": 1}


def lock_session(campaign: Campaign) -> SessionState:
    """The campaign's session state row, locked (the campaign's log head is locked too,
    so creating it cannot race). A first row belongs to the session under way."""
    row = SessionState.objects.select_for_update().filter(campaign_id=campaign.pk).first()
    if row is None:
        number = TableEvent.objects.filter(campaign_id=campaign.pk, kind=Kind.SESSION_START).count()
        row = SessionState.objects.create(campaign_id=campaign.pk, session=number, data={})
    return row


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


def table_asset(ctx: Context, name: object) -> tuple[str, dict[str, Any], str] | None:
    """A scene Asset (CTX-7) or session Asset (SER-10) the actor may see, by name: (name,
    the stored record, "scene" or "session"); the scene's first, as it is the nearer one.
    One hidden from the actor is as missing as one that does not exist."""
    wanted = norm(name)
    scopes = []
    if ctx.scene is not None:
        scopes.append(("scene", ctx.seen_data.get("assets") or {}, ctx.data))
    scopes.append(("session", ctx.seen_session_data.get("assets") or {}, ctx.session_data))
    for scope, seen, data in scopes:
        for key, record in seen.items():
            stored = (data.get("assets") or {}).get(key)
            if norm(key) == wanted and isinstance(record, dict) and isinstance(stored, dict):
                return key, stored, scope
    return None


def new_id(ctx: Context) -> int:
    data = ctx.data
    number = int(data.get("next_id", 1))
    data["next_id"] = number + 1
    return number


def visible_state(campaign: Campaign, data: Mapping[str, Any], *, gm: bool) -> dict[str, Any]:
    """The scene or session state as a user may see it (table.visibility decides)."""
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


# --------------------------------------------------------------------------- handlers


class Handler:
    """Default: anyone who may act runs it for a character they control; no state."""

    needs_scene = False  # keeps scene-scoped state: refused without an active scene
    public_only = False  # changes what everyone sees: cannot be secret or blind
    gm_only = False
    sheet_required = False  # even for the GM

    def authorize(self, ctx: Context) -> None:
        if self.gm_only:
            ctx.require_gm(f"use “{ctx.action.title}”")
        if ctx.sheet is not None:
            ctx.require_control(ctx.sheet)
        elif not ctx.is_gm or self.sheet_required:
            raise ActionError("Choose the character this is for.")

    def prepare(self, ctx: Context) -> None:
        pass

    def precheck(self, ctx: Context) -> None:
        pass

    def apply(self, ctx: Context, outcome: dict[str, Any]) -> None:
        pass


DEFAULT = Handler()


def dry_run(action: Action, request: Mapping) -> dict[str, Any]:
    """Resolve with stand-in faces to learn what a request costs before rolling it.

    Costs (Smallville's paid dice) never depend on the faces, so any faces do.
    """

    class Stand(FaceSource):
        def __init__(self) -> None:
            self.faces = []

        def draw(self, size: int) -> int:
            return 2

    try:
        return action.resolver(copy.deepcopy(dict(request)), Stand())
    except RulesError as error:
        raise ActionError(_sentence(str(error))) from error


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] if text else "That is not allowed."


def _int_field(request: Mapping, key: str, default: int = 0) -> int:
    value = request.get(key, default)
    return value if isinstance(value, int) and not isinstance(value, bool) else default


# ---- Cortex Plus pools (Serenity, Smallville)

OWN_GROUPS = {
    "serenity": ("stylins", "refinements", "values", "aspects", "resources", "assets"),
    "smallville": ("values", "relationships", "abilities", "distinctions"),
    "cortex_slots": ("attributes", "distinctions", "skills", "assets", "talents"),
}
SIDE_GROUPS = ("locations", "extras")


# Dice of the other side a pool may hold (SER-1 complications and stress, SMV-4 stress,
# SMV-5 Limits): each names its holder, and the table says its die.
OTHER_SIDE_GROUPS = {
    "serenity": ("complications", "stress"),
    "smallville": ("stress", "limits"),
}


def not_on_table(raw: Mapping) -> ActionError:
    """The refusal for a die the roller may not use. Its words come from the request alone,
    so a die hidden from the roller is refused exactly as one that does not exist."""
    return ActionError(f"{entry_label(raw)} is not on the table.")


def entry_label(raw: Mapping) -> str:
    """'Injured d12': the entry as the request named it."""
    name = " ".join(str(raw.get("trait") or "").split())[:40]
    try:
        die = f"d{parse_size(raw.get('die'))}"
    except RulesError:
        die = ""
    return " ".join(part for part in (name, die) if part) or "That die"


def holder_id(raw: Mapping) -> int | None:
    """The sheet id an entry names as its holder ("sheet"), or None."""
    value = raw.get("sheet")
    if isinstance(value, str) and re.fullmatch(r"[0-9]{1,16}", value.strip()):
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= MAX_ID:
        return None
    return value


def holder_sheet(ctx: Context, sheet_id: int) -> Sheet | None:
    """A sheet of this campaign the actor may see: hidden GM characters exist only for GMs."""
    sheet = Sheet.objects.filter(campaign=ctx.campaign, pk=sheet_id).first()
    if sheet is None or (sheet.hidden and not ctx.is_gm):
        return None
    return sheet


def scene_view(ctx: Context) -> Mapping[str, Any]:
    """The scene state a pool may draw on: all of it for a GM; for anyone else only what
    visible_state shows them, so what is hidden from them counts as missing."""
    return ctx.seen_data if ctx.scene is not None else {}


class TableView:
    """The scene state for one pool, read (and filtered for the actor) on first use."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._data: Mapping[str, Any] | None = None

    @property
    def data(self) -> Mapping[str, Any]:
        if self._data is None:
            self._data = scene_view(self.ctx)
        return self._data


def _held_in(records: object, name: object) -> tuple[str, str] | None:
    """(name, die) of the record called `name` in a {name: die} mapping of the scene."""
    if not isinstance(records, Mapping):
        return None
    wanted = norm(name)
    for key, die in records.items():
        if norm(key) == wanted and isinstance(die, str) and die:
            return key, die
    return None


def other_side_die(ctx: Context, raw: Mapping, view: TableView) -> dict[str, Any] | None:
    """SER-1, SMV-4, SMV-5: a complication, stress die or Limit of the other side, read
    where the table keeps it. The entry names its holder: "sheet" (a character: the die on
    their sheet, or a complication the GM activated for them in this scene) or "side" (a
    contest side without a sheet: the stress it took in this scene). None when it is not
    there, or its holder is hidden from the actor."""
    group, name = raw["group"], raw.get("trait", "")
    sheet_id = holder_id(raw)
    if sheet_id is not None:
        sheet = holder_sheet(ctx, sheet_id)
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
            found = _held_in(held, name)
            if found is not None:
                return {**raw, "trait": found[0], "die": found[1], "sheet": sheet.pk}
        return None
    side = raw.get("side")
    if group == "stress" and isinstance(side, str) and side.strip():
        for side_name, track in (view.data.get("side_stress") or {}).items():
            found = _held_in(track, name) if norm(side_name) == norm(side) else None
            if found is not None:
                return {**raw, "trait": found[0], "die": found[1], "side": side_name}
    return None


def fill_other_side(
    ctx: Context, raw: Mapping, roller: Sheet | None, view: TableView
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


def fill_pool(ctx: Context, entries: object, sheet: Sheet | None) -> object:
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
    own = OWN_GROUPS.get(ctx.system.slug, ()) if char is not None else ()
    other = OTHER_SIDE_GROUPS.get(ctx.system.slug, ())
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
        if group == "refinements":
            entry["parent"] = trait.parent.name if trait.parent_id else ""
        if ctx.system.slug == "smallville" and group == "distinctions":
            entry["heritage"] = bool((trait.flags or {}).get("heritage"))
        filled.append(entry)
    return filled


def fill_side_pool(ctx: Context, entries: object, sheet: Sheet | None) -> object:
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
            filled.append(
                {
                    **raw,
                    "trait": trait.name,
                    "die": trait.die_label,
                    "on_sheet": True,
                    "used": bool((trait.flags or {}).get("used")),
                }
            )
            continue
        other = holder_sheet(ctx, holder) if holder is not None and not mine else None
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


def reset_session(campaign: Campaign) -> tuple[list[dict[str, Any]], list[str]]:
    """SMV-7: at a new session every Resource marked used is free again. Returns the
    effects (for the session's event) and "Sheet: Resource" names; open sheets refresh."""
    from sheets import live

    effects, freed = [], []
    traits = Trait.objects.filter(sheet__campaign_id=campaign.pk, group__in=SIDE_GROUPS)
    for trait in traits.select_related("sheet").order_by("sheet_id", "group", "position", "pk"):
        if not (trait.flags or {}).get("used"):
            continue
        trait.flags = {k: v for k, v in trait.flags.items() if k != "used"}
        Trait.objects.filter(pk=trait.pk).update(flags=trait.flags, version=F("version") + 1)
        live.trait_changed(trait.sheet, trait)
        if trait.sheet.hidden:
            continue  # freed too, but a hidden GM character is not named to players
        effects.append(
            {"sheet": trait.sheet_id, "trait": trait.name, "group": trait.group,
             "flag": "used", "cleared": True}
        )  # fmt: skip
        freed.append(f"{trait.sheet.name}: {trait.name}")
    return effects, freed


def check_plot_points(ctx: Context, sheet: Sheet | None, wanted: int) -> None:
    if sheet is None or wanted <= 0:
        return
    held = ctx.character(sheet).counter("plot_points")
    if wanted > held:
        raise ActionError(
            f"That costs {wanted} plot point{'s' if wanted != 1 else ''}; {sheet.name} has {held}."
        )


def check_pool_cost(ctx: Context, sheet: Sheet | None, request: Mapping, *, gm: bool) -> None:
    """Refuse, before any die is drawn, a pool the character cannot pay for."""
    if sheet is not None:
        check_plot_points(ctx, sheet, smv_pool_cost(ctx, request, gm=gm))


def apply_value_step(ctx: Context, sheet: Sheet | None, step: Mapping | None) -> None:
    """SER-9 / SMV-2: a challenged trait steps down (a d4 is removed)."""
    if sheet is None or not isinstance(step, Mapping):
        return
    trait, group = step.get("trait"), step.get("group", "values")
    if ctx.character(sheet).trait(group, trait) is None:
        return
    ctx.set_die(sheet, group, ctx.character(sheet).trait(group, trait).name, step.get("to"))


def smv_pool_cost(ctx: Context, request: Mapping, *, gm: bool) -> int:
    """Plot points one side's pool may cost: Smallville's paid dice (SMV-3..7), worked out
    by the roll action on that side, plus the plot points named for the result."""
    cost = 0
    if ctx.system.slug == "smallville":
        side = {**request, "watchtower": gm}
        cost = _int_field(dry_run(ctx.system.action("roll"), side), "plot_points_for_dice")
    return cost + _int_field(request, "plot_points")


def smv_useful_details(ctx: Context, request: dict) -> None:
    """SMV-6: a Useful Detail already made in this scene is reused for free (a player reuses
    only one they may see); one the Watchtower takes from the Trouble Pool comes out of the
    scene's pool. A player's own is a d6 (the rules refuse any other size)."""
    details = [
        e
        for e in request.get("pool") or ()
        if isinstance(e, dict) and e.get("group") == "useful_details"
    ]
    if ctx.scene is None or not details:
        return
    known = {norm(k) for k in scene_view(ctx).get("useful_details") or {}}
    for entry in details:
        entry["reused"] = norm(entry.get("trait", "")) in known
        if entry.get("from_trouble"):
            request["trouble_pool"] = list(ctx.data.get("trouble_pool", []))


def prepare_cortex_side(ctx: Context, request: dict, sheet: Sheet | None) -> None:
    """One side's pool in a Cortex Plus roll, test or contest, filled from its sheet."""
    if "pool" in request:
        request["pool"] = fill_pool(ctx, request["pool"], sheet)
    if ctx.system.slug == "smallville":
        if "side_pool" in request:
            request["side_pool"] = fill_side_pool(ctx, request["side_pool"], sheet)
        smv_useful_details(ctx, request)


def apply_cortex_side(ctx: Context, sheet: Sheet | None, outcome: Mapping, *, later=None) -> None:
    """Plot points a roll spent, challenged traits stepping down, Resources used,
    new Useful Details, a die taken from the Trouble Pool."""
    ctx.spend(sheet, "plot_points", _int_field(outcome, "plot_points_spent"), "plot points")
    apply_value_step(ctx, sheet, outcome.get("value_steps_down"))
    for step in outcome.get("steps_down_after_conflict") or []:
        if later is not None:
            later.append({"sheet": sheet.pk if sheet else None, **step})
        else:
            apply_value_step(ctx, sheet, step)
    if sheet is not None:
        for name in outcome.get("resources_used") or []:
            for group in SIDE_GROUPS:
                ctx.flag_trait(sheet, group, name, "used")
    made = [
        e
        for e in outcome.get("costs") or ()
        if e.get("group") == "useful_details" and e.get("trait")
    ]
    if ctx.scene is not None and (made or "trouble_pool" in outcome):
        details = ctx.data.setdefault("useful_details", {})
        for entry in made:
            if entry["trait"] not in details:
                details[entry["trait"]] = {
                    "die": entry.get("die"),
                    "sheet": sheet.pk if sheet else None,
                    "seq": ctx.seq,
                }
                ctx.note(useful_detail=entry["trait"])
        if "trouble_pool" in outcome and outcome["trouble_pool"] != ctx.data.get("trouble_pool"):
            ctx.data["trouble_pool"] = list(outcome["trouble_pool"])
            ctx.note(trouble_pool=ctx.data["trouble_pool"])


def apply_steps(ctx: Context, steps: list) -> None:
    for step in steps or []:
        sheet_id = step.get("sheet")
        if sheet_id:
            sheet = Sheet.objects.filter(campaign=ctx.campaign, pk=sheet_id).first()
            apply_value_step(ctx, sheet, step)


class CortexRoll(Handler):
    """SER-1..4, 8, 9 and SMV-1..9: one pool from the character's sheet."""

    def gm_pool(self, ctx: Context) -> bool:
        return ctx.is_gm and (ctx.sheet is None or ctx.sheet.kind == Sheet.Kind.NPC)

    def prepare(self, ctx: Context) -> None:
        flag = "gm" if ctx.system.slug == "serenity" else "watchtower"
        ctx.request[flag] = self.gm_pool(ctx)
        prepare_cortex_side(ctx, ctx.request, ctx.sheet)

    def precheck(self, ctx: Context) -> None:
        check_pool_cost(ctx, ctx.sheet, ctx.request, gm=self.gm_pool(ctx))

    def apply(self, ctx: Context, outcome: dict[str, Any]) -> None:
        apply_cortex_side(ctx, ctx.sheet, outcome)


class CortexTest(Handler):
    """SER-5 / SMV-10 test: the GM runs it, with the player's pool from their sheet."""

    gm_only = True

    def prepare(self, ctx: Context) -> None:
        player = ctx.request.get("player")
        if isinstance(player, dict):
            player = dict(player)
            prepare_cortex_side(ctx, player, ctx.sheet)
            ctx.request["player"] = player

    def precheck(self, ctx: Context) -> None:
        player = ctx.request.get("player")
        if isinstance(player, dict):
            check_pool_cost(ctx, ctx.sheet, player, gm=False)

    def apply(self, ctx: Context, outcome: dict[str, Any]) -> None:
        apply_cortex_side(ctx, ctx.sheet, outcome.get("player") or {})


# ---- Contests (SER-6, SER-7, SER-10, SMV-10)

OPEN_STATUSES = ("open", "stress_pending")


def contest_record(ctx: Context) -> dict[str, Any]:
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


def side_sheet(ctx: Context, record: Mapping, side: int) -> Sheet | None:
    sheet_id = record["sheets"][side]
    if sheet_id is None:
        return None
    return Sheet.objects.filter(campaign=ctx.campaign, pk=sheet_id).first()


def require_side(ctx: Context, record: Mapping, side: int) -> Sheet | None:
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


def finish_contest(ctx: Context, record: dict) -> None:
    apply_steps(ctx, record.pop("steps_down", []))
    contests = ctx.data["contests"]
    done = [k for k, r in contests.items() if r["contest"]["status"] not in OPEN_STATUSES]
    for key in done[:-MAX_FINISHED]:
        contests.pop(key)


class ContestStart(Handler):
    needs_scene = True
    public_only = True

    def authorize(self, ctx: Context) -> None:
        pass  # checked in prepare, once the sides are known

    def prepare(self, ctx: Context) -> None:
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
            side["gm"] = sheet is None or sheet.kind == Sheet.Kind.NPC
            sheets.append(sheet.pk if sheet else None)
            cleaned.append(side)
        ctx.request["sides"] = cleaned
        ctx.params["sheets"] = sheets
        if not ctx.is_gm:
            mine = [s for s in sheets if s is not None and ctx.sheet and s == ctx.sheet.pk]
            if ctx.sheet is None or not mine:
                raise ActionError("Start a contest for your own character.")
            ctx.require_control(ctx.sheet)

    def apply(self, ctx: Context, outcome: dict[str, Any]) -> None:
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


class ContestMove(Handler):
    """Roll, give in: the side whose turn it is moves."""

    needs_scene = True
    public_only = True
    rolls = False

    def authorize(self, ctx: Context) -> None:
        pass

    def prepare(self, ctx: Context) -> None:
        record = contest_record(ctx)
        ctx.params["contest"] = record["id"]
        contest = record["contest"]
        if contest["status"] != "open":
            raise ActionError("This contest is decided: the winner picks the stress.")
        ctx.request["contest"] = contest
        sheet = require_side(ctx, record, contest["turn"])
        if self.rolls:
            prepare_cortex_side(ctx, ctx.request, sheet)

    def precheck(self, ctx: Context) -> None:
        if self.rolls:
            contest = ctx.request["contest"]
            gm = contest["sides"][contest["turn"]]["gm"]
            check_pool_cost(ctx, ctx.sheet, ctx.request, gm=gm)

    def apply(self, ctx: Context, outcome: dict[str, Any]) -> None:
        record = ctx.data["contests"][str(ctx.params["contest"])]
        record["contest"] = outcome["contest"]
        if self.rolls:
            later = record.setdefault("steps_down", [])
            apply_cortex_side(ctx, ctx.sheet, outcome.get("roll") or {}, later=later)
        if outcome["contest"]["status"] not in OPEN_STATUSES:
            finish_contest(ctx, record)
        ctx.note(contest=record["id"], status=outcome["contest"]["status"])


class ContestRoll(ContestMove):
    rolls = True


def held_stress(ctx: Context, record: Mapping, side: int) -> tuple[Sheet | None, dict]:
    sheet = side_sheet(ctx, record, side)
    if sheet is not None:
        return sheet, ctx.character(sheet).stress_track()
    name = record["contest"]["sides"][side]["name"]
    return None, dict(ctx.data.get("side_stress", {}).get(name, {}))


def write_stress(ctx: Context, sheet: Sheet | None, side_name: str, change: Mapping) -> None:
    """SER-7: the stress die now held; past d12 the character is taken out of the scene."""
    stress_type, now = change.get("type"), change.get("to")
    if not stress_type:
        return
    if sheet is not None:
        ctx.set_die(sheet, "stress", stress_type, now)
    else:
        ctx.data.setdefault("side_stress", {}).setdefault(side_name, {})[stress_type] = now
        ctx.note(side_stress=side_name, type=stress_type, to=now)
    if change.get("taken_out") and ctx.scene is not None:
        who = {"sheet": sheet.pk if sheet else None, "name": sheet.name if sheet else side_name}
        taken = ctx.data.setdefault("taken_out", [])
        if who not in taken:
            taken.append({**who, "seq": ctx.seq})
            ctx.note(taken_out=who["name"])


class ContestStress(Handler):
    needs_scene = True
    public_only = True

    def authorize(self, ctx: Context) -> None:
        pass

    def prepare(self, ctx: Context) -> None:
        record = contest_record(ctx)
        ctx.params["contest"] = record["id"]
        contest = record["contest"]
        if contest["status"] != "stress_pending":
            raise ActionError("This contest is not waiting for stress to be chosen.")
        ctx.request["contest"] = contest
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

    def apply(self, ctx: Context, outcome: dict[str, Any]) -> None:
        record = ctx.data["contests"][str(ctx.params["contest"])]
        loser = record["contest"]["failed"]["side"]
        record["contest"] = outcome["contest"]
        name = record["contest"]["sides"][loser]["name"]
        write_stress(ctx, ctx.sheet, name, outcome.get("stress_change") or {})
        winner = record["contest"]["winner"]
        apply_benefit(ctx, side_sheet(ctx, record, winner), outcome.get("benefit"))
        finish_contest(ctx, record)
        ctx.note(contest=record["id"], status=outcome["contest"]["status"])


def apply_benefit(ctx: Context, winner: Sheet | None, benefit: object) -> None:
    """SER-10: the chosen benefit lands where its die lives (the winner's sheet, or the
    scene's or session's Asset used in the roll)."""
    if not isinstance(benefit, Mapping) or winner is None:
        return
    key, trait = benefit.get("benefit"), benefit.get("trait")
    group = {
        "step_up_asset": "assets",
        "remove_complication": "complications",
        "step_down_complication": "complications",
        "step_down_stress": "stress",
    }.get(key)
    if group and trait and ctx.character(winner).trait(group, trait) is not None:
        ctx.set_die(
            winner, group, ctx.character(winner).trait(group, trait).name, benefit.get("to")
        )
    elif key == "step_up_asset" and trait and benefit.get("to"):
        shared = table_asset(ctx, trait)
        if shared is not None:
            name, record, scope = shared
            record["die"] = benefit["to"]
            if scope == "scene":
                ctx.note(asset=name, die=benefit["to"])
            else:
                ctx.note_session(session_asset=name, die=benefit["to"])
    elif key == "promote_asset" and trait:
        promote_asset(ctx, winner, str(trait))


NEW_ASSET_DIE = "d6"


def promote_asset(ctx: Context, winner: Sheet, name: str) -> None:
    """SER-10: a scene Asset becomes a session Asset. It leaves the scene's state for the
    session's (so it survives the scene's end), keeps its die, and expires at the next
    session_start. An Asset the app does not keep for the scene (made up in play)
    becomes a d6 session Asset. Refused (nothing is written; no dice were drawn) for an
    Asset on the winner's sheet or one that is a session Asset already."""
    if ctx.character(winner).trait("assets", name) is not None:
        raise ActionError(
            f"“{name}” is on {winner.name}'s sheet: it lasts longer than a session already."
        )
    shared = table_asset(ctx, name)
    if shared is not None and shared[2] == "session":
        raise ActionError(f"“{shared[0]}” is a session Asset already.")
    die = NEW_ASSET_DIE
    if shared is not None:
        name, record, _ = shared
        die = record.get("die") or NEW_ASSET_DIE
        ctx.data["assets"].pop(name)
        ctx.note(promoted=name)
    ctx.session_data.setdefault("assets", {})[name] = {
        "die": die,
        "sheet": winner.pk,
        "seq": ctx.seq,
        "scene": ctx.scene.title if ctx.scene is not None else None,
    }
    ctx.note_session(session_asset=name, die=die)


class TakeStress(Handler):
    """SER-7 / SMV-10 outside a contest: the character's own stress track."""

    def prepare(self, ctx: Context) -> None:
        if ctx.sheet is None:
            raise ActionError("Choose the character taking stress.")
        ctx.request["stress"] = ctx.character().stress_track()

    def apply(self, ctx: Context, outcome: dict[str, Any]) -> None:
        write_stress(ctx, ctx.sheet, ctx.sheet.name, outcome)


class ActivateComplication(Handler):
    """SER-3: the GM activates a 1; the roller gains a plot point and a complication."""

    gm_only = True
    sheet_required = True

    def prepare(self, ctx: Context) -> None:
        char = ctx.character()
        ctx.request["plot_points"] = char.counter("plot_points")
        held = {t.name: t.die_label for t in char.group("complications") if t.die}
        if ctx.scene is not None:
            held.update(ctx.data.get("complications", {}).get(str(char.id), {}))
        ctx.request["complications"] = held

    def apply(self, ctx: Context, outcome: dict[str, Any]) -> None:
        ctx.give(ctx.sheet, "plot_points", 1, "plot points")
        change = outcome.get("change") or {}
        name = change.get("trait")
        if ctx.character().trait("complications", name) is not None:
            ctx.set_die(ctx.sheet, "complications", name, change.get("to"))
        elif name:
            scene = ctx.data.setdefault("complications", {}).setdefault(str(ctx.sheet.pk), {})
            scene[name] = change.get("to")
            ctx.note(complication=name, sheet=ctx.sheet.pk, to=change.get("to"))


NO_SUCH_TEST = "That is not a test with an extraordinary success that is still to be claimed."


def extraordinary_test(ctx: Context) -> TableEvent:
    """SER-10: the logged test whose extraordinary success a benefit claims: the one
    `table.roll` names, or the latest the actor may see; one hidden from the actor, one
    without an extraordinary success and one already claimed are refused alike."""
    wanted = ctx.param_int("roll")
    tests = TableEvent.objects.filter(
        campaign_id=ctx.campaign.pk, kind=Kind.ACTION, action="test", voided=False
    )
    if wanted is not None:
        tests = tests.filter(seq=wanted)
    elif ctx.sheet is not None:
        tests = tests.filter(character_id=ctx.sheet.pk)
    claimed = set(
        TableEvent.objects.filter(
            campaign_id=ctx.campaign.pk, action="benefit", voided=False
        ).values_list("params__roll", flat=True)
    )
    for event in tests.order_by("-seq")[:MAX_KEPT_ROLLS]:
        if (
            visibility.sees(event, ctx.audience)
            and isinstance(event.outcome.get("extraordinary"), Mapping)
            and event.seq not in claimed
        ):
            return event
    raise ActionError(NO_SUCH_TEST)


class Benefit(Handler):
    """SER-10 after a test: the margin, both pools and who won come from the logged test
    (table.roll); the winner's player picks (the GM for the GM's side). The GM may also
    name a benefit for a roll-off the table did not record, free-form."""

    def authorize(self, ctx: Context) -> None:
        if ctx.sheet is not None:
            ctx.require_control(ctx.sheet)
        elif not ctx.is_gm:
            raise ActionError("Choose the character this is for.")

    def prepare(self, ctx: Context) -> None:
        if ctx.is_gm and ctx.param_int("roll") is None and "margin" in ctx.request:
            self.fill_sides(ctx)
            return
        test = extraordinary_test(ctx)
        won = test.outcome["extraordinary"]
        by_gm = won.get("by") == "opposition"
        if by_gm:
            ctx.require_gm("claim the GM side's extraordinary success")
        elif ctx.sheet is None or test.character_id != ctx.sheet.pk:
            raise ActionError(NO_SUCH_TEST)
        sides = [test.request.get("player") or {}, test.request.get("opposition") or {}]
        winner, loser = (sides[1], sides[0]) if by_gm else (sides[0], sides[1])
        ctx.params["roll"] = test.seq
        loser_pool = list(loser.get("pool") or [])
        if not by_gm:
            # The winner's own stress and complications as their sheet holds them now.
            view = TableView(ctx)
            loser_pool = [self.winners_own(ctx, raw, view, strict=False) for raw in loser_pool]
        ctx.request.update(
            gm=by_gm,
            margin=int(won.get("margin") or 0),
            winner_pool=list(winner.get("pool") or []),
            loser_pool=loser_pool,
            stress_die=None,
        )
        if by_gm:
            ctx.sheet = None

    def fill_sides(self, ctx: Context) -> None:
        if ctx.sheet is None:
            return
        ctx.request["winner_pool"] = fill_pool(ctx, ctx.request.get("winner_pool"), ctx.sheet)
        loser = ctx.request.get("loser_pool")
        if isinstance(loser, list):
            view = TableView(ctx)
            ctx.request["loser_pool"] = [self.winners_own(ctx, raw, view) for raw in loser]

    @staticmethod
    def winners_own(ctx: Context, raw: object, view: TableView, *, strict: bool = True) -> object:
        """A stress or complication die in the other side's pool was rolled against the
        winner, so it is the winner's: read from their sheet, or from the complications the
        GM activated for them in this scene. A player cannot name one the winner lacks."""
        if not isinstance(raw, Mapping) or raw.get("group") not in ("stress", "complications"):
            return raw
        trait = ctx.character().trait(raw["group"], raw.get("trait", ""))
        if trait is not None and trait.die:
            return {**raw, "trait": trait.name, "die": trait.die_label, "sheet": ctx.sheet.pk}
        if raw["group"] == "complications":
            held = (view.data.get("complications") or {}).get(str(ctx.sheet.pk))
            found = _held_in(held, raw.get("trait", ""))
            if found is not None:
                return {**raw, "trait": found[0], "die": found[1], "sheet": ctx.sheet.pk}
        if ctx.is_gm or not strict:
            return raw
        raise not_on_table(raw)

    def precheck(self, ctx: Context) -> None:
        if ctx.request.get("benefit") == "promote_asset" and ctx.visibility != "public":
            raise ActionError("Promoting an Asset changes what everyone sees, so it is public.")

    def apply(self, ctx: Context, outcome: dict[str, Any]) -> None:
        apply_benefit(ctx, ctx.sheet, outcome.get("benefit"))


class Awareness(Handler):
    """SER-11: the pool is suggested from the sheet's own Stylin's and Refinements."""

    def prepare(self, ctx: Context) -> None:
        if ctx.sheet is None:
            return
        char = ctx.character()
        ctx.request["stylins"] = {t.name: t.die_label for t in char.group("stylins") if t.die}
        ctx.request["refinements"] = [
            {"trait": t.name, "die": t.die_label, "parent": t.parent.name if t.parent_id else ""}
            for t in char.group("refinements")
            if t.die
        ]


# ---- Smallville's Trouble Pool and Shut Down (SMV-9, SMV-5)


class Trouble(Handler):
    needs_scene = True
    public_only = True

    def authorize(self, ctx: Context) -> None:
        operation = ctx.request.get("operation")
        if operation == "add":
            ctx.require_gm("add to the Trouble Pool")
        if ctx.sheet is not None:
            if operation != "add":
                ctx.require_control(ctx.sheet)
        elif not ctx.is_gm or operation == "remove":
            raise ActionError("Choose the character who pays.")

    def prepare(self, ctx: Context) -> None:
        ctx.request["trouble_pool"] = list(ctx.data.get("trouble_pool", []))

    def precheck(self, ctx: Context) -> None:
        if ctx.request.get("operation") == "remove":
            check_plot_points(ctx, ctx.sheet, 1)

    def apply(self, ctx: Context, outcome: dict[str, Any]) -> None:
        paid = _int_field(outcome, "plot_points_paid")
        if outcome.get("paid_by") == "watchtower":
            ctx.give(ctx.sheet, "plot_points", paid, "plot points")
        else:
            ctx.spend(ctx.sheet, "plot_points", paid, "plot points")
        ctx.data["trouble_pool"] = list(outcome.get("trouble_pool", []))
        ctx.note(trouble_pool=ctx.data["trouble_pool"])


class ShutDown(Handler):
    def prepare(self, ctx: Context) -> None:
        target = ctx.param_int("target")
        if target is not None and ctx.scene is not None:
            ctx.request["stressed_out"] = any(
                t.get("sheet") == target for t in ctx.data.get("taken_out", [])
            )

    def precheck(self, ctx: Context) -> None:
        if not ctx.request.get("stressed_out"):
            check_plot_points(ctx, ctx.sheet, 1)

    def apply(self, ctx: Context, outcome: dict[str, Any]) -> None:
        ctx.spend(ctx.sheet, "plot_points", _int_field(outcome, "plot_points_paid"), "plot points")
        if ctx.scene is not None:
            ctx.data.setdefault("shut_down", []).append(
                {
                    "ability": outcome.get("shut_down"),
                    "target": ctx.param_int("target"),
                    "seq": ctx.seq,
                }  # fmt: skip
            )
            ctx.note(shut_down=outcome.get("shut_down"))


# ---- Cortex with Total and Effect slots (CTX)


def keep_roll(ctx: Context, sheet: Sheet | None, dice: list, **extra: Any) -> None:
    if ctx.scene is None:
        return
    rolls = ctx.data.setdefault("rolls", {})
    rolls[str(ctx.seq)] = {"seq": ctx.seq, "sheet": sheet.pk if sheet else None, "dice": dice,
                           **extra}  # fmt: skip
    for key in sorted(rolls, key=int)[:-MAX_KEPT_ROLLS]:
        rolls.pop(key)
    ctx.touch()


# The same words for a roll that is hidden from the actor and one that does not exist.
NO_SUCH_ROLL = "That roll is not one of this scene's recent rolls."


def kept_roll(ctx: Context, *, sheet: Sheet | None = None) -> dict[str, Any]:
    """The kept roll the request names (table.roll) or the latest one, among the rolls
    the actor may see: a secret or blind roll is as unknown to players as a missing one."""
    rolls = ctx.data.get("rolls", {})
    seen = ctx.seen_data.get("rolls") or {}
    wanted = ctx.param_int("roll")
    if wanted is not None:
        if str(wanted) not in seen or str(wanted) not in rolls:
            raise ActionError(NO_SUCH_ROLL)
        return rolls[str(wanted)]
    candidates = [
        rolls[key]
        for key, record in seen.items()
        if key in rolls and (sheet is None or record.get("sheet") == sheet.pk)
    ]
    if not candidates:
        raise ActionError("There is no roll in this scene to do that with.")
    return max(candidates, key=lambda r: r["seq"])


class CtxRoll(Handler):
    def prepare(self, ctx: Context) -> None:
        request = ctx.request
        sheet = ctx.sheet
        if sheet is not None:
            request["pool"] = fill_pool(ctx, request.get("pool"), sheet)
            request["roller_kind"] = (
                "pc" if sheet.kind == Sheet.Kind.PC else (sheet.npc_kind or "plot")
            )
            if request["roller_kind"] not in ("pc", "boss", "plot", "mob"):
                request["roller_kind"] = "plot"
            if request.get("big_hero"):
                hero = next((t for t in ctx.character().group("big_hero") if t.die), None)
                if hero is None:
                    raise ActionError(f"{sheet.name} has no Big Hero Die.")
                request["big_hero"] = {"die": hero.die_label, "trait": hero.name}
                request["plot_points"] = ctx.character().counter("plot_points")
            else:
                request.pop("big_hero", None)
        if not ctx.is_gm:
            request.pop("difficulty_pool", None)
            request.pop("difficulty_kind", None)
            current = ctx.data.get("difficulty") if ctx.scene is not None else None
            seen = ctx.seen_data.get("difficulty") if ctx.scene is not None else None
            current = current if isinstance(current, dict) else {}
            if current and current != seen:
                # Set behind the screen: the roll is not scored against it on the card
                # everyone sees; the GM's card compares it (params are the GM's only).
                request["difficulty"], request["difficulty_botch"] = None, False
                ctx.params["secret_difficulty"] = {
                    "value": current.get("value"),
                    "botch": bool(current.get("botch")),
                    "seq": current.get("seq"),
                }
            else:
                request["difficulty"] = current.get("value")
                request["difficulty_botch"] = bool(current.get("botch"))

    def apply(self, ctx: Context, outcome: dict[str, Any]) -> None:
        for spend in outcome.get("spends") or []:
            ctx.spend(ctx.sheet, "plot_points", _int_field(spend, "cost", 1), "plot points")
        keep_roll(
            ctx,
            ctx.sheet,
            outcome.get("dice", []),
            difficulty=outcome.get("difficulty"),
            difficulty_botch=bool(outcome.get("difficulty_botch")),
            roller_kind=outcome.get("roller_kind"),
        )


class GmPool(Handler):
    gm_only = True

    def prepare(self, ctx: Context) -> None:
        if ctx.sheet is not None and ctx.sheet.npc_kind in ("boss", "plot", "mob"):
            ctx.request["roller_kind"] = ctx.sheet.npc_kind

    def apply(self, ctx: Context, outcome: dict[str, Any]) -> None:
        if ctx.scene is None:
            return
        keep_roll(
            ctx, None, outcome.get("dice", []), gm=True, roller_kind=outcome.get("roller_kind")
        )
        ctx.data["difficulty"] = {
            "value": outcome.get("result"),
            "botch": bool(outcome.get("botch")),
            "seq": ctx.seq,
        }
        if ctx.visibility != Visibility.PUBLIC:
            # Players see that a difficulty is set, not the older one it replaced.
            ctx.veil_as.append((["difficulty"], {"secret": True}))
        ctx.note(difficulty=outcome.get("result"))


class KeptRollMove(Handler):
    """CTX-2 and CTX-3 after the roll: the character's kept roll (its dice, its difficulty)
    comes from the scene, and the new dice go back there."""

    needs_scene = True
    spends = 0

    def authorize(self, ctx: Context) -> None:
        pass

    def prepare(self, ctx: Context) -> None:
        record = kept_roll(ctx, sheet=ctx.sheet)
        if record.get("gm"):
            raise ActionError("That is for a character's own roll.")
        sheet = ctx.other_sheet(record["sheet"]) if record.get("sheet") else None
        ctx.require_control(sheet)
        ctx.sheet = sheet
        ctx.params["roll"] = record["seq"]
        ctx.request["dice"] = record["dice"]
        ctx.request["difficulty"] = record.get("difficulty")
        ctx.request["difficulty_botch"] = bool(record.get("difficulty_botch"))
        if self.spends:
            ctx.request["plot_points"] = ctx.character(sheet).counter("plot_points") if sheet else 0

    def apply(self, ctx: Context, outcome: dict[str, Any]) -> None:
        ctx.spend(ctx.sheet, "plot_points", self.spends, "plot points")
        ctx.data["rolls"][str(ctx.params["roll"])]["dice"] = outcome["dice"]
        ctx.touch()


class BankMove(KeptRollMove):
    """CTX-3: a banked die joins a slot for 1 plot point."""

    spends = 1


class Resplit(KeptRollMove):
    """CTX-2: the player changes the split of their kept roll."""


class BuyHitch(Handler):
    """CTX-4: the GM buys a player's hitch (+1 plot point to them); players buy the GM's."""

    needs_scene = True

    def authorize(self, ctx: Context) -> None:
        pass

    def prepare(self, ctx: Context) -> None:
        record = kept_roll(ctx)
        ctx.params["roll"] = record["seq"]
        players_roll = record.get("roller_kind") == "pc" and not record.get("gm")
        ctx.request["scene"] = str(ctx.scene.pk)
        ctx.request["dice"] = record["dice"]
        if players_roll:
            ctx.require_gm("buy a player's hitch")
            ctx.request["buyer"] = "gm"
            ctx.sheet = ctx.other_sheet(record["sheet"])
        else:
            ctx.request["buyer"] = "players"
            if ctx.sheet is None:
                raise ActionError("Choose the character who buys the GM's hitch.")
            ctx.require_control(ctx.sheet)
        ctx.request["plot_points"] = ctx.character().counter("plot_points")

    def apply(self, ctx: Context, outcome: dict[str, Any]) -> None:
        if outcome.get("buyer") == "gm":
            ctx.give(ctx.sheet, "plot_points", 1, "plot points")
        else:
            ctx.spend(ctx.sheet, "plot_points", 1, "plot points")
        ctx.data["rolls"][str(ctx.params["roll"])]["dice"] = outcome["dice"]
        held = {**(outcome.get("held") or {}), "seq": ctx.seq, "sheet": ctx.sheet.pk}
        ctx.data.setdefault("held_hitches", []).append(held)
        ctx.note(held_hitch=held.get("die"), use=held.get("use"))


class SpendPlotPoint(Handler):
    """CTX-7: one plot point for a scene change, an Opportunity, an asset, ..."""

    sheet_required = True

    def prepare(self, ctx: Context) -> None:
        kind = ctx.request.get("kind")
        if kind == "bank_die":
            raise ActionError("Use “Move a die from the Bank”: it charges the plot point.")
        if kind == "big_hero_die":
            raise ActionError("Add the Big Hero Die to the roll itself: the roll charges it.")
        if kind in ("scene_asset", "activate_asset") and ctx.scene is None:
            raise ActionError("Start a scene first: assets are kept for the scene.")
        if kind == "activate_asset" and not ctx.is_gm:
            # CTX-7: a player activates one of the character's own Assets, at its die.
            name = ctx.request.get("asset")
            trait = ctx.character().trait("assets", name)
            if trait is None or not trait.die:
                raise not_on_table({"trait": name, "die": ctx.request.get("die")})
            ctx.request["asset"], ctx.request["die"] = trait.name, trait.die_label
        if kind == "step_up_asset":
            name = ctx.request.get("asset")
            trait = ctx.character().trait("assets", name)
            seen = ctx.seen_data.get("assets", {}) if ctx.scene else {}
            scene_asset = (
                ctx.data["assets"].get(name) if isinstance(name, str) and name in seen else None
            )
            if trait is not None and trait.die:
                ctx.request["die"] = trait.die_label
            elif scene_asset:
                ctx.request["die"] = scene_asset["die"]
            else:
                raise ActionError(f"{ctx.sheet.name} has no asset called “{str(name)[:40]}”.")
        ctx.request["plot_points"] = ctx.character().counter("plot_points")

    def apply(self, ctx: Context, outcome: dict[str, Any]) -> None:
        ctx.spend(ctx.sheet, "plot_points", _int_field(outcome, "cost", 1), "plot points")
        kind = outcome.get("kind")
        asset = outcome.get("asset")
        if kind in ("scene_asset", "activate_asset"):
            ctx.data.setdefault("assets", {})[asset] = {
                "die": outcome.get("die"),
                "sheet": ctx.sheet.pk,
                "seq": ctx.seq,
            }
            ctx.note(asset=asset, die=outcome.get("die"))
        elif kind == "step_up_asset":
            if ctx.character().trait("assets", asset) is not None:
                ctx.set_die(ctx.sheet, "assets", asset, outcome.get("stepped_to"))
            else:
                ctx.data["assets"][asset]["die"] = outcome.get("stepped_to")
                ctx.note(asset=asset, die=outcome.get("stepped_to"))
        elif kind == "opportunity" and ctx.scene is not None:
            ctx.data.setdefault("opportunities", []).append(
                {
                    "target": outcome.get("target"),
                    "die": outcome.get("die"),
                    "to": outcome.get("stepped_to"),
                    "sheet": ctx.sheet.pk,
                    "seq": ctx.seq,
                }  # fmt: skip
            )
            ctx.note(opportunity=outcome.get("target"))


class Advance(Handler):
    """CTX-9: the GM's session award; raising a trait one step for its cost."""

    sheet_required = True

    def authorize(self, ctx: Context) -> None:
        super().authorize(ctx)
        if ctx.request.get("operation") == "award":
            ctx.require_gm("award advance points")

    def prepare(self, ctx: Context) -> None:
        char = ctx.character()
        ctx.request["advance_points"] = char.counter("advance_points")
        if ctx.request.get("operation") == "award":
            ctx.request["milestones"] = char.counter("milestones")
            return
        group = ctx.request.get("group")
        if group not in ("attributes", "distinctions", "skills", "talents", "assets"):
            return  # the rules name the allowed groups
        trait = char.require(group, ctx.request.get("trait", ""), group[:-1])
        ctx.request["trait"] = trait.name
        ctx.request["from"] = trait.die_label
        ctx.request["signature"] = bool((trait.flags or {}).get("signature"))

    def apply(self, ctx: Context, outcome: dict[str, Any]) -> None:
        if outcome.get("operation") == "award":
            ctx.give(ctx.sheet, "advance_points", _int_field(outcome, "earned"), "advance points")
            gained = _int_field(outcome, "milestones") - ctx.character().counter("milestones")
            ctx.give(ctx.sheet, "milestones", gained, "milestone points")
            return
        ctx.spend(ctx.sheet, "advance_points", _int_field(outcome, "cost"), "advance points")
        ctx.set_die(ctx.sheet, outcome["group"], outcome["trait"], outcome["to"])


# ---- Personae (PER)


def fill_per_side(ctx: Context, raw: object, sheet: Sheet | None, *, banks: bool) -> object:
    """PER-1: the skill's dice and the attribute come from the sheet, by name."""
    if sheet is None or not isinstance(raw, Mapping):
        return raw
    char = ctx.character(sheet)
    side = {k: v for k, v in raw.items() if k != "bank_limit"}
    side["name"] = sheet.name[:80]
    skill = char.require("skills", side.get("skill_name", ""), "skill")
    side["skill"], side["skill_name"] = skill.rating or 0, skill.name
    attribute_name = side.get("attribute_name") or (skill.link.name if skill.link_id else "")
    attribute = char.require("attributes", attribute_name, "attribute")
    side["attribute"], side["attribute_name"] = attribute.rating or 0, attribute.name
    if banks:
        side.update(bank_fields(ctx, sheet, name=False))
    if not ctx.is_gm:
        side.pop("modifiers", None)  # circumstantial modifiers are the GM's to give
    return side


def apply_criticals(ctx: Context, sheet: Sheet | None, outcome: Mapping) -> None:
    """PER-4, PER-6: criticals banked (as many as the rules allowed) and spent."""
    if sheet is None:
        return
    crit = outcome.get("criticals") or {}
    ctx.spend(sheet, "criticals", _int_field(crit, "spent"), "criticals")
    ctx.give(sheet, "criticals", _int_field(crit, "banked"), "criticals")
    if outcome.get("development_marked"):
        ctx.give(sheet, "development", 1, "development marks")


# The refusal for another side given as numbers: a player names it, the GM gives numbers.
NAME_THE_OTHER_SIDE = (
    "Name the character you roll against; the GM gives the numbers of one without a sheet."
)
NAME_THE_HELPERS = (
    "Name each character who works with you by their sheet; the GM gives the numbers of one "
    "without a sheet."
)
NO_DIFFICULTY = (
    "The GM has not set a difficulty for this scene: ask the GM for one, or name the "
    "character you challenge (table.target)."
)
SECRET_DIFFICULTY = (
    "The GM set the difficulty behind the screen: roll blind, and the GM sees how it went "
    "and reveals it."
)


def scene_difficulty(ctx: Context) -> tuple[dict[str, Any] | None, bool]:
    """PER-1, UNI-4: the difficulty the GM set for the scene, as stored, and whether it is
    hidden from the actor (set behind the screen and not revealed yet)."""
    if ctx.scene is None:
        return None, False
    current = ctx.data.get("difficulty")
    if not isinstance(current, dict) or current.get("value") is None:
        return None, False
    return current, current != ctx.seen_data.get("difficulty")


def player_difficulty(ctx: Context) -> dict[str, Any] | None:
    """The difficulty a player's roll takes: the GM's, whatever the request says. One set
    behind the screen only in a blind roll, as a public card would show it to players."""
    current, hidden = scene_difficulty(ctx)
    if current is not None and hidden and ctx.visibility != Visibility.BLIND:
        raise ActionError(SECRET_DIFFICULTY)
    return current


class SetDifficulty(Handler):
    """PER-1, UNI-4: the GM sets the scene's difficulty (or clears it), in public or in
    secret. Kept as {"value", "seq"} like the Cortex GM pool's (Unisystem adds its preset);
    a difficulty set in secret shows to players as set behind the screen."""

    gm_only = True
    needs_scene = True

    def precheck(self, ctx: Context) -> None:
        if ctx.request.get("clear") is True and ctx.visibility != Visibility.PUBLIC:
            raise ActionError("Clear the difficulty in the open: the players need to know.")

    def apply(self, ctx: Context, outcome: dict[str, Any]) -> None:
        if outcome.get("difficulty") is None:
            ctx.data.pop("difficulty", None)
            ctx.note(difficulty=None)
            return
        if ctx.system.slug == "unisystem":
            record = {"value": outcome["modifier"], "preset": outcome["difficulty"],
                      "label": outcome["label"]}  # fmt: skip
        else:
            record = {"value": outcome["difficulty"]}
        if outcome.get("note"):
            record["note"] = outcome["note"]
        ctx.data["difficulty"] = {**record, "seq": ctx.seq}
        if ctx.visibility != Visibility.PUBLIC:
            # Players see that a difficulty is set, not the older one it replaced.
            ctx.veil_as.append((["difficulty"], {"secret": True}))
        ctx.note(difficulty=record["value"])


# Each grant of bonus dice is a scene-state key of its own ("bonus_dice_for_Ace"), so a
# void or a veil (table.undo.parts) touches one character's grant and no other's.
GRANT_PREFIX = "bonus_dice_for_"


def bonus_grant(data: Mapping[str, Any], sheet_id: int) -> tuple[str, dict[str, Any]] | None:
    """PER-1: (key, record) of the bonus dice granted to this character, if any."""
    for key, record in data.items():
        if (
            key.startswith(GRANT_PREFIX)
            and isinstance(record, dict)
            and record.get("sheet") == sheet_id
            and isinstance(record.get("dice"), int)
        ):
            return key, record
    return None


def grant_of(ctx: Context, sheet: Sheet | None) -> tuple[str, dict[str, Any]] | None:
    """The grant a player's character's next challenge takes (None without one or a scene)."""
    if sheet is None or sheet.kind != Sheet.Kind.PC or ctx.scene is None:
        return None
    return bonus_grant(ctx.data, sheet.pk)


class GrantBonusDice(Handler):
    """PER-1: the GM grants a player's character bonus dice for their next challenge (a new
    grant replaces an unused one; 0 withdraws it). Kept for the scene; a grant in secret
    is veiled from players by the gate (Context.save_state)."""

    gm_only = True
    needs_scene = True
    sheet_required = True

    def prepare(self, ctx: Context) -> None:
        sheet = ctx.sheet
        if sheet.kind != Sheet.Kind.PC:
            raise ActionError(
                f"Bonus dice are granted to players' characters: give {sheet.name} theirs "
                "when you roll for them."
            )
        held = grant_of(ctx, sheet)
        ctx.request["name"] = sheet.name[:80]
        ctx.request["replaces"] = held[1]["dice"] if held else 0

    def apply(self, ctx: Context, outcome: dict[str, Any]) -> None:
        sheet = ctx.sheet
        held = grant_of(ctx, sheet)
        if held is not None:
            ctx.data.pop(held[0])
        dice = _int_field(outcome, "bonus_dice")
        if dice:
            key = f"{GRANT_PREFIX}{sheet.name}"
            if key in ctx.data:  # another character of the same name holds one
                key = f"{key} {sheet.pk}"
            ctx.data[key] = {"sheet": sheet.pk, "name": sheet.name, "dice": dice,
                             "note": outcome.get("note"), "seq": ctx.seq}  # fmt: skip
        ctx.note(bonus_dice={"sheet": sheet.pk, "dice": dice})


def take_bonus_dice(ctx: Context, side: object, sheet: Sheet | None) -> object:
    """PER-1: a player's character rolls exactly the bonus dice the GM granted (none
    without a grant), whatever the request says; the GM types a GM character's."""
    if not isinstance(side, dict) or sheet is None:
        return side
    if sheet.kind == Sheet.Kind.PC:
        held = grant_of(ctx, sheet)
        side["bonus_dice"] = held[1]["dice"] if held else 0
    elif not ctx.is_gm:
        side["bonus_dice"] = 0
    return side


def use_bonus_dice(ctx: Context, sheet: Sheet | None) -> None:
    """The challenge uses the grant up, in its own transaction (a void gives it back)."""
    held = grant_of(ctx, sheet)
    if held is not None:
        ctx.data.pop(held[0])
        ctx.note(bonus_dice_used={"sheet": sheet.pk, "dice": held[1]["dice"]})


REACTOR_NAMES = ("skill_name", "attribute_name")


def fill_opposition(ctx: Context) -> None:
    """PER-1: the other side of a challenge. A reactor named by sheet (table.target) rolls
    the skill named and its attribute from that sheet; for a player that is all the
    request gives of it, and a fixed number is the GM's difficulty for the scene. A
    player's reactor given as numbers is refused. The GM stays free-form."""
    request = ctx.request
    target = ctx.param_int("target")
    if target is not None:
        reactor = ctx.other_sheet(target)
        if ctx.sheet is not None and reactor.pk == ctx.sheet.pk:
            raise ActionError(f"{reactor.name} cannot challenge themself.")
        raw = request.get("reactor")
        raw = dict(raw) if isinstance(raw, Mapping) else {}
        if not ctx.is_gm:
            raw = {key: raw[key] for key in REACTOR_NAMES if key in raw}
            request.pop("difficulty", None)
        if not raw.get("skill_name"):
            raise ActionError(f"Name the skill {reactor.name} resists with (reactor.skill_name).")
        request["reactor"] = fill_per_side(ctx, raw, reactor, banks=False)
        ctx.params["target"] = reactor.pk
        return
    if not ctx.is_gm:
        if "reactor" in request:
            raise ActionError(NAME_THE_OTHER_SIDE)
        current = player_difficulty(ctx)
        if current is None:
            raise ActionError(NO_DIFFICULTY)
        request["difficulty"] = current["value"]
    elif "reactor" not in request and "difficulty" not in request:
        current, _ = scene_difficulty(ctx)
        if current is not None:
            request["difficulty"] = current["value"]


class Challenge(Handler):
    def prepare(self, ctx: Context) -> None:
        actor = fill_per_side(ctx, ctx.request.get("actor"), ctx.sheet, banks=True)
        ctx.request["actor"] = take_bonus_dice(ctx, actor, ctx.sheet)
        fill_opposition(ctx)

    def apply(self, ctx: Context, outcome: dict[str, Any]) -> None:
        apply_criticals(ctx, ctx.sheet, outcome)
        use_bonus_dice(ctx, ctx.sheet)


class ConcertedEffort(Challenge):
    """PER-8: once per scene; contributors named by sheet lend their rating (a player's
    contributors must be so named; the GM may add others)."""

    needs_scene = True

    def prepare(self, ctx: Context) -> None:
        coordinator = fill_per_side(ctx, ctx.request.get("coordinator"), ctx.sheet, banks=True)
        coordinator = take_bonus_dice(ctx, coordinator, ctx.sheet)
        ctx.request["coordinator"] = coordinator
        skill_name = coordinator.get("skill_name") if isinstance(coordinator, Mapping) else None
        contributors = ctx.request.get("contributors")
        if isinstance(contributors, list):
            filled = []
            for raw in contributors:
                if isinstance(raw, Mapping) and raw.get("sheet_id") is not None:
                    entry = {k: v for k, v in raw.items() if k != "sheet_id"}
                    other = ctx.character(ctx.other_sheet(raw["sheet_id"]))
                    skill = other.trait("skills", skill_name or "")
                    entry["name"] = other.name[:80]
                    entry["rating"] = (skill.rating or 0) if skill else 0
                    entry["potential_threshold"] = max(1, other.counter("potential_threshold"))
                    filled.append(entry)
                elif ctx.is_gm:
                    filled.append(raw)
                else:
                    # A player's contributors are characters at the table: their dice and
                    # thresholds come from their sheets, never from the request.
                    name = raw.get("name") if isinstance(raw, Mapping) else None
                    label = " ".join(str(name or "").split())[:40] or "A contributor"
                    raise ActionError(
                        f"{label} is not on the table: name each contributor by their "
                        "character (sheet_id)."
                    )
            ctx.request["contributors"] = filled
        fill_opposition(ctx)
        ctx.request["used_this_scene"] = bool(ctx.data.get("concerted_effort_used"))

    def apply(self, ctx: Context, outcome: dict[str, Any]) -> None:
        super().apply(ctx, outcome)
        ctx.data["concerted_effort_used"] = {"seq": ctx.seq}
        ctx.note(concerted_effort_used=True)


def bank_fields(ctx: Context, sheet: Sheet, *, name: bool = True) -> dict[str, Any]:
    """PER-6: the sheet's Potential Threshold and banked criticals. A campaign keeps at
    most the Potential Threshold in the bank (the sheet enforces the same cap), so that
    is the bank limit the rules apply."""
    char = ctx.character(sheet)
    threshold = max(1, char.counter("potential_threshold"))
    fields: dict[str, Any] = {
        "potential_threshold": threshold,
        "criticals": max(0, char.counter("criticals")),
        "bank_limit": threshold,
    }
    if name:
        fields["name"] = sheet.name[:80]
    return fields


class SpendCritical(Handler):
    sheet_required = True

    def prepare(self, ctx: Context) -> None:
        ctx.request.update(bank_fields(ctx, ctx.sheet))

    def apply(self, ctx: Context, outcome: dict[str, Any]) -> None:
        apply_criticals(ctx, ctx.sheet, outcome)


class GiveCritical(Handler):
    """PER-6: from the giver's bank to the receiver's (both read from their sheets)."""

    sheet_required = True

    def prepare(self, ctx: Context) -> None:
        target = ctx.param_int("target")
        if target is None:
            raise ActionError("Choose the character who receives the criticals (table.target).")
        receiver = ctx.other_sheet(target)
        ctx.params["target"] = receiver.pk
        ctx.request["giver"] = bank_fields(ctx, ctx.sheet)
        ctx.request["receiver"] = bank_fields(ctx, receiver)

    def apply(self, ctx: Context, outcome: dict[str, Any]) -> None:
        count = _int_field(outcome, "given")
        ctx.spend(ctx.sheet, "criticals", count, "criticals")
        ctx.give(ctx.other_sheet(ctx.params["target"]), "criticals", count, "criticals")


# ---- Unisystem (UNI)


# UNI-4: the difficulty of the task at hand is the GM's (set for the scene); and another
# character's numbers in a player's request are the GM's too.
# UNI-4: "the GM may type any integer": a free modifier is the GM's, like the difficulty.
UNI_DIFFICULTY_FIELDS = ("difficulty", "difficulty_modifier", "modifier")
UNI_OTHER_ROLLER_FIELDS = (*UNI_DIFFICULTY_FIELDS, "unskilled_penalty")


def fill_uni_spec(
    ctx: Context, raw: object, sheet: Sheet | None, *, unnamed: str = NAME_THE_OTHER_SIDE
) -> object:
    """UNI-1: attributes, skill and named Qualities/Drawbacks take the sheet's ratings.

    `sheet` is the roller's own character (a task, an attacker, a leader), or None for a
    roller the request names by `sheet_id`. In a player's request every roller is a
    character: one given as raw ratings is refused with `unnamed`; the player's own roll
    is their character's whatever `sheet_id` says; another character rolls with no
    modifier or difficulty from the player; no roll keeps the player's preset (UNI-4:
    the task's difficulty comes from the table, see uni_difficulty). The GM stays free-form.
    """
    if not isinstance(raw, Mapping):
        return raw
    spec = dict(raw)
    sheet_id = spec.pop("sheet_id", None)
    if sheet_id is not None and (ctx.is_gm or sheet is None):
        sheet = ctx.other_sheet(sheet_id)
    if sheet is None:
        if ctx.is_gm:
            return spec
        raise ActionError(unnamed)
    if "score" in spec:
        if ctx.is_gm:
            return spec
        raise ActionError(
            f"{sheet.name} rolls with the sheet's ratings: a fixed Ability Score (UNI-8) is "
            "for the GM's Guest Stars and Adversaries."
        )
    char = ctx.character(sheet)
    if ctx.is_gm:
        spec.setdefault("name", sheet.name[:60])
    else:
        spec["name"] = sheet.name[:60]
        theirs = ctx.sheet is None or sheet.pk != ctx.sheet.pk
        for key in UNI_OTHER_ROLLER_FIELDS if theirs else UNI_DIFFICULTY_FIELDS:
            spec.pop(key, None)
    for key in ("attribute", "second_attribute"):
        name_key = f"{key}_name"
        if key == "second_attribute" and spec.get("kind") != "two_attributes":
            continue
        if not spec.get(name_key):
            raise ActionError(f"Name the attribute {sheet.name} rolls ({name_key}).")
        trait = char.require("attributes", spec[name_key], "attribute")
        spec[key], spec[name_key] = trait.rating or 0, trait.name
    if spec.get("kind", "task") == "task":
        if spec.get("skill_name"):
            skill = char.require("skills", spec["skill_name"], "skill")
            spec["skill"], spec["skill_name"] = skill.rating or 0, skill.name[:60]
        else:
            spec["skill"] = 0
    named = spec.get("modifiers")
    if isinstance(named, list):
        spec["modifiers"] = [uni_named_modifier(ctx, char, entry) for entry in named]
    return spec


def uni_difficulty(ctx: Context, spec: object, current: Mapping[str, Any] | None) -> object:
    """UNI-4: a player's roll of the task at hand takes the difficulty the GM set for the
    scene (`current`, from player_difficulty), or none."""
    if isinstance(spec, dict) and current is not None and not ctx.is_gm:
        spec["difficulty"], spec["difficulty_modifier"] = current["preset"], current["value"]
    return spec


def uni_named_modifier(ctx: Context, char: Character, entry: object) -> object:
    """UNI-1, UNI-4: a named modifier is one of the sheet's Qualities or Drawbacks, at the
    sheet's rating whatever value the client sent. A player names no other; the GM may
    name any (a situation, a spell)."""
    if not isinstance(entry, Mapping):
        return entry
    name = entry.get("name")
    trait = char.trait("qualities", name) or char.trait("drawbacks", name)
    if trait is not None:
        return {**entry, "name": trait.name[:60], "value": trait.rating or 0}
    if ctx.is_gm:
        return entry
    label = " ".join(str(name or "").split())[:40] or "That modifier"
    raise ActionError(
        f"{label} is not on the table: it is none of {char.name}'s Qualities or Drawbacks."
    )


def uni_attribute(ctx: Context, name: str) -> int:
    return ctx.character().require("attributes", name, "attribute").rating or 0


class UniTask(Handler):
    def prepare(self, ctx: Context) -> None:
        filled = fill_uni_spec(ctx, ctx.request, ctx.sheet)
        if not ctx.is_gm:
            uni_difficulty(ctx, filled, player_difficulty(ctx))
        ctx.request.clear()
        ctx.request.update(filled)


class UniResisted(Handler):
    """UNI-5: a player's defender is a character, named by `sheet_id` or table.target."""

    def prepare(self, ctx: Context) -> None:
        ctx.request["attacker"] = fill_uni_spec(ctx, ctx.request.get("attacker"), ctx.sheet)
        defender = ctx.request.get("defender")
        target = ctx.param_int("target")
        if target is not None and defender is None:
            defender = {}
        if target is not None and isinstance(defender, Mapping) and "sheet_id" not in defender:
            defender = {**defender, "sheet_id": target}
        ctx.request["defender"] = fill_uni_spec(ctx, defender, None)


class UniAttributes(Handler):
    """Fear Test, movement, jump: single attributes straight from the sheet."""

    fields = {
        "fear_test": ("willpower",),
        "movement": ("dexterity", "constitution"),
        "jump": ("strength",),
    }

    def prepare(self, ctx: Context) -> None:
        if ctx.sheet is None:
            return
        for key in self.fields.get(ctx.action.name, ()):
            ctx.request[key] = uni_attribute(ctx, key.title())
        if ctx.action.name == "fear_test":
            ctx.request.setdefault("name", ctx.sheet.name[:60])
            if not ctx.is_gm:  # UNI-12: its fear modifiers are its difficulty
                for key in UNI_DIFFICULTY_FIELDS:
                    ctx.request.pop(key, None)
        if "acrobatics" in ctx.request:
            ctx.request["acrobatics"] = fill_uni_spec(ctx, ctx.request["acrobatics"], ctx.sheet)


class UniLifePoints(Handler):
    """UNI-9: damage and healing change the target's Life Points."""

    def authorize(self, ctx: Context) -> None:
        target = ctx.param_int("target")
        if target is not None:
            ctx.sheet = ctx.other_sheet(target)
        super().authorize(ctx)

    def prepare(self, ctx: Context) -> None:
        if ctx.sheet is None:
            if ctx.action.name == "heal":
                raise ActionError("Choose the character being healed.")
            return
        char = ctx.character()
        ctx.request["life_points"] = char.counter("life_points")
        if ctx.action.name == "heal":
            maximum = char.counter("max_life_points")
            if maximum > 0:
                ctx.request["max_life_points"] = maximum
            else:
                ctx.request.pop("max_life_points", None)

    def apply(self, ctx: Context, outcome: dict[str, Any]) -> None:
        if ctx.sheet is not None and isinstance(outcome.get("life_points"), int):
            ctx.set_counter(ctx.sheet, "life_points", outcome["life_points"])


def tracker(ctx: Context, kind: str, name: str) -> dict[str, Any] | None:
    return ctx.data.get("trackers", {}).get(kind, {}).get(name)


def save_tracker(ctx: Context, kind: str, name: str, value: dict[str, Any]) -> None:
    ctx.data.setdefault("trackers", {}).setdefault(kind, {})[name] = {**value, "seq": ctx.seq}
    ctx.note(tracker=kind, name=name, **{k: v for k, v in value.items() if k != "seq"})


def total_from(ctx: Context, key: str) -> None:
    """A roll already in the log gives its total: table.from_seq instead of a typed number."""
    seq = ctx.param_int("from_seq")
    if seq is None:
        return
    event = visibility.referenced_event(ctx.campaign.pk, seq, ctx.audience, voided=False)
    if event is None or not isinstance(event.outcome.get("total"), int):
        raise ActionError("That event is not a roll with a total in this campaign's log.")
    ctx.request.pop("success_levels", None)
    ctx.request[key] = event.outcome["total"]


class LengthyTask(Handler):
    """UNI-11: a tracker per named task, kept for the scene."""

    needs_scene = True
    public_only = True

    def prepare(self, ctx: Context) -> None:
        name = ctx.param_str("task") or "Lengthy task"
        ctx.params["task"] = name
        current = tracker(ctx, "lengthy", name)
        if current is not None and not current.get("complete"):
            ctx.request["required_levels"] = current["required_levels"]
            ctx.request["accumulated"] = current["accumulated"]
            ctx.request["rolls_made"] = current["rolls_made"]
        else:
            ctx.request["accumulated"] = 0
            ctx.request["rolls_made"] = 0
        total_from(ctx, "total")

    def apply(self, ctx: Context, outcome: dict[str, Any]) -> None:
        save_tracker(
            ctx,
            "lengthy",
            ctx.params["task"],
            {
                "required_levels": outcome.get("required_levels"),
                "accumulated": outcome.get("accumulated"),
                "rolls_made": outcome.get("rolls_made"),
                "complete": bool(outcome.get("complete")),
            },
        )


class WorkingTogether(Handler):
    """UNI-10: rollers named by sheet take their ratings; a long task can feed a tracker."""

    def prepare(self, ctx: Context) -> None:
        # UNI-4, UNI-10: one task, so every roller takes its difficulty.
        difficulty = None if ctx.is_gm else player_difficulty(ctx)
        for key in ("participants", "helpers"):
            if isinstance(ctx.request.get(key), list):
                ctx.request[key] = [
                    uni_difficulty(
                        ctx, fill_uni_spec(ctx, s, None, unnamed=NAME_THE_HELPERS), difficulty
                    )
                    for s in ctx.request[key]
                ]
        if "leader" in ctx.request:
            leader = fill_uni_spec(ctx, ctx.request["leader"], ctx.sheet)
            ctx.request["leader"] = uni_difficulty(ctx, leader, difficulty)
        name = ctx.param_str("task")
        if name and ctx.request.get("mode") == "long":
            current = tracker(ctx, "lengthy", name)
            if current is not None and not current.get("complete"):
                ctx.request["required_levels"] = current["required_levels"]
                ctx.request["levels_so_far"] = current["accumulated"]
            else:
                ctx.request["levels_so_far"] = 0
            ctx.params["task"] = name

    def apply(self, ctx: Context, outcome: dict[str, Any]) -> None:
        progress = outcome.get("progress")
        name = ctx.params.get("task")
        if name and isinstance(progress, Mapping) and ctx.scene is not None:
            current = tracker(ctx, "lengthy", name) or {}
            save_tracker(
                ctx,
                "lengthy",
                name,
                {
                    "required_levels": progress.get("required_levels"),
                    "accumulated": progress.get("accumulated"),
                    "rolls_made": int(current.get("rolls_made", 0)) + 1,
                    "complete": bool(progress.get("complete")),
                },
            )


class Chase(Handler):
    """UNI-13: the lead is kept per named chase; caught or escaped ends it."""

    needs_scene = True
    public_only = True

    def prepare(self, ctx: Context) -> None:
        name = ctx.param_str("chase") or "Chase"
        ctx.params["chase"] = name
        current = tracker(ctx, "chase", name)
        if current is not None and current.get("status") == "running":
            ctx.request["lead"] = current["lead"]
            ctx.request["turn"] = current["turn"]
        else:
            ctx.request["turn"] = 0
        for key in ("runner", "chaser"):
            ctx.request[key] = fill_uni_spec(ctx, ctx.request.get(key), None)

    def apply(self, ctx: Context, outcome: dict[str, Any]) -> None:
        save_tracker(
            ctx,
            "chase",
            ctx.params["chase"],
            {
                "lead": outcome.get("lead"),
                "turn": outcome.get("turn"),
                "status": outcome.get("status"),
            },  # fmt: skip
        )


# ---- The table's own actions (every system): the GM's plot points outside a roll

# The counter "give plot points" moves in each system, and its words (one, several).
POINTS = {
    "unisystem": ("drama_points", "Drama Point", "Drama Points"),
    "personae": ("criticals", "critical", "criticals"),
}
PLOT_POINTS = ("plot_points", "plot point", "plot points")
MAX_GIVE = 10


def points_of(system: str) -> tuple[str, str, str]:
    return POINTS.get(system, PLOT_POINTS)


def resolve_give_points(request: Mapping, faces: FaceSource) -> dict[str, Any]:
    """SER-8 (and each game's points): the GM gives 1-10, or takes back with a minus;
    taking back more than the character holds is refused (never below zero)."""
    from rules.kit.requests import get_int, get_str

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
}


def action_for(system: GameSystem, name: object) -> Action:
    """The system's rules action, or one of the table's own (TABLE_ACTIONS)."""
    try:
        return system.action(name)
    except RulesError:
        if isinstance(name, str) and name in TABLE_ACTIONS:
            return TABLE_ACTIONS[name]
        raise


class GivePoints(Handler):
    """The GM gives (or takes back) plot points, Drama Points or criticals outside a roll:
    a logged action, so it can be voided like any other."""

    gm_only = True
    sheet_required = True

    def prepare(self, ctx: Context) -> None:
        key, one, many = points_of(ctx.system.slug)
        char = ctx.character()
        cap = char.counter_max(key)
        if ctx.system.slug == "personae":
            threshold = max(1, char.counter("potential_threshold"))  # PER-6: the bank limit
            cap = threshold if cap is None else min(cap, threshold)
        ctx.request.update(
            counter=key, one=one, many=many, held=max(0, char.counter(key)), maximum=cap
        )
        ctx.request["character"] = ctx.sheet.name[:80]

    def apply(self, ctx: Context, outcome: dict[str, Any]) -> None:
        key, amount = outcome["counter"], outcome["amount"]
        label = ctx.request["many"]
        if amount > 0:
            ctx.give(ctx.sheet, key, amount, label, maximum=ctx.request["maximum"])
        else:
            ctx.spend(ctx.sheet, key, -amount, label)


TABLE_HANDLERS: dict[str, Handler] = {"give_points": GivePoints()}


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


class SetCounter(Handler):
    """The GM sets a table-owned counter (plot points, Drama Points, Life Points,
    criticals, ...): the value is checked as the sheet form checks it, and the change
    is an event in the log, voidable like any other."""

    gm_only = True
    sheet_required = True

    def prepare(self, ctx: Context) -> None:
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

    def apply(self, ctx: Context, outcome: dict[str, Any]) -> None:
        ctx.set_counter(ctx.sheet, outcome["counter"], outcome["value"])


class SetDie(Handler):
    """The GM sets a die in a table-owned group; a new name adds a trait there and no
    die removes one (a fixed trait, a stress type, keeps its row without a die)."""

    gm_only = True
    sheet_required = True

    def prepare(self, ctx: Context) -> None:
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

    def apply(self, ctx: Context, outcome: dict[str, Any]) -> None:
        ctx.set_die(ctx.sheet, outcome["group"], outcome["trait"], outcome["die"])


TABLE_HANDLERS["set_counter"] = SetCounter()
TABLE_HANDLERS["set_die"] = SetDie()


HANDLERS: dict[tuple[str, str], Handler] = {
    ("serenity", "roll"): CortexRoll(),
    ("serenity", "test"): CortexTest(),
    ("serenity", "contest_start"): ContestStart(),
    ("serenity", "contest_roll"): ContestRoll(),
    ("serenity", "contest_give_in"): ContestMove(),
    ("serenity", "contest_stress"): ContestStress(),
    ("serenity", "stress"): TakeStress(),
    ("serenity", "activate_complication"): ActivateComplication(),
    ("serenity", "benefit"): Benefit(),
    ("serenity", "awareness_pool"): Awareness(),
    ("smallville", "roll"): CortexRoll(),
    ("smallville", "test"): CortexTest(),
    ("smallville", "contest_start"): ContestStart(),
    ("smallville", "contest_roll"): ContestRoll(),
    ("smallville", "contest_give_in"): ContestMove(),
    ("smallville", "contest_stress"): ContestStress(),
    ("smallville", "stress"): TakeStress(),
    ("smallville", "trouble"): Trouble(),
    ("smallville", "shut_down"): ShutDown(),
    ("cortex_slots", "roll"): CtxRoll(),
    ("cortex_slots", "gm_pool"): GmPool(),
    ("cortex_slots", "bank_move"): BankMove(),
    ("cortex_slots", "resplit"): Resplit(),
    ("cortex_slots", "buy_hitch"): BuyHitch(),
    ("cortex_slots", "spend_plot_point"): SpendPlotPoint(),
    ("cortex_slots", "advance"): Advance(),
    ("personae", "challenge"): Challenge(),
    ("personae", "concerted_effort"): ConcertedEffort(),
    ("personae", "spend_critical"): SpendCritical(),
    ("personae", "give_critical"): GiveCritical(),
    ("personae", "grant_bonus_dice"): GrantBonusDice(),
    ("personae", "set_difficulty"): SetDifficulty(),
    ("unisystem", "task"): UniTask(),
    ("unisystem", "resisted"): UniResisted(),
    ("unisystem", "fear_test"): UniAttributes(),
    ("unisystem", "movement"): UniAttributes(),
    ("unisystem", "jump"): UniAttributes(),
    ("unisystem", "damage"): UniLifePoints(),
    ("unisystem", "heal"): UniLifePoints(),
    ("unisystem", "lengthy_task"): LengthyTask(),
    ("unisystem", "working_together"): WorkingTogether(),
    ("unisystem", "chase"): Chase(),
    ("unisystem", "set_difficulty"): SetDifficulty(),
}


def handler_for(system: str, action: str) -> Handler:
    return HANDLERS.get((system, action)) or TABLE_HANDLERS.get(action, DEFAULT)
