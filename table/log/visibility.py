"""What each role at the table may see: the one gate every read goes through.

Two audiences: "gm" (GMs see everything) and "players" (players and observers). An
event is *hidden* from players while it is secret (a GM roll behind the screen) or
blind (a player's roll for the GM's eyes) and not yet revealed. Players still learn
that it happened, as at a real table: they get a *sealed* card carrying a SHA-256
commitment to its faces and outcome (with a random salt), so the numbering of the log
is no side channel and the reveal can be checked against what was fixed before it.

Scene and session state written by a hidden event is *veiled*: the state records, per
piece it changed (table.log.undo.parts), what players saw before; players are shown that
until the event is revealed.

A whispered chat line (Visibility.WHISPER) is a third rule, as at a real table: the
GMs, the member who wrote it and the member it is whispered to (a GM's whisper to one
player, or a player's to another where the campaign allows it; none for a whisper to
the GM) read it (`sees`); every other member gets a sealed line in its place ("Bob
whispered to the GM", "The GM whispered to Alice"), without its text, so the log keeps
every seq; it is never revealed, so it carries no commitment. A reader that knows no
member (`viewer` None: the overlay, the players' Discord channel) shows no seq and gets
no whisper at all. `reaches` and `log_filter(audience, viewer)` express it.

Every reference an action makes to an earlier roll or to hidden state is looked up
through here, and a target hidden from the actor is reported exactly as a target that
does not exist.

A later event may copy what was hidden (a GM's public action whose request the table
filled from veiled scene state, an earlier hidden roll it read, a hidden GM character it
names). Each action records what it read that players could not see (`secrets_read`,
kept in its params under VEILED: each name with the hidden seq or hidden sheet it came
from), and `projected` is the one projection every reader of an event goes through (the
card, hence the page, the socket and the overlay; `event_data`, hence the exports, the
API and Discord): while its source is still hidden, a recorded name is cut from the
event's request, outcome, effects and refs, and a hidden GM character acting is shown
as HIDDEN_CHARACTER with no portrait.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
import secrets
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

from django.db import connection
from django.db.models import Q

from campaigns.models import Membership, Role, Scene
from rules.kit import order as action_order
from sheets.models import Sheet
from table.log import undo
from table.models import TableEvent, Visibility, canonical_json

GM = "gm"
PLAYERS = "players"
AUDIENCES = (GM, PLAYERS)
VEILS = undo.VEILS
VEILED = "veiled"  # an event's params: what it read that players could not see
HIDDEN_CHARACTER = action_order.HIDDEN_LABEL  # "GM character": a hidden one, to players
HIDDEN_WORDS = "(hidden)"  # what players read where a hidden name was copied


def audience_of(membership: Membership | None) -> str | None:
    """GMs see every event; players and observers see public ones, and sealed cards."""
    if membership is None:
        return None
    return GM if membership.role == Role.GM else PLAYERS


def live_pool_audiences(record: Mapping[str, Any] | None) -> dict[str, bool]:
    """Who sees a player's pool in progress (table.pools.live_pool): GMs see it whole; the
    players see that it is being built, unless the roll is to be blind, which is the
    GM's only, as the roll itself will be."""
    if record is None:
        return {GM: False, PLAYERS: False}
    return {GM: True, PLAYERS: not record.get("blind")}


def is_hidden(event: TableEvent) -> bool:
    """Secret, blind or whispered, and not revealed: never shown to players in full
    (a whisper is shown to its author only, see `sees`)."""
    return event.visibility != Visibility.PUBLIC and not event.revealed


def is_whisper(event: TableEvent) -> bool:
    return event.visibility == Visibility.WHISPER


# The viewer of what a whole audience's sockets share (table.live.broadcast): a member, but
# the author of no whisper (no user has id 0); each author's sockets get their own card.
ANY_MEMBER = 0


