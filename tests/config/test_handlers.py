"""The HTTP handler runs the middleware as one synchronous chain: one thread hop a request."""

from __future__ import annotations

import contextlib

import pytest
from asgiref.sync import SyncToAsync, sync_to_async
from asgiref.testing import ApplicationCommunicator
from django.conf import settings
from django.core.handlers.asgi import ASGIHandler
from django.test import Client

from config.handlers import SyncChainASGIHandler, WriterThread

CSRF = "c" * 32


async def _request(app, path: str, *, method="GET", cookies: dict | None = None, body=b""):
    cookie_header = "; ".join(f"{name}={value}" for name, value in (cookies or {}).items())
    headers = [(b"host", b"testserver"), (b"cookie", cookie_header.encode())]
    if method == "POST":
        headers += [
            (b"x-csrftoken", CSRF.encode()),
            (b"hx-request", b"true"),
            (b"content-type", b"application/x-www-form-urlencoded"),
        ]
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }
    communicator = ApplicationCommunicator(app, scope)
    await communicator.send_input({"type": "http.request", "body": body, "more_body": False})
    start = await communicator.receive_output(10)
    content = b""
    while True:
        message = await communicator.receive_output(10)
        content += message.get("body", b"")
        if not message.get("more_body"):
            break
    await communicator.wait(10)
    return start["status"], content


@pytest.fixture
def hops(monkeypatch):
    """Count the calls from the event loop into a worker thread."""
    counted = []
    original = SyncToAsync.__call__

    async def counting(self, *args, **kwargs):
        counted.append(self.func)
        return await original(self, *args, **kwargs)

    monkeypatch.setattr(SyncToAsync, "__call__", counting)
    return counted


@pytest.mark.asyncio
async def test_a_request_crosses_into_its_thread_once_for_the_whole_chain(hops):
    status, content = await _request(SyncChainASGIHandler(), "/ok/")

    assert (status, content) == (200, b"ok")
    # The request_started signal, the middleware chain with the view, the response's close.
    assert len(hops) == 3


@pytest.mark.asyncio
async def test_django_s_own_handler_crosses_far_more_often(hops):
    # The yardstick for the test above: if Django ran this list as one chain by itself,
    # the project's handler would have no reason to exist.
    status, _ = await _request(ASGIHandler(), "/ok/")

    assert status == 200
    assert len(hops) > 2 * 3


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_signed_in_roll_goes_through_sessions_csrf_and_the_view(session, player, gm):
    from sessions_app.models import Roll
    from sessions_app.services import checks
    from tests.factories import CharacterFactory

    def prepare():
        pc = CharacterFactory(
            table=session.table, owner=player, name="Aki", judgement_values={"Strength": 4}
        )
        session.characters.add(pc)
        check = checks.check_request(
            session=session, by=gm, character=pc, label="climb", value_name="Strength"
        )
        client = Client()
        client.force_login(player)
        return check.pk, client.cookies[settings.SESSION_COOKIE_NAME].value

    check_id, session_cookie = await sync_to_async(prepare)()
    cookies = {settings.SESSION_COOKIE_NAME: session_cookie, settings.CSRF_COOKIE_NAME: CSRF}
    url = f"/sessions/{session.pk}/checks/{check_id}/roll/"

    status, content = await _request(SyncChainASGIHandler(), url, method="POST", cookies=cookies)
    refused, _ = await _request(SyncChainASGIHandler(), url, method="POST", cookies={})

    assert status == 200
    assert b"Rolled" in content
    assert await Roll.objects.filter(request_id=check_id).acount() == 1
    assert refused == 403  # no CSRF cookie: refused before the view


@pytest.fixture
def request_threads():
    """The thread each request's synchronous part runs on (request_started runs there)."""
    import threading

    from django.core.signals import request_started

    seen = []

    def record(**kwargs):
        seen.append(threading.get_ident())

    request_started.connect(record, dispatch_uid="test-request-thread")
    yield seen
    request_started.disconnect(dispatch_uid="test-request-thread")


