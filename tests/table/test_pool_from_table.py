"""Pools come from the table: a player's roll holds only dice the table keeps, each read
where it is kept, whatever size the request claims (issue #15, point 5).

Every attack goes through the real table socket as a player who wants to cheat: made-up
complications, stress, Limits, Resources, Assets, modifiers and helpers are refused with
a message naming them, before any die is drawn, and nothing changes (no event, no counter,
no die, no scene state). A die of the other side named by its holder is taken at the size
the table holds; one hidden from the player is refused exactly as one that does not exist.
The GM stays free-form.
"""

from __future__ import annotations

import html
import re

import pytest
from asgiref.sync import async_to_sync

from sheets.models import Counter, Sheet, Trait
from table.models import SceneState, TableEvent
from table.writing.actions import reveal

from .conftest import add_counters, add_traits
from .sockets import messages, open_socket, send

pytestmark = pytest.mark.django_db(transaction=True)

NOTICE = re.compile(r'<div id="table-notice"[^>]*data-code="(\w+)"[^>]*>(.*?)</div>', re.S)
FIGHTIN = {"die": "d4", "trait": "Fightin'", "group": "stylins"}
CLARK = [
    {"die": "d4", "trait": "Justice", "group": "values"},
    {"die": "d4", "trait": "Lana", "group": "relationships"},
    {"die": "d4", "trait": "Super-speed", "group": "abilities"},
]


def act(t, user, action: str, request: dict, sheet_id: int | None = None) -> str:
    """Send one `act` over a fresh socket of `user`; returns the refusal text, or "" when
    the action was logged (its card came back)."""

    seen = head(t)

    async def exchange() -> list[str]:
        comm, connected, _ = await open_socket(user, t.campaign, last_seq=seen)
        assert connected
        await send(
            comm, {"type": "act", "action": action, "request": request, "sheet_id": sheet_id}
        )
        received = await messages(comm, 1)
        await comm.disconnect()
        return received

    received = async_to_sync(exchange)()
    for text in received:
        match = NOTICE.search(text)
        if match and match.group(1) == "refused":
            return html.unescape(match.group(2))
    assert any('hx-swap-oob="afterbegin:#log"' in text for text in received), received
    return ""


def head(t) -> int:
    return TableEvent.objects.filter(campaign=t.campaign).count()


def everything(t) -> tuple:
    """What a refused action must leave as it was: the log, every counter, every die and
    flag on every sheet, the scene's state."""
    counters = sorted(
        Counter.objects.filter(sheet__campaign=t.campaign).values_list("sheet_id", "key", "value")
    )
    traits = sorted(
        (x.sheet_id, x.group, x.name, x.die, x.plus_die, x.rating, sorted(x.flags or {}))
        for x in Trait.objects.filter(sheet__campaign=t.campaign)
    )
    scenes = sorted(
        (row.scene_id, row.version, str(row.data))
        for row in SceneState.objects.filter(campaign=t.campaign)
    )
    return head(t), counters, traits, scenes


def refused(t, user, action: str, request: dict, sheet_id: int | None = None) -> str:
    """The refusal text; asserts that nothing at all changed."""
    before = everything(t)
    message = act(t, user, action, request, sheet_id)
    assert message, f"{action} was accepted"
    assert everything(t) == before
    return message


def last_event(t) -> TableEvent:
    return TableEvent.objects.filter(campaign=t.campaign).order_by("-seq").first()


def set_die(sheet: Sheet, group: str, name: str, size: int | None) -> None:
    Trait.objects.filter(sheet=sheet, group=group, name=name).update(die=size)


# --------------------------------------------------------------------------- Serenity Plus


@pytest.fixture
def ser(table_for, faces):
    return table_for("serenity")


