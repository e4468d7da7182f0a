"""The log's head and the append, under every change at the table (table.writing.actions):
lock the campaign's head with the member's role in one statement, write the next event
of the hash chain (its seal, its hash, the row), broadcast it once the transaction
commits, and confirm a write whose COMMIT the connection lost.
"""

from __future__ import annotations

import json
import threading
import time
from typing import Any

from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from accounts.text import shown_json
from campaigns.models import Campaign, Membership, Scene
from table import signals
from table.acting.context import ActionError
from table.live import broadcast
from table.log import rows as logrows
from table.log import visibility as gate
from table.log.rows import Head, statements
from table.models import TableEvent, TableLog, Visibility
from table.reading.reads import audience_of


class NotMember(ActionError):
    """The user is not (or no longer) a member of the campaign."""


class RoleChanged(ActionError):
    """The caller's role is not the one it acted with (a socket opened before a change)."""


def plain_json(value: Any, what: str) -> Any:
    """A JSON-clean deep copy (tuples become lists, no hidden characters), or a refusal."""
    try:
        return shown_json(json.loads(json.dumps(value)))
    except (TypeError, ValueError, RecursionError) as error:
        raise ActionError(f"The {what} must be plain JSON.") from error


def refs_of(user, sheet=None, scene=None, target: TableEvent | None = None, to=None) -> dict:
    refs: dict[str, Any] = {
        "actor": None if user is None else {"id": user.pk, "name": str(user)},
        "character": None if sheet is None else {"id": sheet.pk, "name": sheet.name},
        "scene": None if scene is None else {"id": scene.pk, "title": scene.title},
    }
    if target is not None:
        refs["target_seq"] = target.seq
    if to is not None:  # whom a whisper is for, when not the GM (table.acting.whispers)
        refs["to"] = to
    return refs


def lock(campaign_id: int) -> Head:
    """Lock the campaign row and its log head in one query; every append to a campaign's
    log is serialized. The head also names the running scene."""
    return _locked(campaign_id, "lock", [campaign_id])[0]


def lock_as(campaign_id: int, user) -> tuple[Head, Membership]:
    """lock(), with the user's membership read in the same query."""
    if user is None or not getattr(user, "is_authenticated", False):
        raise NotMember("You are not a member of this campaign.")
    head, (member_id, role) = _locked(campaign_id, "lock_member", [user.pk, campaign_id], 2)
    if member_id is None:
        raise NotMember("You are not a member of this campaign.")
    return head, Membership(pk=member_id, campaign_id=campaign_id, user_id=user.pk, role=role)


def lock_player(campaign_id: int, user, expect, doing: str = "act") -> tuple[Head, Membership]:
    """lock_as(), for one who acts: the role the socket knew holds, not an observer."""
    head, membership = lock_as(campaign_id, user)
    if expect is not None and (audience_of(membership), membership.pk) != expect:
        raise RoleChanged("Your role changed: reload the page.")
    if not membership.can_play:
        raise ActionError(f"Observers can watch but not {doing}.")
    return head, membership


def _locked(campaign_id: int, statement: str, params: list, extra: int = 0) -> tuple[Head, tuple]:
    """Run a lock statement whose first `extra` columns are not the head's."""
    with connection.cursor() as cursor:
        cursor.execute(statements(connection.vendor)[statement], params)
        row = cursor.fetchone()
    if row is None:
        if not _create_head(campaign_id):
            raise NotMember("You are not a member of this campaign.")
        return _locked(campaign_id, statement, params, extra)
    rest, row = row[:extra], row[extra:]
    c_id, name, system, last_seq, last_hash, last_public_seq, s_id, title, status = row
    campaign = Campaign(id=c_id, name=name, system=system)
    scene = None
    if s_id is not None:
        scene = Scene(id=s_id, campaign_id=c_id, title=title, status=status)
    return Head(campaign, scene, last_seq, last_hash, last_public_seq), rest


def _create_head(campaign_id: int) -> bool:
    """A campaign's first action creates its log head; False if there is no such
    campaign. No lock is held while inserting: actions racing to be first used to
    deadlock on PostgreSQL, one holding the campaign row while it waited for the new
    head, another holding the head while it waited for the campaign row. A racing
    insert now waits for the first one to end and then adds nothing."""
    campaign = Campaign.objects.filter(pk=campaign_id).first()
    if campaign is None:
        return False
    scene = Scene.objects.filter(campaign=campaign, status=Scene.Status.ACTIVE).first()
    TableLog.objects.bulk_create([TableLog(campaign=campaign, scene=scene)], ignore_conflicts=True)
    return True


