"""SQLite kept open between requests, with an in-process queue for write transactions.

Connections persist (settings): opening one costs more than a roll of the dice, because the
module registers its functions and pragmas and SQLite reads the schema again. A connection
that outlives its request must start the next one clean, though: in WAL mode a statement
left open (a cursor not read to the end and not closed) keeps the read snapshot it began
with, and every later read on that connection would miss what others committed since.
Wherever Django hands a connection from one use to the next (the start and end of each
request, each websocket message's database work) it calls
`close_if_unusable_or_obsolete`; here that also closes the connection's leftover cursors
and rolls back a transaction nobody finished.

Write transactions begin IMMEDIATE (settings): SQLite lets one writer in at a time and makes
the others poll with growing sleeps (1, 2, 5, 10, 15, 20, 25, 50, 100 ms...). Writers of one
process wait for each other on a lock here instead, and go in the moment it is free; other
processes on the same file still meet SQLite's own lock and timeout.
"""

from __future__ import annotations

import threading
import weakref

from django.db.backends.sqlite3 import base as sqlite3_base

_write_locks: dict[str, threading.Lock] = {}
_write_locks_guard = threading.Lock()


def write_lock(name: str) -> threading.Lock:
    with _write_locks_guard:
        return _write_locks.setdefault(name, threading.Lock())


class DatabaseWrapper(sqlite3_base.DatabaseWrapper):
    _holds_write_lock = False

    def get_new_connection(self, conn_params):
        self._open_cursors = weakref.WeakSet()
        return super().get_new_connection(conn_params)

    def create_cursor(self, name=None):
        cursor = super().create_cursor(name)
        self._open_cursors.add(cursor)
        return cursor

    def close_if_unusable_or_obsolete(self):
        super().close_if_unusable_or_obsolete()
        if self.connection is not None and not self.in_atomic_block:
            self.end_leftover_reads()

    def end_leftover_reads(self) -> None:
        """Close what a finished use left open, so the next read sees the latest commit."""
        for cursor in list(self._open_cursors):
            cursor.close()
        if self.connection.in_transaction:
            self._rollback()  # frees the write lock too

    def _start_transaction_under_autocommit(self):
        if self.transaction_mode != "IMMEDIATE" or self._holds_write_lock:
            return super()._start_transaction_under_autocommit()
        timeout = self.settings_dict["OPTIONS"].get("timeout", 5)
        if not write_lock(str(self.settings_dict["NAME"])).acquire(timeout=timeout):
            with self.wrap_database_errors:
                raise self.Database.OperationalError("database is locked")
        self._holds_write_lock = True
        try:
            self._begin()
        except BaseException:
            self._release_write_lock()
            raise

    def _begin(self) -> None:
        if self.queries_logged or self.execute_wrappers:
            super()._start_transaction_under_autocommit()  # seen where queries are watched
            return
        # Straight to the driver: every write transaction begins so, and a cursor of Django's
        # own (made, registered, wrapped, its statement rewritten) cost more than the BEGIN.
        with self.wrap_database_errors:
            self.connection.execute(f"BEGIN {self.transaction_mode}").close()

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

    def _close(self):
        try:
            return super()._close()
        finally:
            self._release_write_lock()

    def _release_write_lock(self) -> None:
        if self._holds_write_lock:
            self._holds_write_lock = False
            write_lock(str(self.settings_dict["NAME"])).release()
