"""Unisystem (CharLoft RPG), seed 004: one d10 plus traits against a target of 9.

Every roll goes through `roll_d10` (the Rule of 10 and Rule of 1 chains) and
`success_levels`, so tasks, tests, resisted actions, fear tests, chases and
jumps all read the die and the Success Level table the same way. This module
holds the roll itself (UNI-1 … UNI-7); `situations` builds the rest on it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..kit.errors import FaceError, InvalidRequest
from ..kit.faces import FaceSource
from ..kit.requests import get_bool, get_choice, get_int, get_list, get_str, require_mapping
from .sheet import ATTRIBUTE_MAX, ATTRIBUTE_MIN, ATTRIBUTES, NAMED_MODIFIER_LIMIT, SKILL_MAX

MODIFIER_LIMIT = 50
MAX_NAMED_MODIFIERS = 12
MAX_NAME_LENGTH = 60
MAX_NOTE_LENGTH = 120
MAX_REROLLS = 50
SUCCESS_TARGET = 9
UNSKILLED_COMPLEX_CAP = 2
MAX_GROUP = 20

MINUS = "\u2212"


def signed(number: int) -> str:
    """A number as players write it: a true minus sign for negatives."""
    return f"{MINUS}{-number}" if number < 0 else str(number)


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


# ---------------------------------------------------------------------------
# The die


@dataclass(frozen=True)
class ChainStep:
    """One face of a die roll: what came up, why it was rolled, what it changed."""

    face: int
    role: str
    note: str = ""


@dataclass(frozen=True)
class D10Roll:
    """One Unisystem die after its Rule of 10 (UNI-6) or Rule of 1 (UNI-7) chain."""

    value: int
    steps: tuple[ChainStep, ...]

    @property
    def chain(self) -> str:
        """'Rule of 10: 10, then 10 (+5), then 3 — roll 15', or 'Rolled 7' without a chain."""
        first = self.steps[0].face
        if len(self.steps) == 1:
            return f"Rolled {first}"
        rule = "Rule of 10" if first == 10 else "Rule of 1"
        shown = ", then ".join(
            f"{step.face} ({step.note})" if step.note else str(step.face) for step in self.steps
        )
        return f"{rule}: {shown} — roll {signed(self.value)}"

    def dice(self, roller: str | None = None) -> list[dict[str, Any]]:
        """One entry per face drawn, for the roll card."""
        entries = []
        for step in self.steps:
            entry: dict[str, Any] = {"die": "d10", "face": step.face, "role": step.role}
            if roller is not None:
                entry["roller"] = roller
            entries.append(entry)
        return entries


class _Chain:
    """Draws rerolls for one die, refusing chains long enough to be a corrupt replay."""

    def __init__(self, faces: FaceSource, role: str) -> None:
        self.faces = faces
        self.role = role
        self.steps: list[ChainStep] = []

    def reroll(self) -> int:
        if len(self.steps) >= MAX_REROLLS:
            raise FaceError(
                f"a die cannot reroll more than {MAX_REROLLS} times in a row; "
                "these recorded faces are not a real roll"
            )
        return self.faces.draw(10)

    def record(self, face: int, note: str = "") -> None:
        self.steps.append(ChainStep(face, self.role, note))


def roll_d10(faces: FaceSource) -> D10Roll:
    """Roll the Unisystem d10 with its chains (UNI-6 Rule of 10, UNI-7 Rule of 1).

    UNI-6: a natural 10 rolls again; a reroll of 10 adds 5 and rolls again; the
    last reroll adds (face − 5) when that is positive: 10,7 → 12; 10,4 → 10;
    10,10,3 → 15.
    UNI-7: a natural 1 rolls again; a first reroll of 2–4 replaces the 1 with
    (face − 5), 5–10 leaves it at 1; a reroll of 1 replaces the roll with −5 and
    rolls again, each further 1 counting −5 more and the last reroll adding
    (face − 5) when negative: 1,3 → −2; 1,8 → 1; 1,1,7 → −5.
    """
    first = faces.draw(10)
    steps = [ChainStep(first, "roll")]
    if first not in (1, 10):
        return D10Roll(first, tuple(steps))
    chain = _Chain(faces, "rule of 10 reroll" if first == 10 else "rule of 1 reroll")
    value = _rule_of_ten(chain) if first == 10 else _rule_of_one(chain)
    return D10Roll(value, (*steps, *chain.steps))


def _rule_of_ten(chain: _Chain) -> int:
    """UNI-6: 10, then +5 per further 10, then whatever the last reroll shows above 5."""
    value = 10
    while (face := chain.reroll()) == 10:
        value += 5
        chain.record(face, "+5")
    bonus = max(0, face - 5)
    value += bonus
    chain.record(face, f"+{bonus}" if bonus else "")
    return value


def _rule_of_one(chain: _Chain) -> int:
    """UNI-7: a first reroll of 2–4 replaces the 1; a chain of 1s replaces it with −5 each."""
    face = chain.reroll()
    if face != 1:
        if face >= 5:
            chain.record(face)
            return 1
        chain.record(face, signed(face - 5))
        return face - 5
    value = -5
    chain.record(face, signed(-5))
    while (face := chain.reroll()) == 1:
        value -= 5
        chain.record(face, signed(-5))
    penalty = min(0, face - 5)
    chain.record(face, signed(penalty) if penalty else "")
    return value + penalty


# ---------------------------------------------------------------------------
# Success levels

_LEVEL_THRESHOLDS = (9, 11, 13, 15, 17, 21)
LEVEL_NAMES = (
    "Failure",
    "Adequate",
    "Decent",
    "Good",
    "Very Good",
    "Excellent",
    "Extraordinary",
    "Mind-boggling",
    "Outrageous",
    "Superheroic",
    "God-like",
)


def success_levels(total: int) -> int:
    """UNI-3: the Success Level table; from 21 on, one more level for every 3 points."""
    if total >= _LEVEL_THRESHOLDS[-1]:
        return len(_LEVEL_THRESHOLDS) + (total - _LEVEL_THRESHOLDS[-1]) // 3
    return sum(1 for threshold in _LEVEL_THRESHOLDS if total >= threshold)


def level_name(levels: int) -> str:
    """UNI-3: Adequate … God-like, then "level N" (0 or less is a failure)."""
    if levels <= 0:
        return LEVEL_NAMES[0]
    if levels < len(LEVEL_NAMES):
        return LEVEL_NAMES[levels]
    return f"level {levels}"


def describe_levels(levels: int) -> str:
    """'Good (3 success levels)': the words a roll card shows for a success."""
    return f"{level_name(levels)} ({plural(levels, 'success level')})"


# ---------------------------------------------------------------------------
# Terms and modifiers


@dataclass(frozen=True)
class Term:
    """One number added to the die, with the words that explain it ('Str 4 × 2', '5 (Easy)')."""

    text: str
    value: int

    def as_dict(self) -> dict[str, Any]:
        return {"text": self.text, "value": self.value}


def modifier_term(value: int, reason: str) -> Term:
    return Term(f"{abs(value)} ({reason})", value)


def sum_line(start: int, terms: tuple[Term, ...] | list[Term], total: int) -> str:
    """'15 + Str 1 + Dex 2 − 5 = 13'."""
    parts = [signed(start)]
    for term in terms:
        parts.append(f"{'+' if term.value >= 0 else MINUS} {term.text}")
    return f"{' '.join(parts)} = {signed(total)}"


@dataclass(frozen=True)
class Difficulty:
    """A named UNI-4 preset: its range, and the value used when only the name is given."""

    label: str
    lowest: int
    highest: int
    default: int

    @property
    def range_text(self) -> str:
        """The range as the seed's table gives it: '+3 to +4', '−3 to −5', '−10 or worse'."""

        def shown(value: int) -> str:
            return f"+{value}" if value > 0 else signed(value)

        if self.lowest == self.highest:
            return "no modifier" if self.lowest == 0 else shown(self.lowest)
        if self.highest >= MODIFIER_LIMIT:
            return f"{shown(self.lowest)} or more"
        if self.lowest <= -MODIFIER_LIMIT:
            return f"{shown(self.highest)} or worse"
        if self.highest < 0:
            return f"{shown(self.highest)} to {shown(self.lowest)}"
        return f"{shown(self.lowest)} to {shown(self.highest)}"

    @property
    def display(self) -> str:
        """'Very Difficult (−3 to −5)': the name players choose by."""
        return f"{self.label} ({self.range_text})"


