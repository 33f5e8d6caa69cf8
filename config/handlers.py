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

On SQLite, the work of requests that may write (any method but GET, HEAD, OPTIONS and
TRACE) goes to one thread of its own, in the order it arrives. SQLite lets one writer in at
a time, and the GIL one thread of Python, so little runs later than it would have; what
goes away is the cost of writers side by side in one process. Each statement of a write
transaction lets go of the GIL, and a second writer's thread took it every time, so one
roll paid for a dozen hand-overs; and SQLite drops a connection's page cache whenever
another connection has committed, so each writer read its pages afresh. With four clients
rolling at once this cost a third more processor time per roll than one client did.
The thread takes the work as a queue, not one request at a time: while the event loop
reads one request and sends another's answer, the thread is already running a third's
chain (taking turns a whole request at a time left it idle for those). A piece of work
waits for the thread for about `WRITER_WAIT_SECONDS` at most, then runs on a spare thread
as before: one slow request (a password being hashed) holds the others up by no more than
that.
"""

from __future__ import annotations

import asyncio
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from queue import SimpleQueue

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


class _Work:
    """A piece of work for the writer thread, run by it or by a spare thread, once."""

    __slots__ = ("args", "fn", "future", "queued_at", "spilled", "taken")

    def __init__(self, fn, args, queued_at: float):
        self.fn, self.args, self.queued_at = fn, args, queued_at
        self.future: Future = Future()
        self.taken = threading.Lock()  # held by whichever thread runs it
        self.spilled = False

    def run(self) -> None:
        if not self.taken.acquire(blocking=False) or not self.future.set_running_or_notify_cancel():
            return
        try:
            result = self.fn(*self.args)
        except BaseException as error:  # noqa: BLE001 - handed to the caller, as executors do
            self.future.set_exception(error)
        else:
            self.future.set_result(result)


class WriterThread(Executor):
    """One thread for the work of the requests that may write, in the order it arrives.

    A piece of work (a request's turn in its thread) waits for the thread for about `wait`
    seconds at most; one still waiting then runs on a spare thread instead, so a slow request
    (a password being hashed) holds the others up by no more than that. One timer watches
    the queue while it is not empty, rather than one per piece. Work is only ever handed
    over, and watched, from the event loop's thread.
    """

    def __init__(self, wait: float = WRITER_WAIT_SECONDS, spare_threads: int = IDLE_THREADS_KEPT):
        self.wait = wait
        # A thread of its own rather than a pool of one: each piece of work already carries
        # the future its caller waits on.
        self._inbox: SimpleQueue[_Work | None] = SimpleQueue()
        self._thread = threading.Thread(target=self._serve, name="http-writer", daemon=True)
        self._thread.start()
        self._spare = ThreadPoolExecutor(
            max_workers=spare_threads, thread_name_prefix="http-writer-spare"
        )
        self._queued: deque[_Work] = deque()
        self._watched_from = None  # the loop whose timer watches the queue, while it has one

    def _serve(self) -> None:
        while (work := self._inbox.get()) is not None:
            work.run()

    def submit(self, fn, /, *args) -> Future:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # handed over from a plain thread: nothing to watch it with
            work = _Work(fn, args, 0.0)
            self._inbox.put(work)
            return work.future
        work = _Work(fn, args, loop.time())
        self._queued.append(work)
        self._inbox.put(work)
        if self._watched_from is not loop:
            self._watched_from = loop
            loop.call_later(self.wait, self._watch, loop)
        return work.future

    def _watch(self, loop) -> None:
        queued, now = self._queued, loop.time()
        while queued and queued[0].taken.locked():
            queued.popleft()  # begun, on one thread or the other
        for work in queued:
            if now - work.queued_at < self.wait:
                break
            if not work.spilled:
                work.spilled = True
                self._spare.submit(work.run)  # the writer thread passes it by when it gets there
        if queued:
            loop.call_later(self.wait / 2, self._watch, loop)
        else:
            self._watched_from = None

    @property
    def ident(self) -> int | None:
        return self._thread.ident

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._inbox.put(None)
        if wait:
            self._thread.join()
        self._spare.shutdown(wait=wait, cancel_futures=cancel_futures)


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
        if self.writer_thread is not None and scope["method"] not in SAFE_METHODS:
            async with ThreadSensitiveContext(executor=self.writer_thread):
                await self.handle(scope, receive, send)
            return
        executor = self.worker_threads.take()
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.handle(scope, receive, send)
        finally:
            self.worker_threads.give_back(executor)
