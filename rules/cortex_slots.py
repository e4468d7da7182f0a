"""Cortex with Total and Effect slots, the Bank and Hitches (seed 001, CTX-1 … CTX-9).

A roll puts two dice in the Total slot, one in the Effect slot and the rest in
the Bank. Every die of a roll is kept in one list of plain dicts (die, trait,
group, faces, role), so the follow-up actions (Bank moves, bought hitches) take
that list as the state, change it, and score it again with the same code the
roll used: a logged roll and everything done to it afterwards always agree.
"""

from __future__ import annotations

from collections import Counter as Tally
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .kit.actions import Action
from .kit.dice import (
    MAX_POOL,
    Die,
    die_name,
    parse_die,
    parse_die_spec,
    parse_pool,
    parse_size,
    step_down,
    step_up,
)
from .kit.errors import InvalidRequest
from .kit.faces import FaceSource
from .kit.requests import get_bool, get_choice, get_int, get_list, get_str, require_mapping
from .kit.sheet import Counter, SheetTemplate, TraitGroup

NAME = "Cortex (Total & Effect)"

ROLLER_KINDS = ("pc", "boss", "plot", "mob")
NPC_KINDS = ("boss", "plot", "mob")
SLOTS = ("total", "effect", "bank")
GM_POOL_ROLES = ("result", "unused")
SLOT_TARGETS = ("total", "effect")
POOL_GROUP_LABELS = {
    "attributes": "an Attribute",
    "distinctions": "a Distinction",
    "skills": "a Skill",
    "assets": "an Asset",
    "talents": "a Talent",
}
REQUIRED_GROUPS = ("attributes", "distinctions", "skills")
ONE_DIE_GROUPS = ("attributes", "distinctions")
COMPOUND_HELP = (
    "A stat past d12 gains a plus die: d12+d4 up to d12+d12 (CTX-8), rolled as one entry."
)
BIG_HERO_GROUP = "big_hero"
DIFFICULTY_GROUP = "difficulty"

BOTCH_HITCHES = 3
MAX_BOUGHT_HITCHES = 3
NO_EFFECT_LEVEL = 4
SCENE_ASSET_SIZE = 6
PLOT_POINT_COST = 1
MAX_PLOT_POINTS = 99
MAX_DIFFICULTY = 99
MAX_ADVANCE_POINTS = 9999
ADVANCE_COST_FACTOR = 4
FIRST_PLUS_DIE = 4
SCENE_EXPIRY = "end_of_scene"

SHEET_TEMPLATE = SheetTemplate(
    groups=(
        TraitGroup(
            "attributes", "Attributes", "die_or_compound", default_die=6, help=COMPOUND_HELP
        ),
        TraitGroup(
            "distinctions", "Distinctions", "die_or_compound", default_die=8, help=COMPOUND_HELP
        ),
        TraitGroup("skills", "Skills", "die_or_compound", default_die=6, help=COMPOUND_HELP),
        TraitGroup(
            "assets",
            "Assets",
            "die_or_compound",
            default_die=6,
            flags=("signature",),
            help="Mark Signature Assets: only they can be raised with advance points (CTX-9), "
            "and only they go past d12 (d12+dN, CTX-8).",
        ),
        TraitGroup(
            "talents",
            "Talents",
            "die_or_compound",
            default_die=6,
            help="A relevant Talent adds its die to the pool (CTX-1). " + COMPOUND_HELP,
        ),
        TraitGroup(
            "conditions",
            "Conditions",
            "die",
            default_die=6,
            help="Conditions on this character; their size is the effect level that caused them.",
            table_owned=True,  # CTX-4: given at the table
        ),
        TraitGroup(
            BIG_HERO_GROUP,
            "Big Hero Die",
            "die",
            default_die=6,
            max_traits=1,
            help="Costs 1 plot point to add to a roll; its 1 is not a hitch (CTX-6).",
        ),
    ),
    counters=(
        Counter("plot_points", "Plot points", maximum=MAX_PLOT_POINTS, default=1, table_owned=True),
        Counter(
            "advance_points",
            "Advance points",
            maximum=MAX_ADVANCE_POINTS,
            help="Raising a stat or Signature Asset to dN costs 4×N (CTX-9).",
            table_owned=True,  # CTX-9: the GM awards them
        ),
        Counter(
            "milestones",
            "Milestone points",
            maximum=MAX_ADVANCE_POINTS,
            help="Running record of the advance points earned through milestones.",
        ),
    ),
    npc_kinds=NPC_KINDS,
)

DECISIONS: dict[str, list[str]] = {
    "CTX-1": [
        "Decision: a pool holds exactly one Attribute die and one Distinction die, one or "
        "more Skill dice, and any number of Asset and Talent dice (the seed names extra "
        "dice only for Skills, Assets and Talents).",
        "Decision: Talents are dice on the sheet, since the seed adds a die when a Talent "
        "is relevant. Conditions are dice too: their size is the effect level that made them.",
        "Decision: the difficulty is a number the GM names or a GM pool rolled with the "
        "roll. Against a player character that pool counts as a plot character's for "
        "hitches and advantages, and against a GM character as a player character's, "
        "unless the table names another kind. A GM pool rolled on its own hands the roll "
        "its result and whether it botched (CTX-4).",
    ],
    "CTX-2": [
        "Decision: when splits tie on total and effect die size, the app prefers more "
        "damage, then puts the smaller dice in the Total so the larger ones stay in the "
        "Bank for an Effect move (CTX-3), then follows the order of the pool.",
        "Decision: a die showing 1 may sit in a slot (a slot is where the GM can buy it, "
        "CTX-4) but adds nothing there: 0 to the total and no damage. An Effect slot "
        "without a counting die has level d4.",
        "Decision: the effect level and damage are reported for every roll but land only "
        "on a success; the player may choose any two dice for the Total and any other "
        "one for the Effect slot.",
        "Decision: the player may change the split after seeing the dice, as often as they "
        "like, until a die has moved from the Bank or a hitch has been bought; from then on "
        "the split is settled. Dice are numbered from #1 in pool order.",
    ],
    "CTX-3": [
        "Decision: a banked die showing 1 adds nothing, so moving it is refused rather "
        "than wasting a plot point; a d12+dN whose d12 hitched can still move for its "
        "plus die.",
        "Decision: after a botch no Bank move is allowed, since the roll has failed whatever "
        "is added.",
    ],
    "CTX-4": [
        "Decision: buying any hitch pays the player 1 plot point, a hitch in the Bank "
        "included (the seed calls both 'buying').",
        "Decision: a bought hitch becomes a token held until the end of the scene. From "
        "the Total or Effect slot the GM may add a die of its size to a difficulty pool; "
        "from the Bank the GM may give the roller a condition of its size.",
        "Decision: a GM pool that botches (3 or more hitches) is an automatic failure of "
        "the opposition: the player's roll against it succeeds whatever the totals, unless "
        "the player botched too, and then it fails.",
        "Decision: players buy a GM hitch for 1 plot point as an Opportunity token for "
        "the scene (CTX-7); a GM botch bought whole for 1 plot point also lets them add a "
        "scene-long disruption against the GM's side, and only while none of its hitches "
        "was bought alone.",
        "Decision: at most 3 hitches are bought from one roll, whoever buys them: a GM "
        "botch with more than 3 hitches bought whole buys 3 of them (the first 3 in the "
        "pool), and its other hitches cannot be bought afterwards. A player's botch needs "
        "no buying: it is an automatic failure.",
    ],
    "CTX-5": [
        "Decision: the seed gives no size for an advantage. The app records one advantage "
        "per roll with a hitch (noting a botch) against the side that rolled it, and the "
        "GM sets how far the difficulty rises.",
    ],
    "CTX-6": [
        "Decision: 'cannot fail' means the Big Hero Die itself never hitches; it does not "
        "make the roll succeed.",
        "Decision: the Big Hero Die is rolled with the pool but stays outside the "
        "two-and-one split: it joins the Total (its face is added) or the Effect slot "
        "(its face adds to damage; the larger size is the level). The app proposes the "
        "Total unless the roll already succeeds without it.",
        "Decision: a sheet holds one Big Hero Die of any size (d6 by default); only a "
        "player character rolls it, and the roll charges its plot point.",
    ],
    "CTX-7": [
        "Decision: every spend costs 1 plot point and is refused at 0. The roll charges "
        "the Big Hero Die and a Bank move charges its die through the same spend, so each "
        "appears once in the log.",
        "Decision: an Opportunity steps down one die (a difficulty die or a complication); "
        "a d4 stepped down is removed. An asset at d12 cannot step up.",
        "Decision: a player activates one of the character's own Assets in the scene, at "
        "the die on the sheet (everyone in the scene may then use it); an Asset no sheet "
        "holds is the GM's to grant, or a new d6 bought as a temporary scene asset.",
    ],
    "CTX-8": [
        "Decision: every stat can be d12+dN: Attributes, Distinctions, Skills and Talents, "
        "and Signature Assets (the same traits CTX-9 raises). A GM's pool may hold d12+dN "
        "dice too; the Big Hero Die and conditions stop at d12.",
        "Decision: when the d12 of a d12+dN shows 1 the entry is a hitch "
        "and the d12 adds nothing, but the plus die still adds its face (d12 shows 1, d6 "
        "shows 4: value 4, one hitch).",
        "Decision: in the Effect slot a d12+dN gives level d12, or the plus die's size "
        "when the d12 hitched.",
    ],
    "CTX-9": [
        "Decision: stats are Attributes, Distinctions, Skills and Talents; an Asset can "
        "be raised only when it is a Signature Asset. Raises go one step at a time.",
        "Decision: a stat or Signature Asset past d12 gains a plus die (d12 → d12+d4 → … → "
        "d12+d12), "
        "costing four times the new dice's sizes added up (d12+d4: 64).",
        "Decision: the seed sets no rate for milestones, so the GM enters the advance "
        "points they earned; they add to the advance points and to the milestone record.",
    ],
}