DIFFICULTIES = {
    "easy": Difficulty("Easy", 5, MODIFIER_LIMIT, 5),
    "moderate": Difficulty("Moderate", 3, 4, 3),
    "average": Difficulty("Average", 1, 2, 1),
    "challenging": Difficulty("Challenging", 0, 0, 0),
    "difficult": Difficulty("Difficult", -2, -1, -1),
    "very_difficult": Difficulty("Very Difficult", -5, -3, -3),
    "heroic": Difficulty("Heroic", -9, -6, -6),
    "inhuman": Difficulty("Inhuman", -MODIFIER_LIMIT, -10, -10),
}


def difficulty_preset(req: Mapping) -> Difficulty:
    """UNI-4: a preset by its key ("very_difficult") or its name ("Very Difficult")."""
    value = req.get("difficulty")
    key = (
        value.strip().lower().replace(" ", "_").replace("-", "_") if isinstance(value, str) else ""
    )
    if key not in DIFFICULTIES:
        choices = ", ".join(preset.display for preset in DIFFICULTIES.values())
        raise InvalidRequest(f"the difficulty must be one of: {choices}")
    return DIFFICULTIES[key]


def parse_modifiers(req: Mapping) -> list[Term]:
    """UNI-4 and UNI-1 modifiers: a named difficulty, a free integer, named Quality/Drawback bonuses."""
    terms = []
    if "difficulty" in req:
        preset = difficulty_preset(req)
        value = get_int(
            req,
            "difficulty_modifier",
            lo=-MODIFIER_LIMIT,
            hi=MODIFIER_LIMIT,
            default=preset.default,
            what=f"the modifier for {preset.label}",
        )
        if not preset.lowest <= value <= preset.highest:
            raise InvalidRequest(
                f"the modifier for {preset.label} is {preset.range_text}, "
                f"so {signed(value)} does not fit; choose another difficulty"
            )
        terms.append(modifier_term(value, preset.label))
    elif "difficulty_modifier" in req:
        raise InvalidRequest("choose a difficulty before giving its modifier")
    free = get_int(req, "modifier", lo=-MODIFIER_LIMIT, hi=MODIFIER_LIMIT, default=0)
    if free:
        terms.append(Term(str(abs(free)), free))
    for entry in get_list(req, "modifiers", default=[], max_len=MAX_NAMED_MODIFIERS):
        named = require_mapping(entry, "modifier")
        label = get_str(named, "name", max_len=MAX_NAME_LENGTH, what="a modifier's name").strip()
        if not label:
            raise InvalidRequest("each modifier needs a name, like Nerves of Steel")
        value = get_int(
            named,
            "value",
            lo=-NAMED_MODIFIER_LIMIT,
            hi=NAMED_MODIFIER_LIMIT,
            what=f"the value of {label}",
        )
        terms.append(modifier_term(value, label))
    return terms


