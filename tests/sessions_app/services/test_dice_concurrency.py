"""Rolls made at the same moment each take their own key, with no gap and no repeat."""

import pytest

from sessions_app.models import Roll
from sessions_app.services.checks import check_request, check_roll, command_roll
from sessions_app.services.dice import dice_commit_ahead
from tests.factories import CharacterFactory, MembershipFactory, UserFactory
from tests.threads import race

pytestmark = pytest.mark.django_db(transaction=True)


def _race(actions) -> list:
    outcomes = race(dict(enumerate(actions)))
    return [outcomes[place] for place in range(len(actions))]


def test_simultaneous_rolls_take_distinct_consecutive_keys(session, gm, player):
    ren = MembershipFactory(table=session.table, user=UserFactory(username="ren")).user
    pc = CharacterFactory(table=session.table, owner=player, name="Aki")
    session.characters.add(pc)
    dice_commit_ahead(session=session)
    requests = [
        check_request(session=session, by=gm, character=pc, label=f"Check {n}", value=3)
        for n in range(3)
    ]
    actions = [
        *(lambda r=r: check_roll(request_id=r.pk, by=player) for r in requests),
        *(lambda by=by: command_roll(session=session, by=by, text="2D6") for by in (player, ren)),
    ]

    outcomes = _race(actions)

    assert not [outcome for outcome in outcomes if isinstance(outcome, Exception)]
    indexes = sorted(Roll.objects.values_list("dice_index", flat=True))
    assert indexes == list(range(len(actions)))
