"""Benchmark the live room on one daphne process.

Prints, side by side in one run:
- requests per second of the session page and of a bare "ok" view, and their ratio;
- rolls per second through the htmx check endpoint, with one client and with several;
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
import sys
import threading
import time
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(PROJECT_DIR))
from tests.benchmarks.environment import collect_static_for_production, set_up_django  # noqa: E402

# The servers below run with this key too, so the session cookies made here are valid there.
set_up_django(SECRET_KEY="bench-only-" + "x" * 50)

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

from tests.benchmarks.http_clients import htmx_post, keep_alive_clients  # noqa: E402
from tests.benchmarks.tables import bench_table, player_pc  # noqa: E402
from tests.live_server import DaphneServer  # noqa: E402


def _cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


def _throughput(port: int, send, *, seconds: float, workers: int) -> float:
    """Requests per second from `workers` keep-alive clients, each calling `send(connection)`
    in a loop for `seconds`, all measured alike (see keep_alive_clients)."""
    counts = [0] * workers

    def request(slot: int, connection) -> None:
        send(connection)
        counts[slot] += 1

    ran = keep_alive_clients(port, request, workers=workers, seconds=seconds, timeout=10)
    return sum(counts) / ran


def _get(path: str, cookie: str):
    def send(connection) -> None:
        connection.request("GET", path, headers={"Cookie": cookie})
        response = connection.getresponse()
        response.read()
        if response.status != 200:
            raise RuntimeError(f"{path} answered {response.status}")

    return send


def _requests_per_second(port: int, path: str, cookie: str, *, seconds: float, workers: int):
    return _throughput(port, _get(path, cookie), seconds=seconds, workers=workers)


CSRF = "b" * 32


def _post(connection, path: str, cookie: str, fields: dict) -> None:
    htmx_post(connection, path, fields, cookie=f"{cookie}; csrftoken={CSRF}", csrf=CSRF)


def _roller(session_id: int, request_ids: list[int], cookie: str):
    """Roll the next pending check on each call; each check is rolled once."""
    pending = iter(request_ids)
    lock = threading.Lock()

    def send(connection) -> None:
        with lock:
            request_id = next(pending, None)
        if request_id is None:
            raise RuntimeError("the benchmark ran out of pending checks: create more")
        _post(connection, f"/sessions/{session_id}/checks/{request_id}/roll/", cookie, {})

    return send


# Pending checks made per second of rolling: more than the endpoint rolls on a fast machine.
CHECKS_PER_ROLL_SECOND = 1200


def _rolls_per_second(server, session, cookie, make_requests, args) -> None:
    """Rolls through the check endpoint, one client and then several."""
    from sessions_app.models import CheckRequest

    for workers in (1, args.workers):
        request_ids = make_requests(int(args.seconds * CHECKS_PER_ROLL_SECOND))
        roll = _roller(session.pk, request_ids, cookie)
        rolls_rps = _throughput(server.port, roll, seconds=args.seconds, workers=workers)
        # The checks left over would stay on the page and in every room update as widgets.
        CheckRequest.objects.filter(pk__in=request_ids, status=CheckRequest.Status.PENDING).update(
            status=CheckRequest.Status.CANCELLED
        )
        print(f"check endpoint, {workers} client(s): {rolls_rps:6.1f} rolls/s")


def _post_chat(port: int, session_id: int, cookie: str, csrf: str, text: str) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        htmx_post(
            connection,
            f"/sessions/{session_id}/chat/",
            {"text": text},
            cookie=f"{cookie}; csrftoken={csrf}",
            csrf=csrf,
        )
    finally:
        connection.close()


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
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    args = parser.parse_args()

    call_command("migrate", verbosity=0)
    gm, player, session = bench_table()
    for n in range(50):
        from sessions_app.services.chat import chat_post
        from sessions_app.services.checks import check_request

        chat_post(session=session, by=gm if n % 2 else player, text=f"history line {n}")
    cookie = _cookie(player)
    pc = player_pc(session, player, judgement_values={"Strength": 4})

    def make_requests(count: int, label: str = "Bench check") -> list[int]:
        return [
            check_request(
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
    collect_static_for_production()
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
        card_ids.extend(make_requests(args.events, "card-marker"))
        _rolls_per_second(server, session, cookie, make_requests, args)
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

    redis_delays = None
    try:
        import redis

        redis.Redis.from_url(args.redis_url).ping()
    except Exception as error:  # noqa: BLE001 - any failure means "no Redis here"
        print(f"Redis at {args.redis_url} not reachable ({error}); skipping the Redis figures")
    else:
        # The server caches sessions in Redis too, under this prefix: each run has its own,
        # and removes its keys when it ends.
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
