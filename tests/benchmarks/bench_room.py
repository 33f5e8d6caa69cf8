"""Benchmark the live room on one daphne process.

Prints, side by side in one run:
- requests per second of the session page and of a bare "ok" view, and their ratio;
- rolls per second through the htmx check endpoint against the bare view (target >= 0.5),
  on the project's HTTP handler and, for comparison, on Django's stock ASGI handler;
- the delay from appending an event (a chat POST) to its arrival on 20 connected websocket
  clients (median and 99th percentile), with the in-memory channel layer and with Redis;
- the delay from a roll (the check endpoint) to its card on 20 clients.

Run it with `make bench` (or `.venv/bin/python tests/benchmarks/bench_room.py`).
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(PROJECT_DIR))
from tests.benchmarks.environment import use_benchmark_environment  # noqa: E402

use_benchmark_environment()
# The servers below run with this key too, so the session cookies made here are valid there.
os.environ["SECRET_KEY"] = "bench-only-" + "x" * 50

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

from tests.factories import (  # noqa: E402
    GameSessionFactory,
    MembershipFactory,
    TableFactory,
    UserFactory,
)
from tests.live_server import DaphneServer  # noqa: E402


def _cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


def _requests_per_second(port: int, path: str, cookie: str, *, seconds: float, workers: int):
    """Hammer one path with keep-alive connections for `seconds`; return requests/s."""
    count = 0
    lock = threading.Lock()
    stop_at = time.monotonic() + seconds

    def worker():
        nonlocal count
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        done = 0
        while time.monotonic() < stop_at:
            connection.request("GET", path, headers={"Cookie": cookie})
            response = connection.getresponse()
            response.read()
            if response.status != 200:
                raise RuntimeError(f"{path} answered {response.status}")
            done += 1
        connection.close()
        with lock:
            count += done

    threads = [threading.Thread(target=worker) for _ in range(workers)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return count / (time.monotonic() - started)


CSRF = "b" * 32


def _post(connection, path: str, cookie: str, fields: dict) -> None:
    connection.request(
        "POST",
        path,
        body=urllib.parse.urlencode(fields),
        headers={
            "Cookie": f"{cookie}; csrftoken={CSRF}",
            "X-CSRFToken": CSRF,
            "HX-Request": "true",
            "Content-Type": "application/x-www-form-urlencoded",
        },
    )
    response = connection.getresponse()
    response.read()
    if response.status != 200:
        raise RuntimeError(f"POST {path} answered {response.status}")


def _rolls_per_second(
    port: int, session_id: int, request_ids: list[int], cookie: str, workers: int
):
    """Roll every request once through the check endpoint; return rolls/s."""
    chunks = [request_ids[n::workers] for n in range(workers)]

    def worker(ids):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        for request_id in ids:
            _post(connection, f"/sessions/{session_id}/checks/{request_id}/roll/", cookie, {})
        connection.close()

    threads = [threading.Thread(target=worker, args=(chunk,)) for chunk in chunks]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return len(request_ids) / (time.monotonic() - started)


def _roll_rounds(server, session, cookie, roll_ids, args, label: str) -> None:
    """Rolls against the bare view, one client and then several, in alternating rounds.

    Short alternating rounds let both sides of each ratio meet the same machine load (this
    machine is shared: its speed drifts by more than the difference being measured).
    """
    for workers, ids in [(1, roll_ids[: args.rolls]), (args.workers, roll_ids[args.rolls :])]:
        roll_seconds = ok_seconds = 0.0
        roll_count = ok_count = 0
        round_ratios = []
        per_round = max(1, len(ids) // args.rounds)
        for start in range(0, len(ids), per_round):
            chunk = ids[start : start + per_round]
            ok_rps = _requests_per_second(
                server.port, "/ok/", cookie, seconds=args.seconds / args.rounds, workers=workers
            )
            began = time.monotonic()
            rolls_rps = _rolls_per_second(server.port, session.pk, chunk, cookie, workers)
            roll_seconds += time.monotonic() - began
            roll_count += len(chunk)
            ok_seconds += args.seconds / args.rounds
            ok_count += ok_rps * args.seconds / args.rounds
            round_ratios.append(rolls_rps / ok_rps)
        rolls_rps, ok_rps = roll_count / roll_seconds, ok_count / ok_seconds
        print(
            f"{label}, {workers} client(s): check endpoint {rolls_rps:6.1f} rolls/s "
            f"({roll_count} rolls), bare view {ok_rps:6.1f} requests/s, "
            f"ratio {rolls_rps / ok_rps:4.2f} "
            f"(rounds {min(round_ratios):.2f}-{max(round_ratios):.2f}; target >= 0.5)"
        )


def _post_chat(port: int, session_id: int, cookie: str, csrf: str, text: str) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    body = urllib.parse.urlencode({"text": text})
    connection.request(
        "POST",
        f"/sessions/{session_id}/chat/",
        body=body,
        headers={
            "Cookie": f"{cookie}; csrftoken={csrf}",
            "X-CSRFToken": csrf,
            "HX-Request": "true",
            "Content-Type": "application/x-www-form-urlencoded",
        },
    )
    response = connection.getresponse()
    response.read()
    connection.close()
    if response.status != 200:
        raise RuntimeError(f"chat POST answered {response.status}")


async def _fan_out_delays(
    server, session, cookie, *, clients: int, events: int, trigger=None, marker="bench-marker-{n}-"
) -> list[float]:
    ws_url = server.url.replace("http://", "ws://") + f"/ws/sessions/{session.pk}/"
    headers = {"Origin": server.url, "Cookie": cookie}
    sockets = [await connect(ws_url, additional_headers=headers) for _ in range(clients)]
    for socket in sockets:
        await socket.send(json.dumps({"type": "sync", "last_seq": 10**9}))
    await asyncio.sleep(1.0)
    for socket in sockets:  # drain presence frames
        while True:
            try:
                await asyncio.wait_for(socket.recv(), timeout=0.05)
            except TimeoutError:
                break
    csrf = "b" * 32
    delays: list[float] = []

    async def wait_for(socket, marker):
        while True:
            frame = await socket.recv()
            if marker in frame:
                return time.perf_counter()

    for n in range(events):
        marker_n = marker.format(n=n)
        receivers = [asyncio.create_task(wait_for(socket, marker_n)) for socket in sockets]
        sent = time.perf_counter()
        if trigger is None:
            await asyncio.to_thread(_post_chat, server.port, session.pk, cookie, csrf, marker_n)
        else:
            await asyncio.to_thread(trigger, n)
        arrivals = await asyncio.wait_for(asyncio.gather(*receivers), timeout=30)
        delays.extend(arrival - sent for arrival in arrivals)
    for socket in sockets:
        await socket.close()
    return delays


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="per throughput measurement")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--events", type=int, default=50)
    parser.add_argument("--rolls", type=int, default=800)
    parser.add_argument("--rounds", type=int, default=10, help="alternations of rolls and ok")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    args = parser.parse_args()

    call_command("migrate", verbosity=0)
    gm = UserFactory(username="bench-gm")
    player = UserFactory(username="bench-player")
    table = TableFactory(gm=gm)
    MembershipFactory(table=table, user=player)
    session = GameSessionFactory(table=table)
    for n in range(50):
        from sessions_app import services

        services.chat_post(session=session, by=gm if n % 2 else player, text=f"history line {n}")
    cookie = _cookie(player)
    from sessions_app.models import CheckRequest
    from tests.factories import CharacterFactory

    pc = CharacterFactory(table=table, owner=player, name="Aki", judgement_values={"Strength": 4})
    session.characters.add(pc)

    def make_requests(count: int, label: str = "Bench check") -> list[int]:
        return [
            services.check_request(
                session=session,
                by=gm,
                character=pc,
                label=f"{label}-{n}-",
                value_name="Strength",
                difficulty=9,
            ).pk
            for n in range(count)
        ]

    card_ids: list[int] = []

    def roll_trigger(n: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        _post(connection, f"/sessions/{session.pk}/checks/{card_ids[n]}/roll/", cookie, {})
        connection.close()

    # Measure what production runs: DEBUG off (no query logging, cached everything).
    production = {
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "0",
    }
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=PROJECT_DIR,
        env={**os.environ, **production},
        check=True,
    )
    print(
        f"one daphne process (DEBUG=0), SQLite, {args.workers} client threads, "
        f"{args.seconds:.0f} s each"
    )
    server = DaphneServer(extra_env=production)
    try:
        _requests_per_second(server.port, "/ok/", cookie, seconds=1, workers=1)  # warm up
        ok_rps = _requests_per_second(
            server.port, "/ok/", cookie, seconds=args.seconds, workers=args.workers
        )
        page_rps = _requests_per_second(
            server.port,
            f"/sessions/{session.pk}/",
            cookie,
            seconds=args.seconds,
            workers=args.workers,
        )
        print(f"bare ok view:            {ok_rps:8.1f} requests/s")
        print(f"session page (50 events): {page_rps:7.1f} requests/s")
        print(f"ratio session page / ok:  {page_rps / ok_rps:7.2f}")
        # Pending checks are created after the page was measured: each adds a widget to it.
        roll_ids = make_requests(2 * args.rolls)
        card_ids.extend(make_requests(args.events, "card-marker"))
        assert CheckRequest.objects.filter(status="pending").count() == 2 * args.rolls + args.events
        _roll_rounds(server, session, cookie, roll_ids, args, "project handler")
        roll_delays = asyncio.run(
            _fan_out_delays(
                server,
                session,
                cookie,
                clients=args.clients,
                events=args.events,
                trigger=roll_trigger,
                marker="card-marker-{n}-",
            )
        )
        memory_delays = asyncio.run(
            _fan_out_delays(server, session, cookie, clients=args.clients, events=args.events)
        )
    finally:
        server.stop()

    # The same code through Django's stock ASGI handler: the yardstick moves with the handler.
    stock = DaphneServer(
        extra_env=production, application="tests.benchmarks.stock_asgi:application"
    )
    try:
        _requests_per_second(stock.port, "/ok/", cookie, seconds=1, workers=1)  # warm up
        _roll_rounds(stock, session, cookie, make_requests(2 * args.rolls), args, "stock handler")
    finally:
        stock.stop()

    redis_delays = None
    try:
        import redis

        redis.Redis.from_url(args.redis_url).ping()
    except Exception as error:  # noqa: BLE001 - any failure means "no Redis here"
        print(f"Redis at {args.redis_url} not reachable ({error}); skipping the Redis figures")
    else:
        # The server caches users and sessions in Redis too, under this prefix. Each run has
        # its own: a user cached by an earlier run (same id, another password hash) would
        # sign this run's player out, and the room would refuse the sockets.
        prefix = f"bench-{os.getpid()}-{time.time_ns()}"
        server = DaphneServer(
            extra_env={**production, "REDIS_URL": args.redis_url, "CHANNELS_PREFIX": prefix}
        )
        try:
            redis_delays = asyncio.run(
                _fan_out_delays(server, session, cookie, clients=args.clients, events=args.events)
            )
        finally:
            server.stop()
            client = redis.Redis.from_url(args.redis_url)
            for key in client.scan_iter(match=f"*{prefix}*"):
                client.delete(key)

    print(f"event → {args.clients} websocket clients, {args.events} events each (ms):")
    for name, delays in [
        ("in-memory layer", memory_delays),
        ("Redis layer", redis_delays),
        ("roll → card (in-memory)", roll_delays),
    ]:
        if delays:
            print(
                f"  {name:<16} median {statistics.median(delays) * 1000:6.1f}"
                f"   p99 {_percentile(delays, 0.99) * 1000:6.1f}   (n={len(delays)})"
            )
    if memory_delays and redis_delays:
        ratio = statistics.median(redis_delays) / statistics.median(memory_delays)
        print(f"  median ratio Redis / in-memory: {ratio:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