@pytest.mark.asyncio
async def test_a_request_s_thread_serves_the_next_request(request_threads):
    handler = SyncChainASGIHandler()

    for _ in range(3):
        status, _ = await _request(handler, "/ok/")
        assert status == 200

    assert len(set(request_threads)) == 1
    assert handler.worker_threads.idle_count == 1


@pytest.mark.asyncio
async def test_requests_running_together_each_have_a_thread(request_threads):
    import asyncio

    handler = SyncChainASGIHandler()

    results = await asyncio.gather(*[_request(handler, "/ok/") for _ in range(3)])

    assert [status for status, _ in results] == [200, 200, 200]
    assert len(set(request_threads)) == 3
    assert handler.worker_threads.idle_count == 3


def test_idle_threads_beyond_the_limit_are_let_go():
    from config.handlers import WorkerThreads

    threads = WorkerThreads(keep=2)
    executors = [threads.take() for _ in range(3)]
    for executor in executors:
        threads.give_back(executor)

    assert threads.idle_count == 2
    with pytest.raises(RuntimeError):
        executors[2].submit(print)  # shut down


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_request_thread_keeps_its_database_connection_when_connections_persist():
    import threading

    from django.core.signals import request_started
    from django.db import connections

    raw_connections = []

    def record(**kwargs):
        # request_started runs on the request's thread, after Django's own receiver.
        wrapper = connections["default"]
        wrapper.ensure_connection()
        # Kept referenced, so that no two connections in the list can share an id.
        raw_connections.append((threading.get_ident(), wrapper.connection))

    request_started.connect(record, dispatch_uid="test-request-connection")
    try:
        handler = SyncChainASGIHandler()
        for _ in range(3):
            status, _ = await _request(handler, "/ok/")
            assert status == 200
    finally:
        request_started.disconnect(dispatch_uid="test-request-connection")

    assert len({thread for thread, _ in raw_connections}) == 1
    kept = settings.DATABASES["default"]["CONN_MAX_AGE"] != 0
    # Persistent (the embedded default): one connection; CONN_MAX_AGE=0: one per request.
    assert len({id(raw) for _, raw in raw_connections}) == (1 if kept else 3)


@pytest.mark.django_db(transaction=True)
def test_a_thread_let_go_closes_its_database_connections_first():
    from django.db import connections

    from config.handlers import WorkerThreads

    threads = WorkerThreads(keep=0)
    executor = threads.take()

    def open_connection():
        wrapper = connections["default"]
        wrapper.ensure_connection()
        return wrapper

    wrapper = executor.submit(open_connection).result(10)
    assert wrapper.connection is not None
    threads.give_back(executor)
    executor.shutdown(wait=True)

    assert wrapper.connection is None


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_view_s_announcement_is_started_by_the_loop_with_its_response(
    session, player, gm, monkeypatch
):
    import asyncio

    from channels.layers import get_channel_layer

    from sessions_app.services import timeline

    def prepare():
        client = Client()
        client.force_login(player)
        return client.cookies[settings.SESSION_COOKIE_NAME].value

    session_cookie = await sync_to_async(prepare)()
    cookies = {settings.SESSION_COOKIE_NAME: session_cookie, settings.CSRF_COOKIE_NAME: CSRF}
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(f"session.{session.pk}", channel)

    def no_hand_over_from_the_thread(*args, **kwargs):
        raise AssertionError("the view's thread handed the send to the loop itself")

    monkeypatch.setattr(asyncio, "run_coroutine_threadsafe", no_hand_over_from_the_thread)
    status, _ = await _request(
        SyncChainASGIHandler(),
        f"/sessions/{session.pk}/chat/",
        method="POST",
        cookies=cookies,
        body=b"text=hello+table",
    )
    message = await asyncio.wait_for(layer.receive(channel), 5)

    assert status == 200
    last = await sync_to_async(lambda: session.events.order_by("seq").last())()
    assert message == {"type": "timeline.event", "event_id": last.pk, "seq": last.seq}
    assert last.payload["text"] == "hello table"
    assert timeline.start_on_loop_after_view(print) is False  # outside a request


def _writer_ident(handler) -> int:
    return handler.writer_thread.ident


