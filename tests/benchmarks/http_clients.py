"""The benchmarks' HTTP clients: the room's htmx form posts, and keep-alive clients that load
a server together."""

from __future__ import annotations

import http.client
import threading
import time
import urllib.parse


def keep_alive_clients(
    port: int, request, *, workers: int, seconds: float, timeout: float
) -> float:
    """Call `request(slot, connection)` in a loop from `workers` keep-alive clients of the
    server on `port` for `seconds`; return how many seconds they ran.

    The clients connect before the clock starts, and all stop at the same deadline, so two
    runs are measured alike: neither pays for connecting or starting threads, and no client
    runs on alone at the end while the others have finished. A client's error stops it and
    is raised here once all have stopped.
    """
    deadline = 0.0
    ready = threading.Barrier(workers + 1)
    failures: list[BaseException] = []

    def worker(slot: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        connection.connect()
        ready.wait()
        try:
            while time.monotonic() < deadline:
                request(slot, connection)
        except BaseException as error:  # noqa: BLE001 - reported by the measuring thread
            failures.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(slot,)) for slot in range(workers)]
    for thread in threads:
        thread.start()
    started = time.monotonic()
    deadline = started + seconds
    ready.wait()
    for thread in threads:
        thread.join()
    if failures:
        raise failures[0]
    return time.monotonic() - started


def htmx_post(connection, path: str, fields: dict, *, cookie: str, csrf: str) -> None:
    """POST `fields` to `path` as the room's htmx forms do, with the Cookie header `cookie`
    and the CSRF token `csrf`; raise unless it went through (answer_body)."""
    connection.request(
        "POST",
        path,
        body=urllib.parse.urlencode(fields),
        headers={
            "Cookie": cookie,
            "X-CSRFToken": csrf,
            "HX-Request": "true",
            "Content-Type": "application/x-www-form-urlencoded",
        },
    )
    answer_body(connection, "POST", path)


def answer_body(connection, method: str, path: str) -> bytes:
    """The body of the answer to the request just sent on `connection`; raise unless the
    request went through."""
    response = connection.getresponse()
    content = response.read()
    # A chat line or a roll that went through is answered 204, a page 200.
    if not 200 <= response.status < 300:
        raise RuntimeError(f"{method} {path} answered {response.status}")
    return content
