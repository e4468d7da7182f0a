"""The odds fragment: exact chances for a pool or a contest, as a chart and a sentence.

GET /c/<id>/odds/?pool=d8,d6,d10&target=11 (or POST the same fields, or the
pool builder's fields with `sheet`) answers with table/_odds.html: an SVG chart
of the distribution with the target marked (table/svg.py) and the chance of
success in words. Every number comes from the rules package's exact odds
(Fractions); this module only reads the request and lays the numbers out.

Fields, all optional but the pool:
  Cortex family (serenity, smallville, cortex_slots): pool (dice: "d8,d6" or
  repeated), side (Smallville side pool), plot_points (dice added to the
  result), big_hero (CTX die), target (the number to beat, strictly), vs
  (an opposing pool, for a test or a contest roll-off).
  personae: skill, attribute, bonus_dice, modifiers, then difficulty, or
  vs_skill + vs_attribute (+ vs_bonus_dice, vs_modifiers) for a reactor.
  unisystem: kind, attribute, skill, second_attribute, modifier (total of all
  modifiers), target (default 9), or vs_modifier (a resisted roll) or
  vs_score (a fixed Ability Score).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from campaigns.permissions import get_campaign_for_user
from rules.cortex_slots import odds as slots_odds
from rules.kit import cortex_odds, odds
from rules.kit.dice import parse_die
from rules.kit.errors import RulesError
from rules.personae import odds as personae_odds
from rules.serenity import actions as serenity_actions
from rules.serenity import odds as serenity_odds
from rules.smallville import actions as smallville_actions
from rules.smallville import odds as smallville_odds
from rules.unisystem import odds as uni_odds
from rules.unisystem import rolls as unisystem_rolls

from .svg import Bar, odds_chart, percent

MAX_FIELD = 400
UNI_WINDOW = (-6, 30)
UNI_SUCCESS = 9  # UNI-1: a total of 9 or more succeeds


@dataclass
class OddsView:
    """What _odds.html shows."""

    title: str = ""
    summary: str = ""
    chance: Fraction | None = None
    lines: list[str] = field(default_factory=list)
    chart: str = ""
    error: str = ""
    rows: list[Any] = field(default_factory=list)

    @property
    def percent(self) -> str:
        return "" if self.chance is None else percent(self.chance)


# --------------------------------------------------------------------------- reading fields


def _text(data: Mapping, key: str) -> str:
    if hasattr(data, "getlist"):
        values = [v for v in data.getlist(key) if v]
        return ",".join(values)[:MAX_FIELD]
    value = data.get(key, "")
    if isinstance(value, list | tuple):
        return ",".join(str(v) for v in value)[:MAX_FIELD]
    return str(value or "")[:MAX_FIELD]


def _number(data: Mapping, key: str, lo: int, hi: int) -> int | None:
    raw = _text(data, key).strip()
    if not raw:
        return None
    try:
        value = int(raw)
    except ValueError:
        raise RulesError(f"{key.replace('_', ' ')} must be a whole number") from None
    if not lo <= value <= hi:
        raise RulesError(f"{key.replace('_', ' ')} must be between {lo} and {hi}")
    return value


def _dice(data: Mapping, key: str) -> list[str]:
    raw = _text(data, key).replace(" ", ",")
    dice = [part for part in raw.split(",") if part]
    for die in dice:
        parse_die(die, allow_compound=True)
    if len(dice) > 40:
        raise RulesError("at most 40 dice")
    return dice


# --------------------------------------------------------------------------- the numbers


def _bars(chances: Mapping[int, Fraction], success) -> list[Bar]:
    return [Bar(row.value, row.chance, success(row.value)) for row in odds.chart_rows(chances)]


def _index(bars: list[Bar], first_success_value: int) -> float | None:
    for i, bar in enumerate(bars):
        if bar.value >= first_success_value:
            return float(i)
    return float(len(bars)) if bars else None


def _finish(
    view: OddsView, bars: list[Bar], target_label: str, first_success: int | None
) -> OddsView:
    view.rows = bars
    view.chart = odds_chart(
        bars,
        title=view.title,
        summary=view.summary,
        target_label=target_label,
        target_index=None if first_success is None else _index(bars, first_success),
    )
    return view


def cortex_family(
    system: str,
    dice: list,
    *,
    side: list | None = None,
    plot_points: int = 0,
    big_hero: object = None,
    target: int | None = None,
    vs: list | None = None,
    title: str = "",
) -> OddsView:
    """SER-2/SER-5, SMV-8/SMV-9, CTX-2/CTX-4: result (or total) distribution and success chance."""
    if not dice:
        raise RulesError("the pool is empty: pick at least one die")
    view = OddsView(title=title or f"Odds for {' '.join(str(d) for d in dice)}")
    if system == "cortex_slots":
        totals, success = _slots(dice, big_hero, target)
        hitches = slots_odds.hitch_odds(dice)
        view.lines.append(f"{percent(hitches.at_least_one)} chance of at least one hitch")
        view.lines.append(f"{percent(hitches.three_or_more)} chance of a botch (3+ hitches)")
        if vs:
            view.chance = slots_odds.slots_beats_gm_chance(dice, vs, big_hero=big_hero)
        elif target is not None:
            view.chance = success
        what = "total"
    else:
        extra = plot_points
        if system == "smallville":
            outcomes = smallville_odds.smallville_outcomes(dice, side or [], extra=extra)
            ones = cortex_odds.ones_odds(dice)
            view.lines.append(
                f"{percent(ones.all_ones)} chance every main die shows 1 (fails outright)"
            )
        else:
            outcomes = cortex_odds.serenity_outcomes(dice, extra=extra)
            ones = cortex_odds.ones_odds(dice)
        view.lines.insert(0, f"{percent(ones.at_least_one)} chance of at least one complication")
        totals = cortex_odds.results(outcomes)
        if vs:
            theirs = (
                smallville_odds.smallville_outcomes(vs)
                if system == "smallville"
                else cortex_odds.serenity_outcomes(vs)
            )
            view.chance = cortex_odds.chance_pool_beats(outcomes, theirs)
            if system == "serenity":
                extra_chance = serenity_odds.chance_extraordinary(outcomes, theirs)
                view.lines.append(f"{percent(extra_chance)} chance of an extraordinary success")
        elif target is not None:
            view.chance = cortex_odds.chance_above(outcomes, target)
            if system == "serenity":
                extraordinary = outcomes.chance_if(lambda key: key[0] >= target + 5)
                view.lines.append(
                    f"{percent(extraordinary)} chance of an extraordinary success ({target + 5}+)"
                )
        what = "result"
    chances = totals.probabilities()
    if vs:
        view.summary = f"{percent(view.chance)} to beat the opposing pool ({' '.join(vs)})."
        return _finish(view, _bars(chances, lambda v: True), "", None)
    if target is not None:
        view.summary = f"{percent(view.chance)} to beat {target}."
        if system == "cortex_slots":
            view.summary = f"{percent(view.chance)} to beat {target} (botches fail)."
        return _finish(view, _bars(chances, lambda v: v > target), f"beat {target}", target + 1)
    mean = sum((Fraction(v) * p for v, p in chances.items()), Fraction(0))
    view.summary = f"Average {what} {float(mean):.1f}; no number to beat yet."
    return _finish(view, _bars(chances, lambda v: True), "", None)


def _slots(dice: list, big_hero: object, target: int | None):
    """CTX-2, CTX-4, CTX-6 from ONE pass of rules.cortex_slots.odds.slots_outcomes (it is the
    costly part): the chart's totals as slots_placed_outcomes proposes them, and the chance
    of success as slots_success_chance counts it (the tests check both)."""
    outcomes = slots_odds.slots_outcomes(dice)
    hero = None
    if big_hero is not None:
        size = parse_die(big_hero).size
        hero = odds.Distribution(dict.fromkeys(range(1, size + 1), 1), size)

    def placed(key, face):
        total, _, botch = key
        if target is not None and not botch and total > target:
            return total
        return total + face

    totals = (
        cortex_odds.results(outcomes)
        if hero is None
        else odds.product_distribution(outcomes, hero, placed)
    )
    success = None
    if target is not None:
        weights: dict[int, int] = {}
        for (total, _, botch), ways in outcomes.weights.items():
            if not botch:
                weights[total] = weights.get(total, 0) + ways
        unbotched = odds.Distribution(weights, outcomes.total)
        if hero is not None:
            unbotched = odds.product_distribution(unbotched, hero, lambda t, f: t + f)
        success = unbotched.chance_if(lambda total: total > target)
    return totals, success


def _highest_plus(dice: int, bonus: int) -> dict[int, Fraction]:
    """PER-1: the first comparison's total, the highest of n d10 plus the bonus."""
    n = max(dice, 1)
    return {face + bonus: Fraction(face**n - (face - 1) ** n, 10**n) for face in range(1, 11)}


