"""The chat palette (チャットパレット) and the resource commands players type, in pure Python.

A palette is text, one command or line of chat per line, as Ccfolia keeps it: `{name}`
stands for a value of the sheet and is resolved when the line is sent, so the line always
rolls with the current value. A resource command is Ccfolia's `:HP-3`, `:MP+1`, `:HP=10`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

PALETTE_MAX_CHARS = 20000
PALETTE_MAX_LINES = 500
LINE_MAX_CHARS = 2000

_REFERENCE = re.compile(r"\{([^{}\n]{1,60})\}")
# `:HP-3`, `:MP+1D6`, `:HP=10`: a name, an operator, an amount the rules would write.
_RESOURCE_COMMAND = re.compile(
    r"^:(?P<name>[^\s+\-=:−]{1,60})\s*(?P<op>[+\-=−])\s*(?P<amount>[0-9Dd+\-]{1,20})$"
)


class PaletteError(ValueError):
    """A palette line that cannot be sent as written; `reference` names the unknown value."""

    def __init__(self, reference: str):
        super().__init__(reference)
        self.reference = reference


def palette_lines(text: str) -> list[str]:
    """The lines of a palette worth showing: without blank lines and trailing spaces."""
    return [line.rstrip() for line in (text or "").splitlines() if line.strip()]


def palette_default(judgement_values: Iterable[str], resources: Iterable[str]) -> str:
    """The palette made from a sheet: each judgement value as its check, awaiting the
    difficulty, then each resource's two commands, awaiting the amount."""
    lines = [f"2D6+{{{name}}}>=" for name in judgement_values]
    lines.append("2D6")
    for name in resources:
        lines += [f":{name}-", f":{name}+"]
    return "\n".join(lines)


def palette_resolve(line: str, values: Mapping[str, object]) -> str:
    """Replace each `{name}` with the sheet's value; raise PaletteError for an unknown one."""

    def value_of(match: re.Match[str]) -> str:
        name = match.group(1).strip()
        if name not in values:
            raise PaletteError(name)
        return str(values[name])

    return _REFERENCE.sub(value_of, line)


@dataclass(frozen=True)
class ResourceCommand:
    """A resource command as typed: which resource, how it changes, by what amount."""

    name: str
    op: str  # "+", "-" or "="
    amount: str  # a number or a dice sum, as srs.amount_parse reads it


def resource_command_parse(text: str) -> ResourceCommand | None:
    """Read `:HP-3` and the like (full-width characters too); None for anything else."""
    normalized = unicodedata.normalize("NFKC", (text or "").strip())
    match = _RESOURCE_COMMAND.match(normalized)
    if match is None:
        return None
    # NFKC keeps the minus sign (U+2212) that Japanese input methods often type for "-".
    op = "-" if match.group("op") == "−" else match.group("op")
    return ResourceCommand(name=match.group("name"), op=op, amount=match.group("amount").upper())


def resource_apply(current: int, maximum: int, op: str, amount: int) -> int:
    """The new current value, from 0 to the maximum (the sheet refuses a value above it);
    a value already above its maximum is not cut down by a gain."""
    if op == "=":
        return max(0, min(maximum, amount))
    if op == "-":
        return max(0, current - amount)
    return max(current, min(maximum, current + amount))
