"""Append-only rows inserted with a statement compiled once per model."""

from __future__ import annotations

import datetime

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.models import signals
from django.db.models.functions import Now
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from sessions_app.inserts import row_insert
from sessions_app.models import TimelineEvent

pytestmark = pytest.mark.django_db


def _event_fields(event: TimelineEvent) -> dict:
    return {
        "session_id": event.session_id,
        "seq": event.seq,
        "kind": event.kind,
        "actor_id": event.actor_id,
        "payload": event.payload,
        "visibility": event.visibility,
        "created_at": event.created_at,
    }


def test_the_row_equals_what_save_writes(session, gm, monkeypatch):
    fast = TimelineEvent.objects.create(
        session=session, seq=1, kind="chat", actor=gm, payload={"text": "鍵", "n": [1, 2]}
    )
    # The same values through Django's own save().
    monkeypatch.setattr("sessions_app.models.row_insert", lambda instance, using: False)
    saved = TimelineEvent.objects.create(
        session=session,
        seq=2,
        kind="chat",
        actor=gm,
        payload={"text": "鍵", "n": [1, 2]},
        created_at=fast.created_at,
    )

    fast_row = TimelineEvent.objects.get(pk=fast.pk)
    saved_row = TimelineEvent.objects.get(pk=saved.pk)
    assert {**_event_fields(fast_row), "seq": 0} == {**_event_fields(saved_row), "seq": 0}
    assert fast.pk != saved.pk
    assert _event_fields(fast_row) == _event_fields(fast)
    assert not fast._state.adding
    assert fast._state.db == "default"


def test_one_statement_and_no_save(session, gm, monkeypatch):
    def no_save(*args, **kwargs):
        raise AssertionError("the fast path does not call save()")

    monkeypatch.setattr(TimelineEvent, "save", no_save)
    with CaptureQueriesContext(connection) as queries:
        event = TimelineEvent.objects.create(session=session, seq=1, kind="chat", actor=gm)

    inserts = [query["sql"] for query in queries.captured_queries]
    assert len(inserts) == 1
    assert inserts[0].startswith("INSERT INTO")
    assert TimelineEvent.objects.filter(pk=event.pk, kind="chat").exists()


def test_a_save_listener_gets_its_signal(session, gm):
    heard = []

    def listener(sender, instance, created, **kwargs):
        heard.append((instance.kind, created))

    signals.post_save.connect(listener, sender=TimelineEvent)
    try:
        TimelineEvent.objects.create(session=session, seq=1, kind="chat", actor=gm)
    finally:
        signals.post_save.disconnect(listener, sender=TimelineEvent)

    assert heard == [("chat", True)]


def test_an_expression_value_takes_save(session, gm):
    event = TimelineEvent.objects.create(
        session=session, seq=1, kind="chat", actor=gm, created_at=Now()
    )
    stored = TimelineEvent.objects.get(pk=event.pk).created_at
    assert abs(stored - timezone.now()) < datetime.timedelta(minutes=1)


def test_a_constraint_still_refuses_and_nothing_is_written(session, gm):
    TimelineEvent.objects.create(session=session, seq=1, kind="chat", actor=gm)
    with pytest.raises(IntegrityError), transaction.atomic():
        # The unique sequence number per session is the database's to enforce.
        TimelineEvent.objects.create(session=session, seq=1, kind="chat", actor=gm)
    assert TimelineEvent.objects.filter(session=session).count() == 1


def test_an_unsaved_related_object_is_refused_as_by_save(session):
    from tests.factories import UserFactory

    unsaved = UserFactory.build(username="ghost")
    event = TimelineEvent(session=session, seq=1, kind="chat", actor=unsaved)
    with pytest.raises(ValueError, match="unsaved related object"):
        row_insert(event, using="default")
    assert not TimelineEvent.objects.exists()
