"""The project's SQLite backend: connections that start each use clean, and the in-process
queue for write transactions.

These tests open their own database file through the backend, so they run the same on the
embedded default and on the PostgreSQL pass.
"""

from __future__ import annotations

import threading
import time

import pytest
from django.db import OperationalError
from django.db.utils import ConnectionHandler

from config.sqlite_backend.base import write_lock


@pytest.fixture
def make_wrapper(tmp_path, django_db_blocker):
    """Wrappers on one temporary database file, as settings.py configures SQLite."""
    name = str(tmp_path / "queued.sqlite3")
    made = []
    django_db_blocker.unblock()

    def make(timeout=20):
        handler = ConnectionHandler(
            {
                "default": {
                    "ENGINE": "config.sqlite_backend",
                    "NAME": name,
                    "CONN_MAX_AGE": None,
                    "OPTIONS": {
                        "timeout": timeout,
                        "transaction_mode": "IMMEDIATE",
                        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
                    },
                }
            }
        )
        wrapper = handler["default"]
        made.append(wrapper)
        return wrapper

    yield make
    for wrapper in made:
        wrapper.inc_thread_sharing()
        wrapper.close()
    django_db_blocker.restore()


def _begin(wrapper):
    # What transaction.atomic() does on SQLite for the outermost block.
    wrapper.ensure_connection()
    wrapper._start_transaction_under_autocommit()


def test_commit_rollback_and_close_each_let_the_next_writer_in(make_wrapper):
    wrapper = make_wrapper()
    lock = write_lock(wrapper.settings_dict["NAME"])
    for finish in (wrapper.commit, wrapper.rollback, wrapper.close):
        _begin(wrapper)
        assert lock.locked()
        finish()
        assert not lock.locked()


def test_a_second_writer_goes_in_as_soon_as_the_first_commits(make_wrapper):
    """The waiting writer queues on the lock, not on SQLite's sleeping retry loop."""
    events = []
    first_began = threading.Event()
    release_first = threading.Event()

    def first_writer():
        wrapper = make_wrapper()
        _begin(wrapper)
        first_began.set()
        release_first.wait(5)
        events.append(("first commits", time.monotonic()))
        wrapper.commit()

    def second_writer():
        wrapper = make_wrapper()
        first_began.wait(5)
        _begin(wrapper)
        events.append(("second began", time.monotonic()))
        wrapper.commit()

    threads = [threading.Thread(target=first_writer), threading.Thread(target=second_writer)]
    for thread in threads:
        thread.start()
    first_began.wait(5)
    # By now the second writer waits; SQLite alone would be retrying every 100 ms.
    time.sleep(0.5)
    assert [name for name, _ in events] == []
    release_first.set()
    for thread in threads:
        thread.join(10)

    assert [name for name, _ in events] == ["first commits", "second began"]
    assert events[1][1] - events[0][1] < 0.03


def test_a_writer_that_waits_too_long_is_refused_and_holds_nothing(make_wrapper):
    holder = make_wrapper()
    _begin(holder)
    refused = []

    def impatient_writer():
        wrapper = make_wrapper(timeout=0.2)
        try:
            _begin(wrapper)
        except OperationalError as error:
            refused.append(str(error))
            assert not wrapper._holds_write_lock

    thread = threading.Thread(target=impatient_writer)
    thread.start()
    thread.join(5)
    holder.commit()

    assert refused == ["database is locked"]
    assert not write_lock(holder.settings_dict["NAME"]).locked()


def _notes(wrapper, count):
    with wrapper.cursor() as cursor:
        cursor.execute("CREATE TABLE note (text TEXT)")
        cursor.executemany("INSERT INTO note VALUES (%s)", [(f"note {n}",) for n in range(count)])


def _count_notes(wrapper):
    with wrapper.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM note")
        return cursor.fetchone()[0]


def test_a_cursor_left_open_keeps_an_old_snapshot_until_the_use_ends(make_wrapper):
    reader, writer = make_wrapper(), make_wrapper()
    _notes(writer, 3)
    # A use of the connection reads one row of several and never closes its cursor.
    left_open = reader.cursor()
    left_open.execute("SELECT text FROM note")
    left_open.fetchone()
    with writer.cursor() as cursor:
        cursor.execute("INSERT INTO note VALUES ('committed by another connection')")

    # Within the same use the read is stale: this is what a kept connection must not carry.
    assert _count_notes(reader) == 3
    reader.close_if_unusable_or_obsolete()  # the end of a request, or of a websocket message
    assert _count_notes(reader) == 4
    assert reader.connection is not None  # kept for the next use


def test_a_transaction_left_open_is_rolled_back_and_frees_the_writers(make_wrapper):
    wrapper = make_wrapper()
    _notes(wrapper, 1)
    _begin(wrapper)
    with wrapper.cursor() as cursor:
        cursor.execute("INSERT INTO note VALUES ('never committed')")

    wrapper.close_if_unusable_or_obsolete()

    assert not wrapper.connection.in_transaction
    assert not write_lock(wrapper.settings_dict["NAME"]).locked()
    assert _count_notes(make_wrapper()) == 1


def test_a_connection_inside_an_atomic_block_is_left_alone(make_wrapper):
    wrapper = make_wrapper()
    _notes(wrapper, 1)
    _begin(wrapper)
    wrapper.in_atomic_block = True  # as transaction.atomic() marks it
    with wrapper.cursor() as cursor:
        cursor.execute("INSERT INTO note VALUES ('still being written')")

    wrapper.close_if_unusable_or_obsolete()

    assert wrapper.connection.in_transaction
    wrapper.in_atomic_block = False
    wrapper.commit()
    assert _count_notes(wrapper) == 2


def test_a_write_transaction_begins_on_the_driver_and_holds_the_file(make_wrapper):
    wrapper, other = make_wrapper(), make_wrapper(timeout=0.05)
    _begin(wrapper)

    assert wrapper.connection.in_transaction
    # IMMEDIATE: the file's write lock is taken at BEGIN, not at the first write. Another
    # process's connection (here one that bypasses the in-process queue) is refused at once.
    other.ensure_connection()
    with pytest.raises(other.Database.OperationalError, match="locked"):
        other.connection.execute("BEGIN IMMEDIATE")
    wrapper.rollback()


def test_a_begin_is_seen_where_queries_are_watched(make_wrapper):
    from django.test.utils import CaptureQueriesContext

    wrapper = make_wrapper()
    with CaptureQueriesContext(wrapper) as queries:
        _begin(wrapper)
        wrapper.rollback()
    assert [query["sql"] for query in queries.captured_queries][:1] == ["BEGIN IMMEDIATE"]
