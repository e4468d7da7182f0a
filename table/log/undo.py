"""Giving an event's changes back when the GM voids it.

`perform` writes with each event what a void will need (`record`): the counter
deltas, the dice and flags it set on sheets, and the before/after of each piece of
scene state it touched. `apply_undo` runs in the void's transaction: counters get
their deltas back (never below zero), dice, flags and scene state go back only where
nothing later changed them; everything left as it is is named, so the GM is told.

The scene state is cut into independent pieces ("parts"): one contest, one scene asset,
the difficulty, and the pieces of what each game keeps, cut as its SCENE declares
(`rules.kit.scene`: a pool as one piece, an item kept by name, the items one event
added, ...). A later event that changed the same piece blocks its undo; changes to
other pieces do not.
The session state (SER-10 session Assets) is cut the same way and restored only within
the session it was recorded in: a later session_start expired it already.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db.models import F

from rules.kit.scene import BY_KIND_AND_NAME, BY_NAME, BY_SEQ, piece_at
from rules.registry import scene_cuts
from sheets.models import Counter, Sheet, Trait
from table.models import Kind, SceneState, SessionState, TableEvent, canonical_json

# The table's own scene-state keys holding independent things by name (or id), or by
# kind and name; the games' keys are cut as their SCENE declares (rules.registry's
# scene_cuts), and any other key (the difficulty, ...) is one piece. Scene complications
# are kept by character and name: each is a piece of its own, so a public one never
# lifts the veil from a secret one of the same character. next_id only counts up: never
# undone.
OWN_CUTS = {"contests": BY_NAME, "assets": BY_NAME, "complications": BY_KIND_AND_NAME}
# "veiled" holds what players saw of pieces a hidden event changed (table.log.visibility).
VEILS = "veiled"
NOT_UNDONE = ("next_id", VEILS)


def _key(path: list) -> str:
    return canonical_json(path)


def _cuts() -> dict[str, str]:
    return {**scene_cuts(), **OWN_CUTS}


def parts(data: Mapping[str, Any]) -> dict[str, Any]:
    """The scene state as {canonical path: value}, one entry per independent piece."""
    out: dict[str, Any] = {}
    cut = _cuts()
    for key, value in data.items():
        if key in NOT_UNDONE:
            continue
        if cut.get(key) == BY_NAME and isinstance(value, Mapping):
            for name, item in value.items():
                out[_key([key, name])] = item
        elif cut.get(key) == BY_KIND_AND_NAME and isinstance(value, Mapping):
            for kind, named in value.items():
                if isinstance(named, Mapping):
                    for name, item in named.items():
                        out[_key([key, kind, name])] = item
                else:
                    out[_key([key, kind])] = named
        elif cut.get(key) == BY_SEQ and isinstance(value, list):
            groups: dict[Any, list] = {}
            for item in value:
                seq = item.get("seq") if isinstance(item, Mapping) else None
                groups.setdefault(seq, []).append(item)
            for seq, items in groups.items():
                out[_key([key, seq])] = items
        else:
            out[_key([key])] = value
    return out


def snapshot(data: Mapping[str, Any]) -> dict[str, str]:
    """The pieces as canonical JSON text, taken when an action first reads the state."""
    return {k: canonical_json(v) for k, v in parts(data).items()}


def changes(before: Mapping[str, str], data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each piece that differs from `before`: {"path", "from", "to"}; None is "absent"."""
    after = parts(data)
    out = []
    for key in sorted(set(before) | set(after)):
        now = canonical_json(after[key]) if key in after else None
        if before.get(key) != now:
            out.append(
                {
                    "path": json.loads(key),
                    "from": json.loads(before[key]) if key in before else None,
                    "to": json.loads(now) if now is not None else None,
                }
            )
    return out


