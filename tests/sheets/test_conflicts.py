"""No lost edits: a save made on a stale version is refused, shows the other value, overwrites nothing.

Two editors load the same row at version 1; the first saves (version 2); the
second's save, still carrying version 1, must be refused with 409 and the row as
it is now, their value beside yours, and a button that re-applies yours against
the new version.
"""

import pytest
from django.urls import reverse

from sheets import services
from sheets.models import Counter, Sheet, Trait

from .conftest import SYSTEMS, text
from .test_editing import FIRST_TRAIT, save, trait_url

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("system", SYSTEMS)
def test_stale_save_is_refused_and_shows_their_value(
    system, make_campaign, make_sheet, add_trait, gm, player, client_for, htmx
):
    campaign = make_campaign(system)
    sheet = make_sheet(campaign)
    group, data = FIRST_TRAIT[system]
    trait = add_trait(sheet, group, "Original", **data)
    assert trait.version == 1

    # The GM saves first.
    assert save(client_for(gm), trait, "name", "Theirs", htmx, version=1).status_code == 200
    # The player, still on version 1, saves a different name.
    response = save(client_for(player), trait, "name", "Mine", htmx, version=1)
    body = text(response)
    assert response.status_code == 409
    assert response["HX-Retarget"] == f"#trait-{trait.pk}" and response["HX-Reswap"] == "outerHTML"
    assert "someone else changed “Theirs”" in body
    assert "theirs: <strong>Theirs</strong> · yours: <strong>Mine</strong>" in body
    # The page's status line says so as a problem, not in a success's colours.
    assert '<span class="status-problem">Not saved: someone else changed' in body
    # Re-apply button: posts my value against the version now stored.
    assert '<input type="hidden" name="version" value="2">' in body
    assert '<input type="hidden" name="name" value="Mine">' in body
    trait.refresh_from_db()
    assert (trait.name, trait.version) == ("Theirs", 2)

    # Re-applying mine is an ordinary save against version 2.
    response = client_for(player).post(
        trait_url(trait), {"name": "Mine", "version": 2, "reply": "row"}, **htmx
    )
    assert response.status_code == 200 and 'id="trait-' in text(response)
    assert "status-problem" not in text(response)
    trait.refresh_from_db()
    assert (trait.name, trait.version) == ("Mine", 3)


def test_stale_save_of_another_field_is_refused_too(
    make_campaign, make_sheet, add_trait, gm, player, client_for, htmx
):
    """The version is per trait: a stale notes save cannot undo their die change."""
    campaign = make_campaign("serenity")
    sheet = make_sheet(campaign)
    trait = add_trait(sheet, "stylins", "Fightin'", die="d6")
    save(client_for(gm), trait, "die", "d10", htmx, version=1)
    response = save(client_for(player), trait, "notes", "brawler", htmx, version=1)
    assert response.status_code == 409
    trait.refresh_from_db()
    assert (trait.die, trait.notes, trait.version) == (10, "", 2)


def test_conditional_update_is_the_guard_not_the_read(
    make_campaign, make_sheet, add_trait, monkeypatch
):
    """Even if the row is read before the other save lands, the UPDATE … WHERE version refuses."""
    campaign = make_campaign("serenity")
    sheet = make_sheet(campaign)
    trait = add_trait(sheet, "stylins", "Fightin'", die="d6")
    real_current = services._current

    def stale_read(sheet_, trait_id):
        row = real_current(sheet_, trait_id)
        # Someone else's save commits between our read and our write.
        Trait.objects.filter(pk=trait_id).update(die=12, version=2)
        return row

    monkeypatch.setattr(services, "_current", stale_read)
    with pytest.raises(services.Conflict) as caught:
        services.save_trait(sheet, trait.pk, {"die": "d8"}, 1)
    monkeypatch.setattr(services, "_current", real_current)
    assert (caught.value.current.die, caught.value.current.version) == (12, 2)
    # Our d8 was never written (the simulated save rolled back with our refused transaction).
    trait.refresh_from_db()
    assert trait.die != 8


