"""Liveness and readiness (django-health-check), and a clear answer while the database is away.

`/health/live/` says the process runs and answers (no database, no Redis): what systemd
waits for after a start. `/health/ready/` says it can serve a room: the database answers,
every migration is applied, the cache and the channel layer carry a message there and back,
and the media storage takes a file. It answers 503 while anything is missing, within
seconds (the database pool's timeout, DATABASE_POOL_TIMEOUT, is short), so a monitor or a
deploy script waits on it; add `?format=json` for a machine or `?format=text` for a person.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime
import secrets

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import OperationalError, connections
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from health_check.base import HealthCheck
from health_check.exceptions import ServiceUnavailable
from health_check.views import HealthCheckView


@dataclasses.dataclass
class MigrationsApplied(HealthCheck):
    """Every migration the code ships is applied: a process started before `migrate` ran
    (or from newer code than the database) is not ready."""

    alias: str = "default"

    def run(self):
        connection = connections[self.alias]
        try:
            executor = MigrationExecutor(connection)
            plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
        except OperationalError as error:
            raise ServiceUnavailable("Database unavailable") from error
        finally:
            connection.close()
        if plan:
            raise ServiceUnavailable(f"{len(plan)} migration(s) not applied")


@dataclasses.dataclass
class ChannelLayerRoundTrip(HealthCheck):
    """A message sent on the channel layer comes back: the live room's path between the
    server processes (Redis when REDIS_URL is set)."""

    timeout: datetime.timedelta = dataclasses.field(
        default=datetime.timedelta(seconds=3), repr=False
    )

    async def run(self):
        layer = get_channel_layer()
        nonce = secrets.token_hex(8)
        try:
            channel = await layer.new_channel(prefix="health")
            await layer.send(channel, {"type": "health.ping", "nonce": nonce})
            message = await asyncio.wait_for(layer.receive(channel), self.timeout.total_seconds())
        except TimeoutError as error:
            raise ServiceUnavailable("No answer from the channel layer") from error
        except (OSError, ConnectionError) as error:
            raise ServiceUnavailable("Channel layer unreachable") from error
        except Exception as error:  # redis-py's errors share no base with the builtins
            raise ServiceUnavailable(f"Channel layer failed: {type(error).__name__}") from error
        if message.get("nonce") != nonce:
            raise ServiceUnavailable("The channel layer returned another message")


class ReadinessView(HealthCheckView):
    """django-health-check's view with this server's checks, answering 503 (the status a
    proxy or monitor reads as "not now") rather than 500 when one fails."""

    checks = (
        "health_check.checks.Database",
        "config.health.MigrationsApplied",
        "health_check.checks.Cache",
        "config.health.ChannelLayerRoundTrip",
        "health_check.checks.Storage",
    )

    async def get(self, request, *args, **kwargs):
        response = await super().get(request, *args, **kwargs)
        if response.status_code == 500:
            response.status_code = 503
        return response


@never_cache
def liveness(request):
    return HttpResponse("alive\n", content_type="text/plain; charset=utf-8")


class HealthEndpointsMiddleware:
    """The health endpoints answer a monitor on this machine whatever Host it names
    (127.0.0.1:8001) and over plain HTTP: placed before the host check and the HTTPS
    redirect, they skip both. nginx lets only this machine reach /health/, and daphne
    listens on loopback alone."""

    sync_capable = True
    async_capable = False

    def __init__(self, get_response):
        self.get_response = get_response
        self.readiness = async_to_sync(ReadinessView.as_view())

    def __call__(self, request):
        if request.path == "/health/live/":
            return liveness(request)
        if request.path == "/health/ready/":
            response = self.readiness(request)
            # Outside the URL resolver no handler renders a TemplateResponse (the HTML page).
            return response.render() if hasattr(response, "render") else response
        return self.get_response(request)


class DatabaseAwayMiddleware:
    """A page that cannot reach the database answers 503 with a message, not a bare 500."""

    sync_capable = True
    async_capable = False

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, OperationalError):
            return render(request, "503.html", status=503)
        return None
