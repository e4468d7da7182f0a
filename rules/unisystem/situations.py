"""Unisystem beyond the single roll: Ability Scores, damage and healing, lengthy tasks,
the GM's difficulty, working together, fear, movement, chases and jumps (UNI-4,
UNI-8 … UNI-14). Rolls go through `rolls`; actions without dice (Ability Scores,
damage, healing, lengthy tasks, movement) take the current state in the request and
return the new state.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..kit.errors import InvalidRequest
from ..kit.faces import FaceSource
from ..kit.requests import get_bool, get_choice, get_int, get_list, get_str, require_mapping
from .rolls import (
    DIFFICULTIES,
    MAX_GROUP,
    MAX_NAME_LENGTH,
    MAX_NAMED_MODIFIERS,
    MAX_NOTE_LENGTH,
    MINUS,
    MODIFIER_LIMIT,
    SUCCESS_TARGET,
    FixedScore,
    RollResult,
    RollSpec,
    Term,
    contest,
    difficulty_preset,
    display_name,
    level_name,
    modifier_term,
    parse_modifiers,
    parse_roll_spec,
    plural,
    roll_outcome,
    roll_total,
    signed,
    success_levels,
)
from .sheet import (
    ATTRIBUTE_MAX,
    ATTRIBUTE_MIN,
    LIFE_POINTS_MAX,
    LIFE_POINTS_MIN,
    NAMED_MODIFIER_LIMIT,
    SKILL_MAX,
)

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
    preset = difficulty_preset(req)
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
    name = display_name(request, "")
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
        **roll_outcome(result),
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
