"""Campaigns, roles, invites and scenes as a GM and players use them."""

import pytest
from django.urls import reverse

from campaigns import services
from campaigns.models import Campaign, Invite, Membership, Role, Scene

CONFIRMED = {"confirm": "yes"}  # the second step of a destructive button


def test_creator_becomes_gm_and_sees_campaign_in_list(client_for, make_user):
    ann = make_user("ann")
    c = client_for(ann)
    response = c.post(
        reverse("campaign_create"),
        {"name": "Lowell County", "description": "Meteor rocks.", "system": "smallville"},
    )
    campaign = Campaign.objects.get(name="Lowell County")
    assert response["Location"] == campaign.get_absolute_url()
    assert Membership.objects.get(campaign=campaign, user=ann).role == Role.GM
    page = c.get(reverse("campaign_list")).content.decode()
    assert "Lowell County" in page and "Smallville" in page


@pytest.mark.parametrize(
    "data, message",
    [
        ({"name": "", "system": "serenity"}, "This field is required"),
        ({"name": "X", "system": "d20"}, "Select a valid choice"),
        ({"name": "x" * 81, "system": "serenity"}, "at most 80 characters"),
    ],
)
def test_create_campaign_errors_are_shown_and_nothing_saved(client_for, make_user, data, message):
    response = client_for(make_user("ann")).post(reverse("campaign_create"), data)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Campaign.objects.exists()


def test_invite_link_joins_with_its_role(client_for, campaign, gm, make_user):
    invite = services.create_invite(campaign, gm, Role.OBSERVER)
    newcomer = make_user("nina")
    c = client_for(newcomer)
    page = c.get(invite.get_absolute_url())
    assert "Join as Observer" in page.content.decode()
    c.post(invite.get_absolute_url())
    assert Membership.objects.get(campaign=campaign, user=newcomer).role == Role.OBSERVER
    # Joining twice changes nothing.
    c.post(invite.get_absolute_url())
    assert Membership.objects.filter(campaign=campaign, user=newcomer).count() == 1


def test_invite_requires_login(client, campaign, gm):
    invite = services.create_invite(campaign, gm, Role.PLAYER)
    response = client.get(invite.get_absolute_url())
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_revoked_and_bad_invites_explain_themselves(client_for, campaign, gm, make_user):
    invite = services.create_invite(campaign, gm, Role.PLAYER)
    new = services.regenerate_invite(campaign, invite.pk, gm)
    assert new.token != invite.token and new.role == Role.PLAYER
    c = client_for(make_user("nina"))
    revoked = c.post(invite.get_absolute_url())
    assert revoked.status_code == 404 and "revoked" in revoked.content.decode()
    bogus = c.get(reverse("join", args=["not-a-token"]))
    assert bogus.status_code == 404 and "not valid" in bogus.content.decode()
    assert not Membership.objects.filter(user__username="nina").exists()


def test_gm_changes_roles_and_removes_members(client_for, campaign, gm, player):
    c = client_for(gm)
    m = Membership.objects.get(campaign=campaign, user=player)
    c.post(reverse("member_role", args=[campaign.pk, m.pk]), {"role": "observer"})
    m.refresh_from_db()
    assert m.role == Role.OBSERVER
    c.post(reverse("member_remove", args=[campaign.pk, m.pk]), CONFIRMED)
    assert not Membership.objects.filter(pk=m.pk).exists()


def test_campaign_always_keeps_a_gm(client_for, campaign, gm):
    own = Membership.objects.get(campaign=campaign, user=gm)
    c = client_for(gm)
    response = c.post(
        reverse("member_role", args=[campaign.pk, own.pk]), {"role": "player"}, follow=True
    )
    assert "at least one GM" in response.content.decode()
    c.post(reverse("member_remove", args=[campaign.pk, own.pk]), CONFIRMED)
    response = c.post(reverse("leave", args=[campaign.pk]), CONFIRMED, follow=True)
    assert "only GM" in response.content.decode()
    own.refresh_from_db()
    assert own.role == Role.GM


def test_second_gm_lets_the_first_step_down(campaign, gm, player):
    p = Membership.objects.get(campaign=campaign, user=player)
    services.change_role(campaign, p.pk, Role.GM)
    own = Membership.objects.get(campaign=campaign, user=gm)
    services.change_role(campaign, own.pk, Role.PLAYER)
    assert Membership.objects.filter(campaign=campaign, role=Role.GM).count() == 1


def test_member_can_leave(client_for, campaign, player):
    response = client_for(player).post(reverse("leave", args=[campaign.pk]), CONFIRMED)
    assert response["Location"] == reverse("campaign_list")
    assert not Membership.objects.filter(campaign=campaign, user=player).exists()


def test_only_one_scene_active_at_a_time(client_for, campaign, gm):
    c = client_for(gm)
    c.post(reverse("scenes", args=[campaign.pk]), {"title": "Docks", "description": ""})
    c.post(reverse("scenes", args=[campaign.pk]), {"title": "Train", "description": ""})
    docks, train = Scene.objects.get(title="Docks"), Scene.objects.get(title="Train")
    c.post(reverse("scene_start", args=[campaign.pk, docks.pk]))
    c.post(reverse("scene_start", args=[campaign.pk, train.pk]))
    docks.refresh_from_db()
    train.refresh_from_db()
    assert docks.status == Scene.Status.ENDED and train.status == Scene.Status.ACTIVE
    assert campaign.active_scene == train
    c.post(reverse("scene_end", args=[campaign.pk, train.pk]))
    assert campaign.active_scene is None
    home = c.get(campaign.get_absolute_url()).content.decode()
    assert "No scene is running" in home


def test_ended_scene_cannot_restart(campaign):
    scene = services.create_scene(campaign, title="Docks", description="")
    services.start_scene(campaign, scene.pk)
    services.end_scene(campaign, scene.pk)
    with pytest.raises(services.CampaignError, match="has ended"):
        services.start_scene(campaign, scene.pk)


def test_invite_regenerate_keeps_one_active(campaign, gm):
    invite = services.create_invite(campaign, gm, Role.PLAYER)
    services.regenerate_invite(campaign, invite.pk, gm)
    assert Invite.objects.filter(campaign=campaign, revoked_at__isnull=True).count() == 1
