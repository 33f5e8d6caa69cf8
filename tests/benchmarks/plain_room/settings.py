"""Settings of the plain room, the live-room benchmark's yardstick (see asgi.py).

Stock Django and Channels with the project's own database, channel layer, cache and session
settings (imported from config.settings, so the two read the same environment: DATABASE_URL,
REDIS_URL, CHANNELS_PREFIX, SECRET_KEY), and the middleware a signed-in form post needs.
"""

from config.settings import (  # noqa: F401 - the settings shared with the project
    ALLOWED_HOSTS,
    CACHES,
    CHANNEL_LAYERS,
    DATABASES,
    DEFAULT_AUTO_FIELD,
    SECRET_KEY,
    SESSION_ENGINE,
    USE_TZ,
)

DEBUG = False
INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "channels",
    "tests.benchmarks.plain_room",
]
MIDDLEWARE = [
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
]
ROOT_URLCONF = "tests.benchmarks.plain_room.asgi"
ASGI_APPLICATION = "tests.benchmarks.plain_room.asgi.application"
TEMPLATES = [{"BACKEND": "django.template.backends.django.DjangoTemplates", "APP_DIRS": True}]
