"""The table most benchmarks measure at; import it once Django is set up
(environment.set_up_django)."""

from tests.factories import (
    CharacterFactory,
    GameSessionFactory,
    MembershipFactory,
    TableFactory,
    UserFactory,
)


def bench_table(*, table_fields=None, session_fields=None):
    """The GM bench-gm's table with one player, bench-player, and a session there:
    (gm, player, session)."""
    gm, player = UserFactory(username="bench-gm"), UserFactory(username="bench-player")
    table = TableFactory(gm=gm, **(table_fields or {}))
    MembershipFactory(table=table, user=player)
    return gm, player, GameSessionFactory(table=table, **(session_fields or {}))


def player_pc(session, player, **fields):
    """The player's Aki, taking part in the session."""
    pc = CharacterFactory(table=session.table, owner=player, name="Aki", **fields)
    session.characters.add(pc)
    return pc
