"""Creating and editing sheets of every system through the htmx endpoints.

Dice steps follow rules.md's common ground: a d4 stepped down is removed (a
fixed trait such as a stress type only loses its die); a d12 cannot step up,
except a Cortex Skill, which goes on to d12+d4 … d12+d12 (CTX-8).
"""

import re

import pytest
from django.urls import reverse

from sheets.models import Counter, Sheet, Trait

from .conftest import SYSTEMS, text

pytestmark = pytest.mark.django_db


def trait_url(trait, suffix=""):
    name = {"": "trait", "step": "trait_step", "move": "trait_move", "delete": "trait_delete"}[
        suffix
    ]
    return reverse(name, args=[trait.sheet.campaign_id, trait.sheet_id, trait.pk])


def save(client, trait, field, value, htmx, version=None):
    return client.post(
        trait_url(trait),
        {"field": field, field: value, "version": version or trait.version},
        **htmx,
    )


FIRST_TRAIT = {
    "serenity": ("stylins", {"die": "d8"}),
    "cortex_slots": ("skills", {"die": "d8"}),
    "smallville": ("abilities", {"die": "d8"}),
    "personae": ("attributes", {"rating": 3}),
    "unisystem": ("skills", {"rating": 2}),
}


@pytest.mark.parametrize("system", SYSTEMS)
def test_gm_creates_a_pc_for_a_player_with_the_templates_fixed_traits_and_counters(
    system, make_campaign, gm, player, client_for
):
    from rules.registry import get_system

    campaign = make_campaign(system)
    response = client_for(gm).post(
        reverse("sheet_create", args=[campaign.pk]),
        {"name": "  New   Hero ", "kind": "pc", "owner": player.pk},
    )
    sheet = Sheet.objects.get(campaign=campaign)
    assert response.status_code == 302 and response["Location"] == sheet.get_absolute_url()
    assert (sheet.name, sheet.owner, sheet.kind) == ("New Hero", player, "pc")
    template = get_system(system).sheet_template
    fixed = [(g.key, n) for g in template.groups for n in g.fixed_names]
    assert sorted(Trait.objects.filter(sheet=sheet).values_list("group", "name")) == sorted(fixed)
    # Counters start at their default, or worked out from the sheet where the game says so.
    traits = list(Trait.objects.filter(sheet=sheet))
    assert {c.key: c.value for c in Counter.objects.filter(sheet=sheet)} == {
        c.key: c.default if c.derived is None else c.derive(traits) for c in template.counters
    }


@pytest.mark.parametrize("system", SYSTEMS)
def test_player_creates_their_own_pc_and_observer_cannot(
    system, make_campaign, player, observer, gm, client_for
):
    campaign = make_campaign(system)
    url = reverse("sheet_create", args=[campaign.pk])
    # A player cannot make a GM character or give the sheet to someone else.
    client_for(player).post(url, {"name": "Mine", "kind": "npc", "owner": gm.pk, "hidden": "on"})
    sheet = Sheet.objects.get(campaign=campaign)
    assert (sheet.owner, sheet.kind, sheet.hidden) == (player, "pc", False)
    assert client_for(observer).post(url, {"name": "Nope"}).status_code == 403
    assert Sheet.objects.filter(campaign=campaign).count() == 1


@pytest.mark.parametrize(
    "system,npc_kind,ok",
    [
        ("cortex_slots", "boss", True),
        ("cortex_slots", "mob", True),
        ("cortex_slots", "", False),
        ("unisystem", "adversary", True),
        ("unisystem", "boss", False),
        ("serenity", "", True),
        ("smallville", "", True),
    ],
)
def test_gm_characters_kinds(system, npc_kind, ok, make_campaign, gm, client_for):
    """CTX-5: a GM character is a boss, plot character or mob; Unisystem: Guest Star or Adversary."""
    campaign = make_campaign(system)
    response = client_for(gm).post(
        reverse("sheet_create", args=[campaign.pk]),
        {"name": "Villain", "kind": "npc", "npc_kind": npc_kind, "hidden": "on"},
    )
    sheet = Sheet.objects.filter(campaign=campaign).first()
    if ok:
        assert response.status_code == 302
        assert (sheet.kind, sheet.npc_kind, sheet.hidden, sheet.owner) == (
            "npc",
            npc_kind,
            True,
            None,
        )
    else:
        assert response.status_code == 200 and sheet is None
        assert "kind of GM character" in text(response)


