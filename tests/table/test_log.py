"""The event log: gapless seq, the hash chain, reveals and voids as new events,
verification (verify() and manage.py verify_log) and exports that hold only what the
requesting user may see."""

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from campaigns import services
from campaigns.models import Scene
from table.live import broadcast
from table.log.visibility import PLAYERS, event_data
from table.models import GENESIS_HASH, TableEvent, TableLog, chain_hash
from table.reading.export import export_data, to_markdown, verify
from table.writing import actions
from table.writing.actions import ActionError, reveal, scene_state, visible_events, void

pytestmark = pytest.mark.django_db

FIGHTIN = {"die": "d10", "trait": "Fightin'", "group": "stylins"}


@pytest.fixture
def t(table_for):
    return table_for("serenity")


def roll(t, user=None, **kwargs):
    user = user or t.player
    sheet = kwargs.pop("sheet_id", t.pc.pk if user == t.player else None)
    pool = [FIGHTIN] if sheet else [{"die": "d8", "trait": "Goons", "group": "situation"}]
    return t.perform(user, "roll", {"pool": pool}, sheet_id=sheet, **kwargs)


def test_seq_is_gapless_and_each_hash_chains_to_the_previous(t, faces):
    events = [roll(t), roll(t, t.gm, visibility="gm"), roll(t, visibility="blind")]
    assert [e.seq for e in events] == [1, 2, 3]
    previous = GENESIS_HASH
    for event in TableEvent.objects.filter(campaign=t.campaign).order_by("seq"):
        assert event.prev_hash == previous
        assert event.hash == chain_hash(previous, event.hash_body())
        previous = event.hash
    head = TableLog.objects.get(campaign=t.campaign)
    assert (head.last_seq, head.last_hash, head.last_public_seq) == (3, previous, 1)
    assert verify(t.campaign).ok


def test_a_refused_action_writes_nothing(t):
    with pytest.raises(ActionError):
        t.perform(t.player, "roll", {"pool": [FIGHTIN], "plot_points": 9}, sheet_id=t.pc.pk)
    assert not TableEvent.objects.exists()
    roll(t)
    assert TableEvent.objects.get().seq == 1


def test_scene_start_and_end_are_logged(t):
    scene = t.start_scene("Persephone")
    services.end_scene(t.campaign, scene.pk, t.gm)
    kinds = list(TableEvent.objects.order_by("seq").values_list("kind", flat=True))
    assert kinds == ["scene_start", "scene_end"]
    assert scene_state(t.campaign)["scene"] is None


def test_a_scene_change_and_its_log_event_commit_or_fail_together(t, monkeypatch):
    """campaigns announces the change inside its transaction and the table logs it
    there: when the log cannot be written, the scene does not change either."""
    first = t.start_scene("Persephone")
    second = services.create_scene(t.campaign, title="Eavesdown Docks", description="")

    def log_unreachable(*args, **kwargs):
        raise ActionError("The log could not be written.")

    monkeypatch.setattr(actions, "scene_started", log_unreachable)
    with pytest.raises(ActionError):
        services.start_scene(t.campaign, second.pk, t.gm)
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.status, second.status) == (Scene.Status.ACTIVE, Scene.Status.PLANNED)
    kinds = list(TableEvent.objects.order_by("seq").values_list("kind", flat=True))
    assert kinds == ["scene_start"]  # the first scene's end was rolled back with it
    assert TableLog.objects.get(campaign=t.campaign).scene_id == first.pk
    assert scene_state(t.campaign)["scene"]["id"] == first.pk


