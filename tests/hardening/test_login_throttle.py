"""Failed log-ins and sign-ups are counted per username + address and per address, in
Django's cache (accounts/ratelimit.py); past the limit the form answers 429 with a
message saying how long to wait, without checking the password."""

from __future__ import annotations

import math
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from accounts import ratelimit
from accounts.models import User
from campaigns import services
from campaigns.models import Membership, Role

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"
LOCKED = "Too many failed log-ins. Try again in 5 minutes."


def log_in(client: Client, username: str, password: str, ip: str = "198.51.100.1", **extra):
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip, **extra
    )


def page(response) -> str:
    return response.content.decode()


def waits_out_the_window(retry_after: str, since: float) -> bool:
    """The lock lasts five minutes from the first failure: Retry-After is what is left of
    them when the answer is made (however long the failures before it took to send)."""
    elapsed = time.monotonic() - since
    return 300 - math.ceil(elapsed) <= int(retry_after) <= 300


def test_five_failures_lock_the_username_for_five_minutes(client, make_user, settings):
    make_user("jayne")
    first = time.monotonic()
    for _ in range(settings.LOGIN_FAILURE_LIMIT - 1):
        response = log_in(client, "jayne", "wrong")
        assert response.status_code == 200
        assert "correct username and password" in page(response)
    fifth = log_in(client, "jayne", "wrong")
    assert fifth.status_code == 429
    assert LOCKED in page(fifth)
    assert waits_out_the_window(fifth["Retry-After"], first)
    # Locked: even the right password is refused, with the message beside the form.
    right = log_in(client, "jayne", PASSWORD)
    assert right.status_code == 429
    assert LOCKED in page(right)
    assert 'role="alert"' in page(right)
    assert "_auth_user_id" not in client.session


def test_a_locked_attempt_never_checks_the_password(client, make_user, monkeypatch):
    make_user("jayne")
    for _ in range(5):
        log_in(client, "jayne", "wrong")
    checked = []
    from django.contrib.auth import forms

    real = forms.authenticate
    monkeypatch.setattr(forms, "authenticate", lambda *a, **k: checked.append(1) or real(*a, **k))
    assert log_in(client, "jayne", PASSWORD).status_code == 429
    assert checked == []


def test_the_wait_counts_down_and_the_lock_lifts(client, make_user, monkeypatch):
    make_user("jayne")
    start = time.time()
    monkeypatch.setattr(ratelimit, "now", lambda: start)
    for _ in range(5):
        log_in(client, "jayne", "wrong")
    monkeypatch.setattr(ratelimit, "now", lambda: start + 200)
    assert "Try again in 2 minutes." in page(log_in(client, "jayne", PASSWORD))
    monkeypatch.setattr(ratelimit, "now", lambda: start + 250)
    assert "Try again in 1 minute." in page(log_in(client, "jayne", PASSWORD))
    monkeypatch.setattr(ratelimit, "now", lambda: start + 301)
    assert log_in(client, "jayne", PASSWORD).status_code == 302


def test_a_successful_log_in_clears_the_count(make_user):
    make_user("jayne")
    client = Client()
    for _ in range(4):
        assert log_in(client, "jayne", "wrong").status_code == 200
    assert log_in(client, "jayne", PASSWORD).status_code == 302
    client.post(reverse("logout"))
    for _ in range(4):
        assert log_in(client, "jayne", "wrong").status_code == 200


def test_the_lock_is_per_address_and_ignores_case(make_user):
    make_user("jayne")
    client = Client()
    for name in ("jayne", "JAYNE", "Jayne ", "jAyne", "jayne"):
        log_in(client, name, "wrong")
    assert log_in(client, "jayne", PASSWORD).status_code == 429
    # the real Jayne, elsewhere, is not locked out by whoever is guessing
    assert log_in(Client(), "jayne", PASSWORD, ip="203.0.113.9").status_code == 302


def test_twenty_failures_lock_the_address_for_every_username(make_user, settings):
    make_user("kaylee")
    client = Client()
    for n in range(settings.LOGIN_IP_FAILURE_LIMIT - 1):
        assert log_in(client, f"guess{n}", "wrong").status_code == 200
    assert log_in(client, "guess-last", "wrong").status_code == 429
    locked = log_in(client, "kaylee", PASSWORD)
    assert locked.status_code == 429 and LOCKED in page(locked)
    assert log_in(Client(), "kaylee", PASSWORD, ip="203.0.113.9").status_code == 302


def test_success_does_not_clear_the_address_count(make_user, settings):
    """Else one known password would reset the address's count between guesses."""
    make_user("kaylee")
    client = Client()
    for n in range(settings.LOGIN_IP_FAILURE_LIMIT - 1):
        log_in(client, f"guess{n}", "wrong")
    assert log_in(client, "kaylee", PASSWORD).status_code == 302
    client.post(reverse("logout"))
    assert log_in(client, "guess-again", "wrong").status_code == 429


