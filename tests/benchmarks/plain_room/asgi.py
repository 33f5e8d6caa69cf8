"""The plain room: what a competent minimal "post a line to a live room" costs in stock
Django and Channels, the yardstick the live-room benchmark measures the project against.

A signed-in member posts a line (with CSRF); the view checks the membership in one query,
takes the next sequence number and stores the line in one transaction, renders the line
once per audience (the GM, the players) and, once committed, sends each fragment to its
audience's group. The socket checks the membership when it connects and then only forwards.
"""

import asyncio
import os

from django.core.asgi import get_asgi_application

os.environ["DJANGO_SETTINGS_MODULE"] = "tests.benchmarks.plain_room.settings"
django_asgi_app = get_asgi_application()

from asgiref.sync import async_to_sync  # noqa: E402
from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.db import database_sync_to_async  # noqa: E402
from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.layers import get_channel_layer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.http import HttpResponse, HttpResponseBadRequest  # noqa: E402
from django.template.loader import render_to_string  # noqa: E402
from django.urls import path  # noqa: E402
from django.views.decorators.http import require_POST  # noqa: E402

from tests.benchmarks.plain_room.models import Event, role_in_session  # noqa: E402


def _group(session_id: int, gm: bool) -> str:
    return f"plain.{session_id}.{'gm' if gm else 'players'}"


def ok(request):
    return HttpResponse("ok")


@require_POST
def post(request, session_id: int):
    role = role_in_session(request.user, session_id)
    if role is None:
        return HttpResponse(status=404)
    text = request.POST.get("text", "").strip()
    if not text:
        return HttpResponseBadRequest("Write something first.")
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(
                "UPDATE sessions_app_gamesession SET last_seq = last_seq + 1"
                " WHERE id = %s RETURNING last_seq",
                [session_id],
            )
            (seq,) = cursor.fetchone()
        event = Event.objects.create(
            session_id=session_id, seq=seq, kind="chat", actor=request.user, payload={"text": text}
        )
        fragments = {
            gm: render_to_string(
                "plain_room/line.html", {"event": event, "user": request.user, "gm": gm}
            )
            for gm in (True, False)
        }

        async def send():
            layer = get_channel_layer()
            await asyncio.gather(
                *(
                    layer.group_send(_group(session_id, gm), {"type": "room.line", "html": html})
                    for gm, html in fragments.items()
                )
            )

        transaction.on_commit(async_to_sync(send))
    return HttpResponse("sent")


class RoomConsumer(AsyncWebsocketConsumer):
    """Members only, checked once on connect; then every line of their audience, forwarded."""

    async def connect(self):
        session_id = self.scope["url_route"]["kwargs"]["session_id"]
        role = await database_sync_to_async(role_in_session)(self.scope["user"], session_id)
        if role is None:
            await self.close(code=4403)
            return
        self.group = _group(session_id, role == "gm")
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def room_line(self, message):
        await self.send(text_data=message["html"])


urlpatterns = [path("ok/", ok), path("plain/<int:session_id>/post/", post)]
application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(
                URLRouter([path("ws/plain/<int:session_id>/", RoomConsumer.as_asgi())])
            )
        ),
    }
)
