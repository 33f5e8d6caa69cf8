"""What the room tells a roller about checks and contests: the odds while a form is being
filled in, and the line said at once after a roll."""

from __future__ import annotations

from django.utils.translation import gettext as _

from ..models import Roll
from ..rules import srs_checks, srs_odds
from ..selectors.checks import answers_without_dice, contest_win_chance


def check_chances_context(check, *, declared, viewer_is_gm: bool) -> dict:
    """The exact odds of a pending check with the roller's `declared` modifiers. The chance
    of success is shown only to those who know the difficulty: a secret one is the GM's."""
    modifier = check.gm_modifier + sum(row.amount for row in declared)
    return {
        "chances": srs_odds.check_chances(
            check.value,
            modifier=modifier,
            difficulty=check.difficulty if check.difficulty is not None else 0,
            critical=check.critical,
            fumble=check.fumble,
        ),
        "show_success": check.difficulty is not None
        and (not check.difficulty_secret or viewer_is_gm),
        "check": check,
        "total_modifier": modifier,
        "without_dice": answers_without_dice(check),
        "achievement": check.value + modifier,
        "win_chance": contest_win_chance(check, modifier),
    }


def contest_chance_context(data: dict, profile) -> dict:
    """The chance of each side of the contest the GM is filling in (`data`, the form's
    cleaned data so far); None until both sides have a value."""
    action_value, reaction_value = _side_value(data, "action"), _side_value(data, "reaction")
    chance = None
    if action_value is not None and reaction_value is not None:
        chance = srs_odds.contest_chance(
            action_value,
            reaction_value,
            action_modifier=data.get("action_modifier") or 0,
            reaction_modifier=data.get("reaction_modifier") or 0,
            reaction_can_roll=not data.get("reaction_cannot_roll"),
            critical=profile.critical,
            fumble=profile.fumble,
            action_critical=data.get("action_critical"),
            action_fumble=data.get("action_fumble"),
            reaction_critical=data.get("reaction_critical"),
            reaction_fumble=data.get("reaction_fumble"),
        )
    return {"contest_chance": chance, "reaction_chance": None if chance is None else 1 - chance}


def _side_value(data: dict, side: str) -> int | None:
    """A side's value as typed, else its character's judgement value named in the form."""
    character = data.get(f"{side}_character")
    if data.get(f"{side}_value") is not None:
        return data[f"{side}_value"]
    name = data.get(f"{side}_value_name")
    if character and name and name in character.judgement_values:
        return int(character.judgement_values[name])
    return None


def roll_summary(done) -> str:
    """What the roller is told at once (the card follows in the timeline): the roll, or
    that a side without dice answered."""
    if not isinstance(done, Roll):
        return _("Answered.")
    roll = done
    if roll.secret:
        return _("Rolled in secret: the GM sees the result.")
    result = roll.result
    faces = " + ".join(str(face) for face in roll.faces)
    if result["outcome"] == srs_checks.OUTCOME_CRITICAL:
        return _("Rolled %(faces)s: critical!") % {"faces": faces}
    if result["outcome"] == srs_checks.OUTCOME_FUMBLE:
        return _("Rolled %(faces)s: fumble.") % {"faces": faces}
    return _("Rolled %(faces)s: achievement %(achievement)d.") % {
        "faces": faces,
        "achievement": result["achievement"],
    }
