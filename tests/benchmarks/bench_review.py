"""Benchmark the session room, the review page and the three log exports, 50 against 5,000
events (`--large 50000` for the size of a long imported log).

Prints, side by side in one run, for a player and for the GM: the median time and the
number of database queries of each page at both sizes, the time ratio, and whether the
query counts stay bounded (no query per event: the log is read a chunk of events at a time,
so a larger log may take one more query or two per chunk, never one per event).

Run it with `make bench` (or `.venv/bin/python tests/benchmarks/bench_review.py`).
"""

from __future__ import annotations

import argparse
import datetime
import statistics
import sys
import time
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(PROJECT_DIR))
from tests.benchmarks.environment import set_up_django  # noqa: E402

set_up_django()

from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import reverse  # noqa: E402

from sessions_app import log_export  # noqa: E402
from sessions_app.models import GameSession, TimelineEvent  # noqa: E402
from tests.factories import (  # noqa: E402
    GameSessionFactory,
    MembershipFactory,
    TableFactory,
    UserFactory,
)

PAGES = [
    ("room page", "session_room"),
    ("review page", "session_review"),
    ("export HTML", "session_export_html"),
    ("export Markdown", "session_export_markdown"),
    ("export JSON", "session_export_json"),
]
PHASES = ["opening", "middle", "climax", "ending"]


