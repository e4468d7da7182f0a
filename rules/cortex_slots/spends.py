"""Cortex with slots after the roll: Bank moves, bought hitches, plot point spends and
advancement (CTX-3, CTX-5, CTX-7, CTX-9). Each takes the roll's dice list as its state
and scores it again with the code in `rolls`."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from ..kit.dice import (
    die_name,
    parse_die_spec,
    step_down,
    step_up,
)
from ..kit.errors import InvalidRequest
from ..kit.faces import FaceSource
from ..kit.requests import get_bool, get_choice, get_int, get_str
from .rolls import (
    ADVANCE_COST_FACTOR,
    BOTCH_HITCHES,
    FIRST_PLUS_DIE,
    GM_POOL_ROLES,
    MAX_BOUGHT_HITCHES,
    PLOT_POINT_COST,
    SCENE_ASSET_SIZE,
    SCENE_EXPIRY,
    SLOT_TARGETS,
    SLOTS,
    SPEND_KINDS,
    RolledDie,
    banked_positions,
    difficulty_fields,
    parse_rolled_dice,
    parse_slotted_dice,
    pay_plot_point,
    plot_points_field,
    required_text,
    roll_position,
    size_field,
    slot_account,
    tally,
)
from .sheet import MAX_ADVANCE_POINTS, MAX_PLOT_POINTS

# --------------------------------------------------------------------------- the Bank


def resolve_bank_move(request: Mapping, faces: FaceSource) -> dict[str, Any]:
    """CTX-3: for 1 plot point, a banked die joins the Total ("second wind") or the Effect slot."""
    dice = parse_slotted_dice(request.get("dice"))
    index = roll_position(request, "index", len(dice), what="the banked die")
    target = get_choice(request, "to", SLOT_TARGETS)
    plot_points = plot_points_field(request)
    difficulty, difficulty_botch = difficulty_fields(request)
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
    plot_points = pay_plot_point(plot_points, "bank_die")
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
        + slot_account(dice, scored),
        "dice": [d.to_json() for d in dice],
        **scored.to_json(),
        "bank": banked_positions(dice),
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
    index = roll_position(request, "index", len(dice), what="the hitch")
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
    plot_points = plot_points_field(request)
    scene = get_str(request, "scene", default="", max_len=80)
    buying_botch = get_bool(request, "botch")
    if buyer == "gm":
        if buying_botch:
            raise InvalidRequest("a player's botch needs no buying: it is an automatic failure")
        dice = parse_slotted_dice(request.get("dice"))
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
        plot_points = pay_plot_point(plot_points, "opportunity")
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


def _asset_name(req: Mapping) -> str:
    return required_text(req, "asset", what="the asset's name", max_len=80)


def _spend_scene_change(req: Mapping) -> tuple[dict[str, Any], str]:
    text = required_text(req, "description", what="what changes")
    return {"description": text}, f"changes the scene: {text}"


def _spend_opportunity(req: Mapping) -> tuple[dict[str, Any], str]:
    target = get_choice(req, "target", ("difficulty", "complication"))
    size = size_field(req, "die", what=f"the {target} to step down")
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
    size = size_field(req, "die", what=name)
    if size == 12:
        raise InvalidRequest(f"{name} is already d12 and cannot step up")
    new = step_up(size)
    return {"asset": name, "die": die_name(size), "stepped_to": die_name(new)}, (
        f"steps up {name} from d{size} to d{new}"
    )


def _spend_activate_asset(req: Mapping) -> tuple[dict[str, Any], str]:
    name = _asset_name(req)
    size = size_field(req, "die", what=name)
    return {"asset": name, "die": die_name(size), "expires": SCENE_EXPIRY}, (
        f"activates {name} d{size} for this scene"
    )


def _spend_big_hero(req: Mapping) -> tuple[dict[str, Any], str]:
    size = size_field(req, "die", what="the Big Hero Die")
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
    plot_points = plot_points_field(request)
    fields, sentence = SPEND_DETAILS[kind](request)
    plot_points = pay_plot_point(plot_points, kind)
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
    name = required_text(request, "trait", what="the trait's name", max_len=80)
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
