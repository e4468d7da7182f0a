from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out
        from django.contrib.sessions.models import Session
        from django.db.models.signals import post_delete

        from .signals import on_logout, on_session_deleted

        user_logged_out.connect(on_logout, dispatch_uid="accounts.table_sockets.logout")
        post_delete.connect(
            on_session_deleted, sender=Session, dispatch_uid="accounts.table_sockets.session"
        )
