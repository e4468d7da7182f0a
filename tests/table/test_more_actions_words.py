"""The More-actions forms speak the game's words: no rule ID (they are in the rules
link's tooltip) and no raw field or choice key in what the page shows, for the GM and a
player of every demo game; the GM's contest roll asks no "side" number (the table rolls
for the side whose turn it is), and Cortex's plot-point spends read as what they do."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from sheets.demo import load_demo

pytestmark = pytest.mark.django_db

RULE_ID = re.compile(r"\b[A-Z]{3}-\d+\b")
RAW_KEY = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")


def visible_text(fragment: str) -> str:
    """What a reader sees of the fragment: no tags, no attributes."""
    fragment = re.sub(r"<(script|style|template)[^>]*>.*?</\1>", " ", fragment, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", "\n", fragment))


def more_actions(client, campaign) -> str:
    page = client.get(reverse("table", args=[campaign.pk])).content.decode()
    start = page.find('class="table-actions more-actions')
    end = page.find('class="muted small actions-elsewhere"', start)
    assert start >= 0, campaign.system
    return page[start : end if end > 0 else None]


@pytest.fixture
def demo():
    return {c.system: c for c in load_demo()}


def test_no_rule_id_or_raw_key_shows_in_any_more_actions_form(demo, client_for):
    for system, campaign in demo.items():
        for role in ("gm", "player"):
            user = campaign.memberships.filter(role=role).first().user
            text = visible_text(more_actions(client_for(user), campaign))
            assert not RULE_ID.findall(text), (system, role, RULE_ID.findall(text))
            assert not RAW_KEY.findall(text), (system, role, RAW_KEY.findall(text))


def test_the_rule_ids_are_a_link_away(demo, client_for):
    campaign = demo["cortex_slots"]
    gm = campaign.memberships.get(role="gm").user
    section = more_actions(client_for(gm), campaign)
    assert 'title="Rules CTX-7"' in section
    assert f'href="{reverse("rules_system", args=["cortex_slots"])}#CTX-7"' in section


def test_the_gms_contest_roll_asks_no_side_number(demo, client_for):
    for system in ("serenity", "smallville"):
        campaign = demo[system]
        gm = campaign.memberships.get(role="gm").user
        section = more_actions(client_for(gm), campaign)
        form = section[section.find('id="action-contest_roll"') :]
        form = form[: form.find("</form>")]
        assert 'name="contest_roll-side"' not in form, system
        assert "0 or 1" not in visible_text(form), system


def test_cortex_plot_point_spends_say_what_they_do(demo, client_for):
    campaign = demo["cortex_slots"]
    player = campaign.memberships.filter(role="player").first().user
    section = more_actions(client_for(player), campaign)
    form = section[section.find('id="action-spend_plot_point"') :]
    text = visible_text(form[: form.find("</form>")])
    assert "Spend it to" in text and "Stay in the fight" in text
    assert "Create a temporary d6 asset" in text
    assert "\nKind\n" not in text and "stay in fight" not in text