@pytest.mark.parametrize("system", SYSTEMS)
def test_add_edit_and_remove_a_trait_in_place(
    system, make_campaign, make_sheet, add_trait, player, client_for, htmx
):
    campaign = make_campaign(system)
    sheet = make_sheet(campaign)
    group, data = FIRST_TRAIT[system]
    client = client_for(player)
    response = client.post(
        reverse("trait_add", args=[campaign.pk, sheet.pk, group]), {"name": "First", **data}, **htmx
    )
    assert response.status_code == 200
    trait = Trait.objects.get(sheet=sheet, group=group, name="First")
    assert f'id="trait-{trait.pk}"' in text(response)

    response = save(client, trait, "name", "Renamed", htmx)
    body = text(response)
    assert response.status_code == 200
    assert f'id="t{trait.pk}-f-name"' in body and 'value="Renamed"' in body
    # The new version comes back out of band so the next field save is not stale.
    assert f'id="t{trait.pk}-version" value="2" hx-swap-oob="true"' in body
    trait.refresh_from_db()
    assert (trait.name, trait.version) == ("Renamed", 2)

    response = save(client, trait, "notes", "A note", htmx)
    trait.refresh_from_db()
    assert response.status_code == 200 and (trait.notes, trait.version) == ("A note", 3)

    response = client.post(trait_url(trait, "delete"), {"version": trait.version}, **htmx)
    assert response.status_code == 200 and response["HX-Reswap"] == "delete"
    assert not Trait.objects.filter(pk=trait.pk).exists()


@pytest.mark.parametrize("system", ["serenity", "cortex_slots", "smallville"])
def test_die_picker_and_steps(
    system, make_campaign, make_sheet, add_trait, player, client_for, htmx
):
    campaign = make_campaign(system)
    sheet = make_sheet(campaign)
    group = FIRST_TRAIT[system][0]
    trait = add_trait(sheet, group, "Trait", die="d6")
    client = client_for(player)

    assert save(client, trait, "die", "d10", htmx).status_code == 200
    trait.refresh_from_db()
    assert trait.die == 10

    def step(direction):
        trait.refresh_from_db()
        return client.post(
            trait_url(trait, "step"), {"direction": direction, "version": trait.version}, **htmx
        )

    assert step("up").status_code == 200
    trait.refresh_from_db()
    assert trait.die_label == "d12"
    assert step("down").status_code == 200
    trait.refresh_from_db()
    assert trait.die_label == "d10"
    for _ in range(3):
        step("down")
    trait.refresh_from_db()
    assert trait.die_label == "d4"
    response = step("down")
    assert response.status_code == 200 and response["HX-Reswap"] == "delete"
    assert "was removed" in text(response)
    assert not Trait.objects.filter(pk=trait.pk).exists()


@pytest.mark.parametrize("system", ["serenity", "smallville"])
def test_d12_cannot_step_up(system, make_campaign, make_sheet, add_trait, player, client_for, htmx):
    campaign = make_campaign(system)
    sheet = make_sheet(campaign)
    trait = add_trait(sheet, FIRST_TRAIT[system][0], "Top", die="d12")
    response = client_for(player).post(
        trait_url(trait, "step"), {"direction": "up", "version": 1}, **htmx
    )
    assert response.status_code == 422
    assert "A d12 cannot step up." in text(response)
    trait.refresh_from_db()
    assert (trait.die, trait.plus_die, trait.version) == (12, None, 1)


