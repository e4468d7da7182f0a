"""Seeds a private SQLite database for the worker-process test: a Serenity campaign whose
public log posts to the webhook URL given, then COUNT more events in its log (the first
run starts a scene too).

Run as `python -m tests.integrations.seed_worker URL COUNT` with the worker's
environment (SQLITE_PATH, SECRET_KEY, DISCORD_TEST_WEBHOOK_BASE); prints the log's seqs."""

from __future__ import annotations

import json
import os
import sys


def main(url: str, count: int) -> list[int]:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rollcall.settings")
    import django

    django.setup()
    from accounts.models import User
    from campaigns import services
    from campaigns.models import Campaign
    from integrations import vault
    from integrations.models import Audience, Webhook
    from table.models import TableEvent
    from table.writing import actions

    campaign = Campaign.objects.first()
    if campaign is None:
        gm = User.objects.create_user("worker-gm", password="worker-password-1")
        campaign = services.create_campaign(
            gm, name="Worker night", description="", system="serenity"
        )
        parsed = vault.parse(url)
        Webhook.objects.create(
            campaign=campaign,
            audience=Audience.PUBLIC,
            url_sealed=vault.seal(parsed.url),
            url_hint=parsed.hint,
        )
        scene = services.create_scene(campaign, title="The docks", description="")
        services.start_scene(campaign, scene.pk, gm)
        count -= 1
    gm = User.objects.get(username="worker-gm")
    for _ in range(count):
        pool = [{"die": "d8", "trait": "Goons", "group": "situation"}]
        actions.perform(campaign, gm, "roll", {"pool": pool})
    return list(TableEvent.objects.filter(campaign=campaign).values_list("seq", flat=True))


if __name__ == "__main__":
    sys.stdout.write(json.dumps(main(sys.argv[1], int(sys.argv[2]))))
