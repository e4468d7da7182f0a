"""Cortex with Total and Effect slots, the Bank and Hitches (seed 001, CTX-1 … CTX-9).

A roll puts two dice in the Total slot, one in the Effect slot and the rest in
the Bank. Every die of a roll is kept in one list of plain dicts (die, trait,
group, faces, role), so the follow-up actions (Bank moves, bought hitches) take
that list as the state, change it, and score it again with the same code the
roll used: a logged roll and everything done to it afterwards always agree.
This module reads and scores rolls; `spends` holds what plot points and advance
points buy afterwards.
"""

from __future__ import annotations

from collections import Counter as Tally
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..kit.dice import (
    MAX_POOL,
    Die,
    die_name,
    parse_die,
    parse_pool,
    parse_size,
)
from ..kit.errors import InvalidRequest
from ..kit.faces import FaceSource
from ..kit.requests import get_bool, get_choice, get_int, get_list, get_str, require_mapping
from .sheet import BIG_HERO_GROUP, MAX_PLOT_POINTS, NPC_KINDS, ROLLER_KINDS

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
DIFFICULTY_GROUP = "difficulty"

BOTCH_HITCHES = 3
MAX_BOUGHT_HITCHES = 3
NO_EFFECT_LEVEL = 4
SCENE_ASSET_SIZE = 6
PLOT_POINT_COST = 1
MAX_DIFFICULTY = 99
ADVANCE_COST_FACTOR = 4
FIRST_PLUS_DIE = 4
SCENE_EXPIRY = "end_of_scene"

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


class NoPlotPoints(InvalidRequest):
    """A spend the roller cannot afford (CTX-7)."""


# --------------------------------------------------------------------------- fields


def _optional_int(req: Mapping, key: str, *, lo: int, hi: int) -> int | None:
    return None if req.get(key) is None else get_int(req, key, lo=lo, hi=hi)


def _optional_choice(req: Mapping, key: str, choices: tuple[str, ...]) -> str | None:
    return None if req.get(key) is None else get_choice(req, key, choices)


def required_text(req: Mapping, key: str, *, what: str, max_len: int = 200) -> str:
    text = get_str(req, key, what=what, max_len=max_len).strip()
    if not text:
        raise InvalidRequest(f"{what} cannot be empty")
    return text


def size_field(req: Mapping, key: str, *, what: str) -> int:
    if req.get(key) is None:
        raise InvalidRequest(f"{what} needs a die size, like d8")
    return parse_size(req[key])


def roll_position(req: Mapping, key: str, count: int, *, what: str) -> int:
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


def difficulty_fields(req: Mapping) -> tuple[int | None, bool]:
    """The difficulty a roll is scored against, and whether the GM's pool for it botched."""
    difficulty = _optional_int(req, "difficulty", lo=0, hi=MAX_DIFFICULTY)
    botched = get_bool(req, "difficulty_botch")
    if botched and difficulty is None:
        raise InvalidRequest("a botched GM pool still needs its difficulty: give the difficulty")
    return difficulty, botched


def plot_points_field(req: Mapping) -> int:
    return get_int(req, "plot_points", lo=0, hi=MAX_PLOT_POINTS)


def pay_plot_point(plot_points: int, kind: str) -> int:
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


def parse_slotted_dice(value: object) -> list[RolledDie]:
    dice = parse_rolled_dice(value, SLOTS)
    roles = Tally(d.role for d in dice if not d.die.big_hero)
    if roles["total"] < 2 or roles["effect"] < 1:
        raise InvalidRequest("a roll needs two dice in the Total slot and one in the Effect slot")
    if any(d.die.big_hero and d.role == "bank" for d in dice):
        raise InvalidRequest("the Big Hero Die sits in the Total or the Effect slot, not the Bank")
    return dice


# --------------------------------------------------------------------------- scoring


def beats(total: int, botch: bool, difficulty: int | None, difficulty_botch: bool) -> bool | None:
    """Strictly greater than the difficulty (CTX-2); None without one. CTX-4: a botch
    always fails; a botched GM pool is the opposition's automatic failure, so the roll
    succeeds."""
    if botch:
        return False
    if difficulty_botch:
        return True
    return None if difficulty is None else total > difficulty


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
        return beats(self.total, self.botch, self.difficulty, self.difficulty_botch)

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
    effect = roll_position(req, "effect", pool_size, what="the Effect slot's die")
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


def slot_account(dice: Sequence[RolledDie], scored: Tallied) -> str:
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


def banked_positions(dice: Sequence[RolledDie]) -> list[int]:
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
        plot_points = pay_plot_point(plot_points, "big_hero_die")
        spends.append({"kind": "big_hero_die", "cost": PLOT_POINT_COST, "die": big_hero.name})
    difficulty, difficulty_botch = difficulty_fields(request)
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
        ("Best split. " if split == proposed else "Your split. ") + slot_account(dice, scored)
    )
    if roll_advantage:
        explanation.append(roll_advantage["text"])
    return {
        "headline": _roll_headline(scored),
        "explanation": " ".join(explanation),
        "dice": [d.to_json() for d in dice],
        **scored.to_json(),
        "bank": banked_positions(dice),
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
    dice = parse_slotted_dice(request.get("dice"))
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
    difficulty, difficulty_botch = difficulty_fields(request)
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
        + slot_account(placed, scored),
        "dice": [d.to_json() for d in placed],
        **scored.to_json(),
        "bank": banked_positions(placed),
        "proposed_split": proposed.to_json(),
        "split": split.to_json(),
        "split_is_proposed": split == proposed,
    }
