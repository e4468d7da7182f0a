import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse

from rules.registry import get_system, system_choices


class Role(models.TextChoices):
    GM = "gm", "GM"
    PLAYER = "player", "Player"
    OBSERVER = "observer", "Observer"


class Campaign(models.Model):
    name = models.CharField(max_length=80)
    description = models.TextField(blank=True, max_length=2000)
    system = models.CharField(max_length=20, choices=system_choices)
    # Players may whisper to each other (the GMs read those too); whispers to and from
    # the GM need no leave.
    player_whispers = models.BooleanField(
        "Players may whisper to each other",
        default=False,
        help_text="The GMs read those whispers too; other players see only that one was sent.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    members = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="Membership", related_name="campaigns"
    )

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("campaign_home", args=[self.pk])

    @property
    def game(self):
        return get_system(self.system)

    @property
    def active_scene(self) -> "Scene | None":
        return self.scenes.filter(status=Scene.Status.ACTIVE).first()


class Membership(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=10, choices=Role.choices)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="one_membership_per_user")
        ]
        ordering = ["role", "joined_at"]

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()}) in {self.campaign}"

    @property
    def is_gm(self) -> bool:
        return self.role == Role.GM

    @property
    def can_play(self) -> bool:
        """GMs and players act at the table; observers only watch."""
        return self.role in (Role.GM, Role.PLAYER)


def new_invite_token() -> str:
    return secrets.token_urlsafe(24)


class Invite(models.Model):
    """A link a GM shares; whoever opens it signed in can join with its role.

    It is made on one campaign's page (`campaign`) and may cover more of the same GM's
    campaigns (`extra_campaigns`): joining adds the member to each, with the same role."""

    JOINABLE_ROLES = [(Role.PLAYER, "Player"), (Role.OBSERVER, "Observer")]

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="invites")
    extra_campaigns = models.ManyToManyField(Campaign, blank=True, related_name="shared_invites")
    token = models.CharField(max_length=64, unique=True, default=new_invite_token)
    role = models.CharField(max_length=10, choices=JOINABLE_ROLES, default=Role.PLAYER)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True)
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.get_role_display()} invite to {self.campaign}"

    def get_absolute_url(self) -> str:
        return reverse("join", args=[self.token])

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None

    def covered_campaigns(self) -> list[Campaign]:
        """The campaign it was made on first, then the others it covers, by name."""
        return [self.campaign, *(c for c in self.extra_campaigns.all() if c.pk != self.campaign_id)]


class Scene(models.Model):
    class Status(models.TextChoices):
        PLANNED = "planned", "Planned"
        ACTIVE = "active", "Active"
        ENDED = "ended", "Ended"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="scenes")
    title = models.CharField(max_length=120)
    description = models.TextField(blank=True, max_length=4000)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLANNED)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign"],
                condition=Q(status="active"),
                name="one_active_scene_per_campaign",
            )
        ]

    def __str__(self) -> str:
        return self.title
