"""Installable: a web app manifest with its icons, a service worker served from the
root (its scope is the whole site) keeping only the app shell, and the offline shell
itself, which names no one and nothing of any table."""

from __future__ import annotations

import json
import re
import struct

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse

from api import icons

pytestmark = pytest.mark.django_db


def png_size(path: str) -> tuple[int, int]:
    data = open(path, "rb").read(32)
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_the_manifest_names_the_app_and_its_icons():
    response = Client().get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == "Rollcall" and manifest["display"] == "standalone"
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    purposes = set()
    for icon in manifest["icons"]:
        name = icon["src"].removeprefix("/static/")
        size = png_size(finders.find(name))
        assert icon["sizes"] == f"{size[0]}x{size[1]}" and icon["type"] == "image/png"
        purposes.add(icon["purpose"])
    assert {"192x192", "512x512"} <= {i["sizes"] for i in manifest["icons"]}
    assert purposes == {"any", "maskable"}


def test_the_worker_is_served_from_the_root_and_keeps_only_the_shell():
    response = Client().get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"]
    source = response.content.decode()
    shell = json.loads(re.match(r"self\.ROLLCALL_SHELL = (\{.*\});\n", source)[1])
    assert shell["offline"] == reverse("pwa_offline")
    for url in shell["files"]:
        assert url.startswith("/static/")
        assert not any(part in url for part in ("/c/", "/api/", "/table/"))
    assert 'request.method !== "GET"' in source  # forms and rolls are never answered by it


def test_the_offline_shell_is_the_same_for_everyone(client_for, player, campaign):
    anonymous = Client().get("/offline/")
    signed_in = client_for(player).get("/offline/")
    assert anonymous.status_code == signed_in.status_code == 200
    strip = re.compile(rb'name="csrfmiddlewaretoken" value="[^"]*"')
    assert strip.sub(b"", anonymous.content) == strip.sub(b"", signed_in.content)
    html = anonymous.content.decode()
    assert "You are offline" in html and "reconnects by itself" in html
    assert "offline.js" in html and "<script>" not in html


def test_every_page_links_the_manifest_and_registers_the_worker(client):
    html = client.get(reverse("login")).content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert re.search(r'<script src="/static/js/pwa\.js" data-worker="/sw\.js" defer>', html)


def test_the_icons_are_what_the_generator_draws():
    """static/img/icons/ come from api/icons.py (`python -m api.icons` writes them)."""
    committed = open(finders.find("img/icons/icon-192.png"), "rb").read()
    assert icons.png(icons.draw(192, maskable=False)) == committed
