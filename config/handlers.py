"""The HTTP handler: Django's ASGI handler, with its middleware run as one synchronous chain
on worker threads that are kept from one request to the next.

Django runs an async-capable middleware in async mode whenever the handler is async, and
then calls each of its request and response hooks through a thread hop of its own. One
synchronous middleware in the list (WhiteNoise) splits the chain, so a request went back and
forth between the event loop and its thread a dozen times, more than the work of a small
view. Run synchronously, the whole chain and the view make one hop: the event loop keeps
the sockets, the request's thread does the rest, as under WSGI.

Django also starts a thread for each request (and another to join it afterwards). The
threads here are kept and handed to the next request instead, the way a WSGI server keeps
its workers; each request still has a thread to itself for as long as it runs. Database
connections belong to threads, so a kept thread keeps its connection too (CONN_MAX_AGE),
which under Django's own handler never outlives its request.

On SQLite, requests that may write (any method but GET, HEAD, OPTIONS and TRACE) take turns
on one thread of their own. SQLite lets one writer in at a time, and the GIL one thread of
Python, so little runs later than it would have; what goes away is the cost of writers side
by side in one process. Each statement of a write transaction lets go of the GIL, and a
second writer's thread took it every time, so one roll paid for a dozen hand-overs; and
SQLite drops a connection's page cache whenever another connection has committed, so each
writer read its pages afresh. With four clients rolling at once this cost a third more
processor time per roll than one client did. A request waits for its turn for at most
`WRITER_WAIT_SECONDS`, then runs on a thread of its own as before: one slow request (a
password being hashed) holds the others up by no more than that.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.db import connections

IDLE_THREADS_KEPT = 16
WRITER_WAIT_SECONDS = 0.05
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})

_after_view = threading.local()


def start_on_loop_after_view(callback: Callable[..., object], *args) -> bool:
    """Have the event loop call `callback(*args)` once this request's view returns.

    For work a view only needs started, such as announcing a committed event to the room:
    the loop starts it in the same turn in which it takes the response back, where handing
    it over from the thread at once would wake the loop and chain futures a second time.
    Returns False outside a request of this handler (a websocket consumer, a command): the
    caller then hands the work over itself.
    """
    queued = getattr(_after_view, "queued", None)
    if queued is None:
        return False
    queued.append((callback, args))
    return True


class WorkerThreads:
    """Single-thread executors, one per running request, reused when the request is done.

    Only the event loop's thread takes and gives back, so a plain list is enough.
    """

    def __init__(self, keep: int = IDLE_THREADS_KEPT):
        self.keep = keep
        self._idle: list[ThreadPoolExecutor] = []

    def take(self) -> ThreadPoolExecutor:
        if self._idle:
            return self._idle.pop()
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix="http-request")

    def give_back(self, executor: ThreadPoolExecutor) -> None:
        if len(self._idle) < self.keep:
            self._idle.append(executor)
        else:
            # The thread's database connections are its own (kept between requests): close
            # them in the thread before it ends, rather than leave them to the collector.
            executor.submit(connections.close_all)
            executor.shutdown(wait=False)

    @property
    def idle_count(self) -> int:
        return len(self._idle)


class WriterThread:
    """One thread for the requests that may write, taken by one request at a time.

    Only the event loop's thread takes and gives back.
    """

    def __init__(self, wait: float = WRITER_WAIT_SECONDS):
        self.wait = wait
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="http-writer")
        self._turn = asyncio.Lock()

    async def take(self) -> bool:
        """Wait for the thread for at most `wait` seconds; False when it stayed busy."""
        if not self._turn.locked():
            await self._turn.acquire()  # free: taken at once, without arming a timeout
            return True
        try:
            async with asyncio.timeout(self.wait):
                await self._turn.acquire()
        except TimeoutError:
            return False
        return True

    def give_back(self) -> None:
        self._turn.release()


class SyncChainASGIHandler(ASGIHandler):
    def __init__(self, *, one_writer: bool | None = None):
        super().__init__()
        self.worker_threads = WorkerThreads()
        if one_writer is None:
            one_writer = connections["default"].vendor == "sqlite"
        self.writer_thread = WriterThread() if one_writer else None

    def load_middleware(self, is_async=False):
        super().load_middleware(is_async=False)
        sync_chain = self._middleware_chain

        def chain_in_thread(request, queued: list):
            _after_view.queued = queued
            try:
                return sync_chain(request)
            finally:
                _after_view.queued = None

        run_chain = sync_to_async(chain_in_thread, thread_sensitive=True)

        async def middleware_chain(request):
            queued: list = []
            try:
                return await run_chain(request, queued)
            finally:
                for callback, args in queued:
                    callback(*args)

        self._middleware_chain = middleware_chain

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        writer = self.writer_thread
        if writer is not None and scope["method"] not in SAFE_METHODS and await writer.take():
            executor, give_back = writer.executor, writer.give_back
        else:
            executor = self.worker_threads.take()
            give_back = partial(self.worker_threads.give_back, executor)
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.handle(scope, receive, send)
        finally:
            give_back()
