"""Rules of the Cortex family (Serenity Plus, Cortex with Total and Effect slots,
Smallville) played from the page as a player or the GM would, each checked on the card
it makes: a complication the GM activates from the card (SER-3), a challenged Value or
Relationship (SER-9, SMV-2), an extraordinary success's benefit (SER-10), a hitch's
advantage (CTX-5), the Big Hero Die (CTX-6), a "d12+dN" trait (CTX-8), advancement
(CTX-9) and the opponent's stress the Watchtower adds to a roll (SMV-4).

Where a rule rests on particular faces, the roll before it is made in the seed script
with faces drawn as the table would (tests/e2e/test_card_moves.py's FIXED_FACES); the
browser plays what follows from the page. No client ever chooses a face."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import log_in
from .test_card_moves import FIXED_FACES
from .test_reach import _more_action, _submit
from .test_table_play import SEED_PRELUDE, SELECTED, _click, _roll, _settled, _trait

pytestmark = pytest.mark.e2e

SEED = (
    SEED_PRELUDE
    + r"""
import sys
system, case = sys.argv[1], sys.argv[2]
c = services.create_campaign(users["gm"], name=f"E2E {system} {case}", description="", system=system)
for p in ("alice", "bob"):
    Membership.objects.create(campaign=c, user=users[p], role="player")
counters = {"plot_points": 2}
if case == "advance":
    counters["advance_points"] = 40
hero = create_sheet(c, name="Ace", kind="pc", owner=users["alice"], counters=counters)
out = {"id": c.pk, "sheet": hero.pk}
if system == "serenity":
    t(hero, "stylins", "Fightin'", 10)
    t(hero, "values", "Loyalty", 8)
    t(hero, "assets", "Pistol", 8)
elif system == "cortex_slots":
    t(hero, "attributes", "Agility", 8)
    t(hero, "distinctions", "Ex-Marine", 8)
    if case == "compound":
        t(hero, "skills", "Shoot", 12, plus_die=6)
    else:
        t(hero, "skills", "Shoot", 8)
    t(hero, "big_hero", "Big Hero Die", 6)
elif system == "smallville":
    Trait.objects.filter(sheet=hero, group="values").delete()  # the template's Values
    t(hero, "values", "Justice", 8)
    t(hero, "relationships", "Lana", 6)
    npc = create_sheet(c, name="Thugs", kind="npc", counters=counters)
    t(npc, "stress", "Angry", 8)
scene = services.create_scene(c, title="Tonight", description="")
services.start_scene(c, scene.pk)
"""
    + FIXED_FACES
    + r"""
if case == "complication":
    pool = [{"die": "d10", "trait": "Fightin'", "group": "stylins"},
            {"die": "d8", "trait": "Pistol", "group": "assets"}]
    out["seq"] = perform("alice", "roll", {"pool": pool}, faces=(1, 6), sheet_id=hero.pk).seq
elif case == "extraordinary":
    perform("gm", "roll", {"pool": [{"die": "d6", "trait": "Guards", "group": "situation"}]},
            faces=(2,))
    pool = [{"die": "d10", "trait": "Fightin'", "group": "stylins"},
            {"die": "d8", "trait": "Pistol", "group": "assets"}]
    rolled = perform("alice", "roll", {"pool": pool}, faces=(9, 8), sheet_id=hero.pk)
    assert rolled.outcome["extraordinary"]["by"] == "player", rolled.outcome
    out["seq"] = rolled.seq
elif case == "hitch":
    pool = [{"die": "d8", "trait": n, "group": g} for n, g in
            (("Agility", "attributes"), ("Ex-Marine", "distinctions"), ("Shoot", "skills"))]
    out["seq"] = perform("alice", "roll", {"pool": pool}, faces=(1, 6, 7), sheet_id=hero.pk).seq
print(json.dumps(out))
"""
)


def _table(chromium, server, system: str, case: str, *who: str) -> tuple[dict, dict[str, Page]]:
    seeded = server.seed(SEED, system, case)
    pages = {}
    for name in who:
        page = pages[name] = log_in(chromium, server, name)
        page.goto(f"{server.url}/c/{seeded['id']}/table/")
        expect(page.locator("#socket-status")).to_have_attribute("data-state", "live")
    return seeded, pages


def _close(pages: dict[str, Page]) -> None:
    for page in pages.values():
        page.context.close()


def _plot_points(page: Page, sheet: int, value: int) -> None:
    counter = page.locator(f"#char-{sheet} [data-counter=plot_points] strong")
    expect(counter).to_have_text(str(value))


def _check(page: Page, builder: str, label: str) -> None:
    """Tick one of the builder's options: the builder answers with it ticked."""
    _settled(page, builder)
    box = page.locator(f"{builder} label.check", has_text=label).locator("input")
    with page.expect_response(
        lambda r: r.request.method == "POST" and bool(re.search(r"/table/pool/\d+/$", r.url))
    ):
        box.check()
    expect(page.locator(f"{builder} label.check", has_text=label).locator("input")).to_be_checked()