def reaches(event: TableEvent, audience: str, viewer: int | None = None) -> bool:
    """Is the event in this reader's log at all, sealed or not? Every event is, for
    every member (`viewer`, a user id); a whisper is not, for a players' reader that
    knows no member (viewer None)."""
    return not is_whisper(event) or audience == GM or viewer is not None


def whisper_readers(event: TableEvent) -> tuple[int, ...]:
    """The members, besides the GMs, who read a whisper: its author and its recipient."""
    readers = (event.actor_id, event.whisper_to.get("id"))
    return tuple(r for r in readers if isinstance(r, int) and not isinstance(r, bool))


def sees(event: TableEvent, audience: str, viewer: int | None = None) -> bool:
    """May this audience see the event itself (not just its sealed card)? A whisper:
    the GMs, its author and its recipient (`viewer`) only. A public event whose values
    came from a hidden one (`sealed_by`) is hidden as long as that one is."""
    if is_whisper(event):
        return audience == GM or (viewer is not None and viewer in whisper_readers(event))
    return audience == GM or not (is_hidden(event) or sealed_by(event))


def sealed_by(event: TableEvent) -> bool:
    """Did this event read its values from an earlier event players still may not see
    (recorded as a "whole" source, table.acting.context.Context.hidden_sources)?"""
    sources = [
        r.get("seq")
        for r in (event.params or {}).get(VEILED) or []
        if isinstance(r, Mapping) and r.get("whole")
    ]
    return bool(sources) and bool(hidden_seqs(event.campaign_id, sources))


def resting_on(event: TableEvent, limit: int = 200) -> list[TableEvent]:
    """The later events that rest on this one (`sealed_by` it: their values came from it),
    oldest first: when it is revealed, their sealed cards open too."""
    later = TableEvent.objects.filter(
        campaign_id=event.campaign_id, seq__gt=event.seq, params__has_key=VEILED
    ).order_by("seq")[:limit]
    return [
        e
        for e in later
        if any(
            isinstance(r, Mapping) and r.get("whole") and r.get("seq") == event.seq
            for r in e.params.get(VEILED) or []
        )
    ]


# --------------------------------------------------------------------------- sealing


def new_seal(faces: list, outcome: Mapping[str, Any]) -> dict[str, str]:
    """A fresh salt and the commitment to (faces, outcome, salt) for a hidden event."""
    salt = secrets.token_hex(16)
    return {"salt": salt, "commitment": commitment(faces, outcome, salt)}


def committed_text(faces: list, outcome: Mapping[str, Any], salt: str) -> str:
    """The exact text a commitment hashes (docs/protocol.md shows how to check it)."""
    return canonical_json({"faces": faces, "outcome": outcome, "salt": salt})


def commitment(faces: list, outcome: Mapping[str, Any], salt: str) -> str:
    return hashlib.sha256(committed_text(faces, outcome, salt).encode("utf-8")).hexdigest()


def sealed_headline(event: TableEvent) -> str:
    """What players read on a sealed card: that something happened, and nothing else."""
    if is_whisper(event):
        to = event.whisper_to
        if not to:
            return f"{event.actor_name} whispered to the GM"
        author = "The GM" if to.get("by_gm") else event.actor_name
        return f"{author} whispered to {to.get('name')}"
    verb = "rolled" if event.faces else "acted"
    if event.visibility == Visibility.BLIND and event.actor_id is not None:
        return f"{event.actor_name} {verb} blind, for the GM's eyes only"
    if event.visibility == Visibility.PUBLIC and event.actor_id is not None:
        # Public, sealed by what it rests on (sealed_by): a roll against a secret number.
        return f"{event.actor_name} {verb} against what the GM keeps behind the screen"
    return f"The GM {verb} behind the screen"


