"""load_demo fills every demo campaign with sheets, from the seeds where they name them; idempotent."""

import pytest

from sheets import display
from sheets.demo import load_demo
from sheets.models import Sheet, Trait

pytestmark = pytest.mark.django_db


def traits(sheet, group):
    return {t.name: t for t in Trait.objects.filter(sheet=sheet, group=group)}


def test_demo_sheets_follow_the_seeds_and_loading_twice_changes_nothing():
    campaigns = {c.system: c for c in load_demo()}
    assert all(Sheet.objects.filter(campaign=c).exists() for c in campaigns.values())
    owners = {s.name: s.owner.username for s in Sheet.objects.filter(kind="pc")}
    for name, owner in {
        "Mal": "alice",
        "Kaylee": "alice",
        "Zoe": "bob",
        "Simon": "bob",
        "Malcolm": "alice",
        "Robin": "bob",
    }.items():
        assert owners[name] == owner

    # Seed 000: the Stylin's and the Refinement each crew member files under one of them.
    serenity = campaigns["serenity"]
    for name, refinement, stylin in (
        ("Mal", "War Veteran", "Fightin'"),
        ("Zoe", "War Veteran", "Fightin'"),
        ("Kaylee", "Mechanic", "Fixin'"),
        ("Simon", "Doctor", "Fixin'"),
    ):
        sheet = Sheet.objects.get(campaign=serenity, name=name)
        assert set(traits(sheet, "stylins")) == {"Fightin'", "Fixin'", "Finaglin'"}
        assert traits(sheet, "refinements")[refinement].parent.name == stylin

    # Seed 004: Malcolm's and Robin's attributes, and the vampire's scores (UNI-8).
    unisystem = campaigns["unisystem"]
    malcolm = traits(Sheet.objects.get(campaign=unisystem, name="Malcolm"), "attributes")
    assert (malcolm["Strength"].rating, malcolm["Dexterity"].rating) == (1, 2)
    assert (
        traits(Sheet.objects.get(campaign=unisystem, name="Robin"), "attributes")["Strength"].rating
        == 4
    )
    vampire = Sheet.objects.get(campaign=unisystem, npc_kind="adversary")
    assert (vampire.kind, vampire.owner) == ("npc", None)
    scores = display.scores_for(vampire).by_key()
    assert (scores["muscle"].value, scores["combat"].value, scores["brains"].value) == (16, 12, 10)

    # The other three campaigns get invented characters of their own.
    for system in ("cortex_slots", "smallville", "personae"):
        assert Sheet.objects.filter(campaign=campaigns[system], kind="pc").count() >= 2
    assert (
        Trait.objects.get(
            sheet__campaign=campaigns["smallville"], group="limits", name="Migraines"
        ).link.name
        == "Telekinesis"
    )
    assert Trait.objects.filter(
        sheet__campaign=campaigns["cortex_slots"], plus_die__isnull=False
    ).exists()

    before = Sheet.objects.count(), Trait.objects.count()
    Trait.objects.filter(sheet__name="Mal", name="War Veteran").update(notes="edited by alice")
    load_demo()
    assert (Sheet.objects.count(), Trait.objects.count()) == before
    assert Trait.objects.get(sheet__name="Mal", name="War Veteran").notes == "edited by alice"
