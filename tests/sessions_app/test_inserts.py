"""Append-only rows inserted with a statement compiled once per model."""

from __future__ import annotations

import datetime

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.models import signals
from django.db.models.functions import Now
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from sessions_app.inserts import loaded_record, new_record, row_insert
from sessions_app.models import Roll, TimelineEvent
from sessions_app.services.checks import check_request
from tests.factories import CharacterFactory

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


def _roll_fields(session, player, character, request=None) -> dict:
    return {
        "session": session,
        "request": request,
        "character": character,
        "roller": player,
        "source": Roll.Source.REQUEST,
        "label": "climb the wall",
        "faces": [3, 4],
        "result": {"outcome": "achieved", "achievement": 11},
    }


@pytest.fixture
def character(table, player, session):
    character = CharacterFactory(table=table, owner=player, judgement_values={"Strength": 4})
    session.characters.add(character)
    return character


def test_a_new_record_holds_what_the_constructor_gives(session, gm, player, character):
    request = check_request(
        session=session, by=gm, character=character, label="climb", value_name="Strength"
    )
    built = Roll(**_roll_fields(session, player, character, request))
    fast = new_record(Roll, _roll_fields(session, player, character, request))

    # Every column, the defaults included (a new list for modifiers, the time of creation).
    columns = [field.attname for field in Roll._meta.concrete_fields]
    assert {name: getattr(fast, name) for name in columns if name != "created_at"} == {
        name: getattr(built, name) for name in columns if name != "created_at"
    }
    assert fast.modifiers == [] and fast.modifiers is not built.modifiers
    assert abs(fast.created_at - built.created_at) < datetime.timedelta(seconds=5)
    assert fast._state.adding and fast._state.db == built._state.db == "default"
    # The related rows are cached as the constructor caches them: no query to read them back.
    with CaptureQueriesContext(connection) as queries:
        assert fast.session is session and fast.character is character
        assert fast.roller is player and fast.request is request
        assert request.roll is fast
    assert queries.captured_queries == []


def test_keys_given_by_id_are_kept_and_nothing_is_cached(session, player, character):
    fields = _roll_fields(session, player, character)
    del fields["session"], fields["character"]
    fast = new_record(Roll, {**fields, "session_id": session.pk, "character_id": character.pk})
    assert (fast.session_id, fast.character_id) == (session.pk, character.pk)
    assert "session" not in fast._state.fields_cache


def test_a_record_made_through_create_is_stored(session, player, character):
    roll = Roll.objects.create(**_roll_fields(session, player, character))
    stored = Roll.objects.get(pk=roll.pk)
    assert (stored.session_id, stored.roller_id, stored.faces) == (session.pk, player.pk, [3, 4])
    assert stored.created_at == roll.created_at


@pytest.mark.parametrize(
    ("change", "error", "message"),
    [
        ({"rolled_by": "someone"}, TypeError, "unexpected keyword"),
        ({"roller": "not a user"}, ValueError, "must be a"),
    ],
)
def test_what_the_constructor_refuses_is_refused_with_its_message(
    session, player, character, change, error, message
):
    with pytest.raises(error, match=message):
        new_record(Roll, {**_roll_fields(session, player, character), **change})


def test_a_constructor_listener_is_still_called(session, player, character):
    heard = []

    def listener(sender, instance, **kwargs):
        heard.append(instance.label)

    signals.post_init.connect(listener, sender=Roll)
    try:
        new_record(Roll, _roll_fields(session, player, character))
    finally:
        signals.post_init.disconnect(listener, sender=Roll)
    assert heard == ["climb the wall"]


def _read_back(model, pk, attnames):
    columns = ", ".join(model._meta.get_field(name).column for name in attnames)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {columns} FROM {model._meta.db_table} WHERE id = %s", [pk])  # noqa: S608 - names from the model
        return list(cursor.fetchone())


def test_a_loaded_record_holds_what_from_db_gives(session, gm, character):
    request = check_request(
        session=session, by=gm, character=character, label="climb", value_name="Strength"
    )
    attnames = ["id", "session_id", "character_id", "label", "value", "status"]
    values = _read_back(type(request), request.pk, attnames)

    loaded = loaded_record(type(request), "default", attnames, values)
    expected = type(request).from_db("default", attnames, values)

    assert loaded.__dict__.keys() - {"_state"} == expected.__dict__.keys() - {"_state"}
    assert {name: getattr(loaded, name) for name in attnames} == {
        name: getattr(expected, name) for name in attnames
    }
    assert (loaded._state.adding, loaded._state.db) == (False, "default")
    assert loaded.get_deferred_fields() == expected.get_deferred_fields()
    # A column left out of the read is loaded when it is first read, as from_db leaves it.
    with CaptureQueriesContext(connection) as queries:
        assert loaded.value_name == "Strength"
    assert len(queries.captured_queries) == 1


def test_a_loaded_record_still_calls_a_constructor_listener(session, gm, character):
    request = check_request(
        session=session, by=gm, character=character, label="climb", value_name="Strength"
    )
    heard = []

    def listener(sender, instance, **kwargs):
        heard.append(instance.pk)

    attnames = ["id", "label"]
    signals.post_init.connect(listener, sender=type(request))
    try:
        loaded = loaded_record(
            type(request), "default", attnames, _read_back(type(request), request.pk, attnames)
        )
    finally:
        signals.post_init.disconnect(listener, sender=type(request))
    assert heard == [request.pk]
    assert loaded.label == "climb"


@pytest.mark.parametrize(
    ("model", "name", "value"),
    [
        (TimelineEvent, "payload", {"text": "鍵", "n": [1, 2.5, None, True]}),
        (Roll, "faces", [3, 4]),
        (TimelineEvent, "created_at", timezone.now()),
        (
            TimelineEvent,
            "created_at",
            datetime.datetime(
                2026, 5, 1, 12, 0, tzinfo=datetime.timezone(datetime.timedelta(hours=9))
            ),
        ),
    ],
)
def test_a_shorter_preparation_gives_what_django_s_gives(model, name, value):
    from sessions_app.inserts import _adapter

    field = model._meta.get_field(name)
    assert _as_sent(_adapter(field)(value, connection)) == _as_sent(
        field.get_db_prep_save(value, connection)
    )


def _as_sent(prepared):
    # On PostgreSQL a JSON value is wrapped for the driver, and wrappers compare by identity.
    return (type(prepared), prepared.obj) if hasattr(prepared, "obj") else prepared


@pytest.mark.parametrize(
    ("model", "name", "value"),
    [
        (TimelineEvent, "payload", "a JSON string"),
        (TimelineEvent, "created_at", datetime.datetime(2026, 5, 1, 12, 0)),  # naive
    ],
)
def test_other_values_are_left_to_django_s_preparation(model, name, value):
    from sessions_app.inserts import _UNADAPTED, _adapter

    assert _adapter(model._meta.get_field(name))(value, connection) is _UNADAPTED