def test_cortex_skill_steps_past_d12_to_d12_plus_dn(
    make_campaign, make_sheet, add_trait, player, client_for, htmx
):
    """CTX-8: a Skill past d12 gains a plus die, d12+d4 up to d12+d12; plain die groups stop at d12."""
    campaign = make_campaign("cortex_slots")
    sheet = make_sheet(campaign)
    skill = add_trait(sheet, "skills", "Pilot", die="d12")
    client = client_for(player)
    labels = []
    for _ in range(5):
        skill.refresh_from_db()
        client.post(trait_url(skill, "step"), {"direction": "up", "version": skill.version}, **htmx)
        skill.refresh_from_db()
        labels.append(skill.die_label)
    assert labels == ["d12+d4", "d12+d6", "d12+d8", "d12+d10", "d12+d12"]
    response = client.post(
        trait_url(skill, "step"), {"direction": "up", "version": skill.version}, **htmx
    )
    assert response.status_code == 422 and "d12+d12 is as high" in text(response)
    response = save(client, skill, "die", "d12+d6", htmx, version=skill.version)
    skill.refresh_from_db()
    assert response.status_code == 200 and skill.die_label == "d12+d6"
    client.post(trait_url(skill, "step"), {"direction": "down", "version": skill.version}, **htmx)
    skill.refresh_from_db()
    assert skill.die_label == "d12+d4"
    client.post(trait_url(skill, "step"), {"direction": "down", "version": skill.version}, **htmx)
    skill.refresh_from_db()
    assert skill.die_label == "d12"

    # Groups the template does not mark "die_or_compound" stop at d12.
    from rules.registry import get_system

    plain = next(
        g
        for g in get_system("cortex_slots").sheet_template.groups
        if g.kind == "die" and not g.table_owned  # the Big Hero Die: conditions are the GM's
    )
    other = add_trait(sheet, plain.key, "Plain", die="d12")
    response = save(client, other, "die", "d12+d6", htmx)
    assert response.status_code == 422 and "not a die size here" in text(response)
    response = client.post(trait_url(other, "step"), {"direction": "up", "version": 1}, **htmx)
    assert response.status_code == 422


def test_fixed_stress_loses_its_die_instead_of_being_removed(
    make_campaign, make_sheet, gm, client_for, htmx
):
    """Stress changes at the table, so the GM steps it here (each step is logged)."""
    campaign = make_campaign("smallville")
    sheet = make_sheet(campaign)
    afraid = Trait.objects.get(sheet=sheet, group="stress", name="Afraid")
    client = client_for(gm)
    assert afraid.die is None
    client.post(trait_url(afraid, "step"), {"direction": "up", "version": 1}, **htmx)
    afraid.refresh_from_db()
    assert afraid.die == 4
    response = client.post(
        trait_url(afraid, "step"), {"direction": "down", "version": afraid.version}, **htmx
    )
    afraid.refresh_from_db()
    assert response.status_code == 200 and afraid.die is None
    # Fixed traits cannot be renamed or removed.
    response = save(client, afraid, "name", "Scared", htmx, version=afraid.version)
    assert response.status_code == 422 and "cannot be renamed" in text(response)
    response = client.post(trait_url(afraid, "delete"), {"version": afraid.version}, **htmx)
    assert response.status_code == 422
    assert Trait.objects.filter(pk=afraid.pk, name="Afraid").exists()


INVALID = [
    # (system, group, field, value, message fragment)
    ("serenity", "stylins", "die", "d7", "d7 is not a die size"),
    ("serenity", "stylins", "die", "d20", "d20 is not a die size"),
    ("serenity", "stylins", "die", "", "Choose a die"),
    ("serenity", "stylins", "name", "x" * 81, "at most 80 characters"),
    ("serenity", "stylins", "name", "   ", "Give it a name"),
    ("cortex_slots", "skills", "die", "d10+d6", "only a d12 can carry a plus die"),
    ("smallville", "abilities", "die", "d3", "d3 is not a die size"),
    ("personae", "attributes", "rating", "11", "between 0 and 10"),
    ("personae", "attributes", "rating", "-1", "between 0 and 10"),
    ("personae", "attributes", "rating", "2.5", "whole number"),
    ("unisystem", "skills", "rating", "16", "between 0 and 15"),
    ("unisystem", "skills", "rating", "many", "whole number"),
]