def sealed_view(event: TableEvent) -> dict[str, Any]:
    """A hidden event as players may know it (cards, replays, exports)."""
    return {
        "seq": event.seq,
        "kind": "sealed",
        "headline": sealed_headline(event),
        "created_at": event.created_at.isoformat(),
        "commitment": (event.seal or {}).get("commitment"),
    }


def opened_seal(
    event: TableEvent, audience: str, viewer: int | None = None
) -> dict[str, str] | None:
    """The salt and the committed text, once the audience may see the event."""
    seal = event.seal or {}
    if not seal.get("salt") or not sees(event, audience, viewer):
        return None
    return {
        "commitment": seal["commitment"],
        "salt": seal["salt"],
        "text": committed_text(event.faces, event.outcome, seal["salt"]),
    }


def event_data(event: TableEvent, audience: str, viewer: int | None = None) -> dict[str, Any]:
    """An event as plain data for this audience (exports, and anything else that hands
    the log out as data): a sealed view when it is hidden from them. A whisper asked for
    a reader that knows no member is refused outright (log_filter leaves it out)."""
    if not reaches(event, audience, viewer):
        raise ValueError("a whisper is read by members only")
    if not sees(event, audience, viewer):
        return sealed_view(event)
    event = projected(event, audience)
    data: dict[str, Any] = {
        "seq": event.seq,
        "kind": event.kind,
        "action": event.action,
        "actor": event.actor_name,
        "character": event.character_name or None,
        "scene": (event.refs.get("scene") or {}).get("title"),
        "visibility": event.visibility,
        "created_at": event.created_at.isoformat(),
        "request": event.request,
        "faces": event.faces,
        "outcome": event.outcome,
        "effects": event.effects,
        "hash": event.hash,
    }
    if audience == GM:
        data["revealed"] = event.revealed
        data["secret_difficulty"] = event.params.get("secret_difficulty")
    data["voided"] = event.voided
    seal = opened_seal(event, audience, viewer)
    if seal is not None:
        data["seal"] = seal
    target = event.target if event.target_id is not None else None
    if target is not None:
        data["target_seq"] = target.seq
        if sees(target, audience):
            target = projected(target, audience)
            data["target"] = {
                "seq": target.seq,
                "action": target.action,
                "character": target.character_name or None,
                "faces": target.faces,
                "outcome": target.outcome,
            }
    return data


def acknowledgement(event: TableEvent, audience: str, done: str = "") -> str:
    """What the actor is told of their own action: its headline, unless it is hidden
    from them (a player's own blind roll is the GM's until revealed)."""
    if not sees(event, audience):
        if event.visibility == Visibility.PUBLIC:
            return (
                "Your roll is against what the GM keeps behind the screen: it shows here "
                "sealed until the GM reveals that."
            )
        return "Your blind roll went to the GM: it shows here sealed until revealed."
    return event.headline or done


# --------------------------------------------------------------------------- copies

# Dice sizes, numbers and the table's own words (keys such as "die" or "note", statuses
# such as "open") name nothing a player may not know: never recorded as hidden names.
_PLAIN = re.compile(r"d[0-9]+(\+d[0-9]+)?|[0-9]+|[a-z_]+")


def _texts(value: Any) -> set[str]:
    """Every string in a JSON value, its mappings' keys included."""
    if isinstance(value, str):
        return {value}
    out: set[str] = set()
    if isinstance(value, Mapping):
        for key, item in value.items():
            if isinstance(key, str):
                out.add(key)
            out |= _texts(item)
    elif isinstance(value, list):
        for item in value:
            out |= _texts(item)
    return out


def _names(texts: Iterable[str], public: set[str]) -> set[str]:
    return {
        t
        for t in texts
        if len(t.strip()) >= 3 and not _PLAIN.fullmatch(t.strip()) and t not in public
    }


def _public_names(campaign_id: int) -> set[str]:
    """Names every member knows: the scenes' titles and the visible characters'."""
    titles = Scene.objects.filter(campaign_id=campaign_id).values_list("title", flat=True)
    sheets = Sheet.objects.filter(campaign_id=campaign_id, hidden=False)
    return set(titles) | set(sheets.values_list("name", flat=True))


