"""Fixtures for the hardening tests, and the figures they report at the end of the run."""

from __future__ import annotations

import logging
from collections import Counter

import pytest

# Figures measured by the hardening tests (requests made, cases fuzzed, ...), printed as
# one summary line at the end of the run and recorded as user properties (junit XML).
FIGURES: Counter = Counter()


@pytest.fixture(autouse=True)
def quiet_refusals():
    """Thousands of refused requests are the point here: log only server errors, so a
    failure's captured output shows what matters."""
    loggers = [logging.getLogger(n) for n in ("django.request", "django.security.csrf")]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.ERROR)
    yield
    for lg, level in zip(loggers, levels, strict=True):
        lg.setLevel(level)


@pytest.fixture(autouse=True)
def roomy_user_limits(settings):
    """Hundreds of requests and messages of one user within seconds are the point here:
    the per-user budget and the throttle on opening sockets (table/live/limits.py, tested in
    tests/table/test_user_limits.py) must not decide what these tests see."""
    settings.TABLE_USER_RATE = 10**6
    settings.TABLE_SOCKET_OPENS = 10**6


@pytest.fixture
def world(make_user):
    from .world import build

    return build(make_user)


@pytest.fixture
def figures(record_property):
    """figures["name"] += n counts something; each test's counts are recorded as properties."""
    mine: Counter = Counter()
    yield mine
    for name, value in sorted(mine.items()):
        record_property(name, value)
    FIGURES.update(mine)


def pytest_terminal_summary(terminalreporter):
    if FIGURES:
        parts = ", ".join(f"{name} {value}" for name, value in sorted(FIGURES.items()))
        terminalreporter.write_line(f"hardening figures: {parts}")
