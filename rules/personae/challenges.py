"""Personae v4 (seed 003): pools of d10s compared highest die first, ties yielded down the pool.

A challenge pits the actor's pool against a reactor's pool (or a fixed
number); the outcome is a grade (failure, glancing, clear) that nat-10s,
assistants and criticals can move. Criticals, development marks and the
once-per-scene concerted effort are plain numbers and flags the table keeps
as JSON: no-dice actions take the current state and return the new one.
Requests are read by `reading`; the actions that call these resolvers are in
`actions`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..kit.errors import InvalidRequest
from ..kit.faces import FaceSource
from ..kit.requests import get_bool, get_choice, get_int, get_list, get_str
from .reading import (
    BANK_FIELDS,
    BANK_HOLDER_FIELDS,
    CRITICAL_USES,
    DIE,
    GRADE_TITLES,
    GRADES,
    MAX_BONUS_DICE,
    MAX_DIFFICULTY,
    MAX_GOAL,
    MAX_HELPERS,
    MAX_NOTE,
    OPPOSITION_FIELDS,
    PLAN_FIELDS,
    Bank,
    Opposition,
    Plan,
    Side,
    claim_name,
    read_bank,
    read_fields,
    read_goal,
    read_name,
    read_names,
    read_opposition,
    read_plan,
    read_side,
)
from .sheet import MAX_CRITICALS, MAX_SKILL, MAX_THRESHOLD

# --- The rules --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Showdown:
    """How the comparisons went: the totals compared, who won, and how it was decided."""

    comparisons: tuple[tuple[int, int], ...]
    winner: str | None
    decided_by: str
    actor_used: int
    opposing_used: int

    @property
    def won_first(self) -> bool:
        return self.winner == "actor" and self.decided_by == "first_comparison"


def compare_pools(
    actor_totals: list[int], opposing_totals: list[int], *, tie_fails_actor: bool = False
) -> Showdown:
    """PER-1, PER-2, PER-5: compare the highest totals; on a tie both yield to the next die.

    Totals are each side's dice (sorted high to low) plus its attribute and modifiers.
    A side that runs out of dice while the other still has one loses the tie; both
    running out together leaves it unbroken (winner None). `tie_fails_actor` is the
    reactor's nat-10: a tied first comparison goes to the reactor with no yielding.
    """
    comparisons: list[tuple[int, int]] = []
    for step in range(max(len(actor_totals), len(opposing_totals))):
        if step >= len(actor_totals):
            return Showdown(tuple(comparisons), "reactor", "out_of_dice", step, step + 1)
        if step >= len(opposing_totals):
            return Showdown(tuple(comparisons), "actor", "out_of_dice", step + 1, step)
        actor_total, opposing_total = actor_totals[step], opposing_totals[step]
        comparisons.append((actor_total, opposing_total))
        decided_by = "first_comparison" if step == 0 else "yielding"
        if actor_total != opposing_total:
            winner = "actor" if actor_total > opposing_total else "reactor"
            return Showdown(tuple(comparisons), winner, decided_by, step + 1, step + 1)
        if tie_fails_actor:
            return Showdown(tuple(comparisons), "reactor", "reactor_nat_ten", 1, 1)
    used = len(comparisons)
    return Showdown(tuple(comparisons), None, "unbroken_tie", used, used)


def grade_from_dice(showdown: Showdown, actor_nat_tens: int, reactor_nat_ten: bool) -> str:
    """PER-3, PER-4, PER-5: clear when won on the first comparison, glancing when won by
    yielding. With an actor's nat-10, winning by yielding is clear too (without criticals)
    and an unbroken tie or a loss is a glancing success, unless the reactor rolled a nat-10."""
    if showdown.winner == "actor":
        return "clear" if showdown.won_first or actor_nat_tens else "glancing"
    if actor_nat_tens and not reactor_nat_ten:
        return "glancing"
    return "failure"


def criticals_to_bank(showdown: Showdown, actor_nat_tens: int, bank: Bank) -> int:
    """PER-4: a clear success on the first comparison banks one critical per nat-10, at most
    the Potential Threshold per roll; PER-6: never past the campaign's bank limit."""
    if not showdown.won_first:
        return 0
    return min(actor_nat_tens, bank.threshold, bank.room)


