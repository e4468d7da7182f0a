"""Every action of every game is played from a real control on the table page: its
own (the builder, the dashboard, the contest box, a card's menu) or a More-actions
form whose nested fields are pickers. Nobody types JSON, a rule id or the number of
an earlier roll; what a player may not see is not listed, and naming it by hand is
refused exactly as naming something that does not exist."""

from __future__ import annotations

import html
import random
import re

import pytest
from django.urls import reverse

from rules.registry import SYSTEMS
from rules.serenity.table import Benefit
from sheets.models import Sheet
from sheets.services import create_sheet
from table.acting.context import UndeclaredTableParam
from table.models import TableEvent
from table.pages.action_menu import control_of, has_form, more_actions
from table.writing import actions
from tests.table.page_fixtures import (  # noqa: F401
    build_sheet,
    fresh_cards,
    ids,
    make_campaign,
    start_scene,
    table,
)

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def seeded(monkeypatch):
    monkeypatch.setattr(actions, "RNG", random.Random(11))


# --------------------------------------------------------------------------- the audit


@pytest.mark.parametrize("slug", sorted(SYSTEMS))
def test_every_action_has_a_control_or_a_form(slug):
    """The audit: each action is played from its own control (named on the page) or
    from a generated form with no JSON field."""
    game = SYSTEMS[slug]
    offered, elsewhere = more_actions(game)
    placed = {a.name for a in offered} | {a.name for a, _ in elsewhere}
    unplayable = [name for name, action in game.actions.items() if name not in placed]
    assert unplayable == [], f"{slug}: no control and no form for {unplayable}"
    for action in offered:
        assert has_form(game, action)
    for action, where in elsewhere:
        assert where == control_of(game, action) and where


@pytest.mark.parametrize("slug", sorted(SYSTEMS))
def test_the_gm_page_draws_every_offered_form_and_says_where_the_others_are(
    slug, gm, player, observer, client_for
):
    campaign = make_campaign(gm, player, observer, slug)
    build_sheet(campaign, player, slug, "Hero")
    start_scene(campaign)
    page = client_for(gm).get(reverse("table", args=[campaign.pk])).content.decode()
    offered, elsewhere = more_actions(campaign.game)
    for action in offered:
        assert f'id="action-{action.name}"' in page
    text = html.unescape(page)
    for action, where in elsewhere:
        assert f"{action.title}: on {where}" in text
    assert "<textarea" not in page.split('id="actions-h"')[1].split("</details>\n")[0]
    assert "JSON" not in text.split("More actions")[1]


# --------------------------------------------------------------------------- played by picking


def _act(client, campaign, name, data):
    return client.post(reverse("table_act", args=[campaign.pk, name]), data, **HX)


def _logged(client, campaign, name):
    """The action's newest event, and whether its headline is in the client's log."""
    event = TableEvent.objects.filter(campaign=campaign, action=name).order_by("-seq").first()
    assert event is not None, f"no {name} in the log"
    page = html.unescape(client.get(reverse("table", args=[campaign.pk])).content.decode())
    return event, event.headline in page


@pytest.mark.parametrize("slug", ["serenity", "smallville"])
def test_the_gm_runs_a_test_by_ticking_the_players_traits_and_picking_dice(
    slug, gm, player, observer, client_for
):
    campaign = make_campaign(gm, player, observer, slug)
    sheet, t = build_sheet(campaign, player, slug, "Hero")
    start_scene(campaign)
    picked = [t["fightin"], t["veteran"]] if slug == "serenity" else [t["justice"], t["lana"]]
    response = _act(
        client_for(gm),
        campaign,
        "test",
        {
            "sheet": sheet.pk,
            "test-player-trait": ids(*picked),
            "test-opposition-die": ["d8", "d6", ""],
            "test-opposition-die_name": ["Armed thugs", "Cramped bay", ""],
        },
    )
    assert "✓" in response.content.decode(), response.content.decode()
    event, shown = _logged(client_for(player), campaign, "test")
    assert shown
    rolled = {d["trait"] for d in event.request["player"]["pool"]}
    assert rolled == {p.name for p in picked}
    assert {d["trait"] for d in event.request["opposition"]["pool"]} == {
        "Armed thugs",
        "Cramped bay",
    }


