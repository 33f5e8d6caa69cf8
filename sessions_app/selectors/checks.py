"""Reads of the checks waiting for someone, and of a contest's odds."""

from __future__ import annotations

from ..models import (
    CheckRequest,
    Roll,
)
from ..rules import srs_checks, srs_odds


def pending_checks_for(*, session_id: int, user, is_gm: bool) -> list[tuple[CheckRequest, str]]:
    """Return the open checks this user should see, each with how: "roll" or "watch".

    A character's owner rolls its pending checks; the GM also watches everyone else's
    (and may cancel them). Players never see other players' secret requests here.
    """
    open_statuses = [CheckRequest.Status.PENDING, CheckRequest.Status.WAITING]
    requests = (
        CheckRequest.objects.filter(session_id=session_id, status__in=open_statuses)
        .select_related("character", "contest")
        .order_by("created_at", "id")
    )
    items = []
    for request in requests:
        owns = request.character.owner_id == user.pk
        if owns and request.status == CheckRequest.Status.PENDING:
            items.append((request, "roll"))
        elif is_gm:
            items.append((request, "watch"))
    return items


def contest_chance_for(
    action: CheckRequest,
    reaction: CheckRequest,
    reaction_can_roll: bool,
    *,
    action_declared: int = 0,
    reaction_declared: int = 0,
):
    """The exact chance that the action side wins, from both sides' requests and the
    modifiers their players declared so far."""
    return srs_odds.contest_chance(
        action.value,
        reaction.value,
        action_modifier=action.gm_modifier + action_declared,
        reaction_modifier=reaction.gm_modifier + reaction_declared,
        reaction_can_roll=reaction_can_roll,
        action_critical=action.critical,
        action_fumble=action.fumble,
        reaction_critical=reaction.critical,
        reaction_fumble=reaction.fumble,
    )


def contest_win_chance(request: CheckRequest, modifier: int):
    """The exact chance that this side of a contest wins with `modifier` (the GM's and its
    player's), given what is known when it rolls: the action side rolls against the
    reaction side's judgement value and GM modifier; the reaction side against the action
    side's roll. None for a check outside a contest."""
    if not request.contest_id:
        return None
    contest = request.contest
    other = contest.requests.exclude(pk=request.pk).get()
    if request.side == CheckRequest.Side.ACTION:
        return contest_chance_for(
            request,
            other,
            contest.reaction_can_roll,
            action_declared=modifier - request.gm_modifier,
        )
    action_roll = Roll.objects.filter(request=other).first()
    if action_roll is None:
        return None
    return srs_odds.reaction_chance(
        srs_checks.CheckResult.from_dict(action_roll.result),
        request.value,
        reaction_modifier=modifier,
        reaction_can_roll=contest.reaction_can_roll,
        critical=request.critical,
        fumble=request.fumble,
    )


def answers_without_dice(request: CheckRequest) -> bool:
    """Whether this is the reaction side of a contest that cannot roll (判定ができない)."""
    return (
        request.side == CheckRequest.Side.REACTION
        and request.contest_id is not None
        and not request.contest.reaction_can_roll
    )
