"""The canary, on Discord: hidden events of every kind in every game (tests/table/test_canary.py
plants them, each with a unique marker in what only the GM may see). The GM-only hook
posts every marker; the public hook posts none of them, in any post, until the GM
reveals an event, and then that event's opened card arrives after its sealed one."""

from __future__ import annotations

import pytest

from integrations.models import Message
from integrations.worker import Worker
from table.log.visibility import GM
from table.models import Kind, TableEvent, Visibility
from table.reading.rendering import render_event_html
from table.writing.actions import reveal
from tests.table.test_canary import CANARY, plant

from .conftest import drain

pytestmark = pytest.mark.django_db


def all_sent() -> bool:
    return not Message.objects.filter(state=Message.State.PENDING).exists()


@pytest.mark.parametrize(
    "system", ["serenity", "smallville", "cortex_slots", "personae", "unisystem"]
)
def test_no_hidden_marker_reaches_the_public_hook_before_its_reveal(
    table_for, receiver, hooks, system
):
    t = table_for(system)
    hooks(t.campaign)
    markers = plant(t, system)
    worker = Worker()
    drain(worker, all_sent)
    events = list(TableEvent.objects.filter(campaign=t.campaign).order_by("seq"))

    gm_seen = set(CANARY.findall(" ".join(p.text for p in receiver.posts_to(2))))
    on_cards = set(CANARY.findall(" ".join(render_event_html(e, GM) for e in events)))
    assert gm_seen == on_cards, (gm_seen, on_cards, markers)  # the GM channel: all the cards show
    before = receiver.posts_to(1)
    assert [s for p in before for s in p.seqs] == [e.seq for e in events]  # each seq once
    for post in before:
        assert not CANARY.findall(post.text), post.text

    hidden = [
        e for e in events if e.kind == Kind.ACTION and e.visibility != Visibility.PUBLIC
        and not e.voided
    ]  # fmt: skip
    assert hidden
    shown = {reveal(t.campaign, t.gm, e.pk).seq: e for e in hidden}
    drain(worker, all_sent)
    after = receiver.posts_to(1)[len(before) :]
    assert [s for p in after for s in p.seqs] == sorted(shown)
    for post in after:
        target = shown[post.seqs[0]]
        assert post.payload["embeds"][0]["title"] == f"Revealed: #{target.seq}"
        sealed = next(p for p in before if p.seqs == [target.seq])
        assert "behind the screen" in sealed.text or "blind" in sealed.text
        assert sealed.at < post.at
        assert target.seal["salt"] in post.text  # the opened card proves the commitment
    assert receiver.violations == []
