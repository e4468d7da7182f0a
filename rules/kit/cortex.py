"""Cortex Plus core shared by Serenity Plus and Smallville.

A pool is rolled, the two highest dice that did not roll 1 make the result,
the best unused die gives the effect, and 1s are complications. Tests and
contests compare such results; stress is the effect die of the result that
stood. Everything here is a pure function of validated data, so the odds
engine, the table and both games read the rules from one place. The contest
actions built on this core are in `rules.kit.cortex_contests`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .actions import Action
from .dice import Die, die_name, parse_pool, parse_size, step_down, step_up
from .errors import InvalidRequest, RulesError
from .faces import FaceSource
from .requests import (
    MISSING,
    get_bool,
    get_choice,
    get_int,
    get_list,
    get_str,
    require_mapping,
)

STRESS_TYPES: tuple[str, ...] = ("Afraid", "Angry", "Exhausted", "Injured", "Insecure")
EXTRAORDINARY_MARGIN = 5
MAX_PLOT_POINTS = 99
MAX_NAME = 80
MAX_GOAL = 200
MAX_TRAITS = 60

ROLE_RESULT = "result"
ROLE_EFFECT = "effect"
ROLE_COMPLICATION = "complication"
ROLE_UNUSED = "unused"


# ---------------------------------------------------------------------------
# Result and effect (SER-2, SER-3, SER-4, SER-8)


@dataclass(frozen=True)
class PoolResult:
    """What a rolled pool yields; dice are referred to by their index in the pool."""

    sizes: tuple[int, ...]
    faces: tuple[int, ...]
    result: int
    result_dice: tuple[int, ...]
    bought_dice: tuple[int, ...]
    effect_die: int | None
    effect_size: int
    complications: tuple[int, ...]

    @property
    def botch(self) -> bool:
        """No die above 1: result 0 (SER-2)."""
        return not self.result_dice

    @property
    def plot_points_spent(self) -> int:
        return len(self.bought_dice)

    def roles(self) -> list[str]:
        roles = [ROLE_UNUSED] * len(self.sizes)
        for index in self.complications:
            roles[index] = ROLE_COMPLICATION
        for index in self.result_dice:
            roles[index] = ROLE_RESULT
        if self.effect_die is not None:
            roles[self.effect_die] = ROLE_EFFECT
        return roles


def result_and_effect(
    sizes: Sequence[int], faces: Sequence[int], plot_points: int = 0
) -> PoolResult:
    """Result, effect die and complications of one rolled pool.

    SER-2: the result is the sum of the two highest faces that are not 1. Among
    equal faces the result takes the SMALLER dice, so the larger one stays free to
    be the effect die (the choice best for the roller).
    SER-8: each plot point adds the next die in that same order to the result, while
    non-1 dice remain; points that would find no die are not spent.
    SER-4: the effect die is, among the dice neither in the result nor showing 1,
    the one with the highest face; equal faces go to the LARGER size; with none
    left the effect is a d4. Dice bought with plot points are in the result, so
    they are never the effect die.
    SER-3: every die showing 1 is a complication.
    """
    if len(sizes) != len(faces):
        raise RulesError("each die needs exactly one face")
    counting = [i for i, face in enumerate(faces) if face != 1]
    counting.sort(key=lambda i: (-faces[i], sizes[i], i))
    taken = min(len(counting), 2 + max(plot_points, 0))
    result_dice = tuple(counting[:taken])
    leftover = counting[taken:]
    effect_die = max(leftover, key=lambda i: (faces[i], sizes[i], -i)) if leftover else None
    return PoolResult(
        sizes=tuple(sizes),
        faces=tuple(faces),
        result=sum(faces[i] for i in result_dice),
        result_dice=result_dice,
        bought_dice=result_dice[2:],
        effect_die=effect_die,
        effect_size=sizes[effect_die] if effect_die is not None else 4,
        complications=tuple(i for i, face in enumerate(faces) if face == 1),
    )


# ---------------------------------------------------------------------------
# Pools from requests


def parse_entries(value: object, groups: Collection[str], what: str) -> list[tuple[Die, Mapping]]:
    """Pool entries of a request with their raw mappings (for per-entry flags).

    Every entry must name a group the pool accepts, so a die always says which
    part of the sheet (or of the scene) it came from.
    """
    dice = parse_pool(value, what=what)
    entries = []
    for die, raw in zip(dice, value, strict=True):  # type: ignore[arg-type]
        if die.group not in groups:
            allowed = ", ".join(groups)
            raise InvalidRequest(
                f"{die.label} in the {what} needs a group, one of: {allowed}"
                if not die.group
                else f"{die.label}: {die.group[:40]!r} is not a group this {what} takes "
                f"(use one of: {allowed})"
            )
        entries.append((die, raw if isinstance(raw, Mapping) else {}))
    return entries


def entry_flag(
    die: Die,
    raw: Mapping,
    flag: str,
    groups: Iterable[str],
    refusal: str,
    *,
    default: bool = False,
) -> bool:
    """A true/false flag on a pool entry; set on a group it means nothing for, it is refused."""
    if flag not in raw:
        return default
    value = raw[flag]
    if not isinstance(value, bool):
        raise InvalidRequest(f"{die.label}: {flag.replace('_', ' ')} must be true or false")
    if value != default and die.group not in groups:
        raise InvalidRequest(f"{die.label}: {refusal}")
    return value


def entry_text(die: Die, raw: Mapping, key: str, default: Any = MISSING) -> str:
    """A text field on a pool entry (a Refinement's Stylin', a Limit's Ability)."""
    value = raw.get(key, default)
    if value is MISSING:
        raise InvalidRequest(f"{die.label} needs its {key.replace('_', ' ')}")
    if not isinstance(value, str) or len(value) > MAX_NAME:
        raise InvalidRequest(
            f"{die.label}: {key.replace('_', ' ')} must be text of at most {MAX_NAME} characters"
        )
    return value


def same_name(a: str, b: str) -> bool:
    """Trait names match ignoring case, spacing and the curly apostrophes of the seeds."""

    def norm(text: str) -> str:
        return " ".join(text.replace("\u2019", "'").casefold().split())

    return norm(a) == norm(b)


def check_stress_entry(die: Die, stress_types: Sequence[str]) -> None:
    """A stress die in a pool names its stress type, so the log says what it was."""
    if die.group == "stress" and die.trait not in stress_types:
        raise InvalidRequest(f"a stress die must name its type, one of: {', '.join(stress_types)}")


def get_plot_points(req: Mapping, key: str = "plot_points") -> int:
    """Plot points spent inside a roll to add dice to the result (SER-8, SMV-8)."""
    return get_int(req, key, lo=0, hi=MAX_PLOT_POINTS, default=0, what="plot points")


def draw_pool(dice: Sequence[Die], faces: FaceSource) -> list[int]:
    """One face per die, in pool order, so replaying the faces replays the roll."""
    return [faces.draw(die.size) for die in dice]


def entry_json(die: Die) -> dict[str, str]:
    return {"die": die.name, "trait": die.trait, "group": die.group}


def dice_json(dice: Sequence[Die], faces: Sequence[int], roles: Sequence[str]) -> list[dict]:
    """The outcome's "dice" list: one entry per die rolled, saying what it did."""
    return [
        {**entry_json(die), "face": face, "role": role}
        for die, face, role in zip(dice, faces, roles, strict=True)
    ]


def die_phrase(die: Die, face: int | None = None) -> str:
    return die.label if face is None else f"{die.label} ({face})"


def pool_summary(dice: Sequence[Die], rolled: PoolResult) -> dict[str, Any]:
    """Fields every Cortex Plus roll outcome has, and the sentences that explain them."""
    parts = [die_phrase(dice[i], rolled.faces[i]) for i in rolled.result_dice]
    if rolled.botch:
        sentences = ["Botch: no die came up above 1, so the result is 0."]
    else:
        sentences = [f"Result {rolled.result}: {' + '.join(parts)}."]
    if rolled.bought_dice:
        bought = ", ".join(die_phrase(dice[i], rolled.faces[i]) for i in rolled.bought_dice)
        points = rolled.plot_points_spent
        sentences.append(f"{points} plot point{'s' if points > 1 else ''} added {bought}.")
    if rolled.effect_die is None:
        sentences.append("Effect d4: no unused die above 1.")
    else:
        effect = dice[rolled.effect_die]
        sentences.append(
            f"Effect {die_name(rolled.effect_size)}: "
            f"{die_phrase(effect, rolled.faces[rolled.effect_die])} is the best unused die."
        )
    complications = [entry_json(dice[i]) for i in rolled.complications]
    if complications:
        names = ", ".join(die_phrase(dice[i]) for i in rolled.complications)
        sentences.append(f"Rolled 1 on {names}: set aside as complications.")
    return {
        "result": rolled.result,
        "effect": die_name(rolled.effect_size),
        "botch": rolled.botch,
        "complications": complications,
        "plot_points_spent": rolled.plot_points_spent,
        "dice": dice_json(dice, rolled.faces, rolled.roles()),
        "explanation": " ".join(sentences),
    }


def headline(result: int, effect_size: int, complications: int, *, botch: bool) -> str:
    text = "Botch, result 0" if botch else f"Result {result}, effect {die_name(effect_size)}"
    if complications:
        text += f", {complications} complication{'s' if complications > 1 else ''}"
    return text


# ---------------------------------------------------------------------------
# Stress (SER-7, SMV-10)


def parse_stress_track(value: object, stress_types: Sequence[str]) -> dict[str, int | None]:
    """A character's held stress: one die (or none) per stress type."""
    data = require_mapping(value, "stress track")
    track: dict[str, int | None] = dict.fromkeys(stress_types)
    for key, die in data.items():
        if key not in track:
            raise InvalidRequest(
                f"{str(key)[:40]} is not a stress type here (use: {', '.join(stress_types)})"
            )
        track[key] = None if die is None else parse_size(die)
    return track


def stress_track_json(track: Mapping[str, int | None]) -> dict[str, str | None]:
    return {key: None if size is None else die_name(size) for key, size in track.items()}


def add_stress(held: int | None, new: int) -> tuple[int, bool]:
    """SER-7 stress rule: new stress larger than the held die replaces it; otherwise
    the held die steps up one size. Stepping up past d12 takes the character out.

    Returns (the die now held, taken out?). A taken-out character keeps the d12.
    """
    if held is None or new > held:
        return new, False
    if held == 12:
        return 12, True
    return step_up(held), False


def stress_change(track: dict[str, int | None], stress_type: str, new: int) -> dict[str, Any]:
    """Apply stress to a track and describe it for the log (SER-7)."""
    held = track[stress_type]
    now, taken_out = add_stress(held, new)
    track = {**track, stress_type: now}
    was = "no stress" if held is None else die_name(held)
    if taken_out:
        text = f"{stress_type} was already d12: the character is taken out of the scene."
    elif held is None:
        text = f"New {stress_type} stress: {die_name(now)}."
    elif new > held:
        text = f"The larger {die_name(new)} replaces {stress_type} {was}."
    else:
        text = (
            f"{die_name(new)} is not larger than {stress_type} {was}, "
            f"which steps up to {die_name(now)}."
        )
    return {
        "stress": stress_track_json(track),
        "type": stress_type,
        "from": None if held is None else die_name(held),
        "to": die_name(now),
        "taken_out": taken_out,
        "text": text,
    }


# ---------------------------------------------------------------------------
# Extraordinary success (SER-10)

PLAYER_BENEFITS: dict[str, str] = {
    "step_up_stress": "Step up the stress die inflicted",
    "promote_asset": "Promote a scene Asset to a session Asset",
    "step_up_asset": "Step up an Asset used in the roll (max d12)",
    "remove_complication": "Remove a d6 complication rolled against you",
    "step_down_complication": "Step down a d8 or larger complication rolled against you",
    "step_down_stress": "Step down one of your stress dice rolled against you",
}
GM_BENEFITS: dict[str, str] = {
    "step_up_stress": "Step up the stress die inflicted",
    "step_up_complication": "Step up a complication included in the roll",
}


def _benefit(key: str, die: Die | None, new_size: int | None, *, gm: bool) -> dict[str, Any]:
    title = (GM_BENEFITS if gm else PLAYER_BENEFITS)[key]
    if die is None:
        return {
            "benefit": key,
            "text": title,
            "trait": None,
            "group": None,
            "from": None,
            "to": None,
        }
    change = "removed" if new_size is None else f"to {die_name(new_size)}"
    return {
        "benefit": key,
        "text": f"{title}: {die_phrase(die)} {change}",
        "trait": die.trait,
        "group": die.group,
        "from": die.name,
        "to": None if new_size is None else die_name(new_size),
    }


def benefit_options(
    *, gm: bool, winner_pool: Sequence[Die], loser_pool: Sequence[Die], stress_die: int | None
) -> list[dict[str, Any]]:
    """SER-10: the concrete benefits the winner of an extraordinary success can pick.

    Complications and stress dice in a pool are the OTHER side's, used against
    them, so a player's "complication rolled against you" is a complication die in
    the loser's pool and a GM character's "complication in the roll" is one in the
    GM's own pool. Dice already at d12 cannot step up, so they are not offered.
    """
    options: list[dict[str, Any]] = []
    if stress_die is not None:
        stress = Die(size=stress_die, group="stress")
        if stress_die < 12:
            options.append(_benefit("step_up_stress", stress, step_up(stress_die), gm=gm))
    if gm:
        for die in winner_pool:
            if die.group == "complications" and die.size < 12:
                options.append(_benefit("step_up_complication", die, step_up(die.size), gm=gm))
    else:
        options.append(_benefit("promote_asset", None, None, gm=gm))
        for die in winner_pool:
            if die.group == "assets" and die.size < 12:
                options.append(_benefit("step_up_asset", die, step_up(die.size), gm=gm))
        for die in loser_pool:
            if die.group == "complications" and die.size == 6:
                options.append(_benefit("remove_complication", die, None, gm=gm))
            if die.group == "complications" and die.size >= 8:
                options.append(_benefit("step_down_complication", die, step_down(die.size), gm=gm))
            if die.group == "stress":
                options.append(_benefit("step_down_stress", die, step_down(die.size), gm=gm))
    unique: dict[tuple[str, str | None], dict[str, Any]] = {}
    for option in options:
        unique.setdefault((option["benefit"], option["trait"]), option)
    return list(unique.values())


def choose_benefit(options: Sequence[Mapping[str, Any]], req: Mapping) -> dict[str, Any]:
    """The benefit named by `benefit` (and `target`, the trait) among the options (SER-10)."""
    keys = sorted({o["benefit"] for o in options})
    if not keys:
        raise InvalidRequest("no extraordinary-success benefit applies to this roll")
    key = get_choice(req, "benefit", keys)
    target = None if req.get("target") is None else get_str(req, "target", max_len=MAX_NAME)
    if key == "promote_asset":
        asset = (target or "").strip()
        if not asset:
            raise InvalidRequest("name the scene Asset to promote (target)")
        return {
            **_benefit(key, None, None, gm=False),
            "trait": asset,
            "text": f"{PLAYER_BENEFITS[key]}: {asset}",
        }
    fitting = [o for o in options if o["benefit"] == key]
    if key == "step_up_stress" or (target is None and len(fitting) == 1):
        return dict(fitting[0])
    for option in fitting:
        if target is not None and same_name(option["trait"], target):
            return dict(option)
    names = ", ".join(repr(o["trait"]) for o in fitting)
    raise InvalidRequest(f"choose the target of this benefit (target), one of: {names}")


# ---------------------------------------------------------------------------
# Tests and contests (SER-5, SER-6, SER-7, SER-10; SMV-10)


@dataclass(frozen=True)
class SideRoll:
    """One side's rolled pool, as the test and contest flows need it.

    `entries` are the pool's dice as requested (a challenged Value once, not
    three times): SER-10 picks its targets among them.
    """

    result: int
    effect_size: int
    entries: tuple[Die, ...]
    outcome: dict[str, Any]


RollSide = Callable[[Mapping, FaceSource, bool], SideRoll]


@dataclass(frozen=True)
class CortexGame:
    """What the shared test and contest flows need from one game.

    `roll_side(request, faces, gm)` validates and rolls one side's pool;
    `extraordinary` says whether SER-10 benefits exist in this game.
    """

    name: str
    stress_types: tuple[str, ...]
    roll_side: RollSide
    extraordinary: bool
    pool_groups: Collection[str]


def against(
    game: CortexGame, player: SideRoll, number: int, opposition: Sequence[Die] = ()
) -> dict[str, Any]:
    """SER-5, SMV-10: a player's rolled side against the number to beat (the result of the
    GM's opposition pool, or a number the GM set). Only a result strictly greater succeeds:
    a tie fails. SER-10 (where the game has it): a margin of 5 or more either way is an
    extraordinary success, for the player or for the opposition, with its benefits (the
    opposition's `opposition` dice are the other side's pool)."""
    margin = player.result - number
    extraordinary = None
    if game.extraordinary and abs(margin) >= EXTRAORDINARY_MARGIN:
        by_gm = margin < 0
        winner, loser = (opposition, player.entries) if by_gm else (player.entries, opposition)
        extraordinary = {
            "by": "opposition" if by_gm else "player",
            "margin": abs(margin),
            "options": benefit_options(
                gm=by_gm, winner_pool=winner, loser_pool=loser, stress_die=None
            ),
        }
    return {"success": margin > 0, "margin": margin, "extraordinary": extraordinary}


def verdict_words(game: CortexGame, scored: Mapping[str, Any]) -> str:
    """The outcome against the number to beat in the game's words, for the card's face:
    success or failure, the margin where the game reads one (SER-10), and a tie."""
    margin = scored["margin"]
    extraordinary = scored.get("extraordinary")
    if scored["success"]:
        words = "extraordinary success" if extraordinary else "success"
        return f"{words} by {margin}" if game.extraordinary else words
    if margin == 0:
        return "failure: a tie fails"
    if not game.extraordinary:
        return "failure"
    words = f"failure by {-margin}"
    return words + (": an extraordinary success for the opposition" if extraordinary else "")


def run_test(game: CortexGame, req: Mapping, faces: FaceSource) -> dict[str, Any]:
    """SER-5: the player's pool against the GM's, rolled in that order; a tie fails.

    SER-10 (where the game has it): beating the other side by 5 or more is an
    extraordinary success, with the menu for a player or for a GM character.
    """
    player = game.roll_side(require_mapping(req.get("player"), "player side"), faces, False)
    opposition = game.roll_side(
        require_mapping(req.get("opposition"), "opposition side"), faces, True
    )
    scored = against(game, player, opposition.result, opposition.entries)
    margin, success, extraordinary = scored["margin"], scored["success"], scored["extraordinary"]
    if success:
        verdict = f"{player.result} beats {opposition.result}"
    elif margin == 0:
        verdict = f"{player.result} ties {opposition.result}, and a tie fails"
    else:
        verdict = f"{player.result} does not beat {opposition.result}"
    if extraordinary:
        verdict += f" (an extraordinary success for the {extraordinary['by']}, by {abs(margin)})"
    title = "Success" if success else "Failure"
    dice = [
        {**d, "roller": roller}
        for roller, side in (("player", player), ("opposition", opposition))
        for d in side.outcome["dice"]
    ]
    return {
        "headline": f"{title}, {player.result} vs {opposition.result}"
        + (", extraordinary" if extraordinary else ""),
        "explanation": f"{title}: {verdict}. Player: {player.outcome['explanation']} "
        f"Opposition: {opposition.outcome['explanation']}",
        "success": success,
        "margin": margin,
        "extraordinary": extraordinary,
        "player": without_dice(player.outcome),
        "opposition": without_dice(opposition.outcome),
        "dice": dice,
    }


def without_dice(outcome: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in outcome.items() if k != "dice"}


CONTEST_STATUSES = ("open", "given_in", "stress_pending", "over")


@dataclass(frozen=True)
class ContestSide:
    name: str
    goal: str
    gm: bool


@dataclass(frozen=True)
class ContestRoll:
    """A roll a contest remembers: who, the result, its effect die, and its pool."""

    side: int
    result: int
    effect: int
    pool: tuple[Die, ...]


@dataclass(frozen=True)
class Contest:
    """A contest as plain data the table stores between actions (SER-6).

    `standing` is the last result not beaten; `failed` the roll that could not
    beat it. `status`: open (side `turn` must beat `standing` or give in),
    given_in, stress_pending (the winner picks the stress type), over.
    """

    sides: tuple[ContestSide, ContestSide]
    turn: int = 0
    status: str = "open"
    standing: ContestRoll | None = None
    failed: ContestRoll | None = None
    winner: int | None = None
    stress_die: int | None = None
    extraordinary: bool = False
    rolls: int = 0


def contest_json(contest: Contest) -> dict[str, Any]:
    def roll_json(roll: ContestRoll | None) -> dict[str, Any] | None:
        if roll is None:
            return None
        return {
            "side": roll.side,
            "result": roll.result,
            "effect": die_name(roll.effect),
            "pool": [entry_json(d) for d in roll.pool],
        }

    return {
        "sides": [{"name": s.name, "goal": s.goal, "gm": s.gm} for s in contest.sides],
        "turn": contest.turn,
        "status": contest.status,
        "standing": roll_json(contest.standing),
        "failed": roll_json(contest.failed),
        "winner": contest.winner,
        "stress_die": None if contest.stress_die is None else die_name(contest.stress_die),
        "extraordinary": contest.extraordinary,
        "rolls": contest.rolls,
    }


def _parse_contest_side(value: object, index: int) -> ContestSide:
    data = require_mapping(value, f"contest side {index + 1}")
    name = get_str(data, "name", max_len=MAX_NAME, what=f"side {index + 1}'s name").strip()
    if not name:
        raise InvalidRequest(f"side {index + 1} needs a name")
    goal = get_str(data, "goal", default="", max_len=MAX_GOAL, what=f"{name}'s goal").strip()
    return ContestSide(name=name, goal=goal, gm=get_bool(data, "gm"))


def parse_sides(data: Mapping) -> tuple[ContestSide, ContestSide]:
    sides = get_list(data, "sides", max_len=2)
    if len(sides) != 2:
        raise InvalidRequest("a contest has exactly two sides")
    return (_parse_contest_side(sides[0], 0), _parse_contest_side(sides[1], 1))


def _parse_contest_roll(value: object, what: str, groups: Collection[str]) -> ContestRoll | None:
    if value is None:
        return None
    data = require_mapping(value, what)
    return ContestRoll(
        side=get_int(data, "side", lo=0, hi=1, what=f"{what} side"),
        result=get_int(data, "result", lo=0, hi=1000, what=f"{what} result"),
        effect=parse_size(data.get("effect")),
        pool=tuple(die for die, _ in parse_entries(data.get("pool"), groups, f"{what} pool")),
    )


def parse_contest(value: object, groups: Collection[str]) -> Contest:
    """A contest state from a request, checked field by field and for consistency."""
    data = require_mapping(value, "contest")
    sides = parse_sides(data)
    status = get_choice(data, "status", CONTEST_STATUSES)
    winner = data.get("winner")
    stress_raw = data.get("stress_die")
    contest = Contest(
        sides=sides,
        turn=get_int(data, "turn", lo=0, hi=1),
        status=status,
        standing=_parse_contest_roll(data.get("standing"), "standing roll", groups),
        failed=_parse_contest_roll(data.get("failed"), "failed roll", groups),
        winner=None if winner is None else get_int(data, "winner", lo=0, hi=1),
        stress_die=None if stress_raw is None else parse_size(stress_raw),
        extraordinary=get_bool(data, "extraordinary"),
        rolls=get_int(data, "rolls", lo=0, hi=10_000),
    )
    settled = status != "open"
    if (contest.winner is not None) != settled:
        raise InvalidRequest("this contest state is inconsistent: winner and status disagree")
    if status == "stress_pending" and not _stress_pending_consistent(contest):
        raise InvalidRequest("this contest state is inconsistent: no stress is pending")
    if status == "open" and (contest.failed is not None or contest.stress_die is not None):
        raise InvalidRequest("this contest state is inconsistent: an open contest has no loser")
    if contest.standing is not None and contest.standing.side == contest.turn and not settled:
        raise InvalidRequest("this contest state is inconsistent: a side cannot beat itself")
    return contest


def _stress_pending_consistent(contest: Contest) -> bool:
    standing, failed = contest.standing, contest.failed
    return (
        standing is not None
        and failed is not None
        and contest.stress_die is not None
        and contest.winner == standing.side
        and failed.side != standing.side
    )


# ---------------------------------------------------------------------------
# Actions both games share


def schema_field(kind: str, meaning: str, bounds: str) -> dict[str, str]:
    """One request field as the docs and forms describe it."""
    return {"type": kind, "meaning": meaning, "bounds": bounds}


def stress_track_schema(stress_types: Sequence[str], whose: str) -> dict[str, str]:
    return schema_field(
        "object",
        f"{whose} stress dice now, by type (missing or null: none)",
        f"keys: {', '.join(stress_types)}; values d4-d12 or null",
    )


def stress_action(game: CortexGame, *, rules: tuple[str, ...], example: Mapping) -> Action:
    """SER-7 / SMV-10 stress rule as an action: the held track in, the new track out."""

    def resolve(req: Mapping, faces: FaceSource) -> dict[str, Any]:
        track = parse_stress_track(req.get("stress", {}), game.stress_types)
        stress_type = get_choice(req, "type", game.stress_types)
        change = stress_change(track, stress_type, parse_size(req.get("die")))
        return {
            "headline": f"{stress_type} {change['to']}"
            + (", taken out" if change["taken_out"] else ""),
            "explanation": change["text"],
            **{k: v for k, v in change.items() if k != "text"},
        }

    return Action(
        name="stress",
        title="Take stress",
        resolver=resolve,
        rules=rules,
        schema={
            "stress": stress_track_schema(game.stress_types, "the character's"),
            "type": schema_field("string", "the stress type taken", ", ".join(game.stress_types)),
            "die": schema_field("die", "the new stress die", "d4-d12"),
        },
        example=example,
        rolls=False,
    )
