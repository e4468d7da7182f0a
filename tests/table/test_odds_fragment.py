"""The odds fragment: the numbers are the rules' exact chances, for members only."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from django.urls import reverse

from rules.cortex_slots import odds as slots_odds
from rules.cortex_slots.odds_queries import pool_report
from rules.kit import cortex_odds
from rules.personae import odds as personae_odds
from rules.personae.odds_queries import challenge_report
from rules.registry import get_system
from rules.serenity import odds as serenity_odds
from rules.smallville import odds as smallville_odds
from rules.unisystem import odds as uni_odds
from rules.unisystem.odds_queries import total_report
from table.pages.svg import percent
from tests.table.page_fixtures import build_sheet, fresh_cards, ids, make_campaign  # noqa: F401

pytestmark = pytest.mark.django_db

TWELVE = "d12,d12,d10,d10,d10,d8,d8,d8,d6,d6,d6,d4"


def _fragment(client, campaign, **params):
    response = client.get(reverse("odds", args=[campaign.pk]), params)
    assert response.status_code == 200
    return response.content.decode()


def _summary(html):
    return re.search(r'class="odds-summary"><strong>([^<]*)</strong>', html).group(1)


@pytest.mark.parametrize("system", ["serenity", "smallville", "cortex_slots"])
def test_cortex_family_matches_rules_odds(client_for, gm, player, observer, system):
    campaign = make_campaign(gm, player, observer, system)
    html = _fragment(client_for(player), campaign, pool=TWELVE, target="17")
    dice = TWELVE.split(",")
    if system == "serenity":
        exact = cortex_odds.chance_above(cortex_odds.serenity_outcomes(dice), 17)
        dist = cortex_odds.results(cortex_odds.serenity_outcomes(dice))
    elif system == "smallville":
        exact = cortex_odds.chance_above(smallville_odds.smallville_outcomes(dice, []), 17)
        dist = cortex_odds.results(smallville_odds.smallville_outcomes(dice, []))
    else:
        exact = slots_odds.slots_success_chance(dice, 17)
        dist = cortex_odds.results(slots_odds.slots_placed_outcomes(dice, difficulty=17))
    assert _summary(html).startswith(f"{percent(exact)} to beat 17")
    report = get_system(system).odds.from_fields({"pool": TWELVE, "target": "17"})
    assert report.chance == exact
    assert [(b.value, b.chance) for b in report.bars] == sorted(dist.probabilities().items())
    assert sum(b.chance for b in report.bars) == 1
    assert 'role="img"' in html and "<title" in html and "<desc" in html


def test_a_contest_against_a_pool(client_for, gm, player, observer):
    campaign = make_campaign(gm, player, observer, "serenity")
    html = _fragment(client_for(player), campaign, pool="d10,d8,d6", vs="d8,d8")
    ours, theirs = (
        cortex_odds.serenity_outcomes(["d10", "d8", "d6"]),
        cortex_odds.serenity_outcomes(["d8", "d8"]),
    )
    assert _summary(html).startswith(percent(cortex_odds.chance_pool_beats(ours, theirs)))
    assert percent(serenity_odds.chance_extraordinary(ours, theirs)) in html


def test_personae_matches_rules_odds(client_for, gm, player, observer):
    campaign = make_campaign(gm, player, observer, "personae")
    html = _fragment(client_for(player), campaign, skill="3", attribute="4", difficulty="12")
    exact = personae_odds.number_odds(3, 4, 12)
    assert _summary(html) == f"{percent(exact.success)} to succeed against 12."
    assert f"Clear success {percent(exact.clear)}" in html
    report = challenge_report(3, 4, reactor=(2, 3))
    assert report.chance == personae_odds.challenge_odds(3, 4, 2, 3).success


def test_unisystem_matches_rules_odds(client_for, gm, player, observer):
    campaign = make_campaign(gm, player, observer, "unisystem")
    html = _fragment(client_for(player), campaign, attribute="3", skill="2", modifier="-1")
    assert _summary(html) == f"{percent(uni_odds.success_chance(4))} to reach 9."
    report = total_report(4)
    assert report.chance == uni_odds.success_chance(4)
    law = uni_odds.total_law(4)
    for bar in report.bars:
        assert bar.chance == law.chance(bar.value)
    resisted = total_report(4, vs_modifier=5)
    assert resisted.chance == uni_odds.resisted_chances(4, 5).attacker_wins


def test_the_builder_odds_use_the_sheet(client_for, gm, player, observer):
    campaign = make_campaign(gm, player, observer, "serenity")
    sheet, t = build_sheet(campaign, player, "serenity")
    response = client_for(player).post(
        reverse("odds", args=[campaign.pk]),
        {"sheet": sheet.pk, "trait": ids(t["fightin"], t["veteran"], t["pistol"]), "target": "11"},
    )
    exact = cortex_odds.chance_above(cortex_odds.serenity_outcomes(["d10", "d8", "d12"]), 11)
    assert _summary(response.content.decode()).startswith(f"{percent(exact)} to beat 11")


def test_bad_input_is_explained_not_an_error_page(client_for, gm, player, observer):
    campaign = make_campaign(gm, player, observer, "serenity")
    html = _fragment(client_for(player), campaign, pool="d7,d9")
    assert "d7" in html and "odds-empty" in html


def test_members_only(client_for, gm, player, observer, outsider):
    campaign = make_campaign(gm, player, observer, "serenity")
    url = reverse("odds", args=[campaign.pk]) + "?pool=d8&target=3"
    for user in (gm, player, observer):
        assert client_for(user).get(url).status_code == 200
    assert client_for(outsider).get(url).status_code == 404
    assert client_for(outsider).post(url, {"pool": "d8"}).status_code == 404
    anonymous = client_for(None).get(url)
    assert anonymous.status_code == 302 and reverse("login") in anonymous["Location"]
    assert client_for(outsider).get(url, HTTP_HX_REQUEST="true").status_code == 404


def test_percent_is_exact_to_one_decimal():
    assert percent(Fraction(624, 1000)) == "62.4%"
    assert percent(Fraction(1, 100000)) == "<0.1%"


def test_cortex_slots_with_the_big_hero_die_matches_rules_odds():
    dice = ("d12+d6," + TWELVE.split(",", 1)[1]).split(",")
    report = pool_report(dice, target=17, big_hero="d8")
    assert report.chance == slots_odds.slots_success_chance(dice, 17, big_hero="d8")
    placed = cortex_odds.results(
        slots_odds.slots_placed_outcomes(dice, big_hero="d8", difficulty=17)
    )
    assert [(b.value, b.chance) for b in report.bars] == sorted(placed.probabilities().items())
