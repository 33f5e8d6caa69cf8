"""Matches as the tests need them."""

from minigames.services import (
    SeatSpec,
    match_create,
    match_move,
    match_shuffle_in,
    match_waiting_for,
)

# Both players' set-up in the tests where how they set up does not matter: a deck of 10 Move,
# 9 Attack and 1 Counter cards, and one piece of life 5 on column c.
ALIKE_SETUP = {
    "type": "setup",
    "deck": {"move": 10, "attack": 9, "counter": 1},
    "pieces": [{"column": 2, "life": 5}],
}


def dealt(match):
    """The match once every seated player's browser has shuffled in: its cards dealt."""
    for user in (match.seat0_user, match.seat1_user):
        if match_waiting_for(match, user):
            match = match_shuffle_in(match_id=match.pk, by=user)
    return match


def aki_and_ren_at_a_match(**match_fields):
    """A session of friday_session("aki", "ren") where the GM seats the two players' PCs, Aki
    and Ren, at a match made with `match_fields` (game, options, seed): (session, match)."""
    from tests.factories import cast_member, friday_session

    session, gm, (aki, ren) = friday_session("aki", "ren")
    seats = [
        SeatSpec(cast_member(session, owner, name=name))
        for owner, name in ((aki, "Aki"), (ren, "Ren"))
    ]
    return session, match_create(session=session, by=gm, seats=seats, **match_fields)


def ren_joins_a_match_with_aki(session, aki, *, by, **match_fields):
    """Ren joins `session`'s table; their PCs, Aki (of the user `aki`) and Ren, join the
    session, and `by` seats them at a match made with `match_fields`: (match, Ren's user)."""
    from tests.factories import CharacterFactory, MembershipFactory, UserFactory

    ren = MembershipFactory(table=session.table, user=UserFactory(username="ren")).user
    pcs = [
        CharacterFactory(table=session.table, owner=owner, name=name)
        for owner, name in ((aki, "Aki"), (ren, "Ren"))
    ]
    session.characters.add(*pcs)
    seats = [SeatSpec(pc) for pc in pcs]
    return match_create(session=session, by=by, seats=seats, **match_fields), ren


def actual_set_up_alike(match, first, second) -> None:
    """Both players of an Actual match set up with ALIKE_SETUP, the first seat first."""
    for version, user in enumerate((first, second)):
        match_move(match_id=match.pk, by=user, action=ALIKE_SETUP, version=version)
