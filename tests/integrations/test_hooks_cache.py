"""A campaign without Discord hooks costs its rolls no query for them (integrations.outbox
.campaign_hooks), and that saving never loses a message: a hook made between two events
gets the second, a hook removed gets nothing more, and "none" read just before a hook is
made is not believed afterwards."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from integrations import outbox
from integrations.models import Audience, Message

from .conftest import set_hook

pytestmark = pytest.mark.django_db
GOONS = {"die": "d8", "trait": "Goons", "group": "situation"}
URL_1 = "https://discord.com/api/webhooks/123456789012345678/" + "a" * 40
URL_2 = "https://discord.com/api/webhooks/223456789012345678/" + "b" * 40


def hook_queries(run) -> int:
    with CaptureQueriesContext(connection) as seen:
        run()
    return sum("integrations_webhook" in q["sql"] for q in seen.captured_queries)


def queued(t) -> list[int]:
    return list(
        Message.objects.filter(event__campaign=t.campaign).values_list("event__seq", flat=True)
    )


def test_a_campaign_without_hooks_asks_once_then_never_again(table_for):
    t = table_for("serenity")
    assert hook_queries(t.start_scene) == 1
    assert hook_queries(lambda: t.perform(t.gm, "roll", {"pool": [GOONS]})) == 0
    assert queued(t) == []


def test_a_hook_made_between_two_events_gets_the_second_and_a_removed_one_nothing(table_for):
    t = table_for("serenity")
    t.start_scene()
    t.perform(t.gm, "roll", {"pool": [GOONS]})  # seq 2: "none" is cached
    hook = set_hook(t.campaign, Audience.PUBLIC, URL_1)
    t.perform(t.gm, "roll", {"pool": [GOONS]})  # seq 3
    assert queued(t) == [3]
    hook.delete()
    t.perform(t.gm, "roll", {"pool": [GOONS]})  # seq 4: nothing to post it, no error
    assert hook_queries(lambda: t.perform(t.gm, "roll", {"pool": [GOONS]})) == 0


def test_none_read_before_a_hook_was_made_is_not_believed_after(table_for):
    t = table_for("serenity")
    generation_key, none_key = outbox._keys(t.campaign.pk)
    stale = cache.get(generation_key, 0)  # a roll reads the generation...
    set_hook(t.campaign, Audience.GM, URL_2)
    cache.set(none_key, stale)  # ...and writes "none" after the hook was made
    assert [audience for _, audience in outbox.campaign_hooks(t.campaign.pk)] == [Audience.GM]
