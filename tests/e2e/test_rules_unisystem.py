"""Unisystem's rules played from the page, each checked on the card it makes (issue #26):
the Rule of 10 and the Rule of 1 (UNI-6, UNI-7), damage and healing (UNI-9), working
together (UNI-10), lengthy tasks (UNI-11), the Fear Test (UNI-12), movement and chases
(UNI-13) and jumping (UNI-14), from More actions.

Where a rule needs particular faces, the seed script makes the roll with them (the
table's own random source, replaced in the seed's process only) and the browser reads
its card and plays what follows; the page has no way to choose faces."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import log_in
from .test_card_moves import FIXED_FACES
from .test_reach import _submit
from .test_table_play import SEED_PRELUDE

pytestmark = pytest.mark.e2e

SEED = (
    SEED_PRELUDE
    + r"""
import sys
c = services.create_campaign(users["gm"], name="E2E rules unisystem", description="", system="unisystem")
sheets = {}
for p, hero in (("alice", "Ace"), ("bob", "Bo")):
    Membership.objects.create(campaign=c, user=users[p], role="player")
    s = create_sheet(c, name=hero, kind="pc", owner=users[p], counters={"drama_points": 2})
    rate(s, "attributes", "Dexterity", rating=3)
    for name in ("Strength", "Constitution", "Willpower"):
        rate(s, "attributes", name, rating=2)
    t(s, "skills", "Sports", rating=2)
    sheets[p] = s.pk
scene = services.create_scene(c, title="Alley", description="")
services.start_scene(c, scene.pk)
"""
    + FIXED_FACES
    + r"""
ace = sheets["alice"]
out = {"id": c.pk, "sheets": sheets}
task = {"name": "Ace", "kind": "task", "attribute": 3, "attribute_name": "Dexterity",
        "skill": 2, "skill_name": "Sports"}
for step in sys.argv[1:]:
    faces = {"ten": (10, 10, 3), "one": (1, 3)}[step]
    roll = perform("alice", "task", task, faces=faces, sheet_id=ace)
    out[step] = {"seq": roll.seq, "total": roll.outcome["total"]}
print(json.dumps(out))
"""
)


def _table(chromium, server, *steps: str) -> tuple[Page, dict]:
    seeded = server.seed(SEED, *steps)
    page = log_in(chromium, server, "alice")
    page.goto(f"{server.url}/c/{seeded['id']}/table/")
    expect(page.locator("#socket-status")).to_have_attribute("data-state", "live")
    return page, seeded


def _latest(page: Page):
    return page.locator("#log > li[data-seq]").first


def _tick(page: Page, form, field: str, who: str, *traits: str) -> None:
    """Tick traits of one character in a form's roll picker."""
    picker = form.locator(f"fieldset[data-field={field}] details.picker-sheet").filter(
        has=page.locator("summary", has_text=who)
    )
    if not picker.locator("input").first.is_visible():
        picker.locator("summary").click()
    for trait in traits:
        picker.get_by_label(re.compile(rf"^\s*{re.escape(trait)}")).check()


def _open(page: Page, title: str, name: str):
    """More actions, one form (its lists read again as it opens), for Ace; More actions
    stays open from one form to the next."""
    outer = page.locator("#actions-h")
    if outer.locator("xpath=..").get_attribute("open") is None:
        outer.click()
    summary = page.locator("details.action-details > summary", has_text=title)
    details = summary.locator("xpath=..")
    if details.get_attribute("open") is None:
        if details.get_attribute("hx-get") is None:
            summary.click()
        else:
            with page.expect_response(lambda r: f"/table/act/{name}/" in r.url):
                summary.click()
    form = page.locator(f"#action-{name}")
    form.locator("select[name=sheet]").select_option(label="Ace")
    return form


def test_uni6_a_natural_10_rolls_again(chromium, daphne_server):
    """UNI-6: 10, then 10 again (+5), then 3: the roll counts 15, and Dexterity 3 +
    Sports 2 make 20, Excellent; the card marks both rerolls."""
    alice, seeded = _table(chromium, daphne_server, "ten")
    assert seeded["ten"]["total"] == 20
    card = alice.locator(f"#event-{seeded['ten']['seq']}")
    expect(card).to_contain_text("Total 20 — Excellent (5 success levels)")
    expect(card.locator("li.die", has_text="rule of 10 reroll")).to_have_count(2)


def test_uni7_a_natural_1_rolls_again(chromium, daphne_server):
    """UNI-7: 1, then 3: the roll counts −2, and Dexterity 3 + Sports 2 make 3, a
    failure; the card marks the reroll."""
    alice, seeded = _table(chromium, daphne_server, "one")
    assert seeded["one"]["total"] == 3
    card = alice.locator(f"#event-{seeded['one']['seq']}")
    expect(card).to_contain_text("Total 3 — failure")
    expect(card.locator("li.die", has_text="rule of 1 reroll")).to_have_count(1)


