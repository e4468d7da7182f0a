"""Personae v4 (seed 003): pools of d10s compared highest die first, ties yielded down the pool.

A challenge pits the actor's pool against a reactor's pool (or a fixed
number); the outcome is a grade (failure, glancing, clear) that nat-10s,
assistants and criticals can move. Criticals, development marks and the
once-per-scene concerted effort are plain numbers and flags the table keeps
as JSON: no-dice actions take the current state and return the new one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from .kit.actions import Action
from .kit.errors import InvalidRequest
from .kit.faces import FaceSource
from .kit.requests import get_bool, get_choice, get_int, get_list, get_str, require_mapping
from .kit.sheet import Counter, SheetTemplate, TraitGroup

NAME = "Personae"
DIE = 10

MAX_SKILL = 10
MAX_ATTRIBUTE = 10
MAX_BONUS_DICE = 10
MAX_MODIFIER = 20
MAX_THRESHOLD = 10
MAX_CRITICALS = 99
MAX_DIFFICULTY = 50
MAX_HELPERS = 11
MAX_NAME = 80
MAX_GOAL = 300
MAX_NOTE = 120

GRADES = ("failure", "glancing", "clear")
GRADE_TITLES = {"failure": "Failure", "glancing": "Glancing success", "clear": "Clear success"}
CRITICAL_TIMINGS = ("no", "before_roll", "if_failed")
CRITICAL_USES = ("automatic_success", "steer_failure", "trait_or_benefit")

DECISIONS: dict[str, list[str]] = {
    "PER-1": [
        "Decision: the seed gives no ranges, so a sheet holds skills of 0–10 dice, attributes "
        "of 0–10 and a Potential Threshold of 1–10; a roll adds at most 10 bonus dice and "
        "modifiers between −20 and +20.",
        "Decision: every side rolls at least one die: a skill rated 0 (not unlocked) with no "
        "bonus dice still rolls one d10.",
        "Decision: a challenge against a fixed number compares the actor's total with that "
        "number. The number has no dice to yield, so on a tie an actor with another die wins by "
        "yielding (a glancing success, or a clear one with a nat-10) and an actor with a single "
        "die leaves the tie unbroken. "
        "The actor's nat-10 rules (PER-4) apply; the reactor's (PER-5) cannot.",
        "Decision: bonus dice are the GM's to give. The GM grants a player's character N "
        "bonus dice (1–10) for their next challenge, in public or in secret; that challenge "
        "(or concerted effort they coordinate) rolls exactly the granted dice, whatever the "
        "request says, and uses the grant up, even when a critical buys the success without a "
        "roll. A character without a grant rolls no bonus dice. A new grant replaces one not "
        "yet used, and a grant of 0 withdraws it. The GM types the bonus dice of GM characters "
        "when rolling for them.",
        "Decision: a grant lasts for its scene: one not used when the scene ends expires with "
        "it, as the circumstance that earned it is over. A grant in secret is the GM's "
        "surprise: players learn of it when the challenge rolls it.",
        "Decision: a player names the other side and never gives its numbers. The reactor is "
        "a character named by their sheet, rolling the skill named and its attribute from "
        "that sheet, without bonus dice or modifiers from the request; a fixed number is the "
        "difficulty the GM set for the scene, whatever the request says. With no difficulty "
        "set, a player's challenge against a number is refused: the GM sets one, or the "
        "player names the character they challenge. The GM stays free-form.",
        "Decision: against a difficulty the GM set behind the screen a player's challenge is "
        "rolled blind: the GM sees how it went and reveals it when the fiction does. A public "
        "roll would show the number on the player's card, so it is refused.",
    ],
    "PER-3": [
        "Decision: a final clear success is marked toward development whether it was won on "
        "the first comparison, won by yielding with a nat-10 (PER-4), or steered there by "
        "assistants. A success bought with a critical before rolling is not marked: no roll "
        "was won.",
    ],
    "PER-4": [
        "Decision: with a nat-10, winning by yielding (including when the other side runs out "
        "of dice) is a clear success that banks no criticals; only an unbroken tie or a loss "
        "becomes a glancing success.",
        "Decision: every die showing 10 counts as a nat-10, bonus dice included. A clear success "
        "won on the first comparison banks one critical per nat-10, at most the Potential "
        "Threshold in one roll; the rest are lost. The campaign's bank limit (PER-6) can stop "
        "banking sooner.",
    ],
    "PER-5": [
        "Decision: a reactor's nat-10 settles a tied first comparison at once: nobody yields "
        "and the actor fails, so an actor facing a nat-10 can only win on the first comparison.",
    ],
    "PER-6": [
        "Decision: how many criticals a character can keep is the campaign's setting, the bank "
        "limit (no limit unless the campaign sets one); the Potential Threshold caps only what "
        "one roll banks. A roll never banks past the bank limit, and a character already "
        "holding more keeps them all but banks no more until below it.",
        "Decision: a critical spent before rolling buys a success and no dice are rolled: it "
        "counts as a clear success for assistants and hits, but it is not marked toward "
        "development (no roll was won) and banks no criticals.",
        "Decision: a critical kept to steer is spent only when the result is still a failure "
        "after ties are broken and assistants have steered; it turns that failure into a "
        "glancing success, never further.",
        "Decision: a gift that would take the receiver past their bank limit, when the campaign "
        "sets one, is refused, so no critical is ever lost in passing; give fewer instead.",
        "Decision: until a campaign chooses otherwise, Rollcall's campaigns keep at most "
        "the Potential Threshold in the bank; the table passes that as the bank limit.",
    ],
    "PER-7": [
        "Decision: steering stops at a clear success; assistants beyond that add nothing. "
        "Each assistant is named once, and nobody taking part in the roll itself can assist it.",
    ],
    "PER-8": [
        "Decision: the pool may not go beyond the group's average Potential Threshold plus 2, "
        "so the average is rounded down (3 characters with thresholds 3, 3 and 4 roll at most "
        "5 dice).",
        "Decision: the group is the coordinator and every contributor; the coordinator's bonus "
        "dice count toward the cap, and a contributor rated 0 adds no dice but still counts as "
        "a participant.",
        "Decision: the coordinator banks any criticals (at most their own Potential Threshold "
        "in the roll, within their bank limit); a glancing success on an attack still deals "
        "one hit per participant.",
    ],
    "PER-9": [
        "Decision: a challenge cannot be rolled without a stated goal. Whether it is extended "
        "can be given with the roll or declared afterwards with “Extend or end a challenge”.",
    ],
}

SHEET_TEMPLATE = SheetTemplate(
    groups=(
        TraitGroup(
            key="attributes",
            label="Attributes",
            kind="rating",
            min_rating=0,
            max_rating=MAX_ATTRIBUTE,
            default_rating=1,
            help="A flat number added to the highest die of a roll.",
        ),
        TraitGroup(
            key="skills",
            label="Skills",
            kind="rating",
            min_rating=0,
            max_rating=MAX_SKILL,
            default_rating=1,
            link_group="attributes",
            help="How many d10s you roll; each skill names the attribute added to it.",
        ),
    ),
    counters=(
        Counter(
            "potential_threshold",
            "Potential Threshold",
            minimum=1,
            maximum=MAX_THRESHOLD,
            default=3,
            help="The most criticals one roll can bank; also caps a concerted effort's dice.",
        ),
        Counter(
            "criticals",
            "Criticals",
            minimum=0,
            maximum=MAX_CRITICALS,
            default=0,
            help="Criticals banked; the campaign sets how many can be kept.",
            table_owned=True,  # PER-4, PER-6
        ),
        Counter(
            "development",
            "Development",
            minimum=0,
            maximum=99,
            default=0,
            help="Clear successes marked toward development points.",
            table_owned=True,  # PER-3: the table marks them
        ),
    ),
)


# --- Reading requests -------------------------------------------------------------------------


@dataclass(frozen=True)
class Side:
    """One side of a challenge after validation: how many d10s, and what is added to a die."""

    name: str
    dice: int
    skill: int
    bonus_dice: int
    attribute: int
    modifiers: int
    skill_name: str
    attribute_name: str

    @property
    def bonus(self) -> int:
        return self.attribute + self.modifiers

    def summary(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "skill": self.skill,
            "skill_name": self.skill_name,
            "bonus_dice": self.bonus_dice,
            "dice": self.dice,
            "attribute": self.attribute,
            "attribute_name": self.attribute_name,
            "modifiers": self.modifiers,
        }


@dataclass(frozen=True)
class Bank:
    """A character's banked criticals (PER-6), the Potential Threshold that caps what one
    roll banks (PER-4), and the campaign's bank limit on how many can be kept (None: none)."""

    criticals: int
    threshold: int
    limit: int | None = None

    @property
    def cap(self) -> int:
        """How many criticals can be kept: the bank limit, or what a sheet records."""
        return MAX_CRITICALS if self.limit is None else min(self.limit, MAX_CRITICALS)

    @property
    def room(self) -> int:
        """How many more can be kept; 0 for a character already holding more than the limit."""
        return max(0, self.cap - self.criticals)

    def summary(self) -> dict[str, Any]:
        return {"potential_threshold": self.threshold, "bank_limit": self.limit}