class NoPlotPoints(InvalidRequest):
    """A spend the roller cannot afford (CTX-7)."""


# --------------------------------------------------------------------------- fields


def _optional_int(req: Mapping, key: str, *, lo: int, hi: int) -> int | None:
    return None if req.get(key) is None else get_int(req, key, lo=lo, hi=hi)


def _optional_choice(req: Mapping, key: str, choices: tuple[str, ...]) -> str | None:
    return None if req.get(key) is None else get_choice(req, key, choices)


def _required_text(req: Mapping, key: str, *, what: str, max_len: int = 200) -> str:
    text = get_str(req, key, what=what, max_len=max_len).strip()
    if not text:
        raise InvalidRequest(f"{what} cannot be empty")
    return text


def _size_field(req: Mapping, key: str, *, what: str) -> int:
    if req.get(key) is None:
        raise InvalidRequest(f"{what} needs a die size, like d8")
    return parse_size(req[key])


def _position(req: Mapping, key: str, count: int, *, what: str) -> int:
    """A 0-based index into a roll's dice, refused in the 1-based numbers players see."""
    value = req.get(key)
    if value is None:
        raise InvalidRequest(f"{what} is required: give its number in the roll")
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidRequest(f"{what} must be given by its number in the roll")
    if not 0 <= value < count:
        raise InvalidRequest(
            f"{what} must be one of dice #1 to #{count}; this roll has no die #{value + 1}"
        )
    return value


def _difficulty_fields(req: Mapping) -> tuple[int | None, bool]:
    """The difficulty a roll is scored against, and whether the GM's pool for it botched."""
    difficulty = _optional_int(req, "difficulty", lo=0, hi=MAX_DIFFICULTY)
    botched = get_bool(req, "difficulty_botch")
    if botched and difficulty is None:
        raise InvalidRequest("a botched GM pool still needs its difficulty: give the difficulty")
    return difficulty, botched


def _plot_points(req: Mapping) -> int:
    return get_int(req, "plot_points", lo=0, hi=MAX_PLOT_POINTS)


def _spend(plot_points: int, kind: str) -> int:
    """CTX-7: every spend costs one plot point and is refused without one."""
    if plot_points < PLOT_POINT_COST:
        raise NoPlotPoints(f"you have no plot point left to {SPEND_KINDS[kind]}")
    return plot_points - PLOT_POINT_COST


# --------------------------------------------------------------------------- rolled dice


@dataclass(frozen=True)
class RolledDie:
    """One pool entry after rolling, with the slot it sits in.

    CTX-4/CTX-6/CTX-8: a face of 1 is a hitch and counts nothing, except on the
    Big Hero Die; a compound d12+dN's plus die always adds its face.
    """

    die: Die
    face: int
    plus_face: int | None = None
    role: str = "bank"
    bought: bool = False
    from_bank: bool = False

    @property
    def hitch(self) -> bool:
        return self.face == 1 and not self.die.big_hero

    @property
    def value(self) -> int:
        return (0 if self.hitch else self.face) + (self.plus_face or 0)

    @property
    def level(self) -> int | None:
        """The size this entry lends an Effect slot: its largest die that counted."""
        return self.die.plus if self.hitch else self.die.size

    @property
    def strength(self) -> int:
        return self.die.size + (self.die.plus or 0)

    def describe(self) -> str:
        if self.plus_face is None:
            shown = f"{self.face}, a hitch" if self.hitch else str(self.face)
        elif self.hitch:
            shown = f"1+{self.plus_face}: the d12's 1 is a hitch, value {self.value}"
        else:
            shown = f"{self.face}+{self.plus_face}={self.value}"
        return f"{self.die.label} ({shown})"

    def to_json(self) -> dict[str, Any]:
        return {
            "die": self.die.name,
            "trait": self.die.trait,
            "group": self.die.group,
            "face": self.face,
            "plus_face": self.plus_face,
            "value": self.value,
            "hitch": self.hitch,
            "role": self.role,
            "big_hero": self.die.big_hero,
            "bought": self.bought,
            "from_bank": self.from_bank,
        }


def roll_entry(die: Die, faces: FaceSource) -> RolledDie:
    """CTX-8: a compound entry draws the d12 first, then its plus die."""
    face = faces.draw(die.size)
    plus_face = None if die.plus is None else faces.draw(die.plus)
    return RolledDie(die=die, face=face, plus_face=plus_face)


def parse_rolled_dice(value: object, roles: tuple[str, ...]) -> list[RolledDie]:
    """Read back a roll's "dice" list (the state of a roll), checking every face fits its die."""
    if not isinstance(value, list | tuple) or not value:
        raise InvalidRequest("dice must be the list of dice from the roll")
    if len(value) > MAX_POOL + 1:
        raise InvalidRequest(f"a roll holds at most {MAX_POOL + 1} dice")
    dice = []
    for number, raw in enumerate(value, start=1):
        entry = require_mapping(raw, f"die #{number}")
        big_hero = get_bool(entry, "big_hero")
        die = parse_die(entry, allow_compound=not big_hero)
        if big_hero:
            die = replace(die, big_hero=True)
        face = get_int(entry, "face", lo=1, hi=die.size, what=f"the face of {die.label}")
        plus_face = None
        if die.plus is not None:
            plus_face = get_int(
                entry, "plus_face", lo=1, hi=die.plus, what=f"the plus die face of {die.label}"
            )
        dice.append(
            RolledDie(
                die=die,
                face=face,
                plus_face=plus_face,
                role=get_choice(entry, "role", roles),
                bought=get_bool(entry, "bought"),
                from_bank=get_bool(entry, "from_bank"),
            )
        )
    if sum(d.die.big_hero for d in dice) > 1:
        raise InvalidRequest("a roll has at most one Big Hero Die")
    return dice