def test_a_player_cannot_play_the_gms_test_by_posting_its_form(table, client_for, player):  # noqa: F811
    campaign, sheet, t = table
    before = TableEvent.objects.count()
    response = _act(
        client_for(player),
        campaign,
        "test",
        {"sheet": sheet.pk, "test-player-trait": ids(t["fightin"]), "test-opposition-die": "d6"},
    )
    assert "⚠" in response.content.decode()
    assert TableEvent.objects.count() == before


def _kept_roll(gm, player, observer):
    campaign = make_campaign(gm, player, observer, "cortex_slots")
    sheet, _ = build_sheet(campaign, player, "cortex_slots", "Hero")
    start_scene(campaign)
    pool = [
        {"die": "d8", "trait": "Agility", "group": "attributes"},
        {"die": "d8", "trait": "Ex-Marine", "group": "distinctions"},
        {"die": "d6", "trait": "Sneak", "group": "skills"},
        {"die": "d8", "trait": "Sniper Rifle", "group": "assets"},
    ]
    roll = actions.perform(campaign, player, "roll", {"pool": pool}, sheet_id=sheet.pk)
    return campaign, sheet, roll


def test_cortex_slots_resplit_picks_the_kept_rolls_dice(gm, player, observer, client_for):
    """CTX-2: the new split is ticked on the kept roll's dice, never typed as numbers."""
    campaign, sheet, roll = _kept_roll(gm, player, observer)
    pete = client_for(player)
    page = html.unescape(pete.get(reverse("table", args=[campaign.pk])).content.decode())
    assert f'name="resplit-split-total" value="{roll.seq}:0"' in page
    usable = [i for i, d in enumerate(roll.outcome["dice"]) if d.get("face") != 1][:3]
    assert len(usable) == 3  # the seeded dice (seeded above) leave three to split
    total, effect = usable[:2], usable[2]
    response = _act(
        pete,
        campaign,
        "resplit",
        {
            "sheet": sheet.pk,
            "resplit-split-total": [f"{roll.seq}:{i}" for i in total],
            "resplit-split-effect": f"{roll.seq}:{effect}",
        },
    )
    assert "✓" in response.content.decode(), response.content.decode()
    event, shown = _logged(pete, campaign, "resplit")
    assert shown
    assert event.request["split"] == {"total": total, "effect": effect}
    assert event.params["roll"] == roll.seq


def test_cortex_slots_resplit_places_the_big_hero_die_by_name(gm, player, observer, client_for):
    """CTX-2, CTX-6: the Big Hero Die is not offered as a numbered die (the rules place it
    by name); the form asks which slot it joins, and the new split puts it there."""
    campaign = make_campaign(gm, player, observer, "cortex_slots")
    sheet, _ = build_sheet(campaign, player, "cortex_slots", "Kai")
    sheet.counters.filter(key="plot_points").update(value=2)
    start_scene(campaign)
    pool = [
        {"die": "d8", "trait": "Agility", "group": "attributes"},
        {"die": "d8", "trait": "Ex-Marine", "group": "distinctions"},
        {"die": "d6", "trait": "Sneak", "group": "skills"},
        {"die": "d8", "trait": "Sniper Rifle", "group": "assets"},
    ]
    roll = actions.perform(
        campaign, player, "roll", {"pool": pool, "big_hero": True}, sheet_id=sheet.pk
    )
    hero = next(i for i, d in enumerate(roll.outcome["dice"]) if d.get("big_hero"))
    pete = client_for(player)
    page = html.unescape(pete.get(reverse("table", args=[campaign.pk])).content.decode())
    assert f'value="{roll.seq}:{hero}"' not in page
    assert 'name="resplit-split-big_hero"' in page
    others = [i for i in range(len(roll.outcome["dice"])) if i != hero]
    total, effect = others[:2], others[2]
    response = _act(
        pete,
        campaign,
        "resplit",
        {
            "sheet": sheet.pk,
            "resplit-split-total": [f"{roll.seq}:{i}" for i in total],
            "resplit-split-effect": f"{roll.seq}:{effect}",
            "resplit-split-big_hero": "effect",
        },
    )
    assert "✓" in response.content.decode(), response.content.decode()
    event, shown = _logged(pete, campaign, "resplit")
    assert shown
    assert event.request["split"] == {"total": total, "effect": effect, "big_hero": "effect"}
    assert event.outcome["dice"][hero]["role"] == "effect"


