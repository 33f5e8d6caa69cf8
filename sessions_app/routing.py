from django.urls import path

from .consumers import SessionConsumer, SpectatorConsumer

websocket_urlpatterns = [
    path("ws/sessions/<int:session_id>/", SessionConsumer.as_asgi()),
    path("ws/watch/<str:token>/sessions/<int:session_id>/", SpectatorConsumer.as_asgi()),
]
