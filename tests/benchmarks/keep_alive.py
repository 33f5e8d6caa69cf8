"""Keep-alive HTTP clients that load a server together, for the throughput benchmarks."""

from __future__ import annotations

import http.client
import threading
import time


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
