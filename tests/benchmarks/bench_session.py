"""Benchmark the session page (player view) and the GM panel (GM view) with 10 and 1,000
timeline events, side by side in one run.

Prints, for each view: database queries per render (must not grow with the event count),
the median render time and the ratio 1,000 / 10 (target <= 1.5).

Run it with `make bench` (or `.venv/bin/python tests/benchmarks/bench_session.py`).
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(PROJECT_DIR))
from tests.benchmarks.environment import collect_static_for_production, set_up_django  # noqa: E402

os.environ.setdefault("SECRET_KEY", "bench-only-" + "x" * 50)
# Measure what production runs: DEBUG off (cached templates, manifest static files).
set_up_django(DEBUG="0", SECURE_SSL_REDIRECT="0")

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from sessions_app.models import Handout, PlannedScene, PreparedCheck, Scenario  # noqa: E402
from sessions_app.services.chat import chat_post  # noqa: E402
from sessions_app.services.play import phase_advance  # noqa: E402
from sessions_app.services.scenes import scene_start, stage_bring_in  # noqa: E402
from tests.factories import (  # noqa: E402
    CharacterFactory,
    GameSessionFactory,
    MembershipFactory,
    TableFactory,
    UserFactory,
)

REPEATS = int(os.environ.get("BENCH_REPEATS", "25"))
SIZES = (10, 1000)


def _session_with_events(count: int, index: int):
    gm = UserFactory(username=f"gm{index}")
    players = [UserFactory(username=f"player{index}_{n}") for n in range(3)]
    table = TableFactory(gm=gm)
    for player in players:
        MembershipFactory(table=table, user=player)
    scenario = Scenario.objects.create(owner=gm, title="Bench scenario", player_count=3)
    for position, phase in enumerate(["opening", "middle", "climax", "ending"], start=1):
        planned = PlannedScene.objects.create(
            scenario=scenario, phase=phase, position=position, title=f"Scene {phase}"
        )
        PreparedCheck.objects.create(planned_scene=planned, label="Look", value_name="Senses")
    Handout.objects.create(scenario=scenario, title="Invitation", body="Come.")
    session = GameSessionFactory(table=table, scenario=scenario)
    characters = []
    for slot, player in enumerate(players, start=1):
        character = CharacterFactory(table=table, owner=player, name=f"PC {slot}")
        session.characters.add(character, through_defaults={"slot": slot})
        characters.append(character)
    phase_advance(session=session, by=gm, from_phase="preplay")
    scene_start(
        session=session,
        by=gm,
        scene_player=characters[0],
        title="Opening",
        place="The inn",
        purpose="To meet the contact",
    )
    stage_bring_in(session=session, by=gm, character=characters[1])
    with transaction.atomic():
        while session.last_seq < count:
            speaker = players[session.last_seq % len(players)]
            chat_post(session=session, by=speaker, text=f"Line {session.last_seq}")
    return session, gm, players[0]


def _count_queries(client: Client, path: str) -> int:
    client.get(path)  # warm the template cache and the connection
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    assert response.status_code == 200, response.status_code
    return len(queries)


def main() -> None:
    settings.ALLOWED_HOSTS = ["*"]
    collect_static_for_production()
    call_command("migrate", verbosity=0)
    targets = {}
    for index, size in enumerate(SIZES):
        session, gm, player = _session_with_events(size, index)
        for role, user in (("player page", player), ("GM panel", gm)):
            client = Client()
            client.force_login(user)
            targets[(role, size)] = (client, f"/sessions/{session.pk}/")
    queries = {key: _count_queries(*target) for key, target in targets.items()}
    # Alternate the renders so that whatever else the machine does weighs on both sizes alike.
    timings = {key: [] for key in targets}
    for _ in range(REPEATS):
        for key, (client, path) in targets.items():
            start = time.perf_counter()
            client.get(path)
            timings[key].append(time.perf_counter() - start)
    print(f"Session page with {SIZES[0]} and {SIZES[1]} timeline events (median of {REPEATS}):")
    small, large = SIZES
    for role in ("player page", "GM panel"):
        small_time = statistics.median(timings[(role, small)])
        large_time = statistics.median(timings[(role, large)])
        ratio = large_time / small_time
        same = queries[(role, small)] == queries[(role, large)]
        print(
            f"  {role:12} queries {queries[(role, small)]} vs {queries[(role, large)]}"
            f" ({'same' if same else 'GROWS'}),"
            f" {small_time * 1000:.1f} ms vs {large_time * 1000:.1f} ms,"
            f" ratio {ratio:.2f} (target <= 1.5: {'met' if ratio <= 1.5 else 'NOT met'})"
        )

    _palette_effect()


def _palette_effect() -> None:
    """The room page's queries with one short chat palette and with many long ones: the
    palettes and the character panel come from one query, whatever they hold."""
    counts = {}
    for index, (characters, lines) in enumerate(((1, 1), (8, 300)), start=len(SIZES)):
        session, _gm, player = _session_with_events(10, index)
        for number in range(characters):
            character = CharacterFactory(
                table=session.table,
                owner=player,
                name=f"Palette PC {number}",
                judgement_values={"Strength": 3, "Reflexes": 2},
                resources={name: {"current": 5, "max": 9} for name in ("HP", "MP", "SAN")},
                palette="\n".join(f"2D6+{{Strength}}>={line % 12}" for line in range(lines)),
            )
            session.characters.add(character)
        client = Client()
        client.force_login(player)
        counts[(characters, lines)] = _count_queries(client, f"/sessions/{session.pk}/")
    (few, few_queries), (many, many_queries) = counts.items()
    print(
        f"Chat palettes on the player's room page: {few[0]} PC x {few[1]} line:"
        f" {few_queries} queries; {many[0]} PCs x {many[1]} lines: {many_queries} queries"
        f" ({'flat' if few_queries == many_queries else 'GROWS'})"
    )


if __name__ == "__main__":
    main()
