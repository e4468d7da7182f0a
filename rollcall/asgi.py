"""ASGI entry point served by daphne: pages over HTTP, the table over websockets."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rollcall.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddleware, get_user  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.sessions import CookieMiddleware, SessionMiddleware  # noqa: E402

from integrations.worker import start_in_server  # noqa: E402
from rollcall import wslimits  # noqa: E402
from rollcall.wsorigin import SameOriginOnly  # noqa: E402
from table.live.dbthread import in_db_thread  # noqa: E402
from table.live.limits import OpenThrottle  # noqa: E402
from table.routing import websocket_urlpatterns  # noqa: E402

wslimits.install()  # bound what daphne buffers for a socket that stops reading
start_in_server()  # posts queued Discord messages when DISCORD_WORKER_IN_SERVER (make run)


class TableAuthMiddleware(AuthMiddleware):
    """channels' AuthMiddleware, reading the session and the user in the table's database
    thread the way the table does (table.live.dbthread.in_db_thread): channels' own hop closes that
    thread's connection before and after (close_old_connections), so every socket that
    opened made the next roll open the database again."""

    async def resolve_scope(self, scope):
        scope["user"]._wrapped = await in_db_thread(get_user.func)(scope)


# Only pages of this site, scheme and port included, may open a socket (rollcall/wsorigin.py);
# then channels' AuthMiddlewareStack, with the throttle on opening sockets (table.live.limits) first.
table_sockets = SameOriginOnly(
    CookieMiddleware(
        OpenThrottle(SessionMiddleware(TableAuthMiddleware(URLRouter(websocket_urlpatterns))))
    )
)


async def websocket_app(scope, receive, send):
    """Hand the table the server's own `send` as well: its broadcasts go straight to it,
    since nothing in the session and auth middleware acts on an outgoing frame and their
    wrappers cost a tenth of a delivery (table.talk.consumers.TableConsumer.send_text). Under
    daphne, "frame_send" writes a frame the table built once for all the sockets of an
    audience (rollcall.wslimits.frame_writer; None elsewhere)."""
    extra = {"server_send": send, "frame_send": wslimits.frame_writer(send)}
    return await table_sockets({**scope, **extra}, receive, send)


application = ProtocolTypeRouter({"http": django_asgi_app, "websocket": websocket_app})