def test_reveal_and_void_are_new_events(t, faces):
    blind = roll(t, visibility="blind")
    assert blind.hidden
    with pytest.raises(ActionError, match="Only the GM"):
        reveal(t.campaign, t.player, blind.pk)
    shown = reveal(t.campaign, t.gm, blind.pk)
    blind.refresh_from_db()
    assert shown.kind == "reveal" and shown.target_id == blind.pk and shown.seq == 2
    assert blind.revealed and blind.hash == TableEvent.objects.get(pk=blind.pk).hash
    with pytest.raises(ActionError, match="already been revealed"):
        reveal(t.campaign, t.gm, blind.pk)
    with pytest.raises(ActionError, match="reason"):
        void(t.campaign, t.gm, blind.pk, "  ")
    struck = void(t.campaign, t.gm, blind.pk, "wrong character")
    assert struck.kind == "void" and struck.visibility == "public"
    secret = roll(t, t.gm, visibility="gm")
    assert void(t.campaign, t.gm, secret.pk, "oops").visibility == "gm"
    assert verify(t.campaign).ok
    # Players are shown every seq: the revealed roll, the reveal and the public void open,
    # the secret roll and its void sealed.
    views = [event_data(e, PLAYERS) for e in visible_events(t.campaign, t.player)]
    assert [v["seq"] for v in views] == [1, 2, 3, 4, 5]
    assert [v["kind"] for v in views] == ["action", "reveal", "void", "sealed", "sealed"]
    assert secret.headline not in json.dumps(views)


def test_verify_and_verify_log_detect_tampering(t, faces):
    for _ in range(3):
        roll(t)
    out = StringIO()
    call_command("verify_log", str(t.campaign.pk), stdout=out)
    assert "OK: 3 events verified" in out.getvalue()

    second = TableEvent.objects.get(campaign=t.campaign, seq=2)
    outcome = dict(second.outcome, result=99)
    TableEvent.objects.filter(pk=second.pk).update(outcome=outcome)
    verdict = verify(t.campaign)
    assert not verdict.ok and verdict.first_bad_seq == 2 and "hash" in verdict.problem
    out = StringIO()
    with pytest.raises(SystemExit):
        call_command("verify_log", str(t.campaign.pk), stdout=out)
    assert "FAIL at seq 2" in out.getvalue()

    # Rewriting the hash too is caught by recomputing the outcome from request + faces.
    second.outcome = outcome
    second.hash = second.compute_hash()
    TableEvent.objects.filter(pk=second.pk).update(outcome=outcome, hash=second.hash)
    verdict = verify(t.campaign)
    assert verdict.first_bad_seq == 2 and "outcome" in verdict.problem


def test_verify_detects_changed_faces_and_a_missing_event(t, faces):
    for _ in range(3):
        roll(t)
    first = TableEvent.objects.get(seq=1)
    TableEvent.objects.filter(pk=first.pk).update(faces=[1 + first.faces[0] % 10])
    assert verify(t.campaign).first_bad_seq == 1
    TableEvent.objects.filter(pk=first.pk).update(faces=first.faces)
    assert verify(t.campaign).ok
    TableEvent.objects.filter(seq=2).delete()
    verdict = verify(t.campaign)
    assert not verdict.ok and verdict.first_bad_seq == 2


def test_stored_event_survives_a_failing_broadcast(
    t, faces, monkeypatch, caplog, django_capture_on_commit_callbacks
):
    def explode(*args, **kwargs):
        raise RuntimeError("channel layer down")

    monkeypatch.setattr(broadcast, "publish", explode)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        event = roll(t)
    assert len(callbacks) == 1
    assert TableEvent.objects.get(pk=event.pk).seq == 1
    assert "broadcast of event #1 failed" in caplog.text


