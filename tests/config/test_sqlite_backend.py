"""The project's SQLite backend: the in-process queue for write transactions.

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