@pytest.mark.parametrize("system,group,field,value,message", INVALID)
def test_invalid_values_are_shown_beside_the_field_and_nothing_is_saved(
    system,
    group,
    field,
    value,
    message,
    make_campaign,
    make_sheet,
    add_trait,
    player,
    client_for,
    htmx,
):
    campaign = make_campaign(system)
    sheet = make_sheet(campaign)
    data = {"die": "d6"} if FIRST_TRAIT[system][1].get("die") else {"rating": 1}
    trait = add_trait(sheet, group, "Steady", **data)
    response = save(client_for(player), trait, field, value, htmx)
    body = text(response)
    assert response.status_code == 422
    assert message in body
    error_id = f"t{trait.pk}-{field}-error"
    assert f'aria-describedby="{error_id}"' in body and f'id="{error_id}"' in body
    assert 'aria-invalid="true"' in body
    before = Trait.objects.get(pk=trait.pk)
    assert (before.version, before.name, before.die, before.rating) == (
        trait.version,
        trait.name,
        trait.die,
        trait.rating,
    )


def test_unisystem_attributes_are_bounded_and_fixed(
    make_campaign, make_sheet, player, client_for, htmx
):
    campaign = make_campaign("unisystem")
    sheet = make_sheet(campaign)
    strength = Trait.objects.get(sheet=sheet, name="Strength")
    assert strength.rating == 2
    client = client_for(player)
    assert save(client, strength, "rating", "0", htmx).status_code == 422
    assert save(client, strength, "rating", "5", htmx).status_code == 200
    response = client.post(
        reverse("trait_add", args=[campaign.pk, sheet.pk, "attributes"]),
        {"name": "Luck", "rating": "2"},
        **htmx,
    )
    assert response.status_code == 422
    assert not Trait.objects.filter(sheet=sheet, name="Luck").exists()


STRUCTURE = [
    # system, parent group, parent data, child group, relation
    ("serenity", "stylins", {"die": "d8"}, "refinements", {"die": "d6"}, "parent", "Stylin'"),
    ("smallville", "abilities", {"die": "d8"}, "limits", {"die": "d6"}, "link", "Ability"),
    ("personae", "attributes", {"rating": 2}, "skills", {"rating": 3}, "link", "Attribute"),
]


