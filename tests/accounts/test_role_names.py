"""Nobody talks as the GM by name: a display name that would pass for a role is refused
wherever one is set, and the GM's lines carry a mark from the role itself, on the page
(a badge) and in Discord (a bold [GM] outside the escaped name)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.admin import UserAdminForm
from accounts.models import User
from accounts.text import imitates_a_role
from integrations.embeds import event_payload
from table.log.visibility import PLAYERS
from table.models import TableEvent
from table.reading.rendering import render_event_html
from table.talk import chat

IMITATIONS = [
    "GM", "gm", "The GM", "the gm", "G.M.", "G. M.", "Game Master", "Gamemaster",
    "Game-Master", "GAME_MASTER", "Narrator", "Admin", "Moderator", "Rollcall",
    "  «The GM»  ", "G\u200bM", "\u202eGM", "ＧＭ", "𝐆𝐌", "Gм", "ǴḾ", "GM!", "-=GM=-",
    "[GM] Pete", "(GM) Pete", "Pete <admin>", "Th3 GM", "Dungeon Master",
]  # fmt: skip
FINE = ["Pete", "Gina the GM", "Gemma", "Admiral Ackbar", "Theodore", "Narrato", "Mal", "ГМ-2"]


@pytest.mark.parametrize("name", IMITATIONS)
def test_names_that_pass_for_a_role_are_caught(name):
    assert imitates_a_role(name), name


@pytest.mark.parametrize("name", FINE)
def test_ordinary_names_are_not(name):
    assert not imitates_a_role(name), name


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["The GM", "G.M.", "Game-Master", "[GM] Pete"])
def test_the_profile_refuses_a_role_name_keeps_what_was_typed_and_changes_nothing(
    client_for, player, name
):
    answer = client_for(player).post(reverse("profile"), {"display_name": name})
    assert answer.status_code == 200
    page = answer.content.decode()
    assert "A display name cannot look like a role" in page
    assert f'value="{name}"' in page.replace("&quot;", '"')
    player.refresh_from_db()
    assert player.display_name == "Pete"


@pytest.mark.django_db
def test_sign_up_refuses_a_role_name(client):
    answer = client.post(
        reverse("signup"),
        {
            "username": "jayne",
            "display_name": "Narrator",
            "password1": "two by two, hands of blue",
            "password2": "two by two, hands of blue",
        },
    )
    assert answer.status_code == 200
    assert "A display name cannot look like a role" in answer.content.decode()
    assert not User.objects.filter(username="jayne").exists()


@pytest.mark.django_db
@pytest.mark.parametrize("username", ["gm", "G.M.", "game_master", "Admin"])
def test_sign_up_refuses_a_username_that_reads_as_a_role(client, username):
    """With no display name the username is shown: it must not pass for a role either."""
    answer = client.post(
        reverse("signup"),
        {
            "username": username,
            "display_name": "",
            "password1": "two by two, hands of blue",
            "password2": "two by two, hands of blue",
        },
    )
    assert answer.status_code == 200
    assert "A username cannot look like a role" in answer.content.decode()
    assert not User.objects.exists()


@pytest.mark.django_db
def test_a_member_whose_username_reads_as_a_role_keeps_a_display_name(client_for, make_user):
    gm_named = make_user("gm", "Gina")
    answer = client_for(gm_named).post(reverse("profile"), {"display_name": ""})
    assert answer.status_code == 200
    assert "Your username reads like a role" in answer.content.decode()
    gm_named.refresh_from_db()
    assert gm_named.display_name == "Gina"


@pytest.mark.django_db
def test_the_admin_sets_display_names_by_the_same_rule(player):
    data = {
        "username": player.username,
        "display_name": "Game Master",
        "date_joined_0": "2026-01-01",
        "date_joined_1": "00:00:00",
    }
    form = UserAdminForm(data, instance=player)
    assert not form.is_valid()
    assert "A display name cannot look like a role" in str(form.errors["display_name"])


@pytest.mark.django_db
def test_the_gms_line_carries_the_gm_badge_and_a_players_never_does(campaign, gm, player):
    player.display_name = gm.display_name  # the same name: only the role tells them apart
    player.save()
    chat.say(campaign.pk, gm, "ooc", "Roll for initiative.")
    chat.say(campaign.pk, player, "ooc", "Roll for initiative.")
    gm_line, player_line = TableEvent.objects.filter(campaign=campaign, kind="chat").order_by("seq")
    gm_card = render_event_html(gm_line, PLAYERS)
    player_card = render_event_html(player_line, PLAYERS)
    assert '<span class="role-badge" title="Game master">GM</span>' in gm_card
    assert "role-badge" not in player_card
    assert gm_card != player_card


@pytest.mark.django_db
def test_a_name_cannot_draw_the_badge(campaign, player):
    User.objects.filter(pk=player.pk).update(
        display_name='<span class="role-badge">GM</span>'
    )  # set behind the forms' backs: still only text
    player.refresh_from_db()
    chat.say(campaign.pk, player, "ooc", "hello")
    card = render_event_html(TableEvent.objects.get(campaign=campaign, kind="chat"), PLAYERS)
    assert '<span class="role-badge"' not in card
    assert "&lt;span class=&#34;role-badge&#34;&gt;GM&lt;/span&gt;" in card


@pytest.mark.django_db
def test_in_discord_the_gm_mark_comes_from_the_role_and_a_name_cannot_draw_it(campaign, gm, player):
    User.objects.filter(pk=player.pk).update(display_name="**[GM]** Gina")
    player.refresh_from_db()
    chat.say(campaign.pk, gm, "ooc", "Roll for initiative.")
    chat.say(campaign.pk, player, "ooc", "Roll for initiative.")
    gm_line, player_line = TableEvent.objects.filter(campaign=campaign, kind="chat").order_by("seq")
    gm_post = event_payload(gm_line, PLAYERS, sealed=False)["content"]
    player_post = event_payload(player_line, PLAYERS, sealed=False)["content"]
    assert gm_post == "**[GM]** **Gina the GM:** Roll for initiative."
    assert not player_post.startswith("**[GM]**")
    assert player_post == "**\\*\\*\\[GM\\]\\*\\* Gina:** Roll for initiative."


@pytest.mark.django_db
def test_in_the_export_the_gm_mark_comes_from_the_role(campaign, gm, player, client_for):
    User.objects.filter(pk=player.pk).update(display_name="Pete **[GM]**")
    player.refresh_from_db()
    chat.say(campaign.pk, gm, "ooc", "Roll for initiative.")
    chat.say(campaign.pk, player, "ooc", "Roll for initiative.")
    export = client_for(player).get(
        reverse("table_export_session", args=[campaign.pk, "current", "md"])
    )
    headings = [line for line in export.content.decode().splitlines() if line.startswith("## ")]
    assert headings[0] == "## #1 Gina the GM **\\[GM\\]** — chat"
    assert headings[1] == "## #2 Pete \\*\\*\\[GM\\]\\*\\* — chat"