def test_uni9_damage_then_a_doctor_heals(chromium, daphne_server):
    """UNI-9: an attack total of 17 (5 success levels) adds 5 to the base damage 5, off
    Ace's 26 Life Points; a Doctor total of 13 (3 levels) heals 3 of them."""
    alice, _ = _table(chromium, daphne_server)
    form = _open(alice, "Damage", "damage")
    form.get_by_label("Base damage").fill("5")
    form.get_by_label("Attack total").fill("17")
    _submit(alice, form, "damage")
    expect(_latest(alice)).to_contain_text(
        "10 damage (base 5 + 5 success levels); Life Points 26 → 16"
    )
    form = _open(alice, "Healing (Doctor)", "heal")
    form.get_by_label("Doctor total").fill("13")
    expect(form.get_by_label("Life points", exact=True)).to_have_count(0)  # Ace's sheet's
    _submit(alice, form, "heal")
    expect(_latest(alice)).to_contain_text("Life Points 16 → 19")


def test_uni10_working_together_on_a_long_task(chromium, daphne_server):
    """UNI-10: Ace and Bo roll the same Dexterity + Sports task; their success levels
    add up toward the 6 the task needs, and the card says how far they got."""
    alice, _ = _table(chromium, daphne_server)
    form = _open(alice, "Working together", "working_together")
    _tick(alice, form, "leader", "Ace", "Dexterity", "Sports")
    rollers = form.locator("fieldset[data-field=participants]")
    rollers.get_by_label("Ace").check()
    rollers.get_by_label("Bo").check()
    form.get_by_label("Mode").select_option("long")
    form.get_by_label("Required levels").fill("6")
    _submit(alice, form, "working_together")
    card = _latest(alice)
    expect(card).to_contain_text(re.compile(r"\d+ success levels? together — \d+ of 6"))
    expect(card.locator("li.die", has_text="(Ace)")).not_to_have_count(0)
    expect(card.locator("li.die", has_text="(Bo)")).not_to_have_count(0)


def test_uni11_a_lengthy_task_keeps_its_running_sum(chromium, daphne_server):
    """UNI-11: the task needs 8 levels; a total of 13 gives 3, and the next 13 brings the
    sum the table keeps to 6."""
    alice, _ = _table(chromium, daphne_server)
    for so_far in (3, 6):
        form = _open(alice, "Lengthy task", "lengthy_task")
        form.get_by_label("Required levels").fill("8")
        form.get_by_label("Total", exact=True).fill("13")
        form.get_by_label("Task name").fill("Pick the vault lock")
        _submit(alice, form, "lengthy_task")
        expect(_latest(alice)).to_contain_text(f"{so_far} of 8 success levels — {8 - so_far} to go")


def test_uni12_a_fear_test_reads_the_panic_table(chromium, daphne_server):
    """UNI-12: Willpower doubled, −1 for a demonic visage and −2 for a sudden one; the
    card says whether Ace acts normally or which row of the Panic Table applies."""
    alice, _ = _table(chromium, daphne_server)
    form = _open(alice, "Fear Test", "fear_test")
    expect(form.locator("input[name=fear_test-willpower]")).to_have_count(0)  # the sheet's
    form.get_by_label("Demonic visage").check()
    form.get_by_label("Sudden").check()
    _submit(alice, form, "fear_test")
    expect(_latest(alice)).to_contain_text(
        re.compile(r"Total \S+ — (acts normally|Startled|Freak out|Run Away!|Total Terror)")
    )


def test_uni13_movement_and_a_chase_turn(chromium, daphne_server):
    """UNI-13: Dexterity 3 + Constitution 2 is 5 yards a second, 25 a Turn, 10 mph; then
    one Turn of a chase, Ace's Dexterity + Sports against Bo's, from a lead of +2, moves
    the lead by at most 1."""
    alice, _ = _table(chromium, daphne_server)
    form = _open(alice, "Movement", "movement")
    expect(form.get_by_label("Dexterity")).to_have_count(0)  # Ace's sheet gives both
    _submit(alice, form, "movement")
    expect(_latest(alice)).to_contain_text("5 yards a second · 25 yards a Turn · 10 mph")
    form = _open(alice, "Chase (one Turn)", "chase")
    _tick(alice, form, "runner", "Ace", "Dexterity", "Sports")
    form.locator("select[name=chase-chaser-sheet]").select_option(label="Bo")
    _tick(alice, form, "chaser", "Bo", "Dexterity", "Sports")
    form.get_by_label("Lead").fill("2")
    _submit(alice, form, "chase")
    expect(_latest(alice)).to_contain_text(
        re.compile(r"Lead \+2 → (\+1|\+2|\+3): the chase goes on")
    )


def test_uni14_a_long_jump_by_strength(chromium, daphne_server):
    """UNI-14: Ace's Strength 2 jumps 2 yards long on the table; a running start doubles
    it to 4."""
    alice, _ = _table(chromium, daphne_server)
    form = _open(alice, "Jump", "jump")
    expect(form.locator("input[name=jump-strength]")).to_have_count(0)  # Ace's sheet's
    form.get_by_label("Jump", exact=True).select_option("long")
    form.get_by_label("Running start").check()
    _submit(alice, form, "jump")
    expect(_latest(alice)).to_contain_text("Long jump 4 yards")