def steer(grade: str, assistants: tuple[str, ...]) -> list[dict[str, str]]:
    """PER-7: each assistant moves the result one step toward a clear success, stopping there."""
    steps = []
    for name in assistants:
        if grade == "clear":
            break
        better = GRADES[GRADES.index(grade) + 1]
        steps.append({"by": "assistant", "name": name, "from": grade, "to": better})
        grade = better
    return steps


def concerted_dice_cap(thresholds: list[int]) -> int:
    """PER-8: no more dice than the group's average Potential Threshold plus 2 (rounded down)."""
    return sum(thresholds) // len(thresholds) + 2


# --- Outcomes ---------------------------------------------------------------------------------


def _plural(count: int, word: str, plural: str = "") -> str:
    return f"{count} {word}" if count == 1 else f"{count} {plural or word + 's'}"


def _join(names: list[str] | tuple[str, ...]) -> str:
    """Names as a phrase: Bo; Bo and Cy; Bo, Cy and Dee."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _sum_text(face: int, bonus: int) -> str:
    return f"{face}{bonus:+d}={face + bonus}"


def _dice_entries(side: str, faces: list[int], used: int) -> list[dict[str, Any]]:
    """One entry per die, high to low: the first is compared, the next `used - 1` were
    yielded to, the rest did nothing."""
    entries = []
    for rank, face in enumerate(faces):
        role = "compared" if rank == 0 else "yielded" if rank < used else "unused"
        entries.append(
            {"die": "d10", "side": side, "face": face, "role": role, "nat_ten": face == DIE}
        )
    return entries


def _explain_showdown(
    actor: Side,
    opposition: Opposition,
    actor_faces: list[int],
    reactor_faces: list[int],
    showdown: Showdown,
) -> str:
    """'Mara 9+4=13 vs Cultist 8+5=13: tie; both yield: Mara 7+4=11 vs Cultist 5+5=10 — ...'"""
    reactor = opposition.reactor
    parts = []
    for step, (actor_total, opposing_total) in enumerate(showdown.comparisons):
        opposing = (
            f"{reactor.name} {_sum_text(reactor_faces[step], reactor.bonus)}"
            if reactor
            else opposition.label
        )
        text = f"{actor.name} {_sum_text(actor_faces[step], actor.bonus)} vs {opposing}"
        if actor_total == opposing_total:
            text += ": tie"
        parts.append(text if step == 0 else f"both yield: {text}")
    text = "; ".join(parts)
    if showdown.decided_by == "out_of_dice":
        if showdown.winner == "actor":
            spare = actor_faces[showdown.actor_used - 1]
            return (
                f"{text}; {opposition.label} has no dice left to yield, so {actor.name}'s next "
                f"die ({spare}) wins the tie"
            )
        spare = reactor_faces[showdown.opposing_used - 1]
        return (
            f"{text}; {actor.name} has no dice left to yield, so {opposition.label}'s next die "
            f"({spare}) wins the tie"
        )
    if showdown.decided_by == "unbroken_tie":
        return f"{text}; both are out of dice, so the tie is not broken"
    if showdown.decided_by == "reactor_nat_ten":
        return f"{text}; {opposition.label}'s nat-10 means a tie goes against {actor.name}"
    winner = actor.name if showdown.winner == "actor" else opposition.label
    how = "on the first comparison" if showdown.decided_by == "first_comparison" else "by yielding"
    return f"{text} — {winner} wins {how}"


def _headline_note(
    showdown: Showdown, rolled: str, actor_nat_tens: int, reactor_nat_ten: bool, reactor_name: str
) -> str:
    if showdown.winner == "actor":
        if showdown.won_first:
            return ""
        return "won by yielding with a nat-10" if rolled == "clear" else "won by yielding"
    if rolled == "glancing":
        return "saved by a nat-10"
    if reactor_nat_ten and showdown.decided_by == "reactor_nat_ten":
        return f"{reactor_name}'s nat-10 holds the tie"
    if actor_nat_tens and reactor_nat_ten:
        return f"{reactor_name}'s nat-10 cancels the save"
    return "tie not broken" if showdown.winner is None else ""


def _limit_text(bank: Bank) -> str:
    if bank.limit is None:
        return f"the most a sheet records ({MAX_CRITICALS})"
    return f"the campaign's bank limit of {bank.limit}"


def _banking_sentence(name: str, nat_tens: int, banked: int, bank: Bank) -> str:
    """PER-4, PER-6: how many nat-10s became criticals, and what the threshold and the
    bank limit cost."""
    rolled = _plural(nat_tens, "nat-10")
    per_roll = min(nat_tens, bank.threshold)
    over_threshold = nat_tens - per_roll
    over_limit = per_roll - banked
    if not banked:
        return (
            f"{rolled}, but {name} already holds {_plural(bank.criticals, 'critical')}, "
            f"{'at' if bank.criticals == bank.cap else 'past'} {_limit_text(bank)}, so none is "
            "banked."
        )
    verb = "banks" if nat_tens == 1 else "bank"
    of_limit = "" if bank.limit is None else f" of {bank.limit}"
    losses = []
    if over_threshold:
        losses.append(f"{over_threshold} lost to the Potential Threshold ({bank.threshold} a roll)")
    if over_limit:
        losses.append(f"{over_limit} lost to {_limit_text(bank)}")
    return (
        f"{rolled} {verb} {_plural(banked, 'critical')} (bank {bank.criticals} → "
        f"{bank.criticals + banked}{of_limit})" + (f"; {'; '.join(losses)}." if losses else ".")
    )


def _headline(grade: str, notes: list[str]) -> str:
    shown = [note for note in notes if note]
    return GRADE_TITLES[grade] + (" — " + "; ".join(shown) if shown else "")


def _finish(
    *,
    actor: Side,
    opposition: Opposition,
    bank: Bank,
    plan: Plan,
    final: str,
    notes: list[str],
    sentences: list[str],
    banked: int,
    spent: int,
    hits_per_success: int | None,
    extra: dict[str, Any],
    rolled: bool = True,
) -> dict[str, Any]:
    """The outcome fields every challenge shares, whether rolled or bought with a critical.

    PER-3: a clear success is marked toward development only when a roll was won
    (`rolled`); one bought with a critical before rolling is not (PER-6).
    """
    hits = hits_per_success
    if hits is not None and final == "failure":
        hits = 0
    if hits:
        notes.append(_plural(hits, "hit"))
        sentences.append(f"The attack lands {_plural(hits, 'hit')}, one per participant.")
    marked = final == "clear" and rolled
    if marked:
        sentences.append(f"{actor.name} marks a clear success toward development.")
    elif final == "clear":
        sentences.append("No roll was won, so it is not marked toward development.")
    outcome: dict[str, Any] = {
        "headline": _headline(final, notes),
        "explanation": " ".join(sentences),
        "result": final,
        "success": final != "failure",
        "development_marked": marked,
        "actor": actor.summary(),
        "reactor": opposition.reactor.summary() if opposition.reactor else None,
        "difficulty": opposition.difficulty,
        "criticals": {
            "before": bank.criticals,
            "banked": banked,
            "spent": spent,
            "after": bank.criticals + banked - spent,
            **bank.summary(),
        },
        "assistants": list(plan.assistants),
        "goal": plan.goal,
        "extended": plan.extended,
        **extra,
    }
    if hits is not None:
        outcome["hits"] = hits
    return outcome


def _roll_pool(dice: int, faces: FaceSource) -> list[int]:
    """Draw a side's faces in order, then sort them high to low for comparing."""
    return sorted((faces.draw(DIE) for _ in range(dice)), reverse=True)


