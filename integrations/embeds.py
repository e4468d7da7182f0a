"""What a queued message posts to Discord: the event's card as an embed, for one audience.

Everything an embed says comes through table.log.visibility: `sealed_view` for a message
queued sealed (a secret or blind event, on the public hook), `event_data` otherwise, for
the audience the message was queued for. A sealed message names nothing but what the
players' sealed card names: that something happened, when, and its commitment.

Kinds listed in PLAIN_KINDS post as a plain message (`content`), not as an embed: a chat
line, when the log has them, is meant to read as one ("Alice: we run"), and test
messages are plain text too.

Every payload goes through `fit`, which keeps it inside Discord's limits (content 2,000
characters; 10 embeds; title 256, description 4,096, 25 fields of 256/1,024, footer
2,048, author 256; 6,000 for all embeds together), and carries
`allowed_mentions: {"parse": []}`, so no name or reason typed at the table can ping
@everyone or anyone else.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.urls import reverse

from rules.kit.cards import CardReading
from table.log import visibility as gate
from table.models import Kind, TableEvent, Visibility
from table.templatetags.table_cards import action_title, card_reading, die_role, facts

# Discord's limits, in characters (counted as UTF-16 units, to be safe with emoji).
CONTENT_MAX = 2000
EMBEDS_MAX = 10
TITLE_MAX = 256
DESCRIPTION_MAX = 4096
FIELDS_MAX = 25
FIELD_NAME_MAX = 256
FIELD_VALUE_MAX = 1024
FOOTER_MAX = 2048
AUTHOR_MAX = 256
EMBED_TOTAL_MAX = 6000

PLAIN_KINDS = frozenset({"chat"})
ELLIPSIS = "…"

COLOURS = {
    Visibility.PUBLIC: 0x3B7A57,
    Visibility.GM: 0x6A1B9A,
    Visibility.BLIND: 0x1F4E79,
    "sealed": 0x5F6368,
    "voided": 0x9E2A2B,
}
VISIBILITY_WORDS = {
    Visibility.PUBLIC: "Public",
    Visibility.GM: "Secret: GMs only",
    Visibility.BLIND: "Blind: GM only",
}
RESENT_NOTE = "sent again after an interruption: it may show twice"


# --------------------------------------------------------------------------- text


_MARKDOWN = re.compile(r"([\\*_~`|<>\[\]()])")
_LINE_START = re.compile(r"^(\s*)([#>+-]|\d+\.)", re.M)


def plain(text: object) -> str:
    """User text (names, reasons, titles) shown literally: Discord's markdown is escaped,
    so a name cannot turn into a link, a spoiler, a heading or a mention."""
    escaped = _MARKDOWN.sub(r"\\\1", str(text))
    return _LINE_START.sub(lambda m: f"{m.group(1)}\\{m.group(2)}", escaped)


def units(text: str) -> int:
    """Length as Discord counts it, at most: UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2


def cut(text: str, limit: int) -> str:
    """The text, or as much of its start as fits in `limit` units with "…" after it; a cut
    never leaves half an escape (a lone backslash) at the end."""
    if units(text) <= limit:
        return text
    if limit <= 0:
        return ""
    kept, used = [], 0
    for char in text:
        size = 2 if ord(char) > 0xFFFF else 1
        if used + size > limit - 1:
            break
        kept.append(char)
        used += size
    out = "".join(kept)
    if (len(out) - len(out.rstrip("\\"))) % 2:
        out = out[:-1]
    return out + ELLIPSIS


# --------------------------------------------------------------------------- fitting


def _embed_size(embed: Mapping[str, Any]) -> int:
    size = units(embed.get("title", "")) + units(embed.get("description", ""))
    size += units((embed.get("footer") or {}).get("text", ""))
    size += units((embed.get("author") or {}).get("name", ""))
    for field in embed.get("fields", []):
        size += units(field.get("name", "")) + units(field.get("value", ""))
    return size


def _fit_embed(embed: dict[str, Any]) -> dict[str, Any]:
    """One embed inside its own limits; empty texts left out (Discord refuses them)."""
    embed = {k: v for k, v in embed.items() if v not in ("", None)}
    if "title" in embed:
        embed["title"] = cut(embed["title"], TITLE_MAX)
    if "description" in embed:
        embed["description"] = cut(embed["description"], DESCRIPTION_MAX)
    if "footer" in embed:
        embed["footer"] = {**embed["footer"], "text": cut(embed["footer"]["text"], FOOTER_MAX)}
    if "author" in embed:
        embed["author"] = {**embed["author"], "name": cut(embed["author"]["name"], AUTHOR_MAX)}
    fields = []
    for field in embed.get("fields", [])[:FIELDS_MAX]:
        fields.append(
            {
                **field,
                "name": cut(field.get("name") or "—", FIELD_NAME_MAX),
                "value": cut(field.get("value") or "—", FIELD_VALUE_MAX),
            }
        )
    if "fields" in embed:
        embed["fields"] = fields
    return embed