def test_junk_and_missing_usernames_are_counted_too(client, db):
    for data in ({}, {"username": ""}, {"password": "x"}, {"username": "\x00" * 500}, {}):
        response = client.post(reverse("login"), data, REMOTE_ADDR="198.51.100.2")
    assert response.status_code in (200, 429)
    for _ in range(20):
        response = client.post(reverse("login"), {}, REMOTE_ADDR="198.51.100.2")
    assert response.status_code == 429


# ---------------------------------------------------------------------- sign-ups


def sign_up(client: Client, username: str, ip: str = "198.51.100.1", **fields):
    data = {
        "username": username,
        "password1": "two by two, hands of blue",
        "password2": "two by two, hands of blue",
        **fields,
    }
    return client.post(reverse("signup"), data, REMOTE_ADDR=ip)


def test_an_address_may_create_five_accounts_an_hour(settings, db):
    for n in range(settings.SIGNUP_LIMIT):
        assert sign_up(Client(), f"river{n}").status_code == 302
    refused = sign_up(Client(), "river-again")
    assert refused.status_code == 429
    assert "Too many sign-ups from your network. Try again in 60 minutes." in page(refused)
    assert not User.objects.filter(username="river-again").exists()
    assert sign_up(Client(), "simon", ip="203.0.113.9").status_code == 302


def test_failed_sign_ups_are_limited_too(settings, db):
    client = Client()
    for _ in range(settings.SIGNUP_ATTEMPT_LIMIT):
        assert sign_up(client, "river", password2="does not match").status_code == 200
    refused = sign_up(client, "river")
    assert refused.status_code == 429
    assert not User.objects.filter(username="river").exists()


def test_a_household_signs_up_on_one_invite_past_the_address_limit(settings, campaign, gm):
    """The sixth friend behind one address is not sent away, and the invited ones leave
    the address its own quota of ordinary sign-ups."""
    settings.SIGNUP_LIMIT = 5
    invite = services.create_invite(campaign, gm, Role.PLAYER)
    for n in range(settings.SIGNUP_LIMIT + 2):
        answer = sign_up(Client(), f"friend{n}", next=invite.get_absolute_url())
        assert answer.status_code == 302, n
    joined = Membership.objects.filter(campaign=campaign, user__username__startswith="friend")
    assert joined.count() == settings.SIGNUP_LIMIT + 2
    for n in range(settings.SIGNUP_LIMIT):
        assert sign_up(Client(), f"walk-in{n}").status_code == 302
    assert sign_up(Client(), "walk-in-again").status_code == 429


def test_a_dead_invite_does_not_lift_the_limit(settings, campaign, gm):
    settings.SIGNUP_LIMIT = 2
    invite = services.create_invite(campaign, gm, Role.PLAYER)
    services.revoke_invite(campaign, invite.pk)
    for n in range(settings.SIGNUP_LIMIT):
        assert sign_up(Client(), f"river{n}", next=invite.get_absolute_url()).status_code == 302
    refused = sign_up(Client(), "river-again", next=invite.get_absolute_url())
    assert refused.status_code == 429
    assert not User.objects.filter(username="river-again").exists()


def test_a_flood_through_a_leaked_invite_is_still_stopped(settings, campaign, gm):
    settings.SIGNUP_ATTEMPT_LIMIT = 8
    invite = services.create_invite(campaign, gm, Role.PLAYER)
    for n in range(settings.SIGNUP_ATTEMPT_LIMIT):
        assert sign_up(Client(), f"bot{n}", next=invite.get_absolute_url()).status_code == 302
    refused = sign_up(Client(), "bot-again", next=invite.get_absolute_url())
    assert refused.status_code == 429
    assert not User.objects.filter(username="bot-again").exists()


# ---------------------------------------------------------------------- the address


def test_forwarded_for_is_ignored_unless_proxies_are_trusted(make_user, settings):
    make_user("jayne")
    settings.TRUSTED_PROXY_HOPS = 0
    client = Client()
    for n in range(5):  # a new forged address each time does not help
        log_in(client, "jayne", "wrong", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}")
    assert log_in(client, "jayne", PASSWORD).status_code == 429


def test_behind_one_proxy_the_address_it_saw_counts(make_user, settings):
    """The proxy appends the address it saw: the client can only forge entries to its left."""
    make_user("jayne")
    settings.TRUSTED_PROXY_HOPS = 1
    client = Client()
    for n in range(5):
        log_in(
            client,
            "jayne",
            "wrong",
            ip="10.0.0.1",
            HTTP_X_FORWARDED_FOR=f"192.0.2.{n}, 198.51.100.7",
        )
    assert (
        log_in(
            client, "jayne", PASSWORD, ip="10.0.0.1", HTTP_X_FORWARDED_FOR="198.51.100.7"
        ).status_code
        == 429
    )
    assert (
        log_in(
            client, "jayne", PASSWORD, ip="10.0.0.1", HTTP_X_FORWARDED_FOR="198.51.100.8"
        ).status_code
        == 302
    )


