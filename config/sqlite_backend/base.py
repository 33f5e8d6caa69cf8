"""SQLite with pooled connections and an in-process queue for write transactions.

Under ASGI every request runs in a context of its own, so Django opens a new connection for
each one (persistent connections cannot outlive the request there). For SQLite that costs
more than a whole roll of the dice: the module registers its functions and pragmas on every
open. Closed connections are kept here instead and handed to the next request.

Write transactions begin IMMEDIATE (settings): SQLite lets one writer in at a time and makes
the others poll with growing sleeps (1, 2, 5, 10, 15, 20, 25, 50, 100 ms...). Writers of one
process wait for each other on a lock here instead, and go in the moment it is free; other
processes on the same file still meet SQLite's own lock and timeout.
"""

from __future__ import annotations

import threading

from django.db.backends.sqlite3 import base as sqlite3_base
from django.db.backends.sqlite3.creation import DatabaseCreation as SQLiteDatabaseCreation

IDLE_CONNECTIONS_KEPT = 8


class ConnectionPool:
    """Idle connections per database file, most recently used first."""

    def __init__(self, keep: int = IDLE_CONNECTIONS_KEPT):
        self.keep = keep
        self._idle: dict[str, list] = {}
        self._lock = threading.Lock()

    def take(self, name: str):
        with self._lock:
            idle = self._idle.get(name)
            return idle.pop() if idle else None

    def give_back(self, name: str, raw_connection) -> bool:
        """Keep a connection for reuse; False when the pool is full (the caller closes it)."""
        with self._lock:
            idle = self._idle.setdefault(name, [])
            if len(idle) >= self.keep:
                return False
            idle.append(raw_connection)
            return True

    def discard(self, name: str) -> None:
        """Close every idle connection to a file that is about to be deleted or replaced."""
        with self._lock:
            idle = self._idle.pop(name, [])
        for raw_connection in idle:
            raw_connection.close()

    def idle_count(self, name: str) -> int:
        with self._lock:
            return len(self._idle.get(name, []))


pool = ConnectionPool()
_write_locks: dict[str, threading.Lock] = {}
_write_locks_guard = threading.Lock()


def write_lock(name: str) -> threading.Lock:
    with _write_locks_guard:
        return _write_locks.setdefault(name, threading.Lock())


class DatabaseCreation(SQLiteDatabaseCreation):
    # A pooled connection to a deleted test database would go on writing to the unlinked
    # file while a new one of the same name is created.
    def _create_test_db(self, verbosity, autoclobber, keepdb=False):
        pool.discard(self._get_test_db_name())
        return super()._create_test_db(verbosity, autoclobber, keepdb)

    def _destroy_test_db(self, test_database_name, verbosity):
        pool.discard(test_database_name)
        return super()._destroy_test_db(test_database_name, verbosity)


class DatabaseWrapper(sqlite3_base.DatabaseWrapper):
    creation_class = DatabaseCreation
    _holds_write_lock = False

    def _pool_name(self) -> str | None:
        name = str(self.settings_dict["NAME"])
        return None if self.is_in_memory_db() else name

    def get_new_connection(self, conn_params):
        name = self._pool_name()
        raw_connection = pool.take(name) if name else None
        if raw_connection is not None:
            return raw_connection
        return super().get_new_connection(conn_params)

    def _close(self):
        if self.connection is None:
            return None
        raw_connection, name = self.connection, self._pool_name()
        try:
            if raw_connection.in_transaction:
                raw_connection.rollback()
        finally:
            self._release_write_lock()
        # A wrapper closed inside an atomic block keeps its connection (Django marks it
        # unusable instead of forgetting it): only a connection nobody holds goes back.
        if name and not self.in_atomic_block and pool.give_back(name, raw_connection):
            return None
        return super()._close()

    def _start_transaction_under_autocommit(self):
        if self.transaction_mode != "IMMEDIATE" or self._holds_write_lock:
            return super()._start_transaction_under_autocommit()
        timeout = self.settings_dict["OPTIONS"].get("timeout", 5)
        if not write_lock(str(self.settings_dict["NAME"])).acquire(timeout=timeout):
            with self.wrap_database_errors:
                raise self.Database.OperationalError("database is locked")
        self._holds_write_lock = True
        try:
            return super()._start_transaction_under_autocommit()
        except BaseException:
            self._release_write_lock()
            raise

    def _commit(self):
        try:
            return super()._commit()
        finally:
            self._release_write_lock()

    def _rollback(self):
        try:
            return super()._rollback()
        finally:
            self._release_write_lock()

    def _release_write_lock(self) -> None:
        if self._holds_write_lock:
            self._holds_write_lock = False
            write_lock(str(self.settings_dict["NAME"])).release()