def state_secrets(campaign_id: int, data: Mapping[str, Any], public: set[str]) -> dict[str, int]:
    """The names in this scene or session state that players do not see now, each with
    the hidden seq that put it there."""
    veils = data.get(VEILS)
    if not isinstance(veils, Mapping):
        return {}
    veils = {k: v for k, v in veils.items() if isinstance(v, Mapping)}
    hidden = hidden_seqs(campaign_id, [v.get("seq") for v in veils.values()])
    if not hidden:
        return {}
    public = public | _texts(visible_state(campaign_id, data, PLAYERS))
    found: dict[str, int] = {}
    for key, veil in veils.items():
        if veil.get("seq") in hidden:
            path = json.loads(key)
            texts = _texts(undo.get(data, path)) | {p for p in path[1:] if isinstance(p, str)}
            for name in _names(texts, public):
                found[name] = veil["seq"]
    return found


def secrets_read(
    campaign_id: int, states: Iterable[Mapping[str, Any]], events: Iterable[TableEvent]
) -> list[dict[str, Any]]:
    """What an action could copy that players may not see: the hidden names of the scene
    and session state it read, of the hidden events it read, and the hidden GM
    characters' names. Each as {"text", "seq"} or {"text", "sheet"}: veiled while that
    seq or sheet stays hidden (`projected`)."""
    public: set[str] = set()
    if any(isinstance(d.get(VEILS), Mapping) for d in states) or any(map(is_hidden, events)):
        public = _public_names(campaign_id)  # asked only when something is hidden
    found: dict[str, dict[str, Any]] = {}
    for data in states:
        for name, seq in state_secrets(campaign_id, data, public).items():
            found[name] = {"text": name, "seq": seq}
    for event in events:
        for record in (event.params or {}).get(VEILED) or []:
            if not isinstance(record, Mapping):
                continue
            key = record.get("text") if not record.get("whole") else f"#{record.get('seq')}"
            if isinstance(key, str):
                found.setdefault(key, dict(record))  # what it copied, copied on
        if is_hidden(event):
            for name in _names(_texts([event.request, event.outcome]), public):
                found.setdefault(name, {"text": name, "seq": event.seq})
    for pk, name in hidden_sheets(campaign_id):
        found[name] = {"text": name, "sheet": pk}
    return [found[key] for key in sorted(found)]


def hidden_sheets(campaign_id: int) -> list[tuple[int, str]]:
    """The campaign's hidden GM characters as (pk, name), in the sheets' own order.

    Every action asks this (secrets_read), so it is one plain statement: building it
    through the ORM each time cost several times what the database took to answer."""
    with connection.cursor() as cursor:
        cursor.execute(_HIDDEN_SHEETS_SQL(), [campaign_id, True])
        return cursor.fetchall()


@cache
def _HIDDEN_SHEETS_SQL() -> str:  # noqa: N802 - a constant, built once the apps are ready
    table = Sheet._meta.db_table
    order = ", ".join(Sheet._meta.get_field(name).column for name in ("kind", "name", "id"))
    return f"SELECT id, name FROM {table} WHERE campaign_id = %s AND hidden = %s ORDER BY {order}"  # noqa: S608


def sheet_veil(sheet: Sheet | None) -> dict[str, Any]:
    """The params of an event written outside an action (a line said in character):
    the hidden GM character it names, veiled like an action's (`secrets_read`)."""
    if sheet is None or not sheet.hidden:
        return {}
    return {VEILED: [{"text": sheet.name, "sheet": sheet.pk}]}


