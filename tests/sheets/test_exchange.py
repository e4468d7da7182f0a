"""Import and export as JSON (docs/sheet-format.md): a lossless round trip, and strict imports.

An import goes through the same cleaners as the form and reports every problem
at once; a refused import creates nothing.
"""

import json

import pytest
from django.urls import reverse

from sheets import exchange
from sheets.demo import demo_documents
from sheets.models import Sheet, Trait
from sheets.validation import SheetProblems

from .conftest import SYSTEMS, text

pytestmark = pytest.mark.django_db


def without_name(doc):
    return {k: v for k, v in doc.items() if k != "name"}


@pytest.mark.parametrize("system", SYSTEMS)
def test_export_import_round_trip(system, make_campaign, gm, player, client_for):
    """Every demo sheet of every system: export → import → export gives the same document."""
    campaign = make_campaign(system)
    for _, doc in demo_documents(system):
        original = exchange.import_sheet(
            campaign, exchange.check_document(doc, system, may_import_npc=True), owner=player
        )
        exported = json.loads(
            client_for(gm).get(reverse("sheet_export", args=[campaign.pk, original.pk])).content
        )
        assert exported["format"] == "rollcall-sheet" and exported["system"] == system
        copy_doc = dict(exported, name=exported["name"] + " (copy)")
        response = client_for(gm).post(
            reverse("sheet_import", args=[campaign.pk]),
            {"text": json.dumps(copy_doc), "owner": player.pk},
        )
        assert response.status_code == 302, text(response)
        copy = Sheet.objects.get(campaign=campaign, name=copy_doc["name"])
        again = exchange.export_sheet(copy)
        assert without_name(again) == without_name(exported)
        assert (copy.owner_id, copy.kind, copy.npc_kind, copy.hidden) == (
            original.owner_id,
            original.kind,
            original.npc_kind,
            original.hidden,
        )


def test_export_has_every_field_of_the_sheet(make_campaign, make_sheet, add_trait):
    campaign = make_campaign("smallville")
    sheet = make_sheet(campaign, "Dana")
    ability = add_trait(sheet, "abilities", "Telekinesis", die="d8")
    add_trait(sheet, "limits", "Migraines", die="d6", link=ability.pk, notes="after big lifts")
    add_trait(sheet, "distinctions", "Meteor-Touched", die="d8", flags={"heritage": "on"})
    doc = exchange.export_sheet(sheet)
    assert doc["traits"]["limits"] == [
        {"name": "Migraines", "die": "d6", "link": "Telekinesis", "notes": "after big lifts"}
    ]
    assert doc["traits"]["distinctions"] == [
        {"name": "Meteor-Touched", "die": "d8", "flags": {"heritage": True}}
    ]
    assert [t["name"] for t in doc["traits"]["values"]] == [
        "Duty",
        "Glory",
        "Justice",
        "Love",
        "Power",
        "Truth",
    ]
    assert doc["traits"]["stress"][0] == {"name": "Afraid", "die": None}
    assert doc["counters"] == {"plot_points": 0}


def test_import_reports_every_problem_at_once_and_creates_nothing(
    make_campaign, player, client_for
):
    campaign = make_campaign("serenity")
    doc = {
        "format": "rollcall-sheet",
        "version": 1,
        "system": "serenity",
        "name": "x" * 81,
        "kind": "pc",
        "colour": "blue",
        "counters": {"plot_points": 200, "drama_points": 1},
        "traits": {
            "stylins": [{"name": "Fightin'", "die": "d7"}, {"name": "Fightin'", "die": "d8"}],
            "refinements": [
                {"name": "War Veteran", "die": "d8", "parent": "Flyin'"},
                {"name": "Orphan", "die": "d6"},
            ],
            "values": [{"name": "", "die": "d6"}, {"name": "Freedom", "die": "d12+d6"}],
            "stress": [{"name": "Hungry", "die": "d6"}],
            "spells": [],
        },
    }
    response = client_for(player).post(
        reverse("sheet_import", args=[campaign.pk]), {"text": json.dumps(doc)}
    )
    body = text(response)
    assert response.status_code == 422
    expected = [
        "colour: Unknown field",
        "name: A name is at most 80 characters",
        "counters.drama_points: This game's sheets have no such counter",
        "counters.plot_points: Must be between 0 and 99 (not 200)",
        "traits.spells: This game's sheets have no such group",
        "traits.stylins[0] (“Fightin'”).die: d7 is not a die size",
        "traits.stylins[1] (“Fightin'”).name: There is already a Stylin' called “Fightin'”",
        "traits.refinements[0] (“War Veteran”).parent: Choose one of this sheet's Stylin's",
        "traits.refinements[1] (“Orphan”).parent: Choose the Stylin' this Refinement belongs to",
        "traits.values[0].name: Give it a name",
        "traits.values[1] (“Freedom”).die: d12+d6 is not a die size here",
        "traits.stress[0] (“Hungry”).name: Stress are always these",
    ]
    plain = body.replace("<code>", "").replace("</code>", "")
    for line in expected:
        assert line in plain, line
    assert f"these {len(expected)} problems" in body
    assert not Sheet.objects.filter(campaign=campaign).exists()
    assert not Trait.objects.exists()


