"""Smallville (seed 002): free and paid dice, a side pool of Resources, the Trouble Pool.

Every roll has a Value and a Relationship; more traits cost plot points, and the
outcome says what the pool cost. Results, contests and stress are the Cortex
Plus ones of rules.kit.cortex (SMV-10); the Watchtower is the GM.
"""

from __future__ import annotations

from collections.abc import Mapping
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
    schema_field,
)
from ..kit.dice import MAX_POOL, Die, die_name, parse_size, step_down, step_up
from ..kit.errors import InvalidRequest
from ..kit.faces import FaceSource
from ..kit.requests import get_bool, get_choice, get_int, get_list, get_str
from .mechanics import NAME
from .sheet import ALL_GROUPS, MAIN_GROUPS, SIDE_GROUPS, STRESS_TYPES, WATCHTOWER_GROUPS

USEFUL_DETAIL_DIE = 6
TROUBLE_DIE = 6


# ---------------------------------------------------------------------------
# The pool and what it costs (SMV-1 to SMV-7)


@dataclass(frozen=True)
class SmallvillePool:
    """A validated pool: dice to roll, their price, and what the roll changes afterwards."""

    entries: tuple[Die, ...]
    main: tuple[Die, ...]
    side: tuple[Die, ...]
    costs: tuple[dict[str, Any], ...]
    steps_down: tuple[Die, ...]
    limit: dict[str, str] | None
    resources_used: tuple[str, ...]
    trouble_pool: tuple[int, ...] | None
    plot_points: int
    watchtower: bool

    @property
    def dice_cost(self) -> int:
        return sum(c["plot_points"] for c in self.costs)


def parse_trouble_pool(value: object) -> list[int]:
    """The Watchtower's Trouble Pool: a list of dice, largest first."""
    dice = get_list({"trouble_pool": value}, "trouble_pool", max_len=MAX_POOL)
    return sorted((parse_size(d) for d in dice), reverse=True)


def _cost(die: Die, dice: int, cost: int, why: str) -> dict[str, Any]:
    return {**cortex.entry_json(die), "dice": dice, "plot_points": cost, "why": why}


