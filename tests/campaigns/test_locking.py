"""campaigns.locking: a deadlock or serialization failure is run again from the
outermost transaction, a bounded number of times, and then told as "busy"; any other
database error, and one inside an outer transaction, goes through untouched."""

from __future__ import annotations

import pytest
from django.db import OperationalError, transaction

from campaigns import locking


class PgError(Exception):
    def __init__(self, sqlstate: str) -> None:
        super().__init__(sqlstate)
        self.sqlstate = sqlstate


def failing(times: int, sqlstate: str = "40P01"):
    calls = []

    @locking.retry_conflicts
    def job():
        calls.append(1)
        if len(calls) <= times:
            raise OperationalError("deadlock detected") from PgError(sqlstate)
        return "done"

    return job, calls


@pytest.mark.parametrize("sqlstate", ["40P01", "40001"])
def test_a_conflict_is_run_again_until_it_goes_through(sqlstate, monkeypatch):
    monkeypatch.setattr(locking.time, "sleep", lambda _: None)
    job, calls = failing(locking.RETRIES, sqlstate)
    assert job() == "done" and len(calls) == locking.RETRIES + 1


def test_a_conflict_that_keeps_coming_back_is_busy_not_unreachable(monkeypatch):
    monkeypatch.setattr(locking.time, "sleep", lambda _: None)
    job, calls = failing(locking.RETRIES + 1)
    with pytest.raises(locking.Busy, match="busy and nothing was done"):
        job()
    assert len(calls) == locking.RETRIES + 1


def test_other_errors_are_not_retried():
    job, calls = failing(1, sqlstate="08006")  # connection failure
    with pytest.raises(OperationalError):
        job()
    assert len(calls) == 1


@pytest.mark.django_db
def test_inside_an_outer_transaction_the_error_goes_to_its_owner():
    job, calls = failing(1)
    with pytest.raises(OperationalError), transaction.atomic():
        job()
    assert len(calls) == 1
