"""Unisystem (CharLoft RPG), seed 004: one d10 plus traits against a target of 9.

Every roll goes through `roll_d10` (the Rule of 10 and Rule of 1 chains) and
`success_levels`, so tasks, tests, resisted actions, fear tests, chases and
jumps all read the die and the Success Level table the same way. Actions
without dice (Ability Scores, damage, healing, lengthy tasks, movement) take
the current state in the request and return the new state.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .kit.actions import Action
from .kit.errors import FaceError, InvalidRequest
from .kit.faces import FaceSource
from .kit.requests import get_bool, get_choice, get_int, get_list, get_str, require_mapping
from .kit.sheet import Counter, SheetTemplate, TraitGroup

NAME = "Unisystem"

ATTRIBUTES = ("Strength", "Dexterity", "Constitution", "Intelligence", "Perception", "Willpower")
ATTRIBUTE_MIN, ATTRIBUTE_MAX = 1, 30
SKILL_MAX = 15
MODIFIER_LIMIT = 50
NAMED_MODIFIER_LIMIT = 20
MAX_NAMED_MODIFIERS = 12
MAX_NAME_LENGTH = 60
MAX_NOTE_LENGTH = 120
MAX_REROLLS = 50
SUCCESS_TARGET = 9
UNSKILLED_COMPLEX_CAP = 2
LIFE_POINTS_MIN, LIFE_POINTS_MAX = -99, 999
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


def _difficulty_preset(req: Mapping) -> Difficulty:
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
        preset = _difficulty_preset(req)
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


def _display_name(req: Mapping, default: str) -> str:
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
    name = _display_name(req, role)
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


def _roll_outcome(result: RollResult) -> dict[str, Any]:
    return {
        "headline": result.headline,
        "explanation": result.explanation,
        "dice": result.dice(),
        **result.as_dict(),
    }


def resolve_task(request: Mapping, faces: FaceSource) -> dict[str, Any]:
    """UNI-1, UNI-2, UNI-3, UNI-4: one roll of a task or test, its total and success levels."""
    return _roll_outcome(roll_total(parse_roll_spec(request), faces))


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


def _parse_side(value: object, role: str) -> RollSpec | FixedScore:
    if value is None:
        raise InvalidRequest(_required_role(role))
    side = require_mapping(value, role.lower())
    if "score" not in side:
        return parse_roll_spec(side, role)
    try:
        return FixedScore(
            name=_display_name(side, role),
            total=get_int(side, "score", lo=1, hi=100),
            score_name=get_str(side, "score_name", default="", max_len=40).strip() or "Ability",
        )
    except InvalidRequest as error:
        raise InvalidRequest(f"{_name_for_errors(side, role)}: {error}") from None


def _resolve_side(side: RollSpec | FixedScore, faces: FaceSource) -> RollResult | FixedScore:
    return side if isinstance(side, FixedScore) else roll_total(side, faces)


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
    if isinstance(attacker, FixedScore) and isinstance(defender, FixedScore):
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


# ---------------------------------------------------------------------------
# Ability Scores (no dice)

SCORE_KEYS = ("muscle", "combat", "brains")


def _average_down(values: list[int]) -> int:
    """UNI-8: averages round down; no values averages to 0."""
    return sum(values) // len(values) if values else 0


def _skill_levels(req: Mapping, key: str) -> list[int]:
    values = get_list(req, key, default=[], max_len=MAX_GROUP)
    label = key.replace("_", " ")
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= SKILL_MAX:
            raise InvalidRequest(
                f"each of the {label} must be a whole number from 0 to {SKILL_MAX}"
            )
    return values


def score_needs(score: int) -> dict[str, int | None]:
    """UNI-5: what a cast member's total must reach against a score, acting or defending.

    Acting, the total must beat the score and still be a success (9+).
    Defending, it must tie or beat it; a score below 9 fails on its own.
    """
    return {
        "acting": max(score + 1, SUCCESS_TARGET),
        "defending": score if score >= SUCCESS_TARGET else None,
    }


def _score_entry(name: str, score: int) -> dict[str, Any]:
    levels = success_levels(score)
    return {
        "name": name,
        "score": score,
        "levels": levels,
        "level_name": level_name(levels),
        "needs": score_needs(score),
    }


def resolve_ability_scores(request: Mapping, faces: FaceSource) -> dict[str, Any]:
    """UNI-8: Muscle, Combat and Brains for a Guest Star or Adversary, plus situational scores.

    Muscle = 2 × Strength + 6; Combat = Dexterity + average combat skill + 6;
    Brains = average of Intelligence, Perception, Willpower + average relevant
    skill + 6; averages round down. Each score gives success levels by UNI-3.
    """
    traits = {
        key: get_int(request, key, lo=ATTRIBUTE_MIN, hi=ATTRIBUTE_MAX)
        for key in ("strength", "dexterity", "intelligence", "perception", "willpower")
    }
    combat_skill = _average_down(_skill_levels(request, "combat_skills"))
    mental_attributes = [traits["intelligence"], traits["perception"], traits["willpower"]]
    mental_average = _average_down(mental_attributes)
    mental_skill = _average_down(_skill_levels(request, "mental_skills"))
    scores = {
        "muscle": 2 * traits["strength"] + 6,
        "combat": traits["dexterity"] + combat_skill + 6,
        "brains": mental_average + mental_skill + 6,
    }
    workings = [
        f"Muscle = 2 × Str {traits['strength']} + 6 = {scores['muscle']}",
        f"Combat = Dex {traits['dexterity']} + average combat skill {combat_skill} + 6 "
        f"= {scores['combat']}",
        f"Brains = average of Int {traits['intelligence']}, Per {traits['perception']}, "
        f"Wil {traits['willpower']} ({mental_average}) + average skill {mental_skill} + 6 "
        f"= {scores['brains']}",
    ]
    situational = []
    for entry in get_list(request, "bonuses", default=[], max_len=MAX_NAMED_MODIFIERS):
        bonus = require_mapping(entry, "bonus")
        base = get_choice(bonus, "score", SCORE_KEYS)
        label = get_str(bonus, "name", max_len=MAX_NAME_LENGTH, what="a bonus's name").strip()
        if not label:
            raise InvalidRequest("each situational bonus needs a name, like grapple")
        value = get_int(
            bonus, "value", lo=-NAMED_MODIFIER_LIMIT, hi=NAMED_MODIFIER_LIMIT, what="a bonus"
        )
        score = scores[base] + value
        situational.append({**_score_entry(label, score), "based_on": base, "bonus": value})
        sign = "+" if value >= 0 else MINUS
        workings.append(f"{label}: {base.title()} {scores[base]} {sign} {abs(value)} = {score}")
    return {
        "headline": " · ".join(f"{key.title()} {scores[key]}" for key in SCORE_KEYS),
        "explanation": "; ".join(workings),
        "scores": {key: _score_entry(key.title(), scores[key]) for key in SCORE_KEYS},
        "situational": situational,
    }


# ---------------------------------------------------------------------------
# Damage, healing and lengthy tasks (no dice: levels from a roll already made)


def _levels_from(request: Mapping, total_key: str) -> tuple[int, int | None]:
    """Success levels given directly, or read from a roll total by UNI-3: (levels, total)."""
    has_levels, has_total = "success_levels" in request, total_key in request
    label = total_key.replace("_", " ")
    if has_levels and has_total:
        raise InvalidRequest(f"give the success levels or the {label}, not both")
    if not has_levels and not has_total:
        raise InvalidRequest(f"give the success levels or the {label}")
    if has_total:
        total = get_int(request, total_key)
        return success_levels(total), total
    return get_int(request, "success_levels", lo=0, hi=500), None


def _optional_int(request: Mapping, key: str, lo: int, hi: int) -> int | None:
    """A whole number the request may leave out (None), checked when present."""
    return get_int(request, key, lo=lo, hi=hi) if key in request else None


def resolve_damage(request: Mapping, faces: FaceSource) -> dict[str, Any]:
    """UNI-9: an attack's success levels add to the weapon's base damage; a failed attack does none."""
    base = get_int(request, "base_damage", lo=0, hi=200)
    levels, total = _levels_from(request, "attack_total")
    before = _optional_int(request, "life_points", LIFE_POINTS_MIN, LIFE_POINTS_MAX)
    hit = levels > 0
    damage = base + levels if hit else 0
    after = None if before is None else max(LIFE_POINTS_MIN, before - damage)
    floor = "" if after is None or after > LIFE_POINTS_MIN else ", the lowest a sheet holds"
    if hit:
        headline = f"{damage} damage (base {base} + {plural(levels, 'success level')})"
        explanation = f"Base damage {base} + {plural(levels, 'success level')} = {damage}"
    else:
        headline = "Missed — no damage"
        explanation = "The attack did not succeed (a total below 9), so it deals no damage"
    if total is not None:
        explanation = f"Attack total {signed(total)}: {explanation[0].lower()}{explanation[1:]}"
    if after is not None:
        headline += f"; Life Points {signed(before)} → {signed(after)}"
        explanation += f"; Life Points {signed(before)} − {damage} → {signed(after)}{floor}"
    return {
        "headline": headline,
        "explanation": explanation,
        "hit": hit,
        "base_damage": base,
        "levels": levels,
        "damage": damage,
        "life_points_before": before,
        "life_points": after,
    }


def resolve_heal(request: Mapping, faces: FaceSource) -> dict[str, Any]:
    """UNI-9: each success level of a Doctor roll heals 1 Life Point, never above the maximum."""
    levels, total = _levels_from(request, "doctor_total")
    before = get_int(request, "life_points", lo=LIFE_POINTS_MIN, hi=LIFE_POINTS_MAX)
    maximum = _optional_int(request, "max_life_points", 0, LIFE_POINTS_MAX)
    if maximum is not None and before > maximum:
        raise InvalidRequest("life points are already above the maximum")
    after = before + levels if maximum is None else min(maximum, before + levels)
    healed = after - before
    source = f"Doctor total {signed(total)}: " if total is not None else ""
    explanation = f"{source}{plural(levels, 'success level')}, {levels} healed"
    if healed < levels:
        explanation += f", capped at the maximum of {maximum}"
    explanation += f"; Life Points {signed(before)} → {signed(after)}"
    return {
        "headline": f"Healed {healed}; Life Points {signed(before)} → {signed(after)}",
        "explanation": explanation,
        "levels": levels,
        "healed": healed,
        "life_points_before": before,
        "life_points": after,
        "max_life_points": maximum,
    }


def _progress(required: int, accumulated: int, gained: int) -> dict[str, Any]:
    """UNI-11: the running sum of success levels toward a task's requirement."""
    total = accumulated + gained
    return {
        "required_levels": required,
        "accumulated": total,
        "remaining": max(0, required - total),
        "complete": total >= required,
    }


