"""How a campaign's hooks are doing, in words for the GM (integrations page, GM dashboard)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Count, Min, Q
from django.utils import timezone

from campaigns.models import Campaign

from .models import Audience, Message, Webhook

WHAT_EACH_GETS = {
    Audience.PUBLIC: "Everything players see in the log: public rolls and cards, sealed cards "
    "for secret and blind rolls, and the opened card when you reveal one.",
    Audience.GM: "Secret and blind rolls in full as they happen, and the GM's scoring of rolls "
    "against a difficulty set in secret. Use a channel only GMs can read.",
}
# Messages older than this with nobody posting them: the worker is probably not running.
STALLED_AFTER = dt.timedelta(seconds=60)


@dataclass
class HookStatus:
    audience: str
    label: str
    gets: str
    hook: Webhook | None
    waiting: int = 0
    state: str = "none"  # none, ok, retrying, stalled, broken
    text: str = ""

    @property
    def alert(self) -> bool:
        return self.state in ("retrying", "stalled", "broken")


def _describe(hook: Webhook, waiting: int, oldest: dt.datetime | None) -> tuple[str, str]:
    now = timezone.now()
    if hook.is_broken:
        return "broken", f"Stopped. {hook.problem}"
    if hook.failures:
        when = timezone.localtime(hook.retry_at).strftime("%H:%M:%S") if hook.retry_at else "soon"
        return "retrying", (
            f"Discord has not taken the last {hook.failures} "
            f"attempt{'s' if hook.failures != 1 else ''} ({hook.last_error}). "
            f"Trying again at {when}; {waiting} waiting."
        )
    stalled_after = max(STALLED_AFTER, dt.timedelta(seconds=3 * settings.DISCORD_POLL_SECONDS))
    held_back = hook.retry_at is not None and hook.retry_at > now
    if waiting and oldest is not None and now - oldest > stalled_after and not held_back:
        return "stalled", (
            f"{waiting} message{'s' if waiting != 1 else ''} waiting since "
            f"{timezone.localtime(oldest).strftime('%H:%M')}, and nothing is posting them: "
            "is the worker running? (`make run` starts it; in production, "
            "`manage.py discord_worker`.)"
        )
    text = "Working."
    if hook.last_sent_at:
        text += f" Last message posted at {timezone.localtime(hook.last_sent_at):%H:%M}."
    if hook.last_error:
        text += f" The last one refused: {hook.last_error}"
    if waiting:
        text += f" {waiting} waiting{' (Discord asked us to slow down)' if held_back else ''}."
    return "ok", text


def campaign_hooks(campaign: Campaign) -> list[HookStatus]:
    """Both audiences, in page order, each with its hook (if any) and how it is doing."""
    pending = Q(messages__state=Message.State.PENDING)
    hooks = {
        h.audience: h
        for h in Webhook.objects.filter(campaign=campaign).annotate(
            waiting=Count("messages", filter=pending),
            oldest=Min("messages__created_at", filter=pending),
        )
    }
    out = []
    for audience in (Audience.PUBLIC, Audience.GM):
        hook = hooks.get(audience)
        status = HookStatus(audience, audience.label, WHAT_EACH_GETS[audience], hook)
        if hook is not None:
            status.waiting = hook.waiting
            status.state, status.text = _describe(hook, hook.waiting, hook.oldest)
        out.append(status)
    return out