def build_pool(req: Mapping, *, watchtower: bool) -> SmallvillePool:
    """Validate a Smallville pool and price it.

    SMV-1: one Value and one Relationship, free (a player must have both).
    SMV-2: a challenged Value or Relationship rolls three dice and steps down after.
    SMV-3: one Ability or Distinction free, more 1 plot point each; a Heritage only
    on a roll about the Heritage. SMV-4: one stress die free, more 1 each.
    SMV-5: an opponent's Limit adds three dice of its size.
    SMV-6: a Useful Detail is a d6 for 1 plot point, free when reused; the
    Watchtower may take a die of any size out of the Trouble Pool instead.
    SMV-7: Resources roll in a side pool, free when on the sheet and unused this
    session, 1 plot point each otherwise.
    """
    groups = WATCHTOWER_GROUPS if watchtower else MAIN_GROUPS
    main_entries = parse_entries(req.get("pool"), groups, "main pool")
    side_entries = parse_entries(req.get("side_pool", []), SIDE_GROUPS, "side pool")
    heritage_roll = get_bool(req, "heritage_roll")
    trouble = None
    if req.get("trouble_pool") is not None:
        trouble = parse_trouble_pool(req.get("trouble_pool"))
    seen: dict[str, int] = {}
    main: list[Die] = []
    costs: list[dict[str, Any]] = []
    steps_down: list[Die] = []
    limit = None
    for die, raw in main_entries:
        cortex.check_stress_entry(die, STRESS_TYPES)
        challenged = entry_flag(
            die,
            raw,
            "challenged",
            ("values", "relationships"),
            "only a Value or Relationship can be challenged",
        )
        heritage = entry_flag(
            die, raw, "heritage", ("distinctions",), "only a Distinction can be a Heritage"
        )
        reused = entry_flag(
            die, raw, "reused", ("useful_details",), "only a Useful Detail can be reused"
        )
        from_trouble = entry_flag(
            die,
            raw,
            "from_trouble",
            ("useful_details",),
            "only a Useful Detail can come out of the Trouble Pool",
        )
        kind = "traits" if die.group in ("abilities", "distinctions") else die.group
        earlier = seen.get(kind, 0)
        seen[kind] = earlier + 1
        count, cost, why = 1, 0, "free"
        if die.group == "values":
            if earlier:
                raise InvalidRequest("a roll uses only one Value")
            why = "the Value (free)"
        elif die.group == "relationships":
            if challenged and earlier:
                raise InvalidRequest(
                    f"{die.label}: only the Relationship the conflict is about can be challenged"
                )
            cost, why = (1, "another Relationship") if earlier else (0, "the Relationship (free)")
        elif kind == "traits":
            if heritage and not heritage_roll:
                raise InvalidRequest(
                    f"{die.label} is a Heritage: it rolls only when the roll is about it"
                )
            cost, why = (
                (1, "another Ability or Distinction")
                if earlier
                else (0, "an Ability or Distinction (free)")
            )
        elif die.group == "stress":
            cost, why = (1, "more stress") if earlier else (0, "the opponent's stress (free)")
        elif die.group == "limits":
            if earlier:
                raise InvalidRequest("a roll uses only one of the opponent's Limits")
            count, why = 3, "the opponent's Limit, three dice (free)"
            limit = {"limit": die.trait, "ability": entry_text(die, raw, "ability", default="")}
        elif die.group == "useful_details":
            cost, why = _useful_detail(die, reused, from_trouble, watchtower, trouble)
        else:
            why = "the situation"
        if challenged:
            count, why = 3, f"{why}, challenged: three dice"
            steps_down.append(die)
        main.extend([die] * count)
        costs.append(_cost(die, count, cost, why))
    if not main:
        raise InvalidRequest("the main pool is empty: pick at least one die")
    if not watchtower and "values" not in seen:
        raise InvalidRequest("a Smallville roll needs a Value die")
    if not watchtower and "relationships" not in seen:
        raise InvalidRequest("a Smallville roll needs a Relationship die")
    side: list[Die] = []
    used: list[str] = []
    for die, raw in side_entries:
        on_sheet = entry_flag(die, raw, "on_sheet", SIDE_GROUPS, "", default=True)
        spent = entry_flag(die, raw, "used", SIDE_GROUPS, "")
        if on_sheet:
            used.append(die.trait)
        free = on_sheet and not spent
        why = "a Resource on the sheet (free)" if free else "a Resource used or not on the sheet"
        side.append(die)
        costs.append(_cost(die, 1, 0 if free else 1, why))
    return SmallvillePool(
        entries=tuple(d for d, _ in main_entries) + tuple(side),
        main=tuple(main),
        side=tuple(side),
        costs=tuple(costs),
        steps_down=tuple(steps_down),
        limit=limit,
        resources_used=tuple(used),
        trouble_pool=None if trouble is None else tuple(trouble),
        plot_points=cortex.get_plot_points(req),
        watchtower=watchtower,
    )


def _useful_detail(
    die: Die, reused: bool, from_trouble: bool, watchtower: bool, trouble: list[int] | None
) -> tuple[int, str]:
    """SMV-6: what a Useful Detail costs. A die taken out of the Trouble Pool is removed
    from `trouble`, so two details cannot take the same die."""
    if from_trouble:
        if not watchtower:
            raise InvalidRequest("only the Watchtower takes Useful Details out of the Trouble Pool")
        if trouble is None or die.size not in trouble:
            raise InvalidRequest(f"the Trouble Pool has no {die.name} to take")
        trouble.remove(die.size)
        return 0, "a Useful Detail out of the Trouble Pool"
    if die.size != USEFUL_DETAIL_DIE and not (watchtower and reused):
        raise InvalidRequest(f"{die.label}: a Useful Detail is a d6")
    return (0, "a Useful Detail reused in the scene (free)") if reused else (1, "a Useful Detail")


