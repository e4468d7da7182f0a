"""The rules pages render every mechanic and decision from rules.registry."""

import pytest

from rules.registry import SYSTEMS


@pytest.mark.django_db
@pytest.mark.parametrize("slug", list(SYSTEMS))
def test_rules_page_lists_every_mechanic_and_decision(client, slug):
    game = SYSTEMS[slug]
    page = client.get(f"/rules/{slug}/").content.decode()
    for mechanic in game.mechanics:
        assert f'id="{mechanic.id}"' in page
    from django.utils.html import escape

    for _, decision in game.all_decisions():
        assert escape(decision) in page


@pytest.mark.django_db
def test_rules_index_links_every_system(client):
    page = client.get("/rules/").content.decode()
    for slug, game in SYSTEMS.items():
        assert f"/rules/{slug}/" in page and game.name.replace("&", "&amp;") in page


@pytest.mark.django_db
def test_unknown_system_page_is_404(client):
    assert client.get("/rules/d20/").status_code == 404