_POST_COOKIES = {settings.CSRF_COOKIE_NAME: CSRF}


async def _three_writes_at_once(handler) -> list[int]:
    import asyncio

    results = await asyncio.gather(
        *[_request(handler, "/ok/", method="POST", cookies=_POST_COOKIES) for _ in range(3)]
    )
    return [status for status, _ in results]


@contextlib.contextmanager
def _held(writer: WriterThread):
    """Keep the writer thread busy, as a long write would, until the block ends."""
    import threading

    started, release = threading.Event(), threading.Event()

    def hold():
        started.set()
        release.wait(10)

    writer.submit(hold)
    assert started.wait(10)
    try:
        yield
    finally:
        release.set()


@pytest.mark.asyncio
async def test_requests_that_may_write_take_turns_on_one_thread(request_threads):
    handler = SyncChainASGIHandler(one_writer=True)

    assert await _three_writes_at_once(handler) == [200, 200, 200]
    assert set(request_threads) == {_writer_ident(handler)}
    assert handler.worker_threads.idle_count == 0


@pytest.mark.asyncio
async def test_reads_do_not_queue_for_the_writer_thread(request_threads):
    handler = SyncChainASGIHandler(one_writer=True)
    with _held(handler.writer_thread):
        status, _ = await _request(handler, "/ok/")

    assert status == 200
    assert request_threads and _writer_ident(handler) not in request_threads


@pytest.mark.asyncio
async def test_a_write_waits_for_the_busy_writer_only_so_long_then_takes_a_spare_thread(
    request_threads,
):
    import time

    handler = SyncChainASGIHandler(one_writer=True)
    handler.writer_thread.wait = 0.05
    began = time.monotonic()
    with _held(handler.writer_thread):
        status, _ = await _request(handler, "/ok/", method="POST", cookies=_POST_COOKIES)
        waited = time.monotonic() - began

    assert status == 200
    assert 0.05 <= waited < 5
    assert request_threads and _writer_ident(handler) not in request_threads
    # Free again, the writer thread takes the next write.
    status, _ = await _request(handler, "/ok/", method="POST", cookies=_POST_COOKIES)
    assert status == 200
    assert request_threads[-1] == _writer_ident(handler)


@pytest.mark.asyncio
async def test_work_taken_by_a_spare_thread_is_not_run_again_by_the_writer():
    import asyncio
    import threading

    writer = WriterThread(wait=0.02)
    runs = []
    with _held(writer):
        work = writer.submit(lambda: runs.append(threading.get_ident()) or 7)
        assert await asyncio.wait_for(asyncio.wrap_future(work), 5) == 7
    await asyncio.wrap_future(writer.submit(lambda: None))  # the writer has passed it by

    assert len(runs) == 1 and runs[0] != writer.ident
    writer.shutdown()


@pytest.mark.asyncio
async def test_work_cancelled_while_it_waits_is_never_run():
    import asyncio

    writer = WriterThread(wait=10)
    runs = []
    with _held(writer):
        assert writer.submit(runs.append, "ran").cancel()
    await asyncio.wrap_future(writer.submit(lambda: None))  # the writer has passed it by

    assert runs == []
    writer.shutdown()


@pytest.mark.asyncio
async def test_an_error_in_the_work_reaches_the_caller():
    import asyncio

    writer = WriterThread()

    def fails():
        raise LookupError("no such row")

    with pytest.raises(LookupError, match="no such row"):
        await asyncio.wrap_future(writer.submit(fails))
    writer.shutdown()


@pytest.mark.asyncio
async def test_without_one_writer_each_write_has_a_thread_of_its_own(request_threads):
    handler = SyncChainASGIHandler(one_writer=False)

    assert await _three_writes_at_once(handler) == [200, 200, 200]
    assert handler.writer_thread is None
    assert len(set(request_threads)) == 3


@pytest.mark.django_db
def test_only_sqlite_has_its_writes_take_turns_on_one_thread():
    from django.db import connection

    handler = SyncChainASGIHandler()

    assert (handler.writer_thread is not None) == (connection.vendor == "sqlite")
