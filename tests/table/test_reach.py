"""Rules a player or the GM reaches from the page, through the same perform every other
control calls: a Useful Detail in the pool builder (SMV-6), a player's More-actions forms
for what the GM plays from the roll card's menu (SMV-9 Trouble, CTX-4 hitches), a fixed
Ability Score as one side of a resisted action (UNI-5, UNI-8), and the awareness pool as
a suggestion in the builder (SER-11). Each refuses a hidden roll's seq or a hidden
character's id in the words it uses for a missing one."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from sheets.models import Sheet
from table.models import TableEvent

from .conftest import make_sheet

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def text_of(response) -> str:
    return html.unescape(response.content.decode())


def refusal(text: str) -> str:
    """The form's error line ("" when it has none)."""
    found = re.search(r'<p class="error" role="alert">⚠ (.*?)</p>', text)
    return found.group(1) if found else ""


def builder(client, t, sheet, data):
    return client.post(reverse("table_pool", args=[t.campaign.pk, sheet.pk]), data, **HX)


def roll(client, t, sheet, data):
    return client.post(reverse("table_pool_roll", args=[t.campaign.pk, sheet.pk]), data, **HX)


def act(client, t, name, data):
    return client.post(reverse("table_act", args=[t.campaign.pk, name]), data, **HX)


def more_actions(client, t) -> str:
    page = text_of(client.get(reverse("table", args=[t.campaign.pk])))
    return page.split('id="actions-h"')[1]


# --------------------------------------------------------------------------- SMV-6


def test_smv6_a_useful_detail_made_in_the_builder_costs_1_and_is_free_when_reused(
    table_for, faces, client_for
):
    """SMV-6: the builder's Useful Detail is a d6 for 1 plot point, as its cost line says
    and the roll charges; another player reuses it in the same scene for free."""
    t = table_for("smallville")
    t.start_scene()
    mal, zoe = client_for(t.player), client_for(t.other)
    picks = {
        "trait": [t.trait(t.pc, "values", "Justice").pk, t.trait(t.pc, "relationships", "Lana").pk]
    }
    shown = builder(mal, t, t.pc, {**picks, "useful_detail": "Loose railing"})
    cost = re.sub(r"<[^>]+>", "", text_of(shown))
    assert "Costs 1 plot point: 1 for Loose railing d6 (a Useful Detail)" in cost
    faces.queue.extend([5, 4, 3])
    roll(mal, t, t.pc, {**picks, "useful_detail": "Loose railing"})
    event = TableEvent.objects.get(campaign=t.campaign, action="roll")
    assert [d["trait"] for d in event.request["pool"]][-1] == "Loose railing"
    assert t.counter(t.pc, "plot_points") == 1
    assert "Loose railing" in t.state()["useful_details"]

    theirs = {
        "trait": [
            t.trait(t.other_pc, "values", "Justice").pk,
            t.trait(t.other_pc, "relationships", "Lana").pk,
        ]
    }
    offered = re.sub(r"<[^>]+>", "", text_of(builder(zoe, t, t.other_pc, theirs)))
    assert "Loose railing d6 (made in this scene: free)" in offered
    reused = builder(zoe, t, t.other_pc, {**theirs, "reuse_detail": "Loose railing"})
    assert '<p class="cost">' not in reused.content.decode()
    faces.queue.extend([5, 4, 3])
    roll(zoe, t, t.other_pc, {**theirs, "reuse_detail": "Loose railing"})
    again = TableEvent.objects.filter(campaign=t.campaign, action="roll").latest("seq")
    assert again.request["pool"][-1]["reused"] is True
    assert t.counter(t.other_pc, "plot_points") == 2


def test_smv6_the_watchtower_takes_her_useful_detail_from_the_trouble_pool(
    table_for, faces, client_for
):
    """SMV-6: a GM character's builder offers the scene's Trouble Pool; the die picked is
    the detail's, free, and leaves the pool. A player's builder does not offer it."""
    t = table_for("smallville")
    t.start_scene()
    t.perform(t.gm, "trouble", {"operation": "add", "ones": 2}, sheet_id=t.pc.pk)
    assert t.state()["trouble_pool"] == ["d8"]
    gm = client_for(t.gm)
    picks = {"trait": [t.trait(t.npc, "values", "Justice").pk]}
    form = {**picks, "useful_detail": "Collapsing barn", "trouble_detail": "d8"}
    page = text_of(builder(gm, t, t.npc, form))
    assert "From the Trouble Pool (free)" in page
    faces.queue.extend([5, 4])
    roll(gm, t, t.npc, form)
    event = TableEvent.objects.get(campaign=t.campaign, action="roll")
    assert event.request["pool"][-1]["from_trouble"] is True
    assert t.state()["trouble_pool"] == []
    assert t.state()["useful_details"]["Collapsing barn"]["die"] == "d8"
    mine = text_of(builder(client_for(t.player), t, t.pc, {}))
    assert "From the Trouble Pool" not in mine


# --------------------------------------------------------------------------- SMV-9


