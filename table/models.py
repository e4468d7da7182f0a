"""The table's append-only event log, its per-campaign head, and per-scene state.

Every change at the table is a `TableEvent`: a roll, a spend, a contest move, a
scene starting or ending, a new session, a reveal, a void. Events are never edited: `seq` is
gapless per campaign and each event's `hash` chains it to the one before, so
`manage.py verify_log` can prove nothing was changed or dropped. Only two
derived flags (`revealed`, `voided`) are ever set on a stored row, each by the
event that reveals or voids it; they are outside the hash and checked against
those events.

`TableLog` is the head of a campaign's log (last seq, last hash, last seq the
players could see) so appending needs no scan. `SceneState` holds what lasts a
scene only (contests, assets, and what the game's SCENE declares), one JSON row
per scene, locked with select_for_update whenever it changes. `SessionState` holds
what lasts one play session across its scenes (SER-10 session Assets), one row per
campaign, emptied by each session_start.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.conf import settings
from django.db import models

from campaigns.models import Campaign, Scene

GENESIS_HASH = "0" * 64


def canonical_json(value: Any) -> str:
    """One spelling for a JSON value: sorted keys, no spaces, non-ASCII kept as is."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def chain_hash(previous: str, body: dict[str, Any]) -> str:
    """sha256(previous hash + canonical JSON of the event body), hex."""
    return hashlib.sha256((previous + canonical_json(body)).encode("utf-8")).hexdigest()


class Visibility(models.TextChoices):
    PUBLIC = "public", "Public"
    GM = "gm", "Secret (GMs only)"
    BLIND = "blind", "Blind (GMs only until revealed)"
    # A whispered chat line: GMs, its author and the member it is whispered to (if not the
    # GM) read it; other members see a sealed line in its place; it is never revealed
    # (table.log.visibility.sees).
    WHISPER = "whisper", "Whisper (GMs and its author)"


class Kind(models.TextChoices):
    ACTION = "action", "Action"
    SCENE_START = "scene_start", "Scene started"
    SCENE_END = "scene_end", "Scene ended"
    SESSION_START = "session_start", "Session started"
    REVEAL = "reveal", "Reveal"
    VOID = "void", "Void"
    CHAT = "chat", "Chat"


class TableLog(models.Model):
    """Head of a campaign's log; updated in the same transaction as each append."""

    campaign = models.OneToOneField(
        Campaign, on_delete=models.CASCADE, primary_key=True, related_name="table_log"
    )
    last_seq = models.PositiveIntegerField(default=0)
    last_hash = models.CharField(max_length=64, default=GENESIS_HASH)
    last_public_seq = models.PositiveIntegerField(default=0)
    # The running scene, kept in step by table.writing.actions.scene_started/scene_ended, so an
    # action learns it from the same locked row as its seq.
    scene = models.ForeignKey(
        Scene, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    def __str__(self) -> str:
        return f"log of campaign {self.campaign_id} at #{self.last_seq}"


class TableEvent(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="table_events")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=20, choices=Kind.choices)
    system = models.CharField(max_length=20)
    action = models.CharField(max_length=40, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    character = models.ForeignKey(
        "sheets.Sheet", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    scene = models.ForeignKey(
        Scene, on_delete=models.SET_NULL, null=True, blank=True, related_name="table_events"
    )
    target = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="followups"
    )
    # Who, for whom, where and what about, as they were when the event was written.
    # Hashed, so renaming a user or a sheet later never breaks the chain.
    refs = models.JSONField(default=dict)
    request = models.JSONField(default=dict)
    params = models.JSONField(default=dict)
    faces = models.JSONField(default=list)
    outcome = models.JSONField(default=dict)
    effects = models.JSONField(default=list)
    # What a void needs to give the event's changes back (counter deltas, dice, flags, and
    # the before/after of each piece of scene state it touched). Never shown or exported;
    # hashed only when set, so events written before it existed keep their hashes.
    undo = models.JSONField(default=dict, blank=True)
    # A secret or blind event's commitment and salt (table.log.visibility): players get the
    # commitment on a sealed card, the salt once it is revealed. Hashed only when set.
    seal = models.JSONField(default=dict, blank=True)
    visibility = models.CharField(
        max_length=10, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    revealed = models.BooleanField(default=False)
    voided = models.BooleanField(default=False)
    created_at = models.DateTimeField()
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)

    class Meta:
        ordering = ["campaign", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "seq"], name="one_event_per_seq"),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.kind} {self.action}".strip()

    def hash_body(self) -> dict[str, Any]:
        """Everything the hash covers: the event as written, never the derived flags."""
        body = {
            "campaign": self.campaign_id,
            "seq": self.seq,
            "kind": self.kind,
            "system": self.system,
            "action": self.action,
            "refs": self.refs,
            "request": self.request,
            "params": self.params,
            "faces": self.faces,
            "outcome": self.outcome,
            "effects": self.effects,
            "visibility": self.visibility,
            "created_at": self.created_at.isoformat(),
        }
        if self.undo:
            body["undo"] = self.undo
        if self.seal:
            body["seal"] = self.seal
        return body

    def compute_hash(self) -> str:
        return chain_hash(self.prev_hash, self.hash_body())

    @property
    def hidden(self) -> bool:
        """Seen by GMs only: secret, or blind and not revealed yet."""
        return self.visibility != Visibility.PUBLIC and not self.revealed

    @property
    def actor_name(self) -> str:
        return (self.refs.get("actor") or {}).get("name") or "The GM"

    @property
    def whisper_to(self) -> dict:
        """Whom a whisper is for, when not the GM: {"id", "name", "by_gm"} (refs "to")."""
        to = self.refs.get("to")
        return to if isinstance(to, dict) else {}

    @property
    def character_name(self) -> str:
        return (self.refs.get("character") or {}).get("name") or ""

    @property
    def headline(self) -> str:
        return str(self.outcome.get("headline", ""))

    @property
    def explanation(self) -> str:
        return str(self.outcome.get("explanation", ""))


class SceneState(models.Model):
    """What lasts one scene: changed only inside table.writing.actions, with the row locked."""

    scene = models.OneToOneField(
        Scene, on_delete=models.CASCADE, primary_key=True, related_name="table_state"
    )
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="+")
    data = models.JSONField(default=dict)
    version = models.PositiveIntegerField(default=0)
    expired = models.BooleanField(default=False)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"state of scene {self.scene_id} v{self.version}"


class SessionState(models.Model):
    """What lasts one play session, whatever scenes come and go (SER-10: a promoted
    session Asset), until the next session_start empties it. Changed only inside
    table.writing.actions, with the row locked; `session` is the number of the session the data
    belongs to (0 before the first mark), so a void knows whether it still may restore."""

    campaign = models.OneToOneField(
        Campaign, on_delete=models.CASCADE, primary_key=True, related_name="table_session"
    )
    session = models.PositiveIntegerField(default=0)
    data = models.JSONField(default=dict)
    version = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"state of session {self.session} of campaign {self.campaign_id} v{self.version}"
