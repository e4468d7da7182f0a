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
    """UNI-5: a resisted action played from More actions by picking alone."""
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
    defender.locator("select[name=resisted-defender-sheet]").select_option(label="Vamp")
    defender = _traits_of(gm, defender, "Vamp")
    defender.get_by_label(re.compile(r"^\s*Dexterity")).check()
    defender.get_by_label(re.compile(r"^\s*Kung Fu")).check()
    assert form.locator("textarea, input[type=number]").count() == 0
    with gm.expect_response(lambda r: "/table/act/resisted/" in r.url) as answer:
        form.locator("button[type=submit]").click()
    assert "⚠" not in answer.value.text(), answer.value.text()
    expect(gm.locator("#action-resisted .ok")).to_be_visible()
    expect(gm.locator("#log > li[data-seq]").first).to_contain_text(re.compile("Ace|Vamp"))


ROLL_SETUP = r"""
import json
import sys
import django
django.setup()
from django.contrib.auth import get_user_model
from campaigns import services
from campaigns.models import Campaign, Membership
from sheets.models import Sheet, Trait
from sheets.services import create_sheet
from table.writing import actions

U = get_user_model()
gm, alice = U.objects.get(username="gm"), U.objects.get(username="alice")
POOL = [
    {"die": "d8", "trait": "Agility", "group": "attributes"},
    {"die": "d8", "trait": "Ex-Marine", "group": "distinctions"},
    {"die": "d6", "trait": "Sneak", "group": "skills"},
]
if len(sys.argv) > 1:
    c = Campaign.objects.get(pk=int(sys.argv[1]))
    kai = Sheet.objects.get(campaign=c, name="Kai")
else:
    c = services.create_campaign(gm, name="E2E lists", description="", system="cortex_slots")
    Membership.objects.create(campaign=c, user=alice, role="player")
    kai = create_sheet(c, name="Kai", kind="pc", owner=alice, counters={"plot_points": 1})
    for entry in POOL:
        Trait.objects.create(sheet=kai, group=entry["group"], name=entry["trait"],
                             die=int(entry["die"][1:]))
    scene = services.create_scene(c, title="Dock", description="")
    services.start_scene(c, scene.pk)
event = actions.perform(c, alice, "roll", {"pool": POOL}, sheet_id=kai.pk)
print(json.dumps({"id": c.pk, "seq": event.seq}))
"""


def test_a_roll_made_after_the_page_loaded_is_listed_when_the_form_opens(chromium, daphne_server):
    """More actions: the kept rolls are read again as a form opens, by id, so a roll
    made since the page loaded can be re-split from it."""
    first = daphne_server.seed(ROLL_SETUP)
    alice = log_in(chromium, daphne_server, "alice")
    alice.goto(f"{daphne_server.url}/c/{first['id']}/table/")
    expect(alice.locator("#socket-status")).to_have_attribute("data-state", "live")
    later = daphne_server.seed(ROLL_SETUP, str(first["id"]))
    picker = alice.locator("#picker-resplit-split")
    expect(picker).not_to_contain_text(f"#{later['seq']} Kai")
    alice.locator("#actions-h").click()
    alice.locator("summary", has_text="Change the split").click()
    expect(picker).to_contain_text(f"#{later['seq']} Kai")
