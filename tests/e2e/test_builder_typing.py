"""The builder reacts as the player types (PER-9): a Personae pool that waits only on its
goal gets its Roll button while the goal is being typed, so the first click on Roll is
a roll, not the click that leaves the field. Emptying the goal takes Roll away again."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import log_in, wait_until
from .test_table_play import SEED_PRELUDE, _click

pytestmark = pytest.mark.e2e

SETUP = (
    SEED_PRELUDE
    + r"""
c = services.create_campaign(users["gm"], name="Typing", description="", system="personae")
Membership.objects.create(campaign=c, user=users["alice"], role="player")
s = create_sheet(c, name="Ace", kind="pc", owner=users["alice"], counters={"potential_threshold": 3})
m = t(s, "attributes", "Might", rating=4); t(s, "skills", "Swordplay", rating=3, link=m)
scene = services.create_scene(c, title="Duel", description="")
services.start_scene(c, scene.pk)
from table import actions
actions.perform(c, users["gm"], "set_difficulty", {"difficulty": 9})
print(json.dumps({"id": c.pk, "sheet": s.pk}))
"""
)


@pytest.fixture(scope="module")
def table(daphne_server):
    return daphne_server.seed(SETUP)


def test_roll_is_offered_while_the_goal_is_typed(chromium, daphne_server, table):
    """PER-9: the goal is stated before a challenge; Roll comes as it is typed."""
    page = log_in(chromium, daphne_server, "alice")
    page.goto(f"{daphne_server.url}/c/{table['id']}/table/")
    expect(page.locator("#socket-status")).to_have_attribute("data-state", "live")
    builder = f"#builder-{table['sheet']}"
    _click(page, builder, "Swordplay")  # brings Might along
    roll = page.locator(f"{builder} .pool-roll button[type=submit]")
    waiting = page.locator(f"{builder} [data-cleared-by=goal]")
    expect(roll).to_be_disabled()
    expect(waiting).to_be_visible()

    goal = page.locator(f"{builder} [name=goal]")
    goal.click()
    page.keyboard.type("Disarm the duelist")
    expect(roll).to_be_enabled()  # no blur, no pause: it is offered as the goal is typed
    expect(waiting).to_be_hidden()
    assert page.evaluate("() => document.activeElement.name") == "goal"  # focus stays put

    for _ in "Disarm the duelist":
        page.keyboard.press("Backspace")
    expect(roll).to_be_disabled()
    expect(waiting).to_be_visible()

    page.keyboard.type("Disarm the duelist")
    expect(roll).to_be_enabled()
    with page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/roll/")):
        roll.click()  # the first click rolls
    wait_until(page, "() => document.querySelector('#log .roll-card') !== null")
    expect(page.locator("#log .roll-card").first).to_contain_text("Disarm the duelist")
    page.context.close()
