from django.apps import AppConfig


class TableConfig(AppConfig):
    name = "table"

    def ready(self) -> None:
        # Models can be imported only once the app registry is ready, so the receivers
        # module (which reads them) is imported here, as Django's docs recommend.
        from table.writing import receivers

        receivers.connect()
