"""Text others read carries no hidden controls (accounts.text.shown_text), and keeps every
script and emoji: property tests over random text, and the chat line, a display name and a
character's name as the other players, the export and the sheet see them."""

from __future__ import annotations

import json
import unicodedata

import pytest
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from accounts.text import shown_text
from table.models import TableEvent
from table.talk import chat
from table.writing import actions
from table.writing.append import plain_json

BIDI = {0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)}
SPOOFING_FORMATS = {0x00AD, 0x180E, 0x200B, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0xFEFF}
SCRIPT_FORMATS = {*range(0x0600, 0x0606), 0x06DD, 0x070F, 0x0890, 0x0891, 0x08E2, 0x110BD,
                  0x110CD, *range(0x13430, 0x13460), *range(0x1BCA0, 0x1BCA4)}  # fmt: skip


def banned(char: str) -> bool:
    """What must never reach another member: controls but tab and line break, lone
    surrogates, direction controls, and every invisible format character but the joiners,
    a script's own format marks and a flag's tags."""
    point, category = ord(char), unicodedata.category(char)
    if point in BIDI or point in SPOOFING_FORMATS or char == "\r":
        return True
    if category == "Cc":
        return char not in "\t\n"
    if category == "Cs":
        return True
    if category == "Cf":
        return point not in {0x200C, 0x200D} | SCRIPT_FORMATS and not 0xE0020 <= point <= 0xE007F
    return False


def flag_tags_follow_a_flag(text: str) -> bool:
    previous = ""
    for char in text:
        if 0xE0020 <= ord(char) <= 0xE007F and not (
            previous == "\U0001f3f4" or 0xE0020 <= ord(previous or "\0") < 0xE007F
        ):
            return False
        previous = char
    return True


HOSTILE = st.sampled_from(
    ["\x1b", "\x07", "\x00", "\x7f", "\x85", "\x9b", "\r", "\u2028", "\u202e", "\u202d",
     "\u202a", "\u2066", "\u2067", "\u2068", "\u2069", "\u200e", "\u200f", "\u061c",
     "\u200b", "\u2060", "\ufeff", "\u00ad", "\U000e0041", "\ud800"]
)  # fmt: skip
# Real writing: scripts, emoji (ZWJ sequences, skin tones, variation selectors, keycaps,
# flags, a subdivision flag's tags), Persian's zero-width non-joiner, combining marks.
WRITING = st.sampled_from(
    ["Mal", "Zoë", "مرحبا بالعالم", "שָׁלוֹם", "你好，世界", "こんにちは", "नमस्ते", "क्‍ष",
     "می‌خواهم", "Привет", "Ελληνικά", "ก่อน", "한국어", "👩‍🚀", "👨‍👩‍👧‍👦", "👍🏽", "❤️",
     "✌︎", "1️⃣", "🇳🇿", "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",
     "e\u0301", "\u0600١٢", "a\tb", "line\nbreak", " "]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_no_banned_code_point_ever_comes_out(text):
    out = shown_text(text)
    assert not [hex(ord(c)) for c in out if banned(c)]
    assert flag_tags_follow_a_flag(out)


@settings(max_examples=300, deadline=None)
@given(st.lists(WRITING, max_size=8).map("".join))
def test_every_script_and_emoji_comes_out_as_it_went_in(text):
    assert shown_text(text) == text


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(WRITING, st.lists(HOSTILE, max_size=3).map("".join)), max_size=8))
def test_hidden_controls_between_real_writing_are_taken_out_and_nothing_else(pieces):
    mixed = "".join(words + hostile for words, hostile in pieces)
    expected = "".join(words + "\n" * (hostile.count("\r") + hostile.count("\u2028") + hostile.count("\x85")) for words, hostile in pieces)  # fmt: skip
    assert shown_text(mixed) == expected


def test_a_reversed_file_name_reads_as_it_was_typed():
    assert shown_text("invoice_\u202efdp.exe") == "invoice_fdp.exe"
    assert shown_text("a\r\nb\rc") == "a\nb\nc"


# ---------------------------------------------------------------------- where it is applied

SPOOF = "invoice_\u202efdp.exe\x1b[31m red\x07 \u2066done\u2069 👨‍👩‍👧 مرحبا"
CLEAN = "invoice_fdp.exe[31m red done 👨‍👩‍👧 مرحبا"