def active_secrets(event: TableEvent) -> tuple[dict[str, str], frozenset[int]]:
    """The names recorded with the event whose source players still may not see (each
    with what players read instead), and the hidden sheets among those sources."""
    recorded = [
        r
        for r in (event.params or {}).get(VEILED) or []
        if isinstance(r, Mapping) and isinstance(r.get("text"), str) and r["text"]
    ]
    if not recorded:
        return {}, frozenset()
    seqs = hidden_seqs(event.campaign_id, [r.get("seq") for r in recorded])
    ids = [r["sheet"] for r in recorded if isinstance(r.get("sheet"), int)]
    rows = Sheet.objects.filter(campaign_id=event.campaign_id, pk__in=ids, hidden=True)
    sheets = frozenset(rows.values_list("pk", flat=True)) if ids else frozenset()
    names = {}
    for r in recorded:
        if r.get("seq") in seqs:
            names[r["text"]] = HIDDEN_WORDS
        elif r.get("sheet") in sheets:
            names[r["text"]] = HIDDEN_CHARACTER
    return names, sheets


def _cut(value: Any, names: Mapping[str, str]) -> Any:
    """A copy of a JSON value without the hidden names: a key that is one goes, with its
    value; a text holding one reads the stand-in instead (longest names first)."""
    if isinstance(value, str):
        for name in sorted(names, key=len, reverse=True):
            if name in value:
                value = value.replace(name, names[name])
        return value
    if isinstance(value, Mapping):
        return {k: _cut(v, names) for k, v in value.items() if k not in names}
    if isinstance(value, list):
        return [_cut(v, names) for v in value]
    return value


def projected(event: TableEvent, audience: str) -> TableEvent:
    """The event as this audience may read it, for every reader (cards and data alike):
    GMs read it whole; players read it without the hidden names it copied, and a hidden
    GM character acting in it as HIDDEN_CHARACTER, with no sheet (so no portrait)."""
    if audience == GM:
        return event
    names, sheets = active_secrets(event)
    if not names:
        return event
    shown = copy.copy(event)
    shown.request = _cut(event.request, names)
    shown.outcome = _cut(event.outcome, names)
    shown.effects = _cut(event.effects, names)
    shown.refs = _cut(event.refs, names)
    if event.character_id in sheets:
        shown.character_id = None
        shown.refs["character"] = {"id": None, "name": HIDDEN_CHARACTER, "hidden": True}
    return shown


def projection_key(event: TableEvent, audience: str) -> tuple:
    """What a cached card of this event depends on beyond the event itself: which of
    its recorded hidden names are still hidden from this audience."""
    if audience == GM or not (event.params or {}).get(VEILED):
        return ()
    names, sheets = active_secrets(event)
    return (tuple(sorted(names)), tuple(sorted(sheets)), sealed_by(event))


# --------------------------------------------------------------------------- the log


def log_filter(audience: str, viewer: int | None = None) -> Q:
    """Which rows of the log a reader gets: every member every seq (hidden ones and
    others' whispers sealed); a players' reader that knows no member (viewer None)
    every seq but the whispers (`reaches`)."""
    if audience == GM or viewer is not None:
        return Q()
    return ~Q(visibility=Visibility.WHISPER)


def referenced_event(
    campaign_id: int, seq: object, audience: str, viewer: int | None = None, **extra: Any
):
    """The event at `seq` if this audience may see it, else None, exactly as for a seq
    that does not exist."""
    if isinstance(seq, bool) or not isinstance(seq, int):
        return None
    event = TableEvent.objects.filter(campaign_id=campaign_id, seq=seq, **extra).first()
    if event is None or not sees(event, audience, viewer):
        return None
    return event


def hidden_seqs(campaign_id: int, seqs: Iterable[int]) -> set[int]:
    """Which of these seqs are hidden from players now."""
    wanted = {s for s in seqs if isinstance(s, int) and not isinstance(s, bool)}
    if not wanted:
        return set()
    rows = TableEvent.objects.filter(campaign_id=campaign_id, seq__in=wanted, revealed=False)
    return set(rows.exclude(visibility=Visibility.PUBLIC).values_list("seq", flat=True))


