"""Fixtures most session tests share: the two players' PCs in the cast and the GM's NPC,
the opening of main play and a scene running in it, the GM's signed-in client, and a
guest invite with an empty cache (the second player is tests/conftest.py's)."""

import pytest

from sessions_app.services.tables import invite_create
from tests.clients import cache_cleared
from tests.factories import CharacterFactory, cast_member, main_play_start, scene_started


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "pc_fields(**fields): the fields the pc fixture's Aki is made with instead "
        "(slot=None: taking part without a PC slot)",
    )


@pytest.fixture
def pc(request, session, player):
    """The player's Aki, taking part as PC1. A module or test marked
    `pytest.mark.pc_fields(...)` gets Aki made with those fields instead: slot=None, no PC
    slot; judgement_values={...}, other values than the factory's Strength 3."""
    marker = request.node.get_closest_marker("pc_fields")
    fields = {"slot": 1, **(marker.kwargs if marker else {})}
    return cast_member(session, player, name="Aki", **fields)


@pytest.fixture
def pc2(session, second_player):
    return cast_member(session, second_player, name="Ren", slot=2)


@pytest.fixture
def opening(session, gm, pc, pc2):
    return main_play_start(session, gm)


@pytest.fixture
def scene(opening, gm, pc):
    return scene_started(
        opening,
        gm,
        scene_player=pc,
        title="The bell tower",
        place="The inn",
        purpose="To meet the contact",
    )


@pytest.fixture
def npc(session, gm):
    return CharacterFactory(table=session.table, owner=gm, kind="npc", name="Librarian")


@pytest.fixture
def gm_client(client, gm):
    client.force_login(gm)
    return client


@pytest.fixture
def empty_cache():
    """A cache emptied before and after the test (the sign-up and guest-join limits count
    in it); modules that need it mark themselves with usefixtures."""
    cache_cleared()
    yield
    cache_cleared()


@pytest.fixture
def guest_invite(table, gm):
    return invite_create(table=table, by=gm, allows_guests=True)