def _parse_requirement(request: Mapping, accumulated_key: str) -> tuple[int, int]:
    required = get_int(request, "required_levels", lo=1, hi=500)
    accumulated = get_int(request, accumulated_key, lo=0, hi=500, default=0)
    if accumulated >= required:
        raise InvalidRequest(
            f"the task already has the {required} success levels it needs; start a new one"
        )
    return required, accumulated


def resolve_lengthy_task(request: Mapping, faces: FaceSource) -> dict[str, Any]:
    """UNI-11: add one roll's success levels to a lengthy task; failures add nothing."""
    required, accumulated = _parse_requirement(request, "accumulated")
    rolls_made = get_int(request, "rolls_made", lo=0, hi=10000, default=0)
    gained, total = _levels_from(request, "total")
    progress = _progress(required, accumulated, gained)
    source = f"Total {signed(total)} gives " if total is not None else ""
    state = "done" if progress["complete"] else f"{progress['remaining']} to go"
    return {
        "headline": f"{progress['accumulated']} of {required} success levels — {state}",
        "explanation": (
            f"{source}{plural(gained, 'success level')}; "
            f"{accumulated} + {gained} = {progress['accumulated']} of {required}"
        ),
        "gained": gained,
        "rolls_made": rolls_made + 1,
        **progress,
    }


# ---------------------------------------------------------------------------
# Working together


def _shown_modifier(value: int) -> str:
    return f"+{value}" if value > 0 else signed(value)


