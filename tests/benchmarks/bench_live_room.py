"""Benchmark the live room against a plain Django + Channels room and bare Channels, side by side.

Three apps on the same daphne, database, channel layer and session settings, started here:
the project; the plain room (tests/benchmarks/plain_room/: a signed-in post with CSRF, one
membership query, the sequence number and one INSERT in one transaction, a line rendered
per audience and sent on commit, a socket that checks membership and forwards); and the
bare floor (tests/benchmarks/bare_channels/: group_send and forward, nothing else). Each
room has 1 GM and 5 players; a player posts. The delay counts from the POST to the marked
event's arrival on each socket of the room; an arrival not there 5 s after the last post
is "lost". Within a scenario the apps alternate, in an order rotated at each repetition.

1. cost: server CPU per post (a chat line, a 2D6 roll in the roll box; plain and bare post
   their one kind), one room of 6 sockets at 10 posts/s;
2. one room of 6, 20 and 100 sockets at 10 posts/s;
3. the highest rate 50 rooms × 6 sockets sustain (p99 < 1 s, nothing lost, ≥ 90 % of the
   intended posts made), one process each;
4. the same with two daphne processes behind the deploy/ nginx (needs Redis: --postgres);
5. 100 sockets joining one room at once: the time until every one shows a line posted as
   soon as all are open (the median of three storms per app).

Targets, as ratios to plain measured in the same run, are printed met or unmet at the end.
SQLite and the in-memory layer by default; `--postgres` for PostgreSQL + Redis (a scratch
database, dropped at the end). `--smoke` runs every scenario at a toy size (CI: the figures
mean nothing, the run must not break).
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import os
import statistics
import sys
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(PROJECT_DIR))
from tests.benchmarks.environment import (  # noqa: E402
    collect_static_for_production,
    use_benchmark_environment,
)

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--smoke", action="store_true", help="every scenario at a toy size")
parser.add_argument("--postgres", action="store_true", help="PostgreSQL + Redis")
parser.add_argument("--postgres-url", default="postgres://postgres@127.0.0.1:5432/postgres")
parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
parser.add_argument(
    "--only", default="", help="comma-separated scenario numbers to run (default: all)"
)
parser.add_argument("--repeats", type=int, default=None, help="repetitions of scenario 1")
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

from sessions_app.models import GameSession  # noqa: E402
from tests.benchmarks import harness  # noqa: E402
from tests.factories import (  # noqa: E402
    GameSessionFactory,
    MembershipFactory,
    TableFactory,
    UserFactory,
)

REDIS_URL = ARGS.redis_url if ARGS.postgres else None
APPS = ("project", "plain", "bare")
PLAYERS = 5
SIZES = {
    # scenario: (full, smoke)
    "cost_posts": (100, 4),
    "cost_repeats": (3, 1),
    "one_room_sockets": ([6, 20, 100], [6]),
    # Each post reaches every socket of the room, so the p99 of its deliveries is set by the
    # slowest one post in a hundred: at 60 posts it was the single slowest, a pause of the
    # machine's as often as the app's.
    "one_room_posts": (150, 4),
    "ramp_rooms": (50, 2),
    # Steps of a third at most above 60: from 80 straight to 120, an app that holds 110 and
    # one that holds 80 read the same, and the ratio to plain was a step's, not a rate's.
    "ramp_rates": ([10, 15, 20, 30, 40, 60, 80, 100, 120, 160], [10]),
    "ramp_seconds": (5.0, 0.5),
    "join_sockets": (100, 6),
    # One storm's time swings twofold with the machine (plain's 0.45 to 1.1 s here): the
    # ratio is of the medians of a few, the apps alternating.
    "join_repeats": (3, 1),
    # Seconds for the joins' presence frames to go by before the posts begin.
    "settle": (1.0, 0.2),
}


def size(name: str):
    full, smoke = SIZES[name]
    return smoke if ARGS.smoke else full


RAMP_LABEL = f"{size('ramp_rooms')} rooms × {1 + PLAYERS}"


def _cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


class Tables:
    """Rooms to put sockets in: sessions of tables with one GM and the same five players.

    Each app has sessions of its own. The plain room numbers its lines with the session's
    own sequence number, so in a shared session the project's sockets, still closing from
    the app's last turn, would see the number move with no event of theirs and read the
    database to catch up, on the machine the next app is measured on."""

    def __init__(self) -> None:
        self.gm = UserFactory(username="bench-gm")
        self.players = [UserFactory(username=f"bench-player-{n}") for n in range(PLAYERS)]
        self.cookies = {user.pk: _cookie(user) for user in [self.gm, *self.players]}
        self.sessions: dict[str, list] = defaultdict(list)

    def members(self, count: int, app: str) -> harness.Members:
        sessions = self.sessions[app]
        while len(sessions) < count:
            table = TableFactory(gm=self.gm)
            for player in self.players:
                MembershipFactory(table=table, user=player)
            sessions.append(GameSessionFactory(table=table))
        players = [self.cookies[player.pk] for player in self.players]
        return harness.Members(
            session_ids=[session.pk for session in sessions[:count]],
            poster=players[0],
            gm=self.cookies[self.gm.pk],
            players=players,
        )


def rooms_for(
    deployment: harness.Deployment, tables: Tables, count: int, action="chat", *, fresh=False
):
    """`fresh`: the project's sockets sync as a page loaded just now does."""
    if deployment.app == "bare":
        return harness.bare_rooms(deployment, count)
    members = tables.members(count, deployment.app)
    if deployment.app == "plain":
        return harness.plain_rooms(deployment, members)
    if fresh:
        members.last_seqs = list(
            GameSession.objects.filter(pk__in=members.session_ids)
            .order_by("pk")
            .values_list("last_seq", flat=True)
        )
    return harness.project_rooms(deployment, members, action=action)