def test_serenity_made_up_complications_and_stress_are_not_on_the_table(ser):
    """SER-1: the reported attack. Six made-up d12 complications, a stress die nobody holds,
    a holder who does not have it: each is refused by name, nothing is drawn or spent; the
    same in a contest roll."""
    grudges = [{"die": "d12", "trait": "Grudge", "group": "complications"}] * 6
    message = refused(ser, ser.player, "roll", {"pool": [FIGHTIN, *grudges]}, ser.pc.pk)
    assert message == "Grudge d12 is not on the table."
    injured = {"die": "d12", "trait": "Injured", "group": "stress"}
    assert (
        refused(ser, ser.player, "roll", {"pool": [FIGHTIN, injured]}, ser.pc.pk)
        == "Injured d12 is not on the table."
    )
    zoes = {**injured, "sheet": ser.other_pc.pk}  # Zoe holds no Injured die
    assert (
        refused(ser, ser.player, "roll", {"pool": [FIGHTIN, zoes]}, ser.pc.pk)
        == "Injured d12 is not on the table."
    )
    ser.start_scene()
    sides = [
        {"sheet_id": ser.pc.pk, "goal": "keep the cargo"},
        {"name": "Thugs", "goal": "take it"},
    ]
    assert act(ser, ser.player, "contest_start", {"sides": sides, "first": 0}, ser.pc.pk) == ""
    assert (
        refused(ser, ser.player, "contest_roll", {"pool": [FIGHTIN, *grudges]}, ser.pc.pk)
        == "Grudge d12 is not on the table."
    )


def test_serenity_opponents_dice_named_by_holder_take_the_tables_size(ser):
    """SER-1, SER-3, SER-7: Zoe's stress on her sheet, a complication the GM activated for
    Niska in this scene, the stress a sheetless contest side took: each joins at the die the
    table holds, though the request claims d12."""
    scene = ser.start_scene()
    set_die(ser.other_pc, "stress", "Injured", 6)
    assert act(ser, ser.gm, "activate_complication", {"complication": "Bad leg"}, ser.npc.pk) == ""
    row = SceneState.objects.get(scene=scene)
    row.data["side_stress"] = {"Niska's thugs": {"Afraid": "d8"}}
    row.save()
    pool = [
        FIGHTIN,
        {"die": "d12", "trait": "injured", "group": "stress", "sheet": ser.other_pc.pk},
        {"die": "d12", "trait": "Bad Leg", "group": "complications", "sheet": ser.npc.pk},
        {"die": "d12", "trait": "Afraid", "group": "stress", "side": "Niska's thugs"},
    ]
    assert act(ser, ser.player, "roll", {"pool": pool}, ser.pc.pk) == ""
    event = last_event(ser)
    assert [(e["trait"], e["die"]) for e in event.request["pool"][1:]] == [
        ("Injured", "d6"),
        ("Bad leg", "d6"),
        ("Afraid", "d8"),
    ]
    assert event.request["pool"][1]["sheet"] == ser.other_pc.pk
    assert [d["die"] for d in event.outcome["dice"]] == ["d10", "d6", "d6", "d8"]


def test_serenity_a_players_own_stress_does_not_help_their_roll(ser):
    """SER-1: complication and stress dice in a pool are the other side's."""
    set_die(ser.pc, "stress", "Injured", 8)
    own = {"die": "d8", "trait": "Injured", "group": "stress", "sheet": ser.pc.pk}
    assert (
        refused(ser, ser.player, "roll", {"pool": [FIGHTIN, own]}, ser.pc.pk)
        == "Injured d8 is Mal's own: only the other side's dice join this pool."
    )