def test_smv9_a_player_pays_to_remove_trouble_from_more_actions(table_for, faces, client_for):
    """SMV-9: the player's page offers the form (not "the roll card's menu", which is the
    GM's); the Watchtower's 1 sizes the die removed, and a secret roll's seq is refused as
    a missing one, nothing paid."""
    t = table_for("smallville")
    t.start_scene()
    mal = client_for(t.player)
    section = more_actions(mal, t)
    assert 'id="action-trouble"' in section
    assert "Change the Trouble Pool: on" not in section
    t.perform(t.gm, "trouble", {"operation": "add", "ones": 3}, sheet_id=t.pc.pk)
    t.perform(t.gm, "trouble", {"operation": "add", "ones": 1}, sheet_id=t.pc.pk)
    assert t.state()["trouble_pool"] == ["d10", "d6"]
    pool = [
        {"die": "d8", "trait": "Storm", "group": "situation"},
        {"die": "d6", "trait": "Goons", "group": "situation"},
    ]
    faces.queue.extend([1, 5])
    public = t.perform(t.gm, "roll", {"pool": pool})
    faces.queue.extend([1, 5])
    secret = t.perform(t.gm, "roll", {"pool": pool}, visibility="gm")
    held = t.counter(t.pc, "plot_points")
    refusals = [
        text_of(act(mal, t, "trouble", {"sheet": t.pc.pk, "table_roll": seq}))
        for seq in (secret.seq, 99999)
    ]
    assert refusal(refusals[0]) and refusal(refusals[0]) == refusal(refusals[1])
    done = text_of(act(mal, t, "trouble", {"sheet": t.pc.pk, "table_roll": public.seq}))
    assert "✓" in done, done
    assert t.state()["trouble_pool"] == ["d10"]  # her 1 was on the d8: the d6 went
    assert t.counter(t.pc, "plot_points") == held - 1
    # The other player's character is not Mal's to pay with.
    other = text_of(act(mal, t, "trouble", {"sheet": t.other_pc.pk, "table_roll": public.seq}))
    assert "⚠" in other and t.counter(t.other_pc, "plot_points") == 2


# --------------------------------------------------------------------------- CTX-4

POOL = [
    {"die": "d8", "trait": "Agility", "group": "attributes"},
    {"die": "d8", "trait": "Ex-Marine", "group": "distinctions"},
    {"die": "d10", "trait": "Shoot", "group": "skills"},
]


def test_ctx4_a_player_buys_the_gms_hitch_from_their_page(table_for, faces, client_for):
    """CTX-4, CTX-7: the player's More actions lists the GM's hitches (not a player's
    roll's), and buying one costs the player's character 1 plot point; a secret GM roll's
    hitch is refused as a missing roll."""
    t = table_for("cortex_slots")
    t.start_scene()
    mal = client_for(t.player)
    faces.queue.extend([1, 6, 4])
    gm_roll = t.perform(t.gm, "gm_pool", {"pool": ["d8", "d6", "d6"]})
    faces.queue.extend([1, 6, 4])
    secret = t.perform(t.gm, "gm_pool", {"pool": ["d8", "d6", "d6"]}, visibility="gm")
    faces.queue.extend([1, 6, 4])
    t.perform(t.player, "roll", {"pool": POOL}, sheet_id=t.pc.pk)
    section = more_actions(mal, t)
    assert 'id="action-buy_hitch"' in section
    assert "Buy a hitch: on" not in section
    picker = section.split('id="picker-buy_hitch-index"')[1].split("</fieldset>")[0]
    assert f'value="{gm_roll.seq}:0"' in picker
    assert f"#{secret.seq}" not in picker and "Mal" not in picker  # hidden, or a player's
    refusals = [
        text_of(act(mal, t, "buy_hitch", {"sheet": t.pc.pk, "buy_hitch-index": f"{seq}:0"}))
        for seq in (secret.seq, 99999)
    ]
    assert refusal(refusals[0]) and refusal(refusals[0]) == refusal(refusals[1])
    refusals = [
        text_of(act(mal, t, "buy_hitch", {"sheet": t.pc.pk, "table_roll": seq}))
        for seq in (secret.seq, 99999)
    ]
    assert refusal(refusals[0]) and refusal(refusals[0]) == refusal(refusals[1])
    assert t.counter(t.pc, "plot_points") == 1
    done = text_of(
        act(mal, t, "buy_hitch", {"sheet": t.pc.pk, "buy_hitch-index": f"{gm_roll.seq}:0"})
    )
    assert "✓" in done, done
    assert t.counter(t.pc, "plot_points") == 0
    bought = TableEvent.objects.filter(campaign=t.campaign, action="buy_hitch").get()
    assert bought.outcome["buyer"] == "players" and bought.character_id == t.pc.pk
    # Zoe's player cannot spend Mal's plot point: the character is not theirs.
    faces.queue.extend([1, 6, 4])
    later = t.perform(t.gm, "gm_pool", {"pool": ["d8", "d6", "d6"]})
    zoe = client_for(t.other)
    refused = text_of(
        act(zoe, t, "buy_hitch", {"sheet": t.pc.pk, "buy_hitch-index": f"{later.seq}:0"})
    )
    assert "⚠" in refused