def set_scene(head: Head, scene: Scene | None) -> None:
    head.scene = scene
    TableLog.objects.filter(campaign_id=head.campaign.pk).update(scene=scene)


def running_scene(head: Head) -> Scene | None:
    scene = head.scene
    return scene if scene is not None and scene.status == Scene.Status.ACTIVE else None


def append(
    head: Head,
    campaign: Campaign,
    *,
    kind: str,
    user,
    action: str = "",
    sheet=None,
    scene=None,
    target: TableEvent | None = None,
    request: Any = None,
    params: Any = None,
    faces: Any = (),
    outcome: Any = None,
    effects: Any = (),
    undo: Any = None,
    visibility: str = Visibility.PUBLIC,
    whisper_to: dict[str, Any] | None = None,
) -> TableEvent:
    """Write the next event of the chain and move the head; broadcast after commit."""
    event = logrows.new_event(
        campaign=campaign,
        seq=head.last_seq + 1,
        kind=kind,
        system=campaign.system,
        action=action,
        actor=user if user is not None and user.is_authenticated else None,
        character=sheet,
        scene=scene,
        target=target,
        # JSON as written: tuples and lists, int and str keys hash alike (canonical_json),
        # and json.dumps refuses anything that is not JSON before anything is stored.
        refs=refs_of(user, sheet, scene, target, whisper_to),
        request=request or {},
        params=params or gate.sheet_veil(sheet),
        faces=list(faces),
        outcome=outcome or {},
        effects=list(effects),
        undo=undo or {},
        visibility=visibility,
        created_at=timezone.now(),
        prev_hash=head.last_hash,
    )
    if gate.is_hidden(event) and not gate.is_whisper(event):  # a whisper is never revealed
        event.seal = gate.new_seal(event.faces, event.outcome)
    try:
        event.hash = event.compute_hash()
    except (TypeError, ValueError) as error:
        raise ActionError("That request holds something that is not plain JSON.") from error
    logrows.write(head, event)
    after = {audience: event.seq - 1 for audience in gate.AUDIENCES}
    _writing.pending = (event, after)
    signals.event_appended.send(sender=TableEvent, event=event)
    transaction.on_commit(lambda: broadcast.publish_event(event, after), robust=True)
    return event


# The event this thread's transaction wrote last, kept until the caller knows how that
# transaction ended: a connection lost during COMMIT leaves that unknown to the client.
_writing = threading.local()
CONFIRM_SECONDS = 10.0


def forget_write() -> None:
    """Before an action: nothing of an earlier one is left to confirm."""
    _writing.pending = None


def confirm_write(wait: float = CONFIRM_SECONDS) -> TableEvent | None:
    """After the database connection failed during an action: the event it wrote if its
    transaction committed after all, broadcast now (its on-commit hook never ran), or
    None if nothing was written. Raises DatabaseError while that cannot be known (the
    database stays unreachable for `wait` seconds).

    Taking the log head's lock waits until the failed transaction has ended on the
    server, whichever way it ended; then the log says whether the event is there."""
    pending = getattr(_writing, "pending", None)
    _writing.pending = None
    deadline = time.monotonic() + wait
    while True:
        connection.close()  # the failed connection; the next query opens a fresh one
        if pending is None:
            return None  # it failed before writing, so its transaction never committed
        event, after = pending
        try:
            with transaction.atomic():
                if connection.vendor == "postgresql":
                    with connection.cursor() as cursor:
                        cursor.execute("SET LOCAL lock_timeout = '5s'")
                list(
                    TableLog.objects.select_for_update()
                    .filter(campaign_id=event.campaign_id)
                    .values_list("pk", flat=True)
                )
                found = TableEvent.objects.filter(
                    campaign_id=event.campaign_id, seq=event.seq, hash=event.hash
                ).exists()
            break
        except DatabaseError:
            if time.monotonic() >= deadline:
                connection.close()
                raise
            time.sleep(0.25)
    if not found:
        return None
    broadcast.publish_event(event, after)
    return event