@pytest.mark.parametrize(
    "system,parent_group,parent_data,child_group,child_data,relation,label", STRUCTURE
)
def test_structural_rules(
    system,
    parent_group,
    parent_data,
    child_group,
    child_data,
    relation,
    label,
    make_campaign,
    make_sheet,
    add_trait,
    player,
    client_for,
    htmx,
):
    """A Refinement needs its Stylin', a Limit its Ability, a Personae skill its attribute."""
    campaign = make_campaign(system)
    sheet = make_sheet(campaign)
    client = client_for(player)
    add_url = reverse("trait_add", args=[campaign.pk, sheet.pk, child_group])

    # Nothing to file it under yet: refused, with the reason beside the field.
    response = client.post(add_url, {"name": "Orphan", **child_data}, **htmx)
    assert response.status_code == 422
    assert f"add {'an' if label[0] in 'AEIOU' else 'a'} {label} first" in text(response)
    assert not Trait.objects.filter(sheet=sheet, group=child_group).exists()

    parent = add_trait(sheet, parent_group, "Anchor", **parent_data)
    response = client.post(add_url, {"name": "Child", **child_data}, **htmx)
    assert response.status_code == 422 and f"Choose the {label}" in text(response)

    # A trait of another sheet is not a valid parent.
    elsewhere = add_trait(make_sheet(campaign, "Other"), parent_group, "Foreign", **parent_data)
    response = client.post(add_url, {"name": "Child", relation: elsewhere.pk, **child_data}, **htmx)
    assert response.status_code == 422 and "one of this sheet's" in text(response)

    response = client.post(add_url, {"name": "Child", relation: parent.pk, **child_data}, **htmx)
    assert response.status_code == 200
    child = Trait.objects.get(sheet=sheet, group=child_group)
    assert getattr(child, f"{relation}_id") == parent.pk

    # The parent cannot be removed while something belongs to it.
    response = client.post(trait_url(parent, "delete"), {"version": parent.version}, **htmx)
    assert response.status_code == 422 and "belong to" in text(response)
    assert Trait.objects.filter(pk=parent.pk).exists()

    # Re-filing the child under another parent of the same sheet works; under another sheet's does not.
    second = add_trait(sheet, parent_group, "Second", **parent_data)
    assert save(client, child, relation, str(second.pk), htmx).status_code == 200
    child.refresh_from_db()
    assert getattr(child, f"{relation}_id") == second.pk
    assert save(client, child, relation, str(elsewhere.pk), htmx).status_code == 422


def test_names_are_unique_within_a_group(
    make_campaign, make_sheet, add_trait, player, client_for, htmx
):
    campaign = make_campaign("serenity")
    sheet = make_sheet(campaign)
    add_trait(sheet, "stylins", "Fightin'", die="d8")
    other = add_trait(sheet, "stylins", "Fixin'", die="d8")
    response = client_for(player).post(
        reverse("trait_add", args=[campaign.pk, sheet.pk, "stylins"]),
        {"name": "fightin'", "die": "d6"},
        **htmx,
    )
    assert response.status_code == 422 and "already a Stylin'" in text(response)
    assert save(client_for(player), other, "name", "FIGHTIN'", htmx).status_code == 422
    # The same name in another group is fine.
    assert add_trait(sheet, "values", "Fightin'", die="d6").pk


def test_flags_heritage_and_signature(
    make_campaign, make_sheet, add_trait, player, client_for, htmx
):
    campaign = make_campaign("smallville")
    sheet = make_sheet(campaign)
    trait = add_trait(sheet, "distinctions", "Kryptonian", die="d8")
    client = client_for(player)
    response = client.post(
        trait_url(trait), {"field": "flag_heritage", "flag_heritage": "on", "version": 1}, **htmx
    )
    trait.refresh_from_db()
    assert response.status_code == 200 and trait.flags == {"heritage": True}
    response = client.post(trait_url(trait), {"field": "flag_heritage", "version": 2}, **htmx)
    trait.refresh_from_db()
    assert trait.flags == {}
    # A flag the group does not have is refused.
    response = client.post(
        trait_url(trait), {"field": "flag_signature", "flag_signature": "on", "version": 3}, **htmx
    )
    assert response.status_code == 422


def test_reorder_traits(make_campaign, make_sheet, add_trait, player, client_for, htmx):
    campaign = make_campaign("serenity")
    sheet = make_sheet(campaign)
    a, b, c = (add_trait(sheet, "values", n, die="d6") for n in ("A", "B", "C"))
    client = client_for(player)
    response = client.post(trait_url(c, "move"), {"direction": "up"}, **htmx)
    assert response.status_code == 200 and response["HX-Retarget"] == f"#group-{sheet.pk}-values"
    order = list(
        Trait.objects.filter(sheet=sheet, group="values")
        .order_by("position")
        .values_list("name", flat=True)
    )
    assert order == ["A", "C", "B"]
    client.post(trait_url(a, "move"), {"direction": "up"}, **htmx)  # already first: no change
    client.post(trait_url(a, "move"), {"direction": "down"}, **htmx)
    order = list(
        Trait.objects.filter(sheet=sheet, group="values")
        .order_by("position")
        .values_list("name", flat=True)
    )
    assert order == ["C", "A", "B"]
    body = text(client.get(sheet.get_absolute_url()))
    assert body.index('value="C"') < body.index('value="A"') < body.index('value="B"')


