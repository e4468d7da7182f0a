"""HTML for events: rendered once per audience, never once per socket.

`render_event_html(event, audience)` renders the roll card template
"table/event.html" (Jinja2, table/reading/jinja.py) for one audience ("gm" or "players"), of the
event as table.log.visibility.projected gives it to that audience. `card_html` wraps it
in the log's <li id="event-<seq>" data-seq data-event-id>. `event_message` is
what the socket sends: an htmx out-of-band fragment that puts the card first in
`#log` (newest first) and, for reveals and voids, replaces the earlier card
where the audience has it. Notices (errors, acknowledgements, "reload") replace
`#table-notice`.

Chat lines (Kind.CHAT) render "table/chat.html" instead (context: event, text, mode,
to). A whisper renders whole for the GMs, its author and its recipient (`viewer`, a
user id: table.log.visibility.sees) and as a sealed line, without its text, for every other member;
asked for a reader that knows no member (viewer None, players), rendering refuses.
`stream_message` is what a whole audience's sockets are sent (table.live.broadcast): for the
players, a whisper's sealed line with its author's card beside it.

Context of "table/event.html": event (TableEvent), audience, is_gm, outcome,
dice (outcome["dice"] or []), body (what table/card_body.html makes of outcome and dice,
rendered once for every audience shown the same outcome), target (the revealed or voided event, when this
audience may see it) and target_outcome.
"""

from __future__ import annotations

import sys
from collections import OrderedDict
from threading import Lock

from django.conf import settings
from django.template import engines
from django.utils.html import escape
from markupsafe import Markup

from table.log import visibility
from table.log.undo import changed_nothing
from table.log.visibility import GM, PLAYERS, sees
from table.models import Kind, TableEvent
from table.templatetags.table_cards import card_reading

EVENT_TEMPLATE = "table/event.html"
CHAT_TEMPLATE = "table/chat.html"
BODY_TEMPLATE = "table/card_body.html"
GM_TOOLS_TEMPLATE = "table/gm_tools.html"

_cache: OrderedDict[tuple, str] = OrderedDict()
_cache_lock = Lock()
_cache_bytes = 0


def audiences_for(event: TableEvent) -> tuple[str, ...]:
    """Who receives the event: everyone; a hidden one reaches players sealed."""
    return visibility.AUDIENCES


def _target(event: TableEvent, audience: str) -> TableEvent | None:
    if event.kind not in (Kind.REVEAL, Kind.VOID) or event.target_id is None:
        return None
    target = event.target
    if target is None or not sees(target, audience):
        return None
    return visibility.projected(target, audience)


def render_event_html(event: TableEvent, audience: str, viewer: int | None = None) -> str:
    """The roll card for one audience; a hidden event renders sealed for players, and
    nothing of it but what table.log.visibility.sealed_view gives reaches the template."""
    if event.kind == Kind.CHAT:
        return _chat_html(event, audience, viewer)
    template = engines["jinja2"].get_template(EVENT_TEMPLATE)
    if not sees(event, audience):
        sealed = visibility.sealed_view(event)
        return template.render({"sealed": sealed, "sealed_at": event.created_at, "event": None})
    if _alike(event):
        return _alike_card(event, audience, template)
    return template.render(_context(event, audience))


def _context(event: TableEvent, audience: str) -> dict:
    """What "table/event.html" is given for an audience that sees the event."""
    shown = visibility.projected(event, audience)
    target = _target(shown, audience)
    return {
        "sealed": None,
        "event": shown,
        "audience": audience,
        "is_gm": audience == GM,
        "outcome": shown.outcome,
        "dice": shown.outcome.get("dice") or [],
        "body": _card_body(event, shown.outcome),
        "target": target,
        "target_outcome": target.outcome if target is not None else {},
        "seal": visibility.opened_seal(event, audience),
        "secret_difficulty": _secret_difficulty(event) if audience == GM else None,
    }


