"""Every change at the table goes through here: validate, authorize, draw faces,
resolve, write the event and the new state in one transaction, broadcast on commit.

Views and the socket consumer only parse input and call these functions.

API (stable; the table page calls it):

    perform(campaign, user, action_name, request, *, sheet_id=None, visibility="public")
        -> TableEvent
    reveal(campaign, user, event_id, *, seq=None) -> TableEvent   (never a whisper)
    void(campaign, user, event_id, reason, *, seq=None) -> TableEvent
    session_started(campaign, user) -> TableEvent
    chat_in(campaign_id, user, *, mode, text, sheet_id=None, expect=None) -> TableEvent
    scene_state(campaign, user=None, *, membership=None) -> dict
    session_state(campaign, user=None, *, membership=None) -> dict
    visible_events(campaign, user, *, after_seq=0, limit=None) -> list[TableEvent]
    last_seq(campaign, user) -> int
    audience_of(membership) -> "gm" | "players"

The reads (scene_state, session_state, visible_events, last_seq, audience_of,
membership_of) live in table.reading, apart from this write path, and are re-exported
here. Elsewhere: table.export.verify(campaign) -> Verdict (ok, checked, first_bad_seq,
problem; str() reads "OK: n events verified" or "FAIL at seq n: ..."), and
table.rendering.card_html(event, audience) / render_event_html(event, audience).

All of them raise ActionError with a message a player can read on any refusal.
`event_id` is the TableEvent's primary key (cards carry it as data-event-id).

Besides each system's rules actions, `action_name` may be one of the table's own
(table.state.TABLE_ACTIONS): "give_points" (GM only, with a sheet_id; request
{"amount": 1..10, or -1..-10 to take back}) moves the points the game gives outside a
roll (its POINTS: plot points, unless it names another counter), never below zero.

`request` is the rules action's request (see the system's ACTIONS schema) plus an
optional "table" object of table-level options, never passed to the rules:

    contest    which contest (SER/SMV contests; default: the only one going on)
    target     a sheet id: who receives what is given, who takes damage or heals,
               the reactor or opponent whose sheet fills the other side
    roll       the seq of an earlier CTX roll for a Bank move or a bought hitch
               (default: the latest one of the character, or of the scene)
    from_seq   the seq of a logged roll whose total the action adds
    (others)   the name of an item a game keeps for the scene, by the option its
               scene piece is named by (rules.kit.scene.ScenePiece.named_by)

Fields the database knows (dice sizes and ratings on the sheet, plot points and
other counters, stress, the scene's pools, contest state, trackers) are filled in from
the database; whatever the client sent for them is ignored.
"""

from __future__ import annotations

import functools
import json
import threading
import time
from collections.abc import Mapping
from random import Random
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from accounts.text import shown_json, shown_text
from campaigns.locking import Busy, retry_conflicts
from campaigns.models import Campaign, Membership, Scene
from rules.kit.actions import resolve, roll
from rules.kit.errors import RulesError
from rules.kit.scene import expired_word
from rules.registry import get_system

from . import broadcast, logrows, signals, undo, whispers
from . import visibility as gate
from .context import ActionError, Context, empty_state, sheet_in
from .logrows import Head, statements
from .models import Kind, SceneState, TableEvent, TableLog, Visibility
from .reading import (
    audience_of,
    last_seq,
    membership_of,
    scene_state,
    session_state,
    visible_events,
)
from .state import (
    action_for,
    expire_session,
    expired_summary,
    handler_for,
    reset_session,
)
from .targets import named_event, refuse_reveal

__all__ = [
    "ActionError",
    "NotMember",
    "RoleChanged",
    "audience_of",
    "chat_in",
    "confirm_write",
    "forget_write",
    "last_seq",
    "membership_of",
    "perform",
    "perform_in",
    "reveal",
    "scene_ended",
    "scene_started",
    "scene_state",
    "session_started",
    "session_state",
    "visible_events",
    "void",
]


class NotMember(ActionError):
    """The user is not (or no longer) a member of the campaign."""