def test_a_broken_cache_lets_people_log_in(make_user, monkeypatch):
    """If the cache is down the limiter steps aside (and logs it) rather than lock everyone out."""
    make_user("jayne")

    class Down:
        def __getattr__(self, name):
            def fail(*args, **kwargs):
                raise ConnectionError("cache is down")

            return fail

    monkeypatch.setattr(ratelimit, "cache", Down())
    client = Client()
    for _ in range(8):
        assert log_in(client, "jayne", "wrong").status_code == 200
    assert log_in(client, "jayne", PASSWORD).status_code == 302


# ---------------------------------------------------------------------- across processes


@pytest.fixture
def redis_url():
    return os.environ["REDIS_URL"]


@pytest.mark.services
def test_failures_counted_by_another_process_lock_here(redis_url, make_user, settings):
    """Two processes sharing the Redis cache share the counts: twenty failures counted in
    a separate Python process lock the address for this one."""
    make_user("kaylee")
    address = f"198.18.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}"
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": redis_url}
    }
    script = (
        "import django; django.setup()\n"
        "from accounts import ratelimit\n"
        "limit = ratelimit.login_ip_limit()\n"
        f"waits = [limit.hit({address!r}) for _ in range(limit.limit)]\n"
        "print(waits[-1])\n"
    )
    env = {**os.environ, "REDIS_URL": redis_url, "DJANGO_SETTINGS_MODULE": "rollcall.settings"}
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [sys.executable, "-c", script],
        env=env,
        cwd=root,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert int(out.stdout.strip()) > 0
    try:
        response = log_in(Client(), "kaylee", PASSWORD, ip=address)
        assert response.status_code == 429
        assert LOCKED in page(response)
    finally:
        ratelimit.login_ip_limit().reset(address)


# ---------------------------------------------------------------------- the admin's log-in


def admin_log_in(client: Client, username: str, password: str, ip: str = "198.51.100.1", **extra):
    return client.post(
        "/admin/login/?next=/admin/",
        {"username": username, "password": password, "next": "/admin/"},
        REMOTE_ADDR=ip,
        **extra,
    )


@pytest.fixture
def staff(make_user):
    user = make_user("inara")
    user.is_staff = user.is_superuser = True
    user.save()
    return user


def test_the_admin_log_in_is_throttled_like_the_sites(staff, settings):
    """/admin/login/ was not throttled at all: a guesser could try passwords for a staff
    account there without end."""
    client = Client()
    first = time.monotonic()
    for _ in range(settings.LOGIN_FAILURE_LIMIT - 1):
        response = admin_log_in(client, "inara", "wrong")
        assert response.status_code == 200
        assert "Please enter the correct username and password" in page(response)
    fifth = admin_log_in(client, "inara", "wrong")
    assert fifth.status_code == 429
    assert waits_out_the_window(fifth["Retry-After"], first)
    assert LOCKED in page(fifth)
    right = admin_log_in(client, "inara", PASSWORD)
    assert right.status_code == 429 and LOCKED in page(right)
    assert "_auth_user_id" not in client.session
    # elsewhere, the real Inara gets in
    assert admin_log_in(Client(), "inara", PASSWORD, ip="203.0.113.9").status_code == 302


def test_a_locked_admin_log_in_never_checks_the_password(staff, monkeypatch):
    client = Client()
    for _ in range(5):
        admin_log_in(client, "inara", "wrong")
    checked = []
    from django.contrib.auth import forms

    real = forms.authenticate
    monkeypatch.setattr(forms, "authenticate", lambda *a, **k: checked.append(1) or real(*a, **k))
    assert admin_log_in(client, "inara", PASSWORD).status_code == 429
    assert checked == []


def test_failures_at_both_log_in_pages_add_up(staff):
    """Switching between the site's page and the admin's buys no extra guesses."""
    client = Client()
    for _ in range(3):
        assert log_in(client, "inara", "wrong").status_code == 200
    assert admin_log_in(client, "inara", "wrong").status_code == 200
    assert admin_log_in(client, "inara", "wrong").status_code == 429
    assert log_in(client, "inara", PASSWORD).status_code == 429


def test_the_admin_counts_every_address_failure(make_user, settings):
    client = Client()
    for n in range(settings.LOGIN_IP_FAILURE_LIMIT - 1):
        assert admin_log_in(client, f"guess{n}", "wrong").status_code == 200
    assert admin_log_in(client, "guess-last", "wrong").status_code == 429


def test_forwarded_for_does_not_help_at_the_admin_either(staff, settings):
    settings.TRUSTED_PROXY_HOPS = 0
    client = Client()
    for n in range(5):
        admin_log_in(client, "inara", "wrong", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}")
    assert (
        admin_log_in(client, "inara", PASSWORD, HTTP_X_FORWARDED_FOR="192.0.2.99").status_code
        == 429
    )


def test_a_non_staff_password_at_the_admin_counts_as_a_failure(make_user):
    make_user("jayne")
    client = Client()
    for _ in range(5):
        response = admin_log_in(client, "jayne", PASSWORD)
    assert response.status_code == 429
