"""Who may do what at the table, as a table: perform() and socket messages × GM,
player (own sheet, another player's, a GM character, none), observer, outsider."""

import pytest
from asgiref.sync import sync_to_async

from campaigns import services
from table.models import TableEvent
from table.writing.actions import ActionError, reveal, void

from .conftest import make_sheet
from .sockets import closed_with, messages, open_socket, send, seqs

FIGHTIN = {"die": "d10", "trait": "Fightin'", "group": "stylins"}
OK = "ok"

# (who, whose sheet, visibility) -> OK or the refusal's words
PERFORM = [
    ("gm", None, "public", OK),
    ("gm", "npc", "public", OK),
    ("gm", "pc", "public", OK),
    ("gm", None, "gm", OK),
    ("gm", "pc", "blind", OK),
    ("player", "pc", "public", OK),
    ("player", "pc", "blind", OK),
    ("player", "pc", "gm", "Only the GM can roll in secret"),
    ("player", "other_pc", "public", "only act for your own characters"),
    ("player", "npc", "public", "only act for your own characters"),
    ("player", "hidden", "public", "No such character"),
    ("player", "foreign", "public", "No such character"),
    ("player", None, "public", "Choose the character"),
    ("player", "pc", "loud", "Visibility must be"),
    ("observer", "pc", "public", "Observers can watch but not act"),
    ("observer", None, "public", "Observers can watch but not act"),
    ("outsider", "pc", "public", "not a member"),
]


def sheet_for(t, which):
    if which == "hidden":
        return make_sheet(t.campaign, None, "Shadow", kind="npc", hidden=True).pk
    if which == "foreign":
        other = services.create_campaign(t.gm, name="Elsewhere", description="", system="serenity")
        return make_sheet(other, t.player, "Mal again").pk
    return None if which is None else getattr(t, which).pk


@pytest.mark.django_db
@pytest.mark.parametrize(("who", "sheet", "visibility", "expected"), PERFORM)
def test_perform(table_for, faces, who, sheet, visibility, expected):
    t = table_for("serenity")
    sheet_id = sheet_for(t, sheet)
    pool = [FIGHTIN] if sheet in ("pc", "other_pc", "foreign") else [
        {"die": "d8", "trait": "Goons", "group": "situation"}
    ]  # fmt: skip
    call = lambda: t.perform(  # noqa: E731
        getattr(t, who), "roll", {"pool": pool}, sheet_id=sheet_id, visibility=visibility
    )
    if expected == OK:
        event = call()
        assert event.visibility == visibility
    else:
        with pytest.raises(ActionError, match=expected):
            call()
        assert not TableEvent.objects.filter(campaign=t.campaign).exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("who", "expected"),
    [
        ("gm", OK),
        ("player", "Only the GM"),
        ("observer", "Only the GM"),
        ("outsider", "not a member"),
    ],
)
def test_reveal_and_void(table_for, faces, who, expected):
    t = table_for("serenity")
    blind = t.perform(t.player, "roll", {"pool": [FIGHTIN]}, sheet_id=t.pc.pk, visibility="blind")
    user = getattr(t, who)
    if expected == OK:
        assert reveal(t.campaign, user, blind.pk).kind == "reveal"
        assert void(t.campaign, user, blind.pk, "redo").kind == "void"
        return
    for call in (
        lambda: reveal(t.campaign, user, blind.pk),
        lambda: void(t.campaign, user, blind.pk, "x"),
    ):
        with pytest.raises(ActionError, match=expected):
            call()


@pytest.mark.django_db
@pytest.mark.parametrize("sheet", ["pc", "other_pc", "npc", "hidden", "foreign", "missing"])
def test_a_gm_tool_is_refused_by_role_whatever_character_it_names(table_for, faces, sheet):
    """A player may never give plot points: the refusal comes before the character named
    is looked up, so it says nothing of which characters exist."""
    t = table_for("serenity")
    sheet_id = 10**9 if sheet == "missing" else sheet_for(t, sheet)
    with pytest.raises(ActionError) as refused:
        t.perform(t.player, "give_points", {"amount": 1}, sheet_id=sheet_id)
    assert str(refused.value) == "Only the GM can use “Points from the GM”."
    assert not TableEvent.objects.filter(campaign=t.campaign).exists()


# Socket "act" messages: the same rules, and a refusal reaches the sender only.
SOCKET = [
    ("gm", None, OK),
    ("gm", "pc", OK),
    ("player", "pc", OK),
    ("player", "other_pc", "only act for your own characters"),
    ("player", "npc", "only act for your own characters"),
    ("observer", "pc", "Observers can watch but not act"),
    ("outsider", "pc", 4403),
]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("who", "sheet", "expected"), SOCKET)
async def test_socket_act(table_for, faces, who, sheet, expected):
    t = await sync_to_async(table_for)("serenity")
    comm, _, _ = await open_socket(getattr(t, who), t.campaign)
    if expected == 4403:
        assert await closed_with(comm) == 4403
        return
    sheet_id = None if sheet is None else getattr(t, sheet).pk
    pool = (
        [{"die": "d8", "trait": "Goons", "group": "situation"}]
        if sheet in (None, "npc")
        else [FIGHTIN]
    )
    await send(
        comm, {"type": "act", "action": "roll", "sheet_id": sheet_id, "request": {"pool": pool}}
    )
    received = await messages(comm, 1)
    count = await sync_to_async(TableEvent.objects.filter(campaign=t.campaign).count)()
    if expected == OK:
        assert seqs(received) == [1] and count == 1
    else:
        assert expected in received[0] and 'data-kind="error"' in received[0] and count == 0
    await comm.disconnect()
