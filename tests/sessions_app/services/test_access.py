import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db.models import OuterRef
from django.http import Http404
from django.utils import timezone

from sessions_app.models import GameSession, Membership
from sessions_app.selectors.access import (
    is_gm,
    is_member,
    is_player,
    member_exists,
    member_session,
)
from sessions_app.services.access import require_gm, require_member
from sessions_app.views.access import member_session_or_404, member_table_or_404, membership_or_404

# Predicates -------------------------------------------------------------------------------


def test_is_gm_true_for_the_gm_only(table, gm, player, player_membership):
    gm_membership = Membership.objects.get(table=table, user=gm)

    assert is_gm(gm_membership) is True
    assert is_gm(player_membership) is False
    assert is_gm(None) is False


def test_is_player_true_for_players_only(table, gm, player_membership):
    gm_membership = Membership.objects.get(table=table, user=gm)

    assert is_player(player_membership) is True
    assert is_player(gm_membership) is False
    assert is_player(None) is False


def test_is_member_for_gm_player_outsider_and_anonymous(table, gm, player_membership, outsider):
    assert is_member(user=gm, table_id=table.pk) is True
    assert is_member(user=player_membership.user, table_id=table.pk) is True
    assert is_member(user=outsider, table_id=table.pk) is False
    assert is_member(user=AnonymousUser(), table_id=table.pk) is False


def test_member_exists_answers_inside_a_query(session, player, outsider):
    def asked(user):
        return (
            GameSession.objects.annotate(
                member=member_exists(user=user, table_id=OuterRef("table_id"))
            )
            .get(pk=session.pk)
            .member
        )

    assert asked(player) is True
    assert asked(outsider) is False
    assert asked(AnonymousUser()) is False


# Services: PermissionDenied with a message -------------------------------------------------


def test_require_member_returns_the_membership(table, player, player_membership):
    assert require_member(user=player, table_id=table.pk) == player_membership


def test_require_member_refuses_outsider_with_default_message(table, outsider):
    with pytest.raises(PermissionDenied, match="Only members of this table can do that."):
        require_member(user=outsider, table_id=table.pk)


def test_require_member_refuses_anonymous(table):
    with pytest.raises(PermissionDenied):
        require_member(user=AnonymousUser(), table_id=table.pk)


def test_require_member_refuses_with_given_message(table, outsider):
    with pytest.raises(PermissionDenied, match="^Not you.$"):
        require_member(user=outsider, table_id=table.pk, message="Not you.")


def test_require_gm_returns_the_gm_membership(table, gm):
    membership = require_gm(user=gm, table_id=table.pk)

    assert membership.user == gm
    assert membership.role == Membership.Role.GM


def test_require_gm_refuses_player_with_default_message(table, player, player_membership):
    with pytest.raises(PermissionDenied, match="Only the GM can do that."):
        require_gm(user=player, table_id=table.pk)


def test_require_gm_refuses_outsider_with_given_message(table, outsider):
    with pytest.raises(PermissionDenied, match="^GM only.$"):
        require_gm(user=outsider, table_id=table.pk, message="GM only.")


# Looked up by id: an outsider finds nothing ----------------------------------------------


def test_member_session_returns_session_and_membership(session, player):
    found_session, membership = member_session(user=player, session_id=session.pk)

    assert found_session == session
    assert membership.user == player


def test_member_session_none_for_outsider(session, outsider):
    assert member_session(user=outsider, session_id=session.pk) is None


def test_member_session_none_for_unknown_session(player):
    assert member_session(user=player, session_id=999_999) is None


def test_member_session_reads_table_and_profile_with_the_session(
    session, player, django_assert_num_queries
):
    found_session, _membership = member_session(user=player, session_id=session.pk)

    with django_assert_num_queries(0):
        assert found_session.table.name == "Friday table"
        assert found_session.rules_profile.pk == session.rules_profile_id


def _field_values(instance) -> dict:
    return {
        field.attname: getattr(instance, field.attname)
        for field in type(instance)._meta.concrete_fields
    }


def test_member_session_loads_every_field_as_the_orm_does(session, player, player_membership):
    # Values of every kind the four rows hold: times, a date, JSON, true and false, nulls.
    session.player_order = [player.pk]
    session.preparation = {"notes": "Bring the map", "order": [1, 2]}
    session.experience_confirmed_at = timezone.now()
    session.save()
    session.table.spectators_allowed = True
    session.table.save()

    found_session, membership = member_session(user=player, session_id=session.pk)

    expected_session = GameSession.objects.select_related("table", "rules_profile").get(
        pk=session.pk
    )
    assert _field_values(found_session) == _field_values(expected_session)
    assert _field_values(found_session.table) == _field_values(expected_session.table)
    assert _field_values(found_session.rules_profile) == _field_values(
        expected_session.rules_profile
    )
    assert _field_values(membership) == _field_values(
        Membership.objects.get(pk=player_membership.pk)
    )
    assert found_session.created_at.utcoffset() is not None
    assert not found_session._state.adding


@pytest.mark.parametrize("session_id", [0, -1, 2**63, 10**30])
def test_member_session_none_for_an_id_no_column_holds(player, session_id):
    assert member_session(user=player, session_id=session_id) is None


def test_member_session_none_for_anonymous(session):
    assert member_session(user=AnonymousUser(), session_id=session.pk) is None


def test_member_session_or_404_returns_for_member(session, gm):
    found_session, membership = member_session_or_404(user=gm, session_id=session.pk)

    assert found_session == session
    assert is_gm(membership)


@pytest.mark.parametrize("known", [True, False], ids=["outsider", "unknown session"])
def test_member_session_or_404_hides_the_session(session, outsider, known):
    with pytest.raises(Http404):
        member_session_or_404(user=outsider, session_id=session.pk if known else 999_999)


def test_member_table_or_404_returns_table_with_its_gm(
    table, player, player_membership, django_assert_num_queries
):
    found_table, membership = member_table_or_404(user=player, table_id=table.pk)

    assert (found_table, membership) == (table, player_membership)
    with django_assert_num_queries(0):
        assert found_table.gm.username == "gm"


@pytest.mark.parametrize("known", [True, False], ids=["outsider", "unknown table"])
def test_member_table_or_404_hides_the_table(table, outsider, known):
    with pytest.raises(Http404):
        member_table_or_404(user=outsider, table_id=table.pk if known else 999_999)


def test_membership_or_404_returns_for_member(table, player, player_membership):
    assert membership_or_404(user=player, table_id=table.pk) == player_membership


def test_membership_or_404_hides_from_outsider(table, outsider):
    with pytest.raises(Http404):
        membership_or_404(user=outsider, table_id=table.pk)