def _challenge(
    actor: Side,
    opposition: Opposition,
    bank: Bank,
    plan: Plan,
    faces: FaceSource,
    *,
    preamble: str = "",
    hits_per_success: int | None = None,
) -> dict[str, Any]:
    """PER-1 to PER-7, PER-9: roll both pools (actor's first), compare, grade, bank, steer.

    A critical spent before rolling (PER-6) skips the dice: the action simply succeeds.
    """
    sentences = [preamble] if preamble else []
    if plan.spend_critical == "before_roll":
        sentences.append(
            f"{actor.name} spends a critical before rolling (bank {bank.criticals} → "
            f"{bank.criticals - 1}), so the challenge against {opposition.label} succeeds "
            "without a roll."
        )
        return _finish(
            actor=actor,
            opposition=opposition,
            bank=bank,
            plan=plan,
            final="clear",
            notes=["bought with a critical"],
            sentences=sentences,
            banked=0,
            spent=1,
            hits_per_success=hits_per_success,
            rolled=False,
            extra={
                "dice": [],
                "dice_result": None,
                "decided_by": "automatic_success",
                "comparisons": [],
                "nat_tens": {"actor": 0, "reactor": 0},
                "steering": [],
            },
        )

    reactor = opposition.reactor
    actor_faces = _roll_pool(actor.dice, faces)
    reactor_faces = _roll_pool(reactor.dice, faces) if reactor else []
    actor_nat_tens = actor_faces.count(DIE)
    reactor_nat_ten = DIE in reactor_faces
    showdown = compare_pools(
        [face + actor.bonus for face in actor_faces],
        opposition.totals(reactor_faces),
        tie_fails_actor=reactor_nat_ten,
    )
    rolled = grade_from_dice(showdown, actor_nat_tens, reactor_nat_ten)
    banked = criticals_to_bank(showdown, actor_nat_tens, bank)

    steering = steer(rolled, plan.assistants)
    assisted = len(steering)
    final = steering[-1]["to"] if steering else rolled
    spent = 0
    if final == "failure" and plan.spend_critical == "if_failed":
        steering.append({"by": "critical", "name": actor.name, "from": "failure", "to": "glancing"})
        final, spent = "glancing", 1

    account = _explain_showdown(actor, opposition, actor_faces, reactor_faces, showdown)
    sentences.append(f"{account}: {GRADE_TITLES[rolled].lower()}.")
    if actor_nat_tens and showdown.winner != "actor":
        saved = (
            "cannot fail outright"
            if rolled == "glancing"
            else f"is not saved, because {opposition.label} rolled one too"
        )
        sentences.append(f"{actor.name} rolled {_plural(actor_nat_tens, 'nat-10')} and {saved}.")
    if actor_nat_tens and showdown.winner == "actor" and not showdown.won_first:
        sentences.append(
            f"{actor.name} rolled {_plural(actor_nat_tens, 'nat-10')}, so winning by yielding "
            "is a clear success, but it banks no criticals."
        )
    if actor_nat_tens and showdown.won_first:
        sentences.append(_banking_sentence(actor.name, actor_nat_tens, banked, bank))
    sentences.extend(
        f"{step['name']} assists: {step['from']} → {step['to']}." for step in steering[:assisted]
    )
    if spent:
        sentences.append(
            f"{actor.name} spends a critical to steer the failure to a glancing success "
            f"(bank {bank.criticals} → {bank.criticals - 1})."
        )
    notes = [
        ""
        if steering
        else _headline_note(showdown, rolled, actor_nat_tens, reactor_nat_ten, opposition.label),
        f"{_plural(banked, 'critical')} banked" if banked else "",
        f"steered by {_plural(assisted, 'assistant')}" if assisted else "",
        "steered by a critical" if spent else "",
    ]
    return _finish(
        actor=actor,
        opposition=opposition,
        bank=bank,
        plan=plan,
        final=final,
        notes=notes,
        sentences=sentences,
        banked=banked,
        spent=spent,
        hits_per_success=hits_per_success,
        extra={
            "dice": _dice_entries("actor", actor_faces, showdown.actor_used)
            + _dice_entries("reactor", reactor_faces, showdown.opposing_used),
            "dice_result": rolled,
            "decided_by": showdown.decided_by,
            "comparisons": [
                {
                    "actor_face": actor_faces[step],
                    "actor_total": actor_total,
                    "reactor_face": reactor_faces[step] if reactor else None,
                    "reactor_total": opposing_total,
                }
                for step, (actor_total, opposing_total) in enumerate(showdown.comparisons)
            ],
            "nat_tens": {"actor": actor_nat_tens, "reactor": reactor_faces.count(DIE)},
            "steering": steering,
        },
    )


