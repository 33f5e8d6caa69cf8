"""ASGI entry point: HTTP through Django, websockets through the session room router."""

import gc
import os
from pathlib import Path

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# Django must be set up before anything imports models.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from config.websocket_origin import SameOriginValidator  # noqa: E402
from sessions_app.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SameOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)


def _set_the_start_aside() -> None:
    """Compile the project's templates now, then set everything the process holds so far
    aside from the garbage collector.

    What starting makes (modules, settings, URL patterns, compiled templates: about 150,000
    objects) lives as long as the process, yet every full collection walked all of it: one
    took 60-95 ms, and under a busy room one came every two seconds, each a pause in every
    socket's deliveries (the slowest one post in a hundred). Frozen, a full collection walks
    only what serving made. Templates compile on first use otherwise, after the freeze.
    """
    from django.template.loader import get_template

    templates = Path(__file__).resolve().parent.parent / "templates"
    for path in sorted(templates.rglob("*.html")):
        get_template(path.relative_to(templates).as_posix())
    gc.collect()
    gc.freeze()


_set_the_start_aside()
