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
membership_of) live in table.reading.reads, apart from this write path, and are re-exported
here. Elsewhere: table.reading.export.verify(campaign) -> Verdict (ok, checked, first_bad_seq,
problem; str() reads "OK: n events verified" or "FAIL at seq n: ..."), and
table.reading.rendering.card_html(event, audience) / render_event_html(event, audience).

All of them raise ActionError with a message a player can read on any refusal.
`event_id` is the TableEvent's primary key (cards carry it as data-event-id).

Besides each system's rules actions, `action_name` may be one of the table's own
(table.acting.state.TABLE_ACTIONS): "give_points" (GM only, with a sheet_id; request
{"amount": 1..10, or -1..-10 to take back}) moves the points the game gives outside a
roll (its POINTS: plot points, unless it names another counter), never below zero.

`request` is the rules action's request (see the system's ACTIONS schema) plus an
optional "table" object of table-level options, never passed to the rules:

    contest    which contest the scene keeps (default: the only one going on)
    target     a sheet id: who receives what is given, who takes damage or heals,
               the reactor or opponent whose sheet fills the other side
    roll       the seq of an earlier kept roll a move acts on (default: the latest
               one of the character, or of the scene)
    from_seq   the seq of a logged roll whose total the action adds
    (others)   the name of an item a game keeps for the scene, by the option its
               scene piece is named by (rules.kit.scene.ScenePiece.named_by)

Fields the database knows (dice sizes and ratings on the sheet, counters, the
scene's pools and what the game keeps for the scene) are filled in from
the database; whatever the client sent for them is ignored.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from random import Random
from typing import Any

from django.conf import settings
from django.db import transaction

from accounts.text import shown_text
from campaigns.locking import Busy, retry_conflicts
from campaigns.models import Campaign, Membership, Scene
from rules.kit.actions import resolve, roll
from rules.kit.errors import RulesError
from rules.kit.scene import expired_word
from rules.registry import get_system
from table.acting import whispers
from table.acting.context import ActionError, Context, empty_state, sheet_in
from table.acting.state import (
    action_for,
    expire_session,
    expired_summary,
    handler_for,
    reset_session,
)
from table.acting.targets import named_event, refuse_reveal
from table.log import undo
from table.log import visibility as gate
from table.models import Kind, SceneState, TableEvent, Visibility
from table.reading.reads import (
    audience_of,
    last_seq,
    membership_of,
    scene_state,
    session_state,
    visible_events,
)
from table.writing.append import (
    NotMember,
    RoleChanged,
    append,
    confirm_write,
    forget_write,
    lock,
    lock_as,
    lock_player,
    plain_json,
    running_scene,
    set_scene,
)

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


# Tests may set a seeded Random here; None draws from rules.kit.faces.SYSTEM_RANDOM,
# the server's one source of randomness (secrets.SystemRandom).
RNG: Random | None = None

GM_AUDIENCE = gate.GM
MAX_REASON = 200


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
    request = plain_json(dict(request), "request")
    params = request.pop("table", None) or {}
    if not isinstance(params, dict):
        raise ActionError("The table options must be an object.")
    if len(json.dumps(request)) > settings.TABLE_MAX_MESSAGE_BYTES:
        raise ActionError("That request is too large.")
    with transaction.atomic():
        head, membership = lock_player(campaign_id, user, expect)
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
        scene = running_scene(head)
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
        return append(
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
        head, membership = lock_as(campaign.pk, user)
        if not membership.is_gm:  # the role first, whatever was named (table.acting.targets)
            raise ActionError("Only the GM can reveal a roll.")
        target = named_event(campaign, event_id, seq)
        refuse_reveal(target)
        target.revealed = True
        target.save(update_fields=["revealed"])
        return append(
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
    transaction (table/log/undo.py): counters by their deltas, never below zero; dice and
    scene state where nothing later changed them. The void's card names what was given
    back and what was left as it is."""
    if not isinstance(reason, str) or not shown_text(reason).strip():
        raise ActionError("Give a reason for voiding it.")
    reason = shown_text(reason).strip()
    if len(reason) > MAX_REASON:
        raise ActionError(f"The reason is at most {MAX_REASON} characters.")
    with transaction.atomic():
        head, membership = lock_as(campaign.pk, user)
        if not membership.is_gm:  # the role first, whatever was named (table.acting.targets)
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
        return append(
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
        head, membership = lock_as(campaign.pk, user)
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
        return append(
            head,
            campaign,
            kind=Kind.SESSION_START,
            user=user,
            scene=running_scene(head),
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
    """A line of talk in the log, its text already checked (table.talk.chat): in character as
    one of the speaker's characters (a player's own, or for a GM a GM character), out
    of character, or whispered to the GM or to player `to` (a user id, table.acting.whispers;
    read by the GMs, its author and its recipient only, table.log.visibility.sees)."""
    if mode not in CHAT_MODES:
        raise ActionError("Say how: in character (ic), out of character (ooc) or whisper.")
    with transaction.atomic():
        head, membership = lock_player(campaign_id, user, expect, "talk at the table")
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
        return append(
            head,
            campaign,
            kind=Kind.CHAT,
            user=user,
            sheet=sheet,
            scene=running_scene(head),
            request={"mode": mode, "text": text},
            outcome={"headline": line, "text": text, "role": membership.role},
            visibility=Visibility.WHISPER if mode == "whisper" else Visibility.PUBLIC,
            whisper_to=whisper_to,
        )


# --------------------------------------------------------------------------- scenes


def scene_started(campaign: Campaign, scene: Scene, user=None) -> TableEvent:
    """Log a scene start, inside campaigns.services.start_scene's transaction (which
    sends campaigns.signals.scene_started; table.writing.receivers calls this)."""
    head = lock(campaign.pk)
    set_scene(head, scene)
    SceneState.objects.get_or_create(
        scene=scene, defaults={"campaign": campaign, "data": empty_state()}
    )
    return append(
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
    scene_ended; table.writing.receivers calls this)."""
    head = lock(campaign.pk)
    if head.scene is not None and head.scene.pk == scene.pk:
        set_scene(head, None)
    state = SceneState.objects.select_for_update().filter(scene=scene).first()
    expired: dict[str, Any] = {}
    if state is not None and not state.expired:
        # The card is public: what players could not see is not counted on it.
        expired = expired_summary(gate.public_state(campaign.pk, state.data))
        state.expired = True
        state.version += 1
        state.save(update_fields=["expired", "version", "updated_at"])
    parts = ", ".join(expired_word(campaign.game.scene, k) for k in expired)
    return append(
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
