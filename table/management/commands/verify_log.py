"""manage.py verify_log CAMPAIGN_ID: recompute every outcome and check the hash chain."""

from django.core.management.base import BaseCommand, CommandError

from campaigns.models import Campaign
from table.reading.export import verify


class Command(BaseCommand):
    help = (
        "Re-check a campaign's table log: every outcome recomputed from its request and "
        "faces, seq numbers gapless, the hash chain unbroken. Prints OK, or FAIL with the "
        "first bad seq (exit status 1)."
    )

    def add_arguments(self, parser):
        parser.add_argument("campaign_id", type=int)

    def handle(self, *args, campaign_id: int, **options):
        campaign = Campaign.objects.filter(pk=campaign_id).first()
        if campaign is None:
            raise CommandError(f"No campaign with id {campaign_id}.")
        verdict = verify(campaign)
        if verdict.ok:
            self.stdout.write(self.style.SUCCESS(f"{campaign.name}: {verdict}"))
            return
        self.stdout.write(self.style.ERROR(f"{campaign.name}: {verdict}"))
        raise SystemExit(1)