def fit(payload: Mapping[str, Any]) -> dict[str, Any]:
    """The payload inside every Discord limit: long texts cut with "…", fields and embeds
    past the counts left out, and the 6,000 characters of all embeds kept by shortening
    the last embed's fields, then its description, then the one before it, and so on (a
    title, footer and author alone stay far under 6,000, so the first embed, the event's
    own card, always stays)."""
    out = dict(payload)
    if "content" in out:
        out["content"] = cut(out["content"], CONTENT_MAX)
    embeds = [_fit_embed(e) for e in out.get("embeds", [])[:EMBEDS_MAX]]
    total = sum(_embed_size(e) for e in embeds)
    for embed in reversed(embeds):
        while total > EMBED_TOTAL_MAX and embed.get("fields"):
            dropped = embed["fields"].pop()
            total -= units(dropped["name"]) + units(dropped["value"])
        if total > EMBED_TOTAL_MAX and embed.get("description"):
            size = units(embed["description"])
            embed["description"] = cut(
                embed["description"], max(0, size - (total - EMBED_TOTAL_MAX))
            )
            total -= size - units(embed["description"])
            if not embed["description"]:
                del embed["description"]
    while total > EMBED_TOTAL_MAX and len(embeds) > 1:
        total -= _embed_size(embeds.pop())
    if "embeds" in out:
        out["embeds"] = embeds
    out["allowed_mentions"] = {"parse": []}
    return out


# --------------------------------------------------------------------------- events


def _dice_lines(dice: Any, card: CardReading) -> str:
    lines = []
    for die in dice if isinstance(dice, list) else []:
        if not isinstance(die, Mapping):
            continue
        face = str(die.get("face", "?"))
        if die.get("plus_face"):
            face += f"+{die['plus_face']}"
        line = f"{plain(die.get('die', ''))}: **{plain(face)}**"
        if die.get("trait"):
            line += f" {plain(die['trait'])}"
        owner = die.get("roller") or die.get("side")
        if owner:
            line += f" ({plain(owner)})"
        role = die_role(die, card)
        if role:
            line += f" — {plain(role)}"
        lines.append(line)
    return "\n".join(lines)


def _body(outcome: Mapping[str, Any], card: CardReading) -> tuple[str, list[dict[str, Any]]]:
    """Description and fields for an outcome: headline, goal, explanation; dice; facts (in
    the words of the game's `card`)."""
    parts = []
    if outcome.get("headline"):
        parts.append(f"**{plain(outcome['headline'])}**")
    if outcome.get("goal"):
        parts.append(f"*For:* {plain(outcome['goal'])}")
    if outcome.get("explanation"):
        parts.append(plain(outcome["explanation"]))
    fields = []
    dice = _dice_lines(outcome.get("dice"), card)
    if dice:
        fields.append({"name": "Dice", "value": cut(dice, FIELD_VALUE_MAX), "inline": False})
    for label, value in facts(outcome, card):
        fields.append({"name": label, "value": plain(value), "inline": True})
    return "\n\n".join(parts), fields


def _footer(seq: int, words: str, resent: bool) -> dict[str, str]:
    text = f"Rollcall #{seq} · {words}"
    if resent:
        text += f" · {RESENT_NOTE}"
    return {"text": text}


def sealed_embed(event: TableEvent, *, resent: bool = False) -> dict[str, Any]:
    """The players' sealed card, from table.log.visibility.sealed_view and nothing else."""
    view = gate.sealed_view(event)
    fields = []
    if view.get("commitment"):
        fields.append(
            {"name": "SHA-256 commitment", "value": f"`{view['commitment']}`", "inline": False}
        )
    return {
        "title": plain(view["headline"]),
        "description": "Sealed until the GM reveals it. When it is revealed, anyone can check "
        "it was fixed before anyone saw it.",
        "fields": fields,
        "color": COLOURS["sealed"],
        "footer": _footer(view["seq"], "sealed", resent),
        "timestamp": view["created_at"],
    }


def _who(character: object, outcome: Mapping[str, Any], actor: object) -> str:
    """Who rolled: the character, else the name the roll gives (UNI: "Zombie"), else the
    user who acted."""
    named = outcome.get("name")
    return str(character or (named if isinstance(named, str) else "") or actor or "The GM")


def _title(event: TableEvent, data: Mapping[str, Any]) -> str:
    if event.kind == Kind.ACTION:
        who = _who(data.get("character"), data["outcome"], data.get("actor"))
        return f"{plain(who)} · {plain(action_title(event))}"
    if event.kind == Kind.REVEAL:
        return f"Revealed: #{data.get('target_seq', '?')}"
    if event.kind == Kind.VOID:
        return f"Voided: #{data.get('target_seq', '?')}"
    return plain(event.get_kind_display())