def _parse_slotted_dice(value: object) -> list[RolledDie]:
    dice = parse_rolled_dice(value, SLOTS)
    roles = Tally(d.role for d in dice if not d.die.big_hero)
    if roles["total"] < 2 or roles["effect"] < 1:
        raise InvalidRequest("a roll needs two dice in the Total slot and one in the Effect slot")
    if any(d.die.big_hero and d.role == "bank" for d in dice):
        raise InvalidRequest("the Big Hero Die sits in the Total or the Effect slot, not the Bank")
    return dice


# --------------------------------------------------------------------------- scoring


@dataclass(frozen=True)
class Tallied:
    """What the slots add up to (CTX-2, CTX-3, CTX-4).

    `difficulty_botch`: the GM's pool that set the difficulty botched (CTX-4).
    """

    total: int
    effect_level: int
    damage: int
    hitches: int
    botch: bool
    difficulty: int | None
    difficulty_botch: bool = False

    @property
    def success(self) -> bool | None:
        """Strictly greater than the difficulty (CTX-2). CTX-4: a botch always fails; a
        botched GM pool is the opposition's automatic failure, so the roll succeeds."""
        if self.botch:
            return False
        if self.difficulty_botch:
            return True
        return None if self.difficulty is None else self.total > self.difficulty

    def to_json(self) -> dict[str, Any]:
        return {
            "total": self.total,
            "effect_level": die_name(self.effect_level),
            "damage": self.damage,
            "hitches": self.hitches,
            "botch": self.botch,
            "difficulty": self.difficulty,
            "difficulty_botch": self.difficulty_botch,
            "success": self.success,
            "margin": None if self.difficulty is None else self.total - self.difficulty,
        }


def tally(
    dice: Sequence[RolledDie], difficulty: int | None, difficulty_botch: bool = False
) -> Tallied:
    """Score the slots: the Total adds values; the Effect adds damage, its largest size is the level."""
    effect = [d for d in dice if d.role == "effect"]
    levels = [d.level for d in effect if d.level is not None]
    hitches = sum(d.hitch for d in dice)
    return Tallied(
        total=sum(d.value for d in dice if d.role == "total"),
        effect_level=max(levels, default=NO_EFFECT_LEVEL),
        damage=sum(d.value for d in effect),
        hitches=hitches,
        botch=hitches >= BOTCH_HITCHES,
        difficulty=difficulty,
        difficulty_botch=difficulty_botch,
    )


def _best_first(dice: Sequence[RolledDie], candidates: Sequence[int]) -> list[int]:
    """Highest value first; among equals the smaller die, then pool order."""
    return sorted(candidates, key=lambda i: (-dice[i].value, dice[i].strength, i))


def _pair(indices: Sequence[int]) -> tuple[int, int]:
    low, high = sorted(indices)
    return low, high


@dataclass(frozen=True)
class Split:
    """Which pool entries go to the Total and Effect slots (CTX-2); the rest are banked.

    `total` is kept in ascending order so equal splits compare equal.
    """

    total: tuple[int, int]
    effect: int
    big_hero: str | None = None

    def role_of(self, index: int) -> str:
        if index in self.total:
            return "total"
        return "effect" if index == self.effect else "bank"

    def to_json(self) -> dict[str, Any]:
        return {"total": list(self.total), "effect": self.effect, "big_hero": self.big_hero}


def best_split(dice: Sequence[RolledDie]) -> Split:
    """CTX-2: highest total, then largest effect die, then most damage.

    Further ties put the smaller dice in the Total (the larger stay banked for
    a CTX-3 move), then follow pool order. Whatever die takes the Effect slot,
    the best Total is the two highest of the rest, so only the three highest
    dice ever need looking at for the Total. CTX-1 pools hold three dice or more.
    """
    top_three = _best_first(dice, range(len(dice)))[:3]

    def total_without(effect: int) -> list[int]:
        return [i for i in top_three if i != effect][:2]

    def preference(effect: int) -> tuple[int, ...]:
        total = total_without(effect)
        chosen = dice[effect]
        return (
            -sum(dice[i].value for i in total),
            -(chosen.level or NO_EFFECT_LEVEL),
            -chosen.value,
            sum(dice[i].strength for i in total),
            effect,
        )

    effect = min(range(len(dice)), key=preference)
    return Split(total=_pair(total_without(effect)), effect=effect)


def propose_big_hero_slot(
    dice: Sequence[RolledDie], difficulty: int | None, difficulty_botch: bool = False
) -> str:
    """CTX-6: the Big Hero Die helps the Total, unless the roll already succeeds without it."""
    if difficulty is not None and tally(dice, difficulty, difficulty_botch).success:
        return "effect"
    return "total"


def parse_split(
    value: object, pool_size: int, has_big_hero: bool, big_hero_index: int | None = None
) -> Split | None:
    """The player's own split (CTX-2): two different dice for Total, one for Effect.

    Indices are 0-based in the request; messages number the dice from #1, as players
    see them. `big_hero_index` is where a kept roll lists its Big Hero Die, which is
    placed with `big_hero` rather than by number.
    """
    if value is None:
        return None
    req = require_mapping(value, "split")
    total = get_list(req, "total", max_len=2)
    if len(total) != 2 or any(isinstance(i, bool) or not isinstance(i, int) for i in total):
        raise InvalidRequest("the Total slot takes exactly two dice, given by their numbers")
    for index in total:
        if not 0 <= index < pool_size:
            raise InvalidRequest(
                f"the Total slot's dice must be among dice #1 to #{pool_size}; "
                f"there is no die #{index + 1}"
            )
    effect = _position(req, "effect", pool_size, what="the Effect slot's die")
    if total[0] == total[1]:
        raise InvalidRequest(
            f"die #{total[0] + 1} is named twice: the Total slot takes two different dice"
        )
    if effect in total:
        raise InvalidRequest(
            f"die #{effect + 1} is in the Total slot; a die can sit in only one slot"
        )
    if big_hero_index is not None and big_hero_index in (*total, effect):
        raise InvalidRequest(
            f"die #{big_hero_index + 1} is the Big Hero Die: place it with big_hero "
            "(total or effect), not by number"
        )
    big_hero = _optional_choice(req, "big_hero", SLOT_TARGETS)
    if big_hero is not None and not has_big_hero:
        raise InvalidRequest("there is no Big Hero Die in this roll to place")
    return Split(total=_pair(total), effect=effect, big_hero=big_hero)


# --------------------------------------------------------------------------- hitches and advantages


def advantage(roller_kind: str, hitches: int, botch: bool) -> dict[str, Any] | None:
    """CTX-5: a hitch or botch by a PC, boss or plot character raises their side's difficulty.

    Mobs never produce advantages.
    """
    if not hitches or roller_kind == "mob":
        return None
    side = "players" if roller_kind == "pc" else "gm"
    cause = "a botch" if botch else ("a hitch" if hitches == 1 else f"{hitches} hitches")
    return {
        "raises_difficulty_for": side,
        "roller_kind": roller_kind,
        "hitches": hitches,
        "botch": botch,
        "text": f"Advantage against the {'players' if side == 'players' else 'GM'}: the "
        f"difficulty rises for the side that rolled {cause}.",
    }


