"""Property: for every action that takes a reference (a roll's seq, an event's seq, a
character, a scene Asset by name), a target hidden from the actor gets exactly the
reply a target that does not exist gets, and nothing changes (table/log/visibility.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sheets.models import Trait
from table.models import TableEvent
from table.writing.actions import ActionError, reveal, void
from tests.table.test_secrets import CTX_POOL, state_rows

pytestmark = pytest.mark.django_db


@dataclass
class Hidden:
    """The hidden targets of one table, as a player must not see them."""

    roll_seq: int  # a GM's secret roll kept for the scene (CTX)
    blind_seq: int  # the player's own blind roll (CTX)
    total_seq: int  # a secret Unisystem roll with a total
    event_id: int  # a secret event's primary key
    npc_id: int  # a hidden GM character
    asset: str  # a scene Asset created behind the screen (CTX-7)
    stress_holder: int  # a hidden GM character holding Injured d8 (SER-1, SER-7)
    complication: str  # a complication the GM activated for Zoe behind the screen (SER-3)


@pytest.fixture
def world(table_for, faces):
    ctx = table_for("cortex_slots")
    ctx.start_scene()
    faces.queue.extend([1, 7, 5])
    secret = ctx.perform(ctx.gm, "gm_pool", {"pool": ["d12", "d10", "d8"]}, visibility="gm")
    faces.queue.extend([6, 2, 8])
    blind = ctx.perform(
        ctx.player, "roll", {"pool": CTX_POOL}, sheet_id=ctx.pc.pk, visibility="blind"
    )
    ctx.perform(ctx.gm, "spend_plot_point", {"kind": "scene_asset", "asset": "Rooftop Cover"},
                sheet_id=ctx.npc.pk, visibility="gm")  # fmt: skip
    ctx.npc.hidden = True
    ctx.npc.save()
    uni = table_for("unisystem")
    uni.start_scene()
    total = uni.perform(uni.gm, "task", {"attribute": 3, "skill": 2}, visibility="gm")
    ser = table_for("serenity")
    ser.start_scene()
    ser.npc.hidden = True
    ser.npc.save()
    Trait.objects.filter(sheet=ser.npc, group="stress", name="Injured").update(die=8)
    ser.perform(ser.gm, "activate_complication", {"complication": "Marked by Niska"},
                sheet_id=ser.other_pc.pk, visibility="gm")  # fmt: skip
    hidden = Hidden(secret.seq, blind.seq, total.seq, secret.pk, ctx.npc.pk, "Rooftop Cover",
                    ser.npc.pk, "Marked by Niska")  # fmt: skip
    ctx.ser = ser
    return ctx, uni, hidden


def _requests(ctx, uni, target: Any, kind: str) -> list[tuple[Any, str, dict, dict]]:
    """(table, action, request, perform kwargs) that point at `target`, of this kind."""
    player_sheet = {"sheet_id": ctx.pc.pk}
    if kind == "roll":
        return [
            (ctx, "buy_hitch", {"buyer": "players", "index": 0, "table": {"roll": target}},
             player_sheet),
            (ctx, "bank_move", {"index": 2, "to": "total", "table": {"roll": target}},
             player_sheet),
            (ctx, "resplit", {"split": {"total": [0, 1], "effect": 2}, "table": {"roll": target}},
             player_sheet),
        ]  # fmt: skip
    if kind == "total":
        return [
            (uni, "lengthy_task", {"required_levels": 5, "table": {"from_seq": target}},
             {"sheet_id": uni.pc.pk}),
        ]  # fmt: skip
    if kind == "sheet":
        return [
            (ctx, "roll", {"pool": CTX_POOL}, {"sheet_id": target}),
            (uni, "damage", {"base_damage": 3, "table": {"target": target}},
             {"sheet_id": uni.pc.pk}),
        ]  # fmt: skip
    if kind == "asset":
        return [
            (ctx, "spend_plot_point", {"kind": "step_up_asset", "asset": target}, player_sheet),
            (ctx, "roll", {"pool": [*CTX_POOL, {"die": "d12", "trait": target,
                                                "group": "assets"}]}, player_sheet),
        ]  # fmt: skip
    ser = ctx.ser
    fightin = {"die": "d10", "trait": "Fightin'", "group": "stylins"}
    if kind == "holder":
        entry = {"die": "d12", "trait": "Injured", "group": "stress", "sheet": target}
        return [(ser, "roll", {"pool": [fightin, entry]}, {"sheet_id": ser.pc.pk})]
    if kind == "complication":
        entry = {"die": "d12", "trait": target, "group": "complications",
                 "sheet": ser.other_pc.pk}  # fmt: skip
        return [(ser, "roll", {"pool": [fightin, entry]}, {"sheet_id": ser.pc.pk})]
    raise AssertionError(kind)


def reply(table, action, request, kwargs, name: str | None = None) -> str:
    try:
        table.perform(table.player, action, request, **kwargs)
    except ActionError as error:
        text = str(error)
        if not name:
            return text
        text = text.replace(f"“{name}”", "“NAME”")
        return "NAME" + text[len(name) :] if text.startswith(name + " ") else text
    raise AssertionError(f"{action} {request} was accepted")


KINDS = st.sampled_from(["roll", "total", "sheet", "asset", "holder", "complication"])
TAKEN = {
    "agility",
    "ex-marine",
    "shoot",
    "fight",
    "sniper rifle",
    "big hero die",
    "rooftop cover",
    "winged",
    "marked by niska",
}
NAMES = st.text(
    alphabet=st.characters(min_codepoint=65, max_codepoint=122), min_size=1, max_size=30
).filter(lambda name: " ".join(name.split()).casefold() not in TAKEN)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    kind=KINDS,
    missing_number=st.integers(1_000, 2**40),
    missing_name=NAMES,
)
def test_a_hidden_target_gets_the_reply_a_missing_one_gets(world, kind, missing_number,
                                                           missing_name):  # fmt: skip
    ctx, uni, hidden = world
    before = (state_rows(ctx), state_rows(uni), state_rows(ctx.ser))
    if kind == "roll":
        pairs = [(hidden.roll_seq, missing_number), (hidden.blind_seq, missing_number)]
    elif kind == "total":
        pairs = [(hidden.total_seq, missing_number)]
    elif kind == "sheet":
        pairs = [(hidden.npc_id, missing_number)]
    elif kind == "holder":
        pairs = [(hidden.stress_holder, missing_number)]
    elif kind == "complication":
        pairs = [(hidden.complication, missing_name)]
    else:
        pairs = [(hidden.asset, missing_name), (hidden.asset.upper(), missing_name)]
    for target, missing in pairs:
        hidden_requests = _requests(ctx, uni, target, kind)
        missing_requests = _requests(ctx, uni, missing, kind)
        for (table, action, request, kwargs), (_, _, other, _) in zip(
            hidden_requests, missing_requests, strict=True
        ):
            named = kind in ("asset", "complication")
            names = (str(target), str(missing)) if named else (None, None)
            assert reply(table, action, request, kwargs, names[0]) == reply(
                table, action, other, kwargs, names[1]
            ), (action, target, missing)
    assert (state_rows(ctx), state_rows(uni), state_rows(ctx.ser)) == before


def test_players_cannot_reveal_or_void_and_learn_nothing_from_trying(world):
    """Reveal and void are the GM's: a player naming a secret event or a missing one is
    told the same."""
    ctx, _, hidden = world
    before = state_rows(ctx)
    for act in (lambda e: reveal(ctx.campaign, ctx.player, e),
                lambda e: void(ctx.campaign, ctx.player, e, "peek")):  # fmt: skip
        answers = set()
        for event_id in (hidden.event_id, 10**9):
            with pytest.raises(ActionError) as caught:
                act(event_id)
            answers.add(str(caught.value))
        assert len(answers) == 1 and "Only the GM" in answers.pop()
    assert state_rows(ctx) == before
    assert TableEvent.objects.filter(campaign=ctx.campaign, visibility="gm").exists()
