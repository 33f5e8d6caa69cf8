"""What the after-play page and the experience ledger show one member: the pages and their
live updates build it here, so an update equals a fresh load."""

from __future__ import annotations

from django.utils.translation import gettext as _

from ..charts import line_chart_svg
from ..forms import AwardForm, CleanupForm, GrowthForm
from ..models import Character, GameSession, GrowthRequest, Phase, Table
from ..selectors import experience as experience_selectors
from ..selectors.experience import (
    award_recipients,
    balance_of,
    experience_balances,
    growth_requests_of,
    growth_requests_to_decide,
    ledger_for,
    pending_cost,
    sheet_sessions,
    table_game,
)
from ..selectors.tables import table_characters, table_members, table_profile
from ..services.experience import CLEANUP_ITEMS

AFTERPLAY_TEMPLATE = "sessions_app/afterplay.html"
LEDGER_TEMPLATE = "sessions_app/experience_ledger.html"


def afterplay_context(
    session: GameSession, user, viewer_is_gm: bool, *, award_form=None, cleanup_form=None
) -> dict:
    """The award form (the GM, until it is confirmed), the awards once confirmed, and the
    GM's cleanup checklist until the session is closed."""
    context = {
        "session": session,
        "viewer": user,
        "viewer_is_gm": viewer_is_gm,
        "confirmed": session.experience_confirmed_at is not None,
        "closed": session.phase == Phase.CLOSED,
        "sheet": experience_selectors.session_sheet(session=session),
    }
    if viewer_is_gm and session.phase == Phase.AFTER_PLAY:
        if session.experience_confirmed_at is None:
            context["award_form"] = award_form or AwardForm(
                people=award_recipients(session=session),
                lines=session.rules_profile.experience_lines or [],
            )
        else:
            context["cleanup_form"] = cleanup_form or CleanupForm(
                items=CLEANUP_ITEMS, initial=session.cleanup or {}
            )
    return context


def growth_form_for(table: Table, user, data=None) -> GrowthForm:
    """The form a member spends experience with, on their own PCs of the table."""
    return GrowthForm(
        data,
        characters=table_characters(table=table, kind=Character.Kind.PC).filter(owner=user),
        profile=table_profile(table=table),
        sessions=sheet_sessions(table=table),
    )


def balance_chart(table: Table):
    """The table's members' balances over its sessions, drawn on the server (SVG)."""
    series = experience_balances(table=table)
    if not series:
        return None
    return line_chart_svg(
        series,
        title=_("Experience balance after each session"),
        desc=_("One line per member of the table: their balance after each session."),
        chart_id="balance-chart",
    )


def ledger_context(table: Table, user, viewer_is_gm: bool, *, growth_form=None) -> dict:
    """One member's experience in the table's game, and for the GM the growth to confirm."""
    game = table_game(table=table)
    return {
        "table": table,
        "viewer": user,
        "viewer_is_gm": viewer_is_gm,
        "entries": ledger_for(user=user, game=game),
        "balance": balance_of(game=game, user=user),
        "waiting": pending_cost(game=game, user=user),
        "profile": table_profile(table=table),
        "growth_form": growth_form or growth_form_for(table, user),
        "my_requests": growth_requests_of(table=table, user=user),
        "to_decide": growth_requests_to_decide(table=table) if viewer_is_gm else [],
        "members": table_members(table=table) if viewer_is_gm else [],
        "balance_chart": balance_chart(table),
    }


def growth_asked_message(asked: GrowthRequest) -> str:
    """What a player is told once they asked for growth: done, or waiting for the GM."""
    text = (
        _("%(name)s: %(growth)s (−%(cost)d points).")
        if asked.status == GrowthRequest.Status.CONFIRMED
        else _("%(name)s: %(growth)s (%(cost)d points) waits for the GM to confirm.")
    )
    return text % {"name": asked.character.name, "growth": asked.reason, "cost": asked.cost}
