"""Run a statement whose text never changes, on SQLite straight through the driver's cursor.

A roll runs five such statements (the locked read, two inserts, two updates). On SQLite
each one takes a few microseconds to run, and Django's cursor wrapper added as much again:
it rewrites the placeholders with a regular expression on every call, builds and registers
a cursor, and passes through two wrappers. Here the placeholders are rewritten once per
statement text and the statement goes to the driver's own cursor, still inside Django's
error translation (an IntegrityError is Django's, as callers expect) and still refused in a
transaction that must roll back.

Whatever watches Django's cursors still sees every statement: while queries are logged
(DEBUG, a test counting queries) or an execute wrapper is installed, the statement takes
Django's cursor. So does every statement on other databases, where the network costs far
more than the wrapper.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import connections
from django.db.backends.sqlite3.base import FORMAT_QMARK_REGEX
from django.utils.connection import ConnectionProxy

_qmark_sql: dict[str, str] = {}


def resolved(connection):
    """The thread's connection itself, where `connection` is `django.db.connection`.

    The proxy finds the thread's connection again on every attribute it is asked for.
    """
    if isinstance(connection, ConnectionProxy):
        return connections[connection.alias]
    return connection


def fetch_rows(connection, sql: str, params: Sequence) -> list[tuple]:
    """Run `sql` (with `%s` placeholders) and return all the rows it returns, if any."""
    connection = resolved(connection)
    if connection.vendor != "sqlite" or connection.queries_logged or connection.execute_wrappers:
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchall() if cursor.description else []
    native = _qmark_sql.get(sql)
    if native is None:
        # What Django's SQLite cursor does to every statement it runs.
        native = _qmark_sql[sql] = FORMAT_QMARK_REGEX.sub("?", sql).replace("%%", "%")
    connection.ensure_connection()
    connection.validate_thread_sharing()
    connection.validate_no_broken_transaction()
    with connection.wrap_database_errors:
        cursor = connection.connection.execute(native, params)
        try:
            return cursor.fetchall()
        finally:
            cursor.close()