def test_more_actions_lists_are_read_when_a_form_is_opened(gm, player, observer, client_for):
    """A roll made after the page loaded is among the earlier rolls when the form opens,
    and a re-split shows the dice where they now sit: each form asks for itself again
    as its <details> opens."""
    campaign, sheet, roll = _kept_roll(gm, player, observer)
    pete = client_for(player)
    page = pete.get(reverse("table", args=[campaign.pk])).content.decode()
    url = reverse("table_act_form", args=[campaign.pk, "bank_move"])
    assert f'hx-get="{url}"' in page and 'hx-trigger="toggle"' in page
    # Only the lists are swapped in, by id: what was picked elsewhere on the form stays.
    assert 'hx-select-oob="#picker-bank_move-index,#tr-bank_move"' in page
    assert 'id="picker-bank_move-index"' in page and 'id="tr-bank_move"' in page
    again = actions.perform(
        campaign, player, "roll", {"pool": roll.request["pool"]}, sheet_id=sheet.pk
    )
    assert f'value="{again.seq}:0"' not in page
    fresh = html.unescape(pete.get(url, **HX).content.decode())
    assert f'value="{again.seq}:0"' in fresh and 'name="bank_move-index"' in fresh
    dice = again.outcome["dice"]
    usable = [i for i, d in enumerate(dice) if d.get("face") != 1 and d["role"] == "bank"]
    usable += [i for i in range(len(dice)) if i not in usable]
    split = {"total": usable[:2], "effect": usable[2]}
    actions.perform(campaign, player, "resplit", {"split": split, "table": {"roll": again.seq}},
                    sheet_id=sheet.pk)  # fmt: skip
    fresh = html.unescape(pete.get(url, **HX).content.decode())
    moved = dice[usable[0]]
    assert f"{moved['trait']} {moved['die']}: {moved['face']} (total)" in fresh
    assert client_for(observer).get(url, **HX).status_code in (403, 404)


def test_cortex_slots_bank_move_picks_a_die_of_the_earlier_roll(gm, player, observer, client_for):
    campaign, sheet, roll = _kept_roll(gm, player, observer)
    pete = client_for(player)
    page = pete.get(reverse("table", args=[campaign.pk])).content.decode()
    assert f'<option value="{roll.seq}">#{roll.seq} Hero' in page
    banked = [i for i, d in enumerate(roll.outcome["dice"]) if d.get("role") == "bank"]
    index = banked[0] if banked else 0
    data = {"sheet": sheet.pk, "bank_move-index": f"{roll.seq}:{index}", "bank_move-to": "total"}
    response = _act(pete, campaign, "bank_move", data)
    body = response.content.decode()
    if banked:
        assert "✓" in body, body
        event, shown = _logged(pete, campaign, "bank_move")
        assert shown and event.request["index"] == index
    else:  # nothing banked in this roll: the rules say so, and nothing changed
        assert "⚠" in body
    wrong = _act(pete, campaign, "bank_move", {**data, "bank_move-index": f"{roll.seq}:99"})
    assert _refusal(wrong) == "That roll is not in this table's log."


def test_personae_assist_picks_the_characters(gm, player, observer, client_for):
    campaign = make_campaign(gm, player, observer, "personae")
    hero, _ = build_sheet(campaign, player, "personae", "Ace")
    friend, _ = build_sheet(campaign, player, "personae", "Bo")
    start_scene(campaign)
    response = _act(
        client_for(player),
        campaign,
        "assist",
        {
            "sheet": hero.pk,
            "assist-primary_actor": hero.pk,
            "assist-assistants": [friend.pk],
            "assist-result": "glancing",
        },
    )
    assert "✓" in response.content.decode(), response.content.decode()
    event, shown = _logged(client_for(observer), campaign, "assist")
    assert shown
    assert event.request["primary_actor"] == "Ace" and event.request["assistants"] == ["Bo"]


