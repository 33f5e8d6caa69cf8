"""Who someone is at a table: the one place services, views, the consumer and the games
ask whether someone is a member, the GM or a player.

One rule for outsiders. Whatever is looked up by its id on their behalf (a page, a partial,
the room's socket) is not there for them: `member_session` and `member_table` find nothing,
the views answer 404 (views/access.py) and the socket closes, so an outsider cannot even
learn that a session or table exists. Services refuse with PermissionDenied and say who may
(services/access.py).
"""

from __future__ import annotations

from django.conf import settings
from django.db import connection
from django.db.models import DateTimeField, Exists, Q
from django.utils import timezone

from ..models import GameSession, GuestAccount, Membership, RulesProfile, Table
from .tables import membership_get

# An id past any database column names nothing: it must not reach the database, where
# SQLite would overflow and PostgreSQL refuse it.
LARGEST_ID = 2**63 - 1


def guest_table_id(user) -> int | None:
    """The one table a guest account belongs to; None for everyone else."""
    if user is None or not user.is_authenticated:
        return None
    return GuestAccount.objects.filter(user_id=user.pk).values_list("table_id", flat=True).first()


def is_gm(membership: Membership | None) -> bool:
    """Whether a membership (or its absence) is the table's GM."""
    return membership is not None and membership.role == Membership.Role.GM


def is_player(membership: Membership | None) -> bool:
    """Whether a membership (or its absence) is one of the table's players (not the GM)."""
    return membership is not None and membership.role == Membership.Role.PLAYER


def is_member(*, user, table_id: int) -> bool:
    """Whether the user belongs to the table (anonymous users never do)."""
    return membership_get(user=user, table_id=table_id) is not None


def member_exists(*, user, table_id) -> Exists:
    """The same question as `is_member`, asked inside another query: `table_id` may be an
    OuterRef, so a locked read can carry the check instead of a statement of its own."""
    return Exists(
        Membership.objects.filter(table_id=table_id, user_id=user.pk).filter(
            Q(user__guest_account__isnull=True) | Q(user__guest_account__table_id=table_id)
        )
    )


def member_session(*, user, session_id: int) -> tuple[GameSession, Membership] | None:
    """Return the session (with its table and rules profile) and the user's membership of
    its table, or None for anyone who is not a member; a session that does not exist looks
    the same.

    Every request to a room and every socket that joins one runs this read. Written with
    the ORM (the session with its table and rules profile, then the membership with the
    guest rule) it cost about a millisecond of CPU to build and compile, some forty times
    what the database took to answer; the statement is written out here, with the tables'
    names and columns taken from the models, and each row's values are turned into
    objects as the models' fields read them."""
    if user is None or not user.is_authenticated or not 0 < session_id <= LARGEST_ID:
        return None
    parts = ((GameSession, "s"), (Table, "t"), (RulesProfile, "r"), (Membership, "m"))
    columns = ", ".join(
        f"{alias}.{connection.ops.quote_name(field.column)}"
        for model, alias in parts
        for field in model._meta.concrete_fields
    )
    session_table, table_table, profile_table, membership_table, guest_table = (
        connection.ops.quote_name(model._meta.db_table)
        for model in (GameSession, Table, RulesProfile, Membership, GuestAccount)
    )
    # A guest account counts at its own table only, whatever other membership it holds.
    sql = f"""SELECT {columns}
        FROM {session_table} s
        JOIN {table_table} t ON t.id = s.table_id
        JOIN {profile_table} r ON r.id = s.rules_profile_id
        JOIN {membership_table} m ON m.table_id = s.table_id AND m.user_id = %s
        LEFT JOIN {guest_table} g ON g.user_id = m.user_id
        WHERE s.id = %s AND (g.id IS NULL OR g.table_id = s.table_id)
    """  # noqa: S608 (only the models' own table and column names are formatted in)
    with connection.cursor() as cursor:
        cursor.execute(sql, [user.pk, session_id])
        row = cursor.fetchone()
    if row is None:
        return None
    values = iter(row)
    session, table, profile, membership = (_loaded(model, values) for model, _ in parts)
    session.table = table
    session.rules_profile = profile
    membership.table = table
    return session, membership


def _loaded(model, values):
    """The next of `model`'s rows from a row of values in its concrete fields' order, as
    the ORM would have loaded it: times made aware in the database's zone where the
    database hands them over without one (SQLite), JSON read by its field."""
    fields = model._meta.concrete_fields
    loaded = []
    for field, value in zip(fields, values, strict=False):
        if value is not None:
            if isinstance(field, DateTimeField) and settings.USE_TZ and timezone.is_naive(value):
                value = timezone.make_aware(value, connection.timezone)
            if hasattr(field, "from_db_value"):
                value = field.from_db_value(value, None, connection)
        loaded.append(value)
    return model.from_db(connection.alias, [field.attname for field in fields], loaded)


def member_table(*, user, table_id: int) -> tuple[Table, Membership] | None:
    """Return the table (with its GM) and the user's membership of it, or None for anyone
    who is not a member; a table that does not exist looks the same."""
    try:
        table = Table.objects.select_related("gm").get(pk=table_id)
    except Table.DoesNotExist:
        return None
    membership = membership_get(user=user, table_id=table.pk)
    if membership is None:
        return None
    return table, membership
