"""Sheet page and trait save timings through Django's test client.

    .venv/bin/python bench/sheets.py [--json] [--rounds N]

Sets up a throwaway SQLite database (SQLITE_PATH in a temp dir, migrated), a
Serenity Plus campaign and a sheet with 60 traits, then measures:
- the sheet page (GET, the owner's editable view): median and p95, and its SQL query count;
- a trait field save (htmx POST with the loaded version): median and p95.
Targets: page ≤ 30 ms median with a constant query count, save ≤ 20 ms median.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Run as a script, this file's folder comes first on sys.path and its name would
# shadow the sheets app: put the repository root there instead.
sys.path[:] = [str(ROOT)] + [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]

TRAITS = 60
PAGE_TARGET_MS = 30.0
SAVE_TARGET_MS = 20.0


def percentile(values: list[float], pct: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(pct / 100 * (len(ordered) - 1))))
    return ordered[index]


def setup_django(db_path: str) -> None:
    os.environ["SQLITE_PATH"] = db_path
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rollcall.settings")
    os.environ.setdefault("DEBUG", "true")  # static files named without a collectstatic run
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")  # the test client's host
    os.environ.pop("DATABASE_URL", None)
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    call_command("migrate", verbosity=0)


def build_sheet():
    from django.contrib.auth import get_user_model

    from campaigns import services as campaign_services
    from campaigns.models import Membership, Role
    from sheets import services
    from sheets.models import Trait

    User = get_user_model()
    gm = User.objects.create_user("bench-gm", password="x")
    player = User.objects.create_user("bench-player", password="x")
    campaign = campaign_services.create_campaign(
        gm, name="Bench", description="", system="serenity"
    )
    Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
    sheet = services.create_sheet(campaign, name="Benchmark Mal", kind="pc", owner=player)
    stylins = [
        Trait.objects.create(sheet=sheet, group="stylins", name=f"Stylin' {i}", die=8, position=i)
        for i in range(5)
    ]
    groups = ["refinements", "values", "aspects", "assets", "complications"]
    count, i = Trait.objects.filter(sheet=sheet).count(), 0
    while count < TRAITS:
        group = groups[i % len(groups)]
        Trait.objects.create(
            sheet=sheet,
            group=group,
            name=f"{group.title()} {i}",
            die=6,
            position=i,
            parent=stylins[i % len(stylins)] if group == "refinements" else None,
            notes="Some notes about this trait",
        )
        i += 1
        count += 1
    target = Trait.objects.filter(sheet=sheet, group="values").first()
    return player, sheet, target


def measure(rounds: int) -> dict:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from sheets.models import Trait

    player, sheet, trait = build_sheet()
    client = Client()
    client.force_login(player)
    page_url = sheet.get_absolute_url()
    save_url = reverse("trait", args=[sheet.campaign_id, sheet.pk, trait.pk])
    htmx = {"HTTP_HX_REQUEST": "true"}

    for _ in range(20):  # warm up templates, caches and the session
        assert client.get(page_url).status_code == 200
    with CaptureQueriesContext(connection) as queries:
        client.get(page_url)
    page_queries = len(queries)  # now: the connection's log keeps growing afterwards

    page_ms = []
    for _ in range(rounds):
        start = time.perf_counter()
        response = client.get(page_url)
        page_ms.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200

    version = Trait.objects.get(pk=trait.pk).version
    save_ms = []
    for n in range(rounds + 20):
        start = time.perf_counter()
        response = client.post(
            save_url, {"field": "notes", "notes": f"note {n}", "version": version}, **htmx
        )
        elapsed = (time.perf_counter() - start) * 1000
        assert response.status_code == 200, response.status_code
        version += 1
        if n >= 20:
            save_ms.append(elapsed)

    return {
        "traits": Trait.objects.filter(sheet=sheet).count(),
        "rounds": rounds,
        "page_queries": page_queries,
        "page_bytes": len(client.get(page_url).content),
        "page_median_ms": round(statistics.median(page_ms), 2),
        "page_p95_ms": round(percentile(page_ms, 95), 2),
        "save_median_ms": round(statistics.median(save_ms), 2),
        "save_p95_ms": round(percentile(save_ms, 95), 2),
        "page_target_ms": PAGE_TARGET_MS,
        "save_target_ms": SAVE_TARGET_MS,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--rounds", type=int, default=200, help="requests per measurement (default 200)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="rollcall-bench-") as tmp:
        setup_django(os.path.join(tmp, "bench.sqlite3"))
        figures = measure(args.rounds)
        from django.db import connections

        connections.close_all()
    ok = figures["page_median_ms"] <= PAGE_TARGET_MS and figures["save_median_ms"] <= SAVE_TARGET_MS
    figures["within_targets"] = ok
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print(
            f"Sheet with {figures['traits']} traits, {figures['rounds']} requests each (test client, SQLite)"
        )
        print(
            f"  sheet page : median {figures['page_median_ms']:6.2f} ms  p95 {figures['page_p95_ms']:6.2f} ms"
            f"  ({figures['page_queries']} SQL queries, {figures['page_bytes'] // 1024} KiB)"
            f"  target ≤ {PAGE_TARGET_MS:g} ms median"
        )
        print(
            f"  trait save : median {figures['save_median_ms']:6.2f} ms  p95 {figures['save_p95_ms']:6.2f} ms"
            f"  target ≤ {SAVE_TARGET_MS:g} ms median"
        )
        print("  within targets" if ok else "  OVER TARGET")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
