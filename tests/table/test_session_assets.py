"""SER-10 session Assets: an extraordinary success may promote a scene Asset to a session
Asset. It leaves the scene's state for the campaign's session state, so it survives the
end of its scene and is shown and usable in every later scene, until the GM starts a new
session (whose card names it as expired). A void gives the promotion back."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from campaigns import services
from table.models import SceneState
from table.reading.export import verify
from table.writing import actions
from table.writing.actions import ActionError, session_state, void

from .page_fixtures import fresh_cards  # noqa: F401  (pages cache cards by pk; pks are reused)

pytestmark = pytest.mark.django_db

FIGHTIN = {"die": "d4", "trait": "Fightin'", "group": "stylins"}  # size comes from the sheet
VETERAN = {"die": "d4", "trait": "War Veteran", "group": "refinements"}
THUGS = [
    {"die": "d8", "trait": "Armed thugs", "group": "situation"},
    {"die": "d6", "trait": "Cramped cargo bay", "group": "situation"},
    {"die": "d6", "trait": "Bad light", "group": "situation"},
]
LOSER = [{"die": "d8", "trait": "Armed thugs", "group": "situation"}]


@pytest.fixture
def t(table_for):
    return table_for("serenity")


def session_assets(t) -> dict:
    return session_state(t.campaign)["state"].get("assets", {})


def scene_assets(t) -> dict:
    return t.state().get("assets", {})


def seed_scene_asset(t, name: str, die: str) -> None:
    """A scene Asset as CTX-7 keeps it (Serenity makes them up in play)."""
    row = SceneState.objects.get(scene=t.campaign.active_scene)
    row.data.setdefault("assets", {})[name] = {"die": die, "sheet": t.pc.pk, "seq": 0}
    row.save()


def won_test(t, faces, pool=(FIGHTIN,)):
    """SER-5, SER-10: the GM tests Mal against the thugs (who botch); Mal wins by 6 or
    more."""
    faces.queue.extend([6] * len(pool) + [1] * len(LOSER))
    request = {"player": {"pool": list(pool)}, "opposition": {"pool": LOSER}}
    return t.perform(t.gm, "test", request, sheet_id=t.pc.pk)


def promote(t, faces, name: str, **kwargs):
    """Mal wins a test extraordinarily and promotes `name` (SER-10)."""
    test = won_test(t, faces)
    request = {"benefit": "promote_asset", "target": name, "table": {"roll": test.seq}}
    return t.perform(t.player, "benefit", request, sheet_id=t.pc.pk, **kwargs)


def win_contest_extraordinarily(t, faces, benefit: dict):
    """SER-6, SER-10: Mal rolls 17, the thugs fail with 11; Mal picks the stress and
    the benefit."""
    t.perform(
        t.player,
        "contest_start",
        {
            "sides": [
                {"sheet_id": t.pc.pk, "goal": "keep the cargo"},
                {"name": "Niska's thugs", "goal": "take it"},
            ],
            "first": 0,
        },
        sheet_id=t.pc.pk,
    )
    faces.queue.extend([9, 8])
    t.perform(t.player, "contest_roll", {"pool": [FIGHTIN, VETERAN]}, sheet_id=t.pc.pk)
    faces.queue.extend([6, 5, 4])
    t.perform(t.gm, "contest_roll", {"pool": THUGS})
    return t.perform(t.player, "contest_stress", {"type": "Afraid", **benefit}, sheet_id=t.pc.pk)


def test_a_session_asset_outlives_its_scene_until_the_next_session(t, faces, client_for):
    """SER-10: promoted in one scene, kept (and usable) in the next, expired and named
    on the card when the GM starts a new session."""
    first = t.start_scene("The docks")
    seed_scene_asset(t, "Smoke", "d8")
    won = win_contest_extraordinarily(t, faces, {"benefit": "promote_asset", "target": "Smoke"})
    assert won.outcome["benefit"]["benefit"] == "promote_asset"
    assert "Smoke" not in scene_assets(t)  # moved, not copied
    assert session_assets(t)["Smoke"]["die"] == "d8"  # keeps its die
    assert {"session_state": {"session_asset": "Smoke", "die": "d8"}} in won.effects

    services.end_scene(t.campaign, first.pk, t.gm)
    t.start_scene("The Persephone")
    assert session_assets(t)["Smoke"]["die"] == "d8"
    panel = client_for(t.player).get(reverse("table_scene", args=[t.campaign.pk])).content
    assert "Session assets" in panel.decode() and "Smoke d8" in panel.decode()

    # Usable in a pool, its die the table's (not the client's).
    faces.queue.extend([9, 7])
    rolled = t.perform(
        t.player,
        "roll",
        {"pool": [FIGHTIN, {"die": "d12", "trait": "smoke", "group": "assets"}]},
        sheet_id=t.pc.pk,
    )
    entry = rolled.request["pool"][1]
    assert (entry["trait"], entry["die"], entry["scope"]) == ("Smoke", "d8", "session")

    # A new session: gone, and its card says which session Assets expired.
    started = actions.session_started(t.campaign, t.gm)
    assert session_assets(t) == {}
    assert started.outcome["expired_session_assets"] == ["Smoke d8"]
    assert "Session assets expired (SER-10): Smoke d8." in started.explanation
    panel = client_for(t.player).get(reverse("table_scene", args=[t.campaign.pk])).content
    assert "Session assets" not in panel.decode()
    with pytest.raises(ActionError, match="no “smoke” among their Assets"):
        t.perform(t.player, "roll", {"pool": [FIGHTIN, {"die": "d8", "trait": "smoke",
                  "group": "assets"}]}, sheet_id=t.pc.pk)  # fmt: skip
    assert verify(t.campaign).ok
    out = StringIO()
    call_command("verify_log", str(t.campaign.pk), stdout=out)
    assert "OK: 9 events verified" in out.getvalue()


def test_an_asset_made_up_in_play_is_promoted_as_a_d6_without_a_scene(t, faces):
    """SER-10 decision: an Asset the app does not keep for the scene becomes a d6 session
    Asset; one on the winner's sheet, or already a session Asset, is refused."""
    event = promote(t, faces, "Cargo hold")
    assert session_assets(t)["Cargo hold"] == {
        "die": "d6", "sheet": t.pc.pk, "seq": event.seq, "scene": None,
    }  # fmt: skip
    with pytest.raises(ActionError, match="a session Asset already"):
        promote(t, faces, "cargo hold")
    with pytest.raises(ActionError, match="on Mal's sheet"):
        promote(t, faces, "Pistol")
    with pytest.raises(ActionError, match="so it is public"):
        promote(t, faces, "Crates", visibility="blind")
    assert list(session_assets(t)) == ["Cargo hold"]