@dataclass(frozen=True)
class Opposition:
    """What the actor is compared against: a reactor's pool, or a fixed number."""

    reactor: Side | None
    difficulty: int | None

    @property
    def label(self) -> str:
        return self.reactor.name if self.reactor else f"difficulty {self.difficulty}"

    def totals(self, faces: list[int]) -> list[int]:
        """A fixed number is a single total with nothing behind it to yield to."""
        if self.reactor:
            return [face + self.reactor.bonus for face in faces]
        return [self.difficulty] if self.difficulty is not None else []


@dataclass(frozen=True)
class Plan:
    """What is settled before the dice: goal (PER-9), assistants (PER-7), critical use (PER-6)."""

    goal: str
    extended: bool | None
    assistants: tuple[str, ...]
    spend_critical: str


SIDE_FIELDS = (
    "name",
    "skill",
    "skill_name",
    "bonus_dice",
    "attribute",
    "attribute_name",
    "modifiers",
)
BANK_FIELDS = ("potential_threshold", "criticals", "bank_limit")
PLAN_FIELDS = ("goal", "extended", "assistants", "spend_critical")
BANK_HOLDER_FIELDS = ("name", *BANK_FIELDS)
OPPOSITION_FIELDS = ("reactor", "difficulty")


def _fields(raw: object, allowed: tuple[str, ...], what: str) -> Mapping:
    """The mapping itself; unknown fields are refused so a misspelt option is never ignored."""
    data = require_mapping(raw, what)
    for key in data:
        if key not in allowed:
            raise InvalidRequest(
                f"the {what} has an unknown field {str(key)[:40]!r} "
                f"(it can have: {', '.join(allowed)})"
            )
    return data


def _name(data: Mapping, key: str, what: str, default: str | None = None) -> str:
    """A trimmed name; a blank one falls back to `default`, or is refused when there is none."""
    text = get_str(data, key, default="", max_len=MAX_NAME, what=what).strip()
    if text:
        return text
    if default is None:
        raise InvalidRequest(f"{what} is required")
    return default


def _claim(name: str, seen: set[str]) -> str:
    """Refuse a second use of a name in one roll: nobody helps twice or helps themself."""
    if name.casefold() in seen:
        raise InvalidRequest(f"{name} is already part of this roll and cannot be listed again")
    seen.add(name.casefold())
    return name


def _names(data: Mapping, key: str, what: str, seen: set[str]) -> tuple[str, ...]:
    """Distinct helper names, none of them already taking part (`seen` grows as names are read)."""
    names = []
    for entry in get_list(data, key, default=[], max_len=MAX_HELPERS):
        if not isinstance(entry, str) or not entry.strip():
            raise InvalidRequest(f"each of the {what} must be named")
        if len(entry.strip()) > MAX_NAME:
            raise InvalidRequest(f"a name among the {what} is at most {MAX_NAME} characters")
        names.append(_claim(entry.strip(), seen))
    return tuple(names)


def _read_side(raw: object, role: str, extra_fields: tuple[str, ...] = ()) -> tuple[Side, Mapping]:
    """PER-1: a side rolls its skill's dice plus bonus dice (at least one) and adds the rest."""
    data = _fields(raw, SIDE_FIELDS + extra_fields, role)
    name = _name(data, "name", f"the {role}'s name", default=role.capitalize())
    skill = get_int(data, "skill", lo=0, hi=MAX_SKILL, what=f"{name}'s skill rating")
    bonus_dice = get_int(
        data, "bonus_dice", lo=0, hi=MAX_BONUS_DICE, default=0, what=f"{name}'s bonus dice"
    )
    side = Side(
        name=name,
        dice=max(1, skill + bonus_dice),
        skill=skill,
        bonus_dice=bonus_dice,
        attribute=get_int(data, "attribute", lo=0, hi=MAX_ATTRIBUTE, what=f"{name}'s attribute"),
        modifiers=get_int(
            data,
            "modifiers",
            lo=-MAX_MODIFIER,
            hi=MAX_MODIFIER,
            default=0,
            what=f"{name}'s modifiers",
        ),
        skill_name=get_str(
            data, "skill_name", default="", max_len=MAX_NAME, what="a skill name"
        ).strip(),
        attribute_name=get_str(
            data, "attribute_name", default="", max_len=MAX_NAME, what="an attribute name"
        ).strip(),
    )
    return side, data


def _read_bank(data: Mapping, name: str) -> Bank:
    """PER-6: banked criticals, the Potential Threshold and the campaign's bank limit.

    Holding more criticals than the threshold (or the limit) is a legal state: the campaign
    decides how many are kept, so nobody is refused for what they already hold.
    """
    threshold = get_int(
        data, "potential_threshold", lo=1, hi=MAX_THRESHOLD, what=f"{name}'s Potential Threshold"
    )
    criticals = get_int(
        data, "criticals", lo=0, hi=MAX_CRITICALS, default=0, what=f"{name}'s banked criticals"
    )
    limit = None
    if data.get("bank_limit") is not None:
        limit = get_int(data, "bank_limit", lo=0, hi=MAX_CRITICALS, what=f"{name}'s bank limit")
    return Bank(criticals=criticals, threshold=threshold, limit=limit)