# ---------------------------------------------------------------------------
# Rolls: who rolls what


ROLL_KINDS = {
    "task": "Task: attribute + skill",
    "simple_test": "Simple Test: attribute doubled",
    "difficult_test": "Difficult Test: attribute once",
    "two_attributes": "Two attributes, no doubling",
}


@dataclass(frozen=True)
class RollSpec:
    """A validated roll: who rolls, what kind, and every number added to the die."""

    name: str
    kind: str
    terms: tuple[Term, ...]
    level_cap: int | None = None


def display_name(req: Mapping, default: str) -> str:
    return get_str(req, "name", default="", max_len=MAX_NAME_LENGTH).strip() or default


def _attribute_term(req: Mapping, key: str, *, doubled: bool = False) -> Term:
    value = get_int(req, key, lo=ATTRIBUTE_MIN, hi=ATTRIBUTE_MAX)
    name_key = f"{key}_name"
    label = get_choice(req, name_key, ATTRIBUTES)[:3] if name_key in req else "attribute"
    if doubled:
        return Term(f"{label} {value} × 2", 2 * value)
    return Term(f"{label} {value}", value)


ROLL_KIND_NAMES = {
    "task": "a Task",
    "simple_test": "a Simple Test",
    "difficult_test": "a Difficult Test",
    "two_attributes": "a roll of two attributes",
}
# Fields that belong to one kind of roll only, with the value that means "not given".
TASK_FIELDS: dict[str, Any] = {
    "skill": None,
    "skill_name": "",
    "unskilled_penalty": 0,
    "complex": False,
}
SECOND_ATTRIBUTE_FIELDS: dict[str, Any] = {"second_attribute": None, "second_attribute_name": None}


