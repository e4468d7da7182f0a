"""The sheet page costs a fixed number of SQL queries, whatever the number of traits."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from sheets.models import Trait

pytestmark = pytest.mark.django_db


def fill(sheet, total):
    """A Serenity sheet with `total` traits, Refinements filed under Stylin's (5 are the stress types)."""
    stylins = [
        Trait.objects.create(sheet=sheet, group="stylins", name=f"Stylin' {i}", die=8, position=i)
        for i in range(max(1, total // 12))
    ]
    groups = ["refinements", "values", "aspects", "assets", "complications"]
    count = Trait.objects.filter(sheet=sheet).count()
    i = 0
    while count < total:
        group = groups[i % len(groups)]
        Trait.objects.create(
            sheet=sheet,
            group=group,
            name=f"{group} {i}",
            die=6,
            position=i,
            parent=stylins[i % len(stylins)] if group == "refinements" else None,
            notes="a note",
        )
        i += 1
        count += 1
    assert Trait.objects.filter(sheet=sheet).count() == total
    return sheet


@pytest.mark.parametrize("viewer", ["owner", "gm", "observer"])
def test_sheet_page_queries_do_not_grow_with_traits(
    viewer, make_campaign, make_sheet, gm, player, observer, client_for, django_assert_num_queries
):
    campaign = make_campaign("serenity")
    small = fill(make_sheet(campaign, "Small"), 10)
    large = fill(make_sheet(campaign, "Large"), 60)
    client = client_for({"owner": player, "gm": gm, "observer": observer}[viewer])
    client.get(small.get_absolute_url())  # warm the session
    with CaptureQueriesContext(connection) as small_queries:
        assert client.get(small.get_absolute_url()).status_code == 200
    assert len(small_queries) <= 8, [q["sql"] for q in small_queries]
    with django_assert_num_queries(len(small_queries)):
        response = client.get(large.get_absolute_url())
    assert response.status_code == 200
    assert response.content.decode().count('class="trait') >= 60


def test_unisystem_adversary_page_queries_are_constant_too(
    make_campaign, make_sheet, gm, client_for, django_assert_num_queries
):
    campaign = make_campaign("unisystem")
    sheets = []
    for n in (4, 54):
        sheet = make_sheet(campaign, f"Vamp {n}", kind="npc", npc_kind="adversary")
        Trait.objects.bulk_create(
            Trait(
                sheet=sheet,
                group="skills",
                name=f"Skill {i}",
                rating=2,
                position=i,
                flags={"combat": True},
            )
            for i in range(n)
        )
        sheets.append(sheet)
    client = client_for(gm)
    client.get(sheets[0].get_absolute_url())
    with CaptureQueriesContext(connection) as queries:
        client.get(sheets[0].get_absolute_url())
    with django_assert_num_queries(len(queries)):
        client.get(sheets[1].get_absolute_url())