def test_stale_step_is_refused_and_offers_the_die_i_meant(
    make_campaign, make_sheet, add_trait, gm, player, client_for, htmx
):
    campaign = make_campaign("serenity")
    sheet = make_sheet(campaign)
    trait = add_trait(sheet, "stylins", "Fightin'", die="d6")
    save(client_for(gm), trait, "die", "d10", htmx, version=1)
    response = client_for(player).post(
        trait_url(trait, "step"), {"direction": "up", "die": "d6", "version": 1}, **htmx
    )
    body = text(response)
    assert response.status_code == 409
    assert "theirs: <strong>d10</strong> · yours: <strong>d8</strong>" in body
    trait.refresh_from_db()
    assert (trait.die, trait.version) == (10, 2)


def test_stale_delete_is_refused(
    make_campaign, make_sheet, add_trait, gm, player, client_for, htmx
):
    campaign = make_campaign("serenity")
    sheet = make_sheet(campaign)
    trait = add_trait(sheet, "stylins", "Fightin'", die="d6")
    save(client_for(gm), trait, "notes", "important", htmx, version=1)
    response = client_for(player).post(trait_url(trait, "delete"), {"version": 1}, **htmx)
    assert response.status_code == 409 and "Remove it anyway" in text(response)
    assert Trait.objects.filter(pk=trait.pk).exists()
    response = client_for(player).post(trait_url(trait, "delete"), {"version": 2}, **htmx)
    assert response.status_code == 200 and not Trait.objects.filter(pk=trait.pk).exists()


def test_saving_a_removed_trait_says_so(
    make_campaign, make_sheet, add_trait, gm, player, client_for, htmx
):
    campaign = make_campaign("serenity")
    sheet = make_sheet(campaign)
    trait = add_trait(sheet, "stylins", "Fightin'", die="d6")
    client_for(gm).post(trait_url(trait, "delete"), {"version": 1}, **htmx)
    response = save(client_for(player), trait, "name", "Back", htmx, version=1)
    assert response.status_code == 200 and response["HX-Reswap"] == "delete"
    assert "removed by someone else" in text(response)
    assert not Trait.objects.filter(pk=trait.pk).exists()


def test_stale_counter_save_is_refused(make_campaign, make_sheet, gm, player, client_for, htmx):
    """A counter the player keeps (milestones; plot points change at the table, see
    test_table_counters.py for the GM's stale edit of those)."""
    campaign = make_campaign("cortex_slots")
    sheet = make_sheet(campaign)
    url = reverse("sheet_counter", args=[campaign.pk, sheet.pk, "milestones"])
    assert client_for(gm).post(url, {"value": "2", "version": 1}, **htmx).status_code == 200
    response = client_for(player).post(url, {"value": "5", "version": 1}, **htmx)
    body = text(response)
    assert response.status_code == 409
    assert "changed Milestone points to 2" in body and "You wanted 5" in body
    assert "Set 5 (mine)" in body
    counter = Counter.objects.get(sheet=sheet, key="milestones")
    assert (counter.value, counter.version) == (2, 2)
    # A stale "+1" is offered again on top of their value.
    response = client_for(player).post(url, {"delta": "1", "version": 1}, **htmx)
    assert response.status_code == 409 and "Apply my +1 to 2" in text(response)
    assert Counter.objects.get(sheet=sheet, key="milestones").value == 2


def test_stale_sheet_details_are_refused(make_campaign, make_sheet, gm, player, client_for, htmx):
    campaign = make_campaign("serenity")
    sheet = make_sheet(campaign)
    url = reverse("sheet_head", args=[campaign.pk, sheet.pk])
    client_for(gm).post(url, {"name": "Mal", "notes": "GM's note", "version": 1}, **htmx)
    response = client_for(player).post(url, {"name": "Malcolm", "notes": "", "version": 1}, **htmx)
    body = text(response)
    assert response.status_code == 409
    assert "Name: “Mal”" in body and "Notes: “GM's note”" in body
    assert 'value="Malcolm"' in body  # my version stays in the form, ready to save again
    assert '<input type="hidden" name="version" value="2">' in body
    sheet = Sheet.objects.get(pk=sheet.pk)
    assert (sheet.name, sheet.notes, sheet.version) == ("Mal", "GM's note", 2)
