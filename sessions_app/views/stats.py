"""Dice statistics pages for a session and for a whole table (members only)."""

from __future__ import annotations

from django.shortcuts import render

from sessions_app.selectors.access import is_gm
from sessions_app.selectors.stats import dice_rows_for_session, dice_rows_for_table

from ..presenters.stats import dice_stats_context
from .access import member_view

TEMPLATE = "sessions_app/dice_stats.html"


@member_view()
def session_dice(request, session, membership):
    viewer_is_gm = is_gm(membership)
    rows = dice_rows_for_session(session=session, user=request.user, is_gm=viewer_is_gm)
    context = dice_stats_context(rows, viewer_is_gm=viewer_is_gm)
    context.update({"session": session, "table": session.table, "scope_name": session.title})
    return render(request, TEMPLATE, context)


@member_view()
def table_dice(request, table, membership):
    viewer_is_gm = is_gm(membership)
    rows = dice_rows_for_table(table=table, user=request.user, is_gm=viewer_is_gm)
    context = dice_stats_context(rows, viewer_is_gm=viewer_is_gm)
    context.update({"session": None, "table": table, "scope_name": table.name})
    return render(request, TEMPLATE, context)