def hitch_buyer(roller_kind: str) -> str:
    """CTX-4: the GM buys players' hitches; players buy the GM side's."""
    return "gm" if roller_kind == "pc" else "players"


def _count_hitches(hitches: int) -> str:
    return "1 hitch" if hitches == 1 else f"{hitches} hitches"


# --------------------------------------------------------------------------- GM pool


def parse_gm_pool(value: object) -> list[Die]:
    pool = parse_pool(value, allow_compound=True, default_group=DIFFICULTY_GROUP, what="GM pool")
    if not pool:
        raise InvalidRequest("the GM pool needs at least one die")
    return pool


def roll_gm_pool(pool: Sequence[Die], faces: FaceSource) -> list[RolledDie]:
    """CTX-1: a difficulty pool's result is its two highest dice not showing 1."""
    rolled = [roll_entry(d, faces) for d in pool]
    counted = _best_first(rolled, [i for i, d in enumerate(rolled) if d.value > 0])[:2]
    return [replace(d, role="result" if i in counted else "unused") for i, d in enumerate(rolled)]


def gm_pool_fields(dice: Sequence[RolledDie], roller_kind: str) -> dict[str, Any]:
    """The GM pool's result with its hitches and botch, which the players may buy (CTX-4).

    A botch is the opposition's automatic failure: the roll against it succeeds
    unless that roll botched too.
    """
    hitches = sum(d.hitch for d in dice)
    botch = hitches >= BOTCH_HITCHES
    return {
        "result": sum(d.value for d in dice if d.role == "result"),
        "dice": [d.to_json() for d in dice],
        "hitches": hitches,
        "botch": botch,
        "automatic_failure": botch,
        "roller_kind": roller_kind,
        "hitch_buyer": hitch_buyer(roller_kind),
        "advantage": advantage(roller_kind, hitches, botch),
    }


def _describe_all(dice: Sequence[RolledDie]) -> str:
    return ", ".join(d.describe() for d in dice)


def resolve_gm_pool(request: Mapping, faces: FaceSource) -> dict[str, Any]:
    """CTX-1 GM difficulty pool, with its hitches and botch for players to buy (CTX-4, CTX-5)."""
    pool = parse_gm_pool(request.get("pool"))
    roller_kind = get_choice(request, "roller_kind", NPC_KINDS, default="plot")
    dice = roll_gm_pool(pool, faces)
    fields = gm_pool_fields(dice, roller_kind)
    headline = f"Difficulty {fields['result']}"
    if fields["botch"]:
        headline += " — a botch: the GM's side fails automatically"
    elif fields["hitches"]:
        headline += f" — {_count_hitches(fields['hitches'])} the players can buy"
    explanation = (
        f"The GM rolled {_describe_all(dice)}. The two highest dice not showing 1 make the "
        f"difficulty: {fields['result']}."
    )
    if fields["botch"]:
        explanation += (
            f" {fields['hitches']} hitches make a botch: an automatic failure for the GM's "
            "side, so the roll against it succeeds unless it botches too. The players may "
            "also buy the botch for a plot point to add a scene-long disruption."
        )
    if fields["advantage"]:
        explanation += " " + fields["advantage"]["text"]
    return {"headline": headline, "explanation": explanation, **fields}


# --------------------------------------------------------------------------- the roll


def parse_player_pool(value: object) -> list[Die]:
    """CTX-1: one Attribute, one Distinction, one or more Skills, any Assets and Talents."""
    pool = parse_pool(value, allow_compound=True, what="pool")
    for die in pool:
        if die.group not in POOL_GROUP_LABELS:
            raise InvalidRequest(
                f"{die.label} must come from the sheet's attributes, distinctions, skills, "
                "assets or talents"
            )
    counts = Tally(d.group for d in pool)
    for group in REQUIRED_GROUPS:
        if not counts[group]:
            raise InvalidRequest(f"a Cortex roll needs {POOL_GROUP_LABELS[group]} die")
    for group in ONE_DIE_GROUPS:
        if counts[group] > 1:
            raise InvalidRequest(f"a Cortex roll takes only one {group[:-1].title()} die")
    return pool


def parse_big_hero(value: object) -> Die | None:
    if value is None:
        return None
    die = parse_die(value, default_group=BIG_HERO_GROUP)
    return replace(die, trait=die.trait or "Big Hero Die", group=BIG_HERO_GROUP, big_hero=True)


def _roll_headline(scored: Tallied) -> str:
    if scored.botch:
        return f"Botch! {scored.hitches} hitches — automatic failure, the GM adds a disruption"
    against = "" if scored.difficulty is None else f" vs {scored.difficulty}"
    effect = f"effect {die_name(scored.effect_level)} ({scored.damage} damage)"
    if scored.success is False:
        line = f"Total {scored.total}{against} — failure"
    elif scored.success and scored.difficulty_botch:
        line = f"Total {scored.total}{against} — success (the GM's pool botched), {effect}"
    elif scored.success:
        line = f"Total {scored.total}{against} — success, {effect}"
    else:
        line = f"Total {scored.total}, {effect}"
    return line + (f", {_count_hitches(scored.hitches)}" if scored.hitches else "")


def _slot_account(dice: Sequence[RolledDie], scored: Tallied) -> str:
    """A plain account of what sits in each slot and what it adds up to."""

    def listed(role: str) -> str:
        return " and ".join(d.describe() for d in dice if d.role == role) or "nothing"

    parts = [
        f"Total slot: {listed('total')} for {scored.total}.",
        f"Effect slot: {listed('effect')}: level {die_name(scored.effect_level)}, "
        f"{scored.damage} damage.",
        f"Bank: {listed('bank')}.",
    ]
    if scored.botch:
        parts.append(
            f"{scored.hitches} hitches make a botch: automatic failure, and the GM adds a "
            "scene-long disruption."
        )
        if scored.difficulty_botch:
            parts.append(
                "The GM's pool botched too, but a botch fails whatever the other side rolled."
            )
    elif scored.difficulty_botch:
        parts.append(
            "The GM's pool botched: an automatic failure for the opposition, so the roll succeeds."
        )
    elif scored.success is not None:
        verdict = "beats" if scored.success else "does not beat"
        parts.append(
            f"{scored.total} {verdict} {scored.difficulty}: {'success' if scored.success else 'failure'}."
        )
    return " ".join(parts)


def _placed(rolled: Sequence[RolledDie], split: Split) -> list[RolledDie]:
    return [replace(d, role=split.role_of(i)) for i, d in enumerate(rolled)]


def _banked(dice: Sequence[RolledDie]) -> list[int]:
    """The numbers (0-based, in the roll's order) of the dice left in the Bank (CTX-2)."""
    return [i for i, d in enumerate(dice) if d.role == "bank"]


def _split_dice(
    pool: Sequence[RolledDie],
    positions: Sequence[int],
    hero: RolledDie | None,
    chosen: Split | None,
    difficulty: int | None,
    difficulty_botch: bool,
) -> tuple[list[RolledDie], Split, Split]:
    """CTX-2, CTX-6: place a rolled pool by the player's split (or the proposed best one).

    `pool` holds the dice that take part in the split; `positions` says where each sits in
    the roll's list of dice, which the splits name. The Big Hero Die joins the slot the
    split names, or the proposed one. Returns the roll's dice (the Big Hero Die back at
    its own place) with the split used and the split proposed.
    """
    best = best_split(pool)
    proposed = Split(total=_pair([positions[i] for i in best.total]), effect=positions[best.effect])
    split = chosen or proposed
    by_position = {p: i for i, p in enumerate(positions)}
    local = Split(
        total=_pair([by_position[p] for p in split.total]),
        effect=by_position[split.effect],
        big_hero=split.big_hero,
    )
    placed = _placed(pool, local)
    if hero is not None:
        proposed = replace(
            proposed,
            big_hero=propose_big_hero_slot(_placed(pool, best), difficulty, difficulty_botch),
        )
        if split.big_hero is None:
            split = replace(
                split, big_hero=propose_big_hero_slot(placed, difficulty, difficulty_botch)
            )
    size = len(pool) + (hero is not None)
    dice: list[RolledDie] = []
    for index in range(size):
        if index in by_position:
            dice.append(placed[by_position[index]])
        elif hero is not None:
            dice.append(replace(hero, role=split.big_hero))
    return dice, split, proposed