def resolve_set_difficulty(request: Mapping, faces: FaceSource) -> dict[str, Any]:
    """UNI-4: the GM sets the difficulty of the task at hand for the scene, a named preset
    at a value inside its range (or clears it); a player's task takes it from the table."""
    req = require_mapping(request)
    clear = get_bool(req, "clear")
    note = get_str(req, "note", default="", max_len=MAX_NOTE_LENGTH, what="the note").strip()
    if clear:
        if "difficulty" in req or "difficulty_modifier" in req:
            raise InvalidRequest("choose a difficulty, or clear it, not both")
        return {
            "headline": "The GM clears the difficulty",
            "explanation": "No difficulty is set: a task is Challenging (no modifier) until the "
            "GM sets one.",
            "difficulty": None,
            "label": None,
            "modifier": None,
            "note": None,
        }
    if "difficulty" not in req:
        raise InvalidRequest("choose a difficulty (UNI-4), or clear it")
    preset = _difficulty_preset(req)
    chosen = {key: req[key] for key in ("difficulty", "difficulty_modifier") if key in req}
    value = parse_modifiers(chosen)[0].value
    shown = f"{preset.label} ({_shown_modifier(value)})"
    sentences = [
        f"A task now rolls at {shown} (UNI-4): the modifier joins the roll's total, which "
        f"succeeds at {SUCCESS_TARGET} or more."
    ]
    if note:
        sentences.append(f"Why: {note}.")
    return {
        "headline": f"The GM sets the difficulty: {shown}",
        "explanation": " ".join(sentences),
        "difficulty": next(key for key, d in DIFFICULTIES.items() if d is preset),
        "label": preset.label,
        "modifier": value,
        "note": note or None,
    }


def _parse_group(request: Mapping, key: str, role: str, *, most: int) -> list[RollSpec]:
    """A list of rollers, named "Helper 1", "Helper 2", … unless the request names them."""
    entries = get_list(request, key, max_len=most)
    if not entries:
        raise InvalidRequest(f"add at least one {role.lower()}")
    return [parse_roll_spec(entry, f"{role} {index}") for index, entry in enumerate(entries, 1)]


def _help_term(helper: RollResult) -> Term:
    """UNI-10: a successful helper adds +1 per success level; a failed one subtracts 3."""
    if helper.success:
        return modifier_term(helper.levels, f"{helper.name}'s help")
    return modifier_term(-3, f"{helper.name} failed")


def resolve_working_together(request: Mapping, faces: FaceSource) -> dict[str, Any]:
    """UNI-10: working together on a long task (levels add up) or a short, tense one (a leader).

    Long task: everyone rolls in the order listed; each success adds its
    success levels, failures add nothing. Short task: the helpers roll first,
    then the leader, whose total gains +1 per helper success level and −3 per
    failed helper before success levels are read.
    """
    mode = get_choice(request, "mode", ("long", "short"))
    if mode == "long":
        return _long_task(request, faces)
    return _short_task(request, faces)


def _long_task(request: Mapping, faces: FaceSource) -> dict[str, Any]:
    participants = _parse_group(request, "participants", "Participant", most=MAX_GROUP)
    requirement = None
    if "required_levels" in request:
        requirement = _parse_requirement(request, "levels_so_far")
    elif "levels_so_far" in request:
        raise InvalidRequest("give the levels the task needs along with the levels so far")
    rolls = [roll_total(spec, faces) for spec in participants]
    gained = sum(roll.levels for roll in rolls if roll.success)
    progress = _progress(*requirement, gained) if requirement else None
    headline = f"{plural(gained, 'success level')} together"
    if progress:
        headline += f" — {progress['accumulated']} of {progress['required_levels']}"
    lines = [roll.account() for roll in rolls]
    lines.append(f"Successful rolls add {plural(gained, 'success level')}; failures add nothing")
    return {
        "headline": headline,
        "explanation": ". ".join(lines) + ".",
        "dice": [entry for roll in rolls for entry in roll.dice(roll.name)],
        "mode": "long",
        "participants": [roll.as_dict() for roll in rolls],
        "gained": gained,
        "progress": progress,
    }


def _short_task(request: Mapping, faces: FaceSource) -> dict[str, Any]:
    leader_spec = parse_roll_spec(request.get("leader"), "Leader")
    helper_specs = _parse_group(request, "helpers", "Helper", most=MAX_GROUP - 1)
    helpers = [roll_total(spec, faces) for spec in helper_specs]
    help_terms = tuple(_help_term(helper) for helper in helpers)
    leader = roll_total(leader_spec, faces, help_terms)
    lines = [helper.account() for helper in helpers]
    lines.append(f"Leading, {leader.account()}")
    return {
        "headline": f"{leader.name}: {leader.headline}",
        "explanation": ". ".join(lines) + ".",
        "dice": [entry for roll in (*helpers, leader) for entry in roll.dice(roll.name)],
        "mode": "short",
        "helpers": [helper.as_dict() for helper in helpers],
        "help_bonus": sum(term.value for term in help_terms),
        **leader.as_dict(),
    }


# ---------------------------------------------------------------------------
# Fear


SPLATTER = {1: "some blood", 2: "a murder victim's body", 3: "R-rated gore", 4: "cult film carnage"}
HORROR_RULES = ("none", "willpower_once", "double_penalties")
PANIC_TABLE = (
    (
        7,
        "Startled",
        "Startled but not paralyzed: acts normally, but the critter wins Initiative this Turn.",
    ),
    (
        5,
        "Freak out",
        "Screams or flinches away: only defense actions this Turn, and no Full Defense.",
    ),
    (
        3,
        "Run Away!",
        "Runs for a full Turn (cowers if cornered): no attacks, defense at −2; a new Fear Test "
        "each Turn, penalties easing by one each Turn.",
    ),
    (
        None,
        "Total Terror",
        "Not in control: may lose their lunch, pass out or worse.",
    ),
)


def panic(total: int) -> dict[str, str] | None:
    """UNI-12: the Panic Table on a failed Fear Test (None when the character acts normally)."""
    if total >= SUCCESS_TARGET:
        return None
    for floor, result, effect in PANIC_TABLE:
        if floor is None or total >= floor:
            return {"result": result, "effect": effect}
    raise AssertionError("the Panic Table ends with a catch-all row")


