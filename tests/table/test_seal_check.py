"""Checking a sealed roll (docs/protocol.md, "Checking a revealed roll"): the commitment
a player's page showed on the sealed card is the one stored in the hash chain, the
opened card carries it byte for byte, and the revealed faces, outcome and salt hash to
it; faces changed on the way do not. (The browser's side of the check, which holds the
opened card to the commitment the page saw earlier, is tests/e2e/test_sealed_roll.py.)"""

from __future__ import annotations

import hashlib
import html
import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from table.models import TableEvent, canonical_json
from table.reading.export import verify
from table.writing import actions as table_actions

pytestmark = pytest.mark.django_db


def page_of(user, campaign) -> str:
    client = Client()
    client.force_login(user)
    return client.get(reverse("table", args=[campaign.pk])).content.decode()


def card(page: str, seq: int) -> str:
    start = page.index(f'id="event-{seq}"')
    return page[start : page.index("</article>", start)]


def attribute(fragment: str, tag: str, name: str) -> str:
    found = re.search(rf"<{tag}\b[^>]*\s{name}=\"([^\"]*)\"", fragment)
    assert found, f"no {name} on <{tag}>"
    return html.unescape(found.group(1))


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_the_reveal_is_held_to_the_commitment_the_sealed_card_published(table_for):
    t = table_for("serenity")
    t.start_scene()
    fightin = t.trait(t.pc, "stylins", "Fightin'")
    client = Client()
    client.force_login(t.gm)
    url = reverse("table_pool_roll", args=[t.campaign.pk, t.pc.pk])
    client.post(url, {"trait": [str(fightin.pk)], "visibility": "gm"}, HTTP_HX_REQUEST="true")
    event = TableEvent.objects.get(campaign=t.campaign, action="roll")

    sealed = card(page_of(t.player, t.campaign), event.seq)
    published = attribute(sealed, "article", "data-commitment")
    assert attribute(sealed, "article", "data-sealed-seq") == str(event.seq)
    assert f'<code class="hash">{published}</code>' in sealed  # what the player reads
    # It is the stored event's, inside what the chain hashes.
    assert published == event.seal["commitment"] == event.hash_body()["seal"]["commitment"]

    table_actions.reveal(t.campaign, t.gm, event.pk)
    opened = card(page_of(t.player, t.campaign), event.seq)
    assert "sealed-card" not in opened
    assert attribute(opened, "details", "data-seq") == str(event.seq)
    assert attribute(opened, "details", "data-commitment") == published  # byte for byte
    text = attribute(opened, "details", "data-committed")
    assert sha256(text) == published  # faces, outcome and salt as revealed

    revealed = json.loads(text)
    assert revealed["faces"] == event.faces and revealed["salt"] == event.seal["salt"]
    tampered = json.loads(text)
    tampered["faces"][0] = tampered["faces"][0] % 10 + 1
    tampered["outcome"]["dice"][0]["face"] = tampered["faces"][0]
    assert sha256(canonical_json(tampered)) != published

    # A commitment changed in the store after it was published breaks the chain.
    assert verify(t.campaign).ok
    TableEvent.objects.filter(pk=event.pk).update(seal={**event.seal, "commitment": "0" * 64})
    verdict = verify(t.campaign)
    assert not verdict.ok and verdict.first_bad_seq == event.seq