def _read_opposition(data: Mapping) -> Opposition:
    """Either a reactor who rolls, or a fixed number to beat; exactly one of them."""
    if "reactor" in data and "difficulty" in data:
        raise InvalidRequest("give either a reactor who rolls or a fixed difficulty, not both")
    if "reactor" not in data and "difficulty" not in data:
        raise InvalidRequest("give a reactor who rolls, or a fixed difficulty to beat")
    if "difficulty" in data:
        return Opposition(None, get_int(data, "difficulty", lo=1, hi=MAX_DIFFICULTY))
    reactor, _ = _read_side(data["reactor"], "reactor")
    return Opposition(reactor, None)


def _read_extended(data: Mapping) -> bool | None:
    value = data.get("extended")
    if value is not None and not isinstance(value, bool):
        raise InvalidRequest("extended must be true, false, or left out until the actor decides")
    return value


def _read_goal(data: Mapping) -> str:
    """PER-9: the goal is stated before anyone rolls."""
    goal = get_str(data, "goal", default="", max_len=MAX_GOAL, what="the goal").strip()
    if not goal:
        raise InvalidRequest("state the goal first: what happens if the challenge succeeds")
    return goal


def _read_plan(data: Mapping, spender: str, bank: Bank, seen: set[str]) -> Plan:
    """PER-6, PER-7, PER-9: everything declared before the dice are rolled."""
    spend = get_choice(data, "spend_critical", CRITICAL_TIMINGS, default="no")
    if spend != "no" and bank.criticals == 0:
        raise InvalidRequest(f"{spender} has no criticals banked to spend")
    return Plan(
        goal=_read_goal(data),
        extended=_read_extended(data),
        assistants=_names(data, "assistants", "assistants", seen),
        spend_critical=spend,
    )


# --- The rules --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Showdown:
    """How the comparisons went: the totals compared, who won, and how it was decided."""

    comparisons: tuple[tuple[int, int], ...]
    winner: str | None
    decided_by: str
    actor_used: int
    opposing_used: int

    @property
    def won_first(self) -> bool:
        return self.winner == "actor" and self.decided_by == "first_comparison"


def compare_pools(
    actor_totals: list[int], opposing_totals: list[int], *, tie_fails_actor: bool = False
) -> Showdown:
    """PER-1, PER-2, PER-5: compare the highest totals; on a tie both yield to the next die.

    Totals are each side's dice (sorted high to low) plus its attribute and modifiers.
    A side that runs out of dice while the other still has one loses the tie; both
    running out together leaves it unbroken (winner None). `tie_fails_actor` is the
    reactor's nat-10: a tied first comparison goes to the reactor with no yielding.
    """
    comparisons: list[tuple[int, int]] = []
    for step in range(max(len(actor_totals), len(opposing_totals))):
        if step >= len(actor_totals):
            return Showdown(tuple(comparisons), "reactor", "out_of_dice", step, step + 1)
        if step >= len(opposing_totals):
            return Showdown(tuple(comparisons), "actor", "out_of_dice", step + 1, step)
        actor_total, opposing_total = actor_totals[step], opposing_totals[step]
        comparisons.append((actor_total, opposing_total))
        decided_by = "first_comparison" if step == 0 else "yielding"
        if actor_total != opposing_total:
            winner = "actor" if actor_total > opposing_total else "reactor"
            return Showdown(tuple(comparisons), winner, decided_by, step + 1, step + 1)
        if tie_fails_actor:
            return Showdown(tuple(comparisons), "reactor", "reactor_nat_ten", 1, 1)
    used = len(comparisons)
    return Showdown(tuple(comparisons), None, "unbroken_tie", used, used)


def grade_from_dice(showdown: Showdown, actor_nat_tens: int, reactor_nat_ten: bool) -> str:
    """PER-3, PER-4, PER-5: clear when won on the first comparison, glancing when won by
    yielding. With an actor's nat-10, winning by yielding is clear too (without criticals)
    and an unbroken tie or a loss is a glancing success, unless the reactor rolled a nat-10."""
    if showdown.winner == "actor":
        return "clear" if showdown.won_first or actor_nat_tens else "glancing"
    if actor_nat_tens and not reactor_nat_ten:
        return "glancing"
    return "failure"


def criticals_to_bank(showdown: Showdown, actor_nat_tens: int, bank: Bank) -> int:
    """PER-4: a clear success on the first comparison banks one critical per nat-10, at most
    the Potential Threshold per roll; PER-6: never past the campaign's bank limit."""
    if not showdown.won_first:
        return 0
    return min(actor_nat_tens, bank.threshold, bank.room)


def steer(grade: str, assistants: tuple[str, ...]) -> list[dict[str, str]]:
    """PER-7: each assistant moves the result one step toward a clear success, stopping there."""
    steps = []
    for name in assistants:
        if grade == "clear":
            break
        better = GRADES[GRADES.index(grade) + 1]
        steps.append({"by": "assistant", "name": name, "from": grade, "to": better})
        grade = better
    return steps


def concerted_dice_cap(thresholds: list[int]) -> int:
    """PER-8: no more dice than the group's average Potential Threshold plus 2 (rounded down)."""
    return sum(thresholds) // len(thresholds) + 2


# --- Outcomes ---------------------------------------------------------------------------------


def _plural(count: int, word: str, plural: str = "") -> str:
    return f"{count} {word}" if count == 1 else f"{count} {plural or word + 's'}"