@pytest.mark.django_db
def test_a_chat_line_reaches_the_others_and_the_export_without_hidden_controls(
    campaign, player, observer, client_for
):
    chat.say(campaign.pk, player, "ooc", SPOOF)
    event = TableEvent.objects.get(campaign=campaign, kind="chat")
    assert event.request["text"] == event.outcome["text"] == CLEAN
    page = client_for(observer).get(reverse("table", args=[campaign.pk])).content.decode()
    assert CLEAN in page
    export = client_for(observer).get(
        reverse("table_export_session", args=[campaign.pk, "current", "md"])
    )
    text = export.content.decode()
    assert "fdp.exe" in text and "👨‍👩‍👧" in text and "مرحبا" in text
    for hidden in ("\u202e", "\x1b", "\x07", "\u2066", "\u2069"):
        assert hidden not in page and hidden not in text


@pytest.mark.django_db
def test_a_line_of_nothing_but_hidden_characters_is_empty(campaign, player):
    with pytest.raises(chat.ActionError, match="the line is empty"):
        chat.say(campaign.pk, player, "ooc", "\u202e\u200b\x1b")
    assert not TableEvent.objects.filter(campaign=campaign, kind="chat").exists()


@pytest.mark.django_db
def test_display_names_and_character_names_lose_their_hidden_characters(
    campaign, player, client_for
):
    client = client_for(player)
    client.post(reverse("profile"), {"display_name": "\u202eetE\u200bP\x07"})
    player.refresh_from_db()
    assert player.display_name == "etEP"
    answer = client.post(reverse("profile"), {"display_name": "\u202e\u2066"})
    player.refresh_from_db()
    assert player.display_name == ""  # nothing shown is left: the username is shown instead
    assert answer.status_code == 302
    create = client.post(
        reverse("sheet_create", args=[campaign.pk]), {"name": "\u2067River\u2069 Tam"}
    )
    assert create.status_code == 302
    assert campaign.sheets.filter(name="River Tam").exists()


@pytest.mark.django_db
def test_a_scene_the_gm_names_on_the_dashboard_loses_its_hidden_characters(
    campaign, gm, client_for
):
    client_for(gm).post(
        reverse("table_gm_scene", args=[campaign.pk]),
        {"op": "new", "title": SPOOF, "description": "\u202eback"},
    )
    scene = campaign.scenes.get(title=CLEAN)
    assert scene.description == "back"
    answer = client_for(gm).post(
        reverse("table_gm_scene", args=[campaign.pk]),
        {"op": "new", "title": "\u202e\u200b"},
        HTTP_HX_REQUEST="true",
    )
    assert "Give the new scene a title." in answer.content.decode()
    assert campaign.scenes.count() == 1


@pytest.mark.django_db
def test_what_an_action_carries_into_the_log_loses_its_hidden_characters(
    campaign, gm, player, observer, client_for
):
    """Free text inside a request (the name the GM gives a die, a void's reason) reaches
    the other members' cards and the export as it reads."""
    client_for(gm).post(
        reverse("table_gm_roll", args=[campaign.pk]),
        {"die": ["d8", "d6"], "die_name": [SPOOF, "Cramped bay"], "visibility": "public"},
    )
    roll = TableEvent.objects.filter(campaign=campaign, kind="action").latest("seq")
    assert "\u202e" not in json.dumps(roll.request, ensure_ascii=False)
    assert "\u202e" not in json.dumps(roll.outcome, ensure_ascii=False)
    voided = actions.void(campaign, gm, None, SPOOF, seq=roll.seq)
    assert voided.request["reason"] == CLEAN
    assert CLEAN in voided.outcome["headline"]
    page = client_for(observer).get(reverse("table", args=[campaign.pk])).content.decode()
    assert CLEAN in page and "fdp.exe" in page
    for hidden in ("\u202e", "\x1b", "\x07", "\u2066", "\u2069"):
        assert hidden not in page
    assert plain_json({"goal": SPOOF, SPOOF: [SPOOF]}, "request") == {
        "goal": CLEAN,
        CLEAN: [CLEAN],
    }
