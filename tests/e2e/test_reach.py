"""Rules played from the page as a player would, each checked on the card it makes: a
Useful Detail named in the Smallville builder (SMV-6), paying to take a die out of the
Trouble Pool (SMV-9) and buying the GM's hitch (CTX-4) from the player's More actions,
a resisted action against an Adversary's fixed Ability Score (UNI-5, UNI-8), and the
awareness pool the Serenity builder suggests (SER-11)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import log_in
from .test_table_play import _click, _fill, _is_builder_post, _roll, _settled, _trait

pytestmark = pytest.mark.e2e

SEED = r"""
import json
import random
import sys
import django
django.setup()
from django.contrib.auth import get_user_model
from campaigns import services
from campaigns.models import Membership
from sheets.models import Sheet, Trait
from sheets.services import create_sheet
from table.writing import actions

system = sys.argv[1]
U = get_user_model()
gm, alice = U.objects.get(username="gm"), U.objects.get(username="alice")
c = services.create_campaign(gm, name=f"E2E reach {system}", description="", system=system)
Membership.objects.create(campaign=c, user=alice, role="player")


def trait(sheet, group, name, **values):
    Trait.objects.update_or_create(sheet=sheet, group=group, name=name, defaults=values)


class Ones(random.Random):
    def randint(self, a, b):
        return 1


out = {"id": c.pk}
scene = services.create_scene(c, title="Tonight", description="")
services.start_scene(c, scene.pk)
if system == "smallville":
    hero = create_sheet(c, name="Clark", kind="pc", owner=alice, counters={"plot_points": 2})
    trait(hero, "values", "Justice", die=8)
    trait(hero, "relationships", "Lana", die=6)
    actions.perform(c, gm, "trouble", {"operation": "add", "ones": 1}, sheet_id=hero.pk)
    actions.RNG = Ones()
    rolled = actions.perform(
        c, gm, "roll", {"pool": [{"die": "d8", "trait": "Storm", "group": "situation"}]}
    )
    out["seq"] = rolled.seq
elif system == "cortex_slots":
    hero = create_sheet(c, name="Kai", kind="pc", owner=alice, counters={"plot_points": 1})
    actions.RNG = Ones()
    rolled = actions.perform(c, gm, "gm_pool", {"pool": ["d8", "d6", "d6"]})
    out["seq"] = rolled.seq
elif system == "unisystem":
    hero = create_sheet(c, name="Ace", kind="pc", owner=alice, counters={"drama_points": 2})
    trait(hero, "attributes", "Dexterity", rating=4)
    trait(hero, "skills", "Gun Fu", rating=3)
    vamp = create_sheet(c, name="Vamp", kind="npc", npc_kind="adversary")
    Sheet.objects.filter(pk=vamp.pk).update(overrides={"combat": 12})
elif system == "serenity":
    hero = create_sheet(c, name="Mal", kind="pc", owner=alice, counters={"plot_points": 1})
    trait(hero, "stylins", "Fightin'", die=10)
    trait(hero, "stylins", "Finaglin'", die=6)
