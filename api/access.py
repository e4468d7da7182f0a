"""Who holds a key and what it opens: the services behind the token page, the API and
the overlay. Views parse and authorize; everything that creates, finds or revokes a
token or an overlay link is here."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.ratelimit import Limit
from campaigns.models import Campaign, Membership
from table.log import visibility

from . import keys
from .models import ApiToken, OverlayLink

TOUCH_EVERY = dt.timedelta(minutes=1)  # how stale "last used" may be: one write a minute


class Refused(Exception):
    """A request the token page turns down, with the sentence to show."""


@dataclass(frozen=True)
class Access:
    """A valid token and the membership it reads as, at this moment."""

    token: ApiToken
    membership: Membership

    @property
    def campaign(self) -> Campaign:
        return self.membership.campaign

    @property
    def audience(self) -> str:
        """The one gate's audience for the member's role now (table.log.visibility)."""
        return visibility.audience_of(self.membership)


# --------------------------------------------------------------------------- tokens


def authenticate(text: object) -> Access | None:
    """The access a token gives, or None for an unknown, malformed or revoked token (all
    refused alike). The member's role is read now, so a token follows a role change."""
    parts = keys.split(text, keys.TOKEN)
    if parts is None:
        return None
    key_id, secret = parts
    token = (
        ApiToken.objects.select_related("membership__campaign", "membership__user")
        .filter(key_id=key_id, revoked_at__isnull=True)
        .first()
    )
    if not keys.matches(secret, token.digest if token is not None else None):
        return None
    return Access(token, token.membership)


def current_audience(token_id: int) -> str | None:
    """The audience a token reads as now, or None once it is revoked or its member has
    left: a stream asks before each batch it sends."""
    role = (
        ApiToken.objects.filter(pk=token_id, revoked_at__isnull=True)
        .values_list("membership__role", flat=True)
        .first()
    )
    return None if role is None else visibility.audience_of(Membership(role=role))


def touch(token: ApiToken) -> None:
    """Record that the token was used, at most once a minute (it is shown on the page)."""
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at >= TOUCH_EVERY:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now


def token_limit() -> Limit | None:
    """API_TOKEN_RATE requests per API_TOKEN_WINDOW seconds for each token (0: none).
    accounts.ratelimit counts in the default cache, shared by every process with Redis;
    the request past the rate locks the token until its window closes."""
    rate, window = settings.API_TOKEN_RATE, settings.API_TOKEN_WINDOW
    if rate <= 0 or window <= 0:
        return None
    return Limit("api-token", rate + 1, window)


def spend(token: ApiToken) -> int:
    """Count one request of the token: 0 when it may go ahead, else the seconds to wait."""
    limit = token_limit()
    return 0 if limit is None else limit.hit(token.key_id)


def active_tokens(membership: Membership):
    return ApiToken.objects.filter(membership=membership, revoked_at__isnull=True)


def _name(name: str, what: str) -> str:
    name = " ".join(str(name or "").split())
    if not name:
        raise Refused(f"Give the {what} a name, so you know later what uses it.")
    if len(name) > 60:
        raise Refused(f"A {what}'s name is at most 60 characters.")
    return name


@transaction.atomic
def create_token(membership: Membership, name: str) -> tuple[ApiToken, str]:
    """A new token for the member at their campaign; its text is returned once."""
    name = _name(name, "token")
    Membership.objects.select_for_update().filter(pk=membership.pk).first()  # one at a time
    if active_tokens(membership).count() >= settings.API_TOKENS_PER_MEMBER:
        raise Refused(
            f"You have {settings.API_TOKENS_PER_MEMBER} tokens for this campaign already: "
            "revoke one you no longer use first."
        )
    new = keys.new_key(keys.TOKEN)
    token = ApiToken.objects.create(
        membership=membership, name=name, key_id=new.key_id, digest=new.digest
    )
    return token, new.text


def revoke_token(membership: Membership, token_id: int) -> ApiToken | None:
    """Revoke one of the member's own tokens; None when they have no such token. The
    next request with it is refused, and an open stream stops before its next event."""
    token = active_tokens(membership).filter(pk=token_id).first()
    if token is None:
        return None
    ApiToken.objects.filter(pk=token.pk).update(revoked_at=timezone.now())
    return token


# --------------------------------------------------------------------------- overlay links


def active_overlays(campaign: Campaign):
    return OverlayLink.objects.filter(campaign=campaign, revoked_at__isnull=True)


@transaction.atomic
def create_overlay(campaign: Campaign, user, name: str) -> tuple[OverlayLink, str]:
    """A new overlay link (the caller checked the user is a GM); its text is returned once."""
    name = _name(name, "link")
    Campaign.objects.select_for_update().filter(pk=campaign.pk).first()
    if active_overlays(campaign).count() >= settings.OVERLAY_LINKS_PER_CAMPAIGN:
        raise Refused(
            f"This campaign has {settings.OVERLAY_LINKS_PER_CAMPAIGN} overlay links already: "
            "revoke one first."
        )
    new = keys.new_key(keys.OVERLAY)
    link = OverlayLink.objects.create(
        campaign=campaign, name=name, key_id=new.key_id, digest=new.digest, created_by=user
    )
    return link, new.text


def revoke_overlay(campaign: Campaign, link_id: int) -> OverlayLink | None:
    link = active_overlays(campaign).filter(pk=link_id).first()
    if link is None:
        return None
    OverlayLink.objects.filter(pk=link.pk).update(revoked_at=timezone.now())
    return link


def find_overlay(text: object) -> OverlayLink | None:
    """The live overlay link with this text, or None (unknown and revoked alike)."""
    parts = keys.split(text, keys.OVERLAY)
    if parts is None:
        return None
    key_id, secret = parts
    link = OverlayLink.objects.filter(key_id=key_id, revoked_at__isnull=True).first()
    if not keys.matches(secret, link.digest if link is not None else None):
        return None
    return link


def overlay_live(link_id: int) -> bool:
    return OverlayLink.objects.filter(pk=link_id, revoked_at__isnull=True).exists()


def overlay_limit() -> Limit | None:
    """Page loads and stream opens of one overlay link, on the token's budget."""
    rate, window = settings.API_TOKEN_RATE, settings.API_TOKEN_WINDOW
    if rate <= 0 or window <= 0:
        return None
    return Limit("overlay", rate + 1, window)


def spend_overlay(link: OverlayLink) -> int:
    limit = overlay_limit()
    return 0 if limit is None else limit.hit(link.key_id)
