"""Fixtures for the fault tests: a private cluster per test (see harness.py)."""

from __future__ import annotations

import pytest

from .harness import Cluster


@pytest.fixture
def cluster(tmp_path):
    built = Cluster(tmp_path)
    try:
        yield built
    finally:
        built.close()