def personae(
    skill: int,
    attribute: int,
    *,
    bonus_dice: int = 0,
    modifiers: int = 0,
    difficulty: int | None = None,
    reactor: tuple[int, int] | None = None,
    critical_room: int | None = None,
    title: str = "",
) -> OddsView:
    """PER-1..PER-5: the grades' chances against a number or a reactor."""
    dice = max(skill, 1) + bonus_dice
    bonus = attribute + modifiers
    view = OddsView(title=title or f"Odds for {dice}d10 + {bonus}")
    chances = _highest_plus(dice, bonus)
    if reactor is not None:
        grades = personae_odds.challenge_odds(
            dice, bonus, reactor[0], reactor[1], critical_cap=critical_room
        )
        against = f"a reactor rolling {max(reactor[0], 1)}d10 + {reactor[1]}"
        first = None
    elif difficulty is not None:
        grades = personae_odds.number_odds(dice, bonus, difficulty, critical_cap=critical_room)
        against = str(difficulty)
        first = difficulty + 1
    else:
        view.summary = "Pick a difficulty or a reactor to see the chance of success."
        return _finish(view, _bars(chances, lambda v: True), "", None)
    view.chance = grades.success
    view.summary = f"{percent(grades.success)} to succeed against {against}."
    view.lines = [
        f"Clear success {percent(grades.clear)}",
        f"Glancing success {percent(grades.glancing)}",
        f"Failure {percent(grades.failure)}",
        f"Criticals banked on average: {float(grades.expected_criticals):.2f}",
    ]
    success = (lambda v: v > difficulty) if difficulty is not None else (lambda v: True)
    label = f"beat {difficulty}" if difficulty is not None else ""
    return _finish(view, _bars(chances, success), label, first)