def test_hidden_and_gm_secret_dice_are_refused_as_if_they_did_not_exist(ser):
    """A hidden GM character's stress and scene complication, and a scene item the player's
    view of the scene leaves out, get word for word the refusal of a die nobody holds."""
    ser.start_scene()
    shadow = Sheet.objects.create(
        campaign=ser.campaign, owner=None, name="Shadow", kind="npc", hidden=True
    )
    add_traits(shadow, {"stress": [("Injured", "d8")]})
    add_counters(shadow, {"plot_points": 1})
    assert act(ser, ser.gm, "activate_complication", {"complication": "Marked"}, shadow.pk) == ""

    def asked(group: str, trait: str, holder: int) -> str:
        entry = {"die": "d12", "trait": trait, "group": group, "sheet": holder}
        return refused(ser, ser.player, "roll", {"pool": [FIGHTIN, entry]}, ser.pc.pk)

    nobody = Sheet.objects.order_by("-pk").first().pk + 1000
    assert asked("stress", "Injured", shadow.pk) == asked("stress", "Injured", nobody)
    assert asked("stress", "Injured", shadow.pk) == "Injured d12 is not on the table."
    assert asked("complications", "Marked", shadow.pk) == asked("complications", "Marked", nobody)
    assert asked("complications", "Marked", shadow.pk) == (
        asked("complications", "Marked", ser.other_pc.pk)  # visible, but holds no Marked
    )

    # A complication the GM activated behind the screen for Niska is veiled from players
    # (table.log.visibility): their pool cannot use it, and is told what a missing one gets.
    ser.perform(ser.gm, "activate_complication", {"complication": "Hunted"},
                sheet_id=ser.npc.pk, visibility="gm")  # fmt: skip
    assert asked("complications", "Hunted", ser.npc.pk) == asked("complications", "Hunted", nobody)
    assert asked("complications", "Hunted", ser.npc.pk) == "Hunted d12 is not on the table."
    # Revealed, it is on the table for everyone.
    secret = last_event(ser)
    reveal(ser.campaign, ser.gm, secret.pk)
    named = {"die": "d12", "trait": "Hunted", "group": "complications", "sheet": ser.npc.pk}
    assert act(ser, ser.player, "roll", {"pool": [FIGHTIN, named]}, ser.pc.pk) == ""
    assert last_event(ser).request["pool"][1]["die"] == "d6"


def test_gm_pools_stay_free_form(ser):
    """SER-1 decision: the GM grants any die; a die named by its holder is the table's."""
    set_die(ser.other_pc, "stress", "Injured", 6)
    pool = [
        {"die": "d8", "trait": "Armed thugs", "group": "situation"},
        {"die": "d12", "trait": "Grudge", "group": "complications"},
        {"die": "d12", "trait": "Injured", "group": "stress", "sheet": ser.other_pc.pk},
    ]
    assert act(ser, ser.gm, "roll", {"pool": pool}) == ""
    assert [e["die"] for e in last_event(ser).request["pool"]] == ["d8", "d12", "d6"]


def test_a_player_cannot_claim_a_benefit_with_pools_of_their_own_making(ser):
    """SER-10: the pools and the margin of a benefit are the logged test's; a player who
    sends their own (a complication the winner does not have) gets no benefit."""
    request = {
        "winner_pool": [FIGHTIN],
        "loser_pool": [{"die": "d8", "trait": "Grudge", "group": "complications"}],
        "margin": 6,
        "benefit": "step_down_complication",
        "target": "Grudge",
    }
    assert refused(ser, ser.player, "benefit", request, ser.pc.pk) == (
        "That is not a test with an extraordinary success that is still to be claimed."
    )


# --------------------------------------------------------------------------- Smallville


@pytest.fixture
def smv(table_for, faces):
    table = table_for("smallville")
    table.start_scene()
    return table


def test_smallville_made_up_stress_limits_and_resources_are_refused(smv):
    """SMV-4, SMV-5, SMV-7: an invented stress die (free, the opponent's), an invented
    Limit (three dice) and an invented Resource (bought for 1 plot point) are not on the
    table; the plot points stay where they were."""
    stress = {"die": "d12", "trait": "Injured", "group": "stress"}
    assert (
        refused(smv, smv.player, "roll", {"pool": [*CLARK, stress]}, smv.pc.pk)
        == "Injured d12 is not on the table."
    )
    limit = {"die": "d12", "trait": "Kryptonite", "group": "limits", "sheet": smv.other_pc.pk}
    assert (
        refused(smv, smv.player, "roll", {"pool": [*CLARK, limit]}, smv.pc.pk)
        == "Kryptonite d12 is not on the table."
    )
    fortress = [{"die": "d12", "trait": "Fortress", "group": "locations"}]
    assert (
        refused(smv, smv.player, "roll", {"pool": CLARK, "side_pool": fortress}, smv.pc.pk)
        == "Fortress d12 is not on the table."
    )
    assert Counter.objects.get(sheet=smv.pc, key="plot_points").value == 2


