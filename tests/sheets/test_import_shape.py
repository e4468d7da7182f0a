"""A pasted document of the wrong shape, or another tool's export: the import page says
what was expected and where, keeps the text, and creates nothing."""

import json

import pytest
from django.urls import reverse

from sheets import exchange
from sheets.models import Counter, Sheet, Trait
from sheets.validation import SheetProblems

from .conftest import text

pytestmark = pytest.mark.django_db

FOUNDRY_ACTOR = {
    "name": "Malcolm Reynolds",
    "type": "character",
    "img": "icons/svg/mystery-man.svg",
    "system": {
        "attributes": {"agility": {"value": 8}, "strength": {"value": 6}},
        "details": {"biography": {"value": "<p>Captain of Serenity.</p>"}},
    },
    "prototypeToken": {"name": "Mal", "actorLink": True},
    "items": [{"name": "Pistol", "type": "weapon", "system": {"damage": "d6"}}],
    "effects": [],
    "flags": {},
    "_stats": {"coreVersion": "12.331"},
    "_id": "x1y2z3",
}
BASE = {"format": "rollcall-sheet", "version": 1, "system": "serenity", "name": "Mal"}


def _import(client, campaign, payload: str):
    return client.post(reverse("sheet_import", args=[campaign.pk]), {"text": payload})


def _plain(response) -> str:
    return text(response).replace("<code>", "").replace("</code>", "")


def test_a_foundry_actor_is_named_and_kept_and_nothing_is_created(
    make_campaign, player, client_for
):
    campaign = make_campaign("serenity")
    pasted = json.dumps(FOUNDRY_ACTOR, indent=2)
    response = _import(client_for(player), campaign, pasted)
    body = _plain(response)
    assert response.status_code == 422
    assert "This looks like a character exported from Foundry VTT" in body
    assert "system: Expected the name of a game, such as “serenity”, got an object." in body
    assert "format: Missing" in body
    assert pasted in text(response)  # the textarea still holds what was pasted
    assert not Sheet.objects.exists() and not Trait.objects.exists()


def test_a_list_of_foundry_actors_is_one_sheet_at_a_time(make_campaign, player, client_for):
    campaign = make_campaign("serenity")
    response = _import(client_for(player), campaign, json.dumps([FOUNDRY_ACTOR, FOUNDRY_ACTOR]))
    body = _plain(response)
    assert response.status_code == 422
    assert "this is a list. Import one sheet at a time." in body
    assert "Foundry VTT" in body


def test_roll20_and_xml_exports_are_recognised(make_campaign, player, client_for):
    campaign = make_campaign("serenity")
    client = client_for(player)
    roll20 = {"schema_version": 2, "name": "Mal", "attribs": [], "abilities": []}
    assert "exported from Roll20" in _plain(_import(client, campaign, json.dumps(roll20)))
    xml = '<?xml version="1.0"?><root><character><name>Mal</name></character></root>'
    assert "This looks like XML" in _plain(_import(client, campaign, xml))


@pytest.mark.parametrize(
    "change,line",
    [
        ({"system": ["serenity"]}, "system: Expected the name of a game, such as “serenity”, got a list."),
        ({"system": "traveller"}, "system: “traveller” is not a game Rollcall knows"),
        ({"format": {"v": 1}}, "format: Expected the text “rollcall-sheet”, got an object."),
        ({"version": "1"}, "version: Expected the number 1, got text."),
        ({"name": {"first": "Mal"}}, "name: Expected the character's name as text, got an object."),
        ({"notes": ["a", "b"]}, "notes: Expected text, got a list."),
        ({"npc_kind": 3}, "npc_kind: Expected the kind of GM character as text, got a number."),
        ({"hidden": "yes"}, "hidden: Must be true or false, not text."),
        ({"counters": [1, 2]}, 'counters: Expected an object like {"plot_points": 1}, got a list.'),
        ({"counters": {"plot_points": {"value": 3}}}, "counters.plot_points: Expected a whole number from 0 to"),
        ({"traits": [["Fightin'"]]}, "traits: Expected an object mapping each group to a list of traits, got a list."),
        ({"traits": {"stylins": {"name": "x"}}}, "traits.stylins: Expected a list of traits, got an object."),
        ({"traits": {"stylins": ["Fightin'"]}}, 'traits.stylins[0]: Expected a trait, an object like {"name": …}, got text.'),
        ({"traits": {"stylins": [{"name": "Fightin'", "die": {"size": 8}}]}}, "traits.stylins[0] (“Fightin'”).die: Expected a die such as “d8”, got an object."),
        ({"traits": {"stylins": [{"name": ["F"], "die": "d8"}]}}, "traits.stylins[0].name: Expected the trait's name as text, got a list."),
        ({"traits": {"stylins": [{"name": "Fightin'", "die": "d8"}], "refinements": [{"name": "Brawl", "die": "d6", "parent": {"name": "Fightin'"}}]}}, "parent: Expected the name of a trait on this sheet, got an object."),
        ({"traits": {"stylins": [{"name": "Fightin'", "die": "d8", "flags": {"signature": 3}}]}}, "flags: “signature”: Expected true or false, got a number."),
        ({"traits": {"stylins": [{"name": "F", "die": "d8", "notes": {"a": {"b": {"c": 1}}}}]}}, "Nested deeper than a sheet goes"),
    ],
)  # fmt: skip
def test_each_wrong_type_says_what_was_expected_and_where(
    change, line, make_campaign, player, client_for
):
    campaign = make_campaign("serenity")
    pasted = json.dumps({**BASE, **change})
    response = _import(client_for(player), campaign, pasted)
    assert response.status_code == 422
    assert line in _plain(response)
    assert pasted in text(response)
    assert not Sheet.objects.exists() and not Counter.objects.exists()


def test_what_a_page_cannot_show_is_not_quoted_back():
    """Keys and names with lone surrogates or control characters are quoted without
    them, so the page that lists the problems can always be sent."""
    doc = {**BASE, "\ud800bad\x07": 1, "traits": {"stylins": [{"name": "A\ud800", "die": "d7"}]}}
    with pytest.raises(SheetProblems) as caught:
        exchange.check_document(doc, "serenity", may_import_npc=False)
    for problem in caught.value.problems:
        str(problem).encode("utf-8")  # no lone surrogate left in it


def test_notes_with_characters_a_page_cannot_show_are_refused():
    doc = {**BASE, "notes": "ok \ud800"}
    with pytest.raises(SheetProblems) as caught:
        exchange.check_document(doc, "serenity", may_import_npc=False)
    assert "notes: The notes contain characters that cannot be shown." in [
        str(p) for p in caught.value.problems
    ]


def test_a_number_too_long_to_read_is_a_problem_not_a_crash(make_campaign, player, client_for):
    campaign = make_campaign("serenity")
    pasted = '{"format": "rollcall-sheet", "version": ' + "9" * 5000 + "}"
    response = _import(client_for(player), campaign, pasted)
    assert response.status_code == 422
    assert "a number far too long to be part of a sheet" in _plain(response)


def test_a_thousand_unknown_fields_are_listed_a_page_at_a_time():
    doc = {**BASE, **{f"field{n}": n for n in range(1000)}}
    with pytest.raises(SheetProblems) as caught:
        exchange.check_document(doc, "serenity", may_import_npc=False)
    problems = caught.value.problems
    assert len(problems) == exchange.MAX_PROBLEMS + 1
    assert str(problems[-1]) == f"…and {1000 - exchange.MAX_PROBLEMS} more problems."
