"""Serenity Plus (seed 000): Cortex Plus in the 'Verse, Leverage and Smallville style.

A player rolls one Stylin', the Refinements filed under it, at most one Value
and whatever Aspects, Resources and Assets apply; the GM rolls opposition the
same way. Result, effect, tests, contests and stress come from rules.kit.cortex.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from ..kit import cortex, cortex_contests
from ..kit.actions import Action
from ..kit.cortex import (
    Contest,
    ContestRoll,
    ContestSide,
    CortexGame,
    SideRoll,
    contest_json,
    entry_flag,
    entry_text,
    parse_entries,
    same_name,
    schema_field,
)
from ..kit.dice import Die, die_name, parse_size, step_down, step_up
from ..kit.errors import InvalidRequest
from ..kit.faces import FaceSource
from ..kit.requests import MISSING, get_bool, get_int, get_list, get_str, require_mapping
from .mechanics import NAME
from .sheet import FINAGLIN, GM_GROUPS, PLAYER_GROUPS, STRESS_TYPES

# ---------------------------------------------------------------------------
# The pool (SER-1, SER-9)


@dataclass(frozen=True)
class SerenityPool:
    """A validated pool: the entries as asked for and the dice as rolled."""

    entries: tuple[Die, ...]
    dice: tuple[Die, ...]
    challenged: Die | None
    plot_points: int


def build_pool(req: Mapping, *, gm: bool) -> SerenityPool:
    """SER-1 pool rules for a player; a GM pool is free-form.

    A player rolls exactly one Stylin', Refinements filed under that Stylin' only,
    and at most one Value. SER-9: a challenged Value rolls three dice of its size.
    """
    entries = parse_entries(req.get("pool"), GM_GROUPS if gm else PLAYER_GROUPS, "pool")
    if not entries:
        raise InvalidRequest("the pool is empty: pick at least one die")
    stylins = [die for die, _ in entries if die.group == "stylins"]
    values = [die for die, _ in entries if die.group == "values"]
    if not gm and len(stylins) != 1:
        raise InvalidRequest(
            "a roll needs one Stylin' die" if not stylins else "a roll uses only one Stylin'"
        )
    if not gm and len(values) > 1:
        raise InvalidRequest("a roll can add at most one Value die")
    dice: list[Die] = []
    challenged = None
    for die, raw in entries:
        cortex.check_stress_entry(die, STRESS_TYPES)
        if entry_flag(die, raw, "challenged", ("values",), "only a Value can be challenged"):
            challenged = die
            dice.extend([die] * 3)
        else:
            dice.append(die)
        if die.group == "refinements":
            parent = entry_text(die, raw, "parent", default="" if gm else MISSING)
            if not gm and not same_name(parent, stylins[0].trait):
                raise InvalidRequest(
                    f"{die.label} is filed under {parent or 'no Stylin'}, but this roll uses "
                    f"{stylins[0].label}: only its Refinements can join"
                )
    return SerenityPool(
        entries=tuple(die for die, _ in entries),
        dice=tuple(dice),
        challenged=challenged,
        plot_points=cortex.get_plot_points(req),
    )


def roll_pool(pool: SerenityPool, faces: FaceSource) -> dict[str, Any]:
    """Roll a pool: result (SER-2), effect (SER-4), complications (SER-3), plot points (SER-8)."""
    rolled = cortex.result_and_effect(
        [d.size for d in pool.dice], cortex.draw_pool(pool.dice, faces), pool.plot_points
    )
    summary = cortex.pool_summary(pool.dice, rolled)
    if rolled.complications:
        summary["explanation"] += " The GM may activate each one."
    steps_down = None
    if pool.challenged is not None:
        value = pool.challenged
        after = step_down(value.size)
        steps_down = {
            "trait": value.trait,
            "group": value.group,
            "from": value.name,
            "to": None if after is None else die_name(after),
        }
        summary["explanation"] += (
            f" {value.label} was challenged (three dice): it "
            + ("is removed" if after is None else f"steps down to {die_name(after)}")
            + " after the roll."
        )
    return {
        "headline": cortex.headline(
            rolled.result, rolled.effect_size, len(rolled.complications), botch=rolled.botch
        ),
        **summary,
        "value_steps_down": steps_down,
    }


def roll_side(req: Mapping, faces: FaceSource, gm: bool) -> SideRoll:
    pool = build_pool(req, gm=gm)
    outcome = roll_pool(pool, faces)
    effect = parse_size(outcome["effect"])
    return SideRoll(outcome["result"], effect, pool.entries, outcome)


GAME = CortexGame(
    name=NAME,
    stress_types=STRESS_TYPES,
    roll_side=roll_side,
    extraordinary=True,
    pool_groups=GM_GROUPS,
)


def resolve_roll(req: Mapping, faces: FaceSource) -> dict[str, Any]:
    """SER-1 to SER-4, SER-8, SER-9: one pool rolled, with what it is for if said. SER-5,
    SER-10: against the number to beat the GM's opposition set (`difficulty`), the card
    says success or failure, by how much, and an extraordinary success."""
    side = roll_side(req, faces, get_bool(req, "gm"))
    outcome = side.outcome
    ones = len(outcome["complications"])
    cortex_contests.score_roll(
        GAME,
        req,
        side,
        outcome,
        result_words="Botch, result 0" if outcome["botch"] else f"Result {side.result}",
        tail=f", {ones} complication{'s' if ones > 1 else ''}" if ones else "",
    )
    goal = get_str(req, "goal", default="", max_len=cortex.MAX_GOAL, what="the goal").strip()
    if goal:
        outcome["goal"] = goal
    return outcome


# ---------------------------------------------------------------------------
# Complications (SER-3)


def _named_dice(value: object, what: str) -> dict[str, int]:
    data = require_mapping(value, what)
    if len(data) > cortex.MAX_TRAITS:
        raise InvalidRequest(f"the {what} hold at most {cortex.MAX_TRAITS} dice")
    named = {}
    for name, die in data.items():
        if not isinstance(name, str) or not name.strip() or len(name) > cortex.MAX_NAME:
            raise InvalidRequest(f"each of the {what} needs a name of 1-80 characters")
        named[name] = parse_size(die)
    return named


def activate_complication(req: Mapping, faces: FaceSource) -> dict[str, Any]:
    """SER-3: the GM activates a rolled 1. The roller gains 1 plot point (SER-8) and
    gets a d6 complication, or an existing complication that fits steps up."""
    plot_points = get_int(req, "plot_points", lo=0, hi=cortex.MAX_PLOT_POINTS)
    if plot_points == cortex.MAX_PLOT_POINTS:
        raise InvalidRequest(f"a character holds at most {cortex.MAX_PLOT_POINTS} plot points")
    complications = _named_dice(req.get("complications", {}), "complications")
    name = get_str(req, "complication", max_len=cortex.MAX_NAME, what="complication").strip()
    if not name:
        raise InvalidRequest("name the complication")
    existing = next((n for n in complications if same_name(n, name)), None)
    if existing is None:
        if len(complications) >= cortex.MAX_TRAITS:
            raise InvalidRequest(f"the complications hold at most {cortex.MAX_TRAITS} dice")
        held, now, key = None, 6, name
        text = f"New complication {name} d6."
    else:
        held, key = complications[existing], existing
        if held == 12:
            raise InvalidRequest(f"{existing} is already d12 and cannot step up; name a new one")
        now = step_up(held)
        text = f"{existing} steps up from {die_name(held)} to {die_name(now)}."
    complications[key] = now
    return {
        "headline": f"{key} {die_name(now)}, +1 plot point",
        "explanation": f"The GM activates a complication: {text} The roller gains 1 plot point.",
        "plot_points": plot_points + 1,
        "complications": {n: die_name(s) for n, s in complications.items()},
        "change": {
            "trait": key,
            "from": None if held is None else die_name(held),
            "to": die_name(now),
        },
    }


# ---------------------------------------------------------------------------
# Extraordinary success after a test (SER-10)


def apply_benefit(req: Mapping, faces: FaceSource) -> dict[str, Any]:
    """SER-10: the winner's chosen benefit, checked against what the two pools allow.

    Contests apply theirs with the stress (contest_stress); this is for tests and
    any other roll-off the table records.
    """
    margin = get_int(req, "margin", lo=0, hi=1000)
    if margin < cortex.EXTRAORDINARY_MARGIN:
        raise InvalidRequest("an extraordinary success needs a margin of 5 or more")
    stress_raw = req.get("stress_die")
    options = cortex.benefit_options(
        gm=get_bool(req, "gm"),
        winner_pool=_pool_dice(req, "winner_pool"),
        loser_pool=_pool_dice(req, "loser_pool"),
        stress_die=None if stress_raw is None else parse_size(stress_raw),
    )
    benefit = cortex.choose_benefit(options, req)
    return {
        "headline": f"Extraordinary success: {benefit['text']}",
        "explanation": f"Beating the other side by {margin}, the winner picks: {benefit['text']}.",
        "benefit": benefit,
    }


def _pool_dice(req: Mapping, key: str) -> list[Die]:
    return [die for die, _ in parse_entries(req.get(key), GM_GROUPS, key.replace("_", " "))]


# ---------------------------------------------------------------------------
# Awareness and knowledge (SER-11)


def awareness_pool(
    stylins: Mapping[str, object],
    refinements: Sequence[Mapping[str, object]],
    fitting: str | None = None,
) -> list[dict[str, str]]:
    """SER-11: the pool to suggest for an awareness or knowledge roll.

    With a fitting Refinement (named by `fitting`), that Refinement and the Stylin'
    it is filed under; otherwise the Finaglin' Stylin' alone. Entries come back in
    the request shape of the roll action.
    """
    if fitting is not None and fitting.strip():
        for refinement in refinements:
            trait = refinement.get("trait")
            if isinstance(trait, str) and same_name(trait, fitting):
                parent = refinement.get("parent")
                stylin = next(
                    (n for n in stylins if isinstance(parent, str) and same_name(n, parent)),
                    None,
                )
                if stylin is None:
                    raise InvalidRequest(f"{trait} is not filed under a Stylin' on this sheet")
                return [
                    _entry(stylins[stylin], stylin, "stylins"),
                    {**_entry(refinement.get("die"), trait, "refinements"), "parent": stylin},
                ]
        raise InvalidRequest(f"this sheet has no Refinement called {fitting[:40]}")
    finaglin = next((n for n in stylins if same_name(n, FINAGLIN)), None)
    if finaglin is None:
        raise InvalidRequest("this sheet has no Finaglin' Stylin' for awareness or knowledge")
    return [_entry(stylins[finaglin], finaglin, "stylins")]


def _entry(die: object, trait: str, group: str) -> dict[str, str]:
    return {"die": die_name(parse_size(die)), "trait": trait, "group": group}


def resolve_awareness(req: Mapping, faces: FaceSource) -> dict[str, Any]:
    """SER-11 as an action for the pool builder."""
    stylins = _named_dice(req.get("stylins"), "Stylin's")
    refinements = [
        require_mapping(r, "refinement") for r in get_list(req, "refinements", default=[])
    ]
    fitting = None
    if req.get("refinement") is not None:
        fitting = get_str(req, "refinement", max_len=cortex.MAX_NAME)
    pool = awareness_pool(stylins, refinements, fitting)
    names = " + ".join(f"{e['trait']} {e['die']}" for e in pool)
    reason = (
        "a fitting Refinement rolls with its own Stylin'"
        if len(pool) > 1
        else "awareness and knowledge default to Finaglin'"
    )
    return {"headline": f"Suggested: {names}", "explanation": f"{names}: {reason}.", "pool": pool}


# ---------------------------------------------------------------------------
# Actions, schemas and examples

POOL_SCHEMA = {
    "pool": schema_field(
        "list of dice",
        'entries {"die": "d8", "trait": "Fightin\'", "group": "stylins"}; a Refinement adds '
        '"parent" (its Stylin\'), a Value may add "challenged": true',
        f"1-40 entries; groups: {', '.join(GM_GROUPS)} (situation: GM only)",
    ),
    "plot_points": schema_field("int", "plot points spent to add dice to the result", "0-99"),
}
SIDE_SCHEMA = schema_field("object", "a pool, as in the roll action", "pool, plot_points")

MAL_FIGHTS = [
    {"die": "d10", "trait": "Fightin'", "group": "stylins"},
    {"die": "d8", "trait": "War Veteran", "group": "refinements", "parent": "Fightin'"},
    {"die": "d6", "trait": "Captain of Serenity", "group": "aspects"},
    {"die": "d12", "trait": "Pistol", "group": "assets"},
]
THUGS = [
    {"die": "d8", "trait": "Armed thugs", "group": "situation"},
    {"die": "d6", "trait": "Cramped cargo bay", "group": "situation"},
    {"die": "d6", "trait": "Injured", "group": "stress"},
]
CONTEST_SIDES = (
    ContestSide("Mal", "walk out with the cargo", gm=False),
    ContestSide("Niska's thugs", "take Mal prisoner", gm=True),
)
THUG_ROLL = ContestRoll(side=1, result=11, effect=6, pool=(Die(8, "Armed thugs", "situation"),))
MAL_ROLL = ContestRoll(side=0, result=4, effect=4, pool=(Die(10, "Fightin'", "stylins"),))
OPEN_CONTEST = contest_json(Contest(sides=CONTEST_SIDES, turn=0, standing=THUG_ROLL, rolls=1))
STRESS_PENDING = contest_json(
    Contest(
        sides=CONTEST_SIDES,
        turn=0,
        status="stress_pending",
        standing=THUG_ROLL,
        failed=MAL_ROLL,
        winner=1,
        stress_die=6,
        extraordinary=True,
        rolls=2,
    )
)

ACTIONS: dict[str, Action] = {
    "roll": Action(
        name="roll",
        title="Roll a pool",
        resolver=resolve_roll,
        rules=("SER-1", "SER-2", "SER-3", "SER-4", "SER-5", "SER-8", "SER-9", "SER-10"),
        schema={
            **POOL_SCHEMA,
            "gm": schema_field("bool", "a GM pool (free-form)", "default false"),
            **cortex_contests.ROLL_SCHEMA,
            "goal": schema_field("string", "what the roll is for, shown on its card", "optional"),
        },
        example={"pool": MAL_FIGHTS, "plot_points": 0},
        example_faces=(9, 8, 6, 2),
    ),
    "test": Action(
        name="test",
        title="Test against the GM",
        resolver=lambda req, faces: cortex.run_test(GAME, req, faces),
        rules=("SER-5", "SER-10"),
        schema={"player": SIDE_SCHEMA, "opposition": {**SIDE_SCHEMA, "meaning": "the GM's pool"}},
        example={"player": {"pool": MAL_FIGHTS}, "opposition": {"pool": THUGS}},
        example_faces=(9, 8, 6, 2, 5, 3, 1),
    ),
    **cortex_contests.contest_actions(
        GAME,
        rules=("SER-6", "SER-7", "SER-10"),
        roll_schema=POOL_SCHEMA,
        examples={
            "contest_start": ({"sides": [asdict(s) for s in CONTEST_SIDES], "first": 1}, ()),
            "contest_roll": ({"contest": OPEN_CONTEST, "pool": MAL_FIGHTS[:2]}, (9, 4)),
            "contest_give_in": ({"contest": OPEN_CONTEST, "side": 0}, ()),
            "contest_stress": (
                {
                    "contest": STRESS_PENDING,
                    "type": "Injured",
                    "stress": {"Injured": "d6"},
                    "benefit": "step_up_stress",
                },
                (),
            ),
        },
    ),
    "stress": cortex.stress_action(
        GAME,
        rules=("SER-7",),
        example={"stress": {"Injured": "d6"}, "type": "Injured", "die": "d8"},
    ),
    "set_difficulty": cortex_contests.set_difficulty_action(("SER-5",)),
    "activate_complication": Action(
        name="activate_complication",
        title="Activate a complication",
        resolver=activate_complication,
        rules=("SER-3",),
        schema={
            "plot_points": schema_field("int", "the roller's plot points now", "0-98"),
            "complications": schema_field(
                "object", "the roller's complications, name to die", "at most 60"
            ),
            "complication": schema_field(
                "string", "the complication to create or step up", "1-80 characters"
            ),
        },
        example={"plot_points": 1, "complications": {"Winged": "d6"}, "complication": "Winged"},
        rolls=False,
    ),
    "benefit": Action(
        name="benefit",
        title="Extraordinary success benefit",
        resolver=apply_benefit,
        rules=("SER-10",),
        schema={
            "gm": schema_field("bool", "the winner is a GM character", "default false"),
            "winner_pool": schema_field("list of dice", "the winner's pool", "as in roll"),
            "loser_pool": schema_field("list of dice", "the other side's pool", "as in roll"),
            "margin": schema_field("int", "how much the winner won by", "5-1000"),
            "stress_die": schema_field("die", "stress inflicted, if any", "d4-d12 or null"),
            "benefit": {
                "type": "choice",
                "choices": list(cortex.PLAYER_BENEFITS),
                "meaning": "the benefit picked",
            },
            "target": schema_field("string", "the trait it applies to", "1-80 characters"),
        },
        example={
            "winner_pool": MAL_FIGHTS,
            "loser_pool": THUGS,
            "margin": 7,
            "benefit": "step_down_stress",
            "target": "Injured",
        },
        rolls=False,
    ),
    "awareness_pool": Action(
        name="awareness_pool",
        title="Suggest an awareness or knowledge pool",
        resolver=resolve_awareness,
        rules=("SER-11",),
        schema={
            "stylins": schema_field("object", "the sheet's Stylin's, name to die", "at most 60"),
            "refinements": schema_field(
                "list", 'the sheet\'s Refinements {"trait", "die", "parent"}', "at most 40"
            ),
            "refinement": schema_field(
                "string", "the fitting Refinement, if any", "1-80 characters"
            ),
        },
        example={
            "stylins": {"Fightin'": "d10", "Finaglin'": "d6"},
            "refinements": [{"trait": "War Veteran", "die": "d8", "parent": "Fightin'"}],
            "refinement": "War Veteran",
        },
        rolls=False,
    ),
}
