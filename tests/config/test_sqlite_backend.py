"""The project's SQLite backend: pooled connections and the in-process write queue.

These tests open their own database file through the backend, so they run the same on the
embedded default and on the PostgreSQL pass.
"""

from __future__ import annotations

import threading
import time

import pytest
from django.db import OperationalError
from django.db.utils import ConnectionHandler

from config.sqlite_backend.base import IDLE_CONNECTIONS_KEPT, pool, write_lock


@pytest.fixture
def make_wrapper(tmp_path, django_db_blocker):
    """Wrappers on one temporary database file, as settings.py configures SQLite."""
    name = str(tmp_path / "pooled.sqlite3")
    made = []
    django_db_blocker.unblock()

    def make(timeout=20):
        handler = ConnectionHandler(
            {
                "default": {
                    "ENGINE": "config.sqlite_backend",
                    "NAME": name,
                    "CONN_MAX_AGE": 0,
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
    pool.discard(name)
    django_db_blocker.restore()


def _begin(wrapper):
    # What transaction.atomic() does on SQLite for the outermost block.
    wrapper.ensure_connection()
    wrapper._start_transaction_under_autocommit()


def test_a_closed_connection_is_handed_to_the_next_request(make_wrapper):
    first = make_wrapper()
    first.ensure_connection()
    raw = first.connection
    first.close()
    assert pool.idle_count(first.settings_dict["NAME"]) == 1

    second = make_wrapper()
    second.ensure_connection()
    assert second.connection is raw
    assert pool.idle_count(first.settings_dict["NAME"]) == 0


def test_a_returned_connection_keeps_the_pragmas(make_wrapper):
    first = make_wrapper()
    first.ensure_connection()
    first.close()
    second = make_wrapper()
    with second.cursor() as cursor:
        cursor.execute("PRAGMA foreign_keys")
        assert cursor.fetchone() == (1,)
        cursor.execute("PRAGMA journal_mode")
        assert cursor.fetchone() == ("wal",)


def test_an_open_transaction_is_rolled_back_before_reuse(make_wrapper):
    wrapper = make_wrapper()
    with wrapper.cursor() as cursor:
        cursor.execute("CREATE TABLE note (text TEXT)")
    _begin(wrapper)
    with wrapper.cursor() as cursor:
        cursor.execute("INSERT INTO note VALUES ('never committed')")
    wrapper.close()

    reused = make_wrapper()
    reused.ensure_connection()
    assert not reused.connection.in_transaction
    with reused.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM note")
        assert cursor.fetchone() == (0,)


def test_a_connection_closed_inside_an_atomic_block_is_not_pooled(make_wrapper):
    wrapper = make_wrapper()
    _begin(wrapper)
    wrapper.in_atomic_block = True  # as transaction.atomic() marks it
    wrapper.close()

    assert pool.idle_count(wrapper.settings_dict["NAME"]) == 0
    assert wrapper.closed_in_transaction
    assert not write_lock(wrapper.settings_dict["NAME"]).locked()


def test_the_pool_keeps_a_bounded_number_of_idle_connections(make_wrapper):
    wrappers = [make_wrapper() for _ in range(IDLE_CONNECTIONS_KEPT + 3)]
    for wrapper in wrappers:
        wrapper.ensure_connection()
    raws = [wrapper.connection for wrapper in wrappers]
    for wrapper in wrappers:
        wrapper.close()

    assert pool.idle_count(wrappers[0].settings_dict["NAME"]) == IDLE_CONNECTIONS_KEPT
    closed = 0
    for raw in raws:
        try:
            raw.execute("SELECT 1")
        except Exception:  # noqa: BLE001 - sqlite3.ProgrammingError on a closed connection
            closed += 1
    assert closed == 3


def test_discard_closes_the_idle_connections_of_a_file(make_wrapper):
    wrapper = make_wrapper()
    wrapper.ensure_connection()
    raw = wrapper.connection
    wrapper.close()

    pool.discard(wrapper.settings_dict["NAME"])

    assert pool.idle_count(wrapper.settings_dict["NAME"]) == 0
    with pytest.raises(Exception, match="closed"):
        raw.execute("SELECT 1")


def test_destroying_a_test_database_forgets_its_pooled_connections(make_wrapper, tmp_path):
    wrapper = make_wrapper()
    wrapper.ensure_connection()
    wrapper.close()
    name = wrapper.settings_dict["NAME"]

    wrapper.creation._destroy_test_db(name, verbosity=0)

    assert pool.idle_count(name) == 0
    assert not (tmp_path / "pooled.sqlite3").exists()


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
