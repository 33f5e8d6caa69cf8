"""Fixtures most session tests share: a second player, the two players' PCs in the cast,
the opening of main play and a scene running in it."""

import pytest

from sessions_app.services.scenes import scene_start
from tests.factories import MembershipFactory, UserFactory, cast_member, main_play_start


@pytest.fixture
def second_player(session):
    return MembershipFactory(table=session.table, user=UserFactory(username="ren")).user


@pytest.fixture
def pc(session, player):
    return cast_member(session, player, name="Aki", slot=1)


@pytest.fixture
def pc2(session, second_player):
    return cast_member(session, second_player, name="Ren", slot=2)


@pytest.fixture
def opening(session, gm, pc, pc2):
    return main_play_start(session, gm)


@pytest.fixture
def scene(opening, gm, pc):
    return scene_start(
        session=opening,
        by=gm,
        scene_player=pc,
        title="The bell tower",
        place="The inn",
        purpose="To meet the contact",
    )
