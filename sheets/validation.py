"""Every rule a sheet's data must follow, in one place.

The forms, the htmx field saves and the JSON importer all call these cleaners,
so a value the form refuses is refused by the importer with the same message.
A cleaner takes raw input (a form string or a JSON value) and returns the value
to store, or raises FieldError with a sentence for the person editing.

The shape of each sheet (groups, dice or ratings, bounds, fixed names, flags,
which group a trait is filed under) comes from the system's SheetTemplate in
rules.registry; nothing here hard-codes a system's groups.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass

from accounts.text import shown_text
from rules.kit.dice import parse_die_spec
from rules.kit.dice import step_down as dice_step_down
from rules.kit.dice import step_up as dice_step_up
from rules.kit.errors import RulesError
from rules.kit.sheet import SheetTemplate, TraitGroup
from rules.kit.ui import SheetScores
from rules.registry import SYSTEMS, get_system

MAX_NAME = 80
MAX_TRAIT_NOTES = 500
MAX_SHEET_NOTES = 4000
SCORE_MIN, SCORE_MAX = 1, 100
DIE_KINDS = ("die", "die_or_compound")
PLAIN_SIZES = (4, 6, 8, 10, 12)

KIND_PC, KIND_NPC = "pc", "npc"
NPC_KIND_LABELS = {
    "boss": "Boss",
    "plot": "Plot character",
    "mob": "Mob",
    "guest_star": "Guest Star",
    "adversary": "Adversary",
}

FLAG_LABELS = {
    "heritage": "Heritage",
    "signature": "Signature",
    "combat": "Combat skill",
    "mental": "Mental skill",
}
# Every computed score's key any game declares (rules.kit.ui.SheetScores), in order.
SCORE_KEYS = tuple(
    dict.fromkeys(key for game in SYSTEMS.values() if game.scores for key in game.scores.keys)
)


class FieldError(ValueError):
    """One refused value; the message is shown beside the field."""


@dataclass(frozen=True)
class Problem:
    """A refused value in an import, with where it is: `traits.skills[2].die`."""

    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message


class SheetProblems(ValueError):
    """Every problem found in one document, reported together."""

    def __init__(self, problems: list[Problem]):
        super().__init__("; ".join(str(p) for p in problems))
        self.problems = problems


# --------------------------------------------------------------------------- templates


def template_for(system: str) -> SheetTemplate:
    return get_system(system).sheet_template


def flags_for(system: str, group: TraitGroup) -> tuple[str, ...]:
    return tuple(group.flags)


def default_flags(system: str, group: TraitGroup, name: str) -> dict[str, bool]:
    """The flags a trait added by this name starts with (the group's default_flags)."""
    flag = group.default_flag(name)
    return {flag: True} if flag in flags_for(system, group) else {}


def singular(label: str) -> str:
    """Stylin's -> Stylin', Abilities -> Ability, Skills -> Skill, Stress -> Stress."""
    if label.endswith("ies"):
        return label[:-3] + "y"
    if label.endswith("'s"):
        return label[:-1]
    if label.endswith("s") and not label.endswith("ss"):
        return label[:-1]
    return label


def at_the_table(label: str) -> str:
    """Why a player cannot change a table-owned field: "Plot points change at the table:
    ask the GM.", "Stress changes at the table: ask the GM."."""
    verb = "change" if singular(label) != label else "changes"
    return f"{label} {verb} at the table: ask the GM."


def with_article(word: str) -> str:
    """ "an Aspect", "a Stylin'"."""
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def reference_of(group: TraitGroup) -> tuple[str, str] | None:
    """("parent", group key) for Refinements, ("link", group key) for Limits and Personae skills."""
    if group.parent:
        return "parent", group.parent
    if group.link_group:
        return "link", group.link_group
    return None


def dependents_of(template: SheetTemplate, group_key: str) -> list[TraitGroup]:
    """Groups whose traits are filed under or linked to a trait of `group_key`."""
    return [g for g in template.groups if group_key in (g.parent, g.link_group)]


def sheet_scores(system: str, kind: str, npc_kind: str) -> SheetScores | None:
    """The scores this sheet shows, computed by its game (UNI-8: Guest Stars and
    Adversaries show Ability Scores), or None."""
    scores = get_system(system).scores
    if kind == KIND_NPC and scores is not None and npc_kind in scores.npc_kinds:
        return scores
    return None


def has_scores(system: str, kind: str, npc_kind: str) -> bool:
    return sheet_scores(system, kind, npc_kind) is not None


# --------------------------------------------------------------------------- single values


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    if not re.match(r"d\d", text):
        text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?", ")")) else text + "."


