"""Contests of the Cortex Plus games as actions: start, roll in turn, give in, take stress.

The contest state itself (`Contest`, `parse_contest`, `contest_json`) lives in
`rules.kit.cortex` with the rest of the shared core; here is the flow over it
(SER-6, SER-7, SER-10; SMV-10), one set of actions each game declares.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from .actions import Action
from .cortex import (
    EXTRAORDINARY_MARGIN,
    MAX_GOAL,
    Contest,
    ContestRoll,
    ContestSide,
    CortexGame,
    benefit_options,
    choose_benefit,
    contest_json,
    parse_contest,
    parse_sides,
    parse_stress_track,
    schema_field,
    stress_change,
    stress_track_schema,
    without_dice,
)
from .dice import die_name, step_up
from .errors import InvalidRequest
from .faces import FaceSource
from .requests import get_choice, get_int, get_str


def start_contest(req: Mapping) -> Contest:
    """SER-6: both sides and their telegraphed goals, and who rolls first."""
    sides = parse_sides(req)
    for side in sides:
        if not side.goal:
            raise InvalidRequest(f"{side.name} must telegraph a goal before the contest starts")
    return Contest(sides=sides, turn=get_int(req, "first", lo=0, hi=1, default=0))


def _check_turn(contest: Contest, req: Mapping, doing: str) -> int:
    if contest.status != "open":
        raise InvalidRequest("this contest is already decided")
    side = req.get("side")
    if side is not None and get_int(req, "side", lo=0, hi=1) != contest.turn:
        raise InvalidRequest(
            f"it is {contest.sides[contest.turn].name}'s turn, not "
            f"{contest.sides[1 - contest.turn].name}'s, to {doing}"
        )
    return contest.turn


def contest_roll(game: CortexGame, req: Mapping, faces: FaceSource) -> dict[str, Any]:
    """SER-6: the side whose turn it is rolls and must strictly beat the standing result.

    Beating it passes the turn. Failing ends the contest: the side whose result
    stood wins and the failed side takes stress (SER-7) equal to the effect die of
    that standing result. SER-10 (where the game has it): when the failed roll
    falls 5 or more short of the standing result, the winner scores an
    extraordinary success, as the seed defines it for contests.
    """
    contest = parse_contest(req.get("contest"), game.pool_groups)
    side = _check_turn(contest, req, "roll")
    goal = contest.sides[side].goal
    if req.get("goal") is not None:
        goal = get_str(req, "goal", max_len=MAX_GOAL).strip() or goal
    if not goal:
        raise InvalidRequest(f"{contest.sides[side].name} must telegraph a goal before rolling")
    sides = list(contest.sides)
    sides[side] = ContestSide(name=sides[side].name, goal=goal, gm=sides[side].gm)
    rolled = game.roll_side(req, faces, contest.sides[side].gm)
    this_roll = ContestRoll(side, rolled.result, rolled.effect_size, rolled.entries)
    roller, other = sides[side].name, sides[1 - side].name
    standing = contest.standing
    base = dict(sides=(sides[0], sides[1]), rolls=contest.rolls + 1)
    if standing is None or rolled.result > standing.result:
        new = Contest(**base, turn=1 - side, standing=this_roll)
        text = (
            f"{roller} sets the mark at {rolled.result}."
            if standing is None
            else f"{roller}'s {rolled.result} beats {standing.result}."
        )
        text += f" {other} must beat {rolled.result} or give in."
        headline = f"{roller}: {rolled.result} stands"
    else:
        margin = standing.result - rolled.result
        extraordinary = game.extraordinary and margin >= EXTRAORDINARY_MARGIN
        new = Contest(
            **base,
            turn=side,
            status="stress_pending",
            standing=standing,
            failed=this_roll,
            winner=standing.side,
            stress_die=standing.effect,
            extraordinary=extraordinary,
        )
        text = (
            f"{roller}'s {rolled.result} fails to beat {standing.result}: {other} wins. "
            f"{roller} stands their ground but takes {die_name(standing.effect)} stress, "
            f"of a type {other} chooses."
        )
        if extraordinary:
            text += f" Extraordinary success for {other} (by {margin})."
        headline = f"{roller}: {rolled.result} fails, {die_name(standing.effect)} stress"
    outcome = {
        "headline": headline,
        "explanation": f"{text} Roll: {rolled.outcome['explanation']}",
        "roll": without_dice(rolled.outcome),
        "dice": rolled.outcome["dice"],
        "side": side,
        "beaten": new.status == "open",
        "margin": None if standing is None else rolled.result - standing.result,
        "winner": new.winner,
        "contest": contest_json(new),
    }
    if new.extraordinary:
        outcome["benefit_options"] = _contest_benefits(new)
    return outcome


def _contest_benefits(contest: Contest) -> list[dict[str, Any]]:
    assert contest.standing is not None and contest.failed is not None
    return benefit_options(
        gm=contest.sides[contest.standing.side].gm,
        winner_pool=contest.standing.pool,
        loser_pool=contest.failed.pool,
        stress_die=contest.stress_die,
    )


def give_in(game: CortexGame, req: Mapping) -> dict[str, Any]:
    """SER-6: the side whose turn it is gives in; the other side gets its goal, no stress."""
    contest = parse_contest(req.get("contest"), game.pool_groups)
    side = _check_turn(contest, req, "give in")
    winner = 1 - side
    new = Contest(
        sides=contest.sides,
        turn=side,
        status="given_in",
        standing=contest.standing,
        winner=winner,
        rolls=contest.rolls,
    )
    loser_name, winner_side = contest.sides[side].name, contest.sides[winner]
    return {
        "headline": f"{loser_name} gives in",
        "explanation": f"{loser_name} gives in and takes no stress; {winner_side.name} gets "
        f"their goal: {winner_side.goal}.",
        "winner": winner,
        "goal_granted": winner_side.goal,
        "contest": contest_json(new),
    }


def settle_contest(game: CortexGame, req: Mapping) -> dict[str, Any]:
    """SER-7: the winner picks the stress type; the stress rule updates the loser's track.

    SER-10: after an extraordinary success the winner's chosen benefit is applied
    (a stepped-up stress die before the stress rule) and recorded.
    """
    contest = parse_contest(req.get("contest"), game.pool_groups)
    if contest.status != "stress_pending":
        raise InvalidRequest("this contest is not waiting for stress to be chosen")
    assert contest.failed is not None and contest.stress_die is not None
    stress_type = get_choice(req, "type", game.stress_types)
    track = parse_stress_track(req.get("stress", {}), game.stress_types)
    stress_die = contest.stress_die
    options = _contest_benefits(contest) if contest.extraordinary else []
    benefit = None
    if options:
        benefit = choose_benefit(options, req)
        if benefit["benefit"] == "step_up_stress":
            stress_die = step_up(stress_die)
    elif req.get("benefit") is not None:
        raise InvalidRequest("no extraordinary-success benefit applies to this contest")
    change = stress_change(track, stress_type, stress_die)
    loser = contest.sides[contest.failed.side].name
    new = Contest(
        sides=contest.sides,
        turn=contest.turn,
        status="over",
        standing=contest.standing,
        failed=contest.failed,
        winner=contest.winner,
        stress_die=stress_die,
        extraordinary=contest.extraordinary,
        rolls=contest.rolls,
    )
    text = f"{loser} takes {die_name(stress_die)} {stress_type} stress. {change['text']}"
    if benefit:
        text = f"Benefit: {benefit['text']}. {text}"
    return {
        "headline": f"{loser}: {stress_type} {change['to']}"
        + (", taken out" if change["taken_out"] else ""),
        "explanation": text,
        "contest": contest_json(new),
        "stress_change": change,
        "stress": change["stress"],
        "taken_out": change["taken_out"],
        "benefit": benefit,
    }


def contest_actions(
    game: CortexGame,
    *,
    rules: tuple[str, ...],
    roll_schema: Mapping[str, Any],
    examples: Mapping[str, tuple[Mapping[str, Any], tuple[int, ...]]],
) -> dict[str, Action]:
    """The four contest actions of a game, sharing one flow (SER-6, SER-7, SER-10)."""
    state = schema_field("object", "the contest as the previous contest action returned it", "")
    turn_check = schema_field("int", "optional: the side acting", "0 or 1, the side whose turn")
    actions = [
        Action(
            name="contest_start",
            title="Start a contest",
            resolver=lambda req, faces: _started(start_contest(req)),
            rules=rules,
            schema={
                "sides": schema_field(
                    "list",
                    'two sides {"name", "goal" (telegraphed), "gm": true if the GM plays it}',
                    "exactly two; name 1-80 characters, goal 1-200",
                ),
                "first": schema_field("int", "which side rolls first", "0 or 1, default 0"),
            },
            rolls=False,
        ),
        Action(
            name="contest_roll",
            title="Roll in a contest",
            resolver=lambda req, faces: contest_roll(game, req, faces),
            rules=rules,
            schema={
                "contest": state,
                "side": turn_check,
                "goal": schema_field("string", "optional new telegraphed goal", "1-200 characters"),
                **roll_schema,
            },
        ),
        Action(
            name="contest_give_in",
            title="Give in",
            resolver=lambda req, faces: give_in(game, req),
            rules=rules,
            schema={"contest": state, "side": turn_check},
            rolls=False,
        ),
        Action(
            name="contest_stress",
            title="Take stress after a contest",
            resolver=lambda req, faces: settle_contest(game, req),
            rules=rules,
            schema={
                "contest": state,
                "type": schema_field(
                    "string", "stress type the winner chooses", ", ".join(game.stress_types)
                ),
                "stress": stress_track_schema(game.stress_types, "the loser's"),
                "benefit": schema_field(
                    "string", "after an extraordinary success: one of benefit_options", "a key"
                ),
                "target": schema_field("string", "the trait the benefit applies to", "1-80"),
            },
            rolls=False,
        ),
    ]
    return {
        action.name: replace(
            action, example=examples[action.name][0], example_faces=examples[action.name][1]
        )
        for action in actions
    }


def _started(contest: Contest) -> dict[str, Any]:
    first = contest.sides[contest.turn]
    goals = "; ".join(f"{s.name} wants: {s.goal}" for s in contest.sides)
    return {
        "headline": f"Contest: {contest.sides[0].name} vs {contest.sides[1].name}",
        "explanation": f"{goals}. {first.name} rolls first.",
        "contest": contest_json(contest),
    }