def _alike(event: TableEvent) -> bool:
    """GMs and players read this card alike but for the GM's tools: players see it whole
    (so its seal, if any, is open to both), the gate veils nothing of it for them, it
    names no earlier event and hides no difficulty from them. Most rolls are such."""
    return (
        event.target_id is None
        and sees(event, PLAYERS)
        and visibility.projected(event, PLAYERS) is event
        and _secret_difficulty(event) is None
    )


CARD_END = "\n</article>\n"


def _alike_card(event: TableEvent, audience: str, template) -> str:
    """A card GMs and players read alike, rendered once for both: the GMs' is the
    players' with the GM's tools (gm_tools.html, as event.html includes it) added where
    event.html puts them."""
    flags = (event.kind, event.visibility, event.revealed, event.voided)
    done = event.__dict__.get("_players_card")
    if done is None or done[0] != flags:
        done = (flags, template.render(_context(event, PLAYERS)))
        event.__dict__["_players_card"] = done
    players = done[1]
    if audience != GM or event.kind != Kind.ACTION or event.voided:
        return players
    if not players.endswith("  " + CARD_END):  # not the card's layout: render it whole
        return template.render(_context(event, audience))
    tools = engines["jinja2"].get_template(GM_TOOLS_TEMPLATE).render(_context(event, GM))
    return players[: -len(CARD_END)] + tools + "\n  " + CARD_END


def _card_body(event: TableEvent, outcome: dict) -> Markup:
    """The card's account of `outcome` (card_body.html), rendered once per event for
    every audience the gate shows the same outcome: `projected` hands back the event's
    own outcome when it veils nothing, and a veiled copy otherwise, which renders anew.
    Events are never changed once written, so neither is what was rendered of them."""
    done = event.__dict__.get("_card_body")
    if done is not None and done[0] is outcome:
        return done[1]
    module = engines["jinja2"].env.get_template(BODY_TEMPLATE).module
    html = module.card_body(outcome, outcome.get("dice") or [], event.system)
    event.__dict__["_card_body"] = (outcome, html)
    return html


def _chat_html(event: TableEvent, audience: str, viewer: int | None) -> str:
    """A chat line's card (it has no GM controls): a whisper not the reader's is its
    sealed line, and nothing of its text reaches the template."""
    if not visibility.reaches(event, audience, viewer):
        raise ValueError("a whisper renders for members only")
    template = engines["jinja2"].get_template(CHAT_TEMPLATE)
    if not sees(event, audience, viewer):
        sealed = visibility.sealed_view(event)
        return template.render({"sealed": sealed, "sealed_at": event.created_at, "event": None})
    event = visibility.projected(event, audience)
    return template.render(
        {
            "sealed": None,
            "event": event,
            "mode": event.request.get("mode"),
            "text": event.request.get("text"),
            "to": event.whisper_to.get("name"),
        }
    )


def _secret_difficulty(event: TableEvent) -> dict | None:
    """For the GM's eyes: a player's roll against a difficulty set behind the screen,
    scored on the GM's card only (players' cards show it unscored), in the game's words
    (its card's `secret_score`: the difficulty, then how the roll went)."""
    secret = event.params.get("secret_difficulty")
    if not isinstance(secret, dict) or not isinstance(event.outcome.get("total"), int):
        return None
    return {**secret, "score": card_reading(event.system).secret_score(event.outcome, secret)}


def _cached(key: tuple, make) -> str:
    with _cache_lock:
        html = _cache.get(key)
        if html is not None:
            _cache.move_to_end(key)
            return html
    global _cache_bytes
    html = make()
    with _cache_lock:
        if key not in _cache:
            _cache[key] = html
            _cache_bytes += sys.getsizeof(html)
        while _cache_bytes > settings.TABLE_CARD_CACHE_BYTES and _cache:
            _cache_bytes -= sys.getsizeof(_cache.popitem(last=False)[1])
    return html


def clear_cache() -> None:
    """Forget every rendered card (tests: a rolled-back database reuses event pks)."""
    global _cache_bytes
    with _cache_lock:
        _cache.clear()
        _cache_bytes = 0


