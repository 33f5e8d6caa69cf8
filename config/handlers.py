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
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.db import connections

IDLE_THREADS_KEPT = 16

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


class SyncChainASGIHandler(ASGIHandler):
    def __init__(self):
        super().__init__()
        self.worker_threads = WorkerThreads()

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
        executor = self.worker_threads.take()
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.handle(scope, receive, send)
        finally:
            self.worker_threads.give_back(executor)