def uni_modifier(request: Mapping) -> int:
    """UNI-1: everything added to the d10, as the rules read the request."""
    spec = unisystem_rolls.parse_roll_spec(request)
    return sum(term.value for term in spec.terms)


def unisystem_odds(
    modifier: int,
    *,
    target: int = UNI_SUCCESS,
    vs_modifier: int | None = None,
    vs_score: int | None = None,
    title: str = "",
) -> OddsView:
    """UNI-1, UNI-3, UNI-5, UNI-6, UNI-7: the open-ended total, success at 9 or a contest."""
    law = uni_odds.total_law(modifier)
    view = OddsView(title=title or f"Odds for d10 {modifier:+d}")
    low, high = UNI_WINDOW
    low, high = min(low, modifier - 4), max(high, modifier + 16)
    window = law.window(low, high)
    beyond = law.at_least(high + 1)
    rows = odds.chart_rows(window, beyond=beyond)
    if vs_modifier is not None:
        resisted = uni_odds.resisted_chances(modifier, vs_modifier)
        view.chance = resisted.attacker_wins
        view.summary = f"{percent(resisted.attacker_wins)} to win against d10 {vs_modifier:+d}."
        view.lines = [
            f"Defender wins {percent(resisted.defender_wins)}",
            f"Both fail {percent(resisted.both_fail)}",
        ]
        first = None
    elif vs_score is not None:
        view.chance = uni_odds.against_score(modifier, vs_score, defending=False)
        view.summary = f"{percent(view.chance)} to beat an Ability Score of {vs_score}."
        target = max(target, vs_score + 1)
        first = target
    else:
        view.chance = law.at_least(target)
        view.summary = f"{percent(view.chance)} to reach {target}."
        levels = uni_odds.success_level_odds(modifier, up_to=5)
        view.lines = [
            f"{percent(p)} for {level} success level{'s' if level != 1 else ''}"
            for level, p in levels.chances.items()
            if level and p
        ]
        first = target
    bars = [Bar(row.value, row.chance, row.value >= (first or target)) for row in rows]
    view.rows = bars
    view.chart = odds_chart(
        bars,
        title=view.title,
        summary=view.summary,
        target_label=f"{first}+" if first is not None else "",
        target_index=None if first is None else _index(bars, first),
    )
    return view


# --------------------------------------------------------------------------- from a built pool


def from_pool(system: str, pool, *, target: int | None = None, vs: list | None = None) -> OddsView:
    """The odds of a pool builder's request (table/pool.py), against the scene's number."""
    req = pool.request or {}
    if system == "serenity":
        built = serenity_actions.build_pool(req, gm=False)
        return cortex_family(
            system,
            list(built.dice),
            plot_points=built.plot_points,
            target=target,
            vs=vs,
            title=_title(built.dice),
        )
    if system == "smallville":
        built = smallville_actions.build_pool(req, watchtower=False)
        return cortex_family(
            system,
            list(built.main),
            side=list(built.side),
            plot_points=built.plot_points,
            target=target,
            vs=vs,
            title=_title(built.main + built.side),
        )
    if system == "cortex_slots":
        dice = [dict(e) for e in req.get("pool", [])]
        return cortex_family(
            system,
            dice,
            big_hero=req.get("big_hero"),
            target=req.get("difficulty", target),
            vs=vs,
            title="Odds for " + ", ".join(f"{e.get('trait', '')} {e['die']}".strip() for e in dice),
        )
    if system == "personae":
        actor = req["actor"]
        room = actor["potential_threshold"] - actor.get("criticals", 0)
        return personae(
            actor["skill"],
            actor["attribute"],
            bonus_dice=actor.get("bonus_dice", 0),
            modifiers=actor.get("modifiers", 0),
            difficulty=req.get("difficulty"),
            critical_room=room,
            title=f"Odds for {actor.get('skill_name', '')} + {actor.get('attribute_name', '')}",
        )
    modifier = uni_modifier(req)
    return unisystem_odds(
        modifier,
        target=target if target is not None else UNI_SUCCESS,
        title=f"Odds for d10 {modifier:+d}",
    )


