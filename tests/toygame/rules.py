"""Toy Dice's rules, sheet, table transitions, pool builder and GM tool: plain Python over
the kit."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from rules.kit import builder as kb
from rules.kit import cards
from rules.kit.actions import Action
from rules.kit.cortex_table import PoolRules, fill_pool
from rules.kit.dice import die_name, parse_pool
from rules.kit.errors import InvalidRequest
from rules.kit.faces import FaceSource
from rules.kit.mechanics import Mechanic
from rules.kit.odds_queries import OddsQueries, OddsReport, bars, dice, number, percent
from rules.kit.requests import get_int, get_str
from rules.kit.scene import BY_NAME, ScenePiece
from rules.kit.sheet import SheetTemplate, TraitGroup
from rules.kit.table import ActionError, Table, Transition
from rules.kit.tools import GameTools, GmTool
from rules.kit.ui import GameUi

SLUG = "toy"
NAME = "Toy Dice"
PREFIX = "TOY"
SOURCE = "Toy Dice (a test game)"
TRAITS = ("Brawn", "Wits")

MECHANICS = (
    Mechanic("TOY-1", "Pool", "one or both of the sheet's two traits; the highest die counts."),
    Mechanic("TOY-2", "Difficulty", "the highest die succeeds when it meets the difficulty."),
    Mechanic("TOY-3", "Hunch", "the GM rolls a d20 behind the screen."),
    Mechanic("TOY-4", "Clues", "a clue found is kept for the scene, by its name."),
)
DECISIONS: dict[str, tuple[str, ...]] = {}
ODDS_DECISIONS: dict[str, tuple[str, ...]] = {}

SHEET_TEMPLATE = SheetTemplate(
    groups=(
        TraitGroup(
            "traits", "Traits", "die", default_die=6, fixed_names=TRAITS, help="Brawn and Wits."
        ),
    ),
    counters=(),
)


def resolve_roll(req: Mapping, faces: FaceSource) -> dict[str, Any]:
    """TOY-1, TOY-2: the highest die of the pool against the difficulty."""
    dice = parse_pool(req.get("pool"), default_group="traits")
    if not 1 <= len(dice) <= len(TRAITS):
        raise InvalidRequest("a Toy Dice pool takes one or both traits")
    difficulty = None
    if req.get("difficulty") is not None:
        difficulty = get_int(req, "difficulty", lo=1, hi=12)
    rolled = [faces.draw(d.size) for d in dice]
    highest = max(rolled)
    shown = ", ".join(
        f"{die_name(d.size)} {d.trait}: {f}" for d, f in zip(dice, rolled, strict=True)
    )
    success = None if difficulty is None else highest >= difficulty
    kept = rolled.index(highest)
    verdict = "" if success is None else (" — success" if success else " — failure")
    return {
        "headline": f"Highest {highest}{verdict}",
        "explanation": f"Rolled {shown}; the highest is {highest}"
        + ("" if difficulty is None else f" against {difficulty}")
        + ".",
        "dice": [
            {
                "die": die_name(d.size),
                "trait": d.trait,
                "face": f,
                "role": "kept" if i == kept else "dropped",
                "top": f == d.size,
            }
            for i, (d, f) in enumerate(zip(dice, rolled, strict=True))
        ],
        "highest": highest,
        "top_faces": sum(f == d.size for d, f in zip(dice, rolled, strict=True)),
        "difficulty": difficulty,
        "success": success,
    }


def resolve_hunch(req: Mapping, faces: FaceSource) -> dict[str, Any]:
    """TOY-3: the GM's d20 behind the screen, with a note of what it is about."""
    note = get_str(req, "note", max_len=80, default="")
    face = faces.draw(20)
    return {
        "headline": f"Hunch: {face}",
        "explanation": f"The GM rolled a d20 for a hunch{f' ({note})' if note else ''}: {face}.",
        "face": face,
        "note": note,
    }


def resolve_spot(req: Mapping, faces: FaceSource) -> dict[str, Any]:
    """TOY-4: a clue found, by the name the table gives it, with a note of where."""
    clue = get_str(req, "clue", max_len=80)
    note = get_str(req, "note", max_len=80, default="")
    return {
        "headline": f"Clue found: {clue}",
        "explanation": f"A clue is found: {clue}{f' ({note})' if note else ''}.",
        "clue": clue,
        "note": note,
    }


ACTIONS = {
    "roll": Action(
        name="roll",
        title="Roll",
        resolver=resolve_roll,
        rules=("TOY-1", "TOY-2"),
        schema={"pool": {"type": "list", "meaning": "the traits rolled"}},
        example={"pool": [{"die": "d8", "trait": "Brawn", "group": "traits"}], "difficulty": 5},
        example_faces=(6,),
    ),
    "hunch": Action(
        name="hunch",
        title="Hunch",
        resolver=resolve_hunch,
        rules=("TOY-3",),
        schema={"note": {"type": "string", "meaning": "what the hunch is about"}},
        example={"note": "Is the door trapped?"},
        example_faces=(17,),
    ),
    "spot": Action(
        name="spot",
        title="Spot a clue",
        resolver=resolve_spot,
        rules=("TOY-4",),
        schema={"note": {"type": "text", "default": "", "meaning": "where it was found"}},
        example={"clue": "Muddy boots", "note": "by the door"},
        rolls=False,
    ),
}


class ToyPool(PoolRules):
    own_groups = ("traits",)


POOL = ToyPool()