def _given(value: object, unset: object) -> bool:
    """Whether a field carries something: None, a blank name or the unset value do not."""
    if value is None:
        return False
    if isinstance(value, str):
        return bool(value.strip()) and value != unset
    return not (type(value) is type(unset) and value == unset)


def _refuse_fields_of_other_kinds(req: Mapping, kind: str) -> None:
    """UNI-2: a field that does not apply to this kind of roll is refused, never dropped."""
    kind_name = ROLL_KIND_NAMES[kind]
    if kind != "task":
        for key, unset in TASK_FIELDS.items():
            if not _given(req.get(key), unset):
                continue
            if key in ("skill", "skill_name"):
                raise InvalidRequest(
                    f"{kind_name} adds no skill: leave the skill out, or roll a Task "
                    "(attribute + skill)"
                )
            if key == "unskilled_penalty":
                raise InvalidRequest(
                    f"an unskilled penalty only applies to a Task at skill 0, not to {kind_name}"
                )
            raise InvalidRequest(
                f"complex work (capped at Decent when unskilled) only applies to a Task, "
                f"not to {kind_name}"
            )
    if kind != "two_attributes":
        for key, unset in SECOND_ATTRIBUTE_FIELDS.items():
            if _given(req.get(key), unset):
                raise InvalidRequest(
                    f"{kind_name} uses one attribute: a second attribute is only for a roll "
                    "of two attributes"
                )


def parse_roll_spec(value: object, role: str = "") -> RollSpec:
    """UNI-1 and UNI-2: d10 + attribute + (skill, or the attribute again) + modifiers.

    Task = attribute + skill; Simple Test = attribute doubled; Difficult Test =
    attribute once; two attributes, no doubling. A task at skill 0 is
    unskilled: an optional penalty of −1 to −5 (−6 to −10 for complex work
    with reference material), and complex work caps at 2 success levels.
    A field for another kind of roll (a skill on a test, say) is refused.
    `role` ("Attacker", "Helper 2") names the roller in errors and on the card.
    """
    if value is None and role:
        raise InvalidRequest(_required_role(role))
    req = require_mapping(value, role.lower() or "roll")
    try:
        return _roll_spec(req, role)
    except InvalidRequest as error:
        if not role:
            raise
        raise InvalidRequest(f"{_name_for_errors(req, role)}: {error}") from None


def _required_role(role: str) -> str:
    """'the defender is required'; a numbered role keeps its capital ('Helper 2 is required')."""
    if any(char.isdigit() for char in role):
        return f"{role} is required"
    return f"the {role.lower()} is required"


