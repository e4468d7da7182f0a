"""Discord webhooks of a campaign and the outbox of messages waiting for them.

A campaign has at most one `Webhook` per audience: the public log (what players see)
and, optionally, a GM-only channel (what only GMs see). Its URL is a secret: stored
encrypted (integrations.vault), shown only masked (`url_hint`).

`Message` is the outbox: one row per hook that should post an event, written by
integrations.outbox in the same transaction as the event itself (table.signals), so an
event is never logged without its messages nor a message queued for an event that was
rolled back. The worker (integrations.worker) delivers each hook's rows in id order,
which is the log's order, one at a time.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from campaigns.models import Campaign
from table.models import TableEvent


class Audience(models.TextChoices):
    PUBLIC = "public", "Public log"
    GM = "gm", "GM-only channel"


class Webhook(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", "Active"
        BROKEN = "broken", "Stopped"  # Discord refused the hook itself: the GM must act

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="discord_hooks")
    audience = models.CharField(max_length=10, choices=Audience.choices)
    url_sealed = models.TextField()  # the URL, encrypted (integrations.vault)
    url_hint = models.CharField(max_length=80)  # what pages show: …/webhooks/<id>/<4 chars>…
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    problem = models.TextField(blank=True)  # why it stopped, for the GM
    problem_at = models.DateTimeField(null=True, blank=True)
    # Delivery state, kept here so any worker (and a restarted one) carries on from it.
    retry_at = models.DateTimeField(null=True, blank=True)  # nothing is sent before it
    failures = models.PositiveIntegerField(default=0)  # unanswered attempts in a row
    refusals = models.PositiveIntegerField(default=0)  # messages Discord refused in a row
    last_error = models.TextField(blank=True)  # the last failure, while retrying
    last_sent_at = models.DateTimeField(null=True, blank=True)
    lease_owner = models.CharField(max_length=80, blank=True)
    lease_until = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "audience"], name="one_discord_hook_per_audience"
            )
        ]
        ordering = ["campaign", "-audience"]

    def __str__(self) -> str:
        return f"{self.get_audience_display()} of {self.campaign}: {self.url_hint}"

    @property
    def is_broken(self) -> bool:
        return self.status == self.Status.BROKEN


class Message(models.Model):
    class Kind(models.TextChoices):
        EVENT = "event", "Event"
        TEST = "test", "Test message"

    class State(models.TextChoices):
        PENDING = "pending", "Waiting"
        SENT = "sent", "Sent"
        DROPPED = "dropped", "Refused by Discord"

    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="messages")
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.EVENT)
    event = models.ForeignKey(
        TableEvent, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    # For whom it is rendered ("gm" or "players", table.log.visibility), and whether it goes
    # as the sealed card: decided when the event is written, never at delivery, so a
    # message queued sealed stays sealed even if the event is revealed meanwhile (the
    # reveal posts the opened card as its own message, after it).
    audience = models.CharField(max_length=10)
    sealed = models.BooleanField(default=False)
    text = models.TextField(blank=True)  # plain content (test messages)
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    # Set while an attempt may have reached Discord without its answer reaching us (a
    # timeout, a killed worker): the next attempt says it may repeat the message.
    maybe_sent = models.BooleanField(default=False)
    error = models.TextField(blank=True)  # why Discord refused it (state dropped)
    discord_id = models.CharField(max_length=32, blank=True)  # the message Discord made
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["webhook", "state", "id"], name="outbox_queue")]

    def __str__(self) -> str:
        what = f"#{self.event.seq}" if self.event_id else self.get_kind_display()
        return f"{what} for {self.webhook_id} ({self.state})"
