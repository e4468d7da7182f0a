"""Junk posted to every sheet endpoint: an answer a person can read, never a 500."""

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sheets import services

FIELDS = st.sampled_from(
    [
        "field",
        "name",
        "die",
        "rating",
        "notes",
        "parent",
        "link",
        "version",
        "direction",
        "value",
        "delta",
        "flag_heritage",
        "flag_signature",
        "reply",
        "hidden",
        "npc_kind",
        "owner",
        "override_combat",
        "text",
        "kind",
        "flags_present",
    ]
)
VALUES = st.one_of(
    st.text(max_size=120),
    st.sampled_from(
        [
            "",
            " ",
            "0",
            "-1",
            "1",
            "2",
            "99999999999999999999",
            "d12+d6",
            "d7",
            "up",
            "down",
            "name",
            "die",
            "notes",
            "parent",
            "flag_heritage",
            "row",
            "on",
            "\x00",
            "<script>",
        ]
    ),
)
FORMS = st.dictionaries(FIELDS, VALUES, max_size=7)


@pytest.mark.django_db
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=FORMS, index=st.integers(min_value=0, max_value=9), htmx=st.booleans())
def test_junk_to_sheet_endpoints_never_500(
    data, index, htmx, make_campaign, make_sheet, gm, client_for
):
    campaign = make_campaign("smallville")
    sheet = make_sheet(campaign, "Dana")
    ability = services.add_trait(sheet, "abilities", {"name": "Flight", "die": "d8"}, {})
    limit = services.add_trait(
        sheet, "limits", {"name": "Fear", "die": "d6", "link": str(ability.pk)}, {}
    )
    args = [campaign.pk, sheet.pk]
    urls = [
        reverse("trait", args=[*args, ability.pk]),
        reverse("trait", args=[*args, limit.pk]),
        reverse("trait_step", args=[*args, ability.pk]),
        reverse("trait_move", args=[*args, limit.pk]),
        reverse("trait_delete", args=[*args, limit.pk]),
        reverse("trait_add", args=[*args, "limits"]),
        reverse("sheet_counter", args=[*args, "plot_points"]),
        reverse("sheet_head", args=args),
        reverse("sheet_scores", args=args),
        reverse("sheet_import", args=[campaign.pk]),
    ]
    client = client_for(gm)
    client.raise_request_exception = False
    extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = client.post(urls[index], data, **extra)
    assert response.status_code in (200, 302, 400, 403, 404, 409, 422), (
        urls[index],
        data,
        response.status_code,
    )