out["sheet"] = hero.pk
print(json.dumps(out))
"""


def _table(chromium, server, system) -> tuple[Page, dict]:
    seeded = server.seed(SEED, system)
    alice = log_in(chromium, server, "alice")
    alice.goto(f"{server.url}/c/{seeded['id']}/table/")
    expect(alice.locator("#socket-status")).to_have_attribute("data-state", "live")
    return alice, seeded


def _more_action(page: Page, title: str, name: str):
    """Open More actions and one of its forms (its lists are read again as it opens)."""
    page.locator("#actions-h").click()
    summary = page.locator("details.action-details > summary", has_text=title)
    if summary.locator("xpath=..").get_attribute("hx-get") is None:
        summary.click()
    else:
        with page.expect_response(lambda r: f"/table/act/{name}/" in r.url):
            summary.click()
    return page.locator(f"#action-{name}")


def _submit(page: Page, form, name: str) -> None:
    with page.expect_response(lambda r: f"/table/act/{name}/" in r.url) as answer:
        form.locator("button[type=submit]").click()
    assert "⚠" not in answer.value.text(), answer.value.text()
    expect(page.locator(f"#action-{name} .ok")).to_be_visible()


def test_smv6_a_player_names_a_useful_detail_in_the_builder(chromium, daphne_server):
    """SMV-6: the cost line says 1 plot point for the new d6 detail; the card rolls it."""
    alice, seeded = _table(chromium, daphne_server, "smallville")
    builder = f"#builder-{seeded['sheet']}"
    _click(alice, builder, "Justice")
    _click(alice, builder, "Lana")
    _fill(alice, builder, "useful_detail", "Loose railing")
    expect(alice.locator(f"{builder} .cost")).to_contain_text(
        "Costs 1 plot point: 1 for Loose railing d6 (a Useful Detail)"
    )
    seq = _roll(alice, builder)
    card = alice.locator(f"#event-{seq}")
    expect(card).to_contain_text("Loose railing")
    expect(card).to_contain_text("1 plot point")


def test_smv9_a_player_pays_to_remove_a_trouble_pool_die(chromium, daphne_server):
    """SMV-9: against the Watchtower's 1, from the player's More actions; the card says
    what the Trouble Pool holds now."""
    alice, seeded = _table(chromium, daphne_server, "smallville")
    form = _more_action(alice, "Change the Trouble Pool", "trouble")
    form.locator("select[name=sheet]").select_option(label="Clark")
    form.locator("select[name=table_roll]").select_option(str(seeded["seq"]))
    _submit(alice, form, "trouble")
    card = alice.locator("#log > li[data-seq]").first
    expect(card).to_contain_text("Trouble Pool: empty")
    expect(card).to_contain_text("The player pays 1 plot point to remove a d6")


def test_ctx4_a_player_buys_the_gms_hitch(chromium, daphne_server):
    """CTX-4, CTX-7: the GM's hitch is picked from the kept roll on the player's page,
    not from the GM's card menu; the card says what the player may now do with it."""
    alice, seeded = _table(chromium, daphne_server, "cortex_slots")
    form = _more_action(alice, "Buy a hitch", "buy_hitch")
    form.locator("select[name=sheet]").select_option(label="Kai")
    form.locator(f"input[value='{seeded['seq']}:0']").check()
    _submit(alice, form, "buy_hitch")
    card = alice.locator("#log > li[data-seq]").first
    expect(card).to_contain_text("Hitch bought")
    expect(card).to_contain_text("Opportunity")


def test_uni5_uni8_a_cast_member_acts_against_an_adversarys_score(chromium, daphne_server):
    """UNI-5, UNI-8: the Adversary's Combat score stands in for its roll; the card says
    who won against it."""
    alice, _ = _table(chromium, daphne_server, "unisystem")
    form = _more_action(alice, "Resisted action", "resisted")
    form.locator("select[name=sheet]").select_option(label="Ace")
    attacker = form.locator("fieldset[data-field=attacker] details.picker-sheet").filter(
        has=alice.locator("summary", has_text="Ace")
    )
    attacker.locator("summary").click()
    attacker.get_by_label(re.compile(r"^\s*Dexterity")).check()
    attacker.get_by_label(re.compile(r"^\s*Gun Fu")).check()
    form.locator("select[name=resisted-defender-score]").select_option(label="Vamp: Combat")
    _submit(alice, form, "resisted")
    card = alice.locator("#log > li[data-seq]").first
    expect(card).to_contain_text(re.compile(r"(Ace|Vamp) wins|Both fail"))
    expect(card).to_contain_text("Combat score 12 (no roll)")


def test_ser11_the_builder_suggests_the_awareness_pool(chromium, daphne_server):
    """SER-11: one tap on the suggestion picks Finaglin'; the card rolls it."""
    alice, seeded = _table(chromium, daphne_server, "serenity")
    builder = f"#builder-{seeded['sheet']}"
    chip = alice.locator(f"{builder} .pool-suggest button")
    expect(chip).to_have_text("Awareness or knowledge: Finaglin' d6")
    _settled(alice, builder)
    with alice.expect_response(_is_builder_post):
        chip.click()
    expect(_trait(alice, builder, "Finaglin'")).to_have_class(re.compile("is-selected"))
    seq = _roll(alice, builder)
    expect(alice.locator(f"#event-{seq}")).to_contain_text("Finaglin'")