def event_embeds(event: TableEvent, audience: str, *, resent: bool = False) -> list[dict]:
    """The card as `audience` sees it (table.log.visibility.event_data): the event's embed,
    and for a reveal a second one with the opened roll and its seal."""
    data = gate.event_data(event, audience)
    if data["kind"] == "sealed":
        return [sealed_embed(event, resent=resent)]
    description, fields = _body(data["outcome"], card_reading(event.system))
    words = VISIBILITY_WORDS.get(event.visibility, event.visibility)
    if event.visibility == Visibility.BLIND and event.revealed:
        words += ", now revealed"
    if data.get("voided"):
        words += " · voided"
    if event.kind == Kind.ACTION and data.get("character") and data.get("actor"):
        words += f" · by {data['actor']}"
    secret = data.get("secret_difficulty")
    if audience == gate.GM and isinstance(secret, Mapping):
        fields.append(
            {
                "name": "Behind the screen",
                "value": plain(
                    f"Difficulty set in secret (#{secret.get('seq')}): {secret.get('value')}. "
                    "Players see this roll unscored."
                ),
                "inline": False,
            }
        )
    colour = COLOURS["voided"] if data.get("voided") else COLOURS.get(event.visibility)
    embeds = [
        {
            "title": _title(event, data),
            "description": description,
            "fields": fields,
            "color": colour,
            "footer": _footer(event.seq, plain(words), resent),
            "timestamp": data["created_at"],
        }
    ]
    target = data.get("target")
    if event.kind == Kind.REVEAL and isinstance(target, Mapping):
        target_event = event.target
        system = target_event.system if target_event is not None else event.system
        t_description, t_fields = _body(target.get("outcome") or {}, card_reading(system))
        seal = gate.opened_seal(target_event, audience) if target_event is not None else None
        if seal is not None:
            t_fields.append(
                {
                    "name": "Sealed before it was shown",
                    "value": f"commitment `{seal['commitment']}`\nsalt `{seal['salt']}`",
                    "inline": False,
                }
            )
        actor = target_event.actor_name if target_event is not None else ""
        who = _who(target.get("character"), target.get("outcome") or {}, actor)
        name = action_title(target_event) if target_event is not None else ""
        embeds.append(
            {
                "title": f"{plain(who)} · {plain(name)} (#{target['seq']})",
                "description": t_description,
                "fields": t_fields,
                "color": COLOURS[Visibility.PUBLIC],
            }
        )
    return embeds


GM_MARK = "**[GM]** "


def plain_content(event: TableEvent, audience: str) -> str:
    """A plain message for kinds in PLAIN_KINDS: "<who>: <text>", or the sealed headline.
    A GM's line starts with GM_MARK, from the speaker's role: it stands outside the name,
    which is escaped, so no display name can draw it."""
    data = gate.event_data(event, audience)
    if data["kind"] == "sealed":
        return plain(data["headline"])
    outcome = data["outcome"]
    text = outcome.get("text") or outcome.get("headline") or ""
    who = data.get("character") or data.get("actor") or ""
    mark = GM_MARK if outcome.get("role") == "gm" else ""
    return f"{mark}**{plain(who)}:** {plain(text)}" if who else mark + plain(text)


def _linked(embeds: list[dict], event: TableEvent) -> list[dict]:
    """With PUBLIC_URL set, the first embed's title links to the campaign's table: the
    worker has no request to take an address from, and no other address is sure to open
    from Discord."""
    if settings.PUBLIC_URL and embeds:
        embeds[0]["url"] = settings.PUBLIC_URL + reverse("table", args=[event.campaign_id])
    return embeds


def event_payload(event: TableEvent, audience: str, *, sealed: bool, resent: bool = False) -> dict:
    """The JSON body for one queued event. `sealed` was decided when it was queued: such a
    message posts the sealed card even if the event has been revealed since."""
    if sealed or not gate.sees(event, audience):
        if event.kind in PLAIN_KINDS:
            return fit({"content": plain(gate.sealed_headline(event))})
        return fit({"embeds": _linked([sealed_embed(event, resent=resent)], event)})
    if event.kind in PLAIN_KINDS:
        content = plain_content(event, audience)
        if resent:
            content += f"\n-# {RESENT_NOTE}"
        return fit({"content": content})
    return fit({"embeds": _linked(event_embeds(event, audience, resent=resent), event)})


def text_payload(text: str, *, resent: bool = False) -> dict:
    return fit({"content": text + (f"\n-# {RESENT_NOTE}" if resent else "")})
