from django.urls import path

from .live.consumers import SessionConsumer, SpectatorConsumer
from .live.ledger import LedgerConsumer

websocket_urlpatterns = [
    path("ws/sessions/<int:session_id>/", SessionConsumer.as_asgi()),
    path("ws/tables/<int:table_id>/experience/", LedgerConsumer.as_asgi()),
    path("ws/watch/<str:token>/sessions/<int:session_id>/", SpectatorConsumer.as_asgi()),
]
