"""A harness for live-room benchmarks: servers, sockets in rooms, events at a rate, latencies.

The project, the plain room (tests/benchmarks/plain_room/: what a minimal Django +
Channels room costs) and the bare Channels floor (tests/benchmarks/bare_channels/) are
started and measured the same way: a POST puts a marked event in a room, and every socket
in that room must show the marker; the delay counts from the moment the POST is sent. Use
it from a script that has set up Django on the benchmark's database
(`environment.use_benchmark_environment`), as bench_live_room.py does:

    deployment = start_servers("project", processes=2, redis_url=..., nginx=True)
    rooms = project_rooms(deployment, sessions)   # plain_rooms(…), bare_rooms(deployment, 200)
    result = asyncio.run(measure_rooms(rooms, per_room=6, rate=100, seconds=20))
    print(result.line("project, 200×6 at 100/s"))
    deployment.stop()
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import http.client
import os
import re
import statistics
import threading
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from tests.benchmarks.http_clients import answer_body
from tests.live_server import DaphneServer, NginxServer

PRODUCTION_ENV = {"DEBUG": "0", "ALLOWED_HOSTS": "127.0.0.1,localhost", "SECURE_SSL_REDIRECT": "0"}
APPLICATIONS = {
    "project": "config.asgi:application",
    "plain": "tests.benchmarks.plain_room.asgi:application",
    "bare": "tests.benchmarks.bare_channels.asgi:application",
}
CSRF = "b" * 32
_CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


# --- servers ---------------------------------------------------------------------------


@dataclass
class Deployment:
    """Server processes of one app, and the address clients use (nginx's when in front)."""

    app: str
    servers: list[DaphneServer]
    nginx: NginxServer | None = None
    redis_prefix: str | None = None
    redis_url: str | None = None

    @property
    def url(self) -> str:
        return self.nginx.url if self.nginx else self.servers[0].url

    @property
    def port(self) -> int:
        return int(self.url.rsplit(":", 1)[1])

    def pids(self) -> list[int]:
        """Every process serving: the daphnes, and nginx's master and workers."""
        found = [server.process.pid for server in self.servers]
        if self.nginx is not None:
            found.append(self.nginx.process.pid)
            found += _children(self.nginx.process.pid)
        return found

    def stop(self) -> None:
        if self.nginx is not None:
            self.nginx.stop()
        for server in self.servers:
            server.stop()
        if self.redis_prefix and self.redis_url:
            import redis

            client = redis.Redis.from_url(self.redis_url)
            for key in client.scan_iter(match=f"*{self.redis_prefix}*"):
                client.delete(key)


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as children:
            return [int(child) for child in children.read().split()]
    except OSError:
        return []


def start_servers(
    app: str = "project",
    *,
    processes: int = 1,
    redis_url: str | None = None,
    nginx: bool = False,
    extra_env: dict[str, str] | None = None,
) -> Deployment:
    """Start `processes` daphne processes of the project ("project") or a yardstick
    ("plain", "bare") on the benchmark's database, with production settings; Redis when
    `redis_url` is given (several processes need it); nginx in front when asked."""
    if processes > 1 and not redis_url:
        raise ValueError("several processes share rooms only through Redis: give redis_url")
    env = {**PRODUCTION_ENV, **(extra_env or {})}
    prefix = None
    if redis_url:
        prefix = f"bench-{app}-{os.getpid()}-{time.time_ns()}"
        env.update({"REDIS_URL": redis_url, "CHANNELS_PREFIX": prefix})
    else:
        env["REDIS_URL"] = ""
    application = APPLICATIONS[app]
    servers = [DaphneServer(extra_env=env, application=application) for _ in range(processes)]
    front = NginxServer([server.port for server in servers]) if nginx else None
    return Deployment(app, servers, front, prefix, redis_url)


# --- what is measured: CPU of the servers, load of the machine ---------------------------


def _cpu_seconds(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / _CLOCK_TICKS  # utime + stime


def _machine_busy_and_total() -> tuple[int, int]:
    with open("/proc/stat") as stat:
        values = [int(value) for value in stat.readline().split()[1:]]
    idle = values[3] + values[4]  # idle + iowait
    return sum(values) - idle, sum(values)


class Usage:
    """CPU used by the server processes and the machine's busy share over an interval."""

    def __init__(self, pids: list[int]):
        self.pids = pids
        self.started = time.monotonic()
        self.cpu = {pid: _cpu_seconds(pid) for pid in pids}
        self.machine = _machine_busy_and_total()

    def finish(self) -> dict[str, float]:
        wall = time.monotonic() - self.started
        used = sum(_cpu_seconds(pid) - before for pid, before in self.cpu.items())
        busy, total = _machine_busy_and_total()
        machine = (busy - self.machine[0]) / max(1, total - self.machine[1])
        return {
            "server_cpu_seconds": used,
            "server_cpu_percent": 100 * used / wall if wall else 0.0,
            "machine_busy_percent": 100 * machine,
            "load_1min": os.getloadavg()[0],
        }


# --- rooms: where sockets go and how an event is posted ----------------------------------


@dataclass
class Rooms:
    """How to join room `n` and how to post a marked event to it, for one app."""

    deployment: Deployment
    count: int
    socket_path: callable
    socket_headers: callable  # (room, n-th socket of the room) -> headers
    post: callable  # (connection, room, text) -> None, raises on a refusal


def bare_rooms(deployment: Deployment, count: int) -> Rooms:
    def post(connection, room: int, text: str) -> None:
        _request(connection, "POST", f"/post/r{room}/", {"text": text}, {})

    return Rooms(
        deployment,
        count,
        socket_path=lambda room: f"/ws/r{room}/",
        socket_headers=lambda room, _n: {"Origin": deployment.url},
        post=post,
    )


@dataclass
class Members:
    """The session ids of the rooms, and Cookie headers: the poster's (a player) and, for
    each socket of a room in turn, the GM's first and then the players' round."""

    session_ids: list[int]
    poster: str
    gm: str
    players: list[str]
    # The last sequence number each room's page shows, for sockets that sync as a freshly
    # loaded page does; None: past any number, so that only live events count.
    last_seqs: list[int] | None = None

    def socket_cookie(self, n: int) -> str:
        return self.gm if n == 0 else self.players[(n - 1) % len(self.players)]


def _signed_in_rooms(deployment: Deployment, members: Members, post_path, fields, **rest):
    def post(connection, room: int, text: str) -> None:
        _request(
            connection,
            "POST",
            post_path(members.session_ids[room]),
            fields(text),
            {
                "Cookie": f"{members.poster}; csrftoken={CSRF}",
                "X-CSRFToken": CSRF,
                "HX-Request": "true",
            },
        )

    return Rooms(
        deployment,
        len(members.session_ids),
        socket_headers=lambda room, n: {
            "Origin": deployment.url,
            "Cookie": members.socket_cookie(n),
        },
        post=post,
        **rest,
    )


def project_rooms(deployment: Deployment, members: Members, *, action: str = "chat") -> Rooms:
    """The project's sessions, where the poster says a line ("chat") or rolls 2D6 in the
    roll box ("roll"); the text carries the marker either way (a roll's label)."""
    post_path, fields = {
        "chat": (lambda sid: f"/sessions/{sid}/chat/", lambda text: {"text": text}),
        "roll": (lambda sid: f"/sessions/{sid}/roll/", lambda text: {"text": f"2D6 {text}"}),
    }[action]
    return _signed_in_rooms(
        deployment,
        members,
        post_path,
        fields,
        # As the room's page does: its place in the socket's address, no first message.
        socket_path=lambda room: (
            f"/ws/sessions/{members.session_ids[room]}/"
            f"?last_seq={members.last_seqs[room] if members.last_seqs else 10**9}"
        ),
    )


def plain_rooms(deployment: Deployment, members: Members) -> Rooms:
    """The same sessions through the plain room (tests/benchmarks/plain_room/)."""
    return _signed_in_rooms(
        deployment,
        members,
        lambda sid: f"/plain/{sid}/post/",
        lambda text: {"text": text},
        socket_path=lambda room: f"/ws/plain/{members.session_ids[room]}/",
    )


def _request(connection, method: str, path: str, fields: dict | None, headers: dict) -> bytes:
    body = urllib.parse.urlencode(fields) if fields is not None else None
    if body is not None:
        headers = {**headers, "Content-Type": "application/x-www-form-urlencoded"}
    connection.request(method, path, body=body, headers=headers)
    return answer_body(connection, method, path)


# --- the measurement -------------------------------------------------------------------


@dataclass
class Result:
    sockets: int
    unopened: int
    rooms: int
    events: int
    post_errors: int
    expected: int
    delays: list[float] = field(default_factory=list)
    posted_per_second: float = 0.0
    usage: dict[str, float] = field(default_factory=dict)
    post_times: list[float] = field(default_factory=list)

    @property
    def delivered(self) -> int:
        return len(self.delays)

    @property
    def lost(self) -> int:
        return self.expected - self.delivered

    @property
    def posted(self) -> int:
        return self.events - self.post_errors

    @property
    def cpu_per_post(self) -> float:
        """Seconds of server CPU per post made, everything the post set going included."""
        return self.usage.get("server_cpu_seconds", 0.0) / max(1, self.posted)

    def percentile(self, fraction: float) -> float:
        return percentile(self.delays, fraction) if self.delays else float("nan")

    def line(self, label: str) -> str:
        return (
            f"{label:<44} p50 {self.percentile(0.5) * 1000:7.1f} ms"
            f"  p99 {self.percentile(0.99) * 1000:7.1f} ms"
            f"  lost {self.lost}/{self.expected}"
            + (f" ({self.unopened} sockets refused)" if self.unopened else "")
            + f"  posts {self.posted_per_second:6.1f}/s ({self.post_errors} refused)"
            f"  CPU/post {self.cpu_per_post * 1000:5.1f} ms"
            f"  server CPU {self.usage.get('server_cpu_percent', 0):5.0f}%"
            f"  machine {self.usage.get('machine_busy_percent', 0):3.0f}%"
            f"  load {self.usage.get('load_1min', 0):4.1f}"
        )


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


async def open_sockets(
    rooms: Rooms, per_room: int, *, at_once: int = 10, attempts: int = 3
) -> tuple[list[tuple], int]:
    """`per_room` websockets in each room, opened `at_once` at a time: the (room, socket)
    pairs, and how many could not be opened in `attempts` tries (a server too busy to
    finish its handshakes in time refuses some: that is a result, not a crash)."""
    from websockets.asyncio.client import connect

    base = rooms.deployment.url.replace("http://", "ws://")
    gate = asyncio.Semaphore(at_once)

    async def one(room: int, n: int):
        for attempt in range(attempts):
            async with gate:
                try:
                    socket = await connect(
                        base + rooms.socket_path(room),
                        additional_headers=rooms.socket_headers(room, n),
                        ping_interval=None,
                        max_queue=None,
                        open_timeout=60,
                    )
                except (OSError, TimeoutError, websockets_errors()) as error:
                    last = error
                else:
                    return room, socket
            await asyncio.sleep(0.5 * (attempt + 1))
        print(f"  socket to room {room} not opened: {last!r}")
        return None

    opened = await asyncio.gather(
        *(one(room, n) for room in range(rooms.count) for n in range(per_room))
    )
    sockets = [pair for pair in opened if pair is not None]
    return sockets, len(opened) - len(sockets)


def websockets_errors() -> type[Exception]:
    from websockets.exceptions import WebSocketException

    return WebSocketException


async def measure_rooms(
    rooms: Rooms,
    *,
    per_room: int,
    rate: float,
    seconds: float | None = None,
    events: int | None = None,
    grace: float = 5.0,
    posters: int = 8,
    settle: float = 1.0,
) -> Result:
    """Open `per_room` sockets in every room, post events round the rooms at `rate` per
    second (for `seconds`, or `events` of them), and wait up to `grace` seconds after the
    last post for every socket of its room to show each event."""
    total = events if events is not None else max(1, int(rate * (seconds or 1)))
    run = f"{os.getpid()}x{time.time_ns() % 10**9}"
    marker = re.compile(rf"bm{run}n(\d+)z")
    sockets, unopened = await open_sockets(rooms, per_room)
    await asyncio.sleep(settle)  # presence frames of the joins go by
    sent_at: dict[int, float] = {}
    room_of = {n: n % rooms.count for n in range(total)}
    arrivals: list[tuple[int, float]] = []
    errors: list[BaseException] = []

    async def listen(socket) -> None:
        seen: set[int] = set()
        with contextlib.suppress(Exception):
            async for frame in socket:
                now = time.perf_counter()
                for found in marker.finditer(frame if isinstance(frame, str) else ""):
                    number = int(found.group(1))
                    if number not in seen:
                        seen.add(number)
                        arrivals.append((number, now))

    listeners = [asyncio.create_task(listen(socket)) for _, socket in sockets]
    local = threading.local()
    host, port = "127.0.0.1", rooms.deployment.port

    def post(number: int) -> None:
        connection = getattr(local, "connection", None)
        if connection is None:
            connection = local.connection = http.client.HTTPConnection(host, port, timeout=30)
        sent_at[number] = time.perf_counter()
        try:
            rooms.post(connection, room_of[number], f"bm{run}n{number}z")
        except Exception as error:  # noqa: BLE001 - counted, the run goes on
            errors.append(error)
            sent_at.pop(number, None)
            connection.close()
            local.connection = None

    usage = Usage(rooms.deployment.pids())
    loop = asyncio.get_running_loop()
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=posters) as pool:
        pending = []
        for number in range(total):
            delay = started + number / rate - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            pending.append(loop.run_in_executor(pool, post, number))
        await asyncio.gather(*pending)
    posting_took = time.perf_counter() - started
    per_room_sockets = {room: 0 for room in range(rooms.count)}
    for room, _ in sockets:
        per_room_sockets[room] += 1
    expected = sum(per_room_sockets[room_of[number]] for number in sent_at)
    deadline = time.perf_counter() + grace
    while len(arrivals) < expected and time.perf_counter() < deadline:
        await asyncio.sleep(0.05)
    result = Result(
        sockets=len(sockets),
        unopened=unopened,
        rooms=rooms.count,
        events=total,
        post_errors=len(errors),
        expected=expected,
        delays=[at - sent_at[number] for number, at in arrivals if number in sent_at],
        posted_per_second=len(sent_at) / posting_took if posting_took else 0.0,
        usage=usage.finish(),
    )
    for task in listeners:
        task.cancel()
    await asyncio.gather(*(socket.close() for _, socket in sockets), return_exceptions=True)
    if errors:
        print(f"  first refused post: {errors[0]!r}")
    return result


def request_latencies(
    port: int, send, *, clients: int, requests: int, pids: list[int]
) -> tuple[list[float], dict[str, float]]:
    """`requests` calls of `send(connection, n)` shared among `clients` keep-alive clients
    that each wait for an answer before the next request: every call's latency, and the
    servers' CPU over the run."""
    latencies: list[float] = []
    counter = iter(range(requests))
    lock = threading.Lock()
    failures: list[BaseException] = []

    def client() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        try:
            while True:
                with lock:
                    number = next(counter, None)
                if number is None:
                    return
                began = time.perf_counter()
                send(connection, number)
                took = time.perf_counter() - began
                with lock:
                    latencies.append(took)
        except BaseException as error:  # noqa: BLE001 - reported below
            failures.append(error)
        finally:
            connection.close()

    usage = Usage(pids)
    threads = [threading.Thread(target=client) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise failures[0]
    return latencies, usage.finish()


def latency_line(label: str, latencies: list[float], usage: dict[str, float]) -> str:
    return (
        f"{label:<44} p50 {statistics.median(latencies) * 1000:7.1f} ms"
        f"  p99 {percentile(latencies, 0.99) * 1000:7.1f} ms  (n={len(latencies)})"
        f"  server CPU {usage['server_cpu_percent']:5.0f}%"
        f"  machine {usage['machine_busy_percent']:3.0f}%"
    )


def get(path: str, cookie: str):
    """A `send` for request_latencies: GET `path` signed in with `cookie`."""

    def send(connection, _number: int) -> None:
        _request(connection, "GET", path, None, {"Cookie": cookie})

    return send


def post_form(path_for, cookie: str, fields: dict | None = None):
    """A `send` for request_latencies: an htmx POST to `path_for(n)` with CSRF."""

    def send(connection, number: int) -> None:
        _request(
            connection,
            "POST",
            path_for(number),
            fields or {},
            {"Cookie": f"{cookie}; csrftoken={CSRF}", "X-CSRFToken": CSRF, "HX-Request": "true"},
        )

    return send


async def join_storm(rooms: Rooms, sockets: int, *, grace: float = 30.0) -> tuple[float, int, int]:
    """`sockets` websockets joining room 0 all at once; one line is posted as soon as all
    are open. Returns the seconds from the first connect until every socket showed the line
    (its joins' traffic, queued before it, gone through), how many sockets were refused,
    and how many never showed the line within `grace` seconds."""
    run = f"{os.getpid()}j{time.time_ns() % 10**9}"
    text = f"bm{run}n0z"
    started = time.perf_counter()
    first_room = dataclasses.replace(rooms, count=1)
    opened, unopened = await open_sockets(first_room, sockets, at_once=sockets)
    arrived: list[float] = []

    async def listen(socket) -> None:
        with contextlib.suppress(Exception):
            async for frame in socket:
                if isinstance(frame, str) and text in frame:
                    arrived.append(time.perf_counter())
                    return

    listeners = [asyncio.create_task(listen(socket)) for _, socket in opened]

    def post() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", rooms.deployment.port, timeout=30)
        try:
            rooms.post(connection, 0, text)
        finally:
            connection.close()

    await asyncio.get_running_loop().run_in_executor(None, post)
    deadline = time.perf_counter() + grace
    while len(arrived) < len(opened) and time.perf_counter() < deadline:
        await asyncio.sleep(0.02)
    settled = (max(arrived) if arrived else time.perf_counter()) - started
    for task in listeners:
        task.cancel()
    await asyncio.gather(*(socket.close() for _, socket in opened), return_exceptions=True)
    return settled, unopened, len(opened) - len(arrived)
