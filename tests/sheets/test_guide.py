"""Step by step: a new sheet filled one group per page with Back and Next, ending on the
ready-to-roll check; only those who may edit the sheet get the steps."""

from __future__ import annotations

import pytest
from django.urls import reverse

from .conftest import text

pytestmark = pytest.mark.django_db


def step_url(sheet, step: int) -> str:
    return reverse("sheet_guide", args=[sheet.campaign_id, sheet.pk, step])


def test_a_new_cortex_sheet_goes_one_group_per_step_to_the_ready_check(
    make_campaign, make_sheet, add_trait, player, client_for
):
    campaign = make_campaign("cortex_slots")
    sheet = make_sheet(campaign, "Zed")
    client = client_for(player)
    page = text(client.get(sheet.get_absolute_url()))
    assert f'href="{step_url(sheet, 1)}"' in page and "Fill it in step by step" in page

    # Attributes, Distinctions, Skills, Assets, Talents, Big Hero Die; then the check.
    first = text(client.get(step_url(sheet, 1)))
    assert "Step 1 of 7: Attributes" in first
    assert f'href="{step_url(sheet, 2)}"' in first and "Next: Distinctions" in first
    assert "Back to the whole sheet" in first
    assert "Not ready to roll yet" in first  # what is missing, as you go
    second = text(client.get(step_url(sheet, 2)))
    assert "Step 2 of 7: Distinctions" in second and f'href="{step_url(sheet, 1)}"' in second
    # Conditions change at the table: no step for them.
    assert "Conditions" not in "".join(text(client.get(step_url(sheet, n))) for n in range(1, 7))

    add_trait(sheet, "attributes", "Agility", die="d8")
    add_trait(sheet, "distinctions", "Ex-soldier", die="d8")
    add_trait(sheet, "skills", "Fight", die="d6")
    last = text(client.get(step_url(sheet, 7)))
    assert "Step 7 of 7" in last and "Ready to roll" in last and "Open the table" in last
    assert "Next:" not in last
    assert client.get(step_url(sheet, 8)).status_code == 404


def test_only_the_player_and_the_gm_get_the_steps(
    make_campaign, make_sheet, gm, other_player, client_for
):
    campaign = make_campaign("smallville")
    sheet = make_sheet(campaign, "Clark")
    assert client_for(gm).get(step_url(sheet, 1)).status_code == 200
    assert client_for(other_player).get(step_url(sheet, 1)).status_code == 403
