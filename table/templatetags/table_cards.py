"""Small filters for the roll card (table/jinja2/table/event.html): words, not colours, for what each die did."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import NamedTuple

from django import template

from rules.kit.errors import RulesError
from rules.registry import get_system
from table.state import TABLE_ACTIONS

register = template.Library()

ROLE_WORDS = {
    "result": "counted",
    "effect": "effect die",
    "complication": "1: complication",
    "unused": "not counted",
    "total": "Total slot",
    "bank": "Bank",
    "compared": "compared",
    "roll": "rolled",
    "side": "side pool, counted",
}
FACTS = (
    ("result", "Result"),
    ("total", "Total"),
    ("difficulty", "Against"),
    ("effect", "Effect"),
    ("effect_level", "Effect level"),
    ("damage", "Damage"),
    ("margin", "Margin"),
    ("level_name", "Success"),
    ("hitches", "Hitches"),
    ("plot_points_spent", "Plot points spent"),
    ("criticals", "Criticals"),
)


@register.filter
def action_title(event) -> str:
    """The action's title: the system's rules action, or one of the table's own."""
    try:
        return get_system(event.system).actions[event.action].title
    except (RulesError, KeyError):
        if event.action in TABLE_ACTIONS:
            return TABLE_ACTIONS[event.action].title
        return str(event.action or event.get_kind_display()).replace("_", " ").capitalize()


@register.filter
def die_role(die: Mapping) -> str:
    """What a die did, in words: "counted", "Total slot, hitch", "natural 10"..."""
    if not isinstance(die, Mapping):
        return ""
    role = str(die.get("role") or "")
    words = [ROLE_WORDS.get(role, role.replace("_", " "))] if role else []
    if die.get("hitch"):
        words.append("hitch")
    if die.get("nat_ten"):
        words.append("natural 10")
    if die.get("big_hero"):
        words.append("Big Hero Die")
    if die.get("bought") or die.get("from_bank"):
        words.append("bought")
    return ", ".join(w for w in words if w)


# Roles the die's fill already shows (filled: counted; outlined: not): spoken, not printed.
PLAIN_ROLES = frozenset({"counted", "not counted", "rolled", "compared"})
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
    classes: str  # shape, then counted / is-one / is-effect
    role: str  # what it did, in words
    role_spoken_only: bool  # the fill says it; the words are for screen readers
    owner: str


@register.filter
def die_marks(die: Mapping) -> DieMarks:
    """All the card needs to draw one die, in one call: the card is rendered on the
    table's hot path, and each filter call in a loop over the dice costs."""
    classes = [die_shape(die)]
    if die_counted(die):
        classes.append("counted")
    if isinstance(die, Mapping):
        if die.get("hitch") or die.get("role") == "complication":
            classes.append("is-one")
        if die.get("role") == "effect":
            classes.append("is-effect")
    role = die_role(die)
    return DieMarks(" ".join(classes), role, role in PLAIN_ROLES, die_owner(die))


@register.filter
def die_counted(die: Mapping) -> bool:
    if not isinstance(die, Mapping):
        return False
    return str(die.get("role")) in ("result", "effect", "total", "compared", "side", "roll")


@register.filter
def die_owner(die: Mapping) -> str:
    if not isinstance(die, Mapping):
        return ""
    return str(die.get("roller") or die.get("side") or "")


@register.filter
def facts(outcome: Mapping) -> list[tuple[str, str]]:
    """The outcome's key numbers, labelled, in a fixed order."""
    if not isinstance(outcome, Mapping):
        return []
    out = []
    for key, label in FACTS:
        value = outcome.get(key)
        if value is None or value == "" or isinstance(value, Mapping | list):
            if key == "criticals" and isinstance(value, Mapping) and value.get("banked"):
                out.append((label, f"{value['banked']} banked"))
            continue
        if isinstance(value, bool):
            continue
        if key == "level_name" and outcome.get("levels") is not None:
            value = f"{value} ({outcome['levels']} level{'s' if outcome['levels'] != 1 else ''})"
        out.append((label, str(value)))
    if outcome.get("complications") and isinstance(outcome["complications"], list):
        out.append(("Complications", str(len(outcome["complications"]))))
    success = outcome.get("success")
    if isinstance(success, bool):
        out.append(("Outcome", "success" if success else "failure"))
    elif isinstance(success, str):
        out.append(("Outcome", success.replace("_", " ")))
    if outcome.get("botch") is True:
        out.append(("Botch", "yes"))
    if outcome.get("fails_outright") is True:
        out.append(("Fails outright", "all main dice showed 1"))
    return out


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", text.lower()))


@register.filter
def split_facts(outcome: Mapping) -> dict[str, list[tuple[str, str]]]:
    """The outcome's facts in two parts: `shown`, at most two news the headline does not
    already say (every word of the value, or of the label for a bare "yes", is in it; a
    0 is no news), which the card keeps in sight; and `rest`, behind "How it was read"."""
    said = _words(str(outcome.get("headline") or "")) if isinstance(outcome, Mapping) else set()
    shown, rest = [], []
    for label, value in facts(outcome):
        words = _words(label if value == "yes" else value)
        if len(shown) < SHOWN_FACTS and value != "0" and words and not words <= said:
            shown.append((label, value))
        else:
            rest.append((label, value))
    return {"shown": shown, "rest": rest}


@register.filter
def hitch_choices(outcome: Mapping) -> list[tuple[int, Mapping]]:
    """CTX-4: (index, die) of the hitches in a roll the GM may buy."""
    if not isinstance(outcome, Mapping) or outcome.get("hitch_buyer") != "gm":
        return []
    dice = outcome.get("dice") or []
    return [(i, d) for i, d in enumerate(dice) if isinstance(d, Mapping) and d.get("hitch")]
