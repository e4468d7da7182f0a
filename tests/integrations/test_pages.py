"""The GM's Discord page: who may see and set hooks, which URLs are taken, and that a URL
is a secret (encrypted at rest, never shown in full on any page, export or admin list)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from integrations import vault
from integrations.models import Message, Webhook
from integrations.worker import UNREADABLE, Worker

from .conftest import drain

pytestmark = pytest.mark.django_db
TOKEN = "aB3-_" + "x" * 63
URL = f"https://discord.com/api/webhooks/123456789012345678/{TOKEN}"
OTHER = f"https://discord.com/api/webhooks/876543210987654321/{'Q' * 68}"


def page(campaign) -> str:
    return reverse("discord_settings", args=[campaign.pk])


def save(client, campaign, url: str, audience: str = "public"):
    return client.post(page(campaign), {"op": "save", "audience": audience, f"{audience}-url": url})


@pytest.mark.parametrize(
    "role, status", [("player", 403), ("observer", 403), ("outsider", 404), ("gm", 200)]
)
def test_only_the_gm_sees_the_page(campaign, client_for, role, status, request):
    user = request.getfixturevalue(role)
    assert client_for(user).get(page(campaign)).status_code == status


@pytest.mark.parametrize("role, status", [("player", 403), ("observer", 403), ("outsider", 404)])
def test_no_one_else_sets_tests_or_removes_a_hook(campaign, client_for, role, status, request):
    client = client_for(request.getfixturevalue(role))
    assert save(client, campaign, URL).status_code == status
    assert client.post(page(campaign), {"op": "remove", "audience": "public"}).status_code == status
    test = reverse("discord_test", args=[campaign.pk])
    assert client.post(test, {"audience": "public"}).status_code == status
    assert not Webhook.objects.exists() and not Message.objects.exists()


def test_anonymous_visitors_are_sent_to_log_in(campaign, client_for):
    answer = client_for(None).get(page(campaign))
    assert answer.status_code == 302 and answer["Location"].startswith(reverse("login"))


def test_the_gm_sets_a_hook_stored_encrypted_and_shown_masked(campaign, gm, client_for):
    client = client_for(gm)
    answer = save(client, campaign, f"  {URL}  ")
    assert answer.status_code == 302
    hook = Webhook.objects.get(campaign=campaign)
    assert TOKEN not in hook.url_sealed and "123456789012345678" not in hook.url_sealed
    assert vault.unseal(hook.url_sealed) == URL
    assert hook.url_hint == "…/webhooks/123456789012345678/aB3-…"
    shown = client.get(page(campaign)).content.decode()
    assert "…/webhooks/123456789012345678/aB3-…" in shown
    assert TOKEN[:10] not in shown


@pytest.mark.parametrize(
    "url, says",
    [
        ("", "Paste the webhook URL"),
        (URL.replace("https://", "http://"), "starts with https://"),
        (URL.replace("discord.com", "discord.com.evil.example"), "must be on discord.com"),
        (URL.replace("discord.com", "evil.example"), "must be on discord.com"),
        ("https://discord.com/api/webhooks/12345/short", "ends in /api/webhooks/"),
        (URL + "?wait=false", "only part a webhook URL may have"),
        (URL + "#x", "not a Discord webhook URL"),
        ("javascript:alert(1)", "starts with https://"),
        ("https://user@discord.com/api/webhooks/123456789012345678/" + TOKEN, "discord.com"),
    ],
)
def test_only_discord_webhook_urls_are_taken(campaign, gm, client_for, url, says):
    answer = save(client_for(gm), campaign, url)
    assert answer.status_code == 422
    assert says in answer.content.decode()
    assert not Webhook.objects.exists()
    if TOKEN in url:
        assert TOKEN not in answer.content.decode()  # the pasted URL is not written back


@pytest.mark.parametrize(
    "url",
    [
        URL,
        URL.replace("discord.com", "discordapp.com"),
        URL.replace("discord.com", "ptb.discord.com"),
        URL.replace("discord.com", "canary.discord.com"),
        URL.replace("/api/", "/api/v10/"),
        URL + "?thread_id=123456789012345999",
    ],
)
def test_every_form_of_a_discord_webhook_url_is_taken(url):
    parsed = vault.parse(url)
    assert parsed.webhook_id == "123456789012345678" and parsed.token == TOKEN
    assert parsed.url.endswith(TOKEN) or parsed.url.endswith("thread_id=123456789012345999")


def test_one_webhook_cannot_be_both_hooks(campaign, gm, client_for):
    """The same webhook as GM-only channel would post secret rolls to the players' one."""
    client = client_for(gm)
    save(client, campaign, URL)
    answer = save(client, campaign, URL.replace("discord.com", "ptb.discord.com"), "gm")
    assert answer.status_code == 422
    assert "same webhook as the public log" in answer.content.decode()
    assert save(client, campaign, OTHER, "gm").status_code == 302
    assert Webhook.objects.count() == 2