def resolve_roll(request: Mapping, faces: FaceSource) -> dict[str, Any]:
    """CTX-1 … CTX-6, CTX-8: roll the pool, propose the best split, score the slots.

    Faces are drawn in pool order (a d12+dN draws the d12, then its plus die),
    then the Big Hero Die, then the GM pool.
    """
    pool = parse_player_pool(get_list(request, "pool"))
    roller_kind = get_choice(request, "roller_kind", ROLLER_KINDS, default="pc")
    big_hero = parse_big_hero(request.get("big_hero"))
    plot_points = _optional_int(request, "plot_points", lo=0, hi=MAX_PLOT_POINTS)
    spends = []
    if big_hero is not None:
        if roller_kind != "pc":
            raise InvalidRequest("only a player character has a Big Hero Die")
        if plot_points is None:
            raise InvalidRequest("say how many plot points you have to add the Big Hero Die")
        plot_points = _spend(plot_points, "big_hero_die")
        spends.append({"kind": "big_hero_die", "cost": PLOT_POINT_COST, "die": big_hero.name})
    difficulty, difficulty_botch = _difficulty_fields(request)
    gm_pool = request.get("difficulty_pool")
    if gm_pool is not None:
        if difficulty is not None:
            raise InvalidRequest("give either a difficulty number or a GM pool, not both")
        gm_pool = parse_gm_pool(gm_pool)
    default_gm_kind = "plot" if roller_kind == "pc" else "pc"
    gm_kind = get_choice(request, "difficulty_kind", ROLLER_KINDS, default=default_gm_kind)
    chosen = parse_split(request.get("split"), len(pool), big_hero is not None)

    rolled = [roll_entry(d, faces) for d in pool]
    hero = None if big_hero is None else roll_entry(big_hero, faces)
    gm_dice = None if gm_pool is None else roll_gm_pool(gm_pool, faces)
    gm = None if gm_dice is None else gm_pool_fields(gm_dice, gm_kind)
    if gm is not None:
        difficulty, difficulty_botch = gm["result"], gm["botch"]

    pool_positions = list(range(len(rolled)))
    dice, split, proposed = _split_dice(
        rolled, pool_positions, hero, chosen, difficulty, difficulty_botch
    )
    scored = tally(dice, difficulty, difficulty_botch)
    roll_advantage = advantage(roller_kind, scored.hitches, scored.botch)

    explanation = [f"Rolled {_describe_all(dice)}."]
    if gm_dice is not None:
        explanation.append(
            f"The GM's pool ({_describe_all(gm_dice)}) set the difficulty at {difficulty}."
        )
    explanation.append(
        ("Best split. " if split == proposed else "Your split. ") + _slot_account(dice, scored)
    )
    if roll_advantage:
        explanation.append(roll_advantage["text"])
    return {
        "headline": _roll_headline(scored),
        "explanation": " ".join(explanation),
        "dice": [d.to_json() for d in dice],
        **scored.to_json(),
        "bank": _banked(dice),
        "proposed_split": proposed.to_json(),
        "split": split.to_json(),
        "split_is_proposed": split == proposed,
        "roller_kind": roller_kind,
        "hitch_buyer": hitch_buyer(roller_kind),
        "advantage": roll_advantage,
        "difficulty_pool": gm,
        "spends": spends,
        "plot_points": plot_points,
    }


# --------------------------------------------------------------------------- changing the split


def resolve_resplit(request: Mapping, faces: FaceSource) -> dict[str, Any]:
    """CTX-2: after seeing the dice the player changes the split; no dice are rolled.

    Takes the roll's kept dice (the outcome's "dice") and the new split, and scores the
    slots again exactly as the roll would have with that split (CTX-4 botches, CTX-6
    Big Hero Die, CTX-8 compound dice). Once a die has moved from the Bank or a hitch has
    been bought, the split is settled.
    """
    dice = _parse_slotted_dice(request.get("dice"))
    for number, die in enumerate(dice, start=1):
        if die.from_bank:
            raise InvalidRequest(
                f"die #{number} has already moved from the Bank, so the split is settled"
            )
        if die.bought:
            raise InvalidRequest(
                f"the hitch on die #{number} has already been bought, so the split is settled"
            )
    hero_index = next((i for i, d in enumerate(dice) if d.die.big_hero), None)
    chosen = parse_split(request.get("split"), len(dice), hero_index is not None, hero_index)
    if chosen is None:
        raise InvalidRequest(
            "the new split is required: two dice for the Total, one for the Effect"
        )
    difficulty, difficulty_botch = _difficulty_fields(request)
    positions = [i for i in range(len(dice)) if i != hero_index]
    pool = [replace(dice[i], role="bank") for i in positions]
    hero = None if hero_index is None else dice[hero_index]
    before = tally(dice, difficulty, difficulty_botch)
    placed, split, proposed = _split_dice(
        pool, positions, hero, chosen, difficulty, difficulty_botch
    )
    scored = tally(placed, difficulty, difficulty_botch)
    change = f"Total {before.total} → {scored.total}, effect {die_name(scored.effect_level)}"
    return {
        "headline": f"Split changed — {_roll_headline(scored)}",
        "explanation": f"Split changed ({change}). "
        + ("Best split. " if split == proposed else "Your split. ")
        + _slot_account(placed, scored),
        "dice": [d.to_json() for d in placed],
        **scored.to_json(),
        "bank": _banked(placed),
        "proposed_split": proposed.to_json(),
        "split": split.to_json(),
        "split_is_proposed": split == proposed,
    }


# --------------------------------------------------------------------------- the Bank


def resolve_bank_move(request: Mapping, faces: FaceSource) -> dict[str, Any]:
    """CTX-3: for 1 plot point, a banked die joins the Total ("second wind") or the Effect slot."""
    dice = _parse_slotted_dice(request.get("dice"))
    index = _position(request, "index", len(dice), what="the banked die")
    target = get_choice(request, "to", SLOT_TARGETS)
    plot_points = _plot_points(request)
    difficulty, difficulty_botch = _difficulty_fields(request)
    before = tally(dice, difficulty, difficulty_botch)
    if before.botch:
        raise InvalidRequest("this roll botched: no Bank move can save it")
    moved = dice[index]
    if moved.role != "bank":
        raise InvalidRequest(f"{moved.die.label} is not in the Bank")
    if moved.value == 0:
        raise InvalidRequest(
            f"{moved.describe()} adds nothing, so moving it would waste a plot point"
        )
    plot_points = _spend(plot_points, "bank_die")
    dice[index] = replace(moved, role=target, from_bank=True)
    scored = tally(dice, difficulty, difficulty_botch)
    if target == "total":
        change = f"second wind: {moved.describe()} joins the Total, {before.total} → {scored.total}"
    else:
        change = (
            f"{moved.describe()} joins the Effect slot: damage {before.damage} → {scored.damage}, "
            f"level {die_name(scored.effect_level)}"
        )
    return {
        "headline": f"Bank move — {change}",
        "explanation": f"Spent 1 plot point to {SPEND_KINDS['bank_die']}; {change}. "
        + _slot_account(dice, scored),
        "dice": [d.to_json() for d in dice],
        **scored.to_json(),
        "bank": _banked(dice),
        "moved": index,
        "to": target,
        "spend": {"kind": "bank_die", "cost": PLOT_POINT_COST, "die": moved.die.name},
        "plot_points": plot_points,
    }