def _newest(page: Page):
    return page.locator("#log > li[data-seq]").first


# --------------------------------------------------------------------------- Serenity Plus


def test_ser3_the_gm_activates_a_complication_from_the_card(chromium, daphne_server):
    """SER-3: Ace's Fightin' rolled a 1; the GM names it on the card and activates it:
    Ace gains a plot point and a d6 complication, on every page."""
    seeded, pages = _table(chromium, daphne_server, "serenity", "complication", "gm", "alice")
    gm, alice = pages["gm"], pages["alice"]
    card = gm.locator(f"#event-{seeded['seq']}")
    card.locator("summary", has_text="GM tools").click()
    form = card.locator("form", has_text="Activate complication")
    form.locator("input[name=complication]").fill("Busted knuckles")
    with gm.expect_response(lambda r: "/table/quick/activate_complication/" in r.url):
        form.get_by_role("button", name="Activate complication (+1 plot point)").click()
    for page in (gm, alice):
        expect(_newest(page)).to_contain_text("Busted knuckles d6, +1 plot point")
        _plot_points(page, seeded["sheet"], 3)
    _close(pages)


def test_ser9_a_player_challenges_a_value_in_the_builder(chromium, daphne_server):
    """SER-9: Loyalty challenged rolls three d8 and steps down to d6 after the roll."""
    seeded, pages = _table(chromium, daphne_server, "serenity", "challenge", "alice")
    alice = pages["alice"]
    builder = f"#builder-{seeded['sheet']}"
    _click(alice, builder, "Fightin'")
    _click(alice, builder, "Loyalty")
    _check(alice, builder, "Challenge Loyalty (three dice, steps down after)")
    seq = _roll(alice, builder)
    card = alice.locator(f"#event-{seq}")
    expect(card).to_contain_text("Loyalty")
    expect(card.locator(".die", has_text="Loyalty")).to_have_count(3)
    expect(card).to_contain_text("Loyalty d8 was challenged (three dice): it steps down to d6")
    expect(_trait(alice, builder, "Loyalty")).to_contain_text("d6")
    _close(pages)


def test_ser10_an_extraordinary_success_claims_its_benefit(chromium, daphne_server):
    """SER-10: Ace's 17 against the GM's 2 reads "extraordinary success" on the card;
    Ace picks the benefit from More actions and the card says which."""
    seeded, pages = _table(chromium, daphne_server, "serenity", "extraordinary", "alice", "bob")
    alice, bob = pages["alice"], pages["bob"]
    for page in (alice, bob):
        expect(page.locator(f"#event-{seeded['seq']}")).to_contain_text(
            "extraordinary success by 15"
        )
    form = _more_action(alice, "Extraordinary success benefit", "benefit")
    form.locator("select[name=sheet]").select_option(label="Ace")
    form.locator("select[name=table_roll]").select_option(str(seeded["seq"]))
    form.locator("select[name=benefit-benefit]").select_option("step_up_asset")
    form.locator("[name=benefit-target]").fill("Pistol")
    _submit(alice, form, "benefit")
    for page in (alice, bob):
        expect(_newest(page)).to_contain_text("Extraordinary success")
        expect(_newest(page)).to_contain_text("Pistol")
    _close(pages)


# --------------------------------------------------------------------------- Cortex slots


def test_ctx5_a_players_hitch_is_an_advantage_on_the_card(chromium, daphne_server):
    """CTX-5: Ace's roll shows a hitch; the card on the GM's and on another player's page
    records the advantage against the players (a passive rule: the roll's own card)."""
    seeded, pages = _table(chromium, daphne_server, "cortex_slots", "hitch", "gm", "bob")
    gm, bob = pages["gm"], pages["bob"]
    for page in (gm, bob):
        card = page.locator(f"#event-{seeded['seq']}")
        expect(card).to_contain_text("Advantage against the players")
        expect(card).to_contain_text("hitch")
    _close(pages)


def test_ctx6_the_big_hero_die_joins_the_roll_for_a_plot_point(chromium, daphne_server):
    """CTX-6: ticked in the builder, the Big Hero Die is rolled and costs 1 plot point."""
    seeded, pages = _table(chromium, daphne_server, "cortex_slots", "big_hero", "alice")
    alice = pages["alice"]
    builder = f"#builder-{seeded['sheet']}"
    for name in ("Agility", "Ex-Marine", "Shoot"):
        _click(alice, builder, name)
    _check(alice, builder, "Add the Big Hero Die d6 (1 plot point; 2 held)")
    seq = _roll(alice, builder)
    expect(alice.locator(f"#event-{seq}")).to_contain_text("Big Hero Die")
    _plot_points(alice, seeded["sheet"], 1)
    _close(pages)


