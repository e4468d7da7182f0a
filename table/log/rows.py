"""The log's rows on the hot path: every roll of every campaign is written here.

Appending takes four statements (lock the head, insert the event, move the head,
commit), all plain SQL: the ORM took longer to build them than the database took to run
them. The event itself is made without the model layer's per-field work: `new_event`
fills a TableEvent's attributes directly (the related objects given are cached on it as
the model's own assignment would), and `write` hands the database each value as the
field would have prepared it (JSON through the backend's own adapter, the time through
its datetime adapter), so the row is the one `TableEvent.save()` would write.
Everything else in `table/` uses the ORM.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from django.db import connection, models
from django.db.models.base import ModelState

from campaigns.models import Campaign, Membership, Scene
from table.models import TableEvent, TableLog


@dataclass
class Head:
    """The log head of a campaign, read with its row (and the campaign's) locked."""

    campaign: Campaign
    scene: Scene | None  # the running scene
    last_seq: int
    last_hash: str
    last_public_seq: int


EVENT_FIELDS = [f for f in TableEvent._meta.concrete_fields if not f.primary_key]


def _adapter(field: models.Field) -> tuple[str, Any]:
    """How a value of `field` goes to the database: JSON and times through the backend's
    adapters, as JSONField and DateTimeField prepare them; the rest as it is."""
    if isinstance(field, models.JSONField):
        return "json", field.encoder
    if isinstance(field, models.DateTimeField):
        return "datetime", None
    return "", None


_ADAPT = [_adapter(f) for f in EVENT_FIELDS]
_ATTNAMES = [f.attname for f in EVENT_FIELDS]
# The foreign keys new_event() takes as objects: attribute, cache name.
_RELATED = [
    (f.name, f.attname) for f in EVENT_FIELDS if f.is_relation and f.many_to_one
]  # campaign, actor, character, scene, target


@cache
def statements(vendor: str) -> dict[str, str]:
    """The hot path's statements for this database. Only table and column names from the
    models' meta are put into the text; every value is a bound parameter."""
    log, campaign, scene, event, member = (
        m._meta.db_table for m in (TableLog, Campaign, Scene, TableEvent, Membership)
    )
    columns = ", ".join(f.column for f in EVENT_FIELDS)
    marks = ", ".join(["%s"] * len(EVENT_FIELDS))
    head_of = (
        "c.id, c.name, c.system, l.last_seq, l.last_hash, l.last_public_seq, s.id, s.title, "
        f"s.status FROM {log} l INNER JOIN {campaign} c ON c.id = l.campaign_id "
        f"LEFT OUTER JOIN {scene} s ON s.id = l.scene_id"
    )
    # Only the log head is locked (campaigns.locking's order: a campaign-level change
    # locks the campaign row first, then this head; a roll never locks the campaign).
    suffix = ""
    if connection.features.has_select_for_update_of:
        suffix = " FOR UPDATE OF l"
    elif connection.features.has_select_for_update:
        suffix = " FOR UPDATE"
    lock = f"SELECT {head_of} WHERE l.campaign_id = %s{suffix}"  # noqa: S608
    # The same with the acting user's membership: %s is the user, then the campaign.
    lock_member = (
        f"SELECT m.id, m.role, {head_of} LEFT OUTER JOIN {member} m "  # noqa: S608
        f"ON m.campaign_id = l.campaign_id AND m.user_id = %s WHERE l.campaign_id = %s{suffix}"
    )
    insert = f"INSERT INTO {event} ({columns}) VALUES ({marks})"  # noqa: S608
    if connection.features.can_return_columns_from_insert:
        insert += " RETURNING id"
    update = (
        f"UPDATE {log} SET last_seq = %s, last_hash = %s, "  # noqa: S608
        "last_public_seq = %s WHERE campaign_id = %s"
    )
    found = {"lock": lock, "lock_member": lock_member, "insert": insert, "update": update}
    if vendor == "postgresql":
        # The event and the moved head in one statement: one round trip fewer per action.
        found["append"] = f"WITH ins AS ({insert}), moved AS ({update}) SELECT id FROM ins"  # noqa: S608
    return found


def new_event(**values: Any) -> TableEvent:
    """An unsaved TableEvent with these field values (related ones as objects or None,
    by field name: campaign, actor, character, scene, target), the rest at their
    defaults (no seal, not revealed, not voided), without TableEvent(**values)'s
    per-field descriptors and signals: nothing listens to a TableEvent's creation."""
    event = TableEvent.__new__(TableEvent)
    event._state = ModelState()
    attrs = event.__dict__
    attrs.update(id=None, seal={}, revealed=False, voided=False, hash="")
    cached = event._state.fields_cache
    for name, attname in _RELATED:
        related = values.pop(name, None)
        attrs[attname] = None if related is None else related.pk
        if related is not None:
            cached[name] = related
    attrs.update(values)
    return event


def write(head: Head, event: TableEvent) -> None:
    """Insert the event's row and move the head past it, in the caller's transaction;
    the event gets its pk and counts as saved."""
    sql = statements(connection.vendor)
    ops = connection.ops
    values = []
    for attname, (adapt, encoder) in zip(_ATTNAMES, _ADAPT, strict=True):
        value = getattr(event, attname)
        if adapt == "json":
            value = ops.adapt_json_value(value, encoder)
        elif adapt == "datetime":
            value = ops.adapt_datetimefield_value(value)
        values.append(value)
    head.last_seq = event.seq
    head.last_hash = event.hash
    if event.visibility == "public":
        head.last_public_seq = event.seq
    moved = [head.last_seq, head.last_hash, head.last_public_seq, event.campaign_id]
    with connection.cursor() as cursor:
        if "append" in sql:
            cursor.execute(sql["append"], values + moved)
            event.pk = cursor.fetchone()[0]
        else:
            cursor.execute(sql["insert"], values)
            returning = sql["insert"].endswith("RETURNING id")
            event.pk = cursor.fetchone()[0] if returning else cursor.lastrowid
            cursor.execute(sql["update"], moved)
    event._state.adding = False
    event._state.db = connection.alias
