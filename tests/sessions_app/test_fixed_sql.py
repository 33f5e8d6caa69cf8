"""Fixed statements run on SQLite's own cursor, yet stay visible to whatever watches Django's."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, connections, transaction
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext

from sessions_app import fixed_sql
from sessions_app.fixed_sql import fetch_rows, resolved
from sessions_app.models import GameSession

pytestmark = pytest.mark.django_db


def _session_update(session_id: int) -> list[tuple]:
    return fetch_rows(
        connection,
        "UPDATE sessions_app_gamesession SET last_seq = last_seq + 1 WHERE id = %s "
        "RETURNING last_seq",
        [session_id],
    )


def test_a_statement_returns_its_rows(session):
    before = GameSession.objects.get(pk=session.pk).last_seq

    assert _session_update(session.pk) == [(before + 1,)]
    assert GameSession.objects.get(pk=session.pk).last_seq == before + 1


def test_a_statement_without_rows_returns_an_empty_list(session):
    sql = "UPDATE sessions_app_gamesession SET title = %s WHERE id = %s"

    assert fetch_rows(connection, sql, ["Renamed", session.pk]) == []
    assert GameSession.objects.get(pk=session.pk).title == "Renamed"


def test_on_sqlite_unwatched_statements_skip_django_s_cursor(session):
    sql = "SELECT '100%%' || %s"

    assert fetch_rows(connection, sql, [" sure"]) == [("100% sure",)]
    # The placeholders were rewritten once, for the driver's own cursor.
    assert (sql in fixed_sql._qmark_sql) == (connection.vendor == "sqlite")


def test_captured_queries_include_the_statement(session):
    with CaptureQueriesContext(connection) as captured:
        _session_update(session.pk)

    assert [query["sql"] for query in captured.captured_queries if "last_seq" in query["sql"]]


def test_an_execute_wrapper_sees_the_statement(session):
    seen = []

    def wrapper(execute, sql, params, many, context):
        seen.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(wrapper):
        _session_update(session.pk)

    assert len(seen) == 1 and "last_seq" in seen[0]


def test_database_errors_are_django_s(session):
    sql = "INSERT INTO sessions_app_gamesession (id) VALUES (%s)"

    with pytest.raises(IntegrityError), transaction.atomic():
        fetch_rows(connection, sql, [session.pk])


def test_a_transaction_that_must_roll_back_refuses_more_statements(session):
    with transaction.atomic():
        transaction.set_rollback(True)
        with pytest.raises(TransactionManagementError):
            _session_update(session.pk)


def test_resolved_gives_the_thread_s_connection_for_the_proxy_and_keeps_a_real_one():
    assert resolved(connection) is connections["default"]
    assert resolved(connections["default"]) is connections["default"]
