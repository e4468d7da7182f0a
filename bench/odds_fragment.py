"""How fast the odds fragment answers through the whole Django stack.

Runs from the repo root: `.venv/bin/python bench/odds_fragment.py [--json] [--runs N]`.
Sets up its own temporary SQLite database (SQLITE_PATH + migrate), a campaign per
Cortex-family system and a logged-in member, then times GET /c/<id>/odds/ for a
12-die pool with django.test.Client (middleware, sessions, auth, template and SVG
included). The rules' memoised counts are cleared before every request, so each
figure is a cold computation. Prints p50/p95 in milliseconds per case.
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
TWELVE = "d12,d12,d10,d10,d10,d8,d8,d8,d6,d6,d6,d4"
CASES = [
    ("serenity", {"pool": TWELVE, "target": "17"}),
    ("serenity", {"pool": TWELVE, "plot_points": "2", "vs": "d10,d8,d8,d6"}),
    ("smallville", {"pool": TWELVE, "side": "d8,d6", "target": "17"}),
    (
        "cortex_slots",
        {"pool": "d12+d6," + TWELVE.split(",", 1)[1], "target": "17", "big_hero": "d8"},
    ),
    (
        "personae",
        {"skill": "10", "bonus_dice": "2", "attribute": "4", "vs_skill": "8", "vs_attribute": "3"},
    ),
    ("unisystem", {"attribute": "4", "skill": "3", "modifier": "-2", "vs_modifier": "6"}),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--runs", type=int, default=200, help="timed requests per case")
    args = parser.parse_args()

    tmp = tempfile.mkdtemp(prefix="rollcall-bench-")
    os.environ["SQLITE_PATH"] = str(Path(tmp) / "bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rollcall.settings")
    os.environ.setdefault("DEBUG", "true")
    sys.path.insert(0, str(ROOT))

    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.test import Client

    settings.ALLOWED_HOSTS = ["testserver"]
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    call_command("migrate", verbosity=0)

    from django.contrib.auth import get_user_model

    from campaigns import services
    from rules.kit import cortex_odds

    user = get_user_model().objects.create_user(username="bench", password="bench-password")
    client = Client()
    client.force_login(user)
    campaigns = {}
    results = []
    for system, params in CASES:
        if system not in campaigns:
            campaigns[system] = services.create_campaign(
                user, name=f"Bench {system}", description="", system=system
            )
        url = f"/c/{campaigns[system].pk}/odds/"
        for _ in range(5):  # warm up imports and templates
            cortex_odds.clear_caches()
            client.get(url, params)
        timings = []
        for _ in range(args.runs):
            cortex_odds.clear_caches()
            start = time.perf_counter()
            response = client.get(url, params)
            timings.append((time.perf_counter() - start) * 1000)
            assert response.status_code == 200 and b"odds-summary" in response.content
        timings.sort()
        results.append(
            {
                "system": system,
                "params": params,
                "runs": args.runs,
                "p50_ms": round(statistics.median(timings), 2),
                "p95_ms": round(timings[int(len(timings) * 0.95) - 1], 2),
                "max_ms": round(timings[-1], 2),
            }
        )
    if args.json:
        print(json.dumps({"budget_p95_ms": 50, "cases": results}, indent=2))
    else:
        print(f"{'system':<14} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}  request")
        for r in results:
            query = "&".join(f"{k}={v}" for k, v in r["params"].items())
            print(f"{r['system']:<14} {r['p50_ms']:>8} {r['p95_ms']:>8} {r['max_ms']:>8}  {query}")
        worst = max(r["p95_ms"] for r in results)
        print(f"worst p95: {worst} ms (budget 50 ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
