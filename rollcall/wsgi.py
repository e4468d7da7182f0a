"""WSGI entry point (pages only; the table's websockets need ASGI)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rollcall.settings")
application = get_wsgi_application()