# --- Resolvers --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Contributor:
    """A character lending their skill rating to a concerted effort (PER-8)."""

    name: str
    rating: int
    threshold: int


def _read_contributors(data: Mapping, seen: set[str]) -> tuple[Contributor, ...]:
    """PER-8: at least one other character, each named once, each lending a rating."""
    entries = get_list(data, "contributors", max_len=MAX_HELPERS)
    if not entries:
        raise InvalidRequest(
            "a concerted effort needs at least one contributor besides the coordinator"
        )
    contributors = []
    for entry in entries:
        fields = read_fields(entry, ("name", "rating", "potential_threshold"), "contributor")
        name = claim_name(read_name(fields, "name", "each contributor's name"), seen)
        contributors.append(
            Contributor(
                name=name,
                rating=get_int(fields, "rating", lo=0, hi=MAX_SKILL, what=f"{name}'s skill rating"),
                threshold=get_int(
                    fields,
                    "potential_threshold",
                    lo=1,
                    hi=MAX_THRESHOLD,
                    what=f"{name}'s Potential Threshold",
                ),
            )
        )
    return tuple(contributors)


def _read_actor(data: Mapping, role: str) -> tuple[Side, Bank]:
    actor, fields = read_side(data.get(role), role, BANK_FIELDS)
    return actor, read_bank(fields, actor.name)