def test_counters_are_bounded_and_versioned(make_campaign, make_sheet, gm, client_for, htmx):
    """Plot points change at the table: the GM sets them here (each change is logged)."""
    campaign = make_campaign("serenity")
    sheet = make_sheet(campaign)
    url = reverse("sheet_counter", args=[campaign.pk, sheet.pk, "plot_points"])
    client = client_for(gm)
    response = client.post(url, {"value": "3", "version": 1}, **htmx)
    assert response.status_code == 200 and 'value="3"' in text(response)
    response = client.post(url, {"delta": "1", "value": "3", "version": 2}, **htmx)
    counter = Counter.objects.get(sheet=sheet, key="plot_points")
    assert (counter.value, counter.version) == (4, 3)
    for bad in ("-1", "100", "lots"):
        response = client.post(url, {"value": bad, "version": 3}, **htmx)
        assert response.status_code == 422
        assert f'aria-describedby="counter-{sheet.pk}-plot_points-error"' in text(response)
    counter.refresh_from_db()
    assert (counter.value, counter.version) == (4, 3)


def test_personae_criticals_never_exceed_the_potential_threshold(
    make_campaign, make_sheet, gm, client_for, htmx
):
    """PER-6: a bank holds at most the Potential Threshold (criticals change at the table,
    so the GM sets them here)."""
    campaign = make_campaign("personae")
    sheet = make_sheet(campaign)
    client = client_for(gm)
    crit = reverse("sheet_counter", args=[campaign.pk, sheet.pk, "criticals"])
    threshold = reverse("sheet_counter", args=[campaign.pk, sheet.pk, "potential_threshold"])
    assert client.post(crit, {"value": "3", "version": 1}, **htmx).status_code == 200
    response = client.post(crit, {"value": "4", "version": 2}, **htmx)
    assert response.status_code == 422 and "at most the Potential Threshold (3)" in text(response)
    response = client.post(threshold, {"value": "2", "version": 1}, **htmx)
    assert response.status_code == 422 and "cannot go below" in text(response)
    assert client.post(threshold, {"value": "5", "version": 1}, **htmx).status_code == 200
    assert client.post(crit, {"value": "5", "version": 2}, **htmx).status_code == 200


def test_unisystem_adversary_scores_follow_uni8_with_overrides(
    make_campaign, make_sheet, add_trait, gm, client_for, htmx
):
    """UNI-8: the seed's vampire gives Muscle 16, Combat 12, Brains 10; the GM may override a score."""
    campaign = make_campaign("unisystem")
    sheet = make_sheet(campaign, "Vampire", kind="npc", npc_kind="adversary")
    for name, rating in (("Strength", 5), ("Dexterity", 4), ("Constitution", 4)):
        Trait.objects.filter(sheet=sheet, name=name).update(rating=rating)
    add_trait(sheet, "skills", "Kung Fu", rating=2)  # flagged as a combat skill by its name
    add_trait(sheet, "skills", "Occultism", rating=2)  # and this one as a mental skill
    client = client_for(gm)
    body = text(client.get(sheet.get_absolute_url()))
    values = re.findall(r'<strong class="score-value">(\d+)</strong>', body)
    assert values == ["16", "12", "10"]
    sheet.refresh_from_db()
    response = client.post(
        reverse("sheet_scores", args=[campaign.pk, sheet.pk]),
        {
            "override_combat": "14",
            "override_muscle": "",
            "override_brains": "",
            "version": sheet.version,
        },
        **htmx,
    )
    assert response.status_code == 200
    values = re.findall(r'<strong class="score-value">(\d+)</strong>', text(response))
    assert values == ["16", "14", "10"] and "UNI-8 gives 12" in text(response)
    # The answer replaces the section it came from; only the status line is out of band.
    assert text(response).count("hx-swap-oob") == 1
    sheet.refresh_from_db()
    assert sheet.overrides == {"combat": 14}
    # A cast member's sheet has no scores to override.
    pc = make_sheet(campaign, "Cast")
    response = client.post(
        reverse("sheet_scores", args=[campaign.pk, pc.pk]),
        {"override_combat": "14", "version": 1},
        **htmx,
    )
    assert response.status_code == 422


