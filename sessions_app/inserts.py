"""Insert a row with an INSERT statement that Django compiles once per model.

Append-only records (rolls, timeline events, moves, ledger lines) are only ever inserted,
always with the same columns, and the busiest actions write two or three of them. Building
the INSERT through the queryset on every call cost more than running it, so its text is
compiled by Django's own compiler the first time and reused; only the values are prepared
per row, the way the compiler prepares them.
"""

from __future__ import annotations

import datetime
import inspect
from dataclasses import dataclass
from functools import cache

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections, models
from django.db.models import signals, sql
from django.db.models.base import ModelState
from django.db.models.expressions import DatabaseDefault
from django.db.models.fields.related_descriptors import ForeignKeyDeferredAttribute
from django.db.models.query_utils import DeferredAttribute

from .fixed_sql import fetch_rows


@dataclass(frozen=True)
class _InsertPlan:
    sql: str
    fields: tuple
    stored_as_is: tuple  # per field: the value types the database takes unchanged
    adapters: tuple  # per field: a shorter way to prepare its commonest values, or None
    returning_params: tuple
    pk_converters: tuple


# Django's own fields whose preparation hands a value of these exact types to the database
# unchanged (a subclass may prepare differently, so it is not listed).
_TEXT_FIELDS = (models.CharField, models.TextField)
_INTEGER_FIELDS = (
    models.AutoField,
    models.BigAutoField,
    models.SmallAutoField,
    models.IntegerField,
    models.BigIntegerField,
    models.SmallIntegerField,
    models.PositiveIntegerField,
    models.PositiveSmallIntegerField,
    models.PositiveBigIntegerField,
)


def _stored_as_is(field) -> tuple[type, ...]:
    kind = type(field)
    if kind in (models.ForeignKey, models.OneToOneField):
        kind = type(field.target_field)
    if kind in _TEXT_FIELDS:
        types = (str,)
    elif kind in _INTEGER_FIELDS:
        types = (int,)
    elif kind is models.BooleanField:
        types = (bool,)
    else:
        return ()
    return (*types, type(None)) if field.null else types


_UNADAPTED = object()


def _adapter(field):
    """For a JSON or date-time field of Django's own, what get_db_prep_save makes of a
    dict, a list or an aware date-time, without the four calls that lead there (they cost
    more than the adapting); anything else is left to get_db_prep_save."""
    kind = type(field)
    if kind is models.JSONField:
        encoder = field.encoder

        def adapt_json(value, connection):
            if type(value) in (dict, list):
                return connection.ops.adapt_json_value(value, encoder)
            return _UNADAPTED

        return adapt_json
    if kind is models.DateTimeField:
        return _adapt_aware_datetime
    return None


def _adapt_aware_datetime(value, connection):
    # A naive value takes Django's path, which warns and makes it aware (or refuses it).
    if type(value) is datetime.datetime and value.tzinfo is not None and settings.USE_TZ:
        return connection.ops.adapt_datetimefield_value(value)
    return _UNADAPTED


_plans: dict[tuple, _InsertPlan | None] = {}


@dataclass(frozen=True)
class _Column:
    field: object
    name: str
    attname: str
    related_model: type | None  # set for a foreign key
    related_attname: str  # the column of the related row the key holds
    reverse_cache_name: str  # set for a one-to-one key: the related row caches the record


_columns: dict[type, tuple[_Column, ...] | None] = {}


def new_record(model, fields: dict):
    """`model(**fields)` for a record about to be inserted.

    Django's constructor serves every way of building an instance (positional values,
    deferred fields, properties, signals, database routers); for a record built from its
    fields' names that generality cost as much as the INSERT. Here the values go straight
    into the instance, the way the constructor stores them: a related row's key, with the
    row itself cached (and, for a one-to-one key, the record cached on the row), and each
    missing field's default. Anything else (a name that is not a field, a related value of
    the wrong model, a listener on the constructor's signals, a router) takes the
    constructor, which also explains the mistake.
    """
    if model not in _columns:
        _columns[model] = _plan_columns(model)
    columns = _columns[model]
    if columns is None or settings.DATABASE_ROUTERS or _constructor_heard(model):
        return model(**fields)
    instance = model.__new__(model)
    values = instance.__dict__
    cached, reverse = {}, []
    taken, database = 0, None
    for column in columns:
        if column.related_model is not None and column.name in fields:
            related = fields[column.name]
            taken += 1
            if related is None:
                values[column.attname] = None
            elif isinstance(related, column.related_model):
                values[column.attname] = getattr(related, column.related_attname)
                # Where the constructor, with no router, says the record will be written.
                database = database or related._state.db or DEFAULT_DB_ALIAS
                if column.reverse_cache_name:
                    reverse.append((related, column.reverse_cache_name))
            else:
                return model(**fields)
            cached[column.name] = related
        elif column.attname in fields:
            values[column.attname] = fields[column.attname]
            taken += 1
        else:
            values[column.attname] = column.field.get_default()
    if taken != len(fields):
        return model(**fields)
    state = instance._state = ModelState()
    state.db = database
    if cached:
        state.fields_cache = cached
    for related, cache_name in reverse:
        related._state.fields_cache[cache_name] = instance
    return instance


