"""The roll-box parser's refusals, marked for translation.

The rules package (`rules/`) stays free of Django and raises its refusals as English
templates with named values; the app shows them in the reader's language on the way out.
"""

from django.utils.translation import gettext, gettext_noop

from .rules import srs_commands

# The modifier labels the app itself writes into a roll: stored in English, so that each
# reader sees them in their own language whoever rolled.
GM_MODIFIER = gettext_noop("GM modifier")
MODIFIER_LABELS = (GM_MODIFIER,)

COMMAND_MESSAGES = [
    gettext_noop("'{sign}' must be followed by a number in {command}"),
    gettext_noop("'{symbol}' must be followed by the critical value in {command}"),
    gettext_noop("'{symbol}' must be followed by the fumble value in {command}"),
    gettext_noop("'{symbol}' must come before '>=' in {command} ({examples})"),
    gettext_noop("An amount is at most 999."),
    gettext_noop("SRS checks compare with '>=' only; {operator} in {command} is not understood"),
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
    gettext_noop("the result holds {number}, beyond the largest number a roll keeps ({limit})"),
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
    gettext_noop(
        "e.g. 2D6+2>=10, 2D6>=10[11,3], 3D6/2, 5B6>=4, 3U6[6], D66, C(10*3+2), "
        "choice[a,b,c], x3 2D6 or S2D6>=9"
    ),
    # BCDice's common commands (dice_commands.py).
    gettext_noop("a repeat cannot hold another repeat: {command}"),
    gettext_noop(
        "choice lists its items as choice[a,b,c], choice(a,b,c) or choice a b c, not {command}"
    ),
    gettext_noop("choose from at most {limit} items"),
    gettext_noop("give the reroll threshold of {command} as [t] or as @t, not both"),
    gettext_noop("missing ')' in {command}"),
    gettext_noop("missing {closer} in {command}"),
    gettext_noop(
        "only an SRS check (2D6 and modifiers) takes a critical or fumble value, "
        "not {command}; a plain sum or comparison has neither"
    ),
    gettext_noop("repeat from 1 to {limit} times, not {times}"),
    gettext_noop("the number of dice and of sides cannot be rolled in {command}"),
    gettext_noop("the target in {command} cannot roll dice"),
    gettext_noop("the target number is missing after {operator} in {command}"),
    gettext_noop("{command} divides by zero"),
    gettext_noop("{command} ends too early"),
    gettext_noop("{command} has nothing to choose from"),
    gettext_noop("{command} must be followed by the command to repeat, as in x3 2D6+1>=8"),
    gettext_noop("{command} needs a reroll threshold of at least 2, as in 3U6[6] or 3U6>=6@6"),
    gettext_noop("{command} picks {takes} items from only {count}"),
    gettext_noop("{command} rolls more than {limit} dice in all"),
    gettext_noop("{command} rolls no dice: add NdM, or calculate with C({command_body})"),
]


def command_error_message(error: srs_commands.CommandError) -> str:
    """The refusal in the active language (English where no translation exists)."""
    values = dict(error.values)
    if "examples" in values:
        values["examples"] = gettext(values["examples"])
    return gettext(error.template).format(**values)