def _taken_names(opposition: Opposition, *participants: str) -> set[str]:
    """Names already in the roll, so nobody among them can also assist (PER-7)."""
    names = [*participants, *([opposition.reactor.name] if opposition.reactor else [])]
    return {name.casefold() for name in names}


def resolve_challenge(request: Mapping, faces: FaceSource) -> dict[str, Any]:
    """PER-1 to PER-7 and PER-9: a challenge against a reactor's pool or a fixed number."""
    data = read_fields(request, ("actor", *OPPOSITION_FIELDS, *PLAN_FIELDS), "request")
    actor, bank = _read_actor(data, "actor")
    opposition = read_opposition(data)
    plan = read_plan(data, actor.name, bank, _taken_names(opposition, actor.name))
    return _challenge(actor, opposition, bank, plan, faces)


def resolve_concerted_effort(request: Mapping, faces: FaceSource) -> dict[str, Any]:
    """PER-8: once per scene, a coordinator rolls the group's pooled dice as one challenge.

    The pool is the coordinator's skill and bonus dice plus each contributor's rating,
    capped at the group's average Potential Threshold (rounded down) + 2; the coordinator's
    attribute is added; a successful attack deals one hit per participant.
    """
    fields = ("coordinator", "contributors", "attack", "used_this_scene")
    data = read_fields(request, (*fields, *OPPOSITION_FIELDS, *PLAN_FIELDS), "request")
    if get_bool(data, "used_this_scene"):
        raise InvalidRequest(
            "this group has already made its concerted effort this scene; "
            "the next one has to wait for a new scene"
        )
    coordinator, bank = _read_actor(data, "coordinator")
    opposition = read_opposition(data)
    seen = _taken_names(opposition, coordinator.name)
    contributors = _read_contributors(data, seen)
    attack = get_bool(data, "attack")
    plan = read_plan(data, coordinator.name, bank, seen)

    wanted = coordinator.skill + coordinator.bonus_dice + sum(c.rating for c in contributors)
    cap = concerted_dice_cap([bank.threshold, *(c.threshold for c in contributors)])
    pooled = replace(coordinator, dice=max(1, min(wanted, cap)))
    participants = [coordinator.name, *(c.name for c in contributors)]
    pool = f"{_plural(wanted, 'die', 'dice')} pooled"
    if wanted > cap:
        pool += f", capped at {cap} (the group's average Potential Threshold, rounded down, + 2)"
    elif pooled.dice > wanted:
        pool += ", and one die is always rolled"
    preamble = f"{coordinator.name} coordinates {_join(participants[1:])}: {pool}."
    outcome = _challenge(
        pooled,
        opposition,
        bank,
        plan,
        faces,
        preamble=preamble,
        hits_per_success=len(participants) if attack else 0,
    )
    outcome["concerted"] = {
        "participants": participants,
        "contributors": [
            {"name": c.name, "rating": c.rating, "potential_threshold": c.threshold}
            for c in contributors
        ],
        "dice_pooled": wanted,
        "dice_cap": cap,
        "dice_rolled": pooled.dice,
        "attack": attack,
    }
    outcome["used_this_scene"] = True
    return outcome