def _constructor_heard(model) -> bool:
    """Whether something listens to the model's constructor, which a record built without
    it would leave unheard."""
    return signals.pre_init.has_listeners(model) or signals.post_init.has_listeners(model)


@cache
def _assigned_plainly(model) -> bool:
    """Whether each field's class attribute, on assignment, only stores the value."""
    return all(
        type(inspect.getattr_static(model, field.attname, None))
        in (DeferredAttribute, ForeignKeyDeferredAttribute)
        for field in model._meta.concrete_fields
    )


def loaded_record(model, db: str, attnames, values):
    """`model.from_db(db, attnames, values)` for a row a fixed statement has read.

    The constructor sends its two signals and sets each value through the field's class
    attribute; for a row read back as it is, with plain fields and keys, that is the same as
    storing the values, and it cost most of the roll's locked read. A field not read stays
    deferred, loaded on first access, as from_db leaves it. A listener on the constructor's
    signals, or a field whose attribute does more on assignment (a file, say), takes from_db.
    """
    if not _assigned_plainly(model) or _constructor_heard(model):
        return model.from_db(db, attnames, values)
    instance = model.__new__(model)
    instance.__dict__.update(zip(attnames, values, strict=True))
    state = instance._state = ModelState()
    state.adding = False
    state.db = db
    return instance


def _plan_columns(model) -> tuple[_Column, ...] | None:
    meta = model._meta
    if meta.parents or any(
        field.column is None or getattr(field, "generated", False) for field in meta.fields
    ):
        return None
    columns = []
    for field in meta.concrete_fields:
        related_model = related_attname = reverse_cache_name = ""
        if field.is_relation:
            if len(field.related_fields) != 1:
                return None
            related_model = field.remote_field.model._meta.concrete_model
            related_attname = field.related_fields[0][1].attname
            if not field.remote_field.multiple:
                reverse_cache_name = field.remote_field.cache_name
        columns.append(
            _Column(
                field,
                field.name,
                field.attname,
                related_model or None,
                related_attname,
                reverse_cache_name,
            )
        )
    return tuple(columns)


def row_insert(instance, *, using: str) -> bool:
    """Insert a new instance and set its primary key; False when it must take `save()`.

    The fast path is only taken where it does what `save(force_insert=True)` does: no save
    signal listens, no field computes its SQL or defaults in the database, no value is an
    expression, and the database returns the new key from the INSERT itself.
    """
    model = type(instance)
    if signals.pre_save.has_listeners(model) or signals.post_save.has_listeners(model):
        return False
    plan = _plan(model, using)
    if plan is None:
        return False
    # As save() does: the related rows are checked (and their keys taken) before the values.
    instance._prepare_related_fields_for_save(operation_name="save")
    connection = connections[using]
    params = []
    for field, as_is, adapt in zip(plan.fields, plan.stored_as_is, plan.adapters, strict=True):
        value = field.pre_save(instance, add=True)
        if type(value) in as_is:  # a key, a word or a flag goes as it is
            params.append(value)
        elif adapt is not None and (adapted := adapt(value, connection)) is not _UNADAPTED:
            params.append(adapted)
        elif _is_expression(value):
            return False
        else:
            # What the compiler's prepare_value does for a value that is not an expression.
            params.append(field.get_db_prep_save(value, connection=connection))
    (row,) = fetch_rows(connection, plan.sql, [*params, *plan.returning_params])
    pk = row[0]
    for col, converter in plan.pk_converters:
        pk = converter(pk, col, connection)
    setattr(instance, model._meta.pk.attname, pk)
    instance._state.adding = False
    instance._state.db = using
    return True


def _is_expression(value) -> bool:
    return isinstance(value, DatabaseDefault) or hasattr(value, "resolve_expression")


def _plan(model, using: str) -> _InsertPlan | None:
    key = (model, using)
    if key not in _plans:
        _plans[key] = _build_plan(model, using)
    return _plans[key]


def _build_plan(model, using: str) -> _InsertPlan | None:
    meta = model._meta
    connection = connections[using]
    pk = meta.pk
    if (
        meta.parents
        or not connection.features.can_return_columns_from_insert
        or pk is not meta.auto_field
    ):
        return None
    fields = tuple(field for field in meta.local_concrete_fields if field is not pk)
    if any(
        field.has_db_default()
        or getattr(field, "generated", False)
        or getattr(field, "get_placeholder_sql", None) is not None
        for field in fields
    ):
        return None
    # Compile once with a row of placeholders-to-be: the statement's text does not depend on
    # the values, only on the columns, which never change for a model.
    query = sql.InsertQuery(model)
    query.insert_values(fields, [model()], raw=True)
    compiler = query.get_compiler(using=using)
    compiler.returning_fields = [pk]
    statement, _params = compiler.as_sql()[0]
    col = pk.get_col(meta.db_table)
    pk_converters = tuple(
        (col, converter)
        for converter in connection.ops.get_db_converters(col) + col.get_db_converters(connection)
    )
    return _InsertPlan(
        statement,
        fields,
        tuple(_stored_as_is(field) for field in fields),
        tuple(_adapter(field) for field in fields),
        tuple(compiler.returning_params),
        pk_converters,
    )
