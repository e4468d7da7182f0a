from django.apps import AppConfig


class TableConfig(AppConfig):
    name = "table"

    def ready(self) -> None:
        from django.db import transaction
        from django.db.models.signals import post_delete, post_save

        from campaigns.models import Membership
        from sheets import table_hook

        from . import broadcast
        from .sheet_writes import TableSheetWriter

        # A GM's sheet edit of plot points, stress, ... becomes a logged table action.
        table_hook.register(TableSheetWriter())

        def membership_changed(sender, instance, **kwargs):
            """A role change or a removal reaches that user's open sockets at once."""
            campaign_id, user_id = instance.campaign_id, instance.user_id
            transaction.on_commit(
                lambda: broadcast.notify_member(campaign_id, user_id), robust=True
            )

        post_save.connect(membership_changed, sender=Membership, weak=False)
        post_delete.connect(membership_changed, sender=Membership, weak=False)
