"""Several daphne processes on one PostgreSQL + Redis behave as one room."""

import pytest
from django.conf import settings
from django.db import connection

from tests.factories import GameSessionFactory, MembershipFactory, TableFactory, UserFactory
from tests.live_server import (
    DaphneServer,
    cookie_for,
    post_chat,
    receive_until,
    room_socket,
    shipped_rules_profiles,
)

pytestmark = [pytest.mark.multiprocess, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def two_servers():
    if connection.vendor != "postgresql" or not settings.REDIS_URL:
        pytest.skip(
            "needs PostgreSQL and Redis (DATABASE_URL=postgres://…, REDIS_URL=redis://…); "
            "CI runs it there"
        )
    shipped_rules_profiles()
    servers = [DaphneServer(), DaphneServer()]
    yield servers
    for server in servers:
        server.stop()


def test_event_appended_through_one_process_reaches_socket_on_other(two_servers):
    server_a, server_b = two_servers
    gm = UserFactory(username="keeper")
    player = UserFactory(username="aki")
    table = TableFactory(gm=gm)
    MembershipFactory(table=table, user=player)
    session = GameSessionFactory(table=table)
    gm_cookie, player_cookie = cookie_for(gm), cookie_for(player)

    with (
        room_socket(server_b.url, session, player_cookie) as player_socket,
        room_socket(server_a.url, session, gm_cookie),
    ):
        # Presence recorded by process A shows on the socket held by process B.
        receive_until(player_socket, lambda f: 'data-user="keeper"' in f)

        assert post_chat(server_a.url, session, gm_cookie, "Heard across processes") == 204

        frame = receive_until(player_socket, lambda f: "Heard across processes" in f)
        assert 'id="event-1"' in frame
