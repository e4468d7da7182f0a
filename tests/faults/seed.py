"""Seeds a private database for the fault tests: a Serenity campaign with a GM and
players, one character each with plenty of plot points, and a session per user.

Run as `python -m tests.faults.seed PLAYERS PLOT_POINTS` with the daphne processes'
environment (DATABASE_URL, SECRET_KEY, ...); prints JSON to stdout."""

from __future__ import annotations

import json
import os
import sys


def main(players: int, plot_points: int) -> dict:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rollcall.settings")
    import django

    django.setup()
    from django.test import Client

    from accounts.models import User
    from campaigns import services
    from campaigns.models import Membership, Role
    from sheets.models import Counter, Sheet, Trait

    gm = User.objects.create_user("fault-gm", password="fault-password-1")
    campaign = services.create_campaign(gm, name="Fault night", description="", system="serenity")
    users = {"gm": gm}
    sheets = {}
    for number in range(players):
        user = User.objects.create_user(f"fault-p{number}", password="fault-password-1")
        Membership.objects.create(campaign=campaign, user=user, role=Role.PLAYER)
        sheet = Sheet.objects.create(campaign=campaign, owner=user, name=f"Crew {number}")
        Trait.objects.create(sheet=sheet, group="stylins", name="Fightin'", die=10, position=0)
        Trait.objects.create(sheet=sheet, group="values", name="Loyalty", die=8, position=0)
        Trait.objects.create(sheet=sheet, group="assets", name="Pistol", die=12, position=0)
        Counter.objects.create(sheet=sheet, key="plot_points", value=plot_points)
        users[f"p{number}"] = user
        sheets[f"p{number}"] = sheet.pk
    cookies = {}
    for name, user in users.items():
        client = Client()
        client.force_login(user)
        cookies[name] = f"sessionid={client.cookies['sessionid'].value}"
    return {"campaign": campaign.pk, "cookies": cookies, "sheets": sheets}


if __name__ == "__main__":
    sys.stdout.write(json.dumps(main(int(sys.argv[1]), int(sys.argv[2]))))