def test_unisystem_resisted_ticks_both_sides_from_their_sheets(gm, player, observer, client_for):
    campaign = make_campaign(gm, player, observer, "unisystem")
    hero, t = build_sheet(campaign, player, "unisystem", "Hero")
    foe, f = build_sheet(campaign, None, "unisystem", "Vamp", kind="npc")
    start_scene(campaign)
    response = _act(
        client_for(gm),
        campaign,
        "resisted",
        {
            "sheet": hero.pk,
            "resisted-attacker-trait": ids(t["dex"], t["kung"]),
            "resisted-defender-sheet": foe.pk,
            "resisted-defender-trait": ids(f["dex"], f["gun"]),
        },
    )
    assert "✓" in response.content.decode(), response.content.decode()
    event, shown = _logged(client_for(player), campaign, "resisted")
    assert shown
    assert event.request["attacker"]["skill_name"] == "Kung Fu"
    assert event.request["attacker"]["attribute"] == 4  # from the sheet
    assert event.request["defender"]["name"] == "Vamp"


def test_unisystem_a_players_chase_form_rolls_their_character_against_the_chaser(
    gm, player, observer, client_for
):
    """UNI-13: the player's own character runs (the form's "Your roll"), the chaser is
    picked with their traits; the form is not refused for naming no runner."""
    campaign = make_campaign(gm, player, observer, "unisystem")
    hero, t = build_sheet(campaign, player, "unisystem", "Hero")
    foe, f = build_sheet(campaign, None, "unisystem", "Vamp", kind="npc")
    start_scene(campaign)
    response = _act(
        client_for(player),
        campaign,
        "chase",
        {
            "sheet": hero.pk,
            "chase-lead": "2",
            "chase-runner-trait": ids(t["dex"]),
            "chase-chaser-sheet": foe.pk,
            "chase-chaser-trait": ids(f["dex"]),
        },
    )
    assert "✓" in response.content.decode(), response.content.decode()
    event, shown = _logged(client_for(gm), campaign, "chase")
    assert shown
    assert event.request["runner"]["name"] == "Hero" and event.request["runner"]["attribute"] == 4
    assert event.request["chaser"]["name"] == "Vamp"


@pytest.mark.parametrize("who", ["player", "gm"])
def test_personae_concerted_effort_form_takes_its_goal(who, gm, player, observer, client_for):
    """PER-8, PER-9: the coordinator's traits are ticked and the goal typed on the form;
    the form is played, not refused for a goal it holds, and the card keeps the goal."""
    campaign = make_campaign(gm, player, observer, "personae")
    hero, t = build_sheet(campaign, player, "personae", "Ace")
    helper, _ = build_sheet(campaign, None, "personae", "Bo", kind="npc")
    start_scene(campaign)
    actions.perform(campaign, gm, "set_difficulty", {"difficulty": 6})
    response = _act(
        client_for(gm if who == "gm" else player),
        campaign,
        "concerted_effort",
        {
            "sheet": hero.pk,
            "concerted_effort-coordinator-trait": ids(t["sword"], t["might"]),
            "concerted_effort-contributors": [helper.pk],
            "concerted_effort-goal": "Drive them back",
        },
    )
    assert "✓" in response.content.decode(), response.content.decode()
    event, shown = _logged(client_for(player), campaign, "concerted_effort")
    assert shown
    assert event.request["goal"] == "Drive them back"
    assert event.request["coordinator"]["skill_name"] == "Swordplay"
    assert event.request["contributors"][0]["name"] == "Bo"


# --------------------------------------------------------------------------- what players see


def _secret_roll(campaign, gm, sheet):
    return actions.perform(
        campaign,
        gm,
        "roll",
        {"pool": [{"die": "d6", "trait": "Fightin'", "group": "stylins"}]},
        sheet_id=sheet.pk,
        visibility="gm",
    )


def _options(page: str, name: str) -> list[str]:
    found = re.findall(rf'<select name="{name}"[^>]*>(.*?)</select>', page, re.S)
    return [v for block in found for v in re.findall(r'<option value="([^"]*)"', block)]


def _hidden_npc(campaign):
    return create_sheet(campaign, name="Shadow", kind="npc", hidden=True)