def test_ctx8_a_d12_plus_d6_skill_rolls_as_one_entry(chromium, daphne_server):
    """CTX-8: the builder shows Shoot as d12+d6; the card rolls it as one entry."""
    seeded, pages = _table(chromium, daphne_server, "cortex_slots", "compound", "alice")
    alice = pages["alice"]
    builder = f"#builder-{seeded['sheet']}"
    expect(_trait(alice, builder, "Shoot")).to_contain_text("d12+d6")
    for name in ("Agility", "Ex-Marine", "Shoot"):
        _click(alice, builder, name)
    seq = _roll(alice, builder)
    expect(alice.locator(f"#event-{seq}")).to_contain_text("d12+d6")
    _close(pages)


def test_ctx9_the_gm_awards_advance_points_and_the_player_raises_a_skill(chromium, daphne_server):
    """CTX-9: the GM's session award adds to Ace's advance points; Ace raises Shoot from
    d8 to d10 for 4 × 10 = 40 points."""
    seeded, pages = _table(chromium, daphne_server, "cortex_slots", "advance", "gm", "alice")
    gm, alice = pages["gm"], pages["alice"]
    form = _more_action(gm, "Advance", "advance")
    form.locator("select[name=sheet]").select_option(label="Ace")
    form.locator("select[name=advance-operation]").select_option("award")
    form.locator("[name=advance-session_award]").fill("3")
    _submit(gm, form, "advance")
    expect(_newest(gm)).to_contain_text("Session award — 3 advance points (now 43)")
    form = _more_action(alice, "Advance", "advance")
    form.locator("select[name=sheet]").select_option(label="Ace")
    form.locator("select[name=advance-operation]").select_option("raise")
    form.locator("select[name=advance-group]").select_option("skills")
    form.locator("[name=advance-trait]").fill("Shoot")
    form.locator("select[name=advance-to]").select_option("d10")
    _submit(alice, form, "advance")
    for page in (gm, alice):
        expect(_newest(page)).to_contain_text("Shoot raised to d10 for 40 advance points")
    _close(pages)


# --------------------------------------------------------------------------- Smallville


def test_smv2_a_player_challenges_a_value_in_the_builder(chromium, daphne_server):
    """SMV-2: Justice challenged rolls three d8, and steps down after."""
    seeded, pages = _table(chromium, daphne_server, "smallville", "challenge", "alice")
    alice = pages["alice"]
    builder = f"#builder-{seeded['sheet']}"
    _click(alice, builder, "Justice")
    _click(alice, builder, "Lana")
    _check(alice, builder, "Challenge Justice (three dice, steps down after)")
    seq = _roll(alice, builder)
    card = alice.locator(f"#event-{seq}")
    expect(card.locator(".die", has_text="Justice")).to_have_count(3)
    expect(card).to_contain_text("Challenged: Justice d8 steps down when the conflict ends.")
    _close(pages)


def test_smv4_the_watchtower_adds_the_opponents_stress_to_the_roll(chromium, daphne_server):
    """SMV-4: the GM adds the Thugs' Angry d8 to Ace's roll in progress; it is free, and
    the card rolls it."""
    seeded, pages = _table(chromium, daphne_server, "smallville", "stress", "gm", "alice")
    gm, alice = pages["gm"], pages["alice"]
    builder, slot = f"#builder-{seeded['sheet']}", f"#live-pool-{seeded['sheet']}"
    if gm.locator(".surface-tabs").is_visible():
        gm.get_by_role("tab", name="The table").click()
    for name in ("Justice", "Lana"):
        _click(alice, builder, name)
    expect(gm.locator(slot)).to_contain_text("Lana")
    gm.locator(f"{slot} select[name=die]").select_option(label="d8 Angry (Thugs)")
    gm.locator(f"{slot} .live-pool-add button").click()
    expect(gm.locator(f"{slot} .live-pool-additions")).to_contain_text("d8 Angry")
    expect(alice.locator(f"{builder} .gm-additions")).to_contain_text("d8 Angry")
    expect(_trait(alice, builder, "Justice")).to_have_class(SELECTED)
    seq = _roll(alice, builder)
    card = alice.locator(f"#event-{seq}")
    expect(card).to_contain_text("Angry")
    _plot_points(alice, seeded["sheet"], 2)
    _close(pages)