class RoleChanged(ActionError):
    """The caller's role is not the one it acted with (a socket opened before a change)."""


# Tests may set a seeded Random here; None draws from rules.kit.faces.SYSTEM_RANDOM,
# the server's one source of randomness (secrets.SystemRandom).
RNG: Random | None = None

GM_AUDIENCE = gate.GM
MAX_REASON = 200


# --------------------------------------------------------------------------- writing


def _json(value: Any, what: str) -> Any:
    """A JSON-clean deep copy (tuples become lists, no hidden characters), or a refusal."""
    try:
        return shown_json(json.loads(json.dumps(value)))
    except (TypeError, ValueError, RecursionError) as error:
        raise ActionError(f"The {what} must be plain JSON.") from error


def _refs(user, sheet=None, scene=None, target: TableEvent | None = None, to=None) -> dict:
    refs: dict[str, Any] = {
        "actor": None if user is None else {"id": user.pk, "name": str(user)},
        "character": None if sheet is None else {"id": sheet.pk, "name": sheet.name},
        "scene": None if scene is None else {"id": scene.pk, "title": scene.title},
    }
    if target is not None:
        refs["target_seq"] = target.seq
    if to is not None:  # whom a whisper is for, when not the GM (table.whispers)
        refs["to"] = to
    return refs


def _lock(campaign_id: int) -> Head:
    """Lock the campaign row and its log head in one query; every append to a campaign's
    log is serialized. The head also names the running scene."""
    return _locked(campaign_id, "lock", [campaign_id])[0]


def _lock_as(campaign_id: int, user) -> tuple[Head, Membership]:
    """_lock(), with the user's membership read in the same query."""
    if user is None or not getattr(user, "is_authenticated", False):
        raise NotMember("You are not a member of this campaign.")
    head, (member_id, role) = _locked(campaign_id, "lock_member", [user.pk, campaign_id], 2)
    if member_id is None:
        raise NotMember("You are not a member of this campaign.")
    return head, Membership(pk=member_id, campaign_id=campaign_id, user_id=user.pk, role=role)


def _lock_player(campaign_id: int, user, expect, doing: str = "act") -> tuple[Head, Membership]:
    """_lock_as(), for one who acts: the role the socket knew holds, not an observer."""
    head, membership = _lock_as(campaign_id, user)
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


def _set_scene(head: Head, scene: Scene | None) -> None:
    head.scene = scene
    TableLog.objects.filter(campaign_id=head.campaign.pk).update(scene=scene)


def _running_scene(head: Head) -> Scene | None:
    scene = head.scene
    return scene if scene is not None and scene.status == Scene.Status.ACTIVE else None


