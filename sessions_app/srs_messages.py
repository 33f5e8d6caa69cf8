"""The roll-box parser's refusals, marked for translation.

`srs.py` stays free of Django and raises its refusals as English templates with named
values; the app shows them in the reader's language on the way out.
"""

from django.utils.translation import gettext, gettext_noop

from . import srs

COMMAND_MESSAGES = [
    gettext_noop("'{sign}' must be followed by a number in {command}"),
    gettext_noop("'{symbol}' must be followed by the critical value in {command}"),
    gettext_noop("'{symbol}' must be followed by the fumble value in {command}"),
    gettext_noop("'{symbol}' must come before '>=' in {command} ({examples})"),
    gettext_noop("An amount is at most 999."),
    gettext_noop("SRS checks compare with '>=' only; {operator} in {command} is not understood"),
    gettext_noop(
        "SRS checks roll 2D6, so {command} cannot take a target, critical or fumble; "
        "{dice} with only a modifier is a plain sum"
    ),
    gettext_noop(
        "[{body}] in {command} is not understood: brackets hold at most two numbers, "
        "[critical,fumble], either of which may be left out"
    ),
    gettext_noop("a command must be text, got {text}"),
    gettext_noop("give critical/fumble either as @c#f or as [c,f], not both, in {command}"),
    gettext_noop("missing ']' in {command}"),
    gettext_noop("nothing may follow ']' in {command}: found {rest}"),
    gettext_noop(
        "remove the space before {label}: text after a space is read as a comment, "
        "so {text} would roll just {command}"
    ),
    gettext_noop("the command is empty ({examples})"),
    gettext_noop("the command is longer than {limit} characters"),
    gettext_noop("the critical value is given twice in {command}"),
    gettext_noop("the fumble value is given twice in {command}"),
    gettext_noop("the modifier must come before '>=' in {command}"),
    gettext_noop("the target is given twice in {command}"),
    gettext_noop("the target number is missing after '>=' in {command}"),
    gettext_noop("too many dice in {command}: N must be ≤ {limit} (NdM)"),
    gettext_noop("too many faces in {command}: M must be ≤ {limit} (NdM)"),
    gettext_noop("write the modifier in one place, before or after @/#, in {command}"),
    gettext_noop("{command} is not understood: a roll starts with NdM ({examples})"),
    gettext_noop("{command} rolls nothing: N and M in NdM must be at least 1"),
    gettext_noop("{text} is not a number or a dice sum such as 1D6 or 2D6+1."),
    gettext_noop("{unread} in {command} is not understood ({examples})"),
    gettext_noop("e.g. 2D6+2>=10, 2D6+1@11#3>=9, 2D6>=10[11,3], S2D6>=9 or 1D6+1"),
]


def command_error_message(error: srs.CommandError) -> str:
    """The refusal in the active language (English where no translation exists)."""
    values = dict(error.values)
    if "examples" in values:
        values["examples"] = gettext(values["examples"])
    return gettext(error.template).format(**values)