def test_a_players_form_lists_no_hidden_roll_and_no_hidden_character(
    table,  # noqa: F811
    client_for,
    gm,
    player,
):
    campaign, sheet, _ = table
    secret = _secret_roll(campaign, gm, sheet)
    shadow = _hidden_npc(campaign)
    player_page = client_for(player).get(reverse("table", args=[campaign.pk])).content.decode()
    gm_page = client_for(gm).get(reverse("table", args=[campaign.pk])).content.decode()
    assert str(secret.seq) in _options(gm_page, "table_roll")
    assert str(secret.seq) not in _options(player_page, "table_roll")
    # Every list of characters on the forms (who acts, whose traits, the other character).
    characters = r'[^"]*(?:sheet|target)'
    assert str(shadow.pk) in _options(gm_page, characters)
    assert str(shadow.pk) not in _options(player_page, characters)
    assert "Shadow" not in player_page


def _refusal(response) -> str:
    found = re.search(r'<p class="error" role="alert">⚠ (.*?)</p>', response.content.decode())
    return html.unescape(found.group(1))


def test_a_player_naming_a_hidden_roll_gets_the_missing_rolls_answer(
    table,  # noqa: F811
    client_for,
    gm,
    player,
):
    campaign, sheet, _ = table
    secret = _secret_roll(campaign, gm, sheet)
    pete = client_for(player)
    before = TableEvent.objects.count()
    base = {"sheet": sheet.pk, "benefit-benefit": "step_up_asset"}
    hidden = _act(pete, campaign, "benefit", {**base, "table_roll": secret.seq})
    missing = _act(pete, campaign, "benefit", {**base, "table_roll": secret.seq + 50})
    assert _refusal(hidden) == _refusal(missing) == "That roll is not in this table's log."
    assert TableEvent.objects.count() == before


@pytest.mark.parametrize("field", ["table_target", "sheet"])
def test_a_player_naming_a_hidden_character_gets_the_missing_ones_answer(
    table,  # noqa: F811
    client_for,
    player,
    field,
):
    campaign, sheet, _ = table
    shadow = _hidden_npc(campaign)
    missing_id = Sheet.objects.order_by("-pk").first().pk + 100
    pete = client_for(player)
    before = TableEvent.objects.count()
    base = {"sheet": sheet.pk, "stress-type": "Injured"}
    hidden = _act(pete, campaign, "stress", {**base, field: shadow.pk})
    missing = _act(pete, campaign, "stress", {**base, field: missing_id})
    assert _refusal(hidden) == _refusal(missing) == "That character is not at this table."
    assert TableEvent.objects.count() == before


def test_people_pickers_refuse_a_hidden_character_like_a_missing_one(
    gm, player, observer, client_for
):
    campaign = make_campaign(gm, player, observer, "personae")
    hero, _ = build_sheet(campaign, player, "personae", "Ace")
    shadow = _hidden_npc(campaign)
    start_scene(campaign)
    pete = client_for(player)
    data = {"sheet": hero.pk, "assist-primary_actor": hero.pk, "assist-result": "clear"}
    hidden = _act(pete, campaign, "assist", {**data, "assist-assistants": [shadow.pk]})
    missing = _act(pete, campaign, "assist", {**data, "assist-assistants": [shadow.pk + 100]})
    assert _refusal(hidden) == _refusal(missing)
    assert not TableEvent.objects.filter(campaign=campaign, action="assist").exists()


def test_unisystem_helpers_roll_the_leaders_task_from_their_own_sheets(
    gm, player, observer, client_for
):
    """UNI-10: the helpers are picked; each rolls the leader's task with their ratings."""
    campaign = make_campaign(gm, player, observer, "unisystem")
    hero, t = build_sheet(campaign, player, "unisystem", "Hero")
    friend, _ = build_sheet(campaign, player, "unisystem", "Pal")
    start_scene(campaign)
    response = _act(
        client_for(player),
        campaign,
        "working_together",
        {
            "sheet": hero.pk,
            "working_together-mode": "short",
            "working_together-leader-trait": ids(t["dex"], t["gun"]),
            "working_together-helpers": [friend.pk],
        },
    )
    assert "✓" in response.content.decode(), response.content.decode()
    event, shown = _logged(client_for(observer), campaign, "working_together")
    assert shown
    helper = event.request["helpers"][0]
    assert helper["name"] == "Pal" and helper["skill_name"] == "Gun Fu"
    assert helper["attribute"] == 4  # Pal's own Dexterity, read from the sheet


