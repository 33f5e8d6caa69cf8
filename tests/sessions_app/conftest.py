"""Fixtures most session tests share: a second player and the two players' PCs in the cast."""

import pytest

from tests.factories import MembershipFactory, UserFactory, cast_member


@pytest.fixture
def second_player(session):
    return MembershipFactory(table=session.table, user=UserFactory(username="ren")).user


@pytest.fixture
def pc(session, player):
    return cast_member(session, player, name="Aki", slot=1)


@pytest.fixture
def pc2(session, second_player):
    return cast_member(session, second_player, name="Ren", slot=2)
