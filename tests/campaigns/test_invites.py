"""Invites as a group's first night uses them: a link friends can open, a friend who has
no account yet, and one link for several campaigns."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from campaigns import services
from campaigns.links import qr_svg
from campaigns.models import Invite, Membership, Role
from rollcall import reach

LAN = "192.168.1.20"
ON_THE_NETWORK = {"HOST": "0.0.0.0", "LAN_ADDRESSES": [LAN, "tablehost.local"]}  # noqa: S104
LOOPBACK_ONLY = {"HOST": "127.0.0.1", "LAN_ADDRESSES": []}
ALLOWED = ["testserver", "127.0.0.1", "localhost", LAN, "table.example"]


def invite_links(page) -> list[str]:
    text = page.content.decode()
    return [
        html.unescape(v) for v in re.findall(r'aria-label="[^"]*invite link" value="([^"]+)"', text)
    ]


def members_page(client, campaign, host: str):
    return client.get(reverse("members", args=[campaign.pk]), HTTP_HOST=host)


# --------------------------------------------------------------------------- reaching the table


def test_an_invite_opened_on_this_machine_links_to_its_lan_address(
    settings, client_for, campaign, gm
):
    """The GM browses at 127.0.0.1 while the server listens on the network: the link
    carries the address friends can open, never one only this machine knows."""
    settings.ALLOWED_HOSTS = ALLOWED
    for name, value in ON_THE_NETWORK.items():
        setattr(settings, name, value)
    invite = services.create_invite(campaign, gm, Role.PLAYER)
    client = client_for(gm)
    for host in ("127.0.0.1:8000", "localhost:8000"):
        page = members_page(client, campaign, host)
        assert invite_links(page) == [f"http://{LAN}:8000/join/{invite.token}/"]
        assert "only open on this machine" not in page.content.decode()
    # Opened at the LAN address itself, the link keeps it.
    page = members_page(client, campaign, f"{LAN}:8000")
    assert invite_links(page) == [f"http://{LAN}:8000/join/{invite.token}/"]


def test_public_url_makes_invite_and_overlay_links(settings, client_for, campaign, gm):
    settings.ALLOWED_HOSTS = ALLOWED
    settings.PUBLIC_URL = "https://table.example"
    for name, value in LOOPBACK_ONLY.items():
        setattr(settings, name, value)
    invite = services.create_invite(campaign, gm, Role.PLAYER)
    client = client_for(gm)
    page = members_page(client, campaign, "127.0.0.1:8000")
    assert invite_links(page) == [f"https://table.example/join/{invite.token}/"]
    assert "only open on this machine" not in page.content.decode()
    made = client.post(
        reverse("overlay_create", args=[campaign.pk]),
        {"name": "Stream"},
        HTTP_HOST="127.0.0.1:8000",
    )
    assert "https://table.example/overlay/" in made.content.decode()


def test_a_link_only_this_machine_opens_is_flagged(settings, client_for, campaign, gm):
    settings.ALLOWED_HOSTS = ALLOWED
    for name, value in LOOPBACK_ONLY.items():
        setattr(settings, name, value)
    services.create_invite(campaign, gm, Role.PLAYER)
    page = members_page(client_for(gm), campaign, "127.0.0.1:8000")
    text = page.content.decode()
    assert "These links only open on this machine" in text
    assert "HOST=0.0.0.0 make run" in text and "PUBLIC_URL" in text


def test_the_gm_sees_a_qr_code_and_a_copy_button_for_each_link(settings, client_for, campaign, gm):
    settings.ALLOWED_HOSTS = ALLOWED
    for name, value in ON_THE_NETWORK.items():
        setattr(settings, name, value)
    invite = services.create_invite(campaign, gm, Role.PLAYER)
    url = f"http://{LAN}:8000/join/{invite.token}/"
    text = members_page(client_for(gm), campaign, "127.0.0.1:8000").content.decode()
    # The code drawn is the link's own, inline: no data: URI for the CSP to refuse.
    assert str(qr_svg(url, "QR code of the player invite link")) in text
    assert "<title>QR code of the player invite link</title>" in text
    assert "data:" not in text
    assert f'data-copy="{url}"' in text
    assert "data-copy-status" in text and 'aria-live="polite"' in text


def test_run_prints_every_address_friends_can_use(monkeypatch):
    monkeypatch.setattr(reach, "lan_addresses", lambda: [LAN, "10.0.0.5"])
    monkeypatch.setattr(reach, "machine_names", lambda: ["tablehost", "tablehost.local"])
    banner = reach.run_banner("0.0.0.0", "9000", None)  # noqa: S104
    for url in (f"http://{LAN}:9000/", "http://10.0.0.5:9000/", "http://tablehost.local:9000/"):
        assert url in banner
    assert "0.0.0.0" not in banner
    tunnel = reach.run_banner("127.0.0.1", "9000", "https://table.example/")
    assert "https://table.example/" in tunnel
    alone = reach.run_banner("127.0.0.1", "9000", None)
    assert "this machine only" in alone and "HOST=0.0.0.0 make run" in alone


def test_lan_addresses_are_none_only_this_machine_knows():
    for address in reach.lan_addresses():
        assert not reach.is_loopback(address) and not address.startswith("169.254.")
    assert reach.friend_hosts("127.0.0.1") == []


# --------------------------------------------------------------------------- joining


def test_a_logged_out_friend_is_told_what_the_invite_is(client, campaign, gm):
    invite = services.create_invite(campaign, gm, Role.PLAYER)
    opened = client.get(invite.get_absolute_url())
    assert opened.status_code == 302
    page = client.get(opened["Location"]).content.decode()
    assert "Firefly Nights" in page
    assert campaign.get_system_display() in page
    assert "Gina the GM" in page
    assert "You will join as <strong>Player</strong>" in page
    # Both ways in, on this page, each returning to the invite.
    assert "Sign up and join" in page and "Log in and join" in page
    assert page.count(f'name="next" value="{invite.get_absolute_url()}"') == 2
    assert 'id="signup_username"' in page and 'id="id_username"' in page
    # A link that is no invite, or no longer one, says nothing about any campaign.
    services.revoke_invite(campaign, invite.pk)
    for dead in (invite.token, "not-a-token"):
        page = client.get(reverse("login"), {"next": f"/join/{dead}/"}).content.decode()
        assert "Firefly Nights" not in page and "Gina" not in page
        assert "<h1>Log in</h1>" in page


def test_a_friend_signs_up_on_the_invite_and_lands_at_character_creation(client, campaign, gm):
    invite = services.create_invite(campaign, gm, Role.PLAYER)
    answer = client.post(
        reverse("signup"),
        {
            "username": "zoe",
            "display_name": "Zoe",
            "password1": "a long enough passphrase",
            "password2": "a long enough passphrase",
            "next": invite.get_absolute_url(),
        },
    )
    membership = Membership.objects.get(campaign=campaign, user__username="zoe")
    assert membership.role == Role.PLAYER
    assert answer.status_code == 302
    assert answer["Location"] == reverse("sheet_create", args=[campaign.pk])
    landed = client.get(answer["Location"]).content.decode()
    assert "You joined Firefly Nights as Player. Make your character next." in landed


def test_a_sign_up_with_a_mistake_keeps_the_invite(client, campaign, gm):
    invite = services.create_invite(campaign, gm, Role.PLAYER)
    page = client.post(
        reverse("signup"),
        {"username": "zoe", "password1": "a long passphrase", "password2": "another one",
         "next": invite.get_absolute_url()},
    ).content.decode()  # fmt: skip
    assert "Firefly Nights" in page and "Gina the GM" in page
    assert f'name="next" value="{invite.get_absolute_url()}"' in page
    assert 'value="zoe"' in page
    assert not Membership.objects.filter(user__username="zoe").exists()


def test_a_friend_with_an_account_logs_in_on_the_invite_and_is_in(client, campaign, gm, make_user):
    invite = services.create_invite(campaign, gm, Role.OBSERVER)
    make_user("wash", "Wash")
    answer = client.post(
        reverse("login"),
        {
            "username": "wash",
            "password": "correct horse battery",
            "next": invite.get_absolute_url(),
        },
    )
    assert Membership.objects.get(campaign=campaign, user__username="wash").role == Role.OBSERVER
    assert answer["Location"] == reverse("table", args=[campaign.pk])


def test_joining_by_the_button_lands_a_new_player_at_character_creation(
    client_for, campaign, gm, make_user
):
    invite = services.create_invite(campaign, gm, Role.PLAYER)
    answer = client_for(make_user("kaylee")).post(invite.get_absolute_url())
    assert answer["Location"] == reverse("sheet_create", args=[campaign.pk])
    # A member who follows it again goes to the table.
    again = client_for(gm).post(invite.get_absolute_url())
    assert again["Location"] == reverse("table", args=[campaign.pk])


def test_the_gm_invites_players_from_the_campaign_page_in_one_press(
    client_for, campaign, gm, player
):
    """A new campaign's page says "Invite your players next": it has the button that
    does it, which lands on the link, its QR code and Copy; once a link exists, the page
    shows the way to it instead of making another."""
    home = reverse("campaign_home", args=[campaign.pk])
    page = client_for(gm).get(home).content.decode()
    assert "Invite players</button>" in page
    assert f'action="{reverse("invite_create", args=[campaign.pk])}"' in page
    made = client_for(gm).post(reverse("invite_create", args=[campaign.pk]), {"role": "player"})
    assert made["Location"] == reverse("members", args=[campaign.pk])
    [invite] = services.active_invites(campaign)
    assert invite.role == Role.PLAYER
    members = client_for(gm).get(made["Location"], HTTP_HOST="127.0.0.1")
    assert invite_links(members) == [f"http://127.0.0.1{invite.get_absolute_url()}"]
    page = client_for(gm).get(home).content.decode()
    assert "Invite players</button>" not in page
    assert "Show the invite link</a>" in page
    # A player is shown neither: invites are the GM's.
    page = client_for(player).get(home).content.decode()
    assert "Invite players" not in page and "Show the invite link" not in page


# --------------------------------------------------------------------------- several campaigns


@pytest.fixture
def second(gm):
    return services.create_campaign(
        gm, name="Smallville Saturdays", description="", system="smallville"
    )


def test_one_invite_covers_several_of_the_gms_campaigns(
    client_for, campaign, second, gm, make_user
):
    gm_client = client_for(gm)
    form = gm_client.get(reverse("members", args=[campaign.pk])).content.decode()
    assert "Also invite to" in form and "Smallville Saturdays" in form
    gm_client.post(
        reverse("invite_create", args=[campaign.pk]),
        {"role": Role.PLAYER, "extra_campaigns": [second.pk]},
    )
    invite = Invite.objects.get()
    # Listed on both campaigns' pages, saying what it joins.
    for page_of in (campaign, second):
        page = gm_client.get(reverse("members", args=[page_of.pk]))
        assert invite_links(page) == [f"http://testserver/join/{invite.token}/"]
        assert "Joins Firefly Nights and Smallville Saturdays." in page.content.decode()
    friend = make_user("river")
    welcome = client_for(None).get(reverse("login"), {"next": invite.get_absolute_url()})
    text = welcome.content.decode()
    assert "Firefly Nights" in text and "Smallville Saturdays" in text
    assert second.get_system_display() in text
    client_for(friend).post(invite.get_absolute_url())
    roles = dict(Membership.objects.filter(user=friend).values_list("campaign__name", "role"))
    assert roles == {"Firefly Nights": Role.PLAYER, "Smallville Saturdays": Role.PLAYER}


def test_an_invite_cannot_cover_a_campaign_the_gm_does_not_run(client_for, campaign, gm, make_user):
    other_gm = make_user("badger")
    theirs = services.create_campaign(other_gm, name="Not yours", description="", system="serenity")
    answer = client_for(gm).post(
        reverse("invite_create", args=[campaign.pk]),
        {"role": Role.PLAYER, "extra_campaigns": [theirs.pk]},
        follow=True,
    )
    assert "An invite can only cover campaigns you are a GM of." in answer.content.decode()
    assert not Invite.objects.exists()


def test_regenerating_keeps_every_campaign_and_revoking_from_either_stops_it(
    client_for, campaign, second, gm
):
    invite = services.create_invite(campaign, gm, Role.PLAYER, [second])
    fresh = services.regenerate_invite(second, invite.pk, gm)
    assert [c.name for c in fresh.covered_campaigns()] == ["Firefly Nights", "Smallville Saturdays"]
    client_for(gm).post(reverse("invite_revoke", args=[second.pk, fresh.pk]), {"confirm": "yes"})
    fresh.refresh_from_db()
    assert not fresh.is_active


def test_a_campaign_its_maker_no_longer_runs_is_left_out(
    client_for, campaign, second, gm, make_user
):
    invite = services.create_invite(campaign, gm, Role.PLAYER, [second])
    heir = make_user("heir")
    Membership.objects.create(campaign=second, user=heir, role=Role.GM)
    Membership.objects.filter(campaign=second, user=gm).delete()
    friend = make_user("jayne")
    client_for(friend).post(invite.get_absolute_url())
    assert list(
        Membership.objects.filter(user=friend).values_list("campaign__name", flat=True)
    ) == ["Firefly Nights"]
