"""Reads behind the dice statistics: the rolls a viewer may count."""

from __future__ import annotations

from django.db.models import Q

from ..models import (
    GameSession,
    Roll,
    Table,
    TimelineEvent,
)
from ..rules.dice_stats import DiceRow


def _roll_event_ids(rolls_filter: Q, kind: str) -> set[int]:
    payloads = TimelineEvent.objects.filter(rolls_filter, kind=kind).values_list(
        "payload__roll_id", flat=True
    )
    return {int(roll_id) for roll_id in payloads if roll_id is not None}


def _dice_rows(rolls, events_filter: Q, *, user, is_gm: bool) -> list[DiceRow]:
    """Turn rolls into statistics rows, leaving out what this viewer may not know.

    Voided rolls never count. A player does not get the numbers of a secret roll nobody
    revealed (except their own roll-box secret, which they saw), nor the difficulty and
    verdict of a roll whose difficulty is still secret: the same things the timeline hides.
    """
    voided = _roll_event_ids(events_filter, "roll_voided")
    revealed = _roll_event_ids(events_filter, "roll_revealed")
    rows = []
    for roll in rolls.select_related("roller", "character").order_by("created_at", "id"):
        if roll.pk in voided:
            continue
        shown = is_gm or roll.pk in revealed
        if roll.secret and not shown:
            own_command = roll.source == Roll.Source.COMMAND and roll.roller_id == user.pk
            if not own_command:
                continue
        result = roll.result or {}
        is_check = result.get("critical") is not None and result.get("fumble") is not None
        difficulty_known = shown or not roll.difficulty_secret
        rows.append(
            DiceRow(
                who=roll.roller.get_username(),
                who_id=roll.roller_id,
                character=roll.character.name if roll.character else "",
                character_id=roll.character_id,
                faces=tuple(roll.faces or ()),
                sides=int(result.get("sides", 6)),
                critical=result.get("critical") if is_check else None,
                fumble=result.get("fumble") if is_check else None,
                value=int(result.get("value") or 0),
                modifier=int(result.get("modifier") or 0),
                difficulty=result.get("difficulty") if difficulty_known else None,
            )
        )
    return rows


def dice_rows_for_session(*, session: GameSession, user, is_gm: bool) -> list[DiceRow]:
    """Return the session's rolls this viewer may count, as dice statistics rows."""
    return _dice_rows(
        Roll.objects.filter(session=session), Q(session=session), user=user, is_gm=is_gm
    )


def dice_rows_for_table(*, table: Table, user, is_gm: bool) -> list[DiceRow]:
    """Return the rolls of all the table's sessions this viewer may count."""
    return _dice_rows(
        Roll.objects.filter(session__table=table),
        Q(session__table=table),
        user=user,
        is_gm=is_gm,
    )