def _join(names: list[str] | tuple[str, ...]) -> str:
    """Names as a phrase: Bo; Bo and Cy; Bo, Cy and Dee."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _sum_text(face: int, bonus: int) -> str:
    return f"{face}{bonus:+d}={face + bonus}"


def _dice_entries(side: str, faces: list[int], used: int) -> list[dict[str, Any]]:
    """One entry per die, high to low: the first is compared, the next `used - 1` were
    yielded to, the rest did nothing."""
    entries = []
    for rank, face in enumerate(faces):
        role = "compared" if rank == 0 else "yielded" if rank < used else "unused"
        entries.append(
            {"die": "d10", "side": side, "face": face, "role": role, "nat_ten": face == DIE}
        )
    return entries


def _explain_showdown(
    actor: Side,
    opposition: Opposition,
    actor_faces: list[int],
    reactor_faces: list[int],
    showdown: Showdown,
) -> str:
    """'Mara 9+4=13 vs Cultist 8+5=13: tie; both yield: Mara 7+4=11 vs Cultist 5+5=10 — ...'"""
    reactor = opposition.reactor
    parts = []
    for step, (actor_total, opposing_total) in enumerate(showdown.comparisons):
        opposing = (
            f"{reactor.name} {_sum_text(reactor_faces[step], reactor.bonus)}"
            if reactor
            else opposition.label
        )
        text = f"{actor.name} {_sum_text(actor_faces[step], actor.bonus)} vs {opposing}"
        if actor_total == opposing_total:
            text += ": tie"
        parts.append(text if step == 0 else f"both yield: {text}")
    text = "; ".join(parts)
    if showdown.decided_by == "out_of_dice":
        if showdown.winner == "actor":
            spare = actor_faces[showdown.actor_used - 1]
            return (
                f"{text}; {opposition.label} has no dice left to yield, so {actor.name}'s next "
                f"die ({spare}) wins the tie"
            )
        spare = reactor_faces[showdown.opposing_used - 1]
        return (
            f"{text}; {actor.name} has no dice left to yield, so {opposition.label}'s next die "
            f"({spare}) wins the tie"
        )
    if showdown.decided_by == "unbroken_tie":
        return f"{text}; both are out of dice, so the tie is not broken"
    if showdown.decided_by == "reactor_nat_ten":
        return f"{text}; {opposition.label}'s nat-10 means a tie goes against {actor.name}"
    winner = actor.name if showdown.winner == "actor" else opposition.label
    how = "on the first comparison" if showdown.decided_by == "first_comparison" else "by yielding"
    return f"{text} — {winner} wins {how}"


def _headline_note(
    showdown: Showdown, rolled: str, actor_nat_tens: int, reactor_nat_ten: bool, reactor_name: str
) -> str:
    if showdown.winner == "actor":
        if showdown.won_first:
            return ""
        return "won by yielding with a nat-10" if rolled == "clear" else "won by yielding"
    if rolled == "glancing":
        return "saved by a nat-10"
    if reactor_nat_ten and showdown.decided_by == "reactor_nat_ten":
        return f"{reactor_name}'s nat-10 holds the tie"
    if actor_nat_tens and reactor_nat_ten:
        return f"{reactor_name}'s nat-10 cancels the save"
    return "tie not broken" if showdown.winner is None else ""


def _limit_text(bank: Bank) -> str:
    if bank.limit is None:
        return f"the most a sheet records ({MAX_CRITICALS})"
    return f"the campaign's bank limit of {bank.limit}"


def _banking_sentence(name: str, nat_tens: int, banked: int, bank: Bank) -> str:
    """PER-4, PER-6: how many nat-10s became criticals, and what the threshold and the
    bank limit cost."""
    rolled = _plural(nat_tens, "nat-10")
    per_roll = min(nat_tens, bank.threshold)
    over_threshold = nat_tens - per_roll
    over_limit = per_roll - banked
    if not banked:
        return (
            f"{rolled}, but {name} already holds {_plural(bank.criticals, 'critical')}, "
            f"{'at' if bank.criticals == bank.cap else 'past'} {_limit_text(bank)}, so none is "
            "banked."
        )
    verb = "banks" if nat_tens == 1 else "bank"
    of_limit = "" if bank.limit is None else f" of {bank.limit}"
    losses = []
    if over_threshold:
        losses.append(f"{over_threshold} lost to the Potential Threshold ({bank.threshold} a roll)")
    if over_limit:
        losses.append(f"{over_limit} lost to {_limit_text(bank)}")
    return (
        f"{rolled} {verb} {_plural(banked, 'critical')} (bank {bank.criticals} → "
        f"{bank.criticals + banked}{of_limit})" + (f"; {'; '.join(losses)}." if losses else ".")
    )


def _headline(grade: str, notes: list[str]) -> str:
    shown = [note for note in notes if note]
    return GRADE_TITLES[grade] + (" — " + "; ".join(shown) if shown else "")


def _finish(
    *,
    actor: Side,
    opposition: Opposition,
    bank: Bank,
    plan: Plan,
    final: str,
    notes: list[str],
    sentences: list[str],
    banked: int,
    spent: int,
    hits_per_success: int | None,
    extra: dict[str, Any],
    rolled: bool = True,
) -> dict[str, Any]:
    """The outcome fields every challenge shares, whether rolled or bought with a critical.

    PER-3: a clear success is marked toward development only when a roll was won
    (`rolled`); one bought with a critical before rolling is not (PER-6).
    """
    hits = hits_per_success
    if hits is not None and final == "failure":
        hits = 0
    if hits:
        notes.append(_plural(hits, "hit"))
        sentences.append(f"The attack lands {_plural(hits, 'hit')}, one per participant.")
    marked = final == "clear" and rolled
    if marked:
        sentences.append(f"{actor.name} marks a clear success toward development.")
    elif final == "clear":
        sentences.append("No roll was won, so it is not marked toward development.")
    outcome: dict[str, Any] = {
        "headline": _headline(final, notes),
        "explanation": " ".join(sentences),
        "result": final,
        "success": final != "failure",
        "development_marked": marked,
        "actor": actor.summary(),
        "reactor": opposition.reactor.summary() if opposition.reactor else None,
        "difficulty": opposition.difficulty,
        "criticals": {
            "before": bank.criticals,
            "banked": banked,
            "spent": spent,
            "after": bank.criticals + banked - spent,
            **bank.summary(),
        },
        "assistants": list(plan.assistants),
        "goal": plan.goal,
        "extended": plan.extended,
        **extra,
    }
    if hits is not None:
        outcome["hits"] = hits
    return outcome


def _roll_pool(dice: int, faces: FaceSource) -> list[int]:
    """Draw a side's faces in order, then sort them high to low for comparing."""
    return sorted((faces.draw(DIE) for _ in range(dice)), reverse=True)


