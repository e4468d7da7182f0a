"""Changes to campaigns, memberships, invites and scenes.

Each function validates, changes state in one transaction with the campaign row
locked, and raises CampaignError with a message for the user when it refuses.
"""

from __future__ import annotations

import re

from django.db import transaction
from django.utils import timezone

from . import signals
from .locking import retry_conflicts
from .models import Campaign, Invite, Membership, Role, Scene


class CampaignError(Exception):
    """A refused change; the message is shown to the user."""


def _lock(campaign: Campaign) -> Campaign:
    """The first lock of a campaign-level change (campaigns.locking's order), NO KEY so
    that rows referring to the campaign can still be inserted meanwhile."""
    return Campaign.objects.select_for_update(no_key=True).get(pk=campaign.pk)


@transaction.atomic
def create_campaign(user, *, name: str, description: str, system: str) -> Campaign:
    campaign = Campaign.objects.create(name=name, description=description, system=system)
    Membership.objects.create(campaign=campaign, user=user, role=Role.GM)
    return campaign


def _other_gms(campaign: Campaign, membership: Membership) -> int:
    return (
        Membership.objects.filter(campaign=campaign, role=Role.GM).exclude(pk=membership.pk).count()
    )


@transaction.atomic
def change_role(campaign: Campaign, membership_id: int, role: str) -> Membership:
    _lock(campaign)
    if role not in Role.values:
        raise CampaignError("That is not a role.")
    membership = Membership.objects.filter(campaign=campaign, pk=membership_id).first()
    if membership is None:
        raise CampaignError("That person is not a member of this campaign.")
    if membership.role == Role.GM and role != Role.GM and _other_gms(campaign, membership) == 0:
        raise CampaignError("A campaign needs at least one GM: make someone else GM first.")
    membership.role = role
    membership.save(update_fields=["role"])
    return membership


@transaction.atomic
def remove_member(campaign: Campaign, membership_id: int) -> Membership:
    _lock(campaign)
    membership = Membership.objects.filter(campaign=campaign, pk=membership_id).first()
    if membership is None:
        raise CampaignError("That person is not a member of this campaign.")
    if membership.role == Role.GM and _other_gms(campaign, membership) == 0:
        raise CampaignError("A campaign needs at least one GM: make someone else GM first.")
    membership.delete()
    return membership


def leave(campaign: Campaign, membership: Membership) -> None:
    try:
        remove_member(campaign, membership.pk)
    except CampaignError as exc:
        raise CampaignError("You are the only GM: make someone else GM before you leave.") from exc


def create_invite(campaign: Campaign, user, role: str) -> Invite:
    if role not in (Role.PLAYER, Role.OBSERVER):
        raise CampaignError("Invites are for players or observers.")
    return Invite.objects.create(campaign=campaign, role=role, created_by=user)


@transaction.atomic
def revoke_invite(campaign: Campaign, invite_id: int) -> Invite:
    invite = Invite.objects.select_for_update().filter(campaign=campaign, pk=invite_id).first()
    if invite is None:
        raise CampaignError("No such invite.")
    if invite.revoked_at is None:
        invite.revoked_at = timezone.now()
        invite.save(update_fields=["revoked_at"])
    return invite


@transaction.atomic
def regenerate_invite(campaign: Campaign, invite_id: int, user) -> Invite:
    old = revoke_invite(campaign, invite_id)
    return create_invite(campaign, user, old.role)


# What Invite tokens are made of (secrets.token_urlsafe). Anything else is no invite's,
# and is not sent to the database: PostgreSQL refuses text holding a NUL byte.
TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")


def find_invite(token: str) -> Invite:
    invite = None
    if TOKEN.fullmatch(token):
        invite = Invite.objects.select_related("campaign").filter(token=token).first()
    if invite is None:
        raise CampaignError(
            "This invite link is not valid. Check that you copied all of it, "
            "or ask your GM for a new one."
        )
    if not invite.is_active:
        raise CampaignError("This invite link was revoked by the GM. Ask them for a new one.")
    return invite


@transaction.atomic
def join(invite: Invite, user) -> tuple[Membership, bool]:
    """Join with the invite's role; an existing member keeps their role."""
    campaign = _lock(invite.campaign)
    membership, created = Membership.objects.get_or_create(
        campaign=campaign, user=user, defaults={"role": invite.role}
    )
    return membership, created


def create_scene(campaign: Campaign, *, title: str, description: str) -> Scene:
    return Scene.objects.create(campaign=campaign, title=title, description=description)


@retry_conflicts
@transaction.atomic
def start_scene(campaign: Campaign, scene_id: int, user=None) -> tuple[Scene, Scene | None]:
    """Start a scene; a scene still running is ended first (only one is active).

    Both are announced inside this transaction (campaigns.signals), and the table logs
    them there: ending a scene expires what was kept for it (Trouble Pool, contests,
    bought hitches, trackers, ...).
    """
    _lock(campaign)
    scene = Scene.objects.filter(campaign=campaign, pk=scene_id).first()
    if scene is None:
        raise CampaignError("No such scene.")
    if scene.status == Scene.Status.ACTIVE:
        raise CampaignError("That scene is already running.")
    if scene.status == Scene.Status.ENDED:
        raise CampaignError("That scene has ended; create a new one to continue the story.")
    ended = None
    current = Scene.objects.filter(campaign=campaign, status=Scene.Status.ACTIVE).first()
    if current is not None:
        ended = _end(current)
        signals.scene_ended.send(Scene, campaign=campaign, scene=ended, user=user)
    scene.status = Scene.Status.ACTIVE
    scene.started_at = timezone.now()
    scene.save(update_fields=["status", "started_at"])
    signals.scene_started.send(Scene, campaign=campaign, scene=scene, user=user)
    return scene, ended


def _end(scene: Scene) -> Scene:
    scene.status = Scene.Status.ENDED
    scene.ended_at = timezone.now()
    scene.save(update_fields=["status", "ended_at"])
    return scene


@retry_conflicts
@transaction.atomic
def end_scene(campaign: Campaign, scene_id: int, user=None) -> Scene:
    """End the running scene; announced inside this transaction, like start_scene's."""
    _lock(campaign)
    scene = Scene.objects.filter(campaign=campaign, pk=scene_id).first()
    if scene is None:
        raise CampaignError("No such scene.")
    if scene.status != Scene.Status.ACTIVE:
        raise CampaignError("Only a running scene can be ended.")
    _end(scene)
    signals.scene_ended.send(Scene, campaign=campaign, scene=scene, user=user)
    return scene