class ToyRoll(Transition):
    """TOY-1: the dice come from the sheet; TOY-2: the difficulty is the scene's."""

    def prepare(self, ctx: Table) -> None:
        ctx.request["pool"] = fill_pool(ctx, ctx.request.get("pool"), ctx.sheet, POOL)
        if not ctx.is_gm:
            seen = ctx.seen_data.get("difficulty") if ctx.in_scene else None
            value = seen.get("value") if isinstance(seen, Mapping) else None
            ctx.request.pop("difficulty", None)
            if isinstance(value, int):
                ctx.request["difficulty"] = value


class Hunch(Transition):
    """TOY-3: the GM's alone."""

    gm_only = True


class Spot(Transition):
    """TOY-4: the clue is named by the table option `clue` and kept in the scene's "clues"
    (a clue of the same name is found again); a GM's clue found in secret is veiled from
    players by the table, as any scene state a hidden event writes."""

    needs_scene = True
    table_params = ("clue",)

    def prepare(self, ctx: Table) -> None:
        clue = ctx.param_str("clue")
        if not clue:
            raise ActionError("Name the clue.")
        ctx.request["clue"] = clue

    def apply(self, ctx: Table, outcome: dict[str, Any]) -> None:
        clues = ctx.data.setdefault("clues", {})
        clues[outcome["clue"]] = {"note": outcome.get("note") or "", "seq": ctx.seq}
        ctx.note(clue=outcome["clue"])


TABLE: dict[str, Transition] = {"roll": ToyRoll(), "hunch": Hunch(), "spot": Spot()}


def clue_lines(clues: Any) -> list[str]:
    """TOY-4: each clue of the scene, with where it was found."""
    if not isinstance(clues, Mapping):
        return []
    return [
        f"{name} ({clue['note']})" if isinstance(clue, Mapping) and clue.get("note") else name
        for name, clue in clues.items()
    ]


# TOY-4: what Toy Dice keeps for the scene, declared here and nowhere else.
SCENE = (
    ScenePiece(
        key="clues",
        cut=BY_NAME,
        words="the clue “{name}”",
        expired="clues",
        label="Clues",
        lines=clue_lines,
        named_by="clue",
        name_label="Clue name",
    ),
)

# TOY-3: the hunch is a block of the GM dashboard. It names no partial (this game keeps
# no templates), so the block is the action's own form, as "More actions" would draw it.
TOOLS = GameTools(
    gm_tools=(GmTool(action="hunch", title="Roll a hunch", where="the GM dashboard's hunch"),),
)


def fill_builder(pool, chosen, by_id, data, counters, character, target, traits=()) -> None:
    """TOY-1: the clicked traits, against the scene's difficulty."""
    request: dict[str, Any] = {"pool": [POOL.entry(t) for t in chosen]}
    if target is not None:
        request["difficulty"] = target
    pool.request = request
    if not chosen:
        pool.errors.append("Pick Brawn, Wits or both.")


BUILDER = kb.PoolBuilder(roll_action="roll", clickable=("traits",), fill=fill_builder)


def chance_of_success(sizes: list[int], difficulty: int) -> Fraction:
    """TOY-2: the chance the highest die meets the difficulty (1 - every die falls short)."""
    miss = Fraction(1)
    for size in sizes:
        miss *= Fraction(min(max(difficulty - 1, 0), size), size)
    return 1 - miss


def highest(sizes: list[int]) -> dict[int, Fraction]:
    """TOY-1: the chance of each highest face."""
    top = max(sizes)
    below = [1 - chance_of_success(sizes, face) for face in range(1, top + 2)]
    return {face: below[face] - below[face - 1] for face in range(1, top + 1)}


def report(sizes: list[int], difficulty: int | None) -> OddsReport:
    """TOY-1, TOY-2: the highest die's chances, and of meeting the difficulty."""
    shown = OddsReport(title="Odds for " + " + ".join(f"d{s}" for s in sizes))
    if difficulty is None:
        shown.summary = "Give a difficulty to see the chance of success."
        shown.bars = bars(highest(sizes), lambda v: True)
        return shown
    shown.chance = chance_of_success(sizes, difficulty)
    shown.summary = f"{percent(shown.chance)} to meet {difficulty}."
    shown.first_success, shown.target_label = difficulty, f"meet {difficulty}"
    shown.bars = bars(highest(sizes), lambda v: v >= difficulty)
    return shown


def odds_from_fields(data: Mapping[str, Any]) -> OddsReport:
    named = dice(data, "pool")
    if not named:
        raise InvalidRequest("give one or two dice")
    return report([int(d[1:]) for d in named[:2]], number(data, "target", 1, 12))


def odds_from_request(request: Mapping[str, Any], target: int | None) -> OddsReport:
    sizes = [int(str(e["die"])[1:]) for e in request["pool"]]
    return report(sizes, request.get("difficulty", target))


ODDS = OddsQueries(from_fields=odds_from_fields, from_request=odds_from_request)


def top_faces(value: Any, outcome: Mapping[str, Any]) -> str | None:
    """TOY-1: how many dice came up on their top face, of how many rolled."""
    if not isinstance(value, int) or not value:
        return None
    return f"{value} of {len(outcome.get('dice') or [])} dice"


# The roll card in Toy Dice's words: the highest die is kept (TOY-1), a die on its top
# face is badged, and the card counts them.
UI = GameUi(
    card=cards.CardReading(
        roles={
            **cards.COMMON_ROLES,
            "kept": cards.DieRole("kept", counted=True),
            "dropped": cards.DieRole("dropped"),
        },
        marks=(cards.DieMark(("top",), "top face"),),
        facts=(*cards.COMMON_FACTS, cards.CardFact("top_faces", "Top faces", top_faces)),
    )
)