# ---------------------------------------------------------------------------
# Rolling (SMV-8, SMV-9)


def roll_pool(pool: SmallvillePool, faces: FaceSource) -> dict[str, Any]:
    """SMV-8: two highest main dice (1s excluded) plus the highest side die; plot
    points add more main dice. SMV-9: main 1s are complications; all main dice 1
    fails outright. SMV-7: side dice are rolled after the main pool, their 1s are
    no complications and add nothing."""
    main_faces = cortex.draw_pool(pool.main, faces)
    side_faces = cortex.draw_pool(pool.side, faces)
    rolled = cortex.result_and_effect([d.size for d in pool.main], main_faces, pool.plot_points)
    summary = cortex.pool_summary(pool.main, rolled)
    fails = rolled.botch
    counting_side = [i for i, face in enumerate(side_faces) if face != 1]
    side_die = max(counting_side, key=lambda i: (side_faces[i], -i)) if counting_side else None
    result = rolled.result
    sentences = [
        summary["explanation"].replace(
            "Botch: no die came up above 1", "Fails outright: every main die came up 1"
        )
    ]
    if side_die is not None and not fails:
        result += side_faces[side_die]
        sentences.append(
            f"Side pool: {cortex.die_phrase(pool.side[side_die], side_faces[side_die])} "
            f"adds {side_faces[side_die]}, for {result}."
        )
    side_roles = [
        "side" if i == side_die and not fails else "unused" for i in range(len(pool.side))
    ]
    dice_cost = pool.dice_cost
    total_cost = dice_cost + rolled.plot_points_spent
    if total_cost:
        sentences.append(
            f"Plot points: {dice_cost} for dice, {rolled.plot_points_spent} for the result."
        )
    ones = [pool.main[i] for i in rolled.complications]
    if pool.watchtower and ones:
        sentences.append(
            "For each 1, the opposing player may pay 1 plot point to remove a Trouble Pool "
            "die of that size or smaller."
        )
    elif ones:
        sentences.append("The Watchtower may pay 1 plot point per 1 to add Trouble.")
    steps = [
        {**cortex.entry_json(d), "from": d.name, "to": _stepped_down_name(d.size)}
        for d in pool.steps_down
    ]
    if steps:
        names = ", ".join(d.label for d in pool.steps_down)
        sentences.append(
            f"Challenged: {names} step{'s' if len(steps) == 1 else ''} down when the conflict ends."
        )
    if pool.limit:
        sentences.append(
            f"Using {pool.limit['limit']}: on a win, {pool.limit['ability'] or 'the linked Ability'}"
            " can be Shut Down."
        )
    outcome: dict[str, Any] = {
        "headline": (
            "Fails outright, all main dice 1"
            if fails
            else cortex.headline(result, rolled.effect_size, len(ones), botch=False)
        )
        + (f", {total_cost} plot point{'s' if total_cost > 1 else ''}" if total_cost else ""),
        "explanation": " ".join(sentences),
        "result": result,
        "main_result": rolled.result,
        "side_die": None
        if side_die is None or fails
        else {**cortex.entry_json(pool.side[side_die]), "face": side_faces[side_die]},
        "effect": summary["effect"],
        "fails_outright": fails,
        "complications": summary["complications"],
        "plot_points_spent": total_cost,
        "plot_points_for_dice": dice_cost,
        "plot_points_for_result": rolled.plot_points_spent,
        "costs": list(pool.costs),
        "steps_down_after_conflict": steps,
        "resources_used": list(pool.resources_used),
        "shut_down_option": pool.limit,
        "trouble_offer": 0 if pool.watchtower else len(ones),
        "trouble_removal": [d.name for d in ones] if pool.watchtower else [],
        "dice": summary["dice"] + cortex.dice_json(pool.side, side_faces, side_roles),
    }
    if pool.trouble_pool is not None:
        outcome["trouble_pool"] = [die_name(s) for s in pool.trouble_pool]
    return outcome