def test_a_session_asset_used_in_the_roll_can_step_up(t, faces):
    """SER-10: "step up one Asset used in the roll" steps up a session Asset too."""
    promote(t, faces, "Cargo hold")
    test = won_test(t, faces, [FIGHTIN, {"die": "d4", "trait": "Cargo hold", "group": "assets"}])
    request = {"benefit": "step_up_asset", "target": "Cargo hold"}
    event = t.perform(t.player, "benefit", request, sheet_id=t.pc.pk)
    assert event.params["roll"] == test.seq
    assert event.request["winner_pool"][1]["die"] == "d6"
    assert session_assets(t)["Cargo hold"]["die"] == "d8"
    void(t.campaign, t.gm, event.pk, "wrong asset")
    assert session_assets(t)["Cargo hold"]["die"] == "d6"


def test_a_void_gives_the_promotion_back(t, faces):
    """SER-10: voiding the promotion puts the Asset back in its scene; after the scene
    ended the session Asset is only removed; after a new session nothing is touched."""
    t.start_scene()
    seed_scene_asset(t, "Smoke", "d8")
    event = promote(t, faces, "Smoke")
    struck = void(t.campaign, t.gm, event.pk, "not extraordinary after all")
    assert scene_assets(t)["Smoke"]["die"] == "d8"
    assert session_assets(t) == {}
    assert struck.outcome["undone"] == [
        "The scene asset “Smoke”: restored.",
        "The session asset “Smoke”: restored.",
    ]
    assert struck.outcome["not_undone"] == []

    again = promote(t, faces, "Smoke")
    services.end_scene(t.campaign, t.campaign.active_scene.pk, t.gm)
    struck = void(t.campaign, t.gm, again.pk, "mistake")
    assert session_assets(t) == {}
    assert struck.outcome["undone"] == ["The session asset “Smoke”: restored."]
    assert struck.outcome["not_undone"] == [
        "“The docks” has ended, so its scene state was left as it is."
    ]

    late = promote(t, faces, "Crates")
    actions.session_started(t.campaign, t.gm)
    promote(t, faces, "Crates")  # the new session's own
    struck = void(t.campaign, t.gm, late.pk, "mistake")
    assert list(session_assets(t)) == ["Crates"]
    assert struck.outcome["not_undone"] == [
        "A new session has begun since, so its session assets were left as they are."
    ]
    assert verify(t.campaign).ok
