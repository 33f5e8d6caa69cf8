"""Settings for the SRS table, driven by the environment.

With no environment variables the app runs on the embedded default: a SQLite file in the
project folder, the in-memory channel layer and DEBUG on. DATABASE_URL, REDIS_URL,
SECRET_KEY, ALLOWED_HOSTS and DEBUG=0 switch it to a production set-up.
"""

import datetime
import json
import os
from pathlib import Path

import dj_database_url
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _

from config.client_address import parse_trusted_proxies

BASE_DIR = Path(__file__).resolve().parent.parent


def _env_flag(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() not in {"0", "false", "no", "off"}


def _env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name, "")
    items = [item.strip() for item in value.split(",") if item.strip()]
    return items or default


DEBUG = _env_flag("DEBUG", True)

# The development key only ever serves the embedded default; production must bring its own.
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise RuntimeError("SECRET_KEY must be set when DEBUG=0.")
    SECRET_KEY = "dev-only-insecure-key-for-the-embedded-default-never-for-production"  # noqa: S105

ALLOWED_HOSTS = _env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = _env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "channels",
    "axes",
    "health_check",
    "sessions_app",
    "minigames",
]

MIDDLEWARE = [
    "config.request_log.RequestLogMiddleware",
    "config.health.HealthEndpointsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "sessions_app.time_zones.ViewerTimeZoneMiddleware",
    "django.middleware.common.CommonMiddleware",
    "config.bad_input.BadInputMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "config.health.DatabaseAwayMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

# django-axes counts failed logins and refuses a locked-out one before any password check.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.template.context_processors.csp",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "config.context_processors.signup_policy",
            ],
        },
    },
]

# Database: SQLite in the project folder unless DATABASE_URL says otherwise. The test
# database name is set explicitly: a live server cannot share an in-memory SQLite database,
# and on PostgreSQL a server process must find the same test database as the test runner.
# Under ASGI each request runs on a thread of its own, so connections are not kept between
# requests (CONN_MAX_AGE=0), as Django's documentation advises; PostgreSQL hands them out
# from Django's connection pool instead.
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=0,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / "test_db.sqlite3")}
    # Several writers (request threads, the websocket consumers) share the file: take the
    # write lock when a transaction begins, wait for it rather than fail, and let readers
    # go on while one writes (WAL).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
else:
    DATABASES["default"]["TEST"] = {"NAME": f"test_{DATABASES['default']['NAME']}"}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # A request waits at most DATABASE_POOL_TIMEOUT seconds for a connection (psycopg's
    # default is 30): with the database away, pages and the readiness check answer "not
    # available" within seconds instead of holding every worker thread for half a minute.
    # Connecting itself gives up after DATABASE_CONNECT_TIMEOUT seconds.
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "timeout": float(os.environ.get("DATABASE_POOL_TIMEOUT", "5")),
    }
    DATABASES["default"]["OPTIONS"].setdefault(
        "connect_timeout", int(os.environ.get("DATABASE_CONNECT_TIMEOUT", "3"))
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = os.environ.get("REDIS_URL", "")
# Parallel test workers (pytest-xdist) each have a database of their own, so the same ids:
# their rooms must not share channel groups or cache keys either. The daphne processes a
# worker starts inherit its name, and with it the same prefix.
_TEST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
_PREFIX_SUFFIX = f"-{_TEST_WORKER}" if _TEST_WORKER else ""
REDIS_PREFIX = os.environ.get("CHANNELS_PREFIX", "srs") + _PREFIX_SUFFIX
# A socket's queue holds this many messages before the layer drops the next ones (the
# default is 100): a burst in a busy room, or a page catching up, must not cost the other
# sockets their messages. What is dropped all the same is read back by sequence number.
CHANNEL_CAPACITY = 1000

if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                # A consumer waits for its next message with a blocking pop of 5 s
                # (RedisChannelLayer.brpop_timeout), and redis-py gives up on a reply after
                # 5 s by default: in a quiet room the read timed out as the pop ended, the
                # consumer died and daphne closed the socket. Replies may take longer than
                # the pop; connecting stays quick, so an unreachable Redis fails fast; and
                # keepalive notices a peer that vanished without closing.
                # redis-py refuses a command outright (MaxConnectionsError) once its pool has
                # 100 connections in use, and a hundred pages opening or closing at once
                # each join or leave their groups together: room enough for a storm,
                # far below Redis's own limit of clients.
                "hosts": [
                    {
                        "address": REDIS_URL,
                        "socket_timeout": 15,
                        "socket_connect_timeout": 2,
                        "socket_keepalive": True,
                        "max_connections": 1000,
                    }
                ],
                "prefix": REDIS_PREFIX,
                "capacity": CHANNEL_CAPACITY,
            },
        }
    }
else:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels.layers.InMemoryChannelLayer",
            "CONFIG": {"capacity": CHANNEL_CAPACITY},
        }
    }

# With several processes (REDIS_URL) sessions live in the database alone. A Redis cache in
# front of them made every signed-in request fail while Redis was away, and a logout made
# then left the session alive in the cache once Redis came back. One indexed read per
# request on the database's connection pool costs about what the cache read did. The
# embedded default is one process: its in-memory cache cannot be away, and saves SQLite a
# read per request.
if REDIS_URL:
    SESSION_ENGINE = "django.contrib.sessions.backends.db"
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": REDIS_PREFIX,
            "OPTIONS": {
                # One pool per process rather than one per request (see the module).
                "pool_class": "config.redis_pool.SharedConnectionPool",
                "socket_timeout": 2,
                "socket_connect_timeout": 1,
            },
        }
    }
else:
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Test runs and their live servers name a fast hasher here; production keeps Django's default.
if os.environ.get("PASSWORD_HASHERS"):
    PASSWORD_HASHERS = _env_list("PASSWORD_HASHERS", [])

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("ja", _("Japanese"))]
# One catalogue for the whole project, kept with the app that owns the room and its words.
LOCALE_PATHS = [BASE_DIR / "sessions_app" / "locale"]
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# collectstatic's output; a server keeps it outside the code (STATIC_ROOT=/var/lib/…/static),
# where the service user may write it and nginx serves it.
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
# Uploaded pictures (faces, backgrounds, handout images) go through the storage API: files
# under MEDIA_ROOT on one machine; several processes share any storage a deployment names,
# e.g. MEDIA_STORAGE_BACKEND=storages.backends.s3.S3Storage with its options as JSON in
# MEDIA_STORAGE_OPTIONS. They are served by a view that checks who may see them, never
# from a public MEDIA_URL.
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT") or BASE_DIR / "media")
# A pasted character JSON may carry its pictures as data: URLs (services/ccfolia.py allows
# 8,000,000 characters then); nginx accepts bodies up to 10 MB as well.
DATA_UPLOAD_MAX_MEMORY_SIZE = 10 * 1024 * 1024
# Behind nginx: after the permission check, the app answers a picture or sound with an
# X-Accel-Redirect to this internal location (deploy/nginx/srs-table.conf), which serves
# MEDIA_ROOT with range requests and without holding a Python process. Only with the default
# file storage on this machine.
SENDFILE_NGINX = _env_flag("SENDFILE_NGINX", False)
SENDFILE_NGINX_LOCATION = "/protected-media/"
# A sound may be 20 MB (services/audio.py); a larger upload is stored in a temporary file.
STORAGES = {
    "default": {
        "BACKEND": os.environ.get(
            "MEDIA_STORAGE_BACKEND", "django.core.files.storage.FileSystemStorage"
        ),
        "OPTIONS": json.loads(os.environ.get("MEDIA_STORAGE_OPTIONS") or "{}"),
    },
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "config.static_storage.ModuleAwareStaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = DEBUG

# Django's built-in Content Security Policy: scripts only from this origin or carrying the
# per-request nonce (htmx's tag does), no inline handlers, websockets to this origin only.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "font-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}

# Who may open an account: "open" (anyone, on the sign-up page or an invite link),
# "invite" (only through a table's invite link) or "closed" (no new accounts; an
# administrator makes them). The embedded default is open, for the demo and the tests; a
# production set-up (DEBUG=0) is invite-only unless it says otherwise, and `check --deploy`
# asks it to say so (srs.W002).
SIGNUP_POLICIES = ("open", "invite", "closed")
SIGNUP_POLICY = os.environ.get("SIGNUP_POLICY", "").strip().lower() or (
    "open" if DEBUG else "invite"
)
if SIGNUP_POLICY not in SIGNUP_POLICIES:
    raise RuntimeError(f"SIGNUP_POLICY must be one of {', '.join(SIGNUP_POLICIES)}.")
SIGNUP_POLICY_CHOSEN = bool(os.environ.get("SIGNUP_POLICY", "").strip())

# The addresses of the reverse proxies in front of daphne (nginx), as addresses or networks:
# only a request from one of them has its X-Forwarded-For believed (config/client_address.py).
# Empty by default: without a proxy no client may name its own address.
TRUSTED_PROXIES = parse_trusted_proxies(_env_list("TRUSTED_PROXIES", []))

# Login throttling (django-axes): LOGIN_FAILURES_ALLOWED wrong passwords are answered as usual,
# the next one locks the account, and the address it came from, for LOGIN_COOLOFF_MINUTES
# (each further try starts the wait again). An administrator unlocks early in the admin
# ("Access attempts": delete the account's line) or with `manage.py axes_reset_username`.
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURES_ALLOWED", "5")) + 1
AXES_COOLOFF_TIME = datetime.timedelta(minutes=int(os.environ.get("LOGIN_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_CLIENT_IP_CALLABLE = "config.client_address.client_ip"
AXES_LOCKOUT_CALLABLE = "config.lockout.login_locked_out"
AXES_HTTP_RESPONSE_CODE = 429
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False

INVITE_LIFETIME_DAYS = int(os.environ.get("INVITE_LIFETIME_DAYS", "14"))
# New accounts per client address and hour: guests joining by name, and sign-ups.
GUEST_JOINS_PER_HOUR = int(os.environ.get("GUEST_JOINS_PER_HOUR", "5"))
SIGNUPS_PER_HOUR = int(os.environ.get("SIGNUPS_PER_HOUR", "10"))

if not DEBUG:
    SECURE_SSL_REDIRECT = _env_flag("SECURE_SSL_REDIRECT", True)
    # Safe only because daphne listens on loopback behind nginx, which sets the header on
    # every request and never passes a client's own on (deploy/nginx/srs-table-proxy.conf).
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", str(60 * 60 * 24 * 365)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"

# One format for every line, times in UTC (config/request_log.py): "text" for people,
# LOG_FORMAT=json for a collector. Each line names the request it belongs to.
LOG_FORMAT = os.environ.get("LOG_FORMAT", "text").strip().lower()
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "config.request_log.RequestIdFilter"}},
    "formatters": {
        "text": {
            "()": "config.request_log.UTCFormatter",
            "format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s",
        },
        "json": {"()": "config.request_log.JSONFormatter"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "filters": ["request_id"],
            "formatter": "json" if LOG_FORMAT == "json" else "text",
        }
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    # Django's defaults give the "django" logger a console handler of its own and let it
    # propagate to the root as well, so every request line (daphne's "django.channels.server")
    # and every warning was printed twice. The root's handler alone prints them; the logger
    # keeps its INFO level, so runserver still shows one line per request.
    "loggers": {
        "django": {"handlers": [], "propagate": True},
        # One line per request (REQUEST_LOG=0 leaves them out); under runserver, Django's
        # own request lines say the same.
        "srs.request": {
            "level": "INFO" if _env_flag("REQUEST_LOG", not DEBUG) else "WARNING",
        },
    },
}