def _append(
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
        refs=_refs(user, sheet, scene, target, whisper_to),
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


def _visibility(value: object, membership: Membership) -> str:
    if value in (None, ""):
        return Visibility.PUBLIC
    if value not in Visibility.values:
        raise ActionError("Visibility must be public, gm (secret) or blind.")
    if value == Visibility.GM and not membership.is_gm:
        raise ActionError("Only the GM can roll in secret; a blind roll goes to the GM.")
    return value


def _draw(action, request: dict[str, Any]) -> tuple[list[int], dict[str, Any]]:
    try:
        if action.rolls:
            rolled = roll(action, request, RNG)
            return rolled.faces, rolled.outcome
        return [], resolve(action, request, ())
    except RulesError as error:
        message = str(error)
        raise ActionError(message[:1].upper() + message[1:]) from error


def _retried(func):
    """campaigns.locking.retry_conflicts (a deadlock or serialization failure runs the
    transaction again), with "the table was busy" told as any other refusal."""
    retried = retry_conflicts(func)

    @functools.wraps(func)
    def run(*args, **kwargs):
        try:
            return retried(*args, **kwargs)
        except Busy as busy:
            raise ActionError(str(busy)) from busy

    return run


def perform(
    campaign: Campaign,
    user,
    action_name: str,
    request: Mapping[str, Any],
    *,
    sheet_id: int | None = None,
    visibility: str = "public",
) -> TableEvent:
    """Run one rules action at the table and log it.

    Observers never act; players act only for their own characters; GMs act for
    anyone and for GM characters. Visibility: "public", "gm" (a secret GM roll)
    or "blind" (only GMs see it until revealed). Faces come from the rules'
    one random source; the outcome is resolved by the rules; the state changes
    the outcome calls for are written with the event in one transaction, and
    the event is broadcast once that transaction commits.
    """
    return perform_in(
        campaign.pk, user, action_name, request, sheet_id=sheet_id, visibility=visibility
    )


@_retried
def perform_in(
    campaign_id: int,
    user,
    action_name: str,
    request: Mapping[str, Any],
    *,
    sheet_id: int | None = None,
    visibility: str = "public",
    expect: tuple[str, int] | None = None,
) -> TableEvent:
    """perform() by campaign id; `expect` = (audience, membership id) the caller holds
    (a socket): a different one raises RoleChanged, none NotMember."""
    if not isinstance(request, Mapping):
        raise ActionError("The request must be an object with named fields.")
    request = _json(dict(request), "request")
    params = request.pop("table", None) or {}
    if not isinstance(params, dict):
        raise ActionError("The table options must be an object.")
    if len(json.dumps(request)) > settings.TABLE_MAX_MESSAGE_BYTES:
        raise ActionError("That request is too large.")
    with transaction.atomic():
        head, membership = _lock_player(campaign_id, user, expect)
        campaign = head.campaign
        system = get_system(campaign.system)
        try:
            action = action_for(system, action_name)
        except RulesError as error:
            name = str(action_name)[:40]
            raise ActionError(f"{system.name} has no action called “{name}”.") from error
        handler = handler_for(system, action.name)
        if handler.gm_only and not membership.is_gm:  # the role first, whatever is named
            raise ActionError(f"Only the GM can use “{action.title}”.")
        chosen = _visibility(visibility, membership)
        if chosen != Visibility.PUBLIC and handler.public_only:
            raise ActionError(f"“{action.title}” changes what everyone sees, so it is public.")
        sheet = (
            sheet_in(campaign, sheet_id, is_gm=membership.is_gm) if sheet_id is not None else None
        )
        scene = _running_scene(head)
        if handler.needs_scene and scene is None:
            raise ActionError("Start a scene first: this is kept for the scene.")
        ctx = Context(
            campaign=campaign,
            system=system,
            action=action,
            user=user,
            membership=membership,
            request=request,
            params=params,
            visibility=chosen,
            seq=head.last_seq + 1,
            scene=scene,
            sheet=sheet,
            declared_params=frozenset(handler.table_params),
        )
        handler.authorize(ctx)
        handler.prepare(ctx)
        handler.precheck(ctx)
        faces, outcome = _draw(action, ctx.request)
        handler.apply(ctx, outcome)
        plan = ctx.undo_plan()
        ctx.save_state()
        ctx.notify_sheets()
        return _append(
            head,
            campaign,
            kind=Kind.ACTION,
            user=user,
            action=action.name,
            sheet=ctx.sheet,
            scene=scene,
            request=ctx.request,
            params=ctx.recorded_params(),
            faces=faces,
            outcome=outcome,
            effects=ctx.effects,
            undo=plan,
            visibility=chosen,
        )


@_retried
def reveal(campaign: Campaign, user, event_id: int | None, *, seq: int | None = None) -> TableEvent:
    """The GM shows a secret or blind event (named by `event_id`, or by `seq`) to
    everyone: a new public event that carries it; the original is flagged revealed."""
    with transaction.atomic():
        head, membership = _lock_as(campaign.pk, user)
        if not membership.is_gm:  # the role first, whatever was named (table.targets)
            raise ActionError("Only the GM can reveal a roll.")
        target = named_event(campaign, event_id, seq)
        refuse_reveal(target)
        target.revealed = True
        target.save(update_fields=["revealed"])
        return _append(
            head,
            campaign,
            kind=Kind.REVEAL,
            user=user,
            sheet=target.character,
            scene=target.scene,
            target=target,
            outcome={
                "headline": f"Revealed: {target.headline}",
                "explanation": f"The GM reveals event #{target.seq}.",
            },
        )


@_retried
def void(
    campaign: Campaign, user, event_id: int | None, reason: str, *, seq: int | None = None
) -> TableEvent:
    """The GM strikes an action from the record: a new event saying why; the original
    stays in the log, flagged voided. What the action changed is given back in the same
    transaction (table/undo.py): counters by their deltas, never below zero; dice and
    scene state where nothing later changed them. The void's card names what was given
    back and what was left as it is."""
    if not isinstance(reason, str) or not shown_text(reason).strip():
        raise ActionError("Give a reason for voiding it.")
    reason = shown_text(reason).strip()
    if len(reason) > MAX_REASON:
        raise ActionError(f"The reason is at most {MAX_REASON} characters.")
    with transaction.atomic():
        head, membership = _lock_as(campaign.pk, user)
        if not membership.is_gm:  # the role first, whatever was named (table.targets)
            raise ActionError("Only the GM can void an event.")
        target = named_event(campaign, event_id, seq)
        if target.kind != Kind.ACTION:
            raise ActionError("Only actions can be voided.")
        if target.voided:
            raise ActionError("That event is already void.")
        target.voided = True
        target.save(update_fields=["voided"])
        seen = target.visibility == Visibility.PUBLIC or target.revealed
        ctx = Context(
            campaign=head.campaign,
            system=get_system(head.campaign.system),
            action=None,
            user=user,
            membership=membership,
            request={},
            params={},
            visibility=Visibility.PUBLIC if seen else Visibility.GM,
            seq=head.last_seq + 1,
        )
        undone = undo.apply_undo(ctx, target)
        ctx.notify_sheets()
        explanation = f"The GM voids event #{target.seq} ({target.headline}): {reason}"
        if undone.done:
            explanation += " Given back: " + " ".join(undone.done)
        if undone.left:
            explanation += " Not undone: " + " ".join(undone.left)
        return _append(
            head,
            campaign,
            kind=Kind.VOID,
            user=user,
            sheet=target.character,
            scene=target.scene,
            target=target,
            params=ctx.recorded_params(target),
            request={"reason": reason},
            outcome={
                "headline": f"Voided #{target.seq}: {reason}",
                "explanation": explanation,
                "undone": undone.done,
                "not_undone": undone.left,
            },
            effects=undone.effects,
            visibility=ctx.visibility,
        )


@_retried
def session_started(campaign: Campaign, user) -> TableEvent:
    """The GM marks a new session: a boundary in the log (session exports run from one
    to the next), where per-session things reset (SMV-7: Resources used last session
    are free again; SER-10: the last session's session Assets expire, and the card
    names them)."""
    with transaction.atomic():
        head, membership = _lock_as(campaign.pk, user)
        if not membership.is_gm:
            raise ActionError("Only the GM can start a new session.")
        number = (
            TableEvent.objects.filter(campaign_id=campaign.pk, kind=Kind.SESSION_START).count() + 1
        )
        effects, freed = reset_session(head.campaign, get_system(head.campaign.system))
        expired_effects, expired = expire_session(head.campaign, number)
        explanation = f"Session {number} begins."
        if freed:
            explanation += " Free again (SMV-7): " + ", ".join(freed) + "."
        if expired:
            explanation += " Session assets expired (SER-10): " + ", ".join(expired) + "."
        return _append(
            head,
            campaign,
            kind=Kind.SESSION_START,
            user=user,
            scene=_running_scene(head),
            outcome={
                "headline": f"Session {number} begins",
                "explanation": explanation,
                "session": number,
                **({"expired_session_assets": expired} if expired else {}),
            },
            effects=effects + expired_effects,
        )


# --------------------------------------------------------------------------- talk

CHAT_MODES = {  # what the card and a screen reader say: "Alice (as Kaylee) says: ..."
    "ic": "{speaker} (as {character}) says: {text}",
    "ooc": "{speaker} says (out of character): {text}",
    "whisper": "{speaker} whispers to the GM: {text}",
}


@_retried
def chat_in(
    campaign_id: int,
    user,
    *,
    mode: str,
    text: str,
    sheet_id: int | None = None,
    expect: tuple[str, int] | None = None,
    to: int | None = None,
) -> TableEvent:
    """A line of talk in the log, its text already checked (table.chat): in character as
    one of the speaker's characters (a player's own, or for a GM a GM character), out
    of character, or whispered to the GM or to player `to` (a user id, table.whispers;
    read by the GMs, its author and its recipient only, table.visibility.sees)."""
    if mode not in CHAT_MODES:
        raise ActionError("Say how: in character (ic), out of character (ooc) or whisper.")
    with transaction.atomic():
        head, membership = _lock_player(campaign_id, user, expect, "talk at the table")
        campaign = head.campaign
        sheet = None
        if mode == "ic":
            if sheet_id is None:
                raise ActionError("Choose the character who speaks.")
            sheet = sheet_in(campaign, sheet_id, is_gm=membership.is_gm)
            own = sheet.kind == "pc" and sheet.owner_id == user.pk and membership.can_play
            if not (own or (membership.is_gm and sheet.kind == "npc")):
                raise ActionError(f"You do not speak for {sheet.name}.")
        whisper_to = whispers.recipient(campaign.pk, membership, to) if mode == "whisper" else None
        character = sheet.name if sheet else ""
        line = CHAT_MODES[mode].format(speaker=str(user), character=character, text=text)
        if whisper_to is not None:
            line = f"{user} whispers to {whisper_to['name']}: {text}"
        return _append(
            head,
            campaign,
            kind=Kind.CHAT,
            user=user,
            sheet=sheet,
            scene=_running_scene(head),
            request={"mode": mode, "text": text},
            outcome={"headline": line, "text": text, "role": membership.role},
            visibility=Visibility.WHISPER if mode == "whisper" else Visibility.PUBLIC,
            whisper_to=whisper_to,
        )


# --------------------------------------------------------------------------- scenes


def scene_started(campaign: Campaign, scene: Scene, user=None) -> TableEvent:
    """Log a scene start, inside campaigns.services.start_scene's transaction (which
    sends campaigns.signals.scene_started; table.receivers calls this)."""
    head = _lock(campaign.pk)
    _set_scene(head, scene)
    SceneState.objects.get_or_create(
        scene=scene, defaults={"campaign": campaign, "data": empty_state()}
    )
    return _append(
        head,
        campaign,
        kind=Kind.SCENE_START,
        user=user,
        scene=scene,
        outcome={
            "headline": f"Scene: {scene.title}",
            "explanation": scene.description or f"“{scene.title}” begins.",
        },
    )


def scene_ended(campaign: Campaign, scene: Scene, user=None) -> TableEvent:
    """Log a scene's end and expire what was kept for it (contests, assets and whatever
    the game keeps: its card names each key in the game's words, rules.kit.scene),
    inside the transaction of campaigns.services that ends it (campaigns.signals.
    scene_ended; table.receivers calls this)."""
    head = _lock(campaign.pk)
    if head.scene is not None and head.scene.pk == scene.pk:
        _set_scene(head, None)
    state = SceneState.objects.select_for_update().filter(scene=scene).first()
    expired: dict[str, Any] = {}
    if state is not None and not state.expired:
        # The card is public: what players could not see is not counted on it.
        expired = expired_summary(gate.public_state(campaign.pk, state.data))
        state.expired = True
        state.version += 1
        state.save(update_fields=["expired", "version", "updated_at"])
    parts = ", ".join(expired_word(campaign.game.scene, k) for k in expired)
    return _append(
        head,
        campaign,
        kind=Kind.SCENE_END,
        user=user,
        scene=scene,
        outcome={
            "headline": f"Scene ended: {scene.title}",
            "explanation": f"“{scene.title}” ends."
            + (f" Expired with it: {parts}." if parts else ""),
        },
        effects=[{"scene_state": {"expired": expired}}] if expired else [],
    )