@pytest.mark.parametrize(
    "payload,message",
    [
        ("", "Paste a sheet's JSON"),
        ("{not json", "This is not valid JSON"),
        ("[1, 2]", "A sheet is a JSON object"),
        (
            '{"format": "rollcall-sheet", "version": 1, "system": "personae", "name": "V"}',
            "This is a sheet for Personae; this campaign plays Serenity Plus",
        ),
        (
            '{"format": "other", "version": 2, "system": "serenity", "name": "V"}',
            "format: Must be “rollcall-sheet”",
        ),
    ],
)
def test_import_refuses_documents_that_are_not_sheets(
    payload, message, make_campaign, player, client_for
):
    campaign = make_campaign("serenity")
    response = client_for(player).post(
        reverse("sheet_import", args=[campaign.pk]), {"text": payload}
    )
    assert response.status_code == 422
    assert message in text(response).replace("<code>", "").replace("</code>", "")
    assert not Sheet.objects.exists()


def test_import_from_a_file_upload(make_campaign, player, client_for):
    from django.core.files.uploadedfile import SimpleUploadedFile

    campaign = make_campaign("personae")
    doc = {
        "format": "rollcall-sheet",
        "version": 1,
        "system": "personae",
        "name": "Vesper",
        "counters": {"potential_threshold": 3, "criticals": 2},
        "traits": {
            "attributes": [{"name": "Finesse", "rating": 4}],
            "skills": [{"name": "Acrobatics", "rating": 3, "link": "finesse"}],
        },
    }
    upload = SimpleUploadedFile(
        "vesper.json", json.dumps(doc).encode(), content_type="application/json"
    )
    response = client_for(player).post(
        reverse("sheet_import", args=[campaign.pk]), {"file": upload}
    )
    assert response.status_code == 302
    sheet = Sheet.objects.get(name="Vesper")
    skill = Trait.objects.get(sheet=sheet, group="skills")
    assert (sheet.owner, skill.rating, skill.link.name) == (player, 3, "Finesse")


def test_importer_and_form_share_their_rules():
    """PER-6 in an import: criticals above the Potential Threshold are refused like in the form."""
    doc = {
        "format": "rollcall-sheet",
        "version": 1,
        "system": "personae",
        "name": "V",
        "counters": {"potential_threshold": 2, "criticals": 3},
        "traits": {"skills": [{"name": "Acrobatics", "rating": 11, "link": "Finesse"}]},
    }
    with pytest.raises(SheetProblems) as caught:
        exchange.check_document(doc, "personae", may_import_npc=False)
    messages = [str(p) for p in caught.value.problems]
    assert "counters.criticals: Criticals can be at most the Potential Threshold (2)." in messages
    assert any("rating: Must be between 0 and 10 (not 11)" in m for m in messages)
    assert any("link: Add an Attribute first" in m for m in messages)


def test_players_cannot_import_gm_characters(make_campaign, player, client_for):
    campaign = make_campaign("unisystem")
    doc = {
        "format": "rollcall-sheet",
        "version": 1,
        "system": "unisystem",
        "name": "Vamp",
        "kind": "npc",
        "npc_kind": "adversary",
        "hidden": True,
    }
    response = client_for(player).post(
        reverse("sheet_import", args=[campaign.pk]), {"text": json.dumps(doc)}
    )
    assert response.status_code == 422 and "Only the GM can import GM characters" in text(response)


def test_imported_fixed_traits_are_completed_and_kept_in_order(make_campaign, gm, client_for):
    campaign = make_campaign("unisystem")
    doc = {
        "format": "rollcall-sheet",
        "version": 1,
        "system": "unisystem",
        "name": "Vamp",
        "kind": "npc",
        "npc_kind": "adversary",
        "overrides": {"muscle": 18},
        "traits": {
            "attributes": [{"name": "Willpower", "rating": 4}, {"name": "Strength", "rating": 5}]
        },
    }
    response = client_for(gm).post(
        reverse("sheet_import", args=[campaign.pk]), {"text": json.dumps(doc)}
    )
    assert response.status_code == 302
    sheet = Sheet.objects.get(name="Vamp")
    names = list(
        Trait.objects.filter(sheet=sheet, group="attributes")
        .order_by("position")
        .values_list("name", "rating")
    )
    assert names == [
        ("Strength", 5),
        ("Dexterity", 2),
        ("Constitution", 2),
        ("Intelligence", 2),
        ("Perception", 2),
        ("Willpower", 4),
    ]
    assert sheet.overrides == {"muscle": 18}