def clean_name(value: object, *, what: str = "name") -> str:
    """1–80 characters of text; runs of whitespace become one space; control characters
    refused, and the other hidden ones (direction overrides, zero-width spaces: see
    accounts.text.shown_text) taken out."""
    if not isinstance(value, str):
        raise FieldError(f"The {what} must be text.")
    name = " ".join(value.split())
    if any(unicodedata.category(ch) in ("Cc", "Cs") for ch in name):
        raise FieldError(f"The {what} contains characters that cannot be shown.")
    name = " ".join(shown_text(name).split())
    if not name:
        raise FieldError(f"Give it a {what} (1 to {MAX_NAME} characters).")
    if len(name) > MAX_NAME:
        raise FieldError(f"A {what} is at most {MAX_NAME} characters (this one has {len(name)}).")
    return name


def clean_notes(value: object, limit: int = MAX_TRAIT_NOTES) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise FieldError("Notes must be text.")
    if "\x00" in value or any(unicodedata.category(ch) == "Cs" for ch in value):
        raise FieldError("The notes contain characters that cannot be shown.")
    text = shown_text(value.replace("\r\n", "\n")).strip()
    if len(text) > limit:
        raise FieldError(f"Notes are at most {limit} characters (these have {len(text)}).")
    return text


def parse_whole_number(value: object, lo: int, hi: int) -> int:
    if isinstance(value, bool):
        raise FieldError(f"Enter a whole number from {lo} to {hi}.")
    if isinstance(value, int):
        number = value
    elif isinstance(value, str):
        text = value.strip().replace("\u2212", "-")
        if not re.fullmatch(r"[+-]?\d{1,7}", text):
            raise FieldError(f"Enter a whole number from {lo} to {hi}.")
        number = int(text)
    else:
        raise FieldError(f"Enter a whole number from {lo} to {hi}.")
    if not lo <= number <= hi:
        raise FieldError(f"Must be between {lo} and {hi} (not {number}).")
    return number


def clean_die(group: TraitGroup, value: object) -> tuple[int | None, int | None]:
    """A die size, or "d12+dN" where the group allows it (CTX-8); empty only in fixed groups."""
    if group.kind not in DIE_KINDS:
        raise FieldError(f"{group.label} have no dice.")
    if value is None or (isinstance(value, str) and not value.strip()):
        if group.fixed_names:
            return None, None
        raise FieldError("Choose a die: d4, d6, d8, d10 or d12.")
    try:
        return parse_die_spec(value, allow_compound=group.kind == "die_or_compound")
    except RulesError as error:
        raise FieldError(_sentence(str(error))) from None


def clean_rating(group: TraitGroup, value: object) -> int:
    if group.kind != "rating":
        raise FieldError(f"{group.label} have no rating.")
    return parse_whole_number(value, group.min_rating, group.max_rating)


def clean_flag(value: object) -> bool:
    """A checkbox ("on" or absent) or a JSON boolean."""
    if isinstance(value, bool):
        return value
    if value is None or value == "":
        return False
    if isinstance(value, str) and value.lower() in ("on", "true", "1", "yes"):
        return True
    if isinstance(value, str) and value.lower() in ("off", "false", "0", "no"):
        return False
    raise FieldError("A flag is either on or off.")