# --------------------------------------------------------------------------- state


def record_veils(
    data: dict[str, Any], before: Mapping[str, str], seq: int, *, public: bool
) -> None:
    """After an action changed `data` (its pieces were `before`, table.log.undo.snapshot):
    a hidden action veils each piece it changed with what players saw before it; a
    public one lifts the veil from the pieces it changed (everyone saw the change)."""
    veils = data.get(VEILS) if isinstance(data.get(VEILS), dict) else {}
    for change in undo.changes(before, data):
        key = canonical_json(change["path"])
        if public:
            veils.pop(key, None)
        elif key not in veils:
            veils[key] = {"seq": seq, "before": change["from"]}
        else:
            veils[key]["seq"] = seq  # players still see the older value
    if veils:
        data[VEILS] = veils
    else:
        data.pop(VEILS, None)


def veil_piece(data: dict[str, Any], path: list, seq: int, shown: Any) -> None:
    """Veil one piece with a chosen stand-in (a secret difficulty shows as secret,
    not as the older difficulty it replaced)."""
    data.setdefault(VEILS, {})[canonical_json(path)] = {
        "seq": seq,
        "before": shown,
        "stand_in": True,
    }


def _stand_in(veil: Mapping[str, Any]) -> bool:
    """A veil showing a stand-in (a difficulty "set behind the screen"), not what
    players saw before (older states mark it only by its shape)."""
    return bool(veil.get("stand_in")) or veil.get("before") == {"secret": True}


def visible_state(
    campaign_id: int, data: Mapping[str, Any], audience: str, *, stand_ins: bool = True
) -> dict[str, Any]:
    """The scene or session state as this audience may see it; without `stand_ins`, a
    piece players know only as a stand-in is left out (a public summary of the scene
    counts only what players saw)."""
    data = copy.deepcopy(dict(data))
    veils = data.pop(VEILS, None)
    if audience == GM:
        return data
    if isinstance(veils, dict):
        hidden = hidden_seqs(campaign_id, [v.get("seq") for v in veils.values()])
        for key, veil in veils.items():
            if veil.get("seq") in hidden:
                shown = None if _stand_in(veil) and not stand_ins else veil.get("before")
                undo.put(data, json.loads(key), copy.deepcopy(shown))
    if isinstance(data.get(action_order.KEY), dict):
        data[action_order.KEY] = players_order(campaign_id, data[action_order.KEY])
    return data


def public_state(campaign_id: int, data: Mapping[str, Any]) -> dict[str, Any]:
    """The state as a public summary may tell it (the "Scene ended" card): what players
    saw, without the pieces they know only as a stand-in."""
    return visible_state(campaign_id, data, PLAYERS, stand_ins=False)


def players_order(campaign_id: int, order: Mapping[str, Any]) -> dict[str, Any]:
    """The action order as players see it: a hidden GM character (hidden when it joined,
    or since) shows by its label ("GM character #3"), without its sheet, name or rating;
    every slot's private rank is dropped."""
    slots = [s for s in order.get("slots") or [] if isinstance(s, Mapping)]
    ids = [s.get("sheet") for s in slots if isinstance(s.get("sheet"), int)]
    hidden_now = set(
        Sheet.objects.filter(campaign_id=campaign_id, pk__in=ids, hidden=True).values_list(
            "pk", flat=True
        )
    ) if ids else set()  # fmt: skip
    shown = []
    for slot in slots:
        entry = {k: v for k, v in slot.items() if k not in ("rank", "hidden")}
        if slot.get("hidden") or slot.get("sheet") in hidden_now:
            entry.update(sheet=None, rating=None, side=False)
            entry["label"] = entry["name"] = f"{action_order.HIDDEN_LABEL} #{slot.get('slot')}"
        shown.append(entry)
    return {**order, "slots": shown}