def get(data: Mapping[str, Any], path: list) -> Any:
    key = path[0]
    if len(path) == 1:
        return data.get(key)
    if _cuts().get(key) == BY_SEQ:
        items = [
            i for i in data.get(key) or [] if isinstance(i, Mapping) and i.get("seq") == path[1]
        ]
        return items or None
    node: Any = data.get(key)
    for step in path[1:]:
        if not isinstance(node, Mapping):
            return None
        node = node.get(step)
    return node


def put(data: dict[str, Any], path: list, value: Any) -> None:
    """Set one piece (None removes it)."""
    key = path[0]
    if len(path) == 1:
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
        return
    if _cuts().get(key) == BY_SEQ:
        kept = [
            i
            for i in data.get(key) or []
            if not (isinstance(i, Mapping) and i.get("seq") == path[1])
        ]
        items = kept + list(value or [])
        items.sort(key=lambda i: i["seq"] if isinstance(i.get("seq"), int) else 0)
        data[key] = items
        return
    node = data.setdefault(key, {})
    nodes = [node]
    for step in path[1:-1]:
        node = node.setdefault(step, {})
        nodes.append(node)
    if value is None:
        node.pop(path[-1], None)
        for parent, step in zip(reversed(nodes[:-1]), reversed(path[1:-1]), strict=True):
            if not parent.get(step):
                parent.pop(step, None)  # a character's last scene complication goes
    else:
        node[path[-1]] = value


def describe(
    path: list, names: Mapping[int, str], scope: str = "scene", pieces: Iterable = ()
) -> str:
    """A piece of scene (or session) state in words, for the void's card (never its
    value): the table's own, or in the words the game's `pieces` declare."""
    key, rest = path[0], path[1:]
    last = rest[-1] if rest else ""
    if key == "difficulty":
        return "the difficulty"
    if key == "contests":
        return f"contest #{last}"
    if key == "complications":
        holder = rest[0] if rest else ""
        who = names.get(int(holder)) if str(holder).isdigit() else None
        if len(rest) > 1:
            return f"the scene complication “{last}” of {who or 'a character'}"
        return f"the scene complications of {who or 'a character'}"
    if key == "assets":
        return f"the {scope} asset “{last}”"
    if key == "order":
        return "the action order"
    piece = piece_at(pieces, path) if scope == "scene" else None
    if piece is not None:
        return piece.described(path)
    return str(key).replace("_", " ")


# --------------------------------------------------------------------------- recording


# The plan of an action that changed nothing a void would give back. Every new action
# has at least this; a plan without "v" is an older event's.
NOTHING: dict[str, Any] = {"v": 1}


def changed_nothing(plan: Mapping[str, Any]) -> bool:
    return plan == NOTHING