def _challenge(
    actor: Side,
    opposition: Opposition,
    bank: Bank,
    plan: Plan,
    faces: FaceSource,
    *,
    preamble: str = "",
    hits_per_success: int | None = None,
) -> dict[str, Any]:
    """PER-1 to PER-7, PER-9: roll both pools (actor's first), compare, grade, bank, steer.

    A critical spent before rolling (PER-6) skips the dice: the action simply succeeds.
    """
    sentences = [preamble] if preamble else []
    if plan.spend_critical == "before_roll":
        sentences.append(
            f"{actor.name} spends a critical before rolling (bank {bank.criticals} → "
            f"{bank.criticals - 1}), so the challenge against {opposition.label} succeeds "
            "without a roll."
        )
        return _finish(
            actor=actor,
            opposition=opposition,
            bank=bank,
            plan=plan,
            final="clear",
            notes=["bought with a critical"],
            sentences=sentences,
            banked=0,
            spent=1,
            hits_per_success=hits_per_success,
            rolled=False,
            extra={
                "dice": [],
                "dice_result": None,
                "decided_by": "automatic_success",
                "comparisons": [],
                "nat_tens": {"actor": 0, "reactor": 0},
                "steering": [],
            },
        )

    reactor = opposition.reactor
    actor_faces = _roll_pool(actor.dice, faces)
    reactor_faces = _roll_pool(reactor.dice, faces) if reactor else []
    actor_nat_tens = actor_faces.count(DIE)
    reactor_nat_ten = DIE in reactor_faces
    showdown = compare_pools(
        [face + actor.bonus for face in actor_faces],
        opposition.totals(reactor_faces),
        tie_fails_actor=reactor_nat_ten,
    )
    rolled = grade_from_dice(showdown, actor_nat_tens, reactor_nat_ten)
    banked = criticals_to_bank(showdown, actor_nat_tens, bank)

    steering = steer(rolled, plan.assistants)
    assisted = len(steering)
    final = steering[-1]["to"] if steering else rolled
    spent = 0
    if final == "failure" and plan.spend_critical == "if_failed":
        steering.append({"by": "critical", "name": actor.name, "from": "failure", "to": "glancing"})
        final, spent = "glancing", 1

    account = _explain_showdown(actor, opposition, actor_faces, reactor_faces, showdown)
    sentences.append(f"{account}: {GRADE_TITLES[rolled].lower()}.")
    if actor_nat_tens and showdown.winner != "actor":
        saved = (
            "cannot fail outright"
            if rolled == "glancing"
            else f"is not saved, because {opposition.label} rolled one too"
        )
        sentences.append(f"{actor.name} rolled {_plural(actor_nat_tens, 'nat-10')} and {saved}.")
    if actor_nat_tens and showdown.winner == "actor" and not showdown.won_first:
        sentences.append(
            f"{actor.name} rolled {_plural(actor_nat_tens, 'nat-10')}, so winning by yielding "
            "is a clear success, but it banks no criticals."
        )
    if actor_nat_tens and showdown.won_first:
        sentences.append(_banking_sentence(actor.name, actor_nat_tens, banked, bank))
    sentences.extend(
        f"{step['name']} assists: {step['from']} → {step['to']}." for step in steering[:assisted]
    )
    if spent:
        sentences.append(
            f"{actor.name} spends a critical to steer the failure to a glancing success "
            f"(bank {bank.criticals} → {bank.criticals - 1})."
        )
    notes = [
        ""
        if steering
        else _headline_note(showdown, rolled, actor_nat_tens, reactor_nat_ten, opposition.label),
        f"{_plural(banked, 'critical')} banked" if banked else "",
        f"steered by {_plural(assisted, 'assistant')}" if assisted else "",
        "steered by a critical" if spent else "",
    ]
    return _finish(
        actor=actor,
        opposition=opposition,
        bank=bank,
        plan=plan,
        final=final,
        notes=notes,
        sentences=sentences,
        banked=banked,
        spent=spent,
        hits_per_success=hits_per_success,
        extra={
            "dice": _dice_entries("actor", actor_faces, showdown.actor_used)
            + _dice_entries("reactor", reactor_faces, showdown.opposing_used),
            "dice_result": rolled,
            "decided_by": showdown.decided_by,
            "comparisons": [
                {
                    "actor_face": actor_faces[step],
                    "actor_total": actor_total,
                    "reactor_face": reactor_faces[step] if reactor else None,
                    "reactor_total": opposing_total,
                }
                for step, (actor_total, opposing_total) in enumerate(showdown.comparisons)
            ],
            "nat_tens": {"actor": actor_nat_tens, "reactor": reactor_faces.count(DIE)},
            "steering": steering,
        },
    )


# --- Resolvers --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Contributor:
    """A character lending their skill rating to a concerted effort (PER-8)."""

    name: str
    rating: int
    threshold: int


def _read_contributors(data: Mapping, seen: set[str]) -> tuple[Contributor, ...]:
    """PER-8: at least one other character, each named once, each lending a rating."""
    entries = get_list(data, "contributors", max_len=MAX_HELPERS)
    if not entries:
        raise InvalidRequest(
            "a concerted effort needs at least one contributor besides the coordinator"
        )
    contributors = []
    for entry in entries:
        fields = _fields(entry, ("name", "rating", "potential_threshold"), "contributor")
        name = _claim(_name(fields, "name", "each contributor's name"), seen)
        contributors.append(
            Contributor(
                name=name,
                rating=get_int(fields, "rating", lo=0, hi=MAX_SKILL, what=f"{name}'s skill rating"),
                threshold=get_int(
                    fields,
                    "potential_threshold",
                    lo=1,
                    hi=MAX_THRESHOLD,
                    what=f"{name}'s Potential Threshold",
                ),
            )
        )
    return tuple(contributors)


def _read_actor(data: Mapping, role: str) -> tuple[Side, Bank]:
    actor, fields = _read_side(data.get(role), role, BANK_FIELDS)
    return actor, _read_bank(fields, actor.name)


def _taken_names(opposition: Opposition, *participants: str) -> set[str]:
    """Names already in the roll, so nobody among them can also assist (PER-7)."""
    names = [*participants, *([opposition.reactor.name] if opposition.reactor else [])]
    return {name.casefold() for name in names}


def resolve_challenge(request: Mapping, faces: FaceSource) -> dict[str, Any]:
    """PER-1 to PER-7 and PER-9: a challenge against a reactor's pool or a fixed number."""
    data = _fields(request, ("actor", *OPPOSITION_FIELDS, *PLAN_FIELDS), "request")
    actor, bank = _read_actor(data, "actor")
    opposition = _read_opposition(data)
    plan = _read_plan(data, actor.name, bank, _taken_names(opposition, actor.name))
    return _challenge(actor, opposition, bank, plan, faces)


def resolve_concerted_effort(request: Mapping, faces: FaceSource) -> dict[str, Any]:
    """PER-8: once per scene, a coordinator rolls the group's pooled dice as one challenge.

    The pool is the coordinator's skill and bonus dice plus each contributor's rating,
    capped at the group's average Potential Threshold (rounded down) + 2; the coordinator's
    attribute is added; a successful attack deals one hit per participant.
    """
    fields = ("coordinator", "contributors", "attack", "used_this_scene")
    data = _fields(request, (*fields, *OPPOSITION_FIELDS, *PLAN_FIELDS), "request")
    if get_bool(data, "used_this_scene"):
        raise InvalidRequest(
            "this group has already made its concerted effort this scene; "
            "the next one has to wait for a new scene"
        )
    coordinator, bank = _read_actor(data, "coordinator")
    opposition = _read_opposition(data)
    seen = _taken_names(opposition, coordinator.name)
    contributors = _read_contributors(data, seen)
    attack = get_bool(data, "attack")
    plan = _read_plan(data, coordinator.name, bank, seen)

    wanted = coordinator.skill + coordinator.bonus_dice + sum(c.rating for c in contributors)
    cap = concerted_dice_cap([bank.threshold, *(c.threshold for c in contributors)])
    pooled = replace(coordinator, dice=max(1, min(wanted, cap)))
    participants = [coordinator.name, *(c.name for c in contributors)]
    pool = f"{_plural(wanted, 'die', 'dice')} pooled"
    if wanted > cap:
        pool += f", capped at {cap} (the group's average Potential Threshold, rounded down, + 2)"
    elif pooled.dice > wanted:
        pool += ", and one die is always rolled"
    preamble = f"{coordinator.name} coordinates {_join(participants[1:])}: {pool}."
    outcome = _challenge(
        pooled,
        opposition,
        bank,
        plan,
        faces,
        preamble=preamble,
        hits_per_success=len(participants) if attack else 0,
    )
    outcome["concerted"] = {
        "participants": participants,
        "contributors": [
            {"name": c.name, "rating": c.rating, "potential_threshold": c.threshold}
            for c in contributors
        ],
        "dice_pooled": wanted,
        "dice_cap": cap,
        "dice_rolled": pooled.dice,
        "attack": attack,
    }
    outcome["used_this_scene"] = True
    return outcome


