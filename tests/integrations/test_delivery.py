"""The worker against a real local HTTP receiver that behaves like Discord: events arrive
in the log's order, once, inside Discord's limits, through failures, rate limits and a
revoked hook."""

from __future__ import annotations

import pytest

from integrations.embeds import RESENT_NOTE
from integrations.models import Audience, Message, Webhook
from integrations.worker import Worker
from table.models import TableEvent
from table.writing.actions import reveal, void

from .conftest import drain, set_hook

pytestmark = pytest.mark.django_db
GOONS = {"die": "d8", "trait": "Goons", "group": "situation"}


def all_sent() -> bool:
    return not Message.objects.filter(state=Message.State.PENDING).exists()


def seqs_of(posts) -> list[int]:
    return [s for p in posts for s in p.seqs]


def logged(t) -> list[int]:
    return list(TableEvent.objects.filter(campaign=t.campaign).values_list("seq", flat=True))


def test_events_arrive_in_order_once_within_the_rate_limit(table_for, receiver, hooks):
    """Fourteen events against a bucket of five posts per 0.2 s: the worker waits when
    Discord's headers say the bucket is empty, and never hits a 429."""
    t = table_for("serenity")
    hooks(t.campaign)
    t.start_scene()
    for _ in range(12):
        t.perform(t.gm, "roll", {"pool": [GOONS]})
    t.perform(t.gm, "give_points", {"amount": 1}, sheet_id=t.pc.pk)
    drain(Worker(), all_sent)
    assert seqs_of(receiver.posts_to(1)) == logged(t)
    assert receiver.posts_to(2) == []  # nothing hidden: the GM-only channel gets nothing
    assert receiver.violations == []
    first = receiver.posts_to(1)[2].payload["embeds"][0]
    assert first["title"] == "Gina the GM · Roll a pool"
    assert "Goons" in first["fields"][0]["value"]  # the dice, with what each did


def test_after_the_receiver_fails_for_a_while_everything_arrives_in_order_once(
    table_for, receiver, hooks
):
    t = table_for("serenity")
    public, _ = hooks(t.campaign)
    receiver.then(1, ("status", 503), ("status", 502), ("limit", 0.15), ("status", 500))
    receiver.then(1, ("ok",), ("limit", 0.05), ("status", 429 + 71), ("ok",))  # a 500 again
    t.start_scene()
    for _ in range(6):
        t.perform(t.gm, "roll", {"pool": [GOONS]})
    drain(Worker(), all_sent)
    assert seqs_of(receiver.posts_to(1)) == logged(t)
    assert receiver.violations == []  # nothing was posted before a Retry-After ran out
    public.refresh_from_db()
    assert public.failures == 0 and public.last_error == "" and public.status == "active"
    first = Message.objects.get(event__seq=1)
    assert first.attempts == 5  # three failures and a 429 before it went through
    # A 5xx does not say whether Discord saved the post: the next try says it may repeat.
    assert RESENT_NOTE in receiver.posts_to(1)[0].text
    assert RESENT_NOTE not in receiver.posts_to(1)[-1].text


def test_an_answer_that_never_came_is_posted_again_and_says_so(
    table_for, receiver, hooks, settings
):
    """Discord saved the post but the worker stopped waiting (its timeout ran out): at
    least once. The repeat carries the same event number and a note that it may show
    twice. The answer is held until the test ends, so no machine is too slow for it."""
    settings.DISCORD_TIMEOUT_SECONDS = 5  # the held post's; the others' answers come in time
    t = table_for("serenity")
    hooks(t.campaign)
    receiver.then(1, ("hold",))
    t.start_scene()
    t.perform(t.gm, "roll", {"pool": [GOONS]})
    drain(Worker(), lambda: all_sent() and len(receiver.posts_to(1)) == 3)
    receiver.release.set()
    posts = receiver.posts_to(1)
    assert seqs_of(posts) == [1, 1, 2]
    assert RESENT_NOTE not in posts[0].text and RESENT_NOTE in posts[1].text
    assert RESENT_NOTE not in posts[2].text


def test_a_revoked_hook_stops_tells_the_gm_and_resumes_with_a_new_url(
    table_for, receiver, hooks, client_for
):
    t = table_for("serenity")
    public, private = hooks(t.campaign)
    t.start_scene()
    receiver.revoke(1)
    t.perform(t.gm, "roll", {"pool": [GOONS]})
    worker = Worker()
    drain(worker, lambda: Webhook.objects.get(pk=public.pk).is_broken)
    public.refresh_from_db()
    assert "does not exist any more" in public.problem
    assert Message.objects.filter(webhook=public, state="pending").count() == 2  # kept
    table = client_for(t.gm).get(f"/c/{t.campaign.pk}/table/").content.decode()
    assert "does not exist any more" in table  # on the GM dashboard
    page = client_for(t.gm).get(f"/c/{t.campaign.pk}/integrations/").content.decode()
    assert "does not exist any more" in page
    player_table = client_for(t.player).get(f"/c/{t.campaign.pk}/table/").content.decode()
    assert "does not exist any more" not in player_table
    # A stopped hook is left alone; the GM pastes a new URL and what waited is posted.
    t.perform(t.gm, "roll", {"pool": [GOONS]})
    assert not worker.run_once() or receiver.posts_to(1) == []
    answer = client_for(t.gm).post(
        f"/c/{t.campaign.pk}/integrations/",
        {"op": "save", "audience": "public", "public-url": receiver.url(3)},
    )
    assert answer.status_code == 302
    drain(worker, all_sent)
    assert seqs_of(receiver.posts_to(3)) == logged(t)
    assert receiver.posts_to(1) == []
    assert private is not None and receiver.violations == []