def resolve_spend_critical(request: Mapping, faces: FaceSource) -> dict[str, Any]:
    """PER-6: spend one banked critical: before rolling for an automatic success, after the
    ties are broken to steer a failure into a glancing success, or for a trait or a benefit
    the group agrees on."""
    data = read_fields(request, (*BANK_HOLDER_FIELDS, "use", "result", "note"), "request")
    name = read_name(data, "name", "the character's name", default="The character")
    bank = read_bank(data, name)
    use = get_choice(data, "use", CRITICAL_USES)
    note = get_str(data, "note", default="", max_len=MAX_GOAL).strip()
    if bank.criticals == 0:
        raise InvalidRequest(f"{name} has no criticals banked to spend")
    if use != "steer_failure" and "result" in data:
        raise InvalidRequest("a result is only given when a critical steers a failure")
    result: str | None = None
    if use == "automatic_success":
        result = "clear"
        headline = "Clear success — bought with a critical"
        account = (
            f"{name} spends a critical before rolling: the action succeeds, without a roll won "
            "to mark toward development"
        )
    elif use == "steer_failure":
        before = get_choice(data, "result", GRADES)
        if before != "failure":
            raise InvalidRequest(
                f"only a failure can be steered with a critical; this is already a "
                f"{GRADE_TITLES[before].lower()}"
            )
        result = "glancing"
        headline = "Glancing success — steered by a critical"
        account = f"{name} spends a critical after the ties are broken: failure → glancing"
    else:
        if not note:
            raise InvalidRequest("say what the critical is spent on (the trait or the benefit)")
        headline = f"Critical spent — {note[:60]}"
        account = f"{name} spends a critical on: {note}"
    after = bank.criticals - 1
    return {
        "headline": headline,
        "explanation": f"{account} (bank {bank.criticals} → {after}).",
        "use": use,
        "result": result,
        # PER-3, PER-6: a success bought before rolling wins no roll, so nothing is marked.
        "development_marked": False,
        "note": note,
        "criticals": {
            "before": bank.criticals,
            "spent": 1,
            "after": after,
            "potential_threshold": bank.threshold,
        },
    }


def resolve_give_critical(request: Mapping, faces: FaceSource) -> dict[str, Any]:
    """PER-6: hand banked criticals to another character, never past the receiver's bank
    limit when the campaign sets one (a gift that does not fit is refused, so none is lost)."""
    data = read_fields(request, ("giver", "receiver", "count"), "request")
    parties = []
    for role in ("giver", "receiver"):
        fields = read_fields(data.get(role), BANK_HOLDER_FIELDS, role)
        name = read_name(fields, "name", f"the {role}'s name")
        parties.append((name, read_bank(fields, name)))
    (giver, giver_bank), (receiver, receiver_bank) = parties
    if giver.casefold() == receiver.casefold():
        raise InvalidRequest("a character cannot give criticals to themself")
    count = get_int(data, "count", lo=1, hi=MAX_CRITICALS, default=1, what="the number to give")
    if count > giver_bank.criticals:
        raise InvalidRequest(
            f"{giver} has only {_plural(giver_bank.criticals, 'critical')} to give"
        )
    if count > receiver_bank.room:
        raise InvalidRequest(
            f"{receiver} can hold only {receiver_bank.room} more ({_limit_text(receiver_bank)}); "
            "give fewer"
        )
    given = _plural(count, "critical")
    of_limit = "" if receiver_bank.limit is None else f" of {receiver_bank.limit}"
    return {
        "headline": f"{giver} gives {receiver} {given}",
        "explanation": (
            f"{giver} gives {given} to {receiver}: {giver}'s bank {giver_bank.criticals} → "
            f"{giver_bank.criticals - count}, {receiver}'s bank {receiver_bank.criticals} → "
            f"{receiver_bank.criticals + count}{of_limit}."
        ),
        "given": count,
        "giver": {
            "name": giver,
            "before": giver_bank.criticals,
            "after": giver_bank.criticals - count,
        },
        "receiver": {
            "name": receiver,
            "before": receiver_bank.criticals,
            "after": receiver_bank.criticals + count,
            **receiver_bank.summary(),
        },
    }


def resolve_assist(request: Mapping, faces: FaceSource) -> dict[str, Any]:
    """PER-7: assistants, named with the primary actor before rolling, each steer the
    primary actor's result one step: failure → glancing → clear."""
    data = read_fields(request, ("primary_actor", "assistants", "result"), "request")
    primary = read_name(data, "primary_actor", "the primary actor")
    assistants = read_names(data, "assistants", "assistants", {primary.casefold()})
    if not assistants:
        raise InvalidRequest("name at least one assistant")
    before = get_choice(data, "result", GRADES)
    steering = steer(before, assistants)
    final = steering[-1]["to"] if steering else before
    sentences = [
        f"{step['name']} assists {primary}: {step['from']} → {step['to']}." for step in steering
    ]
    idle = assistants[len(steering) :]
    if idle:
        sentences.append(f"Already a clear success, so {_join(idle)} cannot steer it further.")
    if final == "clear":
        sentences.append(f"{primary} marks a clear success toward development.")
    return {
        "headline": _headline(final, [f"steered by {_plural(len(steering), 'assistant')}"]),
        "explanation": " ".join(sentences),
        "primary_actor": primary,
        "assistants": list(assistants),
        "result_before": before,
        "result": final,
        "success": final != "failure",
        "steering": steering,
        "development_marked": final == "clear",
    }


