"""The yardstick's views: what the project's do, less everything but the essentials."""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth import get_user_model
from django.http import HttpResponse, HttpResponseBadRequest
from django.views.decorators.csrf import csrf_exempt


def ok(request):
    return HttpResponse("ok")


@csrf_exempt
def post(request, room: str):
    """Send the posted text to the room's group, as a sync view's on-commit broadcast does."""
    text = request.POST.get("text", "")
    if not text:
        return HttpResponseBadRequest("text?")
    async_to_sync(get_channel_layer().group_send)(
        f"room.{room}", {"type": "room.message", "text": text}
    )
    return HttpResponse("ok")


def me(request):
    """A signed-in view with one query of its own: the floor under a signed-in roll."""
    if not request.user.is_authenticated:
        return HttpResponse(status=403)
    count = get_user_model().objects.filter(pk=request.user.pk).count()
    return HttpResponse(str(count))
