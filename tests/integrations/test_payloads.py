"""What a message says: inside Discord's limits whatever the table wrote, user text shown
literally (no pings, no links), and a chat line as a plain message."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from integrations.embeds import EMBED_TOTAL_MAX, cut, event_payload, fit, plain, units
from integrations.worker import post
from table.log.visibility import GM, PLAYERS
from table.models import TableEvent, Visibility

from .receiver import limit_problems

LONG = "Reavers 🚀 *bold* " * 800


def event(**fields) -> TableEvent:
    base = dict(
        campaign_id=1,
        seq=7,
        kind="action",
        system="serenity",
        action="roll",
        refs={"actor": {"id": 1, "name": "Gina"}, "character": {"id": 2, "name": "Mal"}},
        outcome={},
        faces=[],
        visibility=Visibility.PUBLIC,
        created_at=dt.datetime(2026, 1, 2, 20, 0, tzinfo=dt.UTC),
        seal={},
    )
    base.update(fields)
    return TableEvent(**base)


def huge_outcome() -> dict:
    dice = [
        {"die": "d12", "face": 12, "trait": LONG[:300], "role": "result", "roller": LONG[:90]}
        for _ in range(300)
    ]
    outcome = {"headline": LONG, "explanation": LONG, "goal": LONG, "dice": dice}
    outcome.update({k: LONG[:2000] for k in ("result", "total", "effect", "margin", "damage")})
    return outcome


def test_a_card_of_any_size_fits_discord_limits(receiver):
    payload = event_payload(event(outcome=huge_outcome()), PLAYERS, sealed=False)
    assert limit_problems(payload) == []
    embed = payload["embeds"][0]
    assert embed["title"] == "Mal · Roll a pool"
    assert embed["description"].endswith("…")
    answer = post(receiver.url(1), payload, 2.0)
    assert answer.status == 200 and receiver.violations == []


def test_a_reveal_of_a_huge_roll_keeps_the_first_embed():
    embeds = [
        {"title": "x" * 300, "description": LONG, "fields": [{"name": "n", "value": LONG}] * 30}
    ]
    fitted = fit({"embeds": embeds * 12, "content": LONG})
    assert limit_problems(fitted) == []
    assert len(fitted["embeds"]) >= 1 and fitted["embeds"][0]["title"].startswith("xxx")


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.fixed_dictionaries(
            {
                "title": st.text(max_size=400),
                "description": st.text(max_size=5000),
                "fields": st.lists(
                    st.fixed_dictionaries(
                        {"name": st.text(max_size=300), "value": st.text(max_size=1200)}
                    ),
                    max_size=30,
                ),
                "footer": st.fixed_dictionaries({"text": st.text(max_size=2100)}),
            }
        ),
        min_size=1,
        max_size=12,
    ),
    st.text(max_size=2500),
)
def test_fit_always_lands_inside_every_limit(embeds, content):
    fitted = fit({"embeds": embeds, "content": content or "x"})
    assert limit_problems(fitted) == []
    assert sum(
        units(e.get("title", "")) + units(e.get("description", ""))
        + units(e.get("footer", {}).get("text", ""))
        + sum(units(f["name"]) + units(f["value"]) for f in e.get("fields", []))
        for e in fitted["embeds"]
    ) <= EMBED_TOTAL_MAX  # fmt: skip


@given(st.text(max_size=50), st.integers(min_value=0, max_value=60))
def test_cut_keeps_within_the_limit_and_ends_whole(text, limit):
    out = cut(plain(text), limit)
    assert units(out) <= limit
    stripped = out.removesuffix("…")
    assert (len(stripped) - len(stripped.rstrip("\\"))) % 2 == 0


def test_names_ping_no_one_and_link_nowhere():
    payload = event_payload(
        event(
            refs={
                "actor": {"id": 1, "name": "@everyone"},
                "character": {"id": 2, "name": "<@1234>"},
            },
            outcome={"headline": "[click](https://evil.example) ||spoiler||"},
        ),
        PLAYERS,
        sealed=False,
    )
    assert payload["allowed_mentions"] == {"parse": []}
    embed = payload["embeds"][0]
    assert embed["title"].startswith("\\<@1234\\>")
    assert "\\[click\\]\\(https://evil.example\\)" in embed["description"]
    assert "\\|\\|spoiler\\|\\|" in embed["description"]


def test_a_sealed_message_says_only_what_the_sealed_card_says():
    secret = event(
        visibility=Visibility.GM,
        outcome={"headline": "CANARY secret", "dice": [{"die": "d8", "face": 8}]},
        faces=[8],
        seal={"salt": "s" * 32, "commitment": "c" * 64},
    )
    payload = event_payload(secret, PLAYERS, sealed=True)
    text = str(payload)
    assert "CANARY" not in text and "Mal" not in text and "s" * 32 not in text
    assert "c" * 64 in text and "The GM rolled behind the screen" in text
    # Queued sealed, it stays sealed even once revealed (the reveal posts the opened card).
    secret.revealed = True
    assert "CANARY" not in str(event_payload(secret, PLAYERS, sealed=True))
    assert "CANARY" in str(event_payload(secret, GM, sealed=False))


@pytest.mark.parametrize("audience", [PLAYERS, GM])
def test_a_chat_line_posts_as_plain_content(audience):
    line = event(kind="chat", action="", outcome={"text": "We run. *Now*."})
    payload = event_payload(line, audience, sealed=False)
    assert "embeds" not in payload
    assert payload["content"] == "**Mal:** We run. \\*Now\\*."
    whisper = event(kind="chat", action="", visibility=Visibility.GM, outcome={"text": "psst"})
    assert "psst" not in event_payload(whisper, PLAYERS, sealed=True)["content"]


def test_with_a_public_url_each_message_links_to_the_table(settings):
    """PUBLIC_URL is the one address sure to open from Discord: a message's title links
    to the campaign's table there, sealed or not; without it, no link."""
    settings.PUBLIC_URL = "https://table.example"
    table = "https://table.example/c/1/table/"
    assert event_payload(event(), PLAYERS, sealed=False)["embeds"][0]["url"] == table
    secret = event(visibility=Visibility.GM)
    assert event_payload(secret, PLAYERS, sealed=True)["embeds"][0]["url"] == table
    settings.PUBLIC_URL = ""
    assert "url" not in event_payload(event(), PLAYERS, sealed=False)["embeds"][0]