def rotated(items, turn: int) -> list:
    items = list(items)
    turn %= len(items)
    return items[turn:] + items[:turn]


class Targets:
    """Each target: met or unmet, with the ratio it was judged on."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def ratio(self, label: str, value: float, base: float, *, at_most=None, at_least=None):
        ratio = value / base if base else float("inf")
        met = (at_most is None or ratio <= at_most) and (at_least is None or ratio >= at_least)
        bound = f"≤ {at_most}×" if at_most is not None else f"≥ {at_least}×"
        self.lines.append(
            f"  {'met  ' if met else 'UNMET'}  {label}: {ratio:.2f}× plain's (target {bound})"
        )

    def check(self, label: str, met: bool, detail: str) -> None:
        self.lines.append(f"  {'met  ' if met else 'UNMET'}  {label}: {detail}")

    def show(self) -> None:
        print("targets")
        for line in self.lines:
            print(line)


def cost(deployments, tables, targets: Targets, stack: str) -> None:
    posts = size("cost_posts")
    print(f"1. cost per post: one room, 1 GM + {PLAYERS} players, {posts} posts at 10/s")
    variants = [("project chat", "project", "chat"), ("project roll", "project", "roll")]
    variants += [(app, app, "chat") for app in APPS if app != "project"]
    per_post: dict[str, list[float]] = {name: [] for name, _, _ in variants}
    repeats = ARGS.repeats or size("cost_repeats")
    for turn in range(repeats):
        for name, app, action in rotated(variants, turn):
            rooms = rooms_for(deployments[app], tables, 1, action)
            result = asyncio.run(
                harness.measure_rooms(
                    rooms, per_room=1 + PLAYERS, rate=10.0, events=posts, settle=size("settle")
                )
            )
            per_post[name].append(result.cpu_per_post)
            print("  " + result.line(f"{name} (#{turn + 1})"))
    cpu = {name: statistics.median(values) for name, values in per_post.items()}
    print("  server CPU per post, median of the repetitions:")
    for name, value in cpu.items():
        ratio = value / cpu["plain"] if cpu["plain"] else float("nan")
        print(f"    {name:<14} {value * 1000:6.1f} ms  {ratio:4.2f}× plain")
    targets.ratio(f"CPU per chat post, {stack}", cpu["project chat"], cpu["plain"], at_most=1.3)
    targets.ratio(f"CPU per roll post, {stack}", cpu["project roll"], cpu["plain"], at_most=1.6)


def one_room(deployments, tables, targets: Targets) -> None:
    posts = size("one_room_posts")
    print(f"2. one room at 10 posts/s, {posts} posts")
    for turn, sockets in enumerate(size("one_room_sockets")):
        results = {}
        for app in rotated(APPS, turn):
            rooms = rooms_for(deployments[app], tables, 1)
            results[app] = asyncio.run(
                harness.measure_rooms(
                    rooms, per_room=sockets, rate=10.0, events=posts, settle=size("settle")
                )
            )
        for app in APPS:
            print("  " + results[app].line(f"{app}, {sockets} sockets"))
        project, plain = results["project"], results["plain"]
        targets.ratio(
            f"one room of {sockets} sockets, p99",
            project.percentile(0.99),
            plain.percentile(0.99),
            at_most=1.5,
        )
        targets.check(
            f"one room of {sockets} sockets, nothing lost",
            project.lost == 0 and project.unopened == 0,
            f"project lost {project.lost}/{project.expected}, plain {plain.lost}/{plain.expected}",
        )


def _sustained(result: harness.Result, rate: float) -> bool:
    return (
        result.percentile(0.99) < 1.0
        and result.lost == 0
        and result.unopened == 0
        and result.post_errors == 0
        and result.posted_per_second >= 0.9 * rate
    )


def highest_rate(deployments, tables, label: str) -> dict[str, float]:
    """The highest step each app sustains, the apps taking turns at each step."""
    rooms_count, per_room = size("ramp_rooms"), 1 + PLAYERS
    print(f"{label}: highest rate, p99 < 1 s and nothing lost, {rooms_count} rooms × {per_room}")
    best = dict.fromkeys(deployments, 0.0)
    going = set(deployments)
    for turn, rate in enumerate(size("ramp_rates")):
        for name in rotated(deployments, turn):
            if name not in going:
                continue
            deployment = deployments[name]
            result = asyncio.run(
                harness.measure_rooms(
                    rooms_for(deployment, tables, rooms_count),
                    per_room=per_room,
                    rate=rate,
                    seconds=size("ramp_seconds"),
                    settle=size("settle"),
                )
            )
            print("  " + result.line(f"{name} at {rate}/s"))
            if _sustained(result, rate):
                best[name] = rate
            else:
                going.discard(name)
        if not going:
            break
    for name, rate in best.items():
        print(f"  {name}: highest sustained rate {rate or 'below the first step'} posts/s")
    return best


def join(deployments, tables, targets: Targets) -> None:
    sockets = size("join_sockets")
    print(f"5. {sockets} sockets joining one room at once")
    times: dict[str, list[float]] = {app: [] for app in APPS}
    for turn in range(size("join_repeats")):
        for app in rotated(APPS, turn):
            rooms = rooms_for(deployments[app], tables, 1, fresh=True)
            took, unopened, missing = asyncio.run(harness.join_storm(rooms, sockets))
            times[app].append(took)
            print(
                f"  {app:<8} (#{turn + 1}) all settled in {took:6.2f} s"
                f"  ({unopened} sockets refused, {missing} never showed the line)"
            )
    settled = {app: statistics.median(values) for app, values in times.items()}
    print(
        "  time to settle, median of the repetitions: "
        + ", ".join(f"{app} {value:.2f} s" for app, value in settled.items())
    )
    targets.ratio(
        f"{sockets} sockets joining, time to settle",
        settled["project"],
        settled["plain"],
        at_most=2,
    )


def _warm_up(deployments, tables) -> None:
    """A few posts of each kind to each app first: templates compiled, connections open,
    so that no measured run pays for being the first."""
    for app, deployment in deployments.items():
        for action in ("chat", "roll") if app == "project" else ("chat",):
            rooms = rooms_for(deployment, tables, 1, action)
            asyncio.run(harness.measure_rooms(rooms, per_room=2, rate=10.0, events=10, settle=0.2))


def _start_all(**options) -> dict[str, harness.Deployment]:
    """The three apps' servers, started side by side (each waits for its daphne to answer)."""
    with ThreadPoolExecutor(max_workers=len(APPS)) as pool:
        started = {app: pool.submit(harness.start_servers, app, **options) for app in APPS}
    return {app: future.result() for app, future in started.items()}


