"""Personae's rules played from the page, each checked on the card it makes (issue #26):
ties broken by yielding (PER-2), the actor's natural 10s (PER-4) and the reactor's
(PER-5), assisting (PER-7) and the concerted effort (PER-8).

Where a rule needs particular faces, the seed script makes the earlier roll with them
(the table's own random source, replaced in the seed's process only) and the browser
reads its card and plays what follows; the page has no way to choose faces."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import log_in
from .test_card_moves import FIXED_FACES
from .test_reach import _more_action, _submit
from .test_table_play import SEED_PRELUDE, _click, _fill, _roll, _settled

pytestmark = pytest.mark.e2e

SEED = (
    SEED_PRELUDE
    + r"""
import sys
c = services.create_campaign(users["gm"], name="E2E rules personae", description="", system="personae")
sheets = {}
for p, hero in (("alice", "Ace"), ("bob", "Bo")):
    Membership.objects.create(campaign=c, user=users[p], role="player")
    s = create_sheet(c, name=hero, kind="pc", owner=users[p],
                     counters={"potential_threshold": 3, "criticals": 0})
    might = t(s, "attributes", "Might", rating=4)
    t(s, "skills", "Climbing", rating=3, link=might)
    sheets[p] = s.pk
scene = services.create_scene(c, title="Cliff", description="")
services.start_scene(c, scene.pk)
"""
    + FIXED_FACES
    + r"""
ace, bo = sheets["alice"], sheets["bob"]
out = {"id": c.pk, "sheets": sheets}
climb = {"actor": {"skill_name": "Climbing"}, "goal": "Reach the top"}
versus_bo = {**climb, "reactor": {"skill_name": "Climbing"}, "table": {"target": bo}}
for step in sys.argv[1:]:
    if step == "difficulty":  # the GM's number to beat for the scene
        perform("gm", "set_difficulty", {"difficulty": 12})
        continue
    if step == "tie":  # 6+4 against 6+4; Ace yields to 3+4, Bo to 2+4
        roll = perform("alice", "challenge", versus_bo, faces=(6, 3, 2, 6, 2, 1), sheet_id=ace)
    elif step == "actor_ten":  # a natural 10: 10+4 against the difficulty 12
        perform("gm", "set_difficulty", {"difficulty": 12})
        roll = perform("alice", "challenge", climb, faces=(10, 3, 2), sheet_id=ace)
    elif step == "reactor_ten":  # the same dice on both sides, a natural 10 each: no yield breaks it
        roll = perform("alice", "challenge", versus_bo, faces=(10, 3, 2, 10, 3, 2), sheet_id=ace)
    out[step] = {"seq": roll.seq, "result": roll.outcome["result"]}