def _fear_penalties(request: Mapping) -> list[tuple[str, int]]:
    """UNI-12's Fear Test modifiers as (reason, value): visage, hideousness, splatter, surprise."""
    penalties = []
    if get_bool(request, "demonic_visage"):
        penalties.append(("demonic visage", -1))
    attractiveness = get_int(request, "attractiveness", lo=-20, hi=20, default=0)
    hideous = -(-attractiveness // 2) if attractiveness < 0 else 0
    if hideous:
        penalties.append((f"hideous: Attractiveness {signed(attractiveness)}", hideous))
    splatter = get_int(request, "splatter", lo=0, hi=4, default=0)
    if splatter:
        penalties.append((f"splatter: {SPLATTER[splatter]}", -splatter))
    if get_bool(request, "sudden"):
        penalties.append(("sudden", -2))
    return penalties


def resolve_fear_test(request: Mapping, faces: FaceSource) -> dict[str, Any]:
    """UNI-12: Willpower doubled + fear modifiers; 9+ acts normally, else the Panic Table.

    A familiar horror (third or fourth encounter) loses its fear penalties;
    the horror options (Willpower once, or penalties doubled) come from the
    seed; on a Run Away! retest the penalties ease by one per Turn.
    """
    name = _display_name(request, "")
    willpower = get_int(request, "willpower", lo=ATTRIBUTE_MIN, hi=ATTRIBUTE_MAX)
    horror = get_choice(request, "horror_rule", HORROR_RULES, default="none")
    familiar = get_bool(request, "familiar")
    turns_panicking = get_int(request, "turns_panicking", lo=0, hi=20, default=0)
    penalties = _fear_penalties(request)
    if familiar:
        penalties = []
    other_terms = parse_modifiers(request)

    if horror == "double_penalties":
        penalties = [(f"{reason}, doubled", 2 * value) for reason, value in penalties]
    fear_terms = [modifier_term(value, reason) for reason, value in penalties]
    eased = min(turns_panicking, -sum(value for _, value in penalties))
    if eased:
        fear_terms.append(modifier_term(eased, f"eased after {plural(turns_panicking, 'Turn')}"))
    if horror == "willpower_once":
        base = Term(f"Wil {willpower}", willpower)
    else:
        base = Term(f"Wil {willpower} × 2", 2 * willpower)

    spec = RollSpec(name=name, kind="fear_test", terms=(base, *fear_terms, *other_terms))
    result = roll_total(spec, faces)
    panic_row = panic(result.total)
    explanation = result.explanation
    if familiar:
        explanation += "; the horror is familiar, so it carries no fear penalty"
    if panic_row:
        explanation += f"; below 9: {panic_row['result']} — {panic_row['effect']}"
    else:
        explanation += "; 9 or more: may be afraid, but acts normally"
    return {
        **_roll_outcome(result),
        "headline": f"Total {signed(result.total)} — "
        f"{panic_row['result'] if panic_row else 'acts normally'}",
        "explanation": explanation,
        "acts_normally": panic_row is None,
        "panic": panic_row,
        "horror_rule": horror,
        "familiar": familiar,
    }


# ---------------------------------------------------------------------------
# Movement, chases and jumps

SECONDS_PER_TURN = 5
ESCAPE_LEAD = 5


def resolve_movement(request: Mapping, faces: FaceSource) -> dict[str, Any]:
    """UNI-13: Dexterity + Constitution yards a second, five times that a Turn, double it in mph."""
    dexterity = get_int(request, "dexterity", lo=ATTRIBUTE_MIN, hi=ATTRIBUTE_MAX)
    constitution = get_int(request, "constitution", lo=ATTRIBUTE_MIN, hi=ATTRIBUTE_MAX)
    speed = dexterity + constitution
    per_turn, mph = SECONDS_PER_TURN * speed, 2 * speed
    return {
        "headline": f"{speed} yards a second · {per_turn} yards a Turn · {mph} mph",
        "explanation": (
            f"Dex {dexterity} + Con {constitution} = {speed} yards a second; "
            f"× {SECONDS_PER_TURN} = {per_turn} yards a Turn; × 2 = {mph} mph running"
        ),
        "yards_per_second": speed,
        "yards_per_turn": per_turn,
        "mph": mph,
    }


def _chase_lead(request: Mapping) -> int:
    """UNI-13: a chase goes on only while the lead is between +1 and +4."""
    lead = get_int(request, "lead", lo=-MODIFIER_LIMIT, hi=MODIFIER_LIMIT)
    if lead <= 0:
        raise InvalidRequest(
            f"the chase is already over: at a lead of {signed(lead)} the runner is caught"
        )
    if lead >= ESCAPE_LEAD:
        raise InvalidRequest(
            f"the chase is already over: at a lead of +{lead} the runner has escaped"
        )
    return lead


def resolve_chase(request: Mapping, faces: FaceSource) -> dict[str, Any]:
    """UNI-13: one Turn of a chase; a resisted roll moves the lead 1 toward the winner.

    The lead starts at +1 per Turn of head start; at 0 the runner is caught,
    at +5 the runner gets away. Nobody defends in a race, so equal totals (or
    both failing) leave the lead where it was. The runner rolls first.
    """
    lead = _chase_lead(request)
    turn = get_int(request, "turn", lo=0, hi=1000, default=0)
    runner_spec = parse_roll_spec(request.get("runner"), "Runner")
    chaser_spec = parse_roll_spec(request.get("chaser"), "Chaser")
    runner = roll_total(runner_spec, faces)
    chaser = roll_total(chaser_spec, faces)
    turn_result = contest(runner, chaser, ("runner", "chaser"), has_defender=False)
    step = {"runner": 1, "chaser": -1}.get(turn_result.winner or "", 0)
    new_lead = lead + step
    status = "caught" if new_lead <= 0 else "escaped" if new_lead >= ESCAPE_LEAD else "running"
    ending = {
        "caught": f"{runner.name} is caught",
        "escaped": f"{runner.name} gets away",
        "running": "the chase goes on",
    }[status]
    shown = f"+{new_lead}" if new_lead > 0 else "0"
    move = f"holds at {shown}" if step == 0 else f"{'grows' if step > 0 else 'shrinks'} to {shown}"
    return {
        "headline": f"Lead +{lead} → {shown}: {ending}",
        "explanation": f"{turn_result.explanation}, so the lead {move}: {ending}.",
        "dice": runner.dice(runner.name) + chaser.dice(chaser.name),
        "result": turn_result.result,
        "winner": turn_result.winner,
        "winner_name": turn_result.winner_name,
        "lead_before": lead,
        "lead": new_lead,
        "turn": turn + 1,
        "status": status,
        "runner": runner.as_dict(),
        "chaser": chaser.as_dict(),
    }


JUMP_UNITS = {"long": ("yard", "yards"), "high": ("foot", "feet")}
_JUMP_TABLE = ((2, 1, 2), (3, 2, 3), (5, 4, 5), (6, 5, 6), (8, 7, 8), (10, 10, 10))


def jump_distances(strength: int) -> tuple[int, int]:
    """UNI-14: (high jump in feet, long jump in yards) for a Strength, before a running start."""
    for top, feet, yards in _JUMP_TABLE:
        if strength <= top:
            return feet, yards
    beyond = strength - _JUMP_TABLE[-1][0]
    return _JUMP_TABLE[-1][1] + 2 * beyond, _JUMP_TABLE[-1][2] + beyond


def resolve_jump(request: Mapping, faces: FaceSource) -> dict[str, Any]:
    """UNI-14: the Jump Table by Strength, doubled by a running start, plus a roll's levels.

    A Dexterity + Acrobatics roll (or a fixed Combat Score) adds 1 yard to a
    long jump or 1 foot to a high jump per success level.
    """
    strength = get_int(request, "strength", lo=ATTRIBUTE_MIN, hi=ATTRIBUTE_MAX)
    kind = get_choice(request, "jump", ("long", "high"))
    running = get_bool(request, "running_start")
    has_roll = request.get("acrobatics") is not None
    has_score = request.get("combat_score") is not None
    if has_roll and has_score:
        raise InvalidRequest("use an Acrobatics roll or the Combat Score, not both")
    skill: RollResult | FixedScore | None = None
    if has_roll:
        skill = roll_total(parse_roll_spec(request["acrobatics"], "Acrobatics"), faces)
    elif has_score:
        skill = FixedScore("Combat", get_int(request, "combat_score", lo=1, hi=100), "Combat")

    high_feet, long_yards = jump_distances(strength)
    one, many = JUMP_UNITS[kind]

    def measure(amount: int) -> str:
        return f"{amount} {one if amount == 1 else many}"

    table = long_yards if kind == "long" else high_feet
    base = 2 * table if running else table
    bonus = skill.levels if skill is not None and skill.success else 0
    distance = base + bonus
    workings = [f"Str {strength}: {measure(table)} on the Jump Table"]
    if running:
        workings.append(f"running start doubles it to {base}")
    if skill is not None:
        workings.append(f"{skill.explanation}, {skill.verdict}: +{measure(bonus)}")
    feet = 3 * distance if kind == "long" else distance
    result = measure(distance) + (f" ({feet} feet)" if kind == "long" else "")
    return {
        "headline": f"{kind.title()} jump {result}",
        "explanation": "; ".join(workings) + f"; {result}",
        "dice": skill.dice() if skill is not None else [],
        "jump": kind,
        "unit": many,
        "table_distance": table,
        "running_start": running,
        "bonus": bonus,
        "distance": distance,
        "distance_feet": feet,
        "acrobatics": skill.as_dict() if skill is not None else None,
    }


# ---------------------------------------------------------------------------
# Request schemas (plain data for forms and docs)


REQUIRED: Any = object()


def _field(field: dict[str, Any], default: Any) -> dict[str, Any]:
    """Mark a schema field required, or give its default (None: optional, no default).

    "required" is True, or a phrase saying when ("for a task").
    """
    return {**field, "required": True} if default is REQUIRED else {**field, "default": default}


def _int(help_text: str, lo: int, hi: int, default: Any = REQUIRED) -> dict[str, Any]:
    return _field({"type": "int", "min": lo, "max": hi, "help": help_text}, default)


def _bool(help_text: str) -> dict[str, Any]:
    return {"type": "bool", "default": False, "help": help_text}


def _text(help_text: str, max_length: int = MAX_NAME_LENGTH) -> dict[str, Any]:
    return {"type": "text", "max_length": max_length, "default": "", "help": help_text}


def _choice(help_text: str, choices: Any, default: Any = REQUIRED) -> dict[str, Any]:
    return _field({"type": "choice", "choices": list(choices), "help": help_text}, default)


MODIFIER_SCHEMA: dict[str, Any] = {
    "difficulty": {
        "type": "choice",
        "choices": list(DIFFICULTIES),
        "help": "UNI-4 preset, by key or name: "
        + "; ".join(f"{key}: {d.display}" for key, d in DIFFICULTIES.items()),
    },
    "difficulty_modifier": _int(
        "a value inside the chosen preset's range (default: the first value listed)",
        -MODIFIER_LIMIT,
        MODIFIER_LIMIT,
        None,
    ),
    "modifier": _int("any other modifier the GM sets", -MODIFIER_LIMIT, MODIFIER_LIMIT, 0),
    "modifiers": {
        "type": "list",
        "max_items": MAX_NAMED_MODIFIERS,
        "default": [],
        "help": "Qualities, Drawbacks, Drama Point bonuses and the like",
        "items": {
            "type": "object",
            "fields": {
                "name": {**_text("what gives it, e.g. Nerves of Steel"), "required": True},
                "value": _int("the modifier", -NAMED_MODIFIER_LIMIT, NAMED_MODIFIER_LIMIT),
            },
        },
    },
}

ROLL_SCHEMA: dict[str, Any] = {
    "name": _text("who rolls (shown on the roll card)"),
    "kind": _choice("; ".join(ROLL_KINDS.values()), ROLL_KINDS, "task"),
    "attribute": _int("the attribute's rating", ATTRIBUTE_MIN, ATTRIBUTE_MAX),
    "attribute_name": {"type": "choice", "choices": list(ATTRIBUTES), "help": "which attribute"},
    "skill": {
        **_int("the skill's rating (task only); 0 is unskilled", 0, SKILL_MAX),
        "required": "for a task",
    },
    "skill_name": _text("which skill (task only)"),
    "second_attribute": {
        **_int("the other attribute (two attributes only)", ATTRIBUTE_MIN, ATTRIBUTE_MAX),
        "required": "for two attributes",
    },
    "second_attribute_name": {
        "type": "choice",
        "choices": list(ATTRIBUTES),
        "help": "which other attribute",
    },
    "unskilled_penalty": _int(
        "penalty for trying at skill 0 (−1 to −5; down to −10 for complex work)", -10, 0, 0
    ),
    "complex": _bool("complex work: an unskilled success stops at 2 levels (Decent)"),
    **MODIFIER_SCHEMA,
}

ROLL_FIELD = {"type": "object", "fields": ROLL_SCHEMA}
SCORE_FIELD = {
    "type": "object",
    "fields": {
        "name": _text("who (a Guest Star or Adversary)"),
        "score": _int("the fixed Ability Score, situational bonuses included", 1, 100),
        "score_name": _text("Muscle, Combat, Brains …", 40),
    },
}
SIDE_FIELD = {"type": "one_of", "options": [ROLL_FIELD, SCORE_FIELD]}

LEVELS_FIELD = _int("success levels already worked out", 0, 500)


def _levels_or_total(total_key: str, help_text: str) -> dict[str, Any]:
    return {
        "success_levels": {**LEVELS_FIELD, "required": f"unless {total_key} is given"},
        total_key: {**_int(help_text, -1000, 1000), "required": "unless success_levels is given"},
    }


# ---------------------------------------------------------------------------
# The system

MALCOLM_LEAP = {
    "name": "Malcolm",
    "kind": "two_attributes",
    "attribute": 1,
    "attribute_name": "Strength",
    "second_attribute": 2,
    "second_attribute_name": "Dexterity",
    "modifier": -5,
}
ROBIN_AND_THE_ZOMBIE = {
    "attacker": {
        "name": "Robin",
        "kind": "simple_test",
        "attribute": 4,
        "attribute_name": "Strength",
    },
    "defender": {
        "name": "Zombie",
        "kind": "simple_test",
        "attribute": 5,
        "attribute_name": "Strength",
    },
}
TYPICAL_VAMPIRE = {
    "strength": 5,
    "dexterity": 4,
    "intelligence": 2,
    "perception": 2,
    "willpower": 2,
    "combat_skills": [2],
    "mental_skills": [2],
    "bonuses": [{"score": "combat", "name": "grapple", "value": 2}],
}

ACTIONS: dict[str, Action] = {
    action.name: action
    for action in (
        Action(
            name="task",
            title="Task or Test",
            resolver=resolve_task,
            rules=("UNI-1", "UNI-2", "UNI-3", "UNI-4", "UNI-6", "UNI-7"),
            schema=ROLL_SCHEMA,
            example=MALCOLM_LEAP,
            example_faces=(10, 10, 3),
        ),
        Action(
            name="resisted",
            title="Resisted action",
            resolver=resolve_resisted,
            rules=("UNI-5", "UNI-1", "UNI-3", "UNI-6", "UNI-7"),
            schema={
                "attacker": {**SIDE_FIELD, "help": "the side acting (rolls first)"},
                "defender": {**SIDE_FIELD, "help": "the side resisting (wins equal totals)"},
                "even_contest": _bool("nobody is defending: equal totals are a tie"),
            },
            example=ROBIN_AND_THE_ZOMBIE,
            example_faces=(1, 3, 7),
        ),
        Action(
            name="ability_scores",
            title="Ability Scores",
            resolver=resolve_ability_scores,
            rules=("UNI-8", "UNI-3", "UNI-5"),
            schema={
                **{
                    key: _int(key.title(), ATTRIBUTE_MIN, ATTRIBUTE_MAX)
                    for key in ("strength", "dexterity", "intelligence", "perception", "willpower")
                },
                "combat_skills": {
                    "type": "list",
                    "items": _int("a combat skill's rating", 0, SKILL_MAX),
                    "max_items": MAX_GROUP,
                    "default": [],
                    "help": "combat skills averaged (rounded down) into Combat",
                },
                "mental_skills": {
                    "type": "list",
                    "items": _int("a relevant skill's rating", 0, SKILL_MAX),
                    "max_items": MAX_GROUP,
                    "default": [],
                    "help": "relevant skills averaged (rounded down) into Brains",
                },
                "bonuses": {
                    "type": "list",
                    "max_items": MAX_NAMED_MODIFIERS,
                    "default": [],
                    "help": "situational scores, e.g. grapple = Combat + 2",
                    "items": {
                        "type": "object",
                        "fields": {
                            "score": _choice("which score it adds to", SCORE_KEYS),
                            "name": {**_text("what for, e.g. grapple"), "required": True},
                            "value": _int("the bonus", -NAMED_MODIFIER_LIMIT, NAMED_MODIFIER_LIMIT),
                        },
                    },
                },
            },
            example=TYPICAL_VAMPIRE,
            rolls=False,
        ),
        Action(
            name="damage",
            title="Damage",
            resolver=resolve_damage,
            rules=("UNI-9", "UNI-3"),
            schema={
                "base_damage": _int("the weapon's base damage", 0, 200),
                **_levels_or_total("attack_total", "the attack roll's total or Combat Score"),
                "life_points": _int(
                    "the target's current Life Points (optional)",
                    LIFE_POINTS_MIN,
                    LIFE_POINTS_MAX,
                    None,
                ),
            },
            example={"base_damage": 5, "attack_total": 17, "life_points": 26},
            rolls=False,
        ),
        Action(
            name="heal",
            title="Healing (Doctor)",
            resolver=resolve_heal,
            rules=("UNI-9", "UNI-3"),
            schema={
                **_levels_or_total("doctor_total", "the Doctor roll's total"),
                "life_points": _int("current Life Points", LIFE_POINTS_MIN, LIFE_POINTS_MAX),
                "max_life_points": _int(
                    "the most Life Points the character can have (optional)",
                    0,
                    LIFE_POINTS_MAX,
                    None,
                ),
            },
            example={"doctor_total": 13, "life_points": 10, "max_life_points": 26},
            rolls=False,
        ),
        Action(
            name="working_together",
            title="Working together",
            resolver=resolve_working_together,
            rules=("UNI-10", "UNI-11", "UNI-1", "UNI-3"),
            schema={
                "mode": _choice(
                    "long (levels add up) or short (a leader, helpers)", ("long", "short")
                ),
                "participants": {
                    "type": "list",
                    "items": ROLL_FIELD,
                    "max_items": MAX_GROUP,
                    "required": "for a long task",
                    "help": "everyone who rolls, in order",
                },
                "required_levels": _int("levels the long task needs (optional)", 1, 500, None),
                "levels_so_far": _int("levels a long task already has", 0, 500, 0),
                "leader": {**ROLL_FIELD, "required": "for a short task"},
                "helpers": {
                    "type": "list",
                    "items": ROLL_FIELD,
                    "max_items": MAX_GROUP - 1,
                    "required": "for a short task",
                    "help": "they roll first, in order: +1 per success level, −3 per failure",
                },
            },
            example={
                "mode": "short",
                "leader": {
                    "name": "Willow",
                    "attribute": 3,
                    "attribute_name": "Willpower",
                    "skill": 3,
                    "skill_name": "Occultism",
                    "difficulty": "very_difficult",
                },
                "helpers": [
                    {
                        "name": "Giles",
                        "attribute": 4,
                        "attribute_name": "Intelligence",
                        "skill": 4,
                        "skill_name": "Occultism",
                    },
                    {
                        "name": "Xander",
                        "attribute": 2,
                        "attribute_name": "Intelligence",
                        "skill": 0,
                        "skill_name": "Occultism",
                    },
                ],
            },
            example_faces=(6, 2, 9),
        ),
        Action(
            name="lengthy_task",
            title="Lengthy task",
            resolver=resolve_lengthy_task,
            rules=("UNI-11", "UNI-3"),
            schema={
                "required_levels": _int("success levels the task needs", 1, 500),
                "accumulated": _int("levels gathered so far", 0, 500, 0),
                "rolls_made": _int("rolls made so far", 0, 10000, 0),
                **_levels_or_total("total", "this roll's total"),
            },
            example={"required_levels": 8, "accumulated": 3, "rolls_made": 2, "total": 13},
            rolls=False,
        ),
        Action(
            name="fear_test",
            title="Fear Test",
            resolver=resolve_fear_test,
            rules=("UNI-12", "UNI-4", "UNI-6", "UNI-7"),
            schema={
                "name": _text("who is scared"),
                "willpower": _int("Willpower (doubled unless the horror rule says once)", 1, 30),
                "demonic_visage": _bool("a demonic visage: −1"),
                "attractiveness": _int(
                    "the creature's Attractiveness; a negative one gives half, toward zero",
                    -20,
                    20,
                    0,
                ),
                "splatter": _int(
                    "0 none; 1 some blood; 2 a murder victim; 3 R-rated gore; 4 cult carnage",
                    0,
                    4,
                    0,
                ),
                "sudden": _bool("sudden or unexpected: another −2"),
                "familiar": _bool("seen often enough (third or fourth encounter): no penalty"),
                "horror_rule": _choice(
                    "none; willpower_once (not doubled); double_penalties", HORROR_RULES, "none"
                ),
                "turns_panicking": _int(
                    "Turns spent running away: each eases the fear penalty by 1", 0, 20, 0
                ),
                **MODIFIER_SCHEMA,
            },
            example={"name": "Cordelia", "willpower": 2, "demonic_visage": True, "sudden": True},
            example_faces=(4,),
        ),
        Action(
            name="movement",
            title="Movement",
            resolver=resolve_movement,
            rules=("UNI-13",),
            schema={
                "dexterity": _int("Dexterity", ATTRIBUTE_MIN, ATTRIBUTE_MAX),
                "constitution": _int("Constitution", ATTRIBUTE_MIN, ATTRIBUTE_MAX),
            },
            example={"dexterity": 2, "constitution": 2},
            rolls=False,
        ),
        Action(
            name="chase",
            title="Chase (one Turn)",
            resolver=resolve_chase,
            rules=("UNI-13", "UNI-5"),
            schema={
                "lead": _int("the runner's lead now; to start, +1 per Turn of head start", 1, 4),
                "turn": _int("Turns played so far", 0, 1000, 0),
                "runner": {
                    **ROLL_FIELD,
                    "help": "Dexterity doubled, or Dexterity + Sports (rolls first)",
                },
                "chaser": {**ROLL_FIELD, "help": "Dexterity doubled, or Dexterity + Sports"},
            },
            example={
                "lead": 3,
                "runner": {
                    "name": "Dawn",
                    "kind": "simple_test",
                    "attribute": 2,
                    "attribute_name": "Dexterity",
                },
                "chaser": {
                    "name": "Vampire",
                    "kind": "simple_test",
                    "attribute": 4,
                    "attribute_name": "Dexterity",
                },
            },
            example_faces=(4, 8),
        ),
        Action(
            name="set_difficulty",
            title="Set the difficulty",
            resolver=resolve_set_difficulty,
            rules=("UNI-4",),
            schema={
                "difficulty": {
                    **MODIFIER_SCHEMA["difficulty"],
                    "required": "unless clear",
                },
                "difficulty_modifier": MODIFIER_SCHEMA["difficulty_modifier"],
                "clear": _bool("clear the difficulty instead (choose none then)"),
                "note": _text("what makes it hard, for the roll card", MAX_NOTE_LENGTH),
            },
            example={
                "difficulty": "very_difficult",
                "difficulty_modifier": -4,
                "note": "in the dark",
            },
            rolls=False,
        ),
        Action(
            name="jump",
            title="Jump",
            resolver=resolve_jump,
            rules=("UNI-14", "UNI-3"),
            schema={
                "strength": _int("Strength", ATTRIBUTE_MIN, ATTRIBUTE_MAX),
                "jump": _choice("long (yards) or high (feet)", ("long", "high")),
                "running_start": _bool("a good running start doubles the table distance"),
                "acrobatics": {
                    **ROLL_FIELD,
                    "required": False,
                    "help": "a Dexterity + Acrobatics roll: +1 yard or foot per success level",
                },
                "combat_score": _int("or a fixed Combat Score instead of the roll", 1, 100, None),
            },
            example={
                "strength": 5,
                "jump": "long",
                "running_start": True,
                "acrobatics": {
                    "attribute": 4,
                    "attribute_name": "Dexterity",
                    "skill": 2,
                    "skill_name": "Acrobatics",
                },
            },
            example_faces=(5,),
        ),
    )
}

SHEET_TEMPLATE = SheetTemplate(
    groups=(
        TraitGroup(
            key="attributes",
            label="Attributes",
            kind="rating",
            min_rating=ATTRIBUTE_MIN,
            max_rating=ATTRIBUTE_MAX,
            default_rating=2,
            fixed_names=ATTRIBUTES,
            help="2 is an average human; supernatural beings go higher.",
        ),
        TraitGroup(
            key="skills",
            label="Skills",
            kind="rating",
            min_rating=0,
            max_rating=SKILL_MAX,
            default_rating=0,
            flags=("combat", "mental"),
            help=(
                "0 is unskilled: you may still try, at the GM's say-so. Mark combat and "
                "mental skills: a Guest Star's Combat and Brains scores average them (UNI-8)."
            ),
        ),
        TraitGroup(
            key="qualities",
            label="Qualities",
            kind="rating",
            min_rating=-NAMED_MODIFIER_LIMIT,
            max_rating=NAMED_MODIFIER_LIMIT,
            default_rating=0,
            help="The rating is the modifier the Quality gives to the rolls it helps.",
        ),
        TraitGroup(
            key="drawbacks",
            label="Drawbacks",
            kind="rating",
            min_rating=-NAMED_MODIFIER_LIMIT,
            max_rating=NAMED_MODIFIER_LIMIT,
            default_rating=0,
            help="The rating is the modifier the Drawback gives to the rolls it hinders.",
        ),
    ),
    counters=(
        Counter(
            "drama_points", "Drama Points", 0, 99, 0, "spent for bonuses and luck", table_owned=True
        ),
        Counter(
            "life_points",
            "Life Points",
            LIFE_POINTS_MIN,
            LIFE_POINTS_MAX,
            0,
            "damage subtracts from these; healing adds back",
            table_owned=True,  # UNI-9
        ),
        Counter(
            "max_life_points",
            "Maximum Life Points",
            0,
            LIFE_POINTS_MAX,
            0,
            "healing never goes past this",
        ),
    ),
    npc_kinds=("guest_star", "adversary"),
)

DECISIONS: dict[str, list[str]] = {
    "UNI-1": [
        f"Decision: attributes run from {ATTRIBUTE_MIN} to {ATTRIBUTE_MAX} (2 is an average "
        f"human) and skills from 0 to {SKILL_MAX}, so monsters fit on a sheet; a roll's free "
        f"modifier is between −{MODIFIER_LIMIT} and +{MODIFIER_LIMIT}, each named Quality or "
        f"Drawback modifier between −{NAMED_MODIFIER_LIMIT} and +{NAMED_MODIFIER_LIMIT}.",
    ],
    "UNI-2": [
        "Decision: the unskilled penalty is −1 to −5; the seed's −6 to −10 is allowed only for "
        "complex work (with reference material at hand).",
        "Decision: the 2-level cap applies when the GM marks the work as complex; the total "
        "and whether it succeeds are shown unchanged.",
        "Decision: a field that does not fit the kind of roll is refused, never ignored: a "
        "skill, an unskilled penalty or complex work on a test, a second attribute on a task "
        "or a test.",
    ],
    "UNI-3": [
        'Decision: past God-like (10 levels) a result is shown as "level 11", "level 12", …',
    ],
    "UNI-4": [
        "Decision: a preset chosen by name alone uses the first value in its range (Easy +5, "
        "Moderate +3, Average +1, Challenging 0, Difficult −1, Very Difficult −3, Heroic −6, "
        "Inhuman −10); the GM can pick any other value inside the range. A preset, a free "
        "modifier and named Quality/Drawback modifiers all add together. A preset can be "
        "named as the table gives it (Very Difficult) or by its key (very_difficult).",
        "Decision: the difficulty of the task at hand is the GM's. The GM sets it for the "
        "scene, a preset at a value in its range, in public or in secret; a player's Task, and "
        "each roll of a task worked on together (UNI-10), takes it whatever the request names, "
        "and with none set the player's roll has none (Challenging) and the GM judges the "
        "result. A preset in any other roll of a player's is left out: a resisted action's or "
        "a chase's difficulty is the other side's roll (UNI-5, UNI-13), a Fear Test's its "
        "fear modifiers (UNI-12). The GM stays free-form.",
        "Decision: against a difficulty the GM set behind the screen a player's roll is rolled "
        "blind: the GM sees how it went and reveals it. A public roll would show the modifier "
        "on the player's card, so it is refused.",
    ],
    "UNI-5": [
        "Decision: in a player's resisted action, chase or work together every other roller "
        "is a character named by their sheet (sheet_id, or table.target for a defender), "
        "rolling with that sheet's ratings and Qualities; a side given as raw ratings or a "
        "fixed score is refused, as the GM rolls those, and a player gives no modifier or "
        "difficulty of another character's. The GM stays free-form.",
        "Decision: a fixed Ability Score counts as that character's roll total, so the usual "
        "resisted rules apply: an acting cast member must beat it, a defending one must tie or "
        "beat it, and a score below 9 is a failed action that never wins.",
        "Decision: when both sides fail, nobody accomplishes anything even on equal totals; the "
        'lower total "fails more", and equal failing totals fail alike.',
        "Decision: an even contest (nobody defending, equal totals tie) needs both sides to "
        "roll; against a fixed Ability Score one side always acts and the other defends, so "
        "it is refused.",
    ],
    "UNI-6": [
        f"Decision: a die that rerolls more than {MAX_REROLLS} times in a row is refused as a "
        "corrupt record (a real roll will essentially never do it).",
    ],
    "UNI-8": [
        "Decision: a Guest Star with no combat (or relevant) skills averages 0 for them.",
        "Decision: acting against a score below 9, a cast member still needs 9 to succeed.",
    ],
    "UNI-9": [
        "Decision: an attack total below 9 misses and deals no damage; Life Points can drop "
        f"below zero (down to {LIFE_POINTS_MIN}) and healing stops at the maximum when one is "
        "given.",
    ],
    "UNI-10": [
        "Decision: in a short task the helpers roll first, in the order listed, then the "
        "leader; the helpers' bonuses and penalties join the leader's total before success "
        "levels are read.",
    ],
    "UNI-11": [
        "Decision: levels past the requirement are kept in the running sum; a task that "
        "already has its levels must be started afresh.",
    ],
    "UNI-12": [
        "Decision: only a negative Attractiveness frightens (half, rounded toward zero); a "
        "handsome creature gives no bonus.",
        "Decision: a sudden encounter gives −2 even with no other fear modifier.",
        "Decision: familiarity (the GM's call, third or fourth encounter) removes the fear "
        "penalties (visage, hideousness, splatter, surprise) but not Qualities or other "
        "modifiers.",
        "Decision: the seed's horror options are offered: Willpower not doubled, or fear "
        "penalties doubled.",
        "Decision: on a Run Away! retest the total fear penalty eases by 1 per Turn spent "
        "running, never past 0.",
    ],
    "UNI-13": [
        "Decision: nobody defends in a chase: equal totals, or both failing, leave the lead "
        "where it was. The runner rolls first.",
        "Decision: a chase is over at a lead of 0 (caught) or +5 (escaped); another Turn is "
        "refused.",
    ],
    "UNI-14": [
        "Decision: the running start doubles the table distance; the roll's yards or feet are "
        "added after doubling. A failed roll adds nothing.",
    ],
}