def _name_for_errors(req: Mapping, role: str) -> str:
    name = req.get("name")
    if isinstance(name, str) and name.strip() and len(name) <= MAX_NAME_LENGTH:
        return name.strip()
    return role


def _roll_spec(req: Mapping, role: str) -> RollSpec:
    name = display_name(req, role)
    kind = get_choice(req, "kind", tuple(ROLL_KINDS), default="task")
    _refuse_fields_of_other_kinds(req, kind)
    terms = [_attribute_term(req, "attribute", doubled=kind == "simple_test")]
    level_cap = None
    if kind == "two_attributes":
        terms.append(_attribute_term(req, "second_attribute"))
    elif kind == "task":
        skill = get_int(req, "skill", lo=0, hi=SKILL_MAX)
        skill_name = get_str(req, "skill_name", default="", max_len=MAX_NAME_LENGTH).strip()
        terms.append(Term(f"{skill_name or 'skill'} {skill}", skill))
        penalty = get_int(req, "unskilled_penalty", lo=-10, hi=0, default=0)
        complex_work = get_bool(req, "complex")
        if penalty and skill:
            raise InvalidRequest("the unskilled penalty only applies to a skill of 0")
        if penalty < -5 and not complex_work:
            raise InvalidRequest(
                "an unskilled penalty past −5 is only for complex work with reference material"
            )
        if penalty:
            terms.append(modifier_term(penalty, "unskilled"))
        if skill == 0 and complex_work:
            level_cap = UNSKILLED_COMPLEX_CAP
    terms.extend(parse_modifiers(req))
    return RollSpec(name=name, kind=kind, terms=tuple(terms), level_cap=level_cap)


class Totalled:
    """What every total shares, rolled or fixed: success at 9 or more (UNI-1), and its words."""

    name: str
    total: int
    levels: int
    explanation: str

    @property
    def success(self) -> bool:
        return self.total >= SUCCESS_TARGET

    @property
    def verdict(self) -> str:
        """'succeeds (Good)' or 'fails', for sentences about several rolls."""
        return f"succeeds ({level_name(self.levels)})" if self.success else "fails"

    def account(self) -> str:
        """'Robin: Rolled 7; 7 + Str 4 × 2 = 15, succeeds (Very Good)'."""
        return f"{self.name}: {self.explanation}, {self.verdict}"


@dataclass(frozen=True)
class RollResult(Totalled):
    """A rolled total (UNI-1): success at 9 or more, success levels by UNI-3."""

    spec: RollSpec
    die: D10Roll
    terms: tuple[Term, ...]

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def total(self) -> int:
        return self.die.value + sum(term.value for term in self.terms)

    @property
    def uncapped_levels(self) -> int:
        return success_levels(self.total)

    @property
    def levels(self) -> int:
        cap = self.spec.level_cap
        return self.uncapped_levels if cap is None else min(cap, self.uncapped_levels)

    @property
    def capped(self) -> bool:
        return self.levels < self.uncapped_levels

    @property
    def headline(self) -> str:
        if not self.success:
            return f"Total {signed(self.total)} — failure"
        capped = ", capped: unskilled" if self.capped else ""
        return f"Total {signed(self.total)} — {describe_levels(self.levels)}{capped}"

    @property
    def explanation(self) -> str:
        text = f"{self.die.chain}; {sum_line(self.die.value, self.terms, self.total)}"
        if self.capped:
            text += (
                f"; unskilled complex work stops at {UNSKILLED_COMPLEX_CAP} success levels "
                f"({level_name(UNSKILLED_COMPLEX_CAP)})"
            )
        return text

    def dice(self, roller: str | None = None) -> list[dict[str, Any]]:
        return self.die.dice(roller)

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.spec.kind,
            "fixed_score": False,
            "roll": self.die.value,
            "chain": self.die.chain,
            "terms": [term.as_dict() for term in self.terms],
            "total": self.total,
            "success": self.success,
            "levels": self.levels,
            "level_name": level_name(self.levels),
            "levels_capped": self.capped,
        }