def _stepped_down_name(size: int) -> str | None:
    after = step_down(size)
    return None if after is None else die_name(after)


def roll_side(req: Mapping, faces: FaceSource, gm: bool) -> SideRoll:
    pool = build_pool(req, watchtower=gm)
    outcome = roll_pool(pool, faces)
    return SideRoll(outcome["result"], parse_size(outcome["effect"]), pool.entries, outcome)


GAME = CortexGame(
    name=NAME,
    stress_types=STRESS_TYPES,
    roll_side=roll_side,
    extraordinary=False,
    pool_groups=ALL_GROUPS,
)


def resolve_roll(req: Mapping, faces: FaceSource) -> dict[str, Any]:
    """SMV-1 to SMV-9: one pool, main and side, rolled and priced. SMV-10: against the
    number to beat the Watchtower's opposition set (`difficulty`), the card says success
    or failure (strictly higher succeeds, a tie fails)."""
    side = roll_side(req, faces, get_bool(req, "watchtower"))
    outcome = side.outcome
    ones = len(outcome["complications"])
    paid = outcome["plot_points_spent"]
    tail = f", {ones} complication{'s' if ones > 1 else ''}" if ones else ""
    tail += f", {paid} plot point{'s' if paid > 1 else ''}" if paid else ""
    cortex_contests.score_roll(
        GAME,
        req,
        side,
        outcome,
        result_words="Fails outright, result 0"
        if outcome["fails_outright"]
        else f"Result {side.result}",
        tail=tail,
    )
    return outcome


# ---------------------------------------------------------------------------
# The Trouble Pool (SMV-9) and Shut Down (SMV-5)


def trouble_for_ones(ones: int) -> list[int]:
    """SMV-9: the dice the Watchtower adds for the 1s of one roll she pays for:
    a d6 for the first 1, stepped up by each further 1; past d12 a new d6 starts."""
    added: list[int] = []
    for _ in range(ones):
        if added and added[-1] < 12:
            added[-1] = step_up(added[-1])
        else:
            added.append(TROUBLE_DIE)
    return added


def resolve_trouble(req: Mapping, faces: FaceSource) -> dict[str, Any]:
    """SMV-9: the Watchtower adds trouble for a player's 1s (1 plot point each), or the
    opposing player removes a die of the size of the Watchtower's 1, or smaller (1 each)."""
    pool = parse_trouble_pool(req.get("trouble_pool", []))
    operation = get_choice(req, "operation", ("add", "remove"))
    if operation == "add":
        ones = get_int(req, "ones", lo=1, hi=MAX_POOL)
        added = trouble_for_ones(ones)
        if len(pool) + len(added) > MAX_POOL:
            raise InvalidRequest(f"the Trouble Pool holds at most {MAX_POOL} dice")
        pool = sorted(pool + added, reverse=True)
        names = ", ".join(die_name(s) for s in added)
        text = f"The Watchtower pays {ones} plot point{'s' if ones > 1 else ''} and adds {names}."
        change = {"added": [die_name(s) for s in added], "removed": None, "paid_by": "watchtower"}
        paid = ones
    else:
        limit = parse_size(req.get("one_die"))
        eligible = [s for s in pool if s <= limit]
        if not eligible:
            raise InvalidRequest(f"the Trouble Pool has no die of d{limit} or smaller to remove")
        chosen = max(eligible) if req.get("die") is None else parse_size(req.get("die"))
        if chosen not in eligible:
            raise InvalidRequest(f"the Trouble Pool has no d{chosen} of d{limit} or smaller")
        pool.remove(chosen)
        text = f"The player pays 1 plot point to remove a d{chosen} from the Trouble Pool."
        change = {"added": [], "removed": die_name(chosen), "paid_by": "player"}
        paid = 1
    return {
        "headline": f"Trouble Pool: {', '.join(die_name(s) for s in pool) or 'empty'}",
        "explanation": text,
        "trouble_pool": [die_name(s) for s in pool],
        "plot_points_paid": paid,
        **change,
    }


