"""Action order and the spotlight: who acts now in a scene, for every game.

A game declares the kind of order it plays (`ORDER`, an `OrderRules`; default: popcorn):

- **popcorn** (the Cortex games): whoever holds the spotlight hands it to someone who has
  not acted this round, the GM's side included; when everyone has acted the round ends,
  and the last to act picks who starts the next one, themselves included.
- **initiative** (Unisystem, Personae): the participants act in the order of a rating on
  their sheets that the GM picks (highest first; ties in the order the GM listed them),
  and the turn moves down the line; the GM may hand the turn out of line.

The order is scene state (`data["order"]`), changed only by the actions below, logged,
voided and replayed as any other. The resolvers are pure functions of the *public* order
(slots with the names players may read), so a logged event never names a hidden GM
character: the private part of each slot (its sheet and true name) is written into the
scene state by the transitions and shown by table.log.visibility to GMs only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .actions import Action
from .errors import RulesError
from .faces import FaceSource
from .table import ActionError, Table, Transition

POPCORN, INITIATIVE = "popcorn", "initiative"
KEY = "order"  # the scene-state key
GM_SIDE = "The GM"  # the GM's side without a sheet (opposition, a crowd, the scene)
HIDDEN_LABEL = "GM character"  # what players read for a hidden GM character
MAX_PARTICIPANTS = 30
PRIVATE = ("sheet", "name", "hidden")  # the parts of a slot players may not see


@dataclass(frozen=True)
class OrderRules:
    """How a game orders a scene's actions.

    `rating_group` and `ratings` are for initiative: the sheet group whose rating orders
    the participants and the ratings the GM may pick (the first by default; empty: any
    rating of the group the participants' sheets hold). `decision` says it in words for
    the rules pages (each game files it under one of its rules IDs)."""

    kind: str = POPCORN
    rating_group: str = ""
    ratings: tuple[str, ...] = ()

    @property
    def decision(self) -> str:
        if self.kind == POPCORN:
            return (
                "Decision: action order (the seed gives none) is popcorn. "
                "The GM starts it with its participants (the characters, and the GM's side "
                "when it acts without a sheet) and who goes first. Whoever holds the "
                "spotlight hands it to someone who has not acted this round; handing it to "
                "one who has is refused. When everyone has acted the round ends and the last "
                "to act picks who starts the next, themselves included. A player hands it on "
                "only while their character holds it; the GM at any time."
            )
        by = " or ".join(self.ratings[:1]) or "an attribute the GM picks"
        return (
            "Decision: action order (the seed gives no initiative rule) is initiative. The GM starts an "
            f"initiative order for the scene, ordered by {by} (the GM may pick another "
            "attribute), highest first; ties in the order the GM lists them, characters "
            "without that rating after the rest, and the GM's side without a sheet last. "
            "A hidden GM character's rating places it without being shown. Each turn "
            "passes to the next in line; after the last the next round starts at the top. "
            "The player whose turn it is ends it; the GM may hand the turn out of line to "
            "someone who has not acted this round (a held action, a lost initiative)."
        )


DEFAULT_ORDER = OrderRules()


# --------------------------------------------------------------------------- the public order
#
# {"kind", "by", "round", "current": slot or None, "acted": [slot], "slots": [{"slot",
#  "label", "rating"}]}: what every event carries and every resolver reads.


def _slots(order: Mapping[str, Any]) -> list[dict[str, Any]]:
    slots = order.get("slots")
    if not isinstance(slots, list):
        raise RulesError("the order has no participants")
    return [dict(s) for s in slots if isinstance(s, Mapping) and isinstance(s.get("slot"), int)]


def _label(order: Mapping[str, Any], slot: object) -> str:
    for entry in _slots(order):
        if entry["slot"] == slot:
            return str(entry.get("label") or f"#{slot}")
    return f"#{slot}"


def _names(order: Mapping[str, Any], slots: list[int]) -> str:
    return ", ".join(_label(order, s) for s in slots) or "nobody"


def waiting(order: Mapping[str, Any]) -> list[int]:
    """The slots that have not acted this round (the holder of the spotlight included)."""
    acted = set(order.get("acted") or [])
    return [s["slot"] for s in _slots(order) if s["slot"] not in acted]


def public(order: Mapping[str, Any]) -> dict[str, Any]:
    """The order without what only GMs may see (the request and outcome of an event)."""
    return {
        "kind": order.get("kind", POPCORN),
        "by": order.get("by", ""),
        "round": order.get("round", 1),
        "current": order.get("current"),
        "acted": list(order.get("acted") or []),
        "slots": [
            {"slot": s["slot"], "label": s.get("label", ""), "rating": s.get("rating")}
            for s in _slots(order)
        ],
    }


def ranked(kind: str, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Initiative's line: highest "rank" first; ties and unrated ones in the GM's listing;
    the GM's side ("side") last. Popcorn keeps the GM's listing. The rank is private (a
    hidden character's rating is not shown), so the transitions rank and the resolvers
    take the line as given."""
    if kind != INITIATIVE:
        return list(entries)

    def key(item: tuple[int, Mapping[str, Any]]) -> tuple[int, int, int, int]:
        index, entry = item
        rank = entry.get("rank")
        rated = isinstance(rank, int) and not isinstance(rank, bool)
        return (1 if entry.get("side") else 0, 0 if rated else 1, -(rank if rated else 0), index)

    return [dict(entry) for _, entry in sorted(enumerate(entries), key=key)]


def started(kind: str, by: str, joining: list[dict[str, Any]], first: object) -> dict[str, Any]:
    """A new order: round 1, the chosen one (popcorn) or the top of the line first."""
    if kind not in (POPCORN, INITIATIVE):
        raise RulesError(f"no such kind of order: {str(kind)[:20]!r}")
    if not joining:
        raise RulesError("choose at least one participant for the order")
    if len(joining) > MAX_PARTICIPANTS:
        raise RulesError(f"an order holds at most {MAX_PARTICIPANTS} participants")
    slots = [dict(s) for s in joining]
    order = {"kind": kind, "by": by, "round": 1, "current": None, "acted": [], "slots": slots}
    if first is None:
        order["current"] = slots[0]["slot"]
    elif first in [s["slot"] for s in slots]:
        order["current"] = first
    else:
        raise RulesError("whoever starts must be one of the participants")
    return order


def handed_on(order: Mapping[str, Any], to: object) -> dict[str, Any]:
    """Popcorn (and the GM's out-of-line turn in initiative): the holder has acted; the
    spotlight goes to `to`, who must not have acted this round. When nobody is left to
    act the round ends and `to` (anyone, the last actor included) starts the next."""
    after = public(order)
    slots = [s["slot"] for s in after["slots"]]
    if to not in slots:
        raise RulesError("hand the spotlight to one of the participants")
    holder = after["current"]
    acted = list(after["acted"])
    if holder is not None and holder not in acted:
        acted.append(holder)
    left = [s for s in slots if s not in acted]
    if not left:  # the round is over: the last to act picks who starts the next
        return {**after, "round": after["round"] + 1, "acted": [], "current": to}
    if to not in left:
        who = _label(after, to)
        if to == holder:
            raise RulesError(
                f"{who} holds the spotlight now: hand it to someone who has not acted this "
                f"round ({_names(after, left)})"
            )
        raise RulesError(
            f"{who} has already acted this round: hand the spotlight to someone who has not "
            f"({_names(after, left)})"
        )
    return {**after, "acted": acted, "current": to}


def next_in_line(order: Mapping[str, Any]) -> dict[str, Any]:
    """Initiative: the holder has acted; the next in line who has not acted takes the
    turn, or after the last a new round starts at the top."""
    after = public(order)
    slots = [s["slot"] for s in after["slots"]]
    holder = after["current"]
    acted = list(after["acted"])
    if holder is not None and holder not in acted:
        acted.append(holder)
    start = slots.index(holder) + 1 if holder in slots else 0
    for slot in slots[start:] + slots[:start]:
        if slot not in acted:
            return {**after, "acted": acted, "current": slot}
    return {**after, "round": after["round"] + 1, "acted": [], "current": slots[0]}


def joined(order: Mapping[str, Any], entry: Mapping[str, Any], at: object) -> dict[str, Any]:
    """A participant joins at place `at` (the end in popcorn, its place in the line in
    initiative); they have not acted this round."""
    after = public(order)
    if len(after["slots"]) >= MAX_PARTICIPANTS:
        raise RulesError(f"an order holds at most {MAX_PARTICIPANTS} participants")
    place = at if isinstance(at, int) and 0 <= at <= len(after["slots"]) else len(after["slots"])
    shown = {"slot": entry["slot"], "label": entry.get("label", ""), "rating": entry.get("rating")}
    after["slots"].insert(place, shown)
    return after


def left_out(order: Mapping[str, Any], slot: object) -> dict[str, Any]:
    """A participant leaves; if they held the spotlight, the GM chooses who takes it."""
    after = public(order)
    if slot not in [s["slot"] for s in after["slots"]]:
        raise RulesError("that participant is not in the order")
    if len(after["slots"]) == 1:
        raise RulesError("that is the last participant: end the order instead")
    after["slots"] = [s for s in after["slots"] if s["slot"] != slot]
    after["acted"] = [s for s in after["acted"] if s != slot]
    if after["current"] == slot:
        after["current"] = None
    return after


# --------------------------------------------------------------------------- resolvers


def _order(request: Mapping[str, Any]) -> dict[str, Any]:
    order = request.get("order")
    if not isinstance(order, Mapping):
        raise RulesError("no action order is running in this scene")
    return public(order)


def _now(order: Mapping[str, Any]) -> str:
    current = order.get("current")
    if current is None:
        return "the GM chooses who goes next"
    return f"{_label(order, current)}’s turn"


def _outcome(headline: str, order: dict[str, Any], explanation: str = "") -> dict[str, Any]:
    lines = f"Round {order['round']}: {_now(order)}."
    return {"headline": headline, "explanation": f"{explanation} {lines}".strip(), "order": order}


def resolve_start(request: Mapping[str, Any], faces: FaceSource) -> dict[str, Any]:
    """Start the scene's order with its participants (the public slots)."""
    joining = request.get("joining")
    if not isinstance(joining, list):
        raise RulesError("choose the participants")
    kind, by = str(request.get("kind", POPCORN)), str(request.get("by", ""))[:40]
    slots = [dict(s) for s in joining if isinstance(s, Mapping)]
    order = started(kind, by, slots, request.get("first"))
    listing = ", ".join(s["label"] for s in order["slots"])
    if kind == INITIATIVE:
        headline = f"Initiative by {by or 'the GM’s order'}: {listing}"
    else:
        headline = f"Action order (popcorn): {_label(order, order['current'])} has the spotlight"
    return _outcome(headline, order, f"In the order: {listing}.")


def resolve_pass(request: Mapping[str, Any], faces: FaceSource) -> dict[str, Any]:
    """Hand the spotlight on (popcorn), or end the turn (initiative; `to` out of line)."""
    before = _order(request)
    to = request.get("to")
    if to is None and before["kind"] == POPCORN:
        raise RulesError(f"say who gets the spotlight: one of {_names(before, waiting(before))}")
    after = next_in_line(before) if to is None else handed_on(before, to)
    holder = before["current"]
    who = _label(before, holder) if holder is not None else "The GM"
    new_round = after["round"] != before["round"]
    taker = _label(after, after["current"])
    if before["kind"] == POPCORN:
        headline = f"{who} hands the spotlight to {taker}"
    else:
        headline = f"{taker}’s turn"
    explanation = f"Round {before['round']} is over." if new_round else ""
    return _outcome(headline, after, explanation)


def resolve_add(request: Mapping[str, Any], faces: FaceSource) -> dict[str, Any]:
    before = _order(request)
    entry = request.get("joining")
    if not isinstance(entry, Mapping) or not isinstance(entry.get("slot"), int):
        raise RulesError("choose who joins the order")
    after = joined(before, entry, request.get("at"))
    return _outcome(f"{entry.get('label', '')} joins the action order", after)


def resolve_remove(request: Mapping[str, Any], faces: FaceSource) -> dict[str, Any]:
    before = _order(request)
    slot = request.get("slot")
    after = left_out(before, slot)
    return _outcome(f"{_label(before, slot)} leaves the action order", after)


def resolve_end(request: Mapping[str, Any], faces: FaceSource) -> dict[str, Any]:
    before = _order(request)
    return {
        "headline": "The action order ends",
        "explanation": f"The order ends after {before['round']} round"
        f"{'' if before['round'] == 1 else 's'}.",
        "order": None,
    }


def _action(name: str, title: str, resolver, schema: dict[str, Any]) -> Action:
    return Action(name=name, title=title, resolver=resolver, rules=(), schema=schema, rolls=False)


ACTIONS: dict[str, Action] = {
    a.name: a
    for a in (
        _action(
            "order_start",
            "Start the action order",
            resolve_start,
            {
                "sheets": {"type": "list[int]", "meaning": "the characters taking part (sheet ids)"},
                "gm_side": {"type": "bool", "meaning": "the GM's side takes turns without a sheet"},
                "first": {"type": "int", "meaning": "popcorn: the sheet id that starts (0: the GM's side)"},
                "by": {"type": "str", "meaning": "initiative: the rating that orders it"},
            },
        ),
        _action(
            "order_pass",
            "Pass the spotlight",
            resolve_pass,
            {"to": {"type": "int", "meaning": "the slot that takes it (initiative: none, the next)"}},
        ),
        _action(
            "order_add",
            "Join the action order",
            resolve_add,
            {
                "sheet": {"type": "int", "meaning": "the sheet id that joins"},
                "gm_side": {"type": "bool", "meaning": "the GM's side joins instead"},
            },
        ),
        _action(
            "order_remove",
            "Leave the action order",
            resolve_remove,
            {"slot": {"type": "int", "meaning": "the slot that leaves"}},
        ),
        _action("order_end", "End the action order", resolve_end, {}),
    )
}  # fmt: skip


# --------------------------------------------------------------------------- transitions
#
# The stored order is the public one plus, per slot, what only GMs see: "sheet" (its id;
# None for the GM's side), "name" (the sheet's name), "hidden" (a hidden GM character,
# shown to players by its label), "rank" (the rating that placed it) and "side".


def _int(value: object) -> int | None:
    if isinstance(value, str) and value.strip().isdigit() and len(value.strip()) < 17:
        value = int(value.strip())
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def running(ctx: Table) -> dict[str, Any]:
    """The scene's order as stored (private parts included), or refused."""
    order = ctx.data.get(KEY)
    if not isinstance(order, Mapping):
        raise ActionError("No action order is running in this scene: the GM starts one.")
    return dict(order)


def _rank(ctx: Table, sheet: Any, by: str) -> int | None:
    rules: OrderRules = ctx.system.order
    if rules.kind != INITIATIVE or not by:
        return None
    trait = ctx.character(sheet).trait(rules.rating_group, by)
    rating = getattr(trait, "rating", None) if trait is not None else None
    return rating if isinstance(rating, int) and not isinstance(rating, bool) else None


def participant(ctx: Table, sheet_id: int, slot: int, by: str) -> dict[str, Any]:
    """A new slot for a sheet, or for the GM's side (sheet id 0)."""
    if sheet_id == 0:
        return {"slot": slot, "label": GM_SIDE, "rating": None, "sheet": None,
                "name": GM_SIDE, "hidden": False, "rank": None, "side": True}  # fmt: skip
    sheet = ctx.other_sheet(sheet_id)
    hidden = bool(sheet.hidden)
    rank = _rank(ctx, sheet, by)
    return {"slot": slot, "label": f"{HIDDEN_LABEL} #{slot}" if hidden else sheet.name,
            "rating": None if hidden else rank, "sheet": sheet.pk, "name": sheet.name,
            "hidden": hidden, "rank": rank, "side": False}  # fmt: skip


def seen_now(ctx: Table, order: Mapping[str, Any]) -> dict[str, Any]:
    """The public order for an event, with a character hidden since it joined shown by
    its label too, so no later card names it."""
    shown = public(order)
    for entry, stored in zip(shown["slots"], _slots(order), strict=True):
        sheet = ctx.sheet_by_id(stored.get("sheet")) if stored.get("sheet") else None
        if sheet is not None and sheet.hidden:
            entry.update(label=f"{HIDDEN_LABEL} #{entry['slot']}", rating=None)
    return shown


def private_parts(order: Mapping[str, Any]) -> dict[int, dict[str, Any]]:
    return {
        s["slot"]: {k: s[k] for k in (*PRIVATE, "rank", "side") if k in s}
        for s in order.get("slots") or []
        if isinstance(s, Mapping) and isinstance(s.get("slot"), int)
    }


def _sheet_ids(ctx: Table) -> list[int]:
    raw = ctx.request.get("sheets")
    raw = [] if raw is None else raw
    if not isinstance(raw, list):
        raise ActionError("Choose who takes part: tick the characters.")
    ids: list[int] = []
    for value in raw[: MAX_PARTICIPANTS + 1]:
        number = _int(value)
        if number is None or number <= 0:
            raise ActionError("Choose the characters by their sheets.")
        if number not in ids:
            ids.append(number)
    if ctx.request.get("gm_side") is True:
        ids.append(0)
    if not ids:
        raise ActionError("Choose who takes part: tick the characters.")
    if len(ids) > MAX_PARTICIPANTS:
        raise ActionError(f"An order holds at most {MAX_PARTICIPANTS} participants.")
    return ids


class OrderTransition(Transition):
    """The order's actions: kept for the scene, public (everyone sees whose turn it is),
    the GM's unless a subclass says otherwise. `apply` writes the outcome's public order
    back with each slot's private part (newcomers' from `ctx.params["joining"]`, which
    the log keeps for GMs only)."""

    needs_scene = True
    public_only = True
    gm_only = True

    def authorize(self, ctx: Table) -> None:
        if self.gm_only:
            ctx.require_gm(f"use “{ctx.action.title}”")

    def apply(self, ctx: Table, outcome: dict[str, Any]) -> None:
        before = ctx.data.get(KEY) if isinstance(ctx.data.get(KEY), Mapping) else {}
        known = private_parts(before)
        known.update(private_parts({"slots": ctx.params.get("joining") or []}))
        order = outcome.get("order")
        if order is None:
            ctx.data.pop(KEY, None)
        else:
            stored = dict(order)
            stored["slots"] = [{**known.get(s["slot"], {}), **s} for s in order["slots"]]
            highest = max([0, *known])
            stored["next_slot"] = max(int(before.get("next_slot", 1)), highest + 1)
            ctx.data[KEY] = stored
        ctx.note(order=outcome["headline"])


class StartOrder(OrderTransition):
    """The GM starts the scene's order with its participants (refused while one runs)."""

    def prepare(self, ctx: Table) -> None:
        if isinstance(ctx.data.get(KEY), Mapping):
            raise ActionError("An action order is running already: end it to start another.")
        rules: OrderRules = ctx.system.order
        by = ""
        if rules.kind == INITIATIVE:
            by = " ".join(str(ctx.request.get("by") or "").split())[:40] or "".join(
                rules.ratings[:1]
            )
            if rules.ratings and by not in rules.ratings:
                raise ActionError(f"Order it by one of: {', '.join(rules.ratings)}.")
            if not by:
                raise ActionError("Choose the rating that orders the initiative.")
        ids = _sheet_ids(ctx)
        entries = [participant(ctx, sheet_id, n + 1, by) for n, sheet_id in enumerate(ids)]
        entries = ranked(rules.kind, entries)
        first = _int(ctx.request.get("first"))
        start = None
        if rules.kind == POPCORN and first is not None:
            start = next((e["slot"] for e in entries if (e["sheet"] or 0) == first), -1)
        ctx.params["joining"] = entries
        ctx.request.clear()
        ctx.request.update(
            kind=rules.kind,
            by=by,
            joining=[{k: e[k] for k in ("slot", "label", "rating")} for e in entries],
            first=start,
        )


class PassOrder(OrderTransition):
    """Hand the spotlight on (popcorn) or end the turn (initiative): the GM at any time,
    a player only while their own character holds it (in initiative, down the line)."""

    gm_only = False

    def prepare(self, ctx: Table) -> None:
        order = running(ctx)
        raw = ctx.request.get("to")
        to = None if raw in (None, "") else _int(raw)
        if raw not in (None, "") and to is None:
            raise ActionError("Choose who gets the spotlight.")
        if not ctx.is_gm:
            slots = order.get("slots") or []
            holder = next((s for s in slots if s.get("slot") == order.get("current")), None)
            sheet = ctx.sheet_by_id(holder.get("sheet")) if holder else None
            if sheet is None or sheet.hidden or not ctx.controls(sheet):
                now = "the GM (choosing)"
                if holder:
                    now = _label(seen_now(ctx, order), holder.get("slot"))
                raise ActionError(
                    f"It is not your turn: {now} has the spotlight. Only their player or "
                    "the GM can pass it on."
                )
            if order.get("kind") == INITIATIVE and to is not None:
                raise ActionError("The turn goes down the line: only the GM hands it out of line.")
        ctx.request.clear()
        ctx.request.update(order=seen_now(ctx, order), to=to)


class AddToOrder(OrderTransition):
    """The GM adds a participant: at the end (popcorn) or in its place in the line."""

    def prepare(self, ctx: Table) -> None:
        order = running(ctx)
        sheet_id = 0 if ctx.request.get("gm_side") is True else _int(ctx.request.get("sheet"))
        if sheet_id is None or sheet_id < 0:
            raise ActionError("Choose who joins the order.")
        slots = [s for s in order.get("slots") or [] if isinstance(s, Mapping)]
        if any((s.get("sheet") or 0) == sheet_id for s in slots):
            raise ActionError("They are in the order already.")
        slot = max([int(order.get("next_slot", 1)), *[s["slot"] + 1 for s in slots]])
        entry = participant(ctx, sheet_id, slot, str(order.get("by") or ""))
        line = ranked(str(order.get("kind")), [*slots, entry])
        ctx.params["joining"] = [entry]
        ctx.request.clear()
        ctx.request.update(
            order=seen_now(ctx, order),
            joining={k: entry[k] for k in ("slot", "label", "rating")},
            at=[e["slot"] for e in line].index(slot),
        )


class RemoveFromOrder(OrderTransition):
    """The GM takes a participant out (taken out, gone from the scene)."""

    def prepare(self, ctx: Table) -> None:
        order = running(ctx)
        slot = _int(ctx.request.get("slot"))
        if slot is None:
            raise ActionError("Choose who leaves the order.")
        ctx.request.clear()
        ctx.request.update(order=seen_now(ctx, order), slot=slot)


class EndOrder(OrderTransition):
    """The GM ends the order (it also ends with the scene)."""

    def prepare(self, ctx: Table) -> None:
        order = running(ctx)
        ctx.request.clear()
        ctx.request.update(order=seen_now(ctx, order))


TRANSITIONS: dict[str, Transition] = {
    "order_start": StartOrder(),
    "order_pass": PassOrder(),
    "order_add": AddToOrder(),
    "order_remove": RemoveFromOrder(),
    "order_end": EndOrder(),
}
