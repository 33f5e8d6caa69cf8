"""Settings of the bare Channels app, the benchmarks' yardstick.

As little as a Channels site can be while doing what the room does: no templates, no
middleware but sessions and auth (for the signed-in one-query view), the same database and
the same channel layer as the project's server beside it in the run (DATABASE_URL,
REDIS_URL, CHANNELS_PREFIX), so the two are measured alike.
"""

import os

import dj_database_url

DEBUG = False
SECRET_KEY = os.environ.get("SECRET_KEY") or "bare-channels-bench-only-" + "x" * 40
ALLOWED_HOSTS = ["*"]
INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "channels",
]
MIDDLEWARE = [
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
]
ROOT_URLCONF = "tests.benchmarks.bare_channels.urls"
ASGI_APPLICATION = "tests.benchmarks.bare_channels.asgi.application"
DATABASES = {"default": dj_database_url.config(default="sqlite:///:memory:", conn_max_age=0)}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = True
# The project's: database sessions with Redis, cached ones on the embedded default.
SESSION_ENGINE = (
    "django.contrib.sessions.backends.db"
    if os.environ.get("REDIS_URL")
    else "django.contrib.sessions.backends.cached_db"
)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
USE_TZ = True

if os.environ.get("REDIS_URL"):
    # The project's layer configuration, so only the application differs.
    from config.settings import CHANNEL_LAYERS  # noqa: F401
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