def _form_of(page: str, action: str) -> str:
    start = page.index(f'id="action-{action}"')
    return page[start : page.index("</form>", start)]


def test_a_form_asks_only_for_the_table_options_its_rule_reads(gm, player, observer, client_for):
    """A transition names the table options it reads (Transition.table_params)."""
    campaign = make_campaign(gm, player, observer, "unisystem")
    build_sheet(campaign, player, "unisystem", "Hero")
    start_scene(campaign)
    page = client_for(gm).get(reverse("table", args=[campaign.pk])).content.decode()
    lengthy = _form_of(page, "lengthy_task")
    assert 'name="table_task"' in lengthy and 'name="table_from_seq"' in lengthy
    assert "table_contest" not in lengthy and "table_target" not in lengthy
    damage = _form_of(page, "damage")
    assert 'name="table_target"' in damage and "table_task" not in damage
    movement = _form_of(page, "movement")
    assert "table_" not in movement  # reads no table option: none is offered


def test_a_rule_that_reads_an_undeclared_table_option_is_stopped(table, gm, monkeypatch):  # noqa: F811
    campaign, _, _ = table
    monkeypatch.setattr(Benefit, "table_params", ())
    with pytest.raises(UndeclaredTableParam):
        actions.perform(campaign, gm, "benefit", {"margin": 5, "table": {"roll": 1}})


def test_a_player_gets_no_form_of_the_gms_nor_a_second_one_beside_a_control(
    table,  # noqa: F811
    client_for,
    gm,
    player,
):
    campaign, _, _ = table
    url = reverse("table", args=[campaign.pk])
    gm_page = client_for(gm).get(url).content.decode()
    player_page = client_for(player).get(url).content.decode()
    for action in ("test", "activate_complication"):
        assert f'id="action-{action}"' in gm_page  # the GM side without a GM character
        assert f'id="action-{action}"' not in player_page
    # SER-10's benefit is the winner's to pick: from a list, with nothing filled in ahead.
    benefit = _form_of(player_page, "benefit")
    assert '<select name="benefit-benefit"' in benefit
    assert "Step down one of your stress dice rolled against you" in benefit
    assert 'value="Injured"' not in benefit and 'placeholder="Injured"' in benefit


@pytest.mark.parametrize(
    ("system", "action", "asked", "not_asked"),
    [
        # SER-10: the margin, both pools and the winner are the logged test's.
        ("serenity", "benefit", ("benefit-benefit", "benefit-target"),
         ("benefit-margin", "benefit-stress_die", "benefit-gm")),
        # CTX-9: the points held, the milestones and the trait's die are the sheet's.
        ("cortex_slots", "advance", ("advance-operation", "advance-trait", "advance-to"),
         ("advance-advance_points", "advance-milestones", "advance-from",
          "advance-signature")),
        # UNI-9, UNI-13, UNI-14, UNI-12: the character's Life Points and attributes.
        ("unisystem", "heal", ("heal-doctor_total",),
         ("heal-life_points", "heal-max_life_points")),
        ("unisystem", "movement", (), ("movement-dexterity", "movement-constitution")),
        ("unisystem", "jump", ("jump-jump",), ("jump-strength",)),
        ("unisystem", "fear_test", (), ("fear_test-willpower",)),
        # PER-8: a player's concerted effort is against the GM's difficulty.
        ("personae", "concerted_effort", ("concerted_effort-goal",),
         ("concerted_effort-difficulty",)),
        # UNI-11: the running tally is the task's.
        ("unisystem", "lengthy_task", ("lengthy_task-required_levels",),
         ("lengthy_task-accumulated", "lengthy_task-rolls_made")),
    ],
)  # fmt: skip
def test_a_players_form_asks_only_what_the_player_chooses(
    table_for, client_for, system, action, asked, not_asked
):
    t = table_for(system)
    url = reverse("table_act_form", args=[t.campaign.pk, action])
    form = html.unescape(client_for(t.player).get(url, **HX).content.decode())
    for name in asked:
        assert f'name="{name}"' in form
    for name in not_asked:
        assert f'name="{name}"' not in form
    for key in ("step_up_asset", "award", "skills"):
        assert f">{key}<" not in form and f">{key.replace('_', ' ')}<" not in form
