from django.core.management.base import BaseCommand

from campaigns.demo import DEMO_PASSWORD, DEMO_USERS
from campaigns.models import Campaign
from sheets.demo import load_demo


class Command(BaseCommand):
    help = "Create the demo users and one demo campaign per game system (safe to run again)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--if-empty", action="store_true", help="Do nothing if any campaign exists."
        )

    def handle(self, *args, if_empty=False, **options):
        if if_empty and Campaign.objects.exists():
            self.stdout.write("Database already has campaigns; demo data left alone.")
            return
        campaigns = load_demo()
        self.stdout.write(self.style.SUCCESS(f"Demo ready: {len(campaigns)} campaigns."))
        logins = ", ".join(DEMO_USERS)
        self.stdout.write(f"Demo logins: {logins} (password: {DEMO_PASSWORD})")