def clean_reference(
    group: TraitGroup, template: SheetTemplate, value: object, choices: Mapping
) -> object:
    """The key (id or name) of the trait this one is filed under or linked to."""
    relation = reference_of(group)
    if relation is None:
        raise FieldError(f"{group.label} are not filed under anything.")
    target = template.group(relation[1])
    what = singular(target.label)
    if not choices:
        raise FieldError(
            f"Add {with_article(what)} first: every {singular(group.label)} belongs to one."
        )
    if value is None or (isinstance(value, str) and not value.strip()):
        raise FieldError(f"Choose the {what} this {singular(group.label)} belongs to.")
    if not isinstance(value, (str, int)) or isinstance(value, bool):
        raise FieldError(f"Choose one of this sheet's {target.label}.")
    key = " ".join(value.split()) if isinstance(value, str) else value
    if isinstance(key, str) and key.casefold() in choices:
        return key.casefold()
    if key in choices:
        return key
    raise FieldError(f"Choose one of this sheet's {target.label}.")


def check_unique(group: TraitGroup, name: str, taken: set[str]) -> None:
    if name.casefold() in taken:
        raise FieldError(
            f"There is already {with_article(singular(group.label))} called “{name}” on this sheet."
        )


def check_renamable(group: TraitGroup, old: str, new: str) -> None:
    if group.fixed_names and old != new:
        raise FieldError(f"“{old}” is part of every sheet of this game and cannot be renamed.")


def clean_counter(
    template: SheetTemplate, system: str, key: str, value: object, values: Mapping[str, int]
) -> int:
    """A counter within its bounds, and within any cap another counter sets."""
    try:
        counter = template.counter(key)
    except KeyError:
        raise FieldError(f"This sheet has no counter called {key[:40]!r}.") from None
    number = parse_whole_number(value, counter.minimum, counter.maximum)
    cap_key = counter.capped_by
    if cap_key is not None and cap_key in values and number > values[cap_key]:
        cap = template.counter(cap_key)
        raise FieldError(f"{counter.label} can be at most the {cap.label} ({values[cap_key]}).")
    for held in template.counters:
        if held.capped_by == key and held.key in values and values[held.key] > number:
            raise FieldError(
                f"{held.label} are {values[held.key]}; the {counter.label} cannot go below that."
            )
    return number


def clean_npc_kind(template: SheetTemplate, kind: str, value: object) -> str:
    if kind not in (KIND_PC, KIND_NPC):
        raise FieldError("A sheet is a player character or a GM character.")
    text = value.strip() if isinstance(value, str) else value
    if kind == KIND_PC or not template.npc_kinds:
        if text in (None, ""):
            return ""
        raise FieldError("Only GM characters of this game have a kind.")
    if text not in template.npc_kinds:
        names = ", ".join(NPC_KIND_LABELS.get(k, k) for k in template.npc_kinds)
        raise FieldError(f"Choose what kind of GM character this is: {names}.")
    return text


def _no_scores(system: str) -> str:
    scores = get_system(system).scores
    if scores is None:
        return "Sheets of this game have no scores to override."
    return f"Only {scores.holders} have {scores.title} to override."


