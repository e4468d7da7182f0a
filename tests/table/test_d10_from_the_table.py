"""Pools from the table in the d10 games (issue #15): every die and rating in a roll comes
from stored state the roller may use, or from what the GM grants. A player names the other
side and never supplies its numbers; bonus dice are the GM's grant (PER-1); the difficulty
is the one the GM set for the scene (PER-1, UNI-4).

Every attack goes through the real table socket (or the pages) as a player who wants to
cheat. Each test failed on the table before these rules were enforced.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from campaigns import services
from table.models import TableEvent
from table.writing.actions import reveal, void

from .test_pool_from_table import act, everything, last_event, refused

pytestmark = pytest.mark.django_db(transaction=True)

NAME_THEM = "Name the character you roll against; the GM gives the numbers of one without a sheet."
NO_SUCH_CHARACTER = "No such character in this campaign."
BEHIND_THE_SCREEN = (
    "The GM set the difficulty behind the screen: roll blind, and the GM sees how it went "
    "and reveals it."
)
SWORDPLAY = {"skill_name": "Swordplay"}  # Mal's: 3 dice, Might 4


@pytest.fixture
def per(table_for, faces):
    t = table_for("personae")
    t.scene = t.start_scene()
    return t


@pytest.fixture
def uni(table_for, faces):
    t = table_for("unisystem")
    t.scene = t.start_scene()
    return t


def challenge(**extra) -> dict:
    return {"actor": {**SWORDPLAY, **extra.pop("actor", {})}, "goal": "Cross the bridge", **extra}


def page(t, user, name: str, *args) -> str:
    from django.test import Client

    client = Client()
    client.force_login(user)
    response = client.get(reverse(name, args=[t.campaign.pk, *args]))
    assert response.status_code == 200
    return response.content.decode()


def player_views(t, user) -> str:
    """The scene panel, the table page and (for a player with a character) the builder."""
    text = page(t, user, "table_scene") + page(t, user, "table")
    if user == t.player:
        text += page(t, user, "table_pool", t.pc.pk)
    return text


def grants(t) -> dict:
    return {k: v for k, v in t.state().items() if k.startswith("bonus_dice_for_")}


# --------------------------------------------------------------------------- bonus dice


def test_bonus_dice_a_player_asks_for_without_a_grant_are_not_rolled(per, faces):
    """PER-1: ten bonus dice in the request, none granted: Mal rolls his three Swordplay
    dice against Zoe's three, and nothing but the roll changes (no counter, no scene
    state)."""
    before = everything(per)
    faces.queue.extend([1] * 16)
    request = challenge(actor={"bonus_dice": 10}, reactor=SWORDPLAY,
                        table={"target": per.other_pc.pk})  # fmt: skip
    assert act(per, per.player, "challenge", request, per.pc.pk) == ""
    rolled = last_event(per)
    assert rolled.request["actor"]["bonus_dice"] == 0
    assert len(rolled.faces) == 3 + 3
    head, counters, traits, scenes = everything(per)
    assert (head, counters, traits, scenes) == (before[0] + 1, *before[1:])


def test_a_grant_is_rolled_by_the_next_challenge_only_and_voids_give_it_back(per, faces):
    """PER-1: the GM grants Mal 2 bonus dice; his next challenge rolls 3 + 2 whatever it
    asks for and uses the grant up in its own transaction; the challenge after rolls 3.
    Voiding the challenge gives the grant back; voiding the grant takes it away."""
    per.perform(per.gm, "set_difficulty", {"difficulty": 9})
    grant = per.perform(per.gm, "grant_bonus_dice", {"dice": 2, "note": "the high ground"},
                        sheet_id=per.pc.pk)  # fmt: skip
    assert grant.headline == "The GM grants Mal 2 bonus dice for the next challenge"
    assert "Bonus dice from the GM: <strong>2</strong>" in page(
        per, per.player, "table_pool", per.pc.pk
    )
    assert act(per, per.player, "challenge", challenge(actor={"bonus_dice": 0}), per.pc.pk) == ""
    first = last_event(per)
    assert (first.request["actor"]["bonus_dice"], len(first.faces)) == (2, 5)
    assert grants(per) == {}
    assert act(per, per.player, "challenge", challenge(actor={"bonus_dice": 2}), per.pc.pk) == ""
    assert len(last_event(per).faces) == 3

    struck = void(per.campaign, per.gm, first.pk, "wrong bridge")
    assert "Bonus dice for Mal: restored." in struck.explanation
    assert [g["dice"] for g in grants(per).values()] == [2]
    assert "Bonus dice from the GM: <strong>2</strong>" in page(
        per, per.player, "table_pool", per.pc.pk
    )
    void(per.campaign, per.gm, grant.pk, "not earned")
    assert grants(per) == {}
    assert act(per, per.player, "challenge", challenge(), per.pc.pk) == ""
    assert len(last_event(per).faces) == 3


def test_a_new_grant_replaces_an_unused_one_and_the_scene_takes_it_away(per, faces):
    """PER-1: grants do not add up (a new one replaces, 0 withdraws); only players'
    characters get them; one unused when the scene ends expires with it."""
    per.perform(per.gm, "grant_bonus_dice", {"dice": 1}, sheet_id=per.pc.pk)
    second = per.perform(per.gm, "grant_bonus_dice", {"dice": 4}, sheet_id=per.pc.pk)
    assert "replaces the 1 die granted before" in second.explanation
    per.perform(per.gm, "grant_bonus_dice", {"dice": 2}, sheet_id=per.other_pc.pk)
    assert sorted((g["name"], g["dice"]) for g in grants(per).values()) == [("Mal", 4), ("Zoe", 2)]
    withdrawn = per.perform(per.gm, "grant_bonus_dice", {"dice": 0}, sheet_id=per.other_pc.pk)
    assert withdrawn.headline == "The GM withdraws Zoe's bonus dice"
    assert "player" in refused(per, per.gm, "grant_bonus_dice", {"dice": 2}, per.npc.pk)
    assert refused(per, per.player, "grant_bonus_dice", {"dice": 2}, per.pc.pk) == (
        "Only the GM can use “Grant bonus dice”."
    )
    services.end_scene(per.campaign, per.scene.pk, per.gm)
    ended = last_event(per)
    assert "bonus dice for Mal" in ended.explanation
    per.start_scene("The far bank")
    per.perform(per.gm, "set_difficulty", {"difficulty": 9})
    assert act(per, per.player, "challenge", challenge(), per.pc.pk) == ""
    assert len(last_event(per).faces) == 3


def test_a_secret_grant_stays_out_of_players_panels_and_builders(per, faces):
    """PER-1 behind the screen: the GM's secret grant (and its note) is in the GM's panel
    and in no player's or observer's panel, page or builder; Mal's builder offers no bonus
    dice. It is the GM's surprise: Mal's next challenge rolls it."""
    per.perform(per.gm, "set_difficulty", {"difficulty": 9})
    per.perform(per.gm, "grant_bonus_dice", {"dice": 3, "note": "Zoe's hidden ambush"},
                sheet_id=per.pc.pk, visibility="gm")  # fmt: skip
    assert "Zoe&#x27;s hidden ambush" in page(per, per.gm, "table_scene")
    for user in (per.player, per.other, per.observer):
        seen = player_views(per, user)
        assert "hidden ambush" not in seen
        assert "Bonus dice granted" not in seen
    assert "Bonus dice from the GM: <strong>0</strong>" in page(
        per, per.player, "table_pool", per.pc.pk
    )
    assert act(per, per.player, "challenge", challenge(), per.pc.pk) == ""
    assert len(last_event(per).faces) == 6
    assert grants(per) == {}


# --------------------------------------------------------------------------- the other side


def test_a_player_typing_the_other_sides_numbers_is_refused(per, uni):
    """PER-1, UNI-5, UNI-10, UNI-13: a reactor, defender, chaser or helper given as raw
    ratings (or a fixed score) is refused with nothing changed; the GM stays free-form."""
    ghost = {"name": "Ghost", "skill": 10, "attribute": 10, "modifiers": -20}
    assert refused(per, per.player, "challenge", challenge(reactor=ghost), per.pc.pk) == NAME_THEM
    mine = {"kind": "simple_test", "attribute_name": "Dexterity"}
    weakling = {"name": "Weakling", "kind": "simple_test", "attribute": 1}
    for action, request in [
        ("resisted", {"attacker": mine, "defender": weakling}),
        ("resisted", {"attacker": mine, "defender": {"name": "Vampire", "score": 1}}),
        ("chase", {"lead": 4, "runner": {**mine, "sheet_id": uni.pc.pk}, "chaser": weakling}),
    ]:
        assert refused(uni, uni.player, action, request, uni.pc.pk) == NAME_THEM, action
    genius = {"name": "Genius", "attribute": 30, "skill": 15}
    together = {"mode": "short", "leader": {"attribute_name": "Intelligence"}, "helpers": [genius]}
    assert "Name each character who works with you" in refused(
        uni, uni.player, "working_together", together, uni.pc.pk
    )
    faces_before = everything(uni)
    uni.perform(uni.gm, "resisted", {"attacker": weakling, "defender": {**weakling, "name": "B"}})
    assert everything(uni)[0] == faces_before[0] + 1


def test_a_named_other_side_rolls_from_its_sheet_without_the_players_numbers(per, uni, faces):
    """PER-1, UNI-5: the reactor and the defender named by sheet roll that sheet's ratings;
    what the player added to them (bonus dice, modifiers, a preset) is left out."""
    per.perform(per.gm, "set_difficulty", {"difficulty": 30})
    reactor = {"skill_name": "Swordplay", "skill": 0, "bonus_dice": 10, "modifiers": -20}
    request = challenge(reactor=reactor, table={"target": per.other_pc.pk})
    assert act(per, per.player, "challenge", request, per.pc.pk) == ""
    rolled = last_event(per)
    assert rolled.request["reactor"]["name"] == "Zoe"
    assert (rolled.request["reactor"]["skill"], rolled.request["reactor"]["attribute"]) == (3, 4)
    assert "bonus_dice" not in rolled.request["reactor"] and "difficulty" not in rolled.request
    assert len(rolled.faces) == 6

    faces.queue.extend([5, 5])
    defender = {"kind": "simple_test", "attribute_name": "Strength", "modifier": -40,
                "difficulty": "inhuman"}  # fmt: skip
    request = {"attacker": {"kind": "simple_test", "attribute_name": "Strength"},
               "defender": defender, "table": {"target": uni.npc.pk}}  # fmt: skip
    assert act(uni, uni.player, "resisted", request, uni.pc.pk) == ""
    resisted = last_event(uni).outcome
    assert resisted["defender"]["name"] == "Niska"
    assert resisted["defender"]["total"] == resisted["attacker"]["total"] == 5 + 2 * 2


def test_naming_a_hidden_gm_character_is_refused_like_a_missing_one(per, uni):
    """The GM's hidden character is as missing as an id that does not exist: the same
    words, and nothing changes, as the reactor, the defender or a chaser."""
    for t in (per, uni):
        t.npc.hidden = True
        t.npc.save()
    for target in (per.npc.pk, per.npc.pk + 1000):
        request = challenge(reactor=SWORDPLAY, table={"target": target})
        assert refused(per, per.player, "challenge", request, per.pc.pk) == NO_SUCH_CHARACTER
        request = challenge(table={"target": target})
        assert refused(per, per.player, "challenge", request, per.pc.pk) == NO_SUCH_CHARACTER
    mine = {"kind": "simple_test", "attribute_name": "Dexterity"}
    for target in (uni.npc.pk, uni.npc.pk + 1000):
        resisted = {"attacker": mine, "defender": mine, "table": {"target": target}}
        assert refused(uni, uni.player, "resisted", resisted, uni.pc.pk) == NO_SUCH_CHARACTER
        chase = {"lead": 2, "runner": {**mine, "sheet_id": uni.pc.pk},
                 "chaser": {**mine, "sheet_id": target}}  # fmt: skip
        assert refused(uni, uni.player, "chase", chase, uni.pc.pk) == NO_SUCH_CHARACTER


# --------------------------------------------------------------------------- the difficulty


def test_a_players_roll_uses_the_gms_difficulty_not_the_typed_one(per, uni, faces):
    """PER-1, UNI-4: the GM sets the scene's difficulty; a player's challenge must beat it
    and a player's task takes its modifier, whatever the request says. The scene panel and
    the builder show it, read-only."""
    per.perform(per.gm, "set_difficulty", {"difficulty": 12, "note": "a rotten rope"})
    faces.queue.extend([7, 2, 1])  # 7 + Might 4 = 11: it beats the 2 typed, not the GM's 12
    assert act(per, per.player, "challenge", challenge(difficulty=2), per.pc.pk) == ""
    rolled = last_event(per)
    assert rolled.request["difficulty"] == 12 and rolled.outcome["result"] == "failure"
    builder = page(per, per.player, "table_pool", per.pc.pk)
    assert "Difficulty to beat: <strong>12</strong>" in builder
    assert 'name="difficulty"' not in builder and 'name="bonus_dice"' not in builder
    assert "a rotten rope" in page(per, per.other, "table_scene")

    uni.perform(uni.gm, "set_difficulty", {"difficulty": "heroic", "difficulty_modifier": -7})
    faces.queue.extend([7])
    task = {"attribute_name": "Dexterity", "skill_name": "Sports", "difficulty": "easy",
            "difficulty_modifier": 20}  # fmt: skip
    assert act(uni, uni.player, "task", task, uni.pc.pk) == ""
    rolled = last_event(uni)
    assert rolled.outcome["total"] == 7 + 3 + 2 - 7
    assert (rolled.request["difficulty"], rolled.request["difficulty_modifier"]) == ("heroic", -7)
    builder = page(uni, uni.player, "table_pool", uni.pc.pk)
    assert "Difficulty: <strong>Heroic (−7)</strong>" in builder
    assert '<select name="difficulty">' not in builder


def test_a_players_own_modifiers_are_the_gms_to_give(per, uni, faces):
    """UNI-4 ("the GM may type any integer") and Personae's circumstantial modifiers: a
    player's +50 is not added, and the player's builder offers no such field; the GM's
    own roll keeps its modifier."""
    per.perform(per.gm, "set_difficulty", {"difficulty": 12})
    faces.queue.extend([7, 2, 1])
    assert act(per, per.player, "challenge", challenge(actor={"modifiers": 20}), per.pc.pk) == ""
    rolled = last_event(per)
    assert "modifiers" not in rolled.request["actor"] and rolled.outcome["result"] == "failure"
    assert 'name="modifiers"' not in page(per, per.player, "table_pool", per.pc.pk)

    faces.queue.extend([7])
    task = {"attribute_name": "Dexterity", "skill_name": "Sports", "modifier": 50}
    assert act(uni, uni.player, "task", task, uni.pc.pk) == ""
    assert last_event(uni).outcome["total"] == 7 + 3 + 2
    assert 'name="modifier"' not in page(uni, uni.player, "table_pool", uni.pc.pk)
    faces.queue.extend([7])
    gm_task = {"name": "Guard", "attribute": 3, "skill": 2, "modifier": -2}
    assert uni.perform(uni.gm, "task", gm_task).outcome["total"] == 7 + 3 + 2 - 2


def test_without_a_difficulty_a_player_names_the_reactor_or_waits_for_the_gm(per, uni, faces):
    """PER-1: no difficulty set, a player's challenge against a number is refused (the GM
    sets it). UNI-4: a player's task rolls with none (Challenging), the preset asked for
    left out; so does a roll that is not the task at hand (a Fear Test)."""
    assert "has not set a difficulty" in refused(
        per, per.player, "challenge", challenge(difficulty=1), per.pc.pk
    )
    faces.queue.extend([6])
    task = {"attribute_name": "Dexterity", "skill_name": "Sports", "difficulty": "easy"}
    assert act(uni, uni.player, "task", task, uni.pc.pk) == ""
    assert last_event(uni).outcome["total"] == 6 + 3 + 2
    uni.perform(uni.gm, "set_difficulty", {"difficulty": "difficult"})
    faces.queue.extend([6])
    fear = {"difficulty": "easy", "difficulty_modifier": 40}
    assert act(uni, uni.player, "fear_test", fear, uni.pc.pk) == ""
    assert "difficulty" not in last_event(uni).request


def test_a_secret_difficulty_is_rolled_against_blind_and_never_on_a_players_card(per, uni, faces):
    """PER-1, UNI-4 behind the screen: a player's public roll against it is refused with
    nothing changed (its card would show the number); a blind one is scored on the GM's
    card and sealed for players until the GM reveals it. Players' panels and builders say
    only that the GM set it; the builder offers only a blind roll."""
    per.perform(per.gm, "set_difficulty", {"difficulty": 37, "note": "oiled stones"},
                visibility="gm")  # fmt: skip
    uni.perform(uni.gm, "set_difficulty", {"difficulty": "inhuman", "difficulty_modifier": -13,
                                           "note": "slick walls"}, visibility="gm")  # fmt: skip
    assert refused(per, per.player, "challenge", challenge(), per.pc.pk) == BEHIND_THE_SCREEN
    task = {"attribute_name": "Dexterity", "skill_name": "Sports"}
    assert refused(uni, uni.player, "task", task, uni.pc.pk) == BEHIND_THE_SCREEN
    for t in (per, uni):
        for user in (t.player, t.other, t.observer):
            seen = player_views(t, user)
            assert "set by the GM behind the screen" in seen
            # In what the page says, not in its markup: a row id may be 37 in a long run,
            # and a card's time may read 21:37.
            said = re.sub(r"<[^>]*>", " ", re.sub(r"<time[^>]*>[^<]*</time>", " ", seen))
            assert not re.search(r"\b37\b|oiled stones|slick walls|(?<!UNI)[−-]13\b", said)
            assert not re.search(r'value="(?:37|[−-]13)"[^>]*name="(?:difficulty|target)', seen)
            assert not re.search(r'name="(?:difficulty|target)"[^>]*value="(?:37|[−-]13)"', seen)
        builder = page(t, t.player, "table_pool", t.pc.pk)
        assert '<option value="public">' not in builder.split('name="visibility"')[1][:300]

    faces.queue.extend([9, 5, 3])  # 9 + Might 4 = 13: it beats no 37
    blind = per.perform(per.player, "challenge", challenge(), sheet_id=per.pc.pk,
                        visibility="blind")  # fmt: skip
    assert blind.request["difficulty"] == 37 and blind.outcome["result"] == "failure"
    faces.queue.extend([9])
    task_blind = uni.perform(uni.player, "task", task, sheet_id=uni.pc.pk, visibility="blind")
    assert task_blind.outcome["total"] == 9 + 3 + 2 - 13
    for t, event in ((per, blind), (uni, task_blind)):
        card = page(t, t.other, "table")
        assert f'id="event-{event.seq}"' in card and "rolled blind" in card
        reveal(t.campaign, t.gm, event.pk)
    assert TableEvent.objects.get(pk=blind.pk).revealed


# --------------------------------------------------------------------------- the pages


def test_the_builder_and_the_dashboard_take_the_gms_numbers(per, client_for, faces):
    """The GM grants and sets the difficulty from the dashboard's controls (a picker and a
    number, no JSON); the player's builder shows both read-only and rolls them, whatever
    its form says; the GM's builder for a GM character keeps its number fields."""
    gm = client_for(per.gm)
    dashboard = gm.get(reverse("table", args=[per.campaign.pk])).content.decode()
    assert 'name="grant_bonus_dice-dice"' in dashboard
    assert (
        f'<option value="{per.npc.pk}">' not in dashboard.split("gm-grant")[1].split("</form>")[0]
    )
    htmx = {"HTTP_HX_REQUEST": "true"}
    answer = gm.post(
        reverse("table_act", args=[per.campaign.pk, "set_difficulty"]),
        {"set_difficulty-difficulty": "8", "set_difficulty-visibility": "public"},
        **htmx,
    ).content.decode()
    assert "The GM sets the difficulty to beat: 8" in answer
    answer = gm.post(
        reverse("table_act", args=[per.campaign.pk, "grant_bonus_dice"]),
        {"sheet": per.pc.pk, "grant_bonus_dice-dice": "2", "grant_bonus_dice-visibility": "public"},
        **htmx,
    ).content.decode()
    assert "The GM grants Mal 2 bonus dice for the next challenge" in answer

    player = client_for(per.player)
    sword, might = (
        per.pc.traits.get(name="Swordplay").pk,
        per.pc.traits.get(name="Might").pk,
    )
    form = {"trait": [sword, might], "goal": "Leap the gap", "bonus_dice": "9",
            "difficulty": "1", "visibility": "public"}  # fmt: skip
    builder = player.post(reverse("table_pool", args=[per.campaign.pk, per.pc.pk]), form).content
    assert b"Bonus dice from the GM: <strong>2</strong>" in builder
    faces.queue.extend([1] * 14)
    player.post(reverse("table_pool_roll", args=[per.campaign.pk, per.pc.pk]), form, **htmx)
    rolled = last_event(per)
    assert rolled.action == "challenge" and len(rolled.faces) == 5
    assert rolled.request["difficulty"] == 8

    npc_builder = gm.get(reverse("table_pool", args=[per.campaign.pk, per.npc.pk])).content
    assert b'name="bonus_dice"' in npc_builder and b'name="difficulty"' in npc_builder
