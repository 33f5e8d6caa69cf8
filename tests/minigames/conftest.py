"""Fixtures the match tests share: two players' PCs in the session, the GM's NPC, the
player's match of them (the second player and the two seats of a match are
tests/conftest.py's), and how many seeded random games the rules tests play."""

import os

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


# The full size of the random-game tests: their largest loop plays this many games.
FULL_RANDOM_GAMES = 500


@pytest.fixture(scope="session")
def random_games():
    """How many seeded random games a rules test plays, given how many it plays at full size.

    RANDOM_GAMES is the size of the largest loop (FULL_RANDOM_GAMES at full size, which
    `make bench` runs); every loop scales with it, to no fewer than `least` games, the
    number its own assertions need (an outcome that must turn up among them, say). The
    default, 100, keeps the everyday suite quick.
    """
    size = int(os.environ.get("RANDOM_GAMES", "100"))
    if size < 1:
        raise ValueError(f"RANDOM_GAMES must be a positive number of games, not {size}")

    def games(full: int, *, least: int = 1) -> int:
        return max(least, full * size // FULL_RANDOM_GAMES)

    return games
