"""Fixtures the match tests share: two players' PCs in the session and the GM's NPC (the
second player and the two seats of a match are tests/conftest.py's)."""

import pytest

from tests.factories import CharacterFactory


@pytest.fixture
def pc(session, player):
    character = CharacterFactory(table=session.table, owner=player, name="Aki")
    session.characters.add(character)
    return character


@pytest.fixture
def pc2(session, second_player):
    character = CharacterFactory(table=session.table, owner=second_player, name="Ren")
    session.characters.add(character)
    return character


@pytest.fixture
def npc(session, gm):
    return CharacterFactory(table=session.table, owner=gm, kind="npc", name="Innkeeper")
