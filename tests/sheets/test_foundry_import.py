"""A Foundry VTT actor of the Cortex Prime system ("cortexprime"), imported through the
real import form into the Cortex games' sheets: the result page lists what was taken
and what was not, and why; any other JSON still gets a clear answer, never a 500.

The fixtures are exports in the shape the system's actor sheet writes
(`system.actorType.traitSets`, `assets`, `complications`, `simpleTraits`, `notes`,
`system.pp.value`; Secular12/cortexprime, module/actor/defaultActorTypes.js).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.kit import foundry
from rules.registry import SYSTEMS
from sheets import exchange
from sheets.models import Counter, Sheet, Trait

from .conftest import text

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).parent / "fixtures"
ROOK = (FIXTURES / "foundry_cortexprime_rook.json").read_text(encoding="utf-8")
ZOE = (FIXTURES / "foundry_cortexprime_zoe.json").read_text(encoding="utf-8")


def _upload(client, campaign, content: str, **extra):
    upload = SimpleUploadedFile("fvtt-Actor-rook.json", content.encode(), "application/json")
    return client.post(
        reverse("sheet_import", args=[campaign.pk]), {"text": "", "file": upload, **extra}
    )


def _traits(sheet) -> dict[tuple[str, str], Trait]:
    return {(t.group, t.name): t for t in Trait.objects.filter(sheet=sheet)}


def test_a_players_cortex_prime_actor_becomes_a_cortex_sheet_and_the_page_lists_it(
    make_campaign, player, client_for
):
    campaign = make_campaign("cortex_slots")
    client = client_for(player)
    response = _upload(client, campaign, ROOK)
    sheet = Sheet.objects.get(campaign=campaign)
    assert response.status_code == 302
    assert response["Location"] == reverse("sheet_imported", args=[campaign.pk, sheet.pk])
    assert sheet.name == "Captain Rook Mallory" and sheet.owner == player

    traits = _traits(sheet)
    assert traits[("skills", "Pilot")].die == 12 and traits[("skills", "Pilot")].plus_die == 4
    assert traits[("skills", "Mechanic")].die == 6  # two dice: the larger kept, and said so
    assert traits[("attributes", "Agility")].die == 10
    assert traits[("distinctions", "Hot-headed")].die == 8  # the label is the name shown
    assert "SFX Hinder" in traits[("distinctions", "Hot-headed")].notes
    assert traits[("assets", "The Kestrel")].flags == {"signature": True}
    assert ("assets", "Lucky Scarf") in traits and ("big_hero", "Big Hero Die") in traits
    # A player's import starts at the table as a new character does.
    assert ("conditions", "Hungover") not in traits
    assert Counter.objects.get(sheet=sheet, key="plot_points").value == 1
    assert "Flies the mail over the Andes & owes everyone money." in sheet.notes

    page = client.get(response["Location"])
    body = text(page)
    assert page.status_code == 200
    assert "Captain Rook Mallory was imported" in body and "Ready to roll" in body
    taken = body.split('id="import-taken"')[1].split('id="import-left"')[0]
    left = body.split('id="import-left"')[1]
    assert "“Pilot” → Skills, d12+d4" in taken
    assert "“Mechanic” → Skills, d6 (Foundry had d6+d6; a trait here holds one die)" in taken
    assert "“The Kestrel” → Assets, d10" in taken
    assert "Plot points: 3" in taken
    assert "sub-trait “Boxing”</strong>: Skills here have no sub-traits." in left
    assert "Power Sets (1 trait)</strong>: this game's sheets have no such group" in left
    assert "Milestone XP</strong>: this game's sheets have no place for it." in left
    assert "Foundry asset “Flight Jacket”</strong>: Foundry's items carry no die" in left
    assert "Plot points: set to 1, where a new character starts." in left
    assert "Conditions: left as on a new character." in left
    # A reload shows the report again; the sheet itself is one click away.
    again = text(client.get(response["Location"]))
    assert again.split('id="import-taken"')[1] == body.split('id="import-taken"')[1]
    assert reverse("sheet_detail", args=[campaign.pk, sheet.pk]) in body


def test_the_gm_keeps_the_files_table_values(make_campaign, gm, player, client_for):
    campaign = make_campaign("cortex_slots")
    response = _upload(client_for(gm), campaign, ROOK, owner=player.pk)
    sheet = Sheet.objects.get(campaign=campaign)
    assert response.status_code == 302 and sheet.owner == player
    assert Counter.objects.get(sheet=sheet, key="plot_points").value == 3
    assert _traits(sheet)[("conditions", "Hungover")].die == 6


def test_stylins_sub_traits_become_their_refinements(make_campaign, player, client_for):
    campaign = make_campaign("serenity")
    client = client_for(player)
    response = _upload(client, campaign, ZOE)
    sheet = Sheet.objects.get(campaign=campaign)
    traits = _traits(sheet)
    war_veteran = traits[("refinements", "War Veteran")]
    assert war_veteran.die == 10 and war_veteran.parent == traits[("stylins", "Fightin'")]
    assert traits[("refinements", "Not Much for Talk")].parent.name == "Finaglin'"
    assert traits[("aspects", "Unflappable")].die == 8  # Cortex Prime's Distinctions
    assert traits[("values", "Loyalty")].die == 10
    body = text(client.get(response["Location"]))
    assert "“War Veteran” → Refinements, d10" in body
    assert "Specialties (1 trait)</strong>: this game's sheets have no such group" in body
    assert "Complications: left as on a new character." in body


def test_a_smallville_sheet_takes_what_fits_and_says_what_does_not(
    make_campaign, player, client_for
):
    campaign = make_campaign("smallville")
    client = client_for(player)
    response = _upload(client, campaign, ROOK)
    sheet = Sheet.objects.get(campaign=campaign)
    traits = _traits(sheet)
    assert traits[("distinctions", "Ace of the Andes Run")].die == 8
    assert {n for g, n in traits if g == "values"} == {
        "Duty", "Glory", "Justice", "Love", "Power", "Truth"
    }  # fmt: skip
    body = text(client.get(response["Location"]))
    assert "Not ready to roll" in body and "needs" in body
    assert "Attributes (6 traits)</strong>: this game's sheets have no such group" in body
    assert "Assets “Lucky Scarf”</strong>: this game's sheets have no Assets." in body


def test_a_value_smallville_does_not_have_is_left_out_with_the_six_it_has(
    make_campaign, player, client_for
):
    actor = json.loads(ZOE)
    actor["system"]["actorType"]["traitSets"]["1"]["traits"]["1"]["name"] = "Honour"
    actor["system"]["actorType"]["traitSets"]["1"]["traits"]["0"]["name"] = "Truth"
    campaign = make_campaign("smallville")
    client = client_for(player)
    response = _upload(client, campaign, json.dumps(actor))
    body = text(client.get(response["Location"]))
    assert "Values “Honour”</strong>: Values here are always Duty, Glory, Justice" in body
    sheet = Sheet.objects.get(campaign=campaign)
    assert _traits(sheet)[("values", "Truth")].die == 10


def test_a_trait_the_checks_refuse_is_left_out_with_their_reason(make_campaign, player, client_for):
    actor = json.loads(ROOK)
    skills = actor["system"]["actorType"]["traitSets"]["3"]["traits"]
    skills["0"]["name"] = "P" * 120  # longer than a trait's name may be
    campaign = make_campaign("cortex_slots")
    client = client_for(player)
    response = _upload(client, campaign, json.dumps(actor))
    assert response.status_code == 302
    sheet = Sheet.objects.get(campaign=campaign)
    assert not Trait.objects.filter(sheet=sheet, name__startswith="PPP").exists()
    body = text(client.get(response["Location"]))
    left = body.split('id="import-left"')[1]
    taken = body.split('id="import-taken"')[1].split('id="import-left"')[0]
    assert "Skills “PPPP" in left and "80" in left
    assert "PPPP" not in taken and "“Fight” → Skills, d10" in taken


def test_a_long_name_and_too_many_plot_points_are_said_not_refused(
    make_campaign, gm, player, client_for
):
    actor = json.loads(ROOK)
    actor["name"] = "Captain " + "R" * 100
    actor["system"]["pp"]["value"] = 500
    campaign = make_campaign("cortex_slots")
    client = client_for(gm)
    response = _upload(client, campaign, json.dumps(actor), owner=player.pk)
    assert response.status_code == 302
    sheet = Sheet.objects.get(campaign=campaign)
    assert len(sheet.name) == 80 and sheet.name.startswith("Captain RRR")
    assert Counter.objects.get(sheet=sheet, key="plot_points").value == 1  # the default
    left = text(client.get(response["Location"])).split('id="import-left"')[1]
    assert "The rest of the name</strong>: a name holds 80 characters." in left
    assert "Plot points</strong>: 500 is more than a sheet holds (0 to 99)." in left


@pytest.mark.parametrize(
    "system,message",
    [
        ("personae", "this campaign plays Personae, whose sheets Rollcall does not fill"),
        ("unisystem", "whose sheets Rollcall does not fill from one"),
    ],
)
def test_a_game_without_a_reading_says_so_and_creates_nothing(
    make_campaign, player, client_for, system, message
):
    campaign = make_campaign(system)
    response = _upload(client_for(player), campaign, ROOK)
    assert response.status_code == 422
    assert message in text(response) and 'id="import-problems"' in text(response)
    assert not Sheet.objects.exists()


def test_another_foundry_systems_actor_is_named(make_campaign, player, client_for):
    actor = json.loads(ROOK)
    actor["_stats"]["systemId"] = "dnd5e"
    response = _upload(client_for(player), make_campaign("cortex_slots"), json.dumps(actor))
    assert response.status_code == 422
    assert "This is a Foundry VTT actor of the “dnd5e” system." in text(response)
    assert not Sheet.objects.exists()


def test_an_actor_with_nothing_that_fits_lists_what_was_left(make_campaign, player, client_for):
    actor = json.loads(ROOK)
    kept = actor["system"]["actorType"]["traitSets"]["5"]  # Power Sets only
    actor["system"]["actorType"].update(
        traitSets={"0": kept}, assets={}, complications={}, simpleTraits={}
    )
    response = _upload(client_for(player), make_campaign("cortex_slots"), json.dumps(actor))
    body = text(response)
    assert response.status_code == 422
    assert "none of its traits fit a Cortex (Total &amp; Effect) sheet" in response.content.decode()
    assert "Power Sets (1 trait)" in body
    assert not Sheet.objects.exists()


def test_the_apps_own_json_still_imports_and_an_imported_sheet_exports_back(
    make_campaign, player, client_for
):
    campaign = make_campaign("cortex_slots")
    client = client_for(player)
    _upload(client, campaign, ROOK)
    sheet = Sheet.objects.get(campaign=campaign)
    exported = exchange.export_json(sheet)
    response = client.post(reverse("sheet_import", args=[campaign.pk]), {"text": exported})
    second = Sheet.objects.exclude(pk=sheet.pk).get()
    assert response.status_code == 302 and response["Location"] == second.get_absolute_url()
    assert exchange.export_sheet(second) == exchange.export_sheet(sheet)


def test_a_report_is_only_its_importers(make_campaign, gm, player, client_for):
    campaign = make_campaign("cortex_slots")
    response = _upload(client_for(player), campaign, ROOK)
    # The GM may see the sheet, but the report lives in the importer's session.
    seen = client_for(gm).get(response["Location"])
    assert seen.status_code == 302 and seen["Location"].endswith(
        reverse("sheet_detail", args=[campaign.pk, Sheet.objects.get().pk])
    )


# --------------------------------------------------------------------------- junk

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=12,
)
DIE = st.sampled_from(["4", "6", "8", "10", "12", "d8", "20", "", "x", 8, -1, None, True])
TRAIT = st.fixed_dictionaries(
    {},
    optional={
        "name": JSON | st.text(max_size=90),
        "label": JSON,
        "dice": st.fixed_dictionaries(
            {"value": st.dictionaries(st.sampled_from("0123"), DIE) | JSON}
        )
        | JSON,
        "sfx": JSON,
        "subTraits": st.dictionaries(
            st.sampled_from("012"), JSON | st.fixed_dictionaries({"label": JSON, "dice": JSON})
        ),
        "description": JSON,
    },
)
LABELS = st.sampled_from(
    ["Attributes", "Distinctions", "Skills", "Stylin's", "Values", "Stress", "Powers", "", "x"]
)
TRAIT_SET = st.fixed_dictionaries(
    {
        "label": LABELS | JSON,
        "traits": st.dictionaries(st.sampled_from("0123"), TRAIT | JSON) | JSON,
    },
    optional={"settings": JSON},
)
ACTOR = st.fixed_dictionaries(
    {
        "name": JSON,
        "system": st.fixed_dictionaries(
            {
                "actorType": st.fixed_dictionaries(
                    {},
                    optional={
                        "traitSets": st.dictionaries(st.sampled_from("012"), TRAIT_SET | JSON)
                        | JSON,
                        "assets": JSON | st.lists(TRAIT, max_size=2),
                        "complications": JSON,
                        "simpleTraits": JSON,
                        "notes": JSON,
                    },
                )
                | JSON,
            },
            optional={"pp": JSON | st.fixed_dictionaries({"value": JSON})},
        ),
    },
    optional={"_stats": JSON | st.just({"systemId": "cortexprime"}), "items": JSON, "_id": JSON},
)


@settings(max_examples=300, deadline=None)
@given(doc=ACTOR | JSON, slug=st.sampled_from(["cortex_slots", "serenity", "smallville"]))
def test_reading_any_actor_never_raises_and_says_every_line_in_words(doc, slug):
    game = SYSTEMS[slug]
    reading = foundry.read_actor(doc, game.foundry, game.sheet_template)
    assert reading.name.strip()
    json.dumps(reading.body())  # plain data, ready for the importer's checks
    assert all(isinstance(w, str) and w and isinstance(y, str) and y for w, y in reading.left)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(doc=ACTOR | JSON, slug=st.sampled_from(["cortex_slots", "serenity", "personae"]))
def test_any_json_through_the_form_gets_a_clear_answer_never_a_500(
    make_campaign, player, client_for, doc, slug
):
    campaign = make_campaign(slug)
    client = client_for(player)
    response = client.post(reverse("sheet_import", args=[campaign.pk]), {"text": json.dumps(doc)})
    assert response.status_code in (302, 422), response.status_code
    if response.status_code == 422:
        assert 'id="import-problems"' in text(response)
    else:
        page = client.get(response["Location"])
        assert page.status_code == 200
        assert 'id="import-taken"' in text(page) or "rollcall-sheet" in json.dumps(doc)
    Sheet.objects.all().delete()
    campaign.delete()


@pytest.mark.parametrize("system,offered", [("smallville", True), ("personae", False)])
def test_the_import_page_offers_foundry_only_where_the_game_reads_it(
    make_campaign, player, client_for, system, offered
):
    page = text(client_for(player).get(reverse("sheet_import", args=[make_campaign(system).pk])))
    assert ("Foundry VTT's Cortex Prime system" in page) is offered
