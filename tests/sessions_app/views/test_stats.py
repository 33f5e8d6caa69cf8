"""The dice statistics pages: who may see them, and which rolls each viewer's numbers count."""

import pytest
from django.urls import reverse

from sessions_app.models import Roll
from sessions_app.selectors.stats import dice_rows_for_session, dice_rows_for_table
from sessions_app.services.checks import (
    check_request,
    check_roll,
    command_roll,
    roll_reveal,
    roll_void,
)
from tests.clients import signed_in_client as _client
from tests.factories import CharacterFactory, GameSessionFactory

# The pc fixture's Aki (tests/sessions_app/conftest.py) has Strength 5 and takes part
# without a PC slot.
pytestmark = pytest.mark.pc_fields(slot=None, judgement_values={"Strength": 5})


def _roll(session, gm, player, pc, dice, **request):
    arguments = {"label": "Climb", "value_name": "Strength", "difficulty": 10, **request}
    check = check_request(session=session, by=gm, character=pc, **arguments)
    return check_roll(request_id=check.pk, by=player, dice=dice)


def _everyone(client, session):
    response = client.get(reverse("session_dice", args=[session.pk]))
    assert response.status_code == 200
    return response.context["everyone"]["stats"]


def test_session_dice_shown_to_player(session, gm, player, pc):
    _roll(session, gm, player, pc, (4, 3))

    response = _client(player).get(reverse("session_dice", args=[session.pk]))

    assert response.status_code == 200
    assert b"<svg" in response.content
    assert response.context["everyone"]["stats"].rolls == 1


def test_table_dice_counts_every_session(session, gm, player, pc):
    other = GameSessionFactory(table=session.table)
    other.characters.add(pc)
    _roll(session, gm, player, pc, (4, 3))
    _roll(other, gm, player, pc, (6, 6))

    response = _client(player).get(reverse("table_dice", args=[session.table.pk]))

    assert response.context["everyone"]["stats"].rolls == 2


def test_session_dice_empty_says_so(session, player):
    response = _client(player).get(reverse("session_dice", args=[session.pk]))

    assert b"No 2D6 rolls to count yet." in response.content


def test_unrevealed_secret_roll_not_counted_for_player(session, gm, player, pc):
    _roll(session, gm, player, pc, (4, 3))
    _roll(session, gm, player, pc, (6, 6), secret=True)

    stats = _everyone(_client(player), session)

    assert (stats.rolls, stats.criticals) == (1, 0)
    assert stats.histogram.observed[12] == 0


def test_unrevealed_secret_roll_counted_for_gm(session, gm, player, pc):
    _roll(session, gm, player, pc, (4, 3))
    _roll(session, gm, player, pc, (6, 6), secret=True)

    stats = _everyone(_client(gm), session)

    assert (stats.rolls, stats.criticals) == (2, 1)


def test_revealed_secret_roll_counted_for_player_and_gm(session, gm, player, pc):
    roll = _roll(session, gm, player, pc, (6, 6), secret=True)
    roll_reveal(roll=roll, by=gm)

    for user in (player, gm):
        stats = _everyone(_client(user), session)
        assert (stats.rolls, stats.criticals) == (1, 1)


def test_secret_difficulty_hides_success_from_player(session, gm, player, pc):
    _roll(session, gm, player, pc, (4, 3), difficulty_secret=True)

    player_stats = _everyone(_client(player), session)
    gm_stats = _everyone(_client(gm), session)

    assert (player_stats.rolls, player_stats.decided) == (1, 0)
    assert (gm_stats.decided, gm_stats.successes) == (1, 1)


def test_voided_roll_not_counted(session, gm, player, pc):
    roll = _roll(session, gm, player, pc, (6, 6))
    roll_void(roll=roll, by=gm, reason="Rolled for the wrong character")

    assert _everyone(_client(gm), session).rolls == 0


def test_own_secret_roll_box_roll_counted_for_its_roller_only(session, gm, player):
    command_roll(session=session, by=player, text="S2D6>=8", faces=(6, 6))
    other = CharacterFactory(table=session.table).owner
    session.table.memberships.create(user=other, role="player")

    assert _everyone(_client(player), session).criticals == 1
    assert _everyone(_client(other), session).rolls == 0


def test_roll_box_sums_of_other_dice_not_counted(session, player):
    command_roll(session=session, by=player, text="1D6", faces=(4,))
    command_roll(session=session, by=player, text="2D6+1", faces=(3, 4))

    stats = _everyone(_client(player), session)

    assert (stats.rolls, stats.checks) == (1, 0)


def test_dice_rows_for_session_constant_queries(
    session, gm, player, pc, django_assert_max_num_queries
):
    for _ in range(5):
        _roll(session, gm, player, pc, (4, 3))
    command_roll(session=session, by=player, text="2D6>=7", faces=(1, 2))

    with django_assert_max_num_queries(3):
        rows = dice_rows_for_session(session=session, user=player, is_gm=False)

    assert len(rows) == Roll.objects.count() == 6


def test_dice_rows_for_table_constant_queries(
    session, gm, player, pc, django_assert_max_num_queries
):
    other = GameSessionFactory(table=session.table)
    other.characters.add(pc)
    for game in (session, other, session):
        _roll(game, gm, player, pc, (4, 3))

    with django_assert_max_num_queries(3):
        rows = dice_rows_for_table(table=session.table, user=gm, is_gm=True)

    assert len(rows) == 3


def test_session_dice_groups_by_person_and_character_sorted_by_name(session, gm, player, pc):
    _roll(session, gm, player, pc, (4, 3))
    command_roll(session=session, by=gm, text="2D6", faces=(1, 1))

    response = _client(gm).get(reverse("session_dice", args=[session.pk]))

    assert [group["name"] for group in response.context["people"]] == ["gm", "player"]
    assert [group["name"] for group in response.context["characters"]] == ["Aki"]


def test_session_room_links_to_dice_statistics(session, player):
    response = _client(player).get(reverse("session_room", args=[session.pk]))

    assert reverse("session_dice", args=[session.pk]).encode() in response.content


def test_table_detail_links_to_dice_statistics(session, player):
    response = _client(player).get(reverse("table_detail", args=[session.table.pk]))

    assert reverse("table_dice", args=[session.table.pk]).encode() in response.content