def resolve_spend_critical(request: Mapping, faces: FaceSource) -> dict[str, Any]:
    """PER-6: spend one banked critical: before rolling for an automatic success, after the
    ties are broken to steer a failure into a glancing success, or for a trait or a benefit
    the group agrees on."""
    data = _fields(request, (*BANK_HOLDER_FIELDS, "use", "result", "note"), "request")
    name = _name(data, "name", "the character's name", default="The character")
    bank = _read_bank(data, name)
    use = get_choice(data, "use", CRITICAL_USES)
    note = get_str(data, "note", default="", max_len=MAX_GOAL).strip()
    if bank.criticals == 0:
        raise InvalidRequest(f"{name} has no criticals banked to spend")
    if use != "steer_failure" and "result" in data:
        raise InvalidRequest("a result is only given when a critical steers a failure")
    result: str | None = None
    if use == "automatic_success":
        result = "clear"
        headline = "Clear success — bought with a critical"
        account = (
            f"{name} spends a critical before rolling: the action succeeds, without a roll won "
            "to mark toward development"
        )
    elif use == "steer_failure":
        before = get_choice(data, "result", GRADES)
        if before != "failure":
            raise InvalidRequest(
                f"only a failure can be steered with a critical; this is already a "
                f"{GRADE_TITLES[before].lower()}"
            )
        result = "glancing"
        headline = "Glancing success — steered by a critical"
        account = f"{name} spends a critical after the ties are broken: failure → glancing"
    else:
        if not note:
            raise InvalidRequest("say what the critical is spent on (the trait or the benefit)")
        headline = f"Critical spent — {note[:60]}"
        account = f"{name} spends a critical on: {note}"
    after = bank.criticals - 1
    return {
        "headline": headline,
        "explanation": f"{account} (bank {bank.criticals} → {after}).",
        "use": use,
        "result": result,
        # PER-3, PER-6: a success bought before rolling wins no roll, so nothing is marked.
        "development_marked": False,
        "note": note,
        "criticals": {
            "before": bank.criticals,
            "spent": 1,
            "after": after,
            "potential_threshold": bank.threshold,
        },
    }


def resolve_give_critical(request: Mapping, faces: FaceSource) -> dict[str, Any]:
    """PER-6: hand banked criticals to another character, never past the receiver's bank
    limit when the campaign sets one (a gift that does not fit is refused, so none is lost)."""
    data = _fields(request, ("giver", "receiver", "count"), "request")
    parties = []
    for role in ("giver", "receiver"):
        fields = _fields(data.get(role), BANK_HOLDER_FIELDS, role)
        name = _name(fields, "name", f"the {role}'s name")
        parties.append((name, _read_bank(fields, name)))
    (giver, giver_bank), (receiver, receiver_bank) = parties
    if giver.casefold() == receiver.casefold():
        raise InvalidRequest("a character cannot give criticals to themself")
    count = get_int(data, "count", lo=1, hi=MAX_CRITICALS, default=1, what="the number to give")
    if count > giver_bank.criticals:
        raise InvalidRequest(
            f"{giver} has only {_plural(giver_bank.criticals, 'critical')} to give"
        )
    if count > receiver_bank.room:
        raise InvalidRequest(
            f"{receiver} can hold only {receiver_bank.room} more ({_limit_text(receiver_bank)}); "
            "give fewer"
        )
    given = _plural(count, "critical")
    of_limit = "" if receiver_bank.limit is None else f" of {receiver_bank.limit}"
    return {
        "headline": f"{giver} gives {receiver} {given}",
        "explanation": (
            f"{giver} gives {given} to {receiver}: {giver}'s bank {giver_bank.criticals} → "
            f"{giver_bank.criticals - count}, {receiver}'s bank {receiver_bank.criticals} → "
            f"{receiver_bank.criticals + count}{of_limit}."
        ),
        "given": count,
        "giver": {
            "name": giver,
            "before": giver_bank.criticals,
            "after": giver_bank.criticals - count,
        },
        "receiver": {
            "name": receiver,
            "before": receiver_bank.criticals,
            "after": receiver_bank.criticals + count,
            **receiver_bank.summary(),
        },
    }


def resolve_assist(request: Mapping, faces: FaceSource) -> dict[str, Any]:
    """PER-7: assistants, named with the primary actor before rolling, each steer the
    primary actor's result one step: failure → glancing → clear."""
    data = _fields(request, ("primary_actor", "assistants", "result"), "request")
    primary = _name(data, "primary_actor", "the primary actor")
    assistants = _names(data, "assistants", "assistants", {primary.casefold()})
    if not assistants:
        raise InvalidRequest("name at least one assistant")
    before = get_choice(data, "result", GRADES)
    steering = steer(before, assistants)
    final = steering[-1]["to"] if steering else before
    sentences = [
        f"{step['name']} assists {primary}: {step['from']} → {step['to']}." for step in steering
    ]
    idle = assistants[len(steering) :]
    if idle:
        sentences.append(f"Already a clear success, so {_join(idle)} cannot steer it further.")
    if final == "clear":
        sentences.append(f"{primary} marks a clear success toward development.")
    return {
        "headline": _headline(final, [f"steered by {_plural(len(steering), 'assistant')}"]),
        "explanation": " ".join(sentences),
        "primary_actor": primary,
        "assistants": list(assistants),
        "result_before": before,
        "result": final,
        "success": final != "failure",
        "steering": steering,
        "development_marked": final == "clear",
    }


def resolve_extend_challenge(request: Mapping, faces: FaceSource) -> dict[str, Any]:
    """PER-9: after a challenge, the actor says whether it is over or extended (and toward what)."""
    data = _fields(request, ("goal", "extended", "next_goal"), "request")
    goal = _read_goal(data)
    if "extended" not in data:
        raise InvalidRequest("say whether the challenge is extended")
    extended = get_bool(data, "extended")
    next_goal = get_str(
        data, "next_goal", default="", max_len=MAX_GOAL, what="the next goal"
    ).strip()
    if extended and not next_goal:
        raise InvalidRequest("state the goal the challenge is extended toward")
    if not extended and next_goal:
        raise InvalidRequest("a next goal is only given when the challenge is extended")
    if extended:
        headline, explanation = (
            "Challenge extended",
            f"After “{goal}”, the actor extends the challenge toward: {next_goal}.",
        )
    else:
        headline, explanation = "Challenge over", f"The challenge for “{goal}” is over."
    return {
        "headline": headline,
        "explanation": explanation,
        "goal": goal,
        "extended": extended,
        "next_goal": next_goal or None,
    }