# --------------------------------------------------------------------------- UNI-5, UNI-8


def test_uni5_uni8_a_cast_member_rolls_against_an_adversarys_fixed_score(
    table_for, faces, client_for
):
    """UNI-5, UNI-8: the defending side is the Adversary's Combat score, read from its
    sheet (the GM's override included): acting, the cast member must beat it, so a tie
    loses. A hidden Adversary is refused as a missing character."""
    t = table_for("unisystem")
    t.start_scene()
    vamp = make_sheet(t.campaign, None, "Vamp", kind="npc", npc_kind="adversary")
    Sheet.objects.filter(pk=vamp.pk).update(overrides={"combat": 14})
    ghost = make_sheet(t.campaign, None, "Ghost", kind="npc", npc_kind="adversary", hidden=True)
    mal = client_for(t.player)
    section = more_actions(mal, t)
    assert "Vamp: Combat" in section and "Ghost" not in section
    attacker = {
        "sheet": t.pc.pk,
        "resisted-attacker-trait": [
            t.trait(t.pc, "attributes", "Dexterity").pk,
            t.trait(t.pc, "skills", "Sports").pk,
        ],
    }
    faces.queue.extend([9])
    done = text_of(
        act(mal, t, "resisted", {**attacker, "resisted-defender-score": f"{vamp.pk}:combat"})
    )
    assert "✓" in done, done
    event = TableEvent.objects.get(campaign=t.campaign, action="resisted")
    assert event.outcome["defender"] == {
        "name": "Vamp",
        "fixed_score": True,
        "score_name": "Combat",
        "total": 14,
        "success": True,
        "levels": event.outcome["defender"]["levels"],
        "level_name": event.outcome["defender"]["level_name"],
    }
    assert event.outcome["attacker"]["total"] == 14
    assert event.outcome["winner"] == "defender"
    refused = [
        text_of(act(mal, t, "resisted", {**attacker, "resisted-defender-score": value}))
        for value in (f"{ghost.pk}:combat", "99999:combat")
    ]
    assert refusal(refused[0]) and refusal(refused[0]) == refusal(refused[1])
    # Straight through perform, a hidden sheet's id reads as a missing one too.
    errors = []
    for sheet_id in (ghost.pk, 99999):
        with pytest.raises(Exception) as refused_now:
            t.perform(
                t.player,
                "resisted",
                {
                    "attacker": {"attribute_name": "Dexterity", "skill_name": "Sports"},
                    "defender": {"sheet_id": sheet_id, "score_of": "combat"},
                },
                sheet_id=t.pc.pk,
            )
        errors.append(str(refused_now.value))
    assert errors[0] == errors[1]


def test_uni5_a_cast_member_defends_against_an_adversarys_score(table_for, faces):
    """UNI-5: defending, a tie with the acting Adversary's score is enough; a player's
    number for the score is never read, and a PC has no fixed score."""
    t = table_for("unisystem")
    t.start_scene()
    vamp = make_sheet(t.campaign, None, "Vamp", kind="npc", npc_kind="adversary")
    Sheet.objects.filter(pk=vamp.pk).update(overrides={"muscle": 12})
    faces.queue.extend([7])
    event = t.perform(
        t.player,
        "resisted",
        {
            "attacker": {"sheet_id": vamp.pk, "score_of": "muscle", "score": 99},
            "defender": {
                "sheet_id": t.pc.pk,
                "attribute_name": "Dexterity",
                "skill_name": "Sports",
            },
        },  # fmt: skip
        sheet_id=t.pc.pk,
    )
    assert event.outcome["attacker"]["total"] == 12
    assert event.outcome["defender"]["total"] == 12
    assert event.outcome["winner"] == "defender"
    with pytest.raises(Exception, match="no fixed Ability Scores"):
        t.perform(
            t.player,
            "resisted",
            {
                "attacker": {"attribute_name": "Dexterity"},
                "defender": {"sheet_id": t.other_pc.pk, "score_of": "combat"},
            },
            sheet_id=t.pc.pk,
        )


# --------------------------------------------------------------------------- SER-11


def test_ser11_the_builder_suggests_the_awareness_pool(table_for, client_for):
    """SER-11: the builder suggests Finaglin' for awareness or knowledge, picked in one
    tap; the separate form is gone from More actions."""
    t = table_for("serenity")
    t.start_scene()
    mal = client_for(t.player)
    page = text_of(builder(mal, t, t.pc, {}))
    assert "Awareness or knowledge: Finaglin' d6" in page
    tapped = builder(mal, t, t.pc, {"trait": [t.trait(t.pc, "stylins", "Fightin'").pk],
                                    "suggestion": "0"})  # fmt: skip
    pool = tapped.context["pool"]
    assert pool.selected == [t.trait(t.pc, "stylins", "Finaglin'").pk]
    assert pool.ready
    section = more_actions(mal, t)
    assert 'id="action-awareness_pool"' not in section
    assert "on the pool builder's suggestion" in section
