"""What each role at the table may see: the one gate every read goes through.

Two audiences: "gm" (GMs see everything) and "players" (players and observers). An
event is *hidden* from players while it is secret (a GM roll behind the screen) or
blind (a player's roll for the GM's eyes) and not yet revealed. Players still learn
that it happened, as at a real table: they get a *sealed* card carrying a SHA-256
commitment to its faces and outcome (with a random salt), so the numbering of the log
is no side channel and the reveal can be checked against what was fixed before it.

Scene and session state written by a hidden event is *veiled*: the state records, per
piece it changed (table.undo.parts), what players saw before; players are shown that
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
"""

from __future__ import annotations

import copy
import hashlib
import json
import secrets
from collections.abc import Iterable, Mapping
from typing import Any

from django.db.models import Q

from campaigns.models import Membership, Role
from rules.kit import order as action_order
from sheets.models import Sheet

from . import undo
from .models import TableEvent, Visibility, canonical_json

GM = "gm"
PLAYERS = "players"
AUDIENCES = (GM, PLAYERS)
VEILS = undo.VEILS


def audience_of(membership: Membership | None) -> str | None:
    """GMs see every event; players and observers see public ones, and sealed cards."""
    if membership is None:
        return None
    return GM if membership.role == Role.GM else PLAYERS


def live_pool_audiences(record: Mapping[str, Any] | None) -> dict[str, bool]:
    """Who sees a player's pool in progress (table.live_pool): GMs see it whole; the
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


# The viewer of what a whole audience's sockets share (table.broadcast): a member, but
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
    the GMs, its author and its recipient (`viewer`) only."""
    if is_whisper(event):
        return audience == GM or (viewer is not None and viewer in whisper_readers(event))
    return audience == GM or not is_hidden(event)


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
        return "Your blind roll went to the GM: it shows here sealed until revealed."
    return event.headline or done


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
    """After an action changed `data` (its pieces were `before`, table.undo.snapshot):
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
    data.setdefault(VEILS, {})[canonical_json(path)] = {"seq": seq, "before": shown}


def visible_state(campaign_id: int, data: Mapping[str, Any], audience: str) -> dict[str, Any]:
    """The scene or session state as this audience may see it."""
    data = copy.deepcopy(dict(data))
    veils = data.pop(VEILS, None)
    if audience == GM:
        return data
    if isinstance(veils, dict):
        hidden = hidden_seqs(campaign_id, [v.get("seq") for v in veils.values()])
        for key, veil in veils.items():
            if veil.get("seq") in hidden:
                undo.put(data, json.loads(key), copy.deepcopy(veil.get("before")))
    if isinstance(data.get(action_order.KEY), dict):
        data[action_order.KEY] = players_order(campaign_id, data[action_order.KEY])
    return data


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
