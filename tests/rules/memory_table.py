"""An in-memory table that speaks `rules.kit.table.Table`: a game's transitions run over it
with no database, as the engine runs them over one (`table.acting.context.Context`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.kit.actions import roll
from rules.kit.dice import parse_size
from rules.kit.table import PC, PUBLIC, ActionError, Transition, norm


@dataclass
class MemoryTrait:
    name: str
    group: str
    die: int | None = None
    plus_die: int | None = None
    rating: int | None = None
    flags: dict[str, Any] = field(default_factory=dict)
    version: int = 1
    parent: MemoryTrait | None = None
    link: MemoryTrait | None = None

    @property
    def die_label(self) -> str:
        if self.die is None:
            return ""
        return f"d{self.die}" + (f"+d{self.plus_die}" if self.plus_die else "")

    @property
    def parent_id(self) -> int | None:
        return id(self.parent) if self.parent else None

    @property
    def link_id(self) -> int | None:
        return id(self.link) if self.link else None


@dataclass
class MemorySheet:
    pk: int
    name: str
    kind: str = PC
    npc_kind: str = ""
    owner_id: int | None = 1
    hidden: bool = False
    overrides: dict[str, int] = field(default_factory=dict)
    traits: list[MemoryTrait] = field(default_factory=list)
    counters: dict[str, int] = field(default_factory=dict)

    def add(self, group: str, name: str, die: str | None = None, **extra: Any) -> MemoryTrait:
        trait = MemoryTrait(name, group, parse_size(die) if die else None, **extra)
        self.traits.append(trait)
        return trait


class MemoryCharacter:
    def __init__(self, sheet: MemorySheet, system) -> None:
        self.sheet, self.system = sheet, system

    @property
    def traits(self) -> list[MemoryTrait]:
        return self.sheet.traits

    @property
    def id(self) -> int:
        return self.sheet.pk

    @property
    def name(self) -> str:
        return self.sheet.name

    def group(self, group: str) -> list[MemoryTrait]:
        return [t for t in self.traits if t.group == group]

    def trait(self, group: str, name: object) -> MemoryTrait | None:
        return next((t for t in self.group(group) if norm(t.name) == norm(name)), None)

    def require(self, group: str, name: object, what: str) -> MemoryTrait:
        trait = self.trait(group, name)
        if trait is None:
            raise ActionError(f"{self.name} has no {what} called “{str(name)[:40]}”.")
        return trait

    def counter(self, key: str) -> int:
        return self.sheet.counters.get(key, 0)

    def counter_max(self, key: str) -> int | None:
        try:
            return self.system.sheet_template.counter(key).maximum
        except KeyError:
            return None

    def stress_track(self) -> dict[str, str | None]:
        return {t.name: (t.die_label or None) for t in self.group("stress")}


@dataclass
class MemoryEvent:
    """An earlier event of the log, as a transition reads it."""

    seq: int
    action: str
    outcome: dict[str, Any] = field(default_factory=dict)
    character_id: int | None = None
    request: dict[str, Any] = field(default_factory=dict)
    params: dict[str, Any] = field(default_factory=dict)
    hidden: bool = False  # secret or blind: players do not see it


@dataclass
class MemoryTable:
    """One action's view of an in-memory table. `gm` says whether the actor is the GM;
    a player controls the PCs whose owner_id is `user`."""

    system: Any
    sheets: list[MemorySheet]
    gm: bool = False
    user: int = 1
    scene: dict[str, Any] | None = field(default_factory=lambda: {"next_id": 1})
    session: dict[str, Any] = field(default_factory=dict)
    hidden_keys: tuple[str, ...] = ()  # scene-state keys hidden from players
    action: Any = None
    request: dict[str, Any] = field(default_factory=dict)
    params: dict[str, Any] = field(default_factory=dict)
    visibility: str = PUBLIC
    seq: int = 1
    sheet: MemorySheet | None = None
    veil_as: list = field(default_factory=list)
    effects: list[dict[str, Any]] = field(default_factory=list)
    rested_on: list[int] = field(default_factory=list)  # seqs the action's values came from
    events: list[MemoryEvent] = field(default_factory=list)  # the log before this action

    # ---- reads
    @property
    def is_gm(self) -> bool:
        return self.gm

    @property
    def in_scene(self) -> bool:
        return self.scene is not None

    @property
    def scene_id(self) -> int | None:
        return 1 if self.scene is not None else None

    @property
    def scene_title(self) -> str | None:
        return "Scene" if self.scene is not None else None

    @property
    def data(self) -> dict[str, Any]:
        if self.scene is None:
            raise ActionError("Start a scene first: this is kept for the scene.")
        return self.scene

    @property
    def seen_data(self) -> dict[str, Any]:
        data = self.data
        if self.gm:
            return data
        return {k: v for k, v in data.items() if k not in self.hidden_keys}

    @property
    def session_data(self) -> dict[str, Any]:
        return self.session

    @property
    def seen_session_data(self) -> dict[str, Any]:
        return self.session

    def character(self, sheet: MemorySheet | None = None) -> MemoryCharacter:
        sheet = sheet or self.sheet
        if sheet is None:
            raise ActionError("Choose the character this is for.")
        return MemoryCharacter(sheet, self.system)

    def sheet_by_id(self, sheet_id: int | None) -> MemorySheet | None:
        return next((s for s in self.sheets if s.pk == sheet_id), None)

    def visible_sheet(self, sheet_id: int) -> MemorySheet | None:
        sheet = self.sheet_by_id(sheet_id)
        return None if sheet is None or (sheet.hidden and not self.gm) else sheet

    def other_sheet(self, sheet_id: object) -> MemorySheet:
        sheet = self.visible_sheet(sheet_id) if isinstance(sheet_id, int) else None
        if sheet is None:
            raise ActionError("No such character in this campaign.")
        return sheet

    def controls(self, sheet: MemorySheet | None) -> bool:
        return self.gm or (sheet is not None and sheet.kind == PC and sheet.owner_id == self.user)

    def require_control(self, sheet: MemorySheet | None) -> None:
        if not self.controls(sheet):
            raise ActionError("You can only act for your own characters.")

    def require_gm(self, what: str = "do that") -> None:
        if not self.gm:
            raise ActionError(f"Only the GM can {what}.")

    def param_int(self, key: str) -> int | None:
        value = self.params.get(key)
        return value if isinstance(value, int) else None

    def param_str(self, key: str, default: str = "") -> str:
        return str(self.params.get(key, default)).strip()

    def _seen_events(self) -> list[MemoryEvent]:
        return [e for e in self.events if self.gm or not e.hidden]

    def referenced_event(self, seq: object):
        return next((e for e in self._seen_events() if e.seq == seq), None)

    def logged(self, action: str, *, seq=None, sheet=None):
        found = [
            e
            for e in self._seen_events()
            if e.action == action
            and (seq is None or e.seq == seq)
            and (sheet is None or e.character_id == sheet.pk)
        ]
        return iter(sorted(found, key=lambda e: -e.seq))

    def logged_params(self, action: str, key: str) -> set:
        return set()

    def rests_on(self, seq: int) -> None:
        self.rested_on.append(seq)

    # ---- writes
    def spend(self, sheet, key, amount, label) -> None:
        if sheet is None or amount <= 0:
            return
        if sheet.counters.get(key, 0) < amount:
            raise ActionError(f"{sheet.name} has only {sheet.counters.get(key, 0)} {label} left.")
        sheet.counters[key] = sheet.counters.get(key, 0) - amount
        self.effects.append({"sheet": sheet.pk, "counter": key, "by": -amount})

    def give(self, sheet, key, amount, label, maximum=None) -> None:
        if sheet is None or amount <= 0:
            return
        sheet.counters[key] = sheet.counters.get(key, 0) + amount
        self.effects.append({"sheet": sheet.pk, "counter": key, "by": amount})

    def set_counter(self, sheet, key, value) -> None:
        sheet.counters[key] = value

    def set_die(self, sheet, group, name, die) -> None:
        trait = self.character(sheet).trait(group, name)
        if trait is None and die:
            sheet.add(group, name, die)
        elif trait is not None:
            trait.die = parse_size(die) if die else None
        self.effects.append({"sheet": sheet.pk, "trait": name, "to": die})

    def flag_trait(self, sheet, group, name, flag) -> None:
        trait = self.character(sheet).trait(group, name)
        if trait is not None:
            trait.flags[flag] = True

    def touch(self) -> None:
        pass

    def note(self, **change: Any) -> None:
        self.effects.append({"scene_state": change})

    def note_session(self, **change: Any) -> None:
        self.effects.append({"session_state": change})


def play(
    table: MemoryTable, name: str, request: dict, *, sheet=None, **params: Any
) -> dict[str, Any]:
    """Run one action's transition as the engine does: authorize, prepare, precheck, draw
    the faces, resolve, apply. Returns the outcome."""
    table.action = table.system.action(name)
    table.request, table.params, table.sheet = dict(request), dict(params), sheet
    transition: Transition = table.system.table.get(name, Transition())
    if transition.needs_scene and not table.in_scene:
        raise ActionError("Start a scene first: this is kept for the scene.")
    transition.authorize(table)
    transition.prepare(table)
    transition.precheck(table)
    outcome = roll(table.action, table.request).outcome
    transition.apply(table, outcome)
    return outcome