def test_a_message_discord_refuses_is_dropped_and_three_in_a_row_stop_the_hook(
    table_for, receiver, hooks
):
    t = table_for("serenity")
    public, _ = hooks(t.campaign, gm=False)
    receiver.then(1, ("status", 400), ("ok",), ("status", 400), ("status", 413), ("status", 400))
    t.start_scene()
    for _ in range(5):
        t.perform(t.gm, "roll", {"pool": [GOONS]})
    drain(Worker(), lambda: Webhook.objects.get(pk=public.pk).is_broken)
    states = list(Message.objects.order_by("id").values_list("state", flat=True))
    assert states == ["dropped", "sent", "dropped", "dropped", "dropped", "pending"]
    assert seqs_of(receiver.posts_to(1)) == [2]
    public.refresh_from_db()
    assert public.problem.startswith("Discord refused the last 3 messages: Server error")


def test_hidden_rolls_go_sealed_to_players_and_in_full_to_the_gm_then_open_when_revealed(
    table_for, receiver, hooks
):
    t = table_for("serenity")
    hooks(t.campaign)
    t.start_scene()
    secret = t.perform(t.gm, "roll", {"pool": [{**GOONS, "trait": "Reavers"}]}, visibility="gm")
    worker = Worker()
    drain(worker, all_sent)
    public, gm = receiver.posts_to(1), receiver.posts_to(2)
    assert seqs_of(public) == [1, 2] and seqs_of(gm) == [2]
    assert "Reavers" not in public[1].text
    assert public[1].payload["embeds"][0]["title"] == "The GM rolled behind the screen"
    assert secret.seal["commitment"] in public[1].text
    assert "Reavers" in gm[0].text
    shown = reveal(t.campaign, t.gm, secret.pk)
    void(t.campaign, t.gm, secret.pk, "wrong dice")
    drain(worker, all_sent)
    public = receiver.posts_to(1)
    assert seqs_of(public) == [1, 2, shown.seq, shown.seq + 1]
    opened = public[2].payload["embeds"]
    assert opened[0]["title"] == f"Revealed: #{secret.seq}"
    assert "Reavers" in opened[1]["fields"][0]["value"]
    assert secret.seal["salt"] in public[2].text  # anyone can check the commitment now
    assert public[3].payload["embeds"][0]["title"] == f"Voided: #{secret.seq}"
    assert seqs_of(receiver.posts_to(2)) == [2]  # public events do not go to the GM channel
    assert receiver.violations == []


def test_a_hook_set_later_gets_only_what_comes_after(table_for, receiver):
    t = table_for("serenity")
    t.start_scene()
    set_hook(t.campaign, Audience.PUBLIC, receiver.url(1))
    t.perform(t.gm, "roll", {"pool": [GOONS]})
    drain(Worker(), all_sent)
    assert seqs_of(receiver.posts_to(1)) == [2]


def test_two_workers_never_serve_one_hook_at_once(table_for, receiver, hooks):
    """Interleaved passes of two workers still post in order, once."""
    t = table_for("serenity")
    hooks(t.campaign, gm=False)
    t.start_scene()
    for _ in range(8):
        t.perform(t.gm, "roll", {"pool": [GOONS]})
    first, second = Worker("one"), Worker("two")
    hook = Webhook.objects.get()
    assert first.claim(hook.pk) is not None
    assert second.claim(hook.pk) is None  # leased
    first.release(hook.pk)
    drain(second, lambda: Message.objects.filter(state="sent").count() >= 3)
    drain(first, all_sent)
    assert seqs_of(receiver.posts_to(1)) == logged(t)


def test_nothing_more_goes_to_a_url_the_gm_replaced(table_for, receiver, hooks, client_for):
    """A worker serving the hook when the GM replaces its URL posts the rest to the new
    one: say the GM-only channel's URL was a public channel's by mistake."""
    t = table_for("serenity")
    _, private = hooks(t.campaign)
    t.start_scene()
    for _ in range(3):
        t.perform(t.gm, "roll", {"pool": [GOONS]}, visibility="gm")
    worker = Worker()
    hook = worker.claim(private.pk)
    message = Message.objects.filter(webhook=private).first()
    assert worker.take(hook, message) and worker.deliver(hook, receiver.url(2), message)
    answer = client_for(t.gm).post(
        f"/c/{t.campaign.pk}/integrations/",
        {"op": "save", "audience": "gm", "gm-url": receiver.url(4)},
    )
    assert answer.status_code == 302
    second = Message.objects.filter(webhook=private, state="pending").first()
    assert not worker.take(hook, second)  # the lease holds the old URL: it stops there
    worker.release(private.pk)
    drain(worker, all_sent)
    assert seqs_of(receiver.posts_to(2)) == [2] and seqs_of(receiver.posts_to(4)) == [3, 4]
