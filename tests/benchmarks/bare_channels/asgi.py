"""The yardstick's ASGI app: Django for HTTP, one forwarding consumer for websockets."""

import os

from django.core.asgi import get_asgi_application

os.environ["DJANGO_SETTINGS_MODULE"] = "tests.benchmarks.bare_channels.settings"
django_asgi_app = get_asgi_application()

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402


class ForwardConsumer(AsyncWebsocketConsumer):
    """Join the room's group and forward what arrives, untouched."""

    async def connect(self):
        self.group = f"room.{self.scope['url_route']['kwargs']['room']}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def room_message(self, event):
        await self.send(text_data=event["text"])


application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": URLRouter([path("ws/<str:room>/", ForwardConsumer.as_asgi())]),
    }
)