def test_exports_hold_only_what_the_user_may_see(t, faces, client_for):
    scene = t.start_scene("Eavesdown Docks")
    public = roll(t)
    blind = roll(t, visibility="blind")
    reveal(t.campaign, t.gm, blind.pk)
    # Last: the GM's secret pool is the scene's opposition (SER-5), which would seal the
    # players' rolls after it until it is revealed.
    secret = roll(t, t.gm, visibility="gm")
    player_view = export_data(t.campaign, t.player, scene=scene)
    kinds = {e["seq"]: e["kind"] for e in player_view["events"]}
    assert (kinds[public.seq], kinds[secret.seq], kinds[blind.seq]) == (
        "action",
        "sealed",
        "action",
    )
    assert secret.headline not in json.dumps(player_view)
    sealed = next(e for e in player_view["events"] if e["seq"] == secret.seq)
    assert sealed["commitment"] == secret.seal["commitment"]
    revealed = next(e for e in player_view["events"] if e["kind"] == "reveal")
    assert revealed["target"]["faces"] == blind.faces
    gm_view = export_data(t.campaign, t.gm, scene=scene)
    assert {secret.seq, blind.seq} <= {e["seq"] for e in gm_view["events"]}

    url = reverse("table_export_scene", args=[t.campaign.pk, scene.pk, "json"])
    body = json.loads(client_for(t.observer).get(url).content)
    assert [e["kind"] for e in body["events"] if e["seq"] == secret.seq] == ["sealed"]
    assert {e.get("visibility") for e in body["events"]} <= {"public", "blind", None}
    assert secret.hash not in json.dumps(body) and secret.seal["salt"] not in json.dumps(body)
    md = client_for(t.gm).get(reverse("table_export_scene", args=[t.campaign.pk, scene.pk, "md"]))
    assert md["Content-Type"].startswith("text/markdown")
    assert f"## #{secret.seq}" in md.content.decode()
    assert f"## #{secret.seq} The GM rolled behind the screen *(sealed)*" in to_markdown(
        player_view
    )
    assert secret.headline not in to_markdown(player_view)
    day = timezone.now().date().isoformat()
    session = client_for(t.player).get(
        reverse("table_export_session", args=[t.campaign.pk, day, "md"])
    )
    assert session.status_code == 200 and secret.headline not in session.content.decode()
    assert client_for(t.outsider).get(url).status_code == 404


def test_verify_view_is_for_gms(t, faces, client_for):
    roll(t)
    url = reverse("table_verify", args=[t.campaign.pk])
    assert client_for(t.gm).get(url).json()["ok"] is True
    assert client_for(t.player).get(url).status_code == 403


def test_each_card_says_who_sees_it_in_words_and_a_drawn_icon(t, faces, client_for):
    """Visibility is shown in text and icon, not colour alone. The icon is drawn (a
    symbol of the page's SVG sprite), so it shows on systems without an emoji font; the
    card holds only a reference, stays ASCII for the card cache and needs no
    static-files lookup (table/jinja2/table/event.html)."""
    from table.reading.rendering import card_html

    expected = {
        "public": ("Public", "vis-public"),
        "gm": ("Secret: GMs only", "vis-gm"),
        "blind": ("Blind: GM only until revealed", "vis-blind"),
    }
    for visibility, (words, symbol) in expected.items():
        event = roll(t, t.gm if visibility == "gm" else t.player, visibility=visibility)
        html = card_html(event, "gm")
        icon = f'<svg class="icon" aria-hidden="true" focusable="false"><use href="#{symbol}">'
        assert icon in html and words in html
        assert html.isascii()
    page = client_for(t.gm).get(reverse("table", args=[t.campaign.pk])).content.decode()
    assert "emoji" not in page  # the sprite's comment stays in the template
    for _words, symbol in expected.values():
        assert page.count(f'<symbol id="{symbol}"') == 1
        assert f'<use href="#{symbol}">' in page


def test_a_row_id_used_again_never_brings_back_another_events_card(t, faces):
    """SQLite hands out the id of a rolled-back insert again: a card cached for the event
    that was rolled back must not be shown for the one that took its id."""
    from table.reading.rendering import card_html

    rolled_back = roll(t)
    assert "Fightin&#39;" in card_html(rolled_back, PLAYERS)
    taken_over = TableEvent.objects.get(pk=rolled_back.pk)
    taken_over.outcome = {**taken_over.outcome, "headline": "Another event entirely"}
    taken_over.hash = "0" * 64
    assert "Another event entirely" in card_html(taken_over, PLAYERS)