def roll_total(spec: RollSpec, faces: FaceSource, extra_terms: tuple[Term, ...] = ()) -> RollResult:
    """Roll one die for a spec; extra terms (helpers' bonuses) join the spec's own."""
    return RollResult(spec=spec, die=roll_d10(faces), terms=spec.terms + extra_terms)


def roll_outcome(result: RollResult) -> dict[str, Any]:
    return {
        "headline": result.headline,
        "explanation": result.explanation,
        "dice": result.dice(),
        **result.as_dict(),
    }


def resolve_task(request: Mapping, faces: FaceSource) -> dict[str, Any]:
    """UNI-1, UNI-2, UNI-3, UNI-4: one roll of a task or test, its total and success levels."""
    return roll_outcome(roll_total(parse_roll_spec(request), faces))


# ---------------------------------------------------------------------------
# Resisted actions and fixed Ability Scores


@dataclass(frozen=True)
class FixedScore(Totalled):
    """A Guest Star's or Adversary's Ability Score standing in for a roll total (UNI-5, UNI-8)."""

    name: str
    total: int
    score_name: str

    @property
    def levels(self) -> int:
        return success_levels(self.total)

    @property
    def explanation(self) -> str:
        return f"{self.score_name} score {self.total} (no roll)"

    def dice(self, roller: str | None = None) -> list[dict[str, Any]]:
        return []

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "fixed_score": True,
            "score_name": self.score_name,
            "total": self.total,
            "success": self.success,
            "levels": self.levels,
            "level_name": level_name(self.levels),
        }


@dataclass(frozen=True)
class RolledTotal(Totalled):
    """UNI-5: a total already on the table (a roll card's) standing in for that side's roll:
    resisting a roll made earlier, only the other side rolls now."""

    name: str
    total: int
    seq: int

    @property
    def levels(self) -> int:
        return success_levels(self.total)

    @property
    def explanation(self) -> str:
        return f"Rolled {signed(self.total)} on #{self.seq}"

    def dice(self, roller: str | None = None) -> list[dict[str, Any]]:
        return []

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "fixed_score": False,
            "rolled_on": self.seq,
            "total": self.total,
            "success": self.success,
            "levels": self.levels,
            "level_name": level_name(self.levels),
        }


def _parse_side(value: object, role: str) -> RollSpec | FixedScore | RolledTotal:
    if value is None:
        raise InvalidRequest(_required_role(role))
    side = require_mapping(value, role.lower())
    if "rolled_on" in side:
        return RolledTotal(
            name=display_name(side, role),
            total=get_int(side, "total", lo=-1000, hi=1000),
            seq=get_int(side, "rolled_on", lo=1, hi=10**9),
        )
    if "score" not in side:
        return parse_roll_spec(side, role)
    try:
        return FixedScore(
            name=display_name(side, role),
            total=get_int(side, "score", lo=1, hi=100),
            score_name=get_str(side, "score_name", default="", max_len=40).strip() or "Ability",
        )
    except InvalidRequest as error:
        raise InvalidRequest(f"{_name_for_errors(side, role)}: {error}") from None


def _resolve_side(
    side: RollSpec | FixedScore | RolledTotal, faces: FaceSource
) -> RollResult | FixedScore | RolledTotal:
    return roll_total(side, faces) if isinstance(side, RollSpec) else side


ATTACKER_WINS, DEFENDER_WINS, TIE, BOTH_FAIL = "attacker wins", "defender wins", "tie", "both fail"


