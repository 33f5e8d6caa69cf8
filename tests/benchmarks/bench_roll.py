"""Benchmark a roll as a player feels it: the check endpoint's latency and throughput.

Prints, for SQLite and (when it is reachable) PostgreSQL + Redis, with 1 and 4 clients
rolling at once on one daphne process (DEBUG=0): the latency of a roll (median and 99th
percentile, from sending the POST to reading the whole answer) and rolls per second.

With `--baseline DIR` (another checkout of the project, for example an older commit in a
git worktree, with its own `.venv` made by its `make`) the same rounds run against both
servers, alternating, on the same database: the figures of both and their ratio come from
one run, so the machine's drift (it is shared) meets both sides alike.

Run it with `make bench` (or `.venv/bin/python tests/benchmarks/bench_roll.py`).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(PROJECT_DIR))
from tests.benchmarks.environment import (  # noqa: E402
    collect_static_for_production,
    use_benchmark_environment,
)

use_benchmark_environment()
os.environ["SECRET_KEY"] = "bench-only-" + "x" * 50
parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--seconds", type=float, default=2.0, help="per round and server")
parser.add_argument("--rounds", type=int, default=5, help="alternations between servers")
parser.add_argument("--workers", type=int, default=4, help="clients of the busy figure")
parser.add_argument("--baseline", type=Path, help="another checkout to measure beside this one")
parser.add_argument("--postgres-url", default="postgres://postgres@127.0.0.1:5432/postgres")
parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
parser.add_argument(
    "--postgres",
    action="store_true",
    help="PostgreSQL + Redis only (the SQLite run starts it)",
)
parser.add_argument("--sqlite-only", action="store_true")
ARGS = parser.parse_args()
SCRATCH_DATABASE = f"srs_bench_{os.getpid()}"


def _postgres_database() -> str | None:
    """Create a scratch PostgreSQL database and return its URL, or None without a server."""
    import psycopg

    try:
        with psycopg.connect(ARGS.postgres_url, autocommit=True, connect_timeout=3) as admin:
            admin.execute(f'CREATE DATABASE "{SCRATCH_DATABASE}"')
    except psycopg.OperationalError as error:
        print(f"PostgreSQL at {ARGS.postgres_url} not reachable ({error}): SQLite only")
        return None
    return ARGS.postgres_url.rsplit("/", 1)[0] + f"/{SCRATCH_DATABASE}"


if ARGS.postgres:
    POSTGRES_URL = _postgres_database()
    if POSTGRES_URL is None:
        sys.exit(0)
    os.environ["DATABASE_URL"] = POSTGRES_URL

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connections  # noqa: E402
from django.test import Client  # noqa: E402
from django.utils.module_loading import import_string  # noqa: E402

from sessions_app.models import CheckRequest  # noqa: E402
from sessions_app.services.checks import check_request  # noqa: E402
from tests.benchmarks.http_clients import htmx_post, keep_alive_clients  # noqa: E402
from tests.benchmarks.tables import bench_table, player_pc  # noqa: E402
from tests.live_server import DaphneServer  # noqa: E402

CSRF = "b" * 32
# More pending checks than the fastest server rolls in a round.
CHECKS_PER_ROUND_SECOND = 400


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


class Table:
    """The table the benchmark rolls at: a GM, a player with a PC, a session."""

    def __init__(self) -> None:
        self.gm, self.player, self.session = bench_table()
        self.pc = player_pc(self.session, self.player, judgement_values={"Strength": 4})

    def cookie(self, backend: str) -> str:
        """The player's signed-in cookie for a server that authenticates with `backend`."""
        client = Client()
        client.force_login(self.player, backend=backend)
        session_cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
        return f"{settings.SESSION_COOKIE_NAME}={session_cookie}; csrftoken={CSRF}"

    def pending_checks(self, count: int) -> list[int]:
        return [
            check_request(
                session=self.session,
                by=self.gm,
                character=self.pc,
                label=f"Bench check {n}",
                value_name="Strength",
                difficulty=9,
            ).pk
            for n in range(count)
        ]

    def cancel_left_over(self, request_ids: list[int]) -> None:
        # Checks left pending would stay in every room update as widgets.
        CheckRequest.objects.filter(pk__in=request_ids, status=CheckRequest.Status.PENDING).update(
            status=CheckRequest.Status.CANCELLED
        )


@dataclass
class Target:
    """A server to roll against, with the player's cookie for it and the session's id."""

    server: DaphneServer
    cookie: str
    session_id: int


def _roll_round(target: Target, request_ids: list[int], *, seconds: float, workers: int):
    """Roll pending checks from `workers` keep-alive clients for `seconds`.

    Return the latencies of the rolls and the rolls per second. The clients connect before
    the clock starts and all stop at one deadline.
    """
    pending = iter(request_ids)
    lock = threading.Lock()
    latencies: list[list[float]] = [[] for _ in range(workers)]

    def roll(slot: int, connection) -> None:
        with lock:
            request_id = next(pending, None)
        if request_id is None:
            raise RuntimeError("the benchmark ran out of pending checks")
        sent = time.perf_counter()
        path = f"/sessions/{target.session_id}/checks/{request_id}/roll/"
        htmx_post(connection, path, {}, cookie=target.cookie, csrf=CSRF)
        latencies[slot].append(time.perf_counter() - sent)

    ran = keep_alive_clients(target.server.port, roll, workers=workers, seconds=seconds, timeout=30)
    flat = [latency for per_client in latencies for latency in per_client]
    return flat, len(flat) / ran


