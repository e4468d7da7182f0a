"""Small filters for the roll card (table/jinja2/table/event.html): words, not colours, for
what each die did. The words are the game's (its UI's `card`, rules.kit.cards): the card
asks for them once (`card_reading`) and hands them to the filters that read its dice
and facts."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import NamedTuple

from django import template

from rules.kit.cards import DEFAULT_CARD, CardReading
from rules.kit.errors import RulesError
from rules.registry import get_system
from table.acting.state import TABLE_ACTIONS

register = template.Library()


@register.filter
def action_title(event) -> str:
    """The action's title: the system's rules action, or one of the table's own."""
    try:
        return get_system(event.system).actions[event.action].title
    except (RulesError, KeyError):
        if event.action in TABLE_ACTIONS:
            return TABLE_ACTIONS[event.action].title
        return str(event.action or event.get_kind_display()).replace("_", " ").capitalize()


def card_reading(slug: str) -> CardReading:
    """The game's words on its roll cards (its UI's `card`, built once with the game); a
    game the registry does not know gets the defaults. A card asks once, not per die."""
    try:
        return get_system(slug).ui.card
    except RulesError:
        return DEFAULT_CARD


@register.filter
def die_role(die: Mapping, card: CardReading = DEFAULT_CARD) -> str:
    """What a die did, in the game's words: "counted", "Total slot, hitch"..."""
    return die_marks(die, card).role


DIE_SHAPES = frozenset({4, 6, 8, 10, 12, 20})
SHOWN_FACTS = 2


@register.filter
def die_shape(die: Mapping) -> str:
    """The class that draws a die by its size ("d12"; "d10+d4" is drawn as its d10);
    a size without a shape of its own is drawn round ("dx")."""
    if not isinstance(die, Mapping):
        return "dx"
    size = re.match(r"d(\d+)", str(die.get("die") or ""))
    return f"d{size[1]}" if size and int(size[1]) in DIE_SHAPES else "dx"


class DieMarks(NamedTuple):
    classes: str  # shape, then counted and the classes the game's marks and role add
    role: str  # what it did, in words
    role_spoken_only: bool  # the fill says it; the words are for screen readers
    owner: str


@register.filter
def die_marks(die: Mapping, card: CardReading = DEFAULT_CARD) -> DieMarks:
    """All the card needs to draw one die, in one call, in the game's words (its role's,
    then its marks'): the card is rendered on the table's hot path, and each filter call
    in a loop over the dice costs."""
    if not isinstance(die, Mapping):
        return DieMarks("dx", "", False, "")
    key = str(die.get("role") or "")
    role = card.roles.get(key) if key else None
    classes = [die_shape(die)]
    if role is None:
        words, plain = key.replace("_", " "), False
    else:
        words, plain = role.words, role.plain
        if role.counted:
            classes.append("counted")
    extra = []
    for mark in card.marks:
        if any(die.get(flag) for flag in mark.flags):
            words = f"{words}, {mark.words}" if words else mark.words
            plain = False
            if mark.css and mark.css not in extra:
                extra.append(mark.css)
    if role is not None and role.css and role.css not in extra:
        extra.append(role.css)
    return DieMarks(" ".join(classes + extra), words, plain, die_owner(die))


@register.filter
def die_counted(die: Mapping, card: CardReading = DEFAULT_CARD) -> bool:
    role = card.roles.get(str(die.get("role") or "")) if isinstance(die, Mapping) else None
    return role is not None and role.counted


@register.filter
def die_owner(die: Mapping) -> str:
    if not isinstance(die, Mapping):
        return ""
    return str(die.get("roller") or die.get("side") or "")


@register.filter
def facts(outcome: Mapping, card: CardReading = DEFAULT_CARD) -> list[tuple[str, str]]:
    """The outcome's facts the game's card names, labelled, in the game's order."""
    if not isinstance(outcome, Mapping):
        return []
    out = []
    for fact in card.facts:
        value = outcome.get(fact.key)
        if fact.read is not None:
            value = fact.read(value, outcome)
        elif value == "" or isinstance(value, Mapping | list | bool):
            continue
        if value is not None:
            out.append((fact.label, str(value)))
    return out


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", text.lower()))


@register.filter
def split_facts(
    outcome: Mapping, card: CardReading = DEFAULT_CARD
) -> dict[str, list[tuple[str, str]]]:
    """The outcome's facts in two parts: `shown`, at most two news the headline does not
    already say (every word of the value, or of the label for a bare "yes", is in it; a
    0 is no news), which the card keeps in sight; and `rest`, behind "How it was read"."""
    said = _words(str(outcome.get("headline") or "")) if isinstance(outcome, Mapping) else set()
    shown, rest = [], []
    for label, value in facts(outcome, card):
        words = _words(label if value == "yes" else value)
        if len(shown) < SHOWN_FACTS and value != "0" and words and not words <= said:
            shown.append((label, value))
        else:
            rest.append((label, value))
    return {"shown": shown, "rest": rest}


@register.filter
def dice_marked(outcome: Mapping, mark: str) -> list[tuple[int, Mapping]]:
    """(index, die) of the roll's dice that carry `mark` (a die mark the game's card
    declares), for a game's card control that acts on one of them."""
    if not isinstance(outcome, Mapping):
        return []
    dice = outcome.get("dice") or []
    return [(i, d) for i, d in enumerate(dice) if isinstance(d, Mapping) and d.get(mark)]