def test_the_test_message_goes_out_plain_and_the_gm_can_remove_a_hook(
    campaign, gm, client_for, receiver
):
    client = client_for(gm)
    save(client, campaign, receiver.url(1))
    answer = client.post(reverse("discord_test", args=[campaign.pk]), {"audience": "public"})
    assert answer.status_code == 302
    drain(Worker(), lambda: Message.objects.filter(state="sent").exists())
    (post,) = receiver.posts_to(1)
    assert post.payload["content"].startswith("Rollcall is connected")
    assert "Firefly Nights" in post.payload["content"] and "embeds" not in post.payload
    assert "Last message posted" in client.get(page(campaign)).content.decode()
    client.post(page(campaign), {"op": "remove", "audience": "public"})
    assert not Webhook.objects.exists()


def test_a_url_never_appears_in_full_on_any_page_export_or_admin_list(
    table_for, client_for, admin_client, receiver, hooks
):
    t = table_for("serenity")
    public, private = hooks(t.campaign)
    t.start_scene()
    t.perform(t.gm, "give_points", {"amount": 1}, sheet_id=t.pc.pk)
    scene = t.campaign.scenes.first()
    urls = [
        page(t.campaign),
        reverse("table", args=[t.campaign.pk]),
        reverse("table_export_scene", args=[t.campaign.pk, scene.pk, "json"]),
        reverse("table_export_scene", args=[t.campaign.pk, scene.pk, "md"]),
        reverse("table_export_session", args=[t.campaign.pk, "current", "json"]),
        reverse("campaign_home", args=[t.campaign.pk]),
    ]
    token = "T" * 68
    shown = ""
    for url in urls:
        answer = client_for(t.gm).get(url)
        assert answer.status_code == 200, url
        shown += answer.content.decode()
    for url in (
        reverse("admin:integrations_webhook_changelist"),
        reverse("admin:integrations_webhook_change", args=[public.pk]),
    ):
        answer = admin_client.get(url)
        assert answer.status_code == 200, url
        shown += answer.content.decode()
    assert public.url_hint in shown
    assert token[:8] not in shown and public.url_sealed not in shown
    assert "discord" not in client_for(t.player).get(page(t.campaign)).content.decode().lower()


def test_the_dashboard_offers_set_up_to_the_gm_only(table_for, client_for):
    t = table_for("serenity")
    table = reverse("table", args=[t.campaign.pk])
    assert "Discord: not set up" in client_for(t.gm).get(table).content.decode()
    assert "Discord" not in client_for(t.player).get(table).content.decode()


def test_a_changed_key_stops_the_hook_and_asks_for_the_url_again(
    table_for, client_for, receiver, hooks, settings
):
    t = table_for("serenity")
    public, _ = hooks(t.campaign, gm=False)
    t.start_scene()
    settings.DISCORD_WEBHOOK_KEY = "another key"
    drain(Worker(), lambda: Webhook.objects.get(pk=public.pk).is_broken)
    assert Webhook.objects.get(pk=public.pk).problem == UNREADABLE
    assert "Paste the webhook URL again" in client_for(t.gm).get(page(t.campaign)).content.decode()
    assert receiver.posts_to(1) == []


def test_waiting_messages_with_no_worker_say_so(table_for, client_for, hooks, receiver):
    import datetime as dt

    t = table_for("serenity")
    hooks(t.campaign, gm=False)
    t.start_scene()
    Message.objects.update(created_at=dt.datetime(2020, 1, 1, tzinfo=dt.UTC))
    table = client_for(t.gm).get(reverse("table", args=[t.campaign.pk])).content.decode()
    assert "is the worker running?" in table