def _event(session, seq, moment, gm, player, other):
    """One event of a believable mix: chat, rolls, whispers, GM notes, scene changes."""
    at = moment + datetime.timedelta(seconds=seq)
    kind, payload, visibility, actor, audience = "chat", {"text": f"Line {seq}"}, "everyone", gm, []
    step = seq % 50
    if step == 1:
        kind, payload = (
            "scene_started",
            {
                "scene_id": seq,
                "number": seq // 50 + 1,
                "phase": PHASES[min(seq * len(PHASES) // 5001, 3)],
                "title": f"Scene {seq // 50 + 1}",
                "place": "The library",
                "purpose": "Find the book",
                "master": False,
                "scene_player": "Aki",
                "scene_player_id": 1,
            },
        )
    elif step == 0:
        kind, payload = "scene_ended", {"scene_id": seq - 49, "number": seq // 50, "title": ""}
    elif step % 7 == 0:
        kind, actor = "check_rolled", player
        payload = {
            "roll_id": seq,
            "source": "request",
            "label": "Climb",
            "character": "Aki",
            "roller": player.get_username(),
            "faces": [3, 4],
            "modifiers": [],
            "secret": False,
            "difficulty_secret": False,
            "value": 4,
            "dice_total": 7,
            "achievement": 11,
            "difficulty": 10,
            "outcome": "success",
            "critical": 12,
            "fumble": 2,
        }
    elif step % 11 == 0:
        kind, visibility, audience = "whisper", "users", [player]
        payload = {"text": f"Psst {seq}", "to": player.get_username(), "to_gm": False}
    elif step % 13 == 0:
        visibility, payload = "gm", {"text": f"GM note {seq}"}
    elif step % 5 == 0:
        kind, actor = "chat", other
        payload = {"text": f"In character {seq}", "mode": "ic", "character": "Ren"}
    row = TimelineEvent(
        session=session,
        seq=seq,
        kind=kind,
        actor=actor,
        payload=payload,
        visibility=visibility,
        created_at=at,
    )
    return row, audience


def build_session(size: int, gm, player, other) -> GameSession:
    """A session of `size` events, written in bulk (the numbers stay gapless)."""
    table = TableFactory(gm=gm, name=f"Table {size}")
    MembershipFactory(table=table, user=player)
    MembershipFactory(table=table, user=other)
    session = GameSessionFactory(table=table, title=f"Session of {size} events")
    moment = datetime.datetime(2026, 12, 5, 19, 0, tzinfo=datetime.UTC)
    with transaction.atomic():
        built = [_event(session, seq, moment, gm, player, other) for seq in range(1, size + 1)]
        rows = TimelineEvent.objects.bulk_create([row for row, _ in built])
        through = TimelineEvent.audience.through
        through.objects.bulk_create(
            [
                through(timelineevent_id=row.pk, user_id=user.pk)
                for row, (_, audience) in zip(rows, built, strict=True)
                for user in audience
            ]
        )
        GameSession.objects.filter(pk=session.pk).update(last_seq=size)
    return session


def _fetch(client: Client, url: str):
    """GET the page and read all of it: a streamed export costs its time while it is read."""
    response = client.get(url)
    if response.streaming:
        response.content_length = sum(len(chunk) for chunk in response.streaming_content)
    return response


def measure(client: Client, url: str, repeats: int) -> tuple[float, int]:
    """Return the median seconds of a GET and its query count.

    Queries are counted at the cursor: Django empties its query log when a request starts.
    One request goes first, unmeasured: the first request of a client also loads its session
    and user into the cache, a query that is not the page's (and a cold start).
    """
    if _fetch(client, url).status_code != 200:
        raise RuntimeError(f"{url} did not answer 200")
    statements = []

    def count(execute, sql, params, many, context):
        statements.append(sql)
        return execute(sql, params, many, context)

    timings = []
    for _run in range(repeats):
        statements.clear()
        with connection.execute_wrapper(count):
            start = time.perf_counter()
            response = _fetch(client, url)
            timings.append(time.perf_counter() - start)
        if response.status_code != 200:
            raise RuntimeError(f"{url} answered {response.status_code}")
        queries = len(statements)
    return statistics.median(timings), queries


def _chunk_queries(events: int) -> int:
    """The queries a log of this many events may take beyond a small one's: per chunk, its
    events and their audiences; per outline chunk, the outline and the JSON's faces."""

    def chunks(size: int) -> int:
        return -(-events // size)

    return 2 * chunks(log_export.CHUNK) + 2 * chunks(log_export.OUTLINE_CHUNK) + 2


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", type=int, default=50)
    parser.add_argument("--large", type=int, default=5000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--gm", action="store_true", help="measure as the GM too")
    args = parser.parse_args()

    call_command("migrate", verbosity=0)
    gm = UserFactory(username="bench-gm")
    player = UserFactory(username="bench-player")
    other = UserFactory(username="bench-other")
    started = time.perf_counter()
    small = build_session(args.small, gm, player, other)
    large = build_session(args.large, gm, player, other)
    print(
        f"Built sessions of {args.small} and {args.large} events "
        f"in {time.perf_counter() - started:.1f} s"
    )

    all_equal = True
    viewers = [("player", player), ("GM", gm)] if args.gm else [("player", player)]
    for who, user in viewers:
        client = Client()
        client.force_login(user)
        print(f"\nAs the {who}:")
        print(
            f"{'page':<16} {'time ' + str(args.small):>10} {'time ' + str(args.large):>11} "
            f"{'ratio':>7} {'queries':>8} {'queries':>8} {'bounded':>8}"
        )
        for label, name in PAGES:
            small_time, small_queries = measure(
                client, reverse(name, args=[small.pk]), args.repeats
            )
            large_time, large_queries = measure(
                client, reverse(name, args=[large.pk]), args.repeats
            )
            equal = large_queries <= small_queries + _chunk_queries(args.large)
            all_equal = all_equal and equal
            print(
                f"{label:<16} {small_time * 1000:>8.1f}ms {large_time * 1000:>9.1f}ms "
                f"{large_time / small_time:>6.1f}x {small_queries:>8} {large_queries:>8} "
                f"{'yes' if equal else 'NO':>8}"
            )
    print(
        f"\nQuery counts bounded by chunks for {args.small} and {args.large} events: "
        f"{'yes' if all_equal else 'NO'}"
    )
    print(
        f"Events ratio: {args.large / args.small:.0f}x; "
        f"total run {time.perf_counter() - started:.1f} s"
    )
    return 0 if all_equal else 1


if __name__ == "__main__":
    sys.exit(main())