# --------------------------------------------------------------------------- buying hitches


def _held_token(die: RolledDie, holder: str, use: str, scene: str) -> dict[str, Any]:
    """CTX-4: a bought hitch is kept for the scene only; the table drops it when the scene ends."""
    return {
        "die": die_name(die.die.size),
        "source": die.die.label,
        "held_by": holder,
        "use": use,
        "scene": scene,
        "expires": SCENE_EXPIRY,
    }


HELD_USES = {
    "difficulty": "add a die of this size to a difficulty pool",
    "condition": "give the roller a condition of this size",
    "opportunity": "step down a difficulty or a complication on a character (Opportunity)",
    "disruption": "add a scene-long disruption against the GM's side",
}


def _hitches_to_buy(
    request: Mapping, dice: Sequence[RolledDie], buyer: str, buying_botch: bool
) -> tuple[list[int], str]:
    """Which dice a purchase takes, and what the buyer may then do with it (CTX-4)."""
    bought_before = sum(d.bought for d in dice)
    if bought_before >= MAX_BOUGHT_HITCHES:
        raise InvalidRequest(
            f"{MAX_BOUGHT_HITCHES} hitches have already been bought from this roll"
        )
    if buying_botch:
        hitches = [i for i, d in enumerate(dice) if d.hitch]
        if len(hitches) < BOTCH_HITCHES:
            raise InvalidRequest("this roll is not a botch: it has fewer than 3 hitches")
        if bought_before:
            raise InvalidRequest("a hitch of this botch was already bought, so the botch cannot be")
        return hitches[:MAX_BOUGHT_HITCHES], "disruption"
    index = _position(request, "index", len(dice), what="the hitch")
    hitch = dice[index]
    if not hitch.hitch:
        raise InvalidRequest(f"{hitch.describe()} is not a hitch")
    if hitch.bought:
        raise InvalidRequest(f"{hitch.die.label}'s hitch has already been bought")
    if buyer == "players":
        return [index], "opportunity"
    return [index], "condition" if hitch.role == "bank" else "difficulty"


def resolve_buy_hitch(request: Mapping, faces: FaceSource) -> dict[str, Any]:
    """CTX-4: the GM buys a player's hitch (player +1 PP), or players buy the GM's (−1 PP).

    At most 3 per roll, a GM botch bought whole included (it buys its first 3 hitches);
    bought hitches are held for the scene only.
    """
    buyer = get_choice(request, "buyer", ("gm", "players"))
    plot_points = _plot_points(request)
    scene = get_str(request, "scene", default="", max_len=80)
    buying_botch = get_bool(request, "botch")
    if buyer == "gm":
        if buying_botch:
            raise InvalidRequest("a player's botch needs no buying: it is an automatic failure")
        dice = _parse_slotted_dice(request.get("dice"))
    else:
        dice = parse_rolled_dice(request.get("dice"), SLOTS + GM_POOL_ROLES)
    bought, use = _hitches_to_buy(request, dice, buyer, buying_botch)
    source = dice[bought[0]]
    for i in bought:
        dice[i] = replace(dice[i], bought=True)

    if buyer == "gm":
        plot_points += PLOT_POINT_COST
        if plot_points > MAX_PLOT_POINTS:
            raise InvalidRequest(f"a character holds at most {MAX_PLOT_POINTS} plot points")
        spend = None
        deal = f"The GM buys {source.describe()}: you gain 1 plot point"
    else:
        plot_points = _spend(plot_points, "opportunity")
        spend = {"kind": "opportunity", "cost": PLOT_POINT_COST}
        what = "the GM's botch" if buying_botch else f"the GM's hitch on {source.die.label}"
        deal = f"You spend 1 plot point to buy {what}"
        hitches = sum(d.hitch for d in dice)
        if buying_botch and hitches > len(bought):
            deal += (
                f" ({len(bought)} of its {hitches} hitches: at most {MAX_BOUGHT_HITCHES} "
                "are bought from one roll)"
            )
    held = _held_token(source, buyer, use, scene)
    holder = "The GM" if buyer == "gm" else "You"
    size = f" ({held['die']})" if use in ("difficulty", "condition") else ""
    return {
        "headline": f"{'Botch' if buying_botch else 'Hitch'} bought — {HELD_USES[use]}",
        "explanation": f"{deal}. {holder} may {HELD_USES[use]}{size} until the scene ends, "
        "when bought hitches expire.",
        "dice": [d.to_json() for d in dice],
        "buyer": buyer,
        "bought": bought,
        "bought_this_roll": sum(d.bought for d in dice),
        "held": held,
        "spend": spend,
        "plot_points": plot_points,
        "scene_scoped": True,
    }


# --------------------------------------------------------------------------- plot point spends


SPEND_KINDS = {
    "scene_change": "change the scene or trigger a special effect",
    "opportunity": "activate an Opportunity",
    "step_up_asset": "step up an asset",
    "activate_asset": "activate an asset in the scene",
    "big_hero_die": "add the Big Hero Die",
    "scene_asset": "create a temporary d6 asset",
    "bank_die": "pull a die from the Bank",
    "stay_in_fight": "stay in the fight",
}


def _asset_name(req: Mapping) -> str:
    return _required_text(req, "asset", what="the asset's name", max_len=80)


def _spend_scene_change(req: Mapping) -> tuple[dict[str, Any], str]:
    text = _required_text(req, "description", what="what changes")
    return {"description": text}, f"changes the scene: {text}"


def _spend_opportunity(req: Mapping) -> tuple[dict[str, Any], str]:
    target = get_choice(req, "target", ("difficulty", "complication"))
    size = _size_field(req, "die", what=f"the {target} to step down")
    stepped = step_down(size)
    if stepped is None:
        return {"target": target, "die": die_name(size), "stepped_to": None}, (
            f"steps down a d{size} {target}, which is removed"
        )
    return {"target": target, "die": die_name(size), "stepped_to": die_name(stepped)}, (
        f"steps down a d{size} {target} to d{stepped}"
    )


def _spend_step_up_asset(req: Mapping) -> tuple[dict[str, Any], str]:
    name = _asset_name(req)
    size = _size_field(req, "die", what=name)
    if size == 12:
        raise InvalidRequest(f"{name} is already d12 and cannot step up")
    new = step_up(size)
    return {"asset": name, "die": die_name(size), "stepped_to": die_name(new)}, (
        f"steps up {name} from d{size} to d{new}"
    )


def _spend_activate_asset(req: Mapping) -> tuple[dict[str, Any], str]:
    name = _asset_name(req)
    size = _size_field(req, "die", what=name)
    return {"asset": name, "die": die_name(size), "expires": SCENE_EXPIRY}, (
        f"activates {name} d{size} for this scene"
    )


def _spend_big_hero(req: Mapping) -> tuple[dict[str, Any], str]:
    size = _size_field(req, "die", what="the Big Hero Die")
    return {"die": die_name(size)}, f"adds the Big Hero Die d{size}"