def card_html(
    event: TableEvent, audience: str, *, oob: bool = False, viewer: int | None = None
) -> str:
    """The card as the log holds it: <li id="event-<seq>" data-seq data-event-id> around
    the template. The page renders its log with this too, so sockets can replace cards.
    Cached: broadcasts and replays render each card once per audience. The key holds the
    event's hash, which names its content: a row id used again (SQLite hands out the id
    of a rolled-back insert again) never brings back another event's card."""
    if not visibility.reaches(event, audience, viewer):
        raise ValueError("a whisper renders for members only")
    target = event.target if event.target_id is not None else None
    key = (
        event.pk,
        event.hash,
        audience,
        sees(event, audience, viewer),
        event.revealed,
        event.voided,
        target.revealed if target else None,
        target.voided if target else None,
        visibility.projection_key(event, audience),
        visibility.projection_key(target, audience) if target else None,
    )
    inner = _cached(key, lambda: render_event_html(event, audience, viewer))
    classes = "log-entry" + (" voided" if event.voided else "")
    if event.kind == Kind.CHAT:
        classes += " chat-entry"
    swap = ' hx-swap-oob="true"' if oob else ""
    return (
        f'<li id="event-{event.seq}"{swap} class="{classes}" data-seq="{event.seq}" '
        f'data-event-id="{event.pk}">{inner}</li>'
    )


def changes_nothing(event: TableEvent) -> bool:
    """See below; a chat line changes nothing either."""
    return event.kind == Kind.CHAT or _action_changes_nothing(event)


def _action_changes_nothing(event: TableEvent) -> bool:
    """An action that changed no state: no counter, die, flag, scene or session state
    (its void plan, table.log.undo.record, is empty). The page then re-reads neither the
    scene panel nor its pool builders for it (static/js/table.js): most rolls are such,
    and each of those re-reads costs every connected member an HTTP request."""
    return event.kind == Kind.ACTION and changed_nothing(event.undo)


def event_message(event: TableEvent, audience: str, viewer: int | None = None) -> str:
    """What the socket sends for a new event: its card goes first in #log (newest
    first); a reveal or void also replaces the earlier card where this audience
    already shows it."""
    quiet = " data-quiet" if changes_nothing(event) else ""
    parts = [
        f'<template hx-swap-oob="afterbegin:#log" data-seq="{event.seq}"{quiet}>'
        f"{card_html(event, audience, viewer=viewer)}</template>"
    ]
    target = _target(event, audience)
    if target is not None:
        parts.append(card_html(target, audience, oob=True))
        if event.kind == Kind.REVEAL and audience != GM:
            # What rested on the revealed event (a roll against its number) opens with it.
            for later in visibility.resting_on(target):
                if sees(later, audience):
                    parts.append(card_html(later, audience, oob=True))
    return "".join(parts)


def stream_message(event: TableEvent, audience: str) -> dict:
    """What every socket of an audience is sent for an event (a broadcast, or the hub's
    catch-up): its message; for the players, a whisper's sealed line, with its whole
    card beside it for its readers' own sockets (its author's and its recipient's:
    consumers.push picks it by "readers")."""
    message = {"seq": event.seq, "html": event_message(event, audience, visibility.ANY_MEMBER)}
    if not sees(event, audience, visibility.ANY_MEMBER) and visibility.is_whisper(event):
        readers = visibility.whisper_readers(event)
        message["readers"] = list(readers)
        message["author"] = event.actor_id
        message["author_html"] = event_message(event, audience, readers[0])
    return message


def notice_html(kind: str, text: str, *, code: str = "", reload: bool = False) -> str:
    """A message for one socket: kind "error" or "ok"; reload asks the page to reload."""
    attrs = f'data-kind="{escape(kind)}"'
    if code:
        attrs += f' data-code="{escape(code)}"'
    if reload:
        attrs += ' data-reload="true"'
    role = "alert" if kind == "error" else "status"
    return f'<div id="table-notice" hx-swap-oob="true" role="{role}" {attrs}>{escape(text)}</div>'