def _title(dice) -> str:
    return "Odds for " + ", ".join(d.label for d in dice)


# --------------------------------------------------------------------------- from fields


def from_fields(system: str, data: Mapping) -> OddsView:
    """Read the fragment's own fields (see the module docstring)."""
    if system in ("serenity", "smallville", "cortex_slots"):
        dice = _dice(data, "pool")
        big_hero = _text(data, "big_hero").strip() or None
        if big_hero is not None:
            parse_die(big_hero)
        return cortex_family(
            system,
            dice,
            side=_dice(data, "side") if system == "smallville" else None,
            plot_points=_number(data, "plot_points", 0, 20) or 0,
            big_hero=big_hero if system == "cortex_slots" else None,
            target=_number(data, "target", 0, 200),
            vs=_dice(data, "vs") or None,
        )
    if system == "personae":
        skill = _number(data, "skill", 0, 10)
        attribute = _number(data, "attribute", 0, 10)
        if skill is None or attribute is None:
            raise RulesError("give a skill (dice) and an attribute")
        vs_skill = _number(data, "vs_skill", 0, 10)
        reactor = None
        if vs_skill is not None:
            reactor = (
                vs_skill + (_number(data, "vs_bonus_dice", 0, 10) or 0),
                (_number(data, "vs_attribute", 0, 10) or 0)
                + (_number(data, "vs_modifiers", -20, 20) or 0),
            )
        return personae(
            skill,
            attribute,
            bonus_dice=_number(data, "bonus_dice", 0, 10) or 0,
            modifiers=_number(data, "modifiers", -20, 20) or 0,
            difficulty=None if reactor else _number(data, "difficulty", 1, 50),
            reactor=reactor,
        )
    request: dict[str, Any] = {"kind": _text(data, "kind") or "task"}
    for key in ("attribute", "skill", "second_attribute", "modifier"):
        value = _number(data, key, -50, 50)
        if value is not None:
            request[key] = value
    if request["kind"] == "task":
        request.setdefault("skill", 0)
    modifier = uni_modifier(request)
    return unisystem_odds(
        modifier,
        target=_number(data, "target", -50, 100) or UNI_SUCCESS,
        vs_modifier=_number(data, "vs_modifier", -100, 100),
        vs_score=_number(data, "vs_score", -100, 100),
    )


def compute(system: str, data: Mapping) -> OddsView:
    try:
        return from_fields(system, data)
    except RulesError as error:
        return OddsView(error=sentence(str(error)))


def sentence(message: str) -> str:
    """Capitalise a rules message, but never a die name ("d7 is not a die size")."""
    if message[:1] == "d" and message[1:2].isdigit():
        return message
    return message[:1].upper() + message[1:]


@login_required
def odds_fragment(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """GET or POST: the odds of a pool or a contest, for any member; 404 for anyone else."""
    campaign, _ = get_campaign_for_user(request.user, campaign_id)
    data = request.POST if request.method == "POST" else request.GET
    if data.get("sheet"):
        from .views import builder_for  # the pool builder's own fields

        pool, target = builder_for(campaign, request.user, data)
        view = pool_odds(campaign.system, pool, target)
    else:
        view = compute(campaign.system, data)
    return render(request, "table/_odds.html", {"odds": view, "campaign": campaign})


def pool_odds(system: str, pool, target: int | None) -> OddsView:
    """The builder's odds, or why there are none yet."""
    if pool is None or pool.request is None:
        return OddsView(error="Pick dice to see the odds.")
    if pool.errors and system not in ("personae",):
        # the builder's status already says what is wrong; saying it twice is noise
        return OddsView(error="The odds appear once the pool can be rolled.")
    try:
        return from_pool(system, pool, target=target)
    except (RulesError, KeyError) as error:
        return OddsView(error=sentence(str(error)))