def resolve_shut_down(req: Mapping, faces: FaceSource) -> dict[str, Any]:
    """SMV-5: after a win using the opponent's Limit, Shut Down the linked Ability:
    1 plot point, free if the opponent was stressed out."""
    if not get_bool(req, "won"):
        raise InvalidRequest("a Shut Down needs a win with the opponent's Limit")
    limit = get_str(req, "limit", max_len=cortex.MAX_NAME).strip()
    ability = get_str(req, "ability", max_len=cortex.MAX_NAME).strip()
    if not limit or not ability:
        raise InvalidRequest("name the Limit used and the Ability it shuts down")
    cost = 0 if get_bool(req, "stressed_out") else 1
    price = "free, the opponent was stressed out" if cost == 0 else "for 1 plot point"
    return {
        "headline": f"{ability} is shut down",
        "explanation": f"Through {limit}, the opponent's {ability} is shut down ({price}).",
        "shut_down": ability,
        "limit": limit,
        "plot_points_paid": cost,
    }


# ---------------------------------------------------------------------------
# Actions, schemas and examples

POOL_SCHEMA = {
    "pool": schema_field(
        "list of dice",
        'main pool entries {"die": "d8", "trait": "Justice", "group": "values"}; flags: '
        '"challenged" (the Value, the first Relationship), "heritage" (a Distinction), '
        '"ability" (a Limit\'s linked Ability), "reused" and "from_trouble" (a Useful Detail)',
        f"1-40 entries; groups: {', '.join(WATCHTOWER_GROUPS)} (situation: Watchtower only)",
    ),
    "side_pool": schema_field(
        "list of dice",
        'Resources {"die", "trait", "group": "locations" or "extras", "on_sheet", "used"}',
        "0-40 entries; on_sheet defaults to true, used to false",
    ),
    "plot_points": schema_field("int", "plot points to add more main dice to the result", "0-99"),
    "heritage_roll": schema_field("bool", "the roll is about a Heritage", "default false"),
    "trouble_pool": schema_field(
        "list of dice", "the Trouble Pool, when the Watchtower takes a Useful Detail", "0-40"
    ),
}
SIDE_SCHEMA = schema_field("object", "a pool, as in the roll action", ", ".join(POOL_SCHEMA))

CLARK = [
    {"die": "d8", "trait": "Justice", "group": "values"},
    {"die": "d6", "trait": "Lana", "group": "relationships"},
    {"die": "d10", "trait": "Super-speed", "group": "abilities"},
    {"die": "d6", "trait": "Farm boy", "group": "distinctions"},
]
CLARK_SIDE = [{"die": "d6", "trait": "Kent Farm", "group": "locations"}]
LEX = [
    {"die": "d10", "trait": "Power", "group": "values"},
    {"die": "d8", "trait": "Lionel", "group": "relationships"},
    {"die": "d8", "trait": "Kryptonite", "group": "limits", "ability": "Super-speed"},
]
CONTEST_SIDES = (
    ContestSide("Clark", "get Lana out of the plant", gm=False),
    ContestSide("Lex", "keep the plant sealed", gm=True),
)
LEX_ROLL = ContestRoll(side=1, result=14, effect=8, pool=(Die(10, "Power", "values"),))
CLARK_ROLL = ContestRoll(side=0, result=9, effect=4, pool=(Die(8, "Justice", "values"),))
OPEN_CONTEST = contest_json(Contest(sides=CONTEST_SIDES, turn=0, standing=LEX_ROLL, rolls=1))
STRESS_PENDING = contest_json(
    Contest(
        sides=CONTEST_SIDES,
        turn=0,
        status="stress_pending",
        standing=LEX_ROLL,
        failed=CLARK_ROLL,
        winner=1,
        stress_die=8,
        rolls=2,
    )
)

