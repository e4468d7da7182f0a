"""Sessions: the GM marks a new session (a logged event, beside starting and ending
scenes); per-session things reset there (SMV-7: a Resource used last session is free
again); the session export runs from one mark to the next, and only a campaign that
never marked a session falls back to one UTC day."""

import datetime as dt
import json

import pytest
from django.urls import reverse
from django.utils import timezone

from table.models import TableEvent
from table.reading.export import NoSuchSession, export_data, verify
from table.writing import actions

from .page_fixtures import fresh_cards  # noqa: F401  (pages cache cards by pk; pks are reused)

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
PAIR = [
    {"die": "d4", "trait": "Justice", "group": "values"},
    {"die": "d4", "trait": "Lana", "group": "relationships"},
]
FARM = [{"die": "d4", "trait": "Kent Farm", "group": "locations"}]
GOONS = {"die": "d8", "trait": "Goons", "group": "situation"}


def roll(t, user=None, **kwargs):
    return t.perform(user or t.gm, "roll", {"pool": [GOONS]}, **kwargs)


def new_session(t, user=None):
    return actions.session_started(t.campaign, user or t.gm)


def seqs(data) -> list[int]:
    return [e["seq"] for e in data["events"]]


def test_the_gm_marks_a_session_from_the_dashboard(table_for, client_for):
    t = table_for("serenity")
    url = reverse("table_gm_scene", args=[t.campaign.pk])
    page = client_for(t.gm).get(reverse("table", args=[t.campaign.pk])).content.decode()
    assert "Start a new session" in page and "No session marked yet" in page
    answer = client_for(t.gm).post(url, {"op": "session"}, **HTMX)
    assert "Session 1 begins" in answer.content.decode()
    event = TableEvent.objects.get()
    assert (event.kind, event.visibility, event.outcome["session"]) == (
        "session_start",
        "public",
        1,
    )
    assert new_session(t).headline == "Session 2 begins"
    page = client_for(t.gm).get(reverse("table", args=[t.campaign.pk])).content.decode()
    assert "Session 2 is under way" in page
    assert client_for(t.player).post(url, {"op": "session"}).status_code == 403
    with pytest.raises(actions.ActionError, match="Only the GM"):
        new_session(t, t.player)
    with pytest.raises(actions.ActionError, match="Only actions"):
        actions.void(t.campaign, t.gm, event.pk, "oops")
    assert verify(t.campaign).ok


def test_smallville_resources_are_free_again_in_a_new_session(table_for, faces):
    """SMV-7: a Resource is free when on the sheet and unused this session."""
    t = table_for("smallville")  # Mal holds 2 plot points
    request = {"pool": PAIR, "side_pool": FARM}
    t.perform(t.player, "roll", request, sheet_id=t.pc.pk)
    assert t.counter(t.pc, "plot_points") == 2  # free: unused this session
    assert t.trait(t.pc, "locations", "Kent Farm").flags == {"used": True}
    t.perform(t.player, "roll", request, sheet_id=t.pc.pk)
    assert t.counter(t.pc, "plot_points") == 1  # used this session: 1 plot point

    event = new_session(t)
    assert t.trait(t.pc, "locations", "Kent Farm").flags == {}
    assert "Mal: Kent Farm" in event.explanation
    assert {"sheet": t.pc.pk, "trait": "Kent Farm", "group": "locations", "flag": "used",
            "cleared": True} in event.effects  # fmt: skip
    t.perform(t.player, "roll", request, sheet_id=t.pc.pk)
    assert t.counter(t.pc, "plot_points") == 1  # free again


def test_a_hidden_gm_characters_resources_are_freed_but_not_named(table_for, faces):
    t = table_for("smallville")
    t.npc.hidden = True
    t.npc.save()
    t.perform(t.gm, "roll", {"pool": PAIR, "side_pool": FARM}, sheet_id=t.npc.pk)
    event = new_session(t)
    assert t.trait(t.npc, "locations", "Kent Farm").flags == {}
    assert "Niska" not in event.explanation and event.effects == []


def test_the_session_export_runs_from_one_mark_to_the_next(table_for, faces):
    t = table_for("serenity")
    before = roll(t)
    first = new_session(t)
    one = roll(t)
    secret = roll(t, visibility="gm")
    second = new_session(t)
    two = roll(t)

    current = export_data(t.campaign, t.gm, session="current")
    assert current["title"] == "Session 2" and seqs(current) == [second.seq, two.seq]
    session_one = export_data(t.campaign, t.gm, session=1)
    assert seqs(session_one) == [first.seq, one.seq, secret.seq]
    players = export_data(t.campaign, t.player, session=1)
    assert seqs(players) == [first.seq, one.seq, secret.seq]
    assert players["events"][-1]["kind"] == "sealed"
    assert seqs(export_data(t.campaign, t.gm, session=0)) == [before.seq]
    today = timezone.now().astimezone(dt.UTC).date()
    by_day = export_data(t.campaign, t.gm, session=today)
    assert by_day["title"].startswith("Sessions 1–2") and seqs(by_day)[0] == first.seq
    with pytest.raises(NoSuchSession):
        export_data(t.campaign, t.gm, session=3)
    with pytest.raises(NoSuchSession):
        export_data(t.campaign, t.gm, session=today - dt.timedelta(days=1))


def test_without_a_mark_the_session_is_the_utc_day(table_for, faces):
    t = table_for("serenity")
    event = roll(t)
    today = timezone.now().astimezone(dt.UTC).date()
    current = export_data(t.campaign, t.gm, session="current")
    assert current["title"] == f"Session of {today.isoformat()}"
    assert seqs(current) == [event.seq]
    assert seqs(export_data(t.campaign, t.gm, day=today - dt.timedelta(days=1))) == []
    with pytest.raises(NoSuchSession):
        export_data(t.campaign, t.gm, session=1)


def test_session_export_urls(table_for, faces, client_for):
    t = table_for("serenity")

    def get(which, fmt="json", user=None):
        url = reverse("table_export_session", args=[t.campaign.pk, which, fmt])
        return client_for(user or t.player).get(url)

    today = timezone.now().astimezone(dt.UTC).date().isoformat()
    assert get(today).status_code == 200 and get("current").status_code == 200
    assert get("1").status_code == 404  # no session marked yet
    new_session(t)
    event = roll(t)
    body = json.loads(get("current").content)
    assert body["title"] == "Session 1" and event.seq in [e["seq"] for e in body["events"]]
    assert get("1", "md").status_code == 200 and get("2").status_code == 404
    assert get("soon").status_code == 404
    assert get("current", user=t.outsider).status_code == 404
    page = client_for(t.player).get(reverse("table", args=[t.campaign.pk])).content.decode()
    assert reverse("table_export_session", args=[t.campaign.pk, "current", "md"]) in page
