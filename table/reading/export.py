"""Checking the log, and exporting a scene or a session as Markdown or JSON.

`verify(campaign)` recomputes every action's outcome from its request and faces
with the rules, checks the seq numbers are gapless, the hash chain unbroken, the
log head in step, and the revealed/voided flags backed by their events.

Exports hold only what the requesting user may see: GMs everything, players
and observers the public events (a revealed roll through its reveal event).
A session runs from one "new session" mark the GM sets (a session_start event) to
the next; a campaign that never marked one falls back to one day of play (UTC). A
scene is every event logged in it.
"""

from __future__ import annotations

import datetime as dt
import html
import json
import re
from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from campaigns.models import Campaign, Scene
from rules.kit.actions import resolve
from rules.kit.errors import RulesError
from rules.registry import get_system
from table.acting.context import ActionError
from table.acting.state import action_for
from table.log import visibility
from table.models import GENESIS_HASH, Kind, TableEvent, TableLog, canonical_json
from table.reading.reads import audience_of, membership_of


@dataclass(frozen=True)
class Verdict:
    ok: bool
    checked: int
    first_bad_seq: int | None = None
    problem: str = ""

    def __str__(self) -> str:
        if self.ok:
            return f"OK: {self.checked} events verified"
        return (
            f"FAIL at seq {self.first_bad_seq}: {self.problem} ({self.checked} verified before it)"
        )


def _same(a: Any, b: Any) -> bool:
    return canonical_json(json.loads(json.dumps(a))) == canonical_json(b)


def _check_event(event: TableEvent, expected_seq: int, previous: str) -> str:
    """What is wrong with one event, or "" when nothing is."""
    if event.seq != expected_seq:
        return f"seq {expected_seq} is missing (next stored is {event.seq})"
    if event.prev_hash != previous:
        return "prev_hash does not match the hash of the event before it"
    if event.compute_hash() != event.hash:
        return "the hash does not match the event's content (it was changed)"
    if event.kind == Kind.ACTION:
        try:
            action = action_for(get_system(event.system), event.action)
            recomputed = resolve(action, event.request, event.faces)
        except RulesError as error:
            return f"the rules refuse the stored request and faces: {error}"
        if not _same(recomputed, event.outcome):
            return "the stored outcome differs from the outcome the rules compute"
    seal = event.seal or {}
    if seal and seal.get("commitment") != visibility.commitment(
        event.faces, event.outcome, str(seal.get("salt", ""))
    ):
        return "the sealed commitment does not match the event's faces and outcome"
    return ""


def verify(campaign: Campaign) -> Verdict:
    """Re-check the whole log of a campaign; the first bad seq stops the check."""
    previous = GENESIS_HASH
    expected = 1
    revealed: set[int] = set()
    voided: set[int] = set()
    flagged: dict[int, tuple[bool, bool]] = {}
    events = TableEvent.objects.filter(campaign=campaign).order_by("seq")
    for event in events.iterator(chunk_size=500):
        problem = _check_event(event, expected, previous)
        if problem:
            return Verdict(False, expected - 1, expected if "missing" in problem else event.seq,
                           problem)  # fmt: skip
        target = event.refs.get("target_seq")
        if event.kind == Kind.REVEAL and target is not None:
            revealed.add(target)
        if event.kind == Kind.VOID and target is not None:
            voided.add(target)
        flagged[event.seq] = (event.revealed, event.voided)
        previous = event.hash
        expected += 1
    for seq, (is_revealed, is_voided) in flagged.items():
        if is_revealed != (seq in revealed):
            return Verdict(False, len(flagged), seq, "the revealed flag has no reveal event")
        if is_voided != (seq in voided):
            return Verdict(False, len(flagged), seq, "the voided flag has no void event")
    head = TableLog.objects.filter(campaign=campaign).first()
    last = expected - 1
    if head is not None and (head.last_seq != last or head.last_hash != previous):
        return Verdict(False, last, last + 1, "the log head does not match the last event")
    return Verdict(True, last)


# --------------------------------------------------------------------------- export


def _audience(campaign: Campaign, user) -> str:
    audience = audience_of(membership_of(campaign, user))
    if audience is None:
        raise ActionError("You are not a member of this campaign.")
    return audience


def _visible(campaign: Campaign, audience: str, viewer: int | None = None):
    rows = TableEvent.objects.filter(visibility.log_filter(audience, viewer), campaign=campaign)
    return rows.select_related("target").order_by("seq")


def session_bounds(day: dt.date) -> tuple[dt.datetime, dt.datetime]:
    start = dt.datetime.combine(day, dt.time.min, tzinfo=dt.UTC)
    return start, start + dt.timedelta(days=1)


class NoSuchSession(ActionError):
    """The session asked for is not in this campaign's log."""


def session_marks(campaign: Campaign) -> list[tuple[int, dt.datetime]]:
    """(seq, time) of each "new session" mark, oldest first; session n starts at mark n."""
    rows = TableEvent.objects.filter(campaign=campaign, kind=Kind.SESSION_START).order_by("seq")
    return list(rows.values_list("seq", "created_at"))


