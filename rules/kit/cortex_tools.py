"""The Cortex Plus contests on the table's pages (SER-6, SER-7, SER-10, SMV-10), declared
once for the games that have them: the GM's tool that opens one, the scene panel's box
that shows the one going on and takes its moves (give in; the stress, with its
benefit), and the side's roll from its pool builder on its turn, which is the
contest's. `contest_tools` makes a game's TOOLS of them, with the GM's number to beat
(SER-5, SMV-10).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from functools import partial
from typing import Any

from .cortex import benefit_options, parse_contest
from .cortex_table import OPEN_STATUSES
from .errors import RulesError
from .tools import GameTools, GmTool, PanelBox, PanelMove, Turn, TurnRoll
from .ui import small_int

DIFFICULTY = "set_difficulty"
START, ROLL, GIVE_IN, STRESS = "contest_start", "contest_roll", "contest_give_in", "contest_stress"
BOX = "the contest box on the scene panel"
MAX_GOAL, MAX_NAME = 200, 80


# --------------------------------------------------------------------------- the box


def open_contest(state: Mapping[str, Any]) -> dict[str, Any] | None:
    """The contest going on in the scene (rolling, or its stress to choose), as the
    scene keeps it: {"id", "contest", "sheets" (each side's character id, or None)...}."""
    for record in (state.get("contests") or {}).values():
        contest = record.get("contest") if isinstance(record, Mapping) else None
        if isinstance(contest, Mapping) and contest.get("status") in OPEN_STATUSES:
            return {**record, "contest": contest}
    return None


def won_benefits(contest: Mapping[str, Any], groups: Collection[str]) -> list[dict[str, Any]]:
    """SER-10: the benefits the winner may pick after an extraordinary success."""
    if not contest.get("extraordinary") or contest.get("status") != "stress_pending":
        return []
    try:
        parsed = parse_contest(contest, groups)
        return benefit_options(
            gm=parsed.sides[parsed.standing.side].gm,
            winner_pool=parsed.standing.pool,
            loser_pool=parsed.failed.pool,
            stress_die=parsed.stress_die,
        )
    except (RulesError, AttributeError, TypeError):
        return []


def benefit_choices(
    contest: Mapping[str, Any], state: Mapping[str, Any], groups: Collection[str]
) -> list[dict[str, Any]]:
    """SER-10 benefits as the box offers them: each choice's value names the trait it
    applies to ("step_up_asset:Pistol"), so two of a kind stay apart. Promoting an
    Asset lists the scene's Assets, or (with none) asks for a name in `target`; the
    choices that need a name go last, so the one chosen first needs nothing more."""
    choices = []
    for option in won_benefits(contest, groups):
        key, trait, text = option["benefit"], option.get("trait"), option["text"]
        if key == "promote_asset" and not trait:
            assets = [
                name
                for name, asset in (state.get("assets") or {}).items()
                if not (isinstance(asset, Mapping) and asset.get("promoted"))
            ]
            choices += [
                {"value": f"{key}:{name}", "text": f"{text}: {name}", "named": False}
                for name in assets
            ] or [{"value": key, "text": text, "named": True}]
        else:
            value = f"{key}:{trait}" if trait else key
            choices.append({"value": value, "text": text, "named": False})
    return sorted(choices, key=lambda choice: choice["named"])


def contest_box(
    state: Mapping[str, Any], *, groups: Collection[str], stress_types: Sequence[str]
) -> dict[str, Any] | None:
    """What the box shows: the contest going on, the benefits its winner may pick and
    the stress types the loser may take (SER-7, SER-10)."""
    record = open_contest(state)
    if record is None:
        return None
    return {
        **record,
        "benefits": benefit_choices(record["contest"], state, groups),
        "stress_types": tuple(stress_types),
    }


def whose_turn(box: Mapping[str, Any]) -> Turn | None:
    """SER-6, SMV-10: the side that must beat the standing result or give in, while the
    contest is open."""
    record = box["contest"]
    turn, sides = record.get("turn"), record.get("sides") or []
    if record.get("status") != "open" or not isinstance(turn, int) or not 0 <= turn < len(sides):
        return None
    sheets = box.get("sheets") or []
    sheet_id = sheets[turn] if turn < len(sheets) else None
    side = sides[turn]
    return Turn(name=side.get("name") or "", sheet_id=sheet_id, gm=bool(side.get("gm")))


# --------------------------------------------------------------------------- the forms


def at_contest(form: Mapping[str, Any]) -> dict[str, Any]:
    """A move's request, pointed at the contest the form names (the table's `contest`)."""
    contest_id = small_int(form.get("contest"))
    return {"table": {"contest": contest_id}} if contest_id else {}


def stress_request(form: Mapping[str, Any]) -> dict[str, Any]:
    """SER-7, SER-10: the stress type the winner inflicts, and the benefit it picks. The
    box's choices read "benefit:trait" (the trait it applies to), or just "benefit"
    when the winner names it in `target` (a scene Asset to promote)."""
    req = at_contest(form)
    req["type"] = str(form.get("type", ""))[:20]
    benefit, _, trait = str(form.get("benefit", "")).strip().partition(":")
    if benefit:
        req["benefit"] = benefit[:40]
        target = trait.strip() or str(form.get("target", "")).strip()
        if target:
            req["target"] = target[:80]
    return req


def start_request(form: Mapping[str, Any]) -> dict[str, Any]:
    """SER-6, SMV-10: two sides, each a character or a side the GM names, and who rolls
    first."""
    sides = []
    for key in ("a", "b"):
        side: dict[str, Any] = {"goal": str(form.get(f"{key}_goal", "")).strip()[:MAX_GOAL]}
        sheet_id = small_int(form.get(f"{key}_sheet"))
        if sheet_id is not None:
            side["sheet_id"] = sheet_id
        name = str(form.get(f"{key}_name", "")).strip()[:MAX_NAME]
        if name:
            side["name"] = name
        sides.append(side)
    first = 1 if str(form.get("first", "0")) == "1" else 0
    return {"sides": sides, "first": first}


def turn_request(
    request: dict[str, Any], form: Mapping[str, Any], box: Mapping[str, Any]
) -> dict[str, Any] | None:
    """SER-6, SMV-10: the side's roll on its turn is the contest's, with the goal it
    telegraphs; `as_contest=0` asks for a plain roll."""
    if str(form.get("as_contest", "1")) == "0":
        return None
    goal = str(form.get("goal", "")).strip()[:MAX_GOAL]
    if goal:
        request["goal"] = goal
    request["table"] = {"contest": box.get("id")}
    return request


def contest_tools(groups: Collection[str], stress_types: Sequence[str]) -> GameTools:
    """A Cortex Plus game's TOOLS: the GM's number to beat, the tool that opens a
    contest, and the contest box (its pools read in `groups`, its stress in
    `stress_types`)."""
    return GameTools(
        difficulty=DIFFICULTY,
        gm_tools=(
            GmTool(
                action=START,
                title="Open a contest",
                partial="kit/contest_start",
                read=start_request,
                address="contest",
                where="the GM dashboard's contest",
                opened=False,
            ),
        ),
        panel=PanelBox(
            address="contest",
            partial="kit/contest_box",
            read=partial(contest_box, groups=tuple(groups), stress_types=tuple(stress_types)),
            turn=whose_turn,
            moves={
                "give_in": PanelMove(GIVE_IN, at_contest),
                "stress": PanelMove(STRESS, stress_request),
            },
            roll=TurnRoll(ROLL, turn_request, fields="kit/contest_goal", words="(contest)"),
            where=BOX,
        ),
    )
