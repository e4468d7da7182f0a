"""The sheet page and the sheet list say whether a sheet is ready to roll and, if not,
what it still needs in the game's words; a saved change brings the check up to date."""

from __future__ import annotations

import pytest
from django.urls import reverse

from .conftest import text

pytestmark = pytest.mark.django_db


def test_a_new_cortex_sheet_says_what_a_roll_needs_until_it_has_it(
    make_campaign, make_sheet, add_trait, player, client_for
):
    campaign = make_campaign("cortex_slots")
    sheet = make_sheet(campaign, "Zed")
    client = client_for(player)
    page = text(client.get(sheet.get_absolute_url()))
    assert "Not ready to roll yet" in page
    assert "an Attribute" in page and "a Distinction" in page and "a Skill" in page
    listing = text(client.get(reverse("sheet_list", args=[campaign.pk])))
    assert (
        "Not ready to roll" in listing and "needs an Attribute; a Distinction; a Skill" in listing
    )

    add_trait(sheet, "attributes", "Agility", die="d8")
    add_trait(sheet, "distinctions", "Ex-soldier", die="d8")
    response = client.post(
        reverse("trait_add", args=[campaign.pk, sheet.pk, "skills"]),
        {"name": "Fight", "die": "d6"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    # The check follows the saved change without a reload.
    assert f'id="ready-{sheet.pk}"' in response.content.decode()
    assert "Ready to roll" in text(response)
    page = text(client.get(sheet.get_absolute_url()))
    assert "Ready to roll" in page and "Not ready" not in page
    assert "Open the table" in page
    assert "Ready to roll" in text(client.get(reverse("sheet_list", args=[campaign.pk])))


def test_a_new_smallville_sheet_needs_a_relationship_in_its_words(
    make_campaign, make_sheet, player, client_for
):
    campaign = make_campaign("smallville")
    sheet = make_sheet(campaign, "Clark")
    page = text(client_for(player).get(sheet.get_absolute_url()))
    assert "Not ready to roll yet" in page and "a Relationship" in page
    assert "a Value with a die" not in page  # every Value starts at d4
