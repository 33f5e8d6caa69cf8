"""The project served through Django's stock ASGI handler, for comparison in bench_room.

The project's handler (config/handlers.py) runs the middleware as one synchronous chain on
kept threads; this is what the same code costs without it.
"""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from django.core.asgi import get_asgi_application  # noqa: E402

application = get_asgi_application()
