"""Character sheets: a sheet per character, traits in the groups its system's template defines.

Counters (plot points, Drama Points, criticals, ...) are rows of their own so a
spend is one conditional UPDATE: two spends of the last point can never both win.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.urls import reverse

from campaigns.models import Campaign


class Sheet(models.Model):
    class Kind(models.TextChoices):
        PC = "pc", "Player character"
        NPC = "npc", "GM character"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="sheets")
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="sheets",
        help_text="The player who plays this character; empty for GM characters.",
    )
    name = models.CharField(max_length=80)
    kind = models.CharField(max_length=3, choices=Kind.choices, default=Kind.PC)
    npc_kind = models.CharField(
        max_length=20,
        blank=True,
        help_text="For GM characters: boss, plot or mob (Cortex); guest_star or adversary (Unisystem).",
    )
    hidden = models.BooleanField(
        default=False, help_text="Hidden GM characters are seen only by GMs."
    )
    notes = models.TextField(blank=True, max_length=4000)
    overrides = models.JSONField(default=dict, blank=True)
    version = models.PositiveIntegerField(
        default=1, help_text="Rises on every change to the sheet's own fields (name, notes, ...)."
    )
    portrait_version = models.PositiveIntegerField(
        default=0,
        help_text="Rises on every portrait upload or removal: part of the portrait's address and ETag.",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="Who made it (the form or an import): counted against their cap of sheets.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["kind", "name", "id"]
        indexes = [models.Index(fields=["campaign", "created_by"])]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("sheet_detail", args=[self.campaign_id, self.pk])


class Trait(models.Model):
    """One line of a sheet. `version` rises on every save so a stale edit is refused."""

    sheet = models.ForeignKey(Sheet, on_delete=models.CASCADE, related_name="traits")
    group = models.CharField(max_length=40)
    name = models.CharField(max_length=80)
    die = models.PositiveSmallIntegerField(null=True, blank=True)
    plus_die = models.PositiveSmallIntegerField(null=True, blank=True)
    rating = models.IntegerField(null=True, blank=True)
    parent = models.ForeignKey(
        "self", on_delete=models.CASCADE, null=True, blank=True, related_name="children"
    )
    link = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="linked_from"
    )
    flags = models.JSONField(default=dict, blank=True)
    notes = models.CharField(max_length=500, blank=True)
    position = models.PositiveIntegerField(default=0)
    version = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = ["group", "position", "id"]
        indexes = [models.Index(fields=["sheet", "group", "position"])]

    def __str__(self) -> str:
        return self.name

    @property
    def die_label(self) -> str:
        if self.die is None:
            return ""
        return f"d{self.die}" + (f"+d{self.plus_die}" if self.plus_die else "")


class Counter(models.Model):
    sheet = models.ForeignKey(Sheet, on_delete=models.CASCADE, related_name="counters")
    key = models.CharField(max_length=40)
    value = models.IntegerField(default=0)
    version = models.PositiveIntegerField(default=1)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["sheet", "key"], name="one_counter_per_key"),
        ]

    def __str__(self) -> str:
        return f"{self.key}={self.value}"

    @classmethod
    def spend(cls, sheet_id: int, key: str, amount: int) -> bool:
        """Take `amount` if the counter holds that much; False (and no change) otherwise."""
        updated = cls.objects.filter(Q(sheet_id=sheet_id, key=key, value__gte=amount)).update(
            value=F("value") - amount, version=F("version") + 1
        )
        return updated == 1

    @classmethod
    def add(cls, sheet_id: int, key: str, amount: int, maximum: int | None = None) -> bool:
        """Give `amount`, refusing to pass `maximum` when one is given."""
        rows = cls.objects.filter(sheet_id=sheet_id, key=key)
        if maximum is not None:
            rows = rows.filter(value__lte=maximum - amount)
        return rows.update(value=F("value") + amount, version=F("version") + 1) == 1


class SheetPortrait(models.Model):
    """A character's portrait as served: always a 256×256 WebP the server drew from the
    upload (sheets/portraits.py), never the uploaded bytes. Kept beside the sheet, not on
    it, so reading a sheet never reads the picture."""

    sheet = models.OneToOneField(Sheet, on_delete=models.CASCADE, related_name="portrait")
    data = models.BinaryField()
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Portrait of sheet {self.sheet_id}"