def resolve_extend_challenge(request: Mapping, faces: FaceSource) -> dict[str, Any]:
    """PER-9: after a challenge, the actor says whether it is over or extended (and toward what)."""
    data = read_fields(request, ("goal", "extended", "next_goal"), "request")
    goal = read_goal(data)
    if "extended" not in data:
        raise InvalidRequest("say whether the challenge is extended")
    extended = get_bool(data, "extended")
    next_goal = get_str(
        data, "next_goal", default="", max_len=MAX_GOAL, what="the next goal"
    ).strip()
    if extended and not next_goal:
        raise InvalidRequest("state the goal the challenge is extended toward")
    if not extended and next_goal:
        raise InvalidRequest("a next goal is only given when the challenge is extended")
    if extended:
        headline, explanation = (
            "Challenge extended",
            f"After “{goal}”, the actor extends the challenge toward: {next_goal}.",
        )
    else:
        headline, explanation = "Challenge over", f"The challenge for “{goal}” is over."
    return {
        "headline": headline,
        "explanation": explanation,
        "goal": goal,
        "extended": extended,
        "next_goal": next_goal or None,
    }


def resolve_grant_bonus_dice(request: Mapping, faces: FaceSource) -> dict[str, Any]:
    """PER-1: the GM grants a character circumstantial bonus dice for their next challenge.

    The table keeps the grant for the scene and that challenge rolls exactly these dice;
    `replaces` is an unused grant this one takes the place of (0 withdraws it).
    """
    data = read_fields(request, ("name", "dice", "note", "replaces"), "request")
    name = read_name(data, "name", "the character's name")
    dice = get_int(data, "dice", lo=0, hi=MAX_BONUS_DICE, what="the bonus dice granted")
    replaces = get_int(
        data, "replaces", lo=0, hi=MAX_BONUS_DICE, default=0, what="the grant replaced"
    )
    note = get_str(data, "note", default="", max_len=MAX_NOTE, what="the note").strip()
    if dice == 0 and replaces == 0:
        raise InvalidRequest(f"{name} has no bonus dice granted to withdraw")
    granted = _plural(dice, "bonus die", "bonus dice")
    if dice:
        headline = f"The GM grants {name} {granted} for the next challenge"
        sentences = [f"{name}'s next challenge adds {granted} to the pool (PER-1)."]
        if replaces:
            sentences.append(
                f"This replaces the {_plural(replaces, 'die', 'dice')} granted before."
            )
    else:
        headline = f"The GM withdraws {name}'s bonus dice"
        sentences = [
            f"The {_plural(replaces, 'bonus die', 'bonus dice')} granted before will not be rolled."
        ]
    if note:
        sentences.append(f"For: {note}.")
    return {
        "headline": headline,
        "explanation": " ".join(sentences),
        "name": name,
        "bonus_dice": dice,
        "replaces": replaces,
        "note": note or None,
    }


def resolve_set_difficulty(request: Mapping, faces: FaceSource) -> dict[str, Any]:
    """PER-1: the GM sets the number a challenge against a fixed number must beat, for the
    scene (or clears it); a player's challenge without a reactor takes it."""
    data = read_fields(request, ("difficulty", "clear", "note"), "request")
    clear = get_bool(data, "clear")
    note = get_str(data, "note", default="", max_len=MAX_NOTE, what="the note").strip()
    if clear:
        if data.get("difficulty") is not None:
            raise InvalidRequest("give a difficulty, or clear it, not both")
        return {
            "headline": "The GM clears the difficulty",
            "explanation": "No difficulty is set: a challenge names its reactor, or waits for "
            "the GM to set a number to beat.",
            "difficulty": None,
            "note": None,
        }
    if data.get("difficulty") is None:
        raise InvalidRequest("give the difficulty to beat, or clear it")
    value = get_int(data, "difficulty", lo=1, hi=MAX_DIFFICULTY, what="the difficulty")
    sentences = [
        f"A challenge against a fixed number now has {value} to beat (PER-1): the actor's "
        "highest die plus attribute and modifiers must be higher."
    ]
    if note:
        sentences.append(f"Why: {note}.")
    return {
        "headline": f"The GM sets the difficulty to beat: {value}",
        "explanation": " ".join(sentences),
        "difficulty": value,
        "note": note or None,
    }
