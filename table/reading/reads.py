"""What a member may read at the table: the log, the running scene, the session.

The read side of the table, apart from the write path (table.writing.actions, which
re-exports these as part of its API). Every read goes through the one visibility
gate (table.log.visibility): hidden events show as sealed cards, what a player may not
see of the scene is veiled.
"""

from __future__ import annotations

from typing import Any

from campaigns.models import Campaign, Membership
from table.acting.context import ActionError, empty_state
from table.acting.state import visible_state
from table.log import visibility as gate
from table.models import Kind, SceneState, SessionState, TableEvent, TableLog
from table.reading.rendering import event_message, stream_message


def membership_of(campaign: Campaign | int, user) -> Membership | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    campaign_id = campaign if isinstance(campaign, int) else campaign.pk
    return Membership.objects.filter(campaign_id=campaign_id, user=user).first()


audience_of = gate.audience_of


def visible_events(
    campaign: Campaign, user, *, after_seq: int = 0, limit: int | None = None
) -> list[TableEvent]:
    """The events of the log after `after_seq`, in order: every member is shown every
    seq, hidden events as sealed cards and others' whispers to the GM as sealed lines
    (table.log.visibility decides what each shows)."""
    audience = audience_of(membership_of(campaign, user))
    if audience is None:
        raise ActionError("You are not a member of this campaign.")
    rows = TableEvent.objects.filter(
        gate.log_filter(audience, user.pk), campaign=campaign, seq__gt=after_seq
    ).order_by("seq")
    return list(rows[:limit] if limit is not None else rows)


def last_seq(campaign: Campaign, user) -> int:
    """The newest seq in the log (0 for an empty log): every member is shown every seq."""
    audience = audience_of(membership_of(campaign, user))
    head = TableLog.objects.filter(campaign=campaign).first()
    if head is None or audience is None:
        return 0
    return head.last_seq


def _reader(campaign: Campaign, user, membership: Membership | None) -> Membership:
    """The reading user's membership: the one the caller already read for this campaign
    and user (a view's permission check), or read now; refused for non-members."""
    if (
        membership is None
        or membership.campaign_id != campaign.pk
        or (user is not None and membership.user_id != user.pk)
    ):
        membership = membership_of(campaign, user)
    if membership is None:
        raise ActionError("You are not a member of this campaign.")
    return membership


def scene_state(
    campaign: Campaign, user=None, *, membership: Membership | None = None
) -> dict[str, Any]:
    """The active scene and what is kept for it, as `user` may see it (`membership`:
    the user's, when the caller has read it already).

    Without a user, the GM's view. Keys of "state" (each present once used): the
    table's own (contests, complications, assets, difficulty, order: the action order,
    rules.kit.order) and those the game declares in its SCENE (rules.kit.scene).
    """
    gm = True
    if user is not None or membership is not None:
        gm = _reader(campaign, user, membership).is_gm
    scene = campaign.active_scene
    if scene is None:
        return {"scene": None, "state": {}, "version": 0}
    row = SceneState.objects.filter(scene=scene).first()
    data = row.data if row is not None else empty_state()
    return {
        "scene": {"id": scene.pk, "title": scene.title, "description": scene.description},
        "state": visible_state(campaign, data, gm=gm),
        "version": row.version if row is not None else 0,
    }


def session_state(
    campaign: Campaign, user=None, *, membership: Membership | None = None
) -> dict[str, Any]:
    """What lasts the play session under way, across its scenes: {"session": its number
    (0 before the first mark), "state": {"assets": {name: {die, sheet, seq, scene}}},
    "version"}. SER-10 session Assets are public (only a public event promotes one), so
    every member sees the same; one stepped up behind the screen is veiled."""
    gm = True
    if user is not None or membership is not None:
        gm = _reader(campaign, user, membership).is_gm
    row = SessionState.objects.filter(campaign_id=campaign.pk).first()
    if row is None:
        number = TableEvent.objects.filter(campaign_id=campaign.pk, kind=Kind.SESSION_START)
        return {"session": number.count(), "state": {}, "version": 0}
    state = visible_state(campaign, row.data, gm=gm)
    return {"session": row.session, "state": state, "version": row.version}


# --------------------------------------------------------------------------- replay


def _head(campaign_id: int, audience: str) -> int:
    """The newest seq: every audience is shown every seq (table.log.visibility)."""
    head = TableLog.objects.filter(campaign_id=campaign_id).first()
    return 0 if head is None else head.last_seq


def _replay_rows(
    campaign_id: int, audience: str, after: int, limit: int, viewer: int | None
) -> tuple[int, str | None, list[TableEvent]]:
    """(head, "ahead" | "behind" | None, the events after `after` this reader gets)."""
    head = _head(campaign_id, audience)
    if after > head:
        return head, "ahead", []
    rows = TableEvent.objects.filter(
        gate.log_filter(audience, viewer), campaign_id=campaign_id, seq__gt=after
    ).select_related("target")
    events = list(rows.order_by("seq")[: limit + 1])
    if len(events) > limit:
        return head, "behind", []
    return max([head, *(e.seq for e in events)]), None, events


def fetch_replay(
    campaign_id: int, audience: str, after: int, limit: int, viewer: int | None = None
) -> dict[str, Any]:
    """Every event the audience may see after `after`, rendered, or "too far behind"
    (`viewer`: the reader's user id; another member's whisper is its sealed line)."""
    head, reload, events = _replay_rows(campaign_id, audience, after, limit, viewer)
    return {
        "head": head,
        "reload": reload,
        "messages": [(e.seq, event_message(e, audience, viewer)) for e in events],
    }


def fetch_stream(campaign_id: int, audience: str, after: int, limit: int) -> dict[str, Any]:
    """fetch_replay() for every socket of an audience at once (table.live.broadcast's
    catch-up): each event as its broadcast carries it (rendering.stream_message)."""
    head, reload, events = _replay_rows(campaign_id, audience, after, limit, gate.ANY_MEMBER)
    return {
        "head": head,
        "reload": reload,
        "messages": [stream_message(e, audience) for e in events],
    }
