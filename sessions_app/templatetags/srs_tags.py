"""Template filters for SRS terms: outcomes, contest reasons, judgement value names, odds."""

import re
from fractions import Fraction

from django import template
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from ..judgement import display_name
from ..models import SHIPPED_EXPERIENCE_LABELS, Phase
from ..rules import srs_checks
from ..shipped_names import shown_name
from ..srs_messages import MODIFIER_LABELS

register = template.Library()


@register.filter
def outcome_label(outcome: str) -> str:
    labels = {
        srs_checks.OUTCOME_CRITICAL: _("Critical"),
        srs_checks.OUTCOME_FUMBLE: _("Fumble"),
        srs_checks.OUTCOME_SUCCESS: _("Success"),
        srs_checks.OUTCOME_FAILURE: _("Failure"),
        srs_checks.OUTCOME_ACHIEVED: pgettext("check outcome", "Achievement"),
    }
    return labels.get(outcome, outcome)


@register.filter
def reason_label(reason: str) -> str:
    labels = {
        srs_checks.REASON_ACTION_FUMBLE: _("the action side fumbled"),
        srs_checks.REASON_REACTION_FUMBLE: _("the reaction side fumbled"),
        srs_checks.REASON_ACTION_CRITICAL: _("the action side rolled a critical"),
        srs_checks.REASON_BOTH_CRITICAL: _("both rolled a critical: reaction priority"),
        srs_checks.REASON_REACTION_CRITICAL: _("the reaction side rolled a critical"),
        srs_checks.REASON_HIGHER_ACHIEVEMENT: _("higher achievement"),
        srs_checks.REASON_TIE_REACTION_PRIORITY: _("a tie: reaction priority"),
    }
    return labels.get(reason, reason)


@register.filter
def side_label(side: str) -> str:
    return {"action": _("Action side"), "reaction": _("Reaction side")}.get(side, side)


@register.filter
def value_name(name: str) -> str:
    return display_name(name or "")


@register.filter
def modifier_label(label: str) -> str:
    """Translate the modifier labels the app writes; a player's own labels show as typed."""
    return shown_name(label or "", MODIFIER_LABELS)


@register.filter
def modifier_list(rows) -> str:
    """A roll's modifiers ("GM modifier +1, Shield +3"), joined as the language joins a list."""
    return list_separator().join(
        f"{modifier_label(row['label'])} {signed(row['amount'])}" for row in rows or ()
    )


# Hiragana, katakana (with the half-width forms), CJK ideographs and the CJK punctuation.
_JAPANESE_SCRIPT = re.compile(
    r"[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f]"
)


@register.filter
def speech_quotes(text: str) -> tuple[str, str]:
    """The quotation marks around an in-character line: those of the line's own language
    (「」 for Japanese, “” otherwise), whatever the reader's, as a printed replay would."""
    return ("「", "」") if _JAPANESE_SCRIPT.search(str(text or "")) else ("“", "”")


@register.simple_tag
def list_separator() -> str:
    """What separates the items of a list: ", " in English, "、" in Japanese."""
    return pgettext("between the items of a list", ", ")


@register.simple_tag
def label_separator() -> str:
    """What stands between a label and its value: ": " in English, "：" in Japanese."""
    return pgettext("between a label and its value", ": ")


@register.filter
def percent(chance) -> str:
    """Show an exact chance as a percentage with one decimal: 21/36 → 58.3%."""
    if chance is None or chance == "":
        return ""
    fraction = Fraction(chance)
    return f"{float(fraction) * 100:.1f}%"


@register.filter
def fraction_of_36(chance) -> str:
    """Show a chance of one 2D6 roll as n/36 (or n/1296 for contests) when it is one."""
    fraction = Fraction(chance)
    for denominator in (36, 1296):
        scaled = fraction * denominator
        if scaled.denominator == 1:
            return f"{scaled.numerator}/{denominator}"
    return f"{fraction.numerator}/{fraction.denominator}"


@register.filter
def signed(number) -> str:
    try:
        return f"{int(number):+d}"
    except (TypeError, ValueError):
        return ""


@register.filter
def complement(chance) -> Fraction:
    return 1 - Fraction(chance)


@register.filter
def item(values, index):
    """Return values[index], or "" when there is none (a template cannot subscript)."""
    try:
        return values[int(index)]
    except (IndexError, KeyError, TypeError, ValueError):
        return ""


@register.filter
def die_src(face) -> str:
    """URL of the picture of a d6 face (through the storage, so hashed names work)."""
    return static(f"img/dice/d{int(face)}.svg")


@register.filter
def phase_label(phase: str) -> str:
    try:
        return Phase(phase).label
    except ValueError:
        return phase


@register.filter
def experience_label(label: str) -> str:
    """Translate the experience lines the app ships; a group's own reasons show as typed."""
    return shown_name(label, SHIPPED_EXPERIENCE_LABELS)