ACTIONS: dict[str, Action] = {
    "roll": Action(
        name="roll",
        title="Roll a pool",
        resolver=resolve_roll,
        rules=tuple(f"SMV-{n}" for n in range(1, 11)),
        schema={
            **POOL_SCHEMA,
            "watchtower": schema_field("bool", "the Watchtower rolls", ""),
            **cortex_contests.ROLL_SCHEMA,
        },
        example={"pool": CLARK, "side_pool": CLARK_SIDE, "plot_points": 1},
        example_faces=(7, 4, 9, 1, 5),
    ),
    "set_difficulty": cortex_contests.set_difficulty_action(("SMV-10",)),
    "test": Action(
        name="test",
        title="Test against the Watchtower",
        resolver=lambda req, faces: cortex.run_test(GAME, req, faces),
        rules=("SMV-8", "SMV-10"),
        schema={
            "player": SIDE_SCHEMA,
            "opposition": {**SIDE_SCHEMA, "meaning": "the Watchtower's pool"},
        },
        example={"player": {"pool": CLARK, "side_pool": CLARK_SIDE}, "opposition": {"pool": LEX}},
        example_faces=(7, 4, 9, 1, 5, 6, 2, 3, 8, 1),
    ),
    **cortex_contests.contest_actions(
        GAME,
        rules=("SMV-10",),
        roll_schema=POOL_SCHEMA,
        examples={
            "contest_start": ({"sides": [asdict(s) for s in CONTEST_SIDES], "first": 1}, ()),
            "contest_roll": ({"contest": OPEN_CONTEST, "pool": CLARK[:3]}, (8, 5, 9)),
            "contest_give_in": ({"contest": OPEN_CONTEST, "side": 0}, ()),
            "contest_stress": (
                {"contest": STRESS_PENDING, "type": "Insecure", "stress": {"Insecure": "d8"}},
                (),
            ),
        },
    ),
    "stress": cortex.stress_action(
        GAME,
        rules=("SMV-10",),
        example={"stress": {"Afraid": "d10"}, "type": "Afraid", "die": "d6"},
    ),
    "trouble": Action(
        name="trouble",
        title="Change the Trouble Pool",
        resolver=resolve_trouble,
        rules=("SMV-9",),
        schema={
            "trouble_pool": schema_field("list of dice", "the Trouble Pool now", "0-40 dice"),
            "operation": schema_field(
                "string",
                "add: the Watchtower pays for a player's 1s; remove: a player pays for the "
                "Watchtower's 1",
                "add, remove",
            ),
            "ones": schema_field("int", "add: how many 1s of one roll she pays for", "1-40"),
            "one_die": schema_field(
                "die", "remove: the size of the Watchtower's die that rolled 1", "d4-d12"
            ),
            "die": schema_field(
                "die", "remove: the Trouble Pool die to remove (default the largest)", "d4-d12"
            ),
        },
        example={"trouble_pool": ["d8", "d6"], "operation": "add", "ones": 2},
        rolls=False,
    ),
    "shut_down": Action(
        name="shut_down",
        title="Shut Down an Ability",
        resolver=resolve_shut_down,
        rules=("SMV-5",),
        schema={
            "won": schema_field("bool", "the roller won the conflict", "must be true"),
            "limit": schema_field("string", "the opponent's Limit used", "1-80 characters"),
            "ability": schema_field("string", "the linked Ability to shut down", "1-80"),
            "stressed_out": schema_field("bool", "the opponent was stressed out", "default false"),
        },
        example={"won": True, "limit": "Kryptonite", "ability": "Super-speed"},
        rolls=False,
    ),
}
