"""Leaving, removing a member and revoking an invite ask first, without JavaScript: the
button's first POST answers "are you sure?" and changes nothing; its page's button acts."""

import pytest
from django.urls import reverse

from campaigns import services
from campaigns.models import Membership, Role

pytestmark = pytest.mark.django_db

CONFIRMED = {"confirm": "yes"}


def test_leaving_asks_first_and_leaves_once_confirmed(client_for, campaign, player):
    client = client_for(player)
    url = reverse("leave", args=[campaign.pk])
    asked = client.post(url)
    assert asked.status_code == 200
    text = asked.content.decode()
    assert f"Leave {campaign.name}?" in text
    assert 'name="confirm" value="yes"' in text
    assert f'href="{campaign.get_absolute_url()}"' in text  # Cancel goes back
    assert Membership.objects.filter(campaign=campaign, user=player).exists()
    left = client.post(url, CONFIRMED)
    assert left["Location"] == reverse("campaign_list")
    assert not Membership.objects.filter(campaign=campaign, user=player).exists()


def test_removing_a_member_asks_first_naming_them(client_for, campaign, gm, player):
    client = client_for(gm)
    member = Membership.objects.get(campaign=campaign, user=player)
    url = reverse("member_remove", args=[campaign.pk, member.pk])
    asked = client.post(url, {"confirm": "no"})
    assert asked.status_code == 200
    assert f"Remove {player.shown_name} from {campaign.name}?" in asked.content.decode()
    assert Membership.objects.filter(pk=member.pk).exists()
    assert client.post(url, CONFIRMED).status_code == 302
    assert not Membership.objects.filter(pk=member.pk).exists()


def test_revoking_an_invite_asks_first(client_for, campaign, gm):
    invite = services.create_invite(campaign, gm, Role.PLAYER)
    client = client_for(gm)
    url = reverse("invite_revoke", args=[campaign.pk, invite.pk])
    asked = client.post(url)
    assert "Revoke this invite link?" in asked.content.decode()
    invite.refresh_from_db()
    assert invite.is_active
    client.post(url, CONFIRMED)
    invite.refresh_from_db()
    assert not invite.is_active


def test_only_a_gm_is_asked_about_removing_someone(client_for, campaign, gm, player):
    """The role check comes first: a player gets no confirmation page to probe with."""
    own = Membership.objects.get(campaign=campaign, user=gm)
    answer = client_for(player).post(reverse("member_remove", args=[campaign.pk, own.pk]))
    assert answer.status_code == 403
    assert Membership.objects.filter(pk=own.pk).exists()