def main() -> int:
    call_command("migrate", verbosity=0)
    collect_static_for_production()
    stack = "PostgreSQL + Redis" if ARGS.postgres else "SQLite"
    layer = "Redis layer" if ARGS.postgres else "in-memory layer"
    print(f"live room: project, plain and bare, one daphne process each (DEBUG=0), {stack}")
    print(f"  {layer}; load {os.getloadavg()[0]:.1f} at the start, {os.cpu_count()} cores")
    tables = Tables()
    targets = Targets()
    deployments = _start_all(redis_url=REDIS_URL)
    single = {}
    try:
        if not ARGS.smoke:
            _warm_up(deployments, tables)
        if _wanted(1):
            cost(deployments, tables, targets, stack)
        if _wanted(2):
            one_room(deployments, tables, targets)
        if _wanted(3):
            single = highest_rate(deployments, tables, "3")
            targets.ratio(
                f"{RAMP_LABEL}, highest rate, {stack}, one process",
                single["project"],
                single["plain"],
                at_least=0.75,
            )
        if _wanted(5):
            join(deployments, tables, targets)
    finally:
        for deployment in deployments.values():
            deployment.stop()
    if _wanted(4):
        if not REDIS_URL:
            print("4. two processes behind nginx: needs Redis (--postgres)")
        else:
            fronted = _start_all(processes=2, redis_url=REDIS_URL, nginx=True)
            try:
                double = highest_rate(fronted, tables, "4 (two processes + nginx)")
            finally:
                for deployment in fronted.values():
                    deployment.stop()
            targets.ratio(
                f"{RAMP_LABEL}, highest rate, two processes + nginx",
                double["project"],
                double["plain"],
                at_least=0.75,
            )
            if single:
                scale = double["project"] / single["project"] if single["project"] else 0.0
                targets.check(
                    "two processes ≥ 1.7× one (project)",
                    scale >= 1.7,
                    f"{scale:.2f}× (plain {double['plain'] / (single['plain'] or 1):.2f}×)",
                )
    targets.show()
    return 0


def _wanted(number: int) -> bool:
    return not ARGS.only or str(number) in ARGS.only.split(",")


if __name__ == "__main__":
    sys.exit(main())