def resolve_grant_bonus_dice(request: Mapping, faces: FaceSource) -> dict[str, Any]:
    """PER-1: the GM grants a character circumstantial bonus dice for their next challenge.

    The table keeps the grant for the scene and that challenge rolls exactly these dice;
    `replaces` is an unused grant this one takes the place of (0 withdraws it).
    """
    data = _fields(request, ("name", "dice", "note", "replaces"), "request")
    name = _name(data, "name", "the character's name")
    dice = get_int(data, "dice", lo=0, hi=MAX_BONUS_DICE, what="the bonus dice granted")
    replaces = get_int(
        data, "replaces", lo=0, hi=MAX_BONUS_DICE, default=0, what="the grant replaced"
    )
    note = get_str(data, "note", default="", max_len=MAX_NOTE, what="the note").strip()
    if dice == 0 and replaces == 0:
        raise InvalidRequest(f"{name} has no bonus dice granted to withdraw")
    granted = _plural(dice, "bonus die", "bonus dice")
    if dice:
        headline = f"The GM grants {name} {granted} for the next challenge"
        sentences = [f"{name}'s next challenge adds {granted} to the pool (PER-1)."]
        if replaces:
            sentences.append(
                f"This replaces the {_plural(replaces, 'die', 'dice')} granted before."
            )
    else:
        headline = f"The GM withdraws {name}'s bonus dice"
        sentences = [
            f"The {_plural(replaces, 'bonus die', 'bonus dice')} granted before will not be rolled."
        ]
    if note:
        sentences.append(f"For: {note}.")
    return {
        "headline": headline,
        "explanation": " ".join(sentences),
        "name": name,
        "bonus_dice": dice,
        "replaces": replaces,
        "note": note or None,
    }


def resolve_set_difficulty(request: Mapping, faces: FaceSource) -> dict[str, Any]:
    """PER-1: the GM sets the number a challenge against a fixed number must beat, for the
    scene (or clears it); a player's challenge without a reactor takes it."""
    data = _fields(request, ("difficulty", "clear", "note"), "request")
    clear = get_bool(data, "clear")
    note = get_str(data, "note", default="", max_len=MAX_NOTE, what="the note").strip()
    if clear:
        if data.get("difficulty") is not None:
            raise InvalidRequest("give a difficulty, or clear it, not both")
        return {
            "headline": "The GM clears the difficulty",
            "explanation": "No difficulty is set: a challenge names its reactor, or waits for "
            "the GM to set a number to beat.",
            "difficulty": None,
            "note": None,
        }
    if data.get("difficulty") is None:
        raise InvalidRequest("give the difficulty to beat, or clear it")
    value = get_int(data, "difficulty", lo=1, hi=MAX_DIFFICULTY, what="the difficulty")
    sentences = [
        f"A challenge against a fixed number now has {value} to beat (PER-1): the actor's "
        "highest die plus attribute and modifiers must be higher."
    ]
    if note:
        sentences.append(f"Why: {note}.")
    return {
        "headline": f"The GM sets the difficulty to beat: {value}",
        "explanation": " ".join(sentences),
        "difficulty": value,
        "note": note or None,
    }


# --- Schemas and actions ----------------------------------------------------------------------


def _integer(meaning: str, lo: int, hi: int, default: int | None = None) -> dict[str, Any]:
    field: dict[str, Any] = {"type": "integer", "min": lo, "max": hi, "meaning": meaning}
    field.update({"required": True} if default is None else {"required": False, "default": default})
    return field


def _text(meaning: str, max_len: int, *, required: bool = False) -> dict[str, Any]:
    return {"type": "string", "max_length": max_len, "required": required, "meaning": meaning}


BANK_LIMIT_SCHEMA: dict[str, Any] = {
    "type": "integer or null",
    "min": 0,
    "max": MAX_CRITICALS,
    "required": False,
    "default": None,
    "meaning": "the campaign's limit on criticals a character keeps (null: no limit); "
    "a character already holding more keeps them but gains no more. Accepted wherever a "
    "bank is given; it matters where criticals are gained (banking, receiving a gift)",
}


def _side_schema(role: str, meaning: str, *, banks: bool) -> dict[str, Any]:
    fields: dict[str, Any] = {
        "name": _text(f"the {role}'s name (default “{role.capitalize()}”)", MAX_NAME),
        "skill": _integer("skill rating: how many d10s to roll (0 still rolls one)", 0, MAX_SKILL),
        "skill_name": _text("the skill's name, for the roll card", MAX_NAME),
        "bonus_dice": _integer("circumstantial bonus dice", 0, MAX_BONUS_DICE, 0),
        "attribute": _integer("the attribute added to the compared die", 0, MAX_ATTRIBUTE),
        "attribute_name": _text("the attribute's name, for the roll card", MAX_NAME),
        "modifiers": _integer(
            "circumstantial modifiers, added with the attribute", -MAX_MODIFIER, MAX_MODIFIER, 0
        ),
    }
    if banks:
        fields["potential_threshold"] = _integer(
            "Potential Threshold: the most criticals one roll banks", 1, MAX_THRESHOLD
        )
        fields["criticals"] = _integer("criticals banked before the roll", 0, MAX_CRITICALS, 0)
        fields["bank_limit"] = BANK_LIMIT_SCHEMA
    return {"type": "object", "required": True, "meaning": meaning, "fields": fields}


OPPOSITION_SCHEMA: dict[str, Any] = {
    "reactor": {
        **_side_schema("reactor", "the side responding; give this or difficulty", banks=False),
        "required": False,
    },
    "difficulty": {
        **_integer("a fixed number to beat instead of a reactor", 1, MAX_DIFFICULTY),
        "required": False,
    },
}

PLAN_SCHEMA: dict[str, Any] = {
    "goal": _text("the stated goal: what happens on a success", MAX_GOAL, required=True),
    "extended": {
        "type": "boolean or null",
        "required": False,
        "default": None,
        "meaning": "whether the challenge is extended; null until the actor says",
    },
    "assistants": {
        "type": "list of strings",
        "max_length": MAX_HELPERS,
        "required": False,
        "default": [],
        "meaning": "names of characters assisting; each steers the result one step",
    },
    "spend_critical": {
        "type": "choice",
        "choices": list(CRITICAL_TIMINGS),
        "required": False,
        "default": "no",
        "meaning": "before_roll: a critical buys a success with no roll; if_failed: one steers "
        "a failure to a glancing success",
    },
}

CHALLENGE = Action(
    name="challenge",
    title="Challenge",
    resolver=resolve_challenge,
    rules=("PER-1", "PER-2", "PER-3", "PER-4", "PER-5", "PER-6", "PER-7", "PER-9"),
    schema={
        "actor": _side_schema("actor", "the side issuing the challenge", banks=True),
        **OPPOSITION_SCHEMA,
        **PLAN_SCHEMA,
    },
    example={
        "actor": {
            "name": "Mara",
            "skill": 3,
            "skill_name": "Swordplay",
            "attribute": 4,
            "attribute_name": "Might",
            "potential_threshold": 3,
            "criticals": 1,
            "bank_limit": 5,
        },
        "reactor": {"name": "Cultist", "skill": 2, "attribute": 3},
        "goal": "Strike the cultist with my sword so he sustains injury",
    },
    example_faces=(10, 3, 10, 8, 6),
)

