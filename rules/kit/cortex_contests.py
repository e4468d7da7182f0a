"""Contests of the Cortex Plus games as actions: start, roll in turn, give in, take stress;
and a roll against the number to beat the GM's opposition set.

The contest state itself (`Contest`, `parse_contest`, `contest_json`) lives in
`rules.kit.cortex` with the rest of the shared core; here is the flow over it
(SER-6, SER-7, SER-10; SMV-10), one set of actions each game declares. A player's roll
against the scene's opposition (SER-5, SMV-10: the result of the GM's pool, or a number
the GM set) is scored by `score_roll`, the set number by `set_difficulty_action`.
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
    SideRoll,
    against,
    benefit_options,
    choose_benefit,
    contest_json,
    parse_contest,
    parse_entries,
    parse_sides,
    parse_stress_track,
    schema_field,
    stress_change,
    stress_track_schema,
    verdict_words,
    without_dice,
)
from .dice import die_name, step_up
from .errors import InvalidRequest
from .faces import FaceSource
from .requests import get_bool, get_choice, get_int, get_str

MAX_DIFFICULTY = 999  # a number to beat: a Cortex Plus result, plot-point dice and all
MAX_NOTE = 120


# ---------------------------------------------------------------------------
# A roll against the scene's opposition (SER-5, SER-10; SMV-10)


def score_roll(
    game: CortexGame,
    req: Mapping,
    side: SideRoll,
    outcome: dict[str, Any],
    *,
    result_words: str,
    tail: str = "",
) -> None:
    """SER-5, SMV-10: a roll whose request carries the number to beat (`difficulty`, the
    table's: the result of the GM's opposition pool, or a number the GM set) says on its
    face whether it beat it: "Result 14 vs 9 — success by 5, effect d8". Strictly greater
    succeeds, a tie fails; SER-10 where the game has it, against the opposition's dice
    (`opposition_pool`) for the benefits. A GM pool that `opposes` says it sets the number.
    `result_words` opens the headline ("Result 14", "Botch, result 0"), `tail` ends it
    (", 1 complication")."""
    if req.get("difficulty") is None:
        if get_bool(req, "opposes"):
            outcome["headline"] += " — the number to beat"
            outcome["explanation"] += (
                f" The GM's opposition: {side.result} is the number to beat for the scene's "
                "following rolls."
            )
        return
    number = get_int(req, "difficulty", lo=0, hi=MAX_DIFFICULTY, what="the number to beat")
    opposition = [
        die for die, _ in parse_entries(req.get("opposition_pool") or [], game.pool_groups,
                                        "opposition pool")
    ]  # fmt: skip
    scored = against(game, side, number, opposition)
    verdict = verdict_words(game, scored)
    effect = f", effect {die_name(side.effect_size)}" if scored["success"] else ""
    outcome["headline"] = f"{result_words} vs {number} — {verdict}{effect}{tail}"
    compared = (
        "beats" if scored["success"] else "ties" if scored["margin"] == 0 else "does not beat"
    )
    outcome["explanation"] += (
        f" Against {number}, the number to beat: {side.result} {compared} {number}, {verdict}."
    )
    outcome["difficulty"] = number
    outcome["success"] = scored["success"]
    if game.extraordinary:
        outcome["margin"] = scored["margin"]
        outcome["extraordinary"] = scored["extraordinary"]


def resolve_set_difficulty(req: Mapping, faces: FaceSource) -> dict[str, Any]:
    """SER-5, SMV-10: the GM sets the number the players' rolls must beat for the scene,
    instead of rolling the opposition (or clears it)."""
    note = get_str(req, "note", default="", max_len=MAX_NOTE, what="the note").strip()
    if get_bool(req, "clear"):
        if req.get("difficulty") is not None:
            raise InvalidRequest("give a number to beat, or clear it, not both")
        return {
            "headline": "The GM clears the number to beat",
            "explanation": "No number to beat is set: the GM rolls the opposition, or sets one.",
            "difficulty": None,
            "note": None,
        }
    if req.get("difficulty") is None:
        raise InvalidRequest("give the number to beat, or clear it")
    value = get_int(req, "difficulty", lo=0, hi=MAX_DIFFICULTY, what="the number to beat")
    sentences = [
        f"The players' rolls now have {value} to beat: a result strictly greater succeeds, "
        "a tie fails."
    ]
    if note:
        sentences.append(f"Why: {note}.")
    return {
        "headline": f"The GM sets the number to beat: {value}",
        "explanation": " ".join(sentences),
        "difficulty": value,
        "note": note or None,
    }


def set_difficulty_action(rules: tuple[str, ...]) -> Action:
    return Action(
        name="set_difficulty",
        title="Set the number to beat",
        resolver=resolve_set_difficulty,
        rules=rules,
        schema={
            "difficulty": schema_field(
                "int", "the number the players' rolls must beat", f"0-{MAX_DIFFICULTY}, or none"
            ),
            "clear": schema_field("bool", "clear the number instead", "default false"),
            "note": schema_field("string", "why, shown on the card", "optional"),
        },
        example={"difficulty": 9, "note": "the guards are alert"},
        rolls=False,
    )


ROLL_SCHEMA = {
    "difficulty": schema_field(
        "int",
        "the number to beat, from the table (the GM's opposition); the card says whether the "
        "roll beat it",
        f"0-{MAX_DIFFICULTY}, optional",
    ),
    "opposition_pool": schema_field(
        "list of dice", "the dice of the GM pool that set the number to beat", "as pool"
    ),
    "opposes": schema_field(
        "bool", "a GM pool that sets the number to beat (the table says so)", "default false"
    ),
}


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
