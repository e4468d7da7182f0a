"""Changes to campaigns, memberships, invites and scenes.

Each function validates, changes state in one transaction with the campaign row
locked, and raises CampaignError with a message for the user when it refuses.
"""

from __future__ import annotations

import re

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from accounts.text import shown_text

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


def gm_campaigns(user) -> list[Campaign]:
    """The campaigns `user` is a GM of, by name: what one invite may cover."""
    return list(Campaign.objects.filter(memberships__user=user, memberships__role=Role.GM))


@transaction.atomic
def create_invite(campaign: Campaign, user, role: str, extra_campaigns=()) -> Invite:
    """An invite to `campaign`, and to each of `extra_campaigns`, which `user` must GM."""
    if role not in (Role.PLAYER, Role.OBSERVER):
        raise CampaignError("Invites are for players or observers.")
    extra = {c.pk: c for c in extra_campaigns if c.pk != campaign.pk}
    gm_of = {c.pk for c in gm_campaigns(user)}
    if any(pk not in gm_of for pk in extra):
        raise CampaignError("An invite can only cover campaigns you are a GM of.")
    invite = Invite.objects.create(campaign=campaign, role=role, created_by=user)
    invite.extra_campaigns.set(extra.values())
    return invite


def _covering(campaign: Campaign):
    """Invites that let people into `campaign`: made on it, or covering it too."""
    return Invite.objects.filter(Q(campaign=campaign) | Q(extra_campaigns=campaign)).distinct()


def active_invites(campaign: Campaign) -> list[Invite]:
    return list(
        _covering(campaign)
        .filter(revoked_at__isnull=True)
        .select_related("campaign")
        .prefetch_related("extra_campaigns")
    )


@transaction.atomic
def revoke_invite(campaign: Campaign, invite_id: int) -> Invite:
    found = _covering(campaign).filter(pk=invite_id).values_list("pk", flat=True).first()
    invite = Invite.objects.select_for_update().filter(pk=found).first() if found else None
    if invite is None:
        raise CampaignError("No such invite.")
    if invite.revoked_at is None:
        invite.revoked_at = timezone.now()
        invite.save(update_fields=["revoked_at"])
    return invite


@transaction.atomic
def regenerate_invite(campaign: Campaign, invite_id: int, user) -> Invite:
    """A new link in place of the old one, for the same role and campaigns."""
    old = revoke_invite(campaign, invite_id)
    fresh = Invite.objects.create(campaign=old.campaign, role=old.role, created_by=user)
    fresh.extra_campaigns.set(old.extra_campaigns.all())
    return fresh


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


def joinable_campaigns(invite: Invite) -> list[Campaign]:
    """What joining by `invite` adds its holder to: the campaign it was made on, and each
    other one it covers whose GM its maker still is."""
    campaigns = invite.covered_campaigns()
    if len(campaigns) == 1:
        return campaigns
    still_gm = {c.pk for c in gm_campaigns(invite.created_by)} if invite.created_by else set()
    return [campaigns[0], *(c for c in campaigns[1:] if c.pk in still_gm)]


@transaction.atomic
def join(invite: Invite, user) -> list[tuple[Membership, bool]]:
    """Join each campaign the invite covers with its role; an existing member keeps their
    role. The campaigns are locked in id order (campaigns.locking), the answer is in the
    invite's order."""
    campaigns = joinable_campaigns(invite)
    for campaign in sorted(campaigns, key=lambda c: c.pk):
        _lock(campaign)
    return [
        Membership.objects.get_or_create(campaign=c, user=user, defaults={"role": invite.role})
        for c in campaigns
    ]


def create_scene(campaign: Campaign, *, title: str, description: str) -> Scene:
    """Every way a scene is made goes through here, so its words never carry hidden
    characters (accounts.text.shown_text), whichever form they came from."""
    title = shown_text(title).strip()
    if not title:
        raise CampaignError("Give the new scene a title.")
    return Scene.objects.create(
        campaign=campaign, title=title, description=shown_text(description).strip()
    )


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