CONCERTED_EFFORT = Action(
    name="concerted_effort",
    title="Concerted effort",
    resolver=resolve_concerted_effort,
    rules=("PER-8", "PER-1", "PER-2", "PER-3", "PER-4", "PER-5", "PER-6", "PER-7", "PER-9"),
    schema={
        "coordinator": _side_schema(
            "coordinator", "the character rolling for the group", banks=True
        ),
        "contributors": {
            "type": "list of objects",
            "required": True,
            "min_length": 1,
            "max_length": MAX_HELPERS,
            "meaning": "the other characters: each adds their rating in the skill",
            "fields": {
                "name": _text("the contributor's name", MAX_NAME, required=True),
                "rating": _integer("their rating in the skill (0 adds no dice)", 0, MAX_SKILL),
                "potential_threshold": _integer("their Potential Threshold", 1, MAX_THRESHOLD),
            },
        },
        "attack": {
            "type": "boolean",
            "required": False,
            "default": False,
            "meaning": "an attack: a success deals one hit per participant",
        },
        "used_this_scene": {
            "type": "boolean",
            "required": False,
            "default": False,
            "meaning": "whether the group already made a concerted effort this scene (refused)",
        },
        **OPPOSITION_SCHEMA,
        **PLAN_SCHEMA,
    },
    example={
        "coordinator": {
            "name": "Mara",
            "skill": 3,
            "attribute": 4,
            "potential_threshold": 3,
        },
        "contributors": [
            {"name": "Bo", "rating": 2, "potential_threshold": 3},
            {"name": "Cy", "rating": 1, "potential_threshold": 4},
        ],
        "reactor": {"name": "Cultist", "skill": 2, "attribute": 3},
        "attack": True,
        "goal": "Drive the cultists back from the shore",
    },
    example_faces=(7, 9, 2, 4, 1, 8, 5),
)

SPEND_CRITICAL = Action(
    name="spend_critical",
    title="Spend a critical",
    resolver=resolve_spend_critical,
    rules=("PER-6",),
    schema={
        "name": _text("the character spending", MAX_NAME),
        "potential_threshold": _integer("their Potential Threshold", 1, MAX_THRESHOLD),
        "criticals": _integer("criticals banked now", 0, MAX_CRITICALS, 0),
        "bank_limit": BANK_LIMIT_SCHEMA,
        "use": {
            "type": "choice",
            "choices": list(CRITICAL_USES),
            "required": True,
            "meaning": "automatic_success (before rolling), steer_failure (after ties are "
            "broken), trait_or_benefit",
        },
        "result": {
            "type": "choice",
            "choices": list(GRADES),
            "required": False,
            "meaning": "for steer_failure: the result being steered (must be failure)",
        },
        "note": _text("what it is spent on (required for trait_or_benefit)", MAX_GOAL),
    },
    example={
        "name": "Mara",
        "potential_threshold": 3,
        "criticals": 2,
        "use": "steer_failure",
        "result": "failure",
    },
    rolls=False,
)

_BANK_HOLDER_SCHEMA: dict[str, Any] = {
    "name": _text("the character's name", MAX_NAME, required=True),
    "potential_threshold": _integer("their Potential Threshold", 1, MAX_THRESHOLD),
    "criticals": _integer("criticals banked now", 0, MAX_CRITICALS, 0),
    "bank_limit": BANK_LIMIT_SCHEMA,
}

GIVE_CRITICAL = Action(
    name="give_critical",
    title="Give criticals",
    resolver=resolve_give_critical,
    rules=("PER-6",),
    schema={
        "giver": {"type": "object", "required": True, "fields": _BANK_HOLDER_SCHEMA},
        "receiver": {"type": "object", "required": True, "fields": _BANK_HOLDER_SCHEMA},
        "count": _integer("how many criticals to give", 1, MAX_CRITICALS, 1),
    },
    example={
        "giver": {"name": "Mara", "potential_threshold": 3, "criticals": 2},
        "receiver": {"name": "Bo", "potential_threshold": 3, "criticals": 0, "bank_limit": 3},
    },
    rolls=False,
)

ASSIST = Action(
    name="assist",
    title="Assist",
    resolver=resolve_assist,
    rules=("PER-7",),
    schema={
        "primary_actor": _text("the character making the challenge", MAX_NAME, required=True),
        "assistants": {
            "type": "list of strings",
            "required": True,
            "min_length": 1,
            "max_length": MAX_HELPERS,
            "meaning": "names of the assistants",
        },
        "result": {
            "type": "choice",
            "choices": list(GRADES),
            "required": True,
            "meaning": "the primary actor's result before steering",
        },
    },
    example={"primary_actor": "Mara", "assistants": ["Bo"], "result": "glancing"},
    rolls=False,
)

EXTEND_CHALLENGE = Action(
    name="extend_challenge",
    title="Extend or end a challenge",
    resolver=resolve_extend_challenge,
    rules=("PER-9",),
    schema={
        "goal": _text("the goal the challenge was for", MAX_GOAL, required=True),
        "extended": {"type": "boolean", "required": True, "meaning": "whether it goes on"},
        "next_goal": _text("what the extended challenge aims for (when extended)", MAX_GOAL),
    },
    example={
        "goal": "Strike the cultist with my sword",
        "extended": True,
        "next_goal": "Talk him down by threatening to bring him to his knees",
    },
    rolls=False,
)

GRANT_BONUS_DICE = Action(
    name="grant_bonus_dice",
    title="Grant bonus dice",
    resolver=resolve_grant_bonus_dice,
    rules=("PER-1",),
    schema={
        "name": _text("the character granted the dice (the table fills it)", MAX_NAME),
        "dice": _integer(
            "bonus dice for the character's next challenge (0 withdraws a grant)",
            0,
            MAX_BONUS_DICE,
        ),
        "note": _text("what earned them, for the roll card", MAX_NOTE),
        "replaces": _integer(
            "an unused grant this one replaces (the table fills it)", 0, MAX_BONUS_DICE, 0
        ),
    },
    example={"name": "Ace", "dice": 2, "note": "the high ground"},
    rolls=False,
)

SET_DIFFICULTY = Action(
    name="set_difficulty",
    title="Set the difficulty",
    resolver=resolve_set_difficulty,
    rules=("PER-1",),
    schema={
        "difficulty": {
            **_integer(
                "the number a challenge against a fixed number must beat", 1, MAX_DIFFICULTY
            ),
            "required": False,
        },
        "clear": {
            "type": "boolean",
            "required": False,
            "default": False,
            "meaning": "clear the difficulty instead (give no difficulty then)",
        },
        "note": _text("what makes it hard, for the roll card", MAX_NOTE),
    },
    example={"difficulty": 12, "note": "the rope is frayed"},
    rolls=False,
)

ACTIONS: dict[str, Action] = {
    action.name: action
    for action in (
        CHALLENGE,
        CONCERTED_EFFORT,
        SPEND_CRITICAL,
        GIVE_CRITICAL,
        ASSIST,
        EXTEND_CHALLENGE,
        GRANT_BONUS_DICE,
        SET_DIFFICULTY,
    )
}
