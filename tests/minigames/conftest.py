"""Fixtures the match tests share: two players' PCs in the session, the GM's NPC, and the
player's match of them (the second player and the two seats of a match are
tests/conftest.py's)."""

import pytest

from minigames.services import match_create
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


@pytest.fixture
def players_match(session, player, second_player, seat_specs):
    """Make the player's match of Aki and Ren with the given fields (game, options, seed):
    (match, player, second player)."""

    def make(**fields):
        match = match_create(session=session, by=player, seats=seat_specs, **fields)
        return match, player, second_player

    return make
