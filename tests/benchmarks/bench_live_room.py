"""Benchmark the live room against the bare Channels yardstick, measured alike in one run.

Each scenario runs on the project and on tests/benchmarks/bare_channels (a view that only
does group_send, a consumer that only forwards), both started here on the same database
and channel layer. A POST puts a marked event in a room; the delay counts from the POST to
its arrival on each socket of the room; an arrival that never comes is "lost".

1. one room, N = 6, 20, 100 sockets;
2. 200 rooms × 6 sockets, 100 events/s in all;
3. the highest rate 50 rooms × 6 sockets sustain with p99 under 1 s and nothing lost;
4. the same with two daphne processes behind nginx (with Redis);
5. roll latency at 1 and 4 clients, against the yardstick's signed-in one-query view.

SQLite and the in-memory layer by default; `--postgres` for PostgreSQL + Redis (a scratch
database, dropped at the end). `--smoke` runs every scenario at a toy size (CI: the figures
mean nothing, the run must not break).
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import os
import sys
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(PROJECT_DIR))
from tests.benchmarks.environment import use_benchmark_environment  # noqa: E402

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--smoke", action="store_true", help="every scenario at a toy size")
parser.add_argument("--postgres", action="store_true", help="PostgreSQL + Redis")
parser.add_argument("--postgres-url", default="postgres://postgres@127.0.0.1:5432/postgres")
parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
parser.add_argument(
    "--only", default="", help="comma-separated scenario numbers to run (default: all)"
)
ARGS = parser.parse_args()
SCRATCH_DATABASE = f"srs_bench_live_{os.getpid()}"

use_benchmark_environment()
# The servers run with this key too, so that the session cookies made here are valid there.
os.environ["SECRET_KEY"] = "bench-only-" + "x" * 50


def _scratch_postgres() -> str:
    import psycopg

    with psycopg.connect(ARGS.postgres_url, autocommit=True, connect_timeout=3) as admin:
        admin.execute(f'CREATE DATABASE "{SCRATCH_DATABASE}"')
    return ARGS.postgres_url.rsplit("/", 1)[0] + f"/{SCRATCH_DATABASE}"


def _drop_scratch_postgres() -> None:
    import psycopg
    from django.db import connections

    connections.close_all()
    with psycopg.connect(ARGS.postgres_url, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{SCRATCH_DATABASE}" WITH (FORCE)')


if ARGS.postgres:
    os.environ["DATABASE_URL"] = _scratch_postgres()
    atexit.register(_drop_scratch_postgres)

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

from sessions_app.models import CheckRequest  # noqa: E402
from sessions_app.services.checks import check_request  # noqa: E402
from tests.benchmarks import harness  # noqa: E402
from tests.factories import (  # noqa: E402
    CharacterFactory,
    GameSessionFactory,
    MembershipFactory,
    TableFactory,
    UserFactory,
)

REDIS_URL = ARGS.redis_url if ARGS.postgres else None
SIZES = {
    # scenario: (full, smoke)
    "one_room_sockets": ([6, 20, 100], [3]),
    "one_room_events": (40, 4),
    "many_rooms": ((200, 6, 100.0, 20.0), (3, 2, 10.0, 1.0)),
    "ramp_rooms": ((50, 6), (3, 2)),
    "ramp_rates": ([10, 25, 50, 100, 200, 400, 800], [10, 20]),
    "ramp_seconds": (10.0, 1.0),
    "rolls": (200, 8),
}


def size(name: str):
    full, smoke = SIZES[name]
    return smoke if ARGS.smoke else full


def _cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


class Tables:
    """Sessions to put sockets in: one GM, one player who is a member of every table."""

    def __init__(self) -> None:
        self.gm = UserFactory(username="bench-gm")
        self.player = UserFactory(username="bench-player")
        self.cookie = _cookie(self.player)
        self.sessions = []

    def rooms(self, count: int) -> list[tuple[int, str]]:
        while len(self.sessions) < count:
            table = TableFactory(gm=self.gm)
            MembershipFactory(table=table, user=self.player)
            self.sessions.append(GameSessionFactory(table=table))
        return [(session.pk, self.cookie) for session in self.sessions[:count]]


def _wanted(number: int) -> bool:
    return not ARGS.only or str(number) in ARGS.only.split(",")


def _side_by_side(deployments, tables, rooms: int, **measure) -> dict:
    results = {}
    for name, deployment in deployments.items():
        target = (
            harness.bare_rooms(deployment, rooms)
            if deployment.app == "bare"
            else harness.project_rooms(deployment, tables.rooms(rooms))
        )
        results[name] = asyncio.run(harness.measure_rooms(target, **measure))
    return results


def one_room(deployments, tables) -> None:
    print("1. one room, events at 10/s")
    for sockets in size("one_room_sockets"):
        results = _side_by_side(
            deployments, tables, 1, per_room=sockets, rate=10.0, events=size("one_room_events")
        )
        for name, result in results.items():
            print("  " + result.line(f"{name}, {sockets} sockets"))


def many_rooms(deployments, tables) -> None:
    rooms, per_room, rate, seconds = size("many_rooms")
    print(f"2. {rooms} rooms × {per_room} sockets, {rate:.0f} events/s in all, {seconds:.0f} s")
    results = _side_by_side(
        deployments, tables, rooms, per_room=per_room, rate=rate, seconds=seconds
    )
    for name, result in results.items():
        print("  " + result.line(name))


def highest_rate(deployments, tables, label: str) -> None:
    rooms, per_room = size("ramp_rooms")
    print(f"{label}: highest rate with p99 < 1 s and nothing lost, {rooms} rooms × {per_room}")
    for name, deployment in deployments.items():
        best = None
        for rate in size("ramp_rates"):
            target = (
                harness.bare_rooms(deployment, rooms)
                if deployment.app == "bare"
                else harness.project_rooms(deployment, tables.rooms(rooms))
            )
            result = asyncio.run(
                harness.measure_rooms(
                    target, per_room=per_room, rate=rate, seconds=size("ramp_seconds")
                )
            )
            print("  " + result.line(f"{name} at {rate}/s"))
            sustained = (
                result.percentile(0.99) < 1.0
                and result.lost == 0
                and result.unopened == 0
                and result.post_errors == 0
                and result.posted_per_second >= 0.9 * rate
            )
            if not sustained:
                break
            best = rate
        print(f"  {name}: highest sustained rate {best or 'below the first step'} events/s")


def rolls(project, bare, tables) -> None:
    count = size("rolls")
    print(f"5. roll latency against a signed-in one-query view, {count} requests each")
    table = TableFactory(gm=tables.gm)
    MembershipFactory(table=table, user=tables.player)
    session = GameSessionFactory(table=table)
    pc = CharacterFactory(
        table=table, owner=tables.player, name="Aki", judgement_values={"Strength": 4}
    )
    session.characters.add(pc)
    for clients in (1, 4):
        pending = [
            check_request(
                session=session,
                by=tables.gm,
                character=pc,
                label=f"bench {n}",
                value_name="Strength",
                difficulty=9,
            ).pk
            for n in range(count)
        ]
        roll = harness.post_form(
            lambda n, pending=pending: f"/sessions/{session.pk}/checks/{pending[n]}/roll/",
            tables.cookie,
        )
        latencies, usage = harness.request_latencies(
            project.port, roll, clients=clients, requests=count, pids=project.pids()
        )
        print("  " + harness.latency_line(f"project roll, {clients} client(s)", latencies, usage))
        latencies, usage = harness.request_latencies(
            bare.port,
            harness.get("/me/", tables.cookie),
            clients=clients,
            requests=count,
            pids=bare.pids(),
        )
        print(
            "  "
            + harness.latency_line(f"bare one-query view, {clients} client(s)", latencies, usage)
        )
        CheckRequest.objects.filter(pk__in=pending, status=CheckRequest.Status.PENDING).update(
            status=CheckRequest.Status.CANCELLED
        )


def main() -> int:
    call_command("migrate", verbosity=0)
    stack = "PostgreSQL + Redis" if ARGS.postgres else "SQLite + in-memory layer"
    print(f"live room vs bare Channels, one daphne process each (DEBUG=0), {stack}")
    tables = Tables()
    deployments = {
        "bare": harness.start_servers("bare", redis_url=REDIS_URL),
        "project": harness.start_servers("project", redis_url=REDIS_URL),
    }
    try:
        if _wanted(1):
            one_room(deployments, tables)
        if _wanted(2):
            many_rooms(deployments, tables)
        if _wanted(3):
            highest_rate(deployments, tables, "3")
        if _wanted(5):
            rolls(deployments["project"], deployments["bare"], tables)
    finally:
        for deployment in deployments.values():
            deployment.stop()
    if _wanted(4):
        if not REDIS_URL:
            print("4. two processes behind nginx: needs Redis (--postgres)")
        else:
            fronted = {
                "bare ×2 + nginx": harness.start_servers(
                    "bare", processes=2, redis_url=REDIS_URL, nginx=True
                ),
                "project ×2 + nginx": harness.start_servers(
                    "project", processes=2, redis_url=REDIS_URL, nginx=True
                ),
            }
            try:
                highest_rate(fronted, tables, "4")
            finally:
                for deployment in fronted.values():
                    deployment.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