def _measure(table: Table, targets: dict[str, Target], label: str) -> None:
    for workers in (1, ARGS.workers):
        results = {name: ([], []) for name in targets}
        for _ in range(ARGS.rounds):
            for name, target in targets.items():
                request_ids = table.pending_checks(int(ARGS.seconds * CHECKS_PER_ROUND_SECOND))
                latencies, rate = _roll_round(
                    target, request_ids, seconds=ARGS.seconds, workers=workers
                )
                table.cancel_left_over(request_ids)
                results[name][0].extend(latencies)
                results[name][1].append(rate)
        figures = {}
        for name, (latencies, rates) in results.items():
            p50 = statistics.median(latencies) * 1000
            p99 = _percentile(latencies, 0.99) * 1000
            rate = statistics.fmean(rates)
            figures[name] = (p50, p99, rate)
            print(
                f"  {label}, {workers} client(s), {name:<8}: p50 {p50:6.1f} ms  p99 {p99:6.1f} ms"
                f"  {rate:6.1f} rolls/s  (n={len(latencies)})"
            )
        if "baseline" in figures:
            new, old = figures["this"], figures["baseline"]
            print(
                f"  {label}, {workers} client(s), this / baseline: p50 {new[0] / old[0]:.2f}"
                f"  p99 {new[1] / old[1]:.2f}  rolls/s {new[2] / old[2]:.2f}"
            )


def _run(label: str, extra_env: dict[str, str]) -> None:
    table = Table()
    production = {
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "0",
        **extra_env,
    }
    session_id = table.session.pk
    this = DaphneServer(extra_env=production)
    targets = {"this": Target(this, table.cookie(_signing_in_backend()), session_id)}
    try:
        if ARGS.baseline:
            baseline = DaphneServer(
                extra_env=production,
                project_dir=ARGS.baseline,
                python=str(ARGS.baseline / ".venv" / "bin" / "python"),
            )
            cookie = table.cookie(_authentication_backend(ARGS.baseline))
            targets["baseline"] = Target(baseline, cookie, session_id)
        # A warm-up round no longer than a measured one: the pending checks it needs are made
        # one by one through the service, which cost the smoke run (CI) most of its time.
        warm_up_seconds = min(0.3, ARGS.seconds)
        for target in targets.values():
            warm_up = table.pending_checks(int(warm_up_seconds * CHECKS_PER_ROUND_SECOND))
            _roll_round(target, warm_up, seconds=warm_up_seconds, workers=1)
            table.cancel_left_over(warm_up)
        _measure(table, targets, label)
    except BaseException:
        for target in targets.values():
            print(f"--- {target.server.url} log:\n{target.server.log()[-3000:]}")
        raise
    finally:
        for target in targets.values():
            target.server.stop()


# The first backend that can load a signed-in user: a throttling backend such as
# django-axes' comes first in the list but only refuses logins, and a session naming it
# is signed in nowhere.
_SIGNING_IN_BACKEND = """
import django
django.setup()
from django.conf import settings
from django.utils.module_loading import import_string
print(next(path for path in settings.AUTHENTICATION_BACKENDS
           if hasattr(import_string(path), "get_user")))
"""


def _signing_in_backend() -> str:
    return next(
        path
        for path in settings.AUTHENTICATION_BACKENDS
        if hasattr(import_string(path), "get_user")
    )


def _authentication_backend(project_dir: Path) -> str:
    """The backend another checkout signs users in with: a session made for another
    backend is not signed in there."""
    found = subprocess.run(
        [str(project_dir / ".venv" / "bin" / "python"), "-c", _SIGNING_IN_BACKEND],
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"},
        cwd=project_dir,
        capture_output=True,
        text=True,
        check=True,
    )
    return found.stdout.strip()


def _drop_scratch_database() -> None:
    import psycopg

    connections.close_all()
    with psycopg.connect(ARGS.postgres_url, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{SCRATCH_DATABASE}" WITH (FORCE)')


def main() -> int:
    call_command("migrate", verbosity=0)
    if ARGS.postgres:
        try:
            prefix = f"bench-{os.getpid()}-{time.time_ns()}"
            _run(
                "PostgreSQL + Redis",
                {"REDIS_URL": ARGS.redis_url, "CHANNELS_PREFIX": prefix},
            )
        finally:
            _drop_scratch_database()
        return 0
    collect_static_for_production()
    where = f"; baseline {ARGS.baseline}" if ARGS.baseline else ""
    print(f"roll latency and throughput, one daphne process each (DEBUG=0){where}")
    _run("SQLite", {})
    if not ARGS.sqlite_only:
        # A process of its own: Django reads its database settings once.
        subprocess.run([sys.executable, *sys.argv, "--postgres"], check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