print(json.dumps(out))
"""
)


def _table(chromium, server, *steps: str, who: str = "alice") -> tuple[Page, dict]:
    seeded = server.seed(SEED, *steps)
    page = log_in(chromium, server, who)
    page.goto(f"{server.url}/c/{seeded['id']}/table/")
    expect(page.locator("#socket-status")).to_have_attribute("data-state", "live")
    return page, seeded


def _card(page: Page, seq: int):
    card = page.locator(f"#event-{seq}")
    expect(card).to_be_visible()
    return card


def test_per2_a_tie_is_broken_by_yielding(chromium, daphne_server):
    """PER-2: both sides tie at 10; each yields to its next die and Ace wins on the
    yield, a glancing success (PER-3), said on the card's face; Ace then ends the
    challenge from the card."""
    alice, seeded = _table(chromium, daphne_server, "tie")
    assert seeded["tie"]["result"] == "glancing"
    card = _card(alice, seeded["tie"]["seq"])
    expect(card).to_contain_text("Glancing success — won by yielding")
    expect(card.locator(".decided")).to_have_text(
        re.compile(r"Decided by: 7 against 6 \(Bo\), \+1, after 1 yield$")
    )
    card.get_by_role("button", name=re.compile("The challenge is over")).click()
    expect(alice.locator("#log .roll-card").first).to_contain_text("Challenge over")


def test_per4_the_actors_natural_10_banks_a_critical(chromium, daphne_server):
    """PER-4: a natural 10 that wins on the first comparison is a clear success and
    banks one critical; the card says so and marks the die."""
    alice, seeded = _table(chromium, daphne_server, "actor_ten")
    assert seeded["actor_ten"]["result"] == "clear"
    card = _card(alice, seeded["actor_ten"]["seq"])
    expect(card).to_contain_text("Clear success — 1 critical banked")
    expect(card).to_contain_text("natural 10")
    expect(card.locator(".decided")).to_contain_text("14 against 12 (the difficulty), +2")


@pytest.mark.parametrize("goal_first", [False, True], ids=["picks-then-goal", "goal-then-picks"])
def test_per5_a_challenge_against_a_character_who_rolled_a_natural_10(
    chromium, daphne_server, goal_first
):
    """PER-5: Bo's natural 10 fails Ace even on an unbroken tie (and overrides Ace's own
    natural 10, PER-4); then Ace picks "Against" Bo and "Resisting with" in the builder
    and rolls, and the card compares Ace's total with Bo's roll. Whether the goal is typed
    before the picks or after, each pick made as soon as the builder shows settled is
    kept (a builder just swapped in is wired at once, not when htmx settles it)."""
    alice, seeded = _table(chromium, daphne_server, "reactor_ten")
    assert seeded["reactor_ten"]["result"] == "failure"
    card = _card(alice, seeded["reactor_ten"]["seq"])
    expect(card).to_contain_text("Failure")
    expect(card.locator(".decided")).to_contain_text(
        "(Bo), a tie; the reactor's natural 10 takes a first tie"
    )
    expect(card.get_by_text("natural 10")).to_have_count(3)  # the face and both dice
    builder = f"#builder-{seeded['sheets']['alice']}"
    _click(alice, builder, "Climbing")
    if goal_first:
        _fill(alice, builder, "goal", "Get there before Bo")
    # Each pick re-renders the builder; what shows is the server's answer with it.
    against = alice.locator(f"{builder} select[name=against]")
    _settled(alice, builder)
    against.select_option(label="Bo")
    expect(against.locator("option[selected]")).to_have_text("Bo")
    resisting = alice.locator(f"{builder} select[name=against_skill]")
    _settled(alice, builder)
    resisting.select_option(label="Climbing")
    expect(resisting).to_have_value("Climbing")
    if not goal_first:
        _fill(alice, builder, "goal", "Get there before Bo")
    expect(resisting.locator("option[selected]")).to_have_text("Climbing")
    expect(alice.locator(f"{builder} .pool-status")).to_contain_text("Against Bo")
    seq = _roll(alice, builder)
    card = _card(alice, seq)
    expect(card).to_contain_text(re.compile("Clear success|Glancing success|Failure"))
    expect(card.locator(".decided")).to_contain_text("(Bo)")
    expect(card).to_contain_text("(reactor)")


def test_per7_an_assistant_steers_the_actors_failure(chromium, daphne_server):
    """PER-7: Bo assists Ace, whose challenge failed: one step up, a glancing success."""
    alice, seeded = _table(chromium, daphne_server)
    form = _more_action(alice, "Assist", "assist")
    form.locator("select[name=sheet]").select_option(label="Ace")
    form.locator("select[name=assist-primary_actor]").select_option(label="Ace")
    form.get_by_label("Bo").check()
    form.locator("select[name=assist-result]").select_option("failure")
    _submit(alice, form, "assist")
    card = alice.locator("#log > li[data-seq]").first
    expect(card).to_contain_text("Glancing")
    expect(card).to_contain_text("Bo")


def test_per8_a_concerted_effort_from_more_actions(chromium, daphne_server):
    """PER-8: the GM has set the difficulty; Ace coordinates with Climbing and Might, Bo
    contributes, the goal is stated; the card rolls Ace's dice plus Bo's rating and says how it went."""
    alice, seeded = _table(chromium, daphne_server, "difficulty")
    form = _more_action(alice, "Concerted effort", "concerted_effort")
    form.locator("select[name=sheet]").select_option(label="Ace")
    picker = form.locator("fieldset[data-field=coordinator] details.picker-sheet").filter(
        has=alice.locator("summary", has_text="Ace")
    )
    if not picker.locator("input").first.is_visible():
        picker.locator("summary").click()
    picker.get_by_label(re.compile(r"^\s*Climbing")).check()
    picker.get_by_label(re.compile(r"^\s*Might")).check()
    form.locator("fieldset[data-field=contributors]").get_by_label("Bo").check()
    form.locator("input[name=concerted_effort-goal]").fill("Haul the rope up together")
    _submit(alice, form, "concerted_effort")
    card = alice.locator("#log > li[data-seq]").first
    expect(card).to_contain_text(re.compile("Clear success|Glancing success|Failure"))
    expect(card).to_contain_text("Haul the rope up together")
    # Ace's 3 dice and Bo's 3, capped at the group's average Potential Threshold + 2.
    expect(card.locator("li.die", has_text="(actor)")).to_have_count(5)
