"""One action's view of the table, over the database: the engine's side of
`rules.kit.table.Table`.

`table.writing.actions.perform` builds a `Context` inside the action's transaction and runs the
game's transition (`rules.<game>.table`, found through the registry) over it. Reads come
from the stored sheets, scene and session state and the log, each lookup the client
names through the visibility gate (`table.log.visibility`); writes go to counters and traits
(`Counter.spend`/`Counter.add` never go below zero, even when two spends race) and to the
locked `SceneState` and `SessionState` rows, each recorded as an effect of the event so a
void can give it back (`table.log.undo`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from django.db.models import F

from campaigns.models import Campaign, Membership, Scene
from rules.kit.actions import Action
from rules.kit.dice import parse_size
from rules.kit.game import GameSystem
from rules.kit.table import MAX_ID, MAX_KEPT_ROLLS, ActionError, norm
from sheets import live
from sheets.models import Counter, Sheet, Trait
from table.log import undo, visibility
from table.models import Kind, SceneState, SessionState, TableEvent, Visibility, canonical_json

__all__ = ["ActionError", "Character", "Context", "empty_state", "lock_session", "sheet_in"]


# The table options that name an earlier event by its seq: an action that reads one
# takes its values (dice, a total, a margin) from it (Context.hidden_sources).
SEQ_PARAMS = ("roll", "from_seq")


# --------------------------------------------------------------------------- reading sheets


class UndeclaredTableParam(RuntimeError):
    """A transition read a table option it does not declare: a mistake in the code,
    found by the tests, never a player's (the page would not have offered it)."""


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
    # The table options the running transition reads (its table_params); None: any.
    declared_params: frozenset[str] | None = None
    _session: SessionState | None = None
    _session_before: str = ""
    _characters: dict[int, Character] = field(default_factory=dict)
    # Pieces of scene state a hidden action veils with a stand-in of its own choosing.
    veil_as: list[tuple[list, Any]] = field(default_factory=list)
    # Earlier events the action read (by seq or as kept rolls), for recorded_params, and
    # the seqs it read by name (referenced_event), which its values come from.
    _read_events: list[TableEvent] = field(default_factory=list)
    _named_seqs: set[int] = field(default_factory=set)

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

    def recorded_params(self, *read: TableEvent) -> dict[str, Any]:
        """The params as logged, with what the action read that players may not see
        (table.log.visibility.secrets_read): the scene and session state as first read, the
        earlier events read (and `read`, a void's target). Whatever the transition
        copied from them into the request, the outcome or the effects, the gate veils in
        every player's copy."""
        params = {k: v for k, v in self.params.items() if k != visibility.VEILED}
        states = [json.loads(text) for text in (self._before, self._session_before) if text]
        events = [*self._read_events, *read]
        read_now = visibility.secrets_read(self.campaign.pk, states, events)
        read_now += [{"seq": seq, "whole": True} for seq in self.hidden_sources()]
        if read_now:
            params[visibility.VEILED] = read_now
        return params

    def hidden_sources(self) -> list[int]:
        """The earlier events hidden from players that this action's values come from:
        those it names by seq (SEQ_PARAMS: a kept roll, a total, a test whose benefit it
        claims) or read by one (referenced_event). While one stays
        hidden, players read the action sealed and its changes veiled, as if it were
        hidden itself (table.log.visibility.sees)."""
        named = self._named_seqs | {self.params.get(key) for key in SEQ_PARAMS}
        return sorted(visibility.hidden_seqs(self.campaign.pk, named - {self.seq}))

    def save_state(self) -> None:
        """Write the changed scene and session state, veiling from players what a
        hidden action changed (table.log.visibility), or one whose values came from a hidden
        event (veiled until that event is revealed)."""
        sources = self.hidden_sources()
        public = self.visibility == Visibility.PUBLIC and not sources
        seq = sources[0] if sources and self.visibility == Visibility.PUBLIC else self.seq
        if self._state is not None and self.state_changed:
            before = undo.snapshot(json.loads(self._before))
            visibility.record_veils(self._state.data, before, seq, public=public)
            for path, shown in self.veil_as:
                visibility.veil_piece(self._state.data, path, self.seq, shown)
            self._state.version += 1
            self._state.save(update_fields=["data", "version", "updated_at"])
        if self._session is not None and self.session_changed:
            before = undo.snapshot(json.loads(self._session_before))
            visibility.record_veils(self._session.data, before, seq, public=public)
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

    def visible_sheet(self, sheet_id: int) -> Sheet | None:
        """A sheet of this campaign the actor may see: hidden GM characters exist only for
        GMs."""
        sheet = self.sheet_by_id(sheet_id)
        if sheet is None or (sheet.hidden and not self.is_gm):
            return None
        return sheet

    def sheet_by_id(self, sheet_id: int | None) -> Sheet | None:
        if sheet_id is None:
            return None
        return Sheet.objects.filter(campaign=self.campaign, pk=sheet_id).first()

    @property
    def in_scene(self) -> bool:
        return self.scene is not None

    @property
    def scene_id(self) -> int | None:
        return self.scene.pk if self.scene is not None else None

    @property
    def scene_title(self) -> str | None:
        return self.scene.title if self.scene is not None else None

    def referenced_event(self, seq: object) -> TableEvent | None:
        event = visibility.referenced_event(self.campaign.pk, seq, self.audience, voided=False)
        if event is not None:
            self._read_events.append(event)
            self._named_seqs.add(event.seq)
        return event

    def logged(
        self, action: str, *, seq: int | None = None, sheet: Sheet | None = None
    ) -> Iterator[TableEvent]:
        events = TableEvent.objects.filter(
            campaign_id=self.campaign.pk, kind=Kind.ACTION, action=action, voided=False
        )
        if seq is not None:
            events = events.filter(seq=seq)
        elif sheet is not None:
            events = events.filter(character_id=sheet.pk)
        for event in events.order_by("-seq")[:MAX_KEPT_ROLLS]:
            if visibility.sees(event, self.audience):
                self._read_events.append(event)
                yield event

    def rests_on(self, seq: int) -> None:
        if isinstance(seq, int) and not isinstance(seq, bool):
            self._named_seqs.add(seq)

    def logged_params(self, action: str, key: str) -> set[Any]:
        return set(
            TableEvent.objects.filter(
                campaign_id=self.campaign.pk, action=action, voided=False
            ).values_list(f"params__{key}", flat=True)
        )

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

    def _declared(self, key: str) -> None:
        if self.declared_params is not None and key not in self.declared_params:
            raise UndeclaredTableParam(
                f"“{self.action.name if self.action else '?'}” reads table.{key}: "
                "name it in its transition's table_params"
            )

    def param_int(self, key: str) -> int | None:
        self._declared(key)
        value = self.params.get(key)
        if value is None or value == "":
            return None
        if isinstance(value, str) and re.fullmatch(r"[0-9]{1,16}", value.strip()):
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_ID:
            raise ActionError(f"table.{key} must be a whole number.")
        return value

    def param_str(self, key: str, default: str = "") -> str:
        self._declared(key)
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