def clean_score_override(value: object) -> int | None:
    """A score typed by the GM instead of the computed one (UNI-8); blank clears it."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    return parse_whole_number(value, SCORE_MIN, SCORE_MAX)


def clean_overrides(system: str, kind: str, npc_kind: str, value: object) -> dict[str, int]:
    if value in (None, {}):
        return {}
    scores = sheet_scores(system, kind, npc_kind)
    if scores is None:
        raise FieldError(_no_scores(system))
    if not isinstance(value, Mapping):
        raise FieldError('Overrides are an object like {"combat": 14}.')
    cleaned = {}
    for key, raw in value.items():
        if key not in scores.keys:
            raise FieldError(
                f"{str(key)[:40]!r} is not {with_article(singular(scores.title))} "
                f"({', '.join(scores.keys)})."
            )
        score = clean_score_override(raw)
        if score is not None:
            cleaned[key] = score
    return cleaned


# --------------------------------------------------------------------------- dice steps


@dataclass(frozen=True)
class Step:
    die: int | None
    plus_die: int | None
    removed: bool = False


def step(group: TraitGroup, die: int | None, plus_die: int | None, direction: str) -> Step:
    """Step a trait's die one size (rules.md common ground, CTX-8 for d12+dN).

    Up: d4→…→d12; a d12 is refused, except in a d12+dN group where it gains a d4
    plus die and the plus die steps up to d12. Down: a plus die steps down and
    goes away below d4; a d4 stepped down is removed (a fixed trait such as a
    stress type keeps its row and just loses the die).
    """
    if group.kind not in DIE_KINDS:
        raise FieldError(f"{group.label} have no dice to step.")
    if direction == "up":
        if die is None:
            return Step(4, None)
        if plus_die is not None:
            if plus_die == 12:
                raise FieldError("d12+d12 is as high as a die goes.")
            return Step(12, dice_step_up(plus_die))
        if die == 12:
            if group.kind == "die_or_compound":
                return Step(12, 4)
            raise FieldError("A d12 cannot step up.")
        return Step(dice_step_up(die), None)
    if direction == "down":
        if die is None:
            raise FieldError("There is no die to step down.")
        if plus_die is not None:
            return Step(12, dice_step_down(plus_die))
        smaller = dice_step_down(die)
        if smaller is None:
            return Step(None, None, removed=not group.fixed_names)
        return Step(smaller, None)
    raise FieldError("Step up or step down.")


def die_choices(group: TraitGroup) -> list[str]:
    """The values the die picker offers: d4–d12, then d12+d4–d12+d12 where allowed."""
    plain = [f"d{s}" for s in PLAIN_SIZES]
    if group.kind == "die_or_compound":
        plain += [f"d12+d{s}" for s in PLAIN_SIZES]
    return plain


def die_label(die: int | None, plus_die: int | None) -> str:
    if die is None:
        return ""
    return f"d{die}" + (f"+d{plus_die}" if plus_die else "")


# --------------------------------------------------------------------------- whole traits


TRAIT_FIELDS = ("name", "die", "rating", "notes", "parent", "link", "flags")


def clean_trait(
    system: str,
    group: TraitGroup,
    data: Mapping,
    *,
    choices: Mapping,
    taken: set[str],
    flag_values: Mapping[str, object] | None = None,
) -> tuple[dict, dict[str, str]]:
    """Clean a whole new trait (the add form, an imported trait).

    Returns (values, errors): values holds name, die, plus_die, rating, notes,
    flags and the reference key under "parent" or "link"; errors maps each bad
    field to its message. `choices` maps reference keys to names; `taken` holds
    the casefolded names already in the group.
    """
    template = template_for(system)
    values: dict = {"die": None, "plus_die": None, "rating": None}
    errors: dict[str, str] = {}
    try:
        values["name"] = clean_name(data.get("name"))
        check_unique(group, values["name"], taken)
        if group.fixed_names and values["name"] not in group.fixed_names:
            names = ", ".join(group.fixed_names)
            raise FieldError(f"{group.label} are always these: {names}.")
    except FieldError as error:
        errors["name"] = str(error)
    if group.kind in DIE_KINDS:
        try:
            values["die"], values["plus_die"] = clean_die(group, data.get("die"))
        except FieldError as error:
            errors["die"] = str(error)
    elif data.get("die") not in (None, ""):
        errors["die"] = f"{group.label} have no dice."
    if group.kind == "rating":
        try:
            values["rating"] = clean_rating(group, data.get("rating"))
        except FieldError as error:
            errors["rating"] = str(error)
    elif data.get("rating") not in (None, ""):
        errors["rating"] = f"{group.label} have no rating."
    try:
        values["notes"] = clean_notes(data.get("notes"))
    except FieldError as error:
        errors["notes"] = str(error)
    relation = reference_of(group)
    if relation is not None:
        try:
            values[relation[0]] = clean_reference(group, template, data.get(relation[0]), choices)
        except FieldError as error:
            errors[relation[0]] = str(error)
    flags = {}
    allowed = flags_for(system, group)
    raw_flags = flag_values if flag_values is not None else {}
    for flag, raw in raw_flags.items():
        if flag not in allowed:
            errors["flags"] = f"{group.label} have no flag called {str(flag)[:40]!r}" + (
                f" (only: {', '.join(allowed)})." if allowed else "."
            )
            continue
        try:
            if clean_flag(raw):
                flags[flag] = True
        except FieldError as error:
            errors["flags"] = str(error)
    values["flags"] = flags
    return values, errors