def record(
    effects: list[dict[str, Any]],
    state: list[dict[str, Any]],
    scene,
    session: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """What a void of this event must give back, from its effects and state changes;
    `session` is {"number", "state"}: the session state's pieces and whose they are."""
    deltas: dict[tuple[int, str], int] = {}
    dice, flags = [], []
    for effect in effects:
        if "counter" in effect and "sheet" in effect:
            key = (effect["sheet"], effect["counter"])
            deltas[key] = deltas.get(key, 0) + int(effect["to"]) - int(effect["from"])
        elif "trait" in effect and "flag" in effect:
            flags.append({k: effect[k] for k in ("sheet", "group", "trait", "flag")})
        elif "trait" in effect and "to" in effect:
            dice.append({k: effect[k] for k in ("sheet", "group", "trait", "from", "to")})
    out: dict[str, Any] = dict(NOTHING)
    counters = [{"sheet": s, "counter": k, "delta": d} for (s, k), d in deltas.items() if d]
    if counters:
        out["counters"] = counters
    if dice:
        out["dice"] = dice
    if flags:
        out["flags"] = flags
    if state and scene is not None:
        out["scene"] = scene.pk
        out["state"] = state
    if session and session.get("state"):
        out["session"] = {"number": session["number"], "state": session["state"]}
    return out


# --------------------------------------------------------------------------- undoing


@dataclass
class Undone:
    """What a void gave back and what it left, in words, plus its effects."""

    done: list[str] = field(default_factory=list)
    left: list[str] = field(default_factory=list)
    effects: list[dict[str, Any]] = field(default_factory=list)


def _label(ctx, key: str, amount: int) -> str:
    try:
        label = ctx.system.sheet_template.counter(key).label
    except KeyError:
        label = key.replace("_", " ")
    label = label if label[1:2].isupper() else label.lower()  # "Drama Points", "plot points"
    return label[:-1] if amount == 1 and label.endswith("s") else label


def _cap(ctx, sheet: Sheet, key: str) -> int | None:
    """The most a counter may hold: the sheet's maximum, and the counter that caps it
    (PER-6's bank limit)."""
    try:
        spec = ctx.system.sheet_template.counter(key)
    except KeyError:
        return None
    cap = spec.maximum
    if spec.capped_by is not None:
        cap = min(cap, ctx.character(sheet).counter(spec.capped_by))
    return cap


def _counter(ctx, sheet: Sheet, key: str, delta: int, out: Undone) -> None:
    """Give a delta back; never below zero (nor past the maximum)."""
    row = Counter.objects.select_for_update().filter(sheet=sheet, key=key).first()
    if row is None:
        out.left.append(f"{sheet.name} no longer has {_label(ctx, key, 2)}.")
        return
    held = row.value
    wanted = held - delta
    value = max(wanted, min(held, 0))
    cap = _cap(ctx, sheet, key)
    if cap is not None:
        value = min(value, max(cap, held))
    if value != held:
        Counter.objects.filter(pk=row.pk).update(value=value, version=F("version") + 1)
        ctx.character(sheet)._counters.pop(key, None)
        ctx.changed_counters.append((sheet, key))
        out.effects.append({"sheet": sheet.pk, "counter": key, "from": held, "to": value})
        out.done.append(f"{sheet.name}: {_label(ctx, key, 2)} {held} → {value}.")
    if value != wanted:
        short = abs(wanted - value)
        out.left.append(
            f"{sheet.name} now holds {value} {_label(ctx, key, value)}: "
            f"{short} {_label(ctx, key, short)} could not be "
            f"{'taken back' if delta > 0 else 'given back'}."
        )


def _die(ctx, sheet: Sheet, change: Mapping[str, Any], out: Undone) -> None:
    group, name = change["group"], change["trait"]
    trait = ctx.character(sheet).trait(group, name)
    now = (trait.die_label or None) if trait is not None else None
    if now != (change["to"] or None):
        out.left.append(f"{sheet.name}'s {name} changed since: left at {now or 'no die'}.")
        return
    ctx.set_die(sheet, group, trait.name if trait is not None else name, change["from"])
    out.done.append(f"{sheet.name}'s {name}: back to {change['from'] or 'no die'}.")


def _flag(ctx, sheet: Sheet, change: Mapping[str, Any], target: TableEvent, out: Undone) -> None:
    """SMV-7: a Resource the event marked used is free again, unless a new session began
    since (which freed it already; a later use is that later roll's)."""
    name, flag = change["trait"], change["flag"]
    later_session = TableEvent.objects.filter(
        campaign_id=target.campaign_id, kind=Kind.SESSION_START, seq__gt=target.seq
    ).exists()
    trait = ctx.character(sheet).trait(change["group"], name)
    if trait is None or not (trait.flags or {}).get(flag):
        return
    if later_session:
        out.left.append(f"{sheet.name}'s {name} was used again after a new session: left used.")
        return
    trait.flags = {k: v for k, v in trait.flags.items() if k != flag}
    Trait.objects.filter(pk=trait.pk).update(flags=trait.flags, version=F("version") + 1)
    ctx.changed_traits.append((sheet, trait, change["group"]))
    out.effects.append(
        {"sheet": sheet.pk, "trait": name, "group": change["group"], "flag": flag, "cleared": True}
    )
    out.done.append(f"{sheet.name}'s {name}: not used any more.")


def _state(target: TableEvent, plan: Mapping[str, Any], names, out: Undone, declared) -> None:
    pieces = plan.get("state") or []
    if not pieces:
        return
    row = SceneState.objects.select_for_update().filter(scene_id=plan.get("scene")).first()
    if row is None or row.expired:
        title = (target.refs.get("scene") or {}).get("title") or "its scene"
        out.left.append(f"“{title}” has ended, so its scene state was left as it is.")
        return
    if _restore(row, pieces, names, out, "scene", declared):
        row.save(update_fields=["data", "version", "updated_at"])


def _session_state(target: TableEvent, plan: Mapping[str, Any], names, out: Undone) -> None:
    """SER-10: a session Asset the event made (or changed) is given back while its session
    lasts; after a session_start it has expired already, and the card says so."""
    recorded = plan.get("session") or {}
    pieces = recorded.get("state") or []
    if not pieces:
        return
    row = SessionState.objects.select_for_update().filter(campaign_id=target.campaign_id).first()
    if row is None or row.session != recorded.get("number"):
        out.left.append(
            "A new session has begun since, so its session assets were left as they are."
        )
        return
    if _restore(row, pieces, names, out, "session"):
        row.save(update_fields=["data", "version", "updated_at"])


def _restore(row, pieces: list, names, out: Undone, scope: str, declared=()) -> bool:
    """Put back each piece nothing changed since; True if any was (the row's version
    moves on). `declared`: the game's scene pieces, for their words."""
    changed = False
    for piece in reversed(pieces):
        path, what = piece["path"], describe(piece["path"], names, scope, declared)
        now = get(row.data, path)
        if canonical_json(now) != canonical_json(piece["to"]):
            out.left.append(f"{what[:1].upper()}{what[1:]} changed since: left as it is.")
            continue
        put(row.data, path, piece["from"])
        changed = True
        out.effects.append({f"{scope}_state": {"restored": what}})
        out.done.append(f"{what[:1].upper()}{what[1:]}: restored.")
    if changed:
        row.version += 1
    return changed


def from_effects(target: TableEvent) -> dict[str, Any]:
    """The undo plan of an event written before plans were kept: its sheet effects."""
    return record(list(target.effects or []), [], None)


def apply_undo(ctx, target: TableEvent) -> Undone:
    """Give back what `target` changed (in the caller's transaction, campaign locked)."""
    out = Undone()
    plan = target.undo or from_effects(target)
    if not target.undo and any("scene_state" in e for e in target.effects or []):
        out.left.append("This event was logged before voids could restore scene state.")
    changes = [*plan.get("counters", []), *plan.get("dice", []), *plan.get("flags", [])]
    ids = {change["sheet"] for change in changes}
    for piece in plan.get("state") or []:
        if piece["path"][0] == "complications" and str(piece["path"][1]).isdigit():
            ids.add(int(piece["path"][1]))
    sheets = {s.pk: s for s in Sheet.objects.filter(campaign_id=target.campaign_id, pk__in=ids)}
    names = {pk: s.name for pk, s in sheets.items()}

    def sheet_of(sheet_id) -> Sheet | None:
        sheet = sheets.get(sheet_id)
        if sheet is None:
            out.left.append("A character it changed was deleted.")
        return sheet

    for change in plan.get("counters", []):
        sheet = sheet_of(change["sheet"])
        if sheet is not None:
            _counter(ctx, sheet, change["counter"], int(change["delta"]), out)
    for change in reversed(plan.get("dice", [])):
        sheet = sheet_of(change["sheet"])
        if sheet is not None:
            _die(ctx, sheet, change, out)
    for change in plan.get("flags", []):
        sheet = sheet_of(change["sheet"])
        if sheet is not None:
            _flag(ctx, sheet, change, target, out)
    _state(target, plan, names, out, ctx.system.scene)
    _session_state(target, plan, names, out)
    out.effects = ctx.effects + out.effects
    return out
