"""The GM plays a resisted roll (UNI-5) from "More actions" by picking alone: the
acting character from a list, the attacker's traits ticked, the defender chosen and
their traits ticked; no number, die or JSON is typed, and the roll reaches the log."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import log_in

pytestmark = pytest.mark.e2e

SETUP = r"""
import json
import django
django.setup()
from django.contrib.auth import get_user_model
from campaigns import services
from campaigns.models import Membership
from sheets.models import Trait
from sheets.services import create_sheet

U = get_user_model()
gm, alice = U.objects.get(username="gm"), U.objects.get(username="alice")
c = services.create_campaign(gm, name="E2E pickers", description="", system="unisystem")
Membership.objects.create(campaign=c, user=alice, role="player")
ace = create_sheet(c, name="Ace", kind="pc", owner=alice, counters={"drama_points": 2})
vamp = create_sheet(c, name="Vamp", kind="npc", counters={"drama_points": 0})
for sheet, dex in ((ace, 4), (vamp, 3)):
    Trait.objects.filter(sheet=sheet, group="attributes", name="Dexterity").update(rating=dex)
Trait.objects.create(sheet=ace, group="skills", name="Gun Fu", rating=3)
Trait.objects.create(sheet=vamp, group="skills", name="Kung Fu", rating=2)
scene = services.create_scene(c, title="Alley", description="")
services.start_scene(c, scene.pk)
print(json.dumps({"id": c.pk}))
"""


def _traits_of(page, picker, name):
    """One character's traits in a trait picker, opened."""
    sheet = picker.locator("details.picker-sheet").filter(
        has=page.locator("summary", has_text=name)
    )
    sheet.locator("summary").click()
    return sheet


def test_the_gm_plays_a_resisted_roll_by_picking(chromium, daphne_server):
    campaign = daphne_server.seed(SETUP)
    gm = log_in(chromium, daphne_server, "gm")
    gm.goto(f"{daphne_server.url}/c/{campaign['id']}/table/")
    expect(gm.locator("#socket-status")).to_have_attribute("data-state", "live")
    gm.locator("#actions-h").click()
    form = gm.locator("#action-resisted")
    form.locator("xpath=ancestor::details[1]/summary").click()
    form.locator("select[name=sheet]").select_option(label="Ace")
    attacker = _traits_of(gm, form.locator("fieldset[data-field=attacker]"), "Ace")
    attacker.get_by_label(re.compile(r"^\s*Dexterity")).check()
    attacker.get_by_label(re.compile(r"^\s*Gun Fu")).check()
    defender = form.locator("fieldset[data-field=defender]")
    defender.locator("select").select_option(label="Vamp")
    defender = _traits_of(gm, defender, "Vamp")
    defender.get_by_label(re.compile(r"^\s*Dexterity")).check()
    defender.get_by_label(re.compile(r"^\s*Kung Fu")).check()
    assert form.locator("textarea, input[type=number]").count() == 0
    with gm.expect_response(lambda r: "/table/act/resisted/" in r.url) as answer:
        form.locator("button[type=submit]").click()
    assert "⚠" not in answer.value.text(), answer.value.text()
    expect(gm.locator("#action-resisted .ok")).to_be_visible()
    expect(gm.locator("#log > li[data-seq]").first).to_contain_text(re.compile("Ace|Vamp"))
