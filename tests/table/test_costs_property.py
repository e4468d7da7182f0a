"""What a roll costs is what the builder says (SER-8, SMV-3..8, CTX-6).

Over random pools, plot points, Resources used or not, Useful Details made or reused
(SMV-6) and dice the GM adds to a player's
pool in progress (SMV-4 stress, SMV-5 Limits, SER-1 complications and stress), in every
game whose rolls cost plot points: the cost line the player reads is what the roll then
takes off the sheet, and a pool the builder refuses as too dear is refused by the roll
with the same words and numbers, nothing charged.
"""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sheets.models import Trait
from table.models import TableEvent
from table.pools import live_pool
from table.writing import actions as table_actions

pytestmark = pytest.mark.django_db

COST_LINE = re.compile(r'<p class="cost"><strong>(.*?)</strong>')
ERROR_LINE = re.compile(r'<p class="error"[^>]*>⚠ (.*?)</p>')
SIDE_GROUPS = ("locations", "extras")
# What each game always picks (a pool the rules accept) and which picks may join it.
ALWAYS = {
    "serenity": [("stylins", "Fightin'")],
    "smallville": [("values", "Justice"), ("relationships", "Lana")],
    "cortex_slots": [("attributes", "Agility"), ("distinctions", "Ex-Marine"), ("skills", "Shoot")],
}
MAYBE = {
    "serenity": [("refinements", "War Veteran"), ("values", "Loyalty"), ("assets", "Pistol")],
    "smallville": [
        ("relationships", "Chloe"),
        ("abilities", "Super-speed"),
        ("distinctions", "Farm boy"),
        ("locations", "Kent Farm"),
    ],
    "cortex_slots": [("skills", "Fight"), ("assets", "Sniper Rifle")],
}


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def other_side_dice(t) -> None:
    """Dice the GM may add to Mal's roll: stress (and a Limit) on Zoe's and Niska's sheets."""
    if t.campaign.system == "smallville":
        Trait.objects.filter(sheet=t.npc, group="stress", name="Angry").update(die=8)
        Trait.objects.filter(sheet=t.other_pc, group="stress", name="Afraid").update(die=6)
        Trait.objects.create(sheet=t.npc, group="limits", name="Kryptonite", die=8)
    if t.campaign.system == "serenity":
        Trait.objects.filter(sheet=t.npc, group="stress", name="Injured").update(die=8)


def useful_detail(t, form: dict, which: str) -> None:
    """SMV-6 in the builder's fields: "new" names a detail made with this roll, "reused"
    ticks one Zoe made earlier in the scene, "both" does both."""
    if which in ("reused", "both"):
        made = [
            {"die": "d8", "trait": "Justice", "group": "values"},
            {"die": "d6", "trait": "Lana", "group": "relationships"},
            {"die": "d6", "trait": "Loose railing", "group": "useful_details"},
        ]
        t.perform(t.other, "roll", {"pool": made}, sheet_id=t.other_pc.pk)
        form["reuse_detail"] = "Loose railing"
    if which in ("new", "both"):
        form["useful_detail"] = "Rope swing"


def cost_range(page: str) -> tuple[int, int]:
    """(the least, the most) the builder says the roll costs."""
    found = COST_LINE.search(page)
    if found is None:
        return 0, 0
    line = html.unescape(found.group(1))
    exact = re.fullmatch(r"Costs (\d+) plot points?", line)
    if exact:
        return int(exact.group(1)), int(exact.group(1))
    most = re.fullmatch(r"Costs up to (\d+) plot points?", line)
    if most:
        return 0, int(most.group(1))
    between = re.fullmatch(r"Costs (\d+) to (\d+) plot points?", line)
    assert between, f"a cost line that names no cost: {line!r}"
    return int(between.group(1)), int(between.group(2))


def more_result_dice(event: TableEvent) -> int:
    """Main-pool dice above 1 beyond the two a result always takes: what plot points
    named for the result can buy (SER-8, SMV-8)."""
    main = [d for d in event.outcome.get("dice", []) if d.get("group") not in SIDE_GROUPS]
    return max(0, sum(1 for d in main if d.get("face") != 1) - 2)


@pytest.mark.parametrize("system", ["serenity", "smallville", "cortex_slots"])
@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_the_builders_cost_is_what_the_roll_charges(system, table_for, faces, data):
    t = table_for(system)
    t.start_scene()
    other_side_dice(t)
    held = data.draw(st.integers(0, 3), label="plot points held")
    t.pc.counters.filter(key="plot_points").update(value=held)
    if system == "smallville" and data.draw(st.booleans(), label="Kent Farm used"):
        Trait.objects.filter(sheet=t.pc, name="Kent Farm").update(flags={"used": True})
    picks = ALWAYS[system] + data.draw(st.lists(st.sampled_from(MAYBE[system]), unique=True))
    ids = [str(t.trait(t.pc, group, name).pk) for group, name in picks]
    form = {"trait": ids, "clicked": "", "visibility": "public"}
    if system == "smallville":
        # SMV-6: a Useful Detail made now (1 plot point), or one of the scene's reused (free).
        useful_detail(t, form, data.draw(st.sampled_from(["", "new", "reused", "both"])))
    if system == "cortex_slots":
        form["big_hero"] = "1" if data.draw(st.booleans(), label="Big Hero Die") else ""
    else:
        form["plot_points"] = str(data.draw(st.integers(0, 3), label="for the result"))
    player, gm = client_for(t.player), client_for(t.gm)
    builder = reverse("table_pool", args=[t.campaign.pk, t.pc.pk])
    player.post(builder, form, HTTP_HX_REQUEST="true")  # the pool in progress
    offered = [o["key"] for o in live_pool.options_for(t.campaign, t.pc)]
    added = (
        data.draw(st.lists(st.sampled_from(offered), unique=True, max_size=3)) if offered else []
    )
    for key in added:
        url = reverse("table_live_pool", args=[t.campaign.pk, t.pc.pk])
        gm.post(url, {"op": "add", "die": key}, HTTP_HX_REQUEST="true")
    shown = player.post(builder, form, HTTP_HX_REQUEST="true")
    page = shown.content.decode()
    least, most = cost_range(page)
    refusals = [html.unescape(e) for e in ERROR_LINE.findall(page) if "costs" in e]
    faces.queue[:] = data.draw(st.lists(st.integers(1, 4), min_size=30, max_size=30))
    before = TableEvent.objects.filter(campaign=t.campaign).count()

    url = reverse("table_pool_roll", args=[t.campaign.pk, t.pc.pk])
    rolled = player.post(url, form, HTTP_HX_REQUEST="true").content.decode()
    charged = held - t.counter(t.pc, "plot_points")
    events = TableEvent.objects.filter(campaign=t.campaign, action="roll", character_id=t.pc.pk)
    if refusals:
        assert refusals == [f"That costs {most} plot point{'s' * (most != 1)}; Mal has {held}."]
        assert most > held and charged == 0 and events.count() == 0
        assert refusals[0] in html.unescape(rolled)
        # The roll itself (as the socket's act sends it) refuses in the same words.
        request = shown.context["pool"].request
        with pytest.raises(table_actions.ActionError) as refused:
            t.perform(t.player, "roll", dict(request), sheet_id=t.pc.pk)
        assert str(refused.value) == refusals[0]
        return
    if not shown.context["pool"].ready:
        assert charged == 0 and TableEvent.objects.filter(campaign=t.campaign).count() == before
        return
    event = events.get()
    assert most <= held
    assert charged == least + min(most - least, more_result_dice(event)), (page, event.outcome)
