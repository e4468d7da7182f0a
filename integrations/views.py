"""The GM's integrations page: a campaign's Discord webhooks, set, tested and removed.

GMs only: players and observers get the 403 every GM page gives, outsiders the 404
(campaigns.permissions.get_campaign_for_gm).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from campaigns.models import Campaign
from campaigns.permissions import get_campaign_for_gm

from . import vault
from .embeds import plain
from .forms import WebhookForm
from .models import Audience, Message, Webhook
from .outbox import queue_test
from .status import campaign_hooks

SAME_HOOK = (
    "That is the same webhook as the {other}: each needs a webhook of its own (the GM-only "
    "one in a channel only GMs can read), or secret rolls would reach the players' channel."
)


def _audience(request: HttpRequest) -> str | None:
    value = request.POST.get("audience")
    return value if value in Audience.values else None


def _same_as_other(campaign: Campaign, audience: str, parsed: vault.WebhookUrl) -> bool:
    for other in Webhook.objects.filter(campaign=campaign).exclude(audience=audience):
        try:
            if vault.parse(vault.unseal(other.url_sealed)).webhook_id == parsed.webhook_id:
                return True
        except (vault.Unreadable, vault.InvalidWebhook):
            continue
    return False


def save_hook(campaign: Campaign, audience: str, parsed: vault.WebhookUrl, user) -> Webhook:
    """Set (or replace) the audience's hook; a stopped hook starts again, and what waited
    for it is posted to the new URL."""
    fields = {
        "url_sealed": vault.seal(parsed.url),
        "url_hint": parsed.hint,
        "status": Webhook.Status.ACTIVE,
        "problem": "",
        "problem_at": None,
        "retry_at": None,
        "failures": 0,
        "refusals": 0,
        "last_error": "",
        "created_by": user,
    }
    with transaction.atomic():
        hook, _ = Webhook.objects.update_or_create(
            campaign=campaign, audience=audience, defaults=fields
        )
    return hook


@login_required
def discord_settings(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign, membership = get_campaign_for_gm(request.user, campaign_id)
    forms = {a: WebhookForm(prefix=a) for a in Audience.values}
    if request.method == "POST":
        audience = _audience(request)
        op = request.POST.get("op")
        hook = Webhook.objects.filter(campaign=campaign, audience=audience).first()
        label = Audience(audience).label.lower() if audience else ""
        if audience is None or op not in ("save", "remove", "discard"):
            messages.error(request, "Choose what to change: the public log or the GM-only channel.")
            return redirect("discord_settings", campaign.pk)
        if op == "save":
            form = WebhookForm(request.POST, prefix=audience)
            forms[audience] = form
            if form.is_valid():
                parsed = form.cleaned_data["url"]
                other = Audience.GM if audience == Audience.PUBLIC else Audience.PUBLIC
                if _same_as_other(campaign, audience, parsed):
                    form.add_error("url", SAME_HOOK.format(other=other.label.lower()))
                else:
                    save_hook(campaign, audience, parsed, request.user)
                    messages.success(
                        request,
                        f"Saved the {label} webhook ({parsed.hint}). Send a test message "
                        "to see it arrive.",
                    )
                    return redirect("discord_settings", campaign.pk)
        elif hook is None:
            messages.error(request, f"There is no {label} webhook.")
            return redirect("discord_settings", campaign.pk)
        elif op == "remove":
            hook.delete()
            messages.success(request, f"Removed the {label} webhook: nothing more is posted to it.")
            return redirect("discord_settings", campaign.pk)
        else:
            dropped = hook.messages.filter(state=Message.State.PENDING).update(
                state=Message.State.DROPPED, error=f"discarded by the GM at {timezone.now():%H:%M}"
            )
            messages.success(request, f"Discarded {dropped} waiting message(s).")
            return redirect("discord_settings", campaign.pk)
    hooks = campaign_hooks(campaign)
    for status in hooks:
        status.form = forms[status.audience]
    return render(
        request,
        "integrations/discord.html",
        {
            "campaign": campaign,
            "membership": membership,
            "hooks": hooks,
            # while something is on its way, the page follows it (not for a stopped hook)
            "refresh": any(s.waiting and s.state != "broken" for s in hooks),
        },
        status=422 if request.method == "POST" else 200,
    )


@login_required
@require_POST
def discord_test(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Queue a plain test message behind what the hook still has to post."""
    campaign, _ = get_campaign_for_gm(request.user, campaign_id)
    audience = _audience(request)
    hook = Webhook.objects.filter(campaign=campaign, audience=audience).first()
    if hook is None:
        messages.error(request, "Set a webhook URL first.")
        return redirect("discord_settings", campaign.pk)
    label = Audience(audience).label
    queue_test(
        hook,
        f"Rollcall is connected: this channel gets the {label.lower()} of "
        f"“{plain(campaign.name)}”.",
    )
    note = "" if not hook.is_broken else " It waits until you paste a working URL."
    messages.success(
        request,
        f"Test message queued for the {label.lower()}: it shows in the channel within seconds, "
        f"and this page says so if Discord refuses it.{note}",
    )
    return redirect("discord_settings", campaign.pk)