def resisted_result(attacker_total: int, defender_total: int, *, has_defender: bool = True) -> str:
    """UNI-5: who wins a resisted action, from the two totals.

    One success against a failure: the success wins. Both succeed: the higher
    total wins; equal totals go to the defender, or are a tie when nobody is
    defending. Both fail: nobody accomplishes anything. A fixed Ability Score
    is read as that side's total, so a defending cast member beats or ties it
    and an acting one must beat it.
    """
    attacker_succeeds = attacker_total >= SUCCESS_TARGET
    defender_succeeds = defender_total >= SUCCESS_TARGET
    if not attacker_succeeds and not defender_succeeds:
        return BOTH_FAIL
    if attacker_succeeds != defender_succeeds:
        return ATTACKER_WINS if attacker_succeeds else DEFENDER_WINS
    if attacker_total != defender_total:
        return ATTACKER_WINS if attacker_total > defender_total else DEFENDER_WINS
    return DEFENDER_WINS if has_defender else TIE


@dataclass(frozen=True)
class Contest:
    """Two totals compared by `resisted_result`, in the words of the roll card."""

    result: str
    winner: str | None
    winner_name: str | None
    fails_more: str | None
    headline: str
    explanation: str


def contest(
    first: Totalled, second: Totalled, keys: tuple[str, str], *, has_defender: bool
) -> Contest:
    """UNI-5 between two totals; `keys` name the sides in the outcome ("attacker", "defender")."""
    result = resisted_result(first.total, second.total, has_defender=has_defender)
    fails_more = None
    if result == ATTACKER_WINS or result == DEFENDER_WINS:
        winner_key = keys[0] if result == ATTACKER_WINS else keys[1]
        winner, loser = (first, second) if result == ATTACKER_WINS else (second, first)
        headline = f"{winner.name} wins — {signed(winner.total)} against {signed(loser.total)}"
        if not loser.success:
            reason = f"Only {winner.name} succeeds"
        elif winner.total != loser.total:
            reason = f"Both succeed and {winner.name} has the higher total"
        else:
            reason = f"Equal totals go to the defender, {winner.name}"
    elif result == TIE:
        winner_key = winner = None
        headline = f"Tie — {signed(first.total)} each"
        reason = "Equal totals and nobody is defending: a tie"
    else:
        winner_key = winner = None
        worse = ""
        if first.total != second.total:
            fails_more = keys[0] if first.total < second.total else keys[1]
            worse = f"; {(first if fails_more == keys[0] else second).name} fails more"
        headline = f"Both fail — {signed(first.total)} and {signed(second.total)}{worse}"
        reason = f"Both fail, so nobody accomplishes anything{worse}"
    return Contest(
        result=result,
        winner=winner_key,
        winner_name=winner.name if winner is not None else None,
        fails_more=fails_more,
        headline=headline,
        explanation=f"{first.account()}. {second.account()}. {reason}",
    )


def resolve_resisted(request: Mapping, faces: FaceSource) -> dict[str, Any]:
    """UNI-5: attacker and defender each roll (attacker's faces first) or use a fixed score."""
    attacker = _parse_side(request.get("attacker"), "Attacker")
    defender = _parse_side(request.get("defender"), "Defender")
    if not isinstance(attacker, RollSpec) and not isinstance(defender, RollSpec):
        raise InvalidRequest("at least one side must roll; two fixed scores need no dice")
    has_defender = not get_bool(request, "even_contest")
    if not has_defender and (isinstance(attacker, FixedScore) or isinstance(defender, FixedScore)):
        raise InvalidRequest(
            "an even contest needs both sides to roll: against a fixed Ability Score one side "
            "always acts and the other defends"
        )
    attack = _resolve_side(attacker, faces)
    defence = _resolve_side(defender, faces)
    outcome = contest(attack, defence, ("attacker", "defender"), has_defender=has_defender)
    return {
        "headline": outcome.headline,
        "explanation": f"{outcome.explanation}.",
        "dice": attack.dice(attack.name) + defence.dice(defence.name),
        "result": outcome.result,
        "winner": outcome.winner,
        "winner_name": outcome.winner_name,
        "fails_more": outcome.fails_more,
        "even_contest": not has_defender,
        "attacker": attack.as_dict(),
        "defender": defence.as_dict(),
    }