def test_smallville_an_opponents_dice_are_read_from_their_sheet(smv):
    """SMV-4, SMV-5, SMV-7: Zoe's stress (free, the first), her Limit (three dice, its
    linked Ability offered for the Shut Down) and her Location (1 plot point, not on Mal's
    sheet) join at the dice on Zoe's sheet, whatever the request says."""
    set_die(smv.other_pc, "stress", "Insecure", 10)
    add_traits(smv.other_pc, {"locations": [("Talon", "d8")]})
    ability = Trait.objects.get(sheet=smv.other_pc, group="abilities", name="Super-speed")
    Trait.objects.create(sheet=smv.other_pc, group="limits", name="Kryptonite", die=8, link=ability)
    zoe = smv.other_pc.pk
    request = {
        "pool": [
            *CLARK,
            {"die": "d4", "trait": "Insecure", "group": "stress", "sheet": zoe},
            {"die": "d12", "trait": "Kryptonite", "group": "limits", "sheet": zoe},
        ],
        "side_pool": [{"die": "d12", "trait": "Talon", "group": "locations", "sheet": zoe}],
    }
    assert act(smv, smv.player, "roll", request, smv.pc.pk) == ""
    event = last_event(smv)
    assert [e["die"] for e in event.request["pool"][3:]] == ["d10", "d8"]
    assert event.request["side_pool"][0]["die"] == "d8"
    assert event.outcome["shut_down_option"] == {"limit": "Kryptonite", "ability": "Super-speed"}
    assert [c["plot_points"] for c in event.outcome["costs"]] == [0, 0, 0, 0, 0, 1]
    assert Counter.objects.get(sheet=smv.pc, key="plot_points").value == 1
    assert Trait.objects.get(sheet=smv.other_pc, name="Talon").flags == {}  # Zoe's, not used


# --------------------------------------------------------------------------- Cortex slots


def test_cortex_a_player_activates_only_an_asset_of_their_own(table_for, faces):
    """CTX-7: activating an asset brings one of the character's Assets into the scene at
    its die; a made-up d12 asset (which any pool could then take) is refused unpaid."""
    ctx = table_for("cortex_slots")
    ctx.start_scene()
    crates = {"kind": "activate_asset", "asset": "Crates", "die": "d12"}
    assert (
        refused(ctx, ctx.player, "spend_plot_point", crates, ctx.pc.pk)
        == "Crates d12 is not on the table."
    )
    rifle = {"kind": "activate_asset", "asset": "sniper rifle", "die": "d12"}
    assert act(ctx, ctx.player, "spend_plot_point", rifle, ctx.pc.pk) == ""
    assert ctx.state()["assets"]["Sniper Rifle"]["die"] == "d8"
    assert Counter.objects.get(sheet=ctx.pc, key="plot_points").value == 0


# --------------------------------------------------------------------------- Unisystem


def test_unisystem_named_modifiers_and_fixed_scores_come_from_the_sheet(table_for, faces):
    """UNI-1, UNI-4, UNI-8: a named modifier is a Quality or Drawback of the sheet; a cast
    member rolls, so a fixed Ability Score on their own side is refused."""
    uni = table_for("unisystem")
    lucky = {
        "attribute_name": "Dexterity",
        "skill_name": "Sports",
        "modifiers": [{"name": "Lucky", "value": 5}],
    }
    assert refused(uni, uni.player, "task", lucky, uni.pc.pk) == (
        "Lucky is not on the table: it is none of Mal's Qualities or Drawbacks."
    )
    resisted = {"attacker": {"score": 40}, "defender": {"score": 12, "name": "Vampire"}}
    assert "fixed Ability Score" in refused(uni, uni.player, "resisted", resisted, uni.pc.pk)
    nerves = {**lucky, "modifiers": [{"name": "nerves of steel", "value": 5}]}
    assert act(uni, uni.player, "task", nerves, uni.pc.pk) == ""
    assert last_event(uni).request["modifiers"] == [{"name": "Nerves of Steel", "value": 2}]


# --------------------------------------------------------------------------- Personae


def test_personae_contributors_are_characters_at_the_table(table_for, faces):
    """PER-8: a player's concerted effort pools the ratings of characters named by sheet;
    a made-up helper with ten dice is refused."""
    per = table_for("personae")
    per.start_scene()
    request = {
        "coordinator": {"skill_name": "Swordplay"},
        "contributors": [{"name": "Ghost", "rating": 10, "potential_threshold": 10}],
        "difficulty": 5,
        "goal": "Drive them back",
    }
    assert refused(per, per.player, "concerted_effort", request, per.pc.pk) == (
        "Ghost is not on the table: name each contributor by their character (sheet_id)."
    )
