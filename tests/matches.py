"""Matches as the tests need them."""

from minigames.services import match_shuffle_in, match_waiting_for


def dealt(match):
    """The match once every seated player's browser has shuffled in: its cards dealt."""
    for user in (match.seat0_user, match.seat1_user):
        if match_waiting_for(match, user):
            match = match_shuffle_in(match_id=match.pk, by=user)
    return match