def _spend_scene_asset(req: Mapping) -> tuple[dict[str, Any], str]:
    name = _asset_name(req)
    return {"asset": name, "die": die_name(SCENE_ASSET_SIZE), "expires": SCENE_EXPIRY}, (
        f"creates {name} d{SCENE_ASSET_SIZE} until the scene ends"
    )


def _spend_bank_die(req: Mapping) -> tuple[dict[str, Any], str]:
    target = get_choice(req, "to", SLOT_TARGETS)
    return {"to": target}, f"pulls a die from the Bank into the {target.title()} slot"


def _spend_stay_in_fight(req: Mapping) -> tuple[dict[str, Any], str]:
    text = get_str(req, "description", default="", max_len=200).strip()
    return {"description": text}, "stays in the fight after being taken out" + (
        f": {text}" if text else ""
    )


SPEND_DETAILS: dict[str, Callable[[Mapping], tuple[dict[str, Any], str]]] = {
    "scene_change": _spend_scene_change,
    "opportunity": _spend_opportunity,
    "step_up_asset": _spend_step_up_asset,
    "activate_asset": _spend_activate_asset,
    "big_hero_die": _spend_big_hero,
    "scene_asset": _spend_scene_asset,
    "bank_die": _spend_bank_die,
    "stay_in_fight": _spend_stay_in_fight,
}


def resolve_spend(request: Mapping, faces: FaceSource) -> dict[str, Any]:
    """CTX-7: one plot point for one of the seed's spends, validated and described for the log."""
    kind = get_choice(request, "kind", tuple(SPEND_KINDS))
    plot_points = _plot_points(request)
    fields, sentence = SPEND_DETAILS[kind](request)
    plot_points = _spend(plot_points, kind)
    return {
        "headline": f"Plot point spent — {sentence}",
        "explanation": f"Spent 1 plot point to {SPEND_KINDS[kind]}: {sentence}. "
        f"{plot_points} plot point{'' if plot_points == 1 else 's'} left.",
        "kind": kind,
        "cost": PLOT_POINT_COST,
        **fields,
        "plot_points": plot_points,
    }


# --------------------------------------------------------------------------- advancement


RAISABLE_GROUPS = ("attributes", "distinctions", "skills", "talents", "assets")
COMPOUND_GROUPS = RAISABLE_GROUPS


def advance_cost(size: int, plus: int | None = None) -> int:
    """CTX-9: raising a stat or Signature Asset to dN costs 4×N (to d8: 32; d12+d4: 64)."""
    return ADVANCE_COST_FACTOR * (size + (plus or 0))


def next_step(size: int, plus: int | None, *, compound_allowed: bool) -> tuple[int, int | None]:
    """One step up; a stat or Signature Asset goes past d12 by gaining a plus die (CTX-8, CTX-9)."""
    if plus is not None:
        if plus == 12:
            raise InvalidRequest("d12+d12 is as high as a stat goes")
        return 12, step_up(plus)
    if size < 12:
        return step_up(size), None
    if compound_allowed:
        return 12, FIRST_PLUS_DIE
    raise InvalidRequest("d12 is as high as this trait goes")


def _spec_name(size: int, plus: int | None) -> str:
    return die_name(size) if plus is None else f"d{size}+d{plus}"


def _resolve_award(request: Mapping) -> dict[str, Any]:
    points = get_int(request, "advance_points", lo=0, hi=MAX_ADVANCE_POINTS)
    award = get_int(request, "session_award", lo=1, hi=9)
    milestone_points = get_int(request, "milestone_points", lo=0, hi=99, default=0)
    milestones = get_int(request, "milestones", lo=0, hi=MAX_ADVANCE_POINTS, default=0)
    earned = award + milestone_points
    new_points = points + earned
    if max(new_points, milestones + milestone_points) > MAX_ADVANCE_POINTS:
        raise InvalidRequest(f"a sheet records at most {MAX_ADVANCE_POINTS} advance points")
    return {
        "headline": f"Session award — {earned} advance points (now {new_points})",
        "explanation": f"The GM awarded {award} for the session"
        + (f" and {milestone_points} from milestones" if milestone_points else "")
        + f": {points} → {new_points} advance points.",
        "operation": "award",
        "earned": earned,
        "advance_points": new_points,
        "milestones": milestones + milestone_points,
    }


def _resolve_raise(request: Mapping) -> dict[str, Any]:
    points = get_int(request, "advance_points", lo=0, hi=MAX_ADVANCE_POINTS)
    group = get_choice(request, "group", RAISABLE_GROUPS)
    name = _required_text(request, "trait", what="the trait's name", max_len=80)
    if group == "assets" and not get_bool(request, "signature"):
        raise InvalidRequest(f"{name} is not a Signature Asset; only those can be raised")
    compound_allowed = group in COMPOUND_GROUPS
    for key in ("from", "to"):
        if request.get(key) is None:
            raise InvalidRequest(f"say which die {name} goes {key}, like d8")
    current = parse_die_spec(request["from"], allow_compound=compound_allowed)
    wanted = parse_die_spec(request["to"], allow_compound=compound_allowed)
    step = next_step(*current, compound_allowed=compound_allowed)
    if wanted != step:
        raise InvalidRequest(
            f"{name} can only go up one step, from {_spec_name(*current)} to {_spec_name(*step)}"
        )
    cost = advance_cost(*step)
    if points < cost:
        raise InvalidRequest(
            f"raising {name} to {_spec_name(*step)} costs {cost} advance points; you have {points}"
        )
    new_die = _spec_name(*step)
    return {
        "headline": f"{name} raised to {new_die} for {cost} advance points",
        "explanation": f"Raising {name} from {_spec_name(*current)} to {new_die} costs "
        f"{ADVANCE_COST_FACTOR} × {step[0] + (step[1] or 0)} = {cost}; "
        f"{points} → {points - cost} advance points.",
        "operation": "raise",
        "group": group,
        "trait": name,
        "from": _spec_name(*current),
        "to": new_die,
        "cost": cost,
        "advance_points": points - cost,
    }


def resolve_advance(request: Mapping, faces: FaceSource) -> dict[str, Any]:
    """CTX-9: the session-end award (1–9 plus milestones), or raising a trait one step."""
    operation = get_choice(request, "operation", ("award", "raise"))
    return _resolve_award(request) if operation == "award" else _resolve_raise(request)


# --------------------------------------------------------------------------- actions

_DIE = {
    "type": "object",
    "fields": {"die": "d4–d12 or d12+dN", "trait": "text ≤ 80", "group": "sheet group"},
}
_DIFFICULTY = {"type": "int or null", "min": 0, "max": MAX_DIFFICULTY}
_DIFFICULTY_BOTCH = {
    "type": "bool",
    "default": False,
    "meaning": "the GM's pool that set the difficulty botched: the roll succeeds unless it "
    "botched too (CTX-4); needs difficulty",
}
_ROLLED_DICE = {
    "type": "list",
    "meaning": "the 'dice' list of the roll's outcome, as returned (the roll's state)",
}
_PLOT_POINTS = {
    "type": "int",
    "min": 0,
    "max": MAX_PLOT_POINTS,
    "meaning": "the roller's plot points",
}

_EXAMPLE_POOL = [
    {"die": "d8", "trait": "Agility", "group": "attributes"},
    {"die": "d8", "trait": "Ex-Marine", "group": "distinctions"},
    {"die": "d10", "trait": "Shoot", "group": "skills"},
    {"die": "d8", "trait": "Sniper Rifle", "group": "assets"},
]
_EXAMPLE_ROLLED = [
    {"die": "d8", "trait": "Agility", "group": "attributes", "face": 6, "role": "effect"},
    {"die": "d8", "trait": "Ex-Marine", "group": "distinctions", "face": 2, "role": "bank"},
    {"die": "d10", "trait": "Shoot", "group": "skills", "face": 8, "role": "total"},
    {"die": "d8", "trait": "Sniper Rifle", "group": "assets", "face": 7, "role": "total"},
]
_EXAMPLE_HITCHED = [
    {"die": "d8", "trait": "Agility", "group": "attributes", "face": 5, "role": "total"},
    {"die": "d8", "trait": "Ex-Marine", "group": "distinctions", "face": 1, "role": "effect"},
    {"die": "d10", "trait": "Shoot", "group": "skills", "face": 9, "role": "total"},
]