def session_span(campaign: Campaign, which: str | int | dt.date) -> tuple[dict[str, Any], str]:
    """The filter and title of a session: "current", a session number (0: the events
    before the first mark), or a date (the sessions begun that UTC day; with no mark
    ever set, simply that day)."""
    marks = session_marks(campaign)
    if not marks:
        if isinstance(which, int):
            raise NoSuchSession("No session has been marked yet: export a day (YYYY-MM-DD).")
        day = timezone.now().astimezone(dt.UTC).date() if which == "current" else which
        start, end = session_bounds(day)
        return {"created_at__gte": start, "created_at__lt": end}, f"Session of {day.isoformat()}"
    if which == "current":
        which = len(marks)
    if isinstance(which, dt.date):
        numbers = [n for n, (_, at) in enumerate(marks, 1) if at.astimezone(dt.UTC).date() == which]
        if not numbers:
            raise NoSuchSession(f"No session was started on {which.isoformat()}.")
        first, last = numbers[0], numbers[-1]
        title = f"Session {first}" if first == last else f"Sessions {first}–{last}"
        title += f" ({which.isoformat()})"
    elif isinstance(which, int) and 0 <= which <= len(marks):
        first = last = which
        title = f"Session {which}" if which else "Before the first session"
    else:
        raise NoSuchSession(f"There is no session {which}: this campaign has {len(marks)}.")
    rows: dict[str, Any] = {}
    if first > 0:
        rows["seq__gte"] = marks[first - 1][0]
    if last < len(marks):
        rows["seq__lt"] = marks[last][0]
    return rows, title


def export_data(
    campaign: Campaign,
    user,
    *,
    scene: Scene | None = None,
    day: dt.date | None = None,
    session: str | int | dt.date | None = None,
) -> dict[str, Any]:
    """A scene's or a session's events as plain data, as this user may see them.
    `session`: see session_span; `day` is the same as session=day."""
    audience = _audience(campaign, user)
    viewer = getattr(user, "pk", None)
    rows = _visible(campaign, audience, viewer)
    if day is not None and session is None:
        session = day
    if scene is not None:
        rows = rows.filter(scene=scene)
        title = f"Scene: {scene.title}"
    elif session is not None:
        bounds, title = session_span(campaign, session)
        rows = rows.filter(**bounds)
    else:
        title = "Whole log"
    return {
        "campaign": {"id": campaign.pk, "name": campaign.name, "system": campaign.system},
        "title": title,
        "exported_at": timezone.now().isoformat(),
        "audience": audience,
        "events": [visibility.event_data(e, audience, viewer) for e in rows],
    }


def to_json(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False)


# Markdown's inline syntax: emphasis, code, links and images, tables, strikethrough.
_MD_INLINE = str.maketrans({c: "\\" + c for c in "\\`*_[]|~"})
_MD_BLOCK_START = re.compile(r"^(\s*\d*)([#+=.)-])")


def _md(text: object) -> str:
    """User text (names, titles, outcomes that quote them) as literal Markdown text, on one
    line: HTML is escaped (a viewer that renders the file shows `<script>` as text and
    runs nothing), Markdown syntax is backslash-escaped, and a leading heading, quote or
    list marker is escaped so the text cannot start a block of its own."""
    flat = " ".join(str(text).splitlines())
    escaped = html.escape(flat, quote=False).translate(_MD_INLINE)
    return _MD_BLOCK_START.sub(lambda m: f"{m.group(1)}\\{m.group(2)}", escaped)


def to_markdown(data: dict[str, Any]) -> str:
    lines = [f"# {_md(data['campaign']['name'])} — {_md(data['title'])}", ""]
    lines.append(f"Exported {data['exported_at']} · {len(data['events'])} events")
    lines.append("")
    for event in data["events"]:
        if event["kind"] == "sealed":
            lines.append(f"## #{event['seq']} {_md(event['headline'])} *(sealed)*")
            lines.append("")
            if event["commitment"]:  # a whisper has none: it is never revealed
                lines.append(f"Commitment (SHA-256): `{event['commitment']}`")
                lines.append("")
            continue
        who = event["character"] or event["actor"]
        what = event["action"] or event["kind"].replace("_", " ")
        mark = "" if event["visibility"] == "public" else f" *({event['visibility']})*"
        void = " ~~voided~~" if event["voided"] else ""
        headline = event["outcome"].get("headline", "")
        said_by_gm = event["kind"] == Kind.CHAT and event["outcome"].get("role") == "gm"
        gm = " **\\[GM\\]**" if said_by_gm else ""  # from the role: the name is escaped
        lines.append(f"## #{event['seq']} {_md(who)}{gm} — {_md(what)}{mark}{void}")
        lines.append("")
        lines.append(f"**{_md(headline)}**")
        lines.append("")
        if event["outcome"].get("goal"):
            lines.append(f"For: {_md(event['outcome']['goal'])}")
            lines.append("")
        if event["outcome"].get("explanation"):
            lines.append(_md(event["outcome"]["explanation"]))
            lines.append("")
        if event["faces"]:
            lines.append(f"Faces: {', '.join(str(f) for f in event['faces'])}")
            lines.append("")
        target = event.get("target")
        if target is not None and event["kind"] == Kind.REVEAL:
            lines.append(
                f"Revealed #{target['seq']}: {_md(target['outcome'].get('headline', ''))} "
                f"(faces {', '.join(str(f) for f in target['faces'])})"
            )
            lines.append("")
        if event.get("seal"):
            lines.append(
                f"Sealed before the reveal: commitment `{event['seal']['commitment']}`, "
                f"salt `{event['seal']['salt']}`"
            )
            lines.append("")
    return "\n".join(lines).rstrip() + "\n"
