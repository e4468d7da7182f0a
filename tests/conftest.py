"""Shared fixtures: a campaign with one named user per role, like a permission table."""

from __future__ import annotations

import os
import shutil
import socket
from pathlib import Path
from urllib.parse import urlparse

import pytest
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

SERVICE_VARS = ("DATABASE_URL", "REDIS_URL")

# Property tests check what every example gives, never how fast: no per-example deadline
# and no "too slow" health check, which would fail on a busy machine (an explicit
# suppress_health_check list replaces this one, so it names too_slow as well).
hypothesis_settings.register_profile(
    "rollcall", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
hypothesis_settings.load_profile("rollcall")
AXE_SOURCE = Path(__file__).resolve().parents[1] / "node_modules" / "axe-core" / "axe.min.js"


def _reachable(url: str) -> bool:
    parts = urlparse(url)
    try:
        with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 0), timeout=2):
            return True
    except OSError:
        return False


def pytest_configure(config):
    """Pages rendered in this process name their static files without a collectstatic
    run: plain static storage. The hashed, compressed storage that servers with DEBUG off
    use is exercised through daphne (tests/test_serving.py, tests/e2e)."""
    from django.conf import settings

    if not settings.configured:
        return
    from django.test import override_settings

    storages = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    override_settings(STORAGES=storages).enable()
    _communicators_wait_long()


COMMUNICATOR_TIMEOUT = 30.0


def _communicators_wait_long() -> None:
    """channels' test communicator gives a handshake, a message or the application's end
    1 s by default and then fails: a machine busy with other work can take longer. What
    must come is waited for up to COMMUNICATOR_TIMEOUT, a hang guard; what must not come
    is still checked with receive_nothing's own short wait."""
    from asgiref.testing import ApplicationCommunicator
    from channels.testing import WebsocketCommunicator

    for method in (
        WebsocketCommunicator.connect,
        WebsocketCommunicator.receive_from,
        WebsocketCommunicator.receive_json_from,
        ApplicationCommunicator.receive_output,
        ApplicationCommunicator.wait,
    ):
        method.__defaults__ = (COMMUNICATOR_TIMEOUT,)
    WebsocketCommunicator.disconnect.__defaults__ = (1000, COMMUNICATOR_TIMEOUT)


def pytest_sessionstart(session):
    for var in SERVICE_VARS:
        url = os.environ.get(var)
        if url and not _reachable(url):
            pytest.exit(
                f"{var}={url} is set but cannot be reached; start the service", returncode=3
            )


def pytest_collection_modifyitems(config, items):
    """Service tests run only with PostgreSQL and Redis configured; browser tests need chromium.

    In CI a missing browser is an error, not a reason to leave tests out.
    """
    have_services = all(os.environ.get(v) for v in SERVICE_VARS)
    have_browser = shutil.which("chromium") is not None
    if (
        not have_browser
        and os.environ.get("CI") == "true"
        and any("e2e" in i.keywords for i in items)
    ):
        raise pytest.UsageError("CI needs Debian's chromium for the browser tests")
    # axe-core comes from npm (package-lock.json; `npm ci`): CI must have it, a local run
    # without node_modules leaves the accessibility checks out, as it does the browser.
    have_axe = AXE_SOURCE.is_file()
    if not have_axe and os.environ.get("CI") == "true" and any("axe" in i.keywords for i in items):
        raise pytest.UsageError("CI needs axe-core for the accessibility tests: run `npm ci`")
    keep, drop = [], []
    for item in items:
        if "services" in item.keywords and not have_services:
            drop.append(item)
        elif "axe" in item.keywords and not have_axe:
            drop.append(item)
        elif "e2e" in item.keywords and not have_browser:
            drop.append(item)
        else:
            keep.append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


@pytest.fixture(autouse=True)
def fast_password_hashing(request):
    """Real hashing costs ~0.3 s per user; tests create hundreds of users.

    Pure rules tests run without pytest-django too, so the settings fixture is optional.
    """
    try:
        settings = request.getfixturevalue("settings")
    except pytest.FixtureLookupError:
        return
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def private_cache(request):
    """Each test gets an empty cache of its own: the log-in and sign-up limits count in
    the cache (accounts/ratelimit.py), and a test must not inherit another's failures,
    nor touch a shared Redis when REDIS_URL is set."""
    try:
        settings = request.getfixturevalue("settings")
    except pytest.FixtureLookupError:
        return
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"test-{request.node.nodeid}",
        }
    }


@pytest.fixture
def make_user(db, django_user_model):
    def make(username: str, display_name: str = ""):
        return django_user_model.objects.create_user(
            username=username, password="correct horse battery", display_name=display_name
        )

    return make


@pytest.fixture
def gm(make_user):
    return make_user("gina", "Gina the GM")


@pytest.fixture
def player(make_user):
    return make_user("pete", "Pete")


@pytest.fixture
def observer(make_user):
    return make_user("olive", "Olive")


@pytest.fixture
def outsider(make_user):
    return make_user("oscar", "Oscar")


@pytest.fixture
def campaign(gm, player, observer):
    from campaigns import services
    from campaigns.models import Membership, Role

    campaign = services.create_campaign(
        gm, name="Firefly Nights", description="Crime in the black.", system="serenity"
    )
    Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
    Membership.objects.create(campaign=campaign, user=observer, role=Role.OBSERVER)
    return campaign


@pytest.fixture
def client_for(client):
    """A logged-in test client for a user (None: anonymous)."""
    from django.test import Client

    def make(user):
        c = Client()
        if user is not None:
            c.force_login(user)
        return c

    return make