ACTIONS: dict[str, Action] = {
    "roll": Action(
        name="roll",
        title="Roll a Cortex pool",
        resolver=resolve_roll,
        rules=("CTX-1", "CTX-2", "CTX-4", "CTX-5", "CTX-6", "CTX-8"),
        schema={
            "pool": {
                "type": "list",
                "max": 40,
                "items": _DIE,
                "meaning": "one Attribute, one Distinction, one or more Skills (d12+dN allowed), "
                "any Assets and Talents",
            },
            "roller_kind": {"type": "choice", "choices": list(ROLLER_KINDS), "default": "pc"},
            "big_hero": {"type": "die or null", "meaning": "the Big Hero Die; costs 1 plot point"},
            "plot_points": {**_PLOT_POINTS, "optional": True, "meaning": "needed with big_hero"},
            "difficulty": _DIFFICULTY,
            "difficulty_botch": {
                **_DIFFICULTY_BOTCH,
                "meaning": "with difficulty: the GM's pool rolled on its own botched (its "
                "automatic_failure); the roll succeeds unless it botches too (CTX-4)",
            },
            "difficulty_pool": {
                "type": "list of dice or null",
                "meaning": "a GM pool rolled now (instead of difficulty); its botch is an "
                "automatic failure of the opposition (CTX-4)",
            },
            "difficulty_kind": {
                "type": "choice",
                "choices": list(ROLLER_KINDS),
                "default": "plot against a pc, else pc",
            },
            "split": {
                "type": "object or null",
                "fields": {
                    "total": "two pool indices (0-based)",
                    "effect": "one pool index (0-based)",
                    "big_hero": "total or effect",
                },
                "meaning": "the player's own split; omitted: the proposed best split",
            },
        },
        example={"pool": _EXAMPLE_POOL, "difficulty": 11},
        example_faces=(6, 2, 8, 7),
    ),
    "gm_pool": Action(
        name="gm_pool",
        title="Roll a GM difficulty pool",
        resolver=resolve_gm_pool,
        rules=("CTX-1", "CTX-4", "CTX-5"),
        schema={
            "pool": {"type": "list", "min": 1, "max": 40, "items": _DIE},
            "roller_kind": {"type": "choice", "choices": list(NPC_KINDS), "default": "plot"},
        },
        example={"pool": ["d8", "d6", "d6"], "roller_kind": "boss"},
        example_faces=(5, 1, 4),
    ),
    "resplit": Action(
        name="resplit",
        title="Change the split",
        resolver=resolve_resplit,
        rules=("CTX-2", "CTX-4", "CTX-6", "CTX-8"),
        rolls=False,
        schema={
            "dice": _ROLLED_DICE,
            "split": {
                "type": "object",
                "fields": {
                    "total": "two numbers of dice in dice (0-based)",
                    "effect": "one number of a die in dice (0-based)",
                    "big_hero": "total or effect (omitted: the proposed slot)",
                },
                "meaning": "the player's new split; the Big Hero Die is placed by big_hero",
            },
            "difficulty": _DIFFICULTY,
            "difficulty_botch": _DIFFICULTY_BOTCH,
        },
        example={
            "dice": _EXAMPLE_ROLLED,
            "split": {"total": [0, 2], "effect": 3},
            "difficulty": 11,
        },
    ),
    "bank_move": Action(
        name="bank_move",
        title="Move a die from the Bank",
        resolver=resolve_bank_move,
        rules=("CTX-3", "CTX-7"),
        rolls=False,
        schema={
            "dice": _ROLLED_DICE,
            "index": {"type": "int", "meaning": "number of the banked die in dice (0-based)"},
            "to": {"type": "choice", "choices": list(SLOT_TARGETS)},
            "plot_points": _PLOT_POINTS,
            "difficulty": _DIFFICULTY,
            "difficulty_botch": _DIFFICULTY_BOTCH,
        },
        example={
            "dice": _EXAMPLE_ROLLED,
            "index": 1,
            "to": "total",
            "plot_points": 2,
            "difficulty": 16,
        },
    ),
    "buy_hitch": Action(
        name="buy_hitch",
        title="Buy a hitch",
        resolver=resolve_buy_hitch,
        rules=("CTX-4", "CTX-7"),
        rolls=False,
        schema={
            "buyer": {"type": "choice", "choices": ["gm", "players"]},
            "dice": _ROLLED_DICE,
            "index": {
                "type": "int",
                "meaning": "number of the hitch in dice (0-based; not with botch)",
            },
            "botch": {
                "type": "bool",
                "default": False,
                "meaning": "players buy a GM botch whole (at most 3 of its hitches are bought)",
            },
            "plot_points": _PLOT_POINTS,
            "scene": {"type": "text", "max": 80, "meaning": "scene marker for expiry"},
        },
        example={
            "buyer": "gm",
            "dice": _EXAMPLE_HITCHED,
            "index": 1,
            "plot_points": 1,
            "scene": "7",
        },
    ),
    "spend_plot_point": Action(
        name="spend_plot_point",
        title="Spend a plot point",
        resolver=resolve_spend,
        rules=("CTX-7",),
        rolls=False,
        schema={
            "kind": {"type": "choice", "choices": list(SPEND_KINDS)},
            "plot_points": _PLOT_POINTS,
            "description": {"type": "text", "max": 200, "for": "scene_change, stay_in_fight"},
            "target": {
                "type": "choice",
                "choices": ["difficulty", "complication"],
                "for": "opportunity",
            },
            "die": {
                "type": "die",
                "for": "opportunity, step_up_asset, activate_asset, big_hero_die",
            },
            "asset": {
                "type": "text",
                "max": 80,
                "for": "step_up_asset, activate_asset, scene_asset",
            },
            "to": {"type": "choice", "choices": list(SLOT_TARGETS), "for": "bank_die"},
        },
        example={"kind": "scene_asset", "plot_points": 2, "asset": "Cover of Smoke"},
    ),
    "advance": Action(
        name="advance",
        title="Advance",
        resolver=resolve_advance,
        rules=("CTX-9",),
        rolls=False,
        schema={
            "operation": {"type": "choice", "choices": ["award", "raise"]},
            "advance_points": {"type": "int", "min": 0, "max": MAX_ADVANCE_POINTS},
            "session_award": {"type": "int", "min": 1, "max": 9, "for": "award"},
            "milestone_points": {"type": "int", "min": 0, "max": 99, "for": "award"},
            "milestones": {"type": "int", "meaning": "running milestone record", "for": "award"},
            "group": {"type": "choice", "choices": list(RAISABLE_GROUPS), "for": "raise"},
            "trait": {"type": "text", "max": 80, "for": "raise"},
            "signature": {"type": "bool", "for": "raise an asset"},
            "from": {"type": "die", "meaning": "current die (d12+dN past d12)", "for": "raise"},
            "to": {"type": "die", "meaning": "one step up", "for": "raise"},
        },
        example={
            "operation": "raise",
            "advance_points": 40,
            "group": "skills",
            "trait": "Shoot",
            "from": "d6",
            "to": "d8",
        },
    ),
}
