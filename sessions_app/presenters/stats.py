"""The dice statistics a viewer sees: the tables and charts of a session's or a table's
rolls, and the histogram the review page and the exported log show."""

from __future__ import annotations

from django.utils.formats import number_format
from django.utils.translation import gettext as _

from ..charts import histogram_svg
from ..rules import dice_stats
from ..selectors.stats import dice_rows_for_session


def _verdict_label(verdict: str) -> str:
    return {
        dice_stats.VERDICT_TOO_FEW: _("Too few rolls to judge"),
        dice_stats.VERDICT_FAIR: _("Consistent with fair dice"),
        dice_stats.VERDICT_SOMEWHAT_UNUSUAL: _("Somewhat unusual (p < 0.05)"),
        dice_stats.VERDICT_UNUSUAL: _("Unusual (p < 0.01)"),
    }[verdict]


def _histogram(stats: dice_stats.GroupStats, who: str, chart_id: str):
    histogram = stats.histogram
    counts = "; ".join(
        _("%(total)s: %(observed)s rolled, %(expected)s expected")
        % {
            "total": total,
            "observed": histogram.observed[total],
            "expected": number_format(float(histogram.expected[total]), 1),
        }
        for total in dice_stats.TOTALS
    )
    return histogram_svg(
        histogram.observed,
        histogram.expected,
        title=_("2D6 totals: %(who)s") % {"who": who},
        desc=_("Bars show the totals rolled; the dotted line shows fair dice. %(counts)s.")
        % {"counts": counts},
        observed_label=_("Actual rolls"),
        expected_label=_("Fair dice"),
        x_label=_("2D6 total"),
        chart_id=chart_id,
    )


def _summary(name: str, stats: dice_stats.GroupStats) -> dict:
    histogram = stats.histogram
    return {
        "name": name,
        "stats": stats,
        "expected_criticals": float(stats.expected_criticals),
        "expected_fumbles": float(stats.expected_fumbles),
        "expected_successes": float(stats.expected_successes),
        "success_percent": None if stats.success_rate is None else stats.success_rate * 100,
        "expected_success_percent": (
            None if stats.expected_success_rate is None else stats.expected_success_rate * 100
        ),
        "chi_square": None if histogram.chi_square is None else float(histogram.chi_square),
        "p_value": histogram.p_value,
        "verdict": histogram.verdict,
        "verdict_label": _verdict_label(histogram.verdict),
        "histogram_rows": [
            (total, histogram.observed[total], float(histogram.expected[total]))
            for total in dice_stats.TOTALS
        ],
    }


def _by_name(group) -> tuple[str, int]:
    (identifier, name), _stats = group
    return name.lower(), identifier


def dice_stats_context(rows: list[dice_stats.DiceRow], *, viewer_is_gm: bool) -> dict:
    """The stats page's tables and charts: everyone's rolls, each person's and each
    character's."""
    everyone = dice_stats.group_stats(rows)
    people = sorted(dice_stats.grouped(rows, key=lambda row: (row.who_id, row.who)), key=_by_name)
    characters = sorted(
        dice_stats.grouped(
            [row for row in rows if row.character_id is not None],
            key=lambda row: (row.character_id, row.character),
        ),
        key=_by_name,
    )
    return {
        "viewer_is_gm": viewer_is_gm,
        "everyone": _summary(_("Everyone"), everyone),
        "everyone_chart": _histogram(everyone, _("everyone"), "dice-all"),
        "people": [_summary(name, stats) for (_id, name), stats in people],
        "characters": [_summary(name, stats) for (_id, name), stats in characters],
        "person_charts": [
            (name, _histogram(stats, name, f"dice-person-{index}"))
            for index, ((_id, name), stats) in enumerate(people, start=1)
            if stats.rolls
        ],
        "rolls_for_reliable_p": dice_stats.ROLLS_FOR_RELIABLE_P,
        "degrees_of_freedom": dice_stats.DEGREES_OF_FREEDOM,
    }


def session_histogram(session, user, *, is_gm: bool, chart_id: str = "session-dice"):
    """The session's 2D6 totals against fair dice, as this viewer may count them (for the
    review page and the exported log); None when no 2D6 roll counts."""
    rows = dice_rows_for_session(session=session, user=user, is_gm=is_gm)
    everyone = dice_stats.group_stats(rows)
    if not everyone.histogram.rolls:
        return None
    return _histogram(everyone, session.title, chart_id)
