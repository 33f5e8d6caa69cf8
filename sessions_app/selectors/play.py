"""Reads of a session's run: the GM's preparation, what pre-play has left undone, and the
phase that comes next. The changes themselves are services/play.py's."""

from __future__ import annotations

from django.utils.translation import gettext as _

from ..models import MAIN_PLAY_PHASES, PHASE_ORDER, GameSession, Participation, Phase

PREPARATION_ITEMS = ("rulebook", "scenario", "tools")


def preparation_state(*, session: GameSession) -> dict[str, bool]:
    """Each item of the GM's preparation and whether it is done.

    A scenario chosen in the app is "scenario chosen" whatever the tick says, so the
    checklist and the scenario picker always agree; the tick remains for a scenario run
    from a book or from memory.
    """
    ticks = session.preparation or {}
    state = {item: bool(ticks.get(item)) for item in PREPARATION_ITEMS}
    if session.scenario_id is not None:
        state["scenario"] = True
    return state


def preplay_warnings(*, session: GameSession) -> list[str]:
    """Name what pre-play has left undone: shown before main play starts, never a lock."""
    warnings = []
    preparation = preparation_state(session=session)
    labels = {
        "rulebook": _("the rulebook is not marked as read"),
        "scenario": _("no scenario is marked as chosen"),
        "tools": _("the tools are not marked as ready"),
    }
    for item in PREPARATION_ITEMS:
        if not preparation.get(item):
            warnings.append(labels[item])
    rows = list(session.participations.select_related("character"))
    if not rows:
        warnings.append(_("no PC is taking part yet"))
    for row in rows:
        if row.sheet_status != Participation.SheetStatus.CHECKED:
            warnings.append(_("%(name)s's sheet is not checked") % {"name": row.character.name})
        if not row.intro_done:
            warnings.append(_("%(name)s has not been introduced") % {"name": row.character.name})
    return warnings


def phase_next(phase: str) -> str | None:
    """The phase the GM's control moves the session to from `phase`, if any."""
    index = PHASE_ORDER.index(phase)
    following = PHASE_ORDER[index + 1] if index + 1 < len(PHASE_ORDER) else None
    # Closing the session belongs to after-play (experience first), not to this button.
    return None if following == Phase.CLOSED else following


def main_play_running(session: GameSession) -> bool:
    return session.phase in MAIN_PLAY_PHASES


def after_play_reached(session: GameSession) -> bool:
    """Whether the session is in after-play or closed: the awards can be seen."""
    return session.phase in (Phase.AFTER_PLAY, Phase.CLOSED)