def test_sheet_details_and_delete(make_campaign, make_sheet, gm, player, client_for, htmx):
    campaign = make_campaign("serenity")
    sheet = make_sheet(campaign)
    url = reverse("sheet_head", args=[campaign.pk, sheet.pk])
    response = client_for(player).post(
        url, {"name": "Mal Reynolds", "notes": "Captain", "version": 1}, **htmx
    )
    assert response.status_code == 200 and "<h1" in text(response)
    sheet.refresh_from_db()
    assert (sheet.name, sheet.notes, sheet.version) == ("Mal Reynolds", "Captain", 2)
    response = client_for(player).post(url, {"name": "", "version": 2}, **htmx)
    assert (
        response.status_code == 422
        and f'aria-describedby="sheet-{sheet.pk}-name-error"' in text(response)
    )

    delete = reverse("sheet_delete", args=[campaign.pk, sheet.pk])
    assert client_for(player).get(delete).status_code == 200
    response = client_for(player).post(delete)
    assert response.status_code == 302 and not Sheet.objects.filter(pk=sheet.pk).exists()


def test_gm_hides_a_gm_character_and_reassigns_a_pc(
    make_campaign, make_sheet, gm, player, other_player, client_for, htmx
):
    campaign = make_campaign("cortex_slots")
    npc = make_sheet(campaign, "Baron", kind="npc", npc_kind="boss")
    url = reverse("sheet_head", args=[campaign.pk, npc.pk])
    response = client_for(gm).post(
        url,
        {
            "name": "Baron",
            "notes": "",
            "hidden_present": "1",
            "hidden": "on",
            "npc_kind": "plot",
            "version": 1,
        },
        **htmx,
    )
    npc.refresh_from_db()
    assert response.status_code == 200 and (npc.hidden, npc.npc_kind) == (True, "plot")
    assert client_for(player).get(npc.get_absolute_url()).status_code == 404

    pc = make_sheet(campaign, "Hero")
    client_for(gm).post(
        reverse("sheet_head", args=[campaign.pk, pc.pk]),
        {"name": "Hero", "notes": "", "owner": other_player.pk, "version": 1},
        **htmx,
    )
    pc.refresh_from_db()
    assert pc.owner == other_player
    # The old owner now only views; the new owner edits.
    pc_url = reverse("sheet_head", args=[campaign.pk, pc.pk])
    assert client_for(player).post(pc_url, {"name": "X", "version": 2}).status_code == 403
    assert (
        client_for(other_player).post(pc_url, {"name": "X", "version": 2}, **htmx).status_code
        == 200
    )


def test_without_javascript_forms_post_and_come_back_to_the_page(
    make_campaign, make_sheet, add_trait, player, client_for
):
    campaign = make_campaign("serenity")
    sheet = make_sheet(campaign)
    trait = add_trait(sheet, "stylins", "Fightin'", die="d6")
    client = client_for(player)
    response = client.post(
        trait_url(trait), {"name": "Fighting", "die": "d8", "notes": "n", "version": 1}
    )
    assert response.status_code == 302 and response["Location"].endswith(f"#trait-{trait.pk}")
    trait.refresh_from_db()
    assert (trait.name, trait.die, trait.notes, trait.version) == ("Fighting", 8, "n", 2)
    response = client.post(trait_url(trait), {"die": "d7", "version": 2}, follow=True)
    assert "Not saved" in text(response)
