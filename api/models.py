"""API tokens and overlay links: stored as the SHA-256 digest of their secret (api/keys.py)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from campaigns.models import Campaign, Membership

from . import keys


class ApiToken(models.Model):
    """A member's personal token for one campaign. It reads what its member may see at
    the moment of each request: it follows a change of role, and it goes when the member
    leaves or is removed (the membership's deletion takes its tokens)."""

    membership = models.ForeignKey(Membership, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=60)
    key_id = models.CharField(max_length=keys.ID_LENGTH, unique=True)
    digest = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.shown})"

    @property
    def shown(self) -> str:
        return keys.shown(keys.TOKEN, self.key_id)


class OverlayLink(models.Model):
    """A GM's link for a stream overlay: the campaign's last public events, as players
    see them (sealed cards for hidden rolls). Whoever holds the link sees that, and
    nothing else; revoking it closes it at once."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="overlay_links")
    name = models.CharField(max_length=60)
    key_id = models.CharField(max_length=keys.ID_LENGTH, unique=True)
    digest = models.CharField(max_length=64)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.shown})"

    @property
    def shown(self) -> str:
        return keys.shown(keys.OVERLAY, self.key_id)
