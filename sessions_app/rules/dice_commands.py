"""BCDice's common commands for the roll box: the grammar, and rolling what it parsed.

Pure Python like srs_commands.py, which builds the roll box's public API on top of this module and
adds what is SRS's own (``2D6+m>=t`` as a check, ``@c#f`` and ``[c,f]``). Every face comes
from one ``draw(count, sides)`` callable passed in, so where faces come from is decided in
one place (srs_checks.draw_faces, or faces given by a test or a stored roll).

The yardstick is BCDice itself (lib/bcdice/common_command/, lib/bcdice/preprocessor.rb,
lib/bcdice/randomizer.rb, lib/bcdice/normalize.rb) and its test data for the default
system (test/data/None.toml, AddDice.toml, UpperDice.toml, D66Dice.toml, calc.toml,
choice.toml, Repeat.toml). What is mirrored:

- Sums: ``+ - *``, ``/`` with a rounding suffix, unary signs (``2D10--3`` is ``2D10+3``),
  parentheses, ``ND`` = ``ND6``, ``DM`` = ``1DM``, ``(2+3)D6``; ``NDM`` with M = 66 rolls N
  D66 values (a bare ``D66`` inside a sum, which BCDice leaves unanswered, is 1D66 here).
  Not taken over: keep/drop (``KH``, ``MAX``…), R and tally dice, ``?`` targets.
  ``/`` floors (the default system's RoundType::FLOOR, toward minus infinity,
  as Ruby's integer division); ``/nU`` and ``/nC`` round up, ``/nR`` rounds half away from
  zero (Ruby's Float#round), ``/nF`` floors. In a sum, dividing by zero gives 1, as BCDice's
  DivideBase does; in C(...), B dice and U dice BCDice raises, and the room refuses.
- Comparisons ``> >= < <= = <>`` (also ``=>``, ``=<``, ``==``, ``!=``, normalized as
  Normalize.comparison_operator does) on a sum give success or failure only; the target is
  arithmetic without dice.
- B dice (``5B6``, ``2B6+3B8``, ``5B6>=4``): faces per group; with a comparison each face is
  compared and the successes counted, never success or failure.
- U dice (``3U6[6]``, ``2U6+1U4[4]+2>=6``, ``3U6>=6@6``): each die is rolled again and added
  while it shows the threshold or more. The threshold is given in brackets or after ``@``,
  not both, and must be at least 2; the default system has none, so it is required. With a
  comparison, each die's sum plus the modifier is compared and the successes counted;
  without, the largest die (modifier added) and the total (modifier added once).
- ``D66`` rolls two d6 read as tens and units, unsorted in the default system (and in
  BCDice's SRS system); ``D66A``/``D66S`` sort ascending, ``D66D`` descending, ``D66N`` not.
- ``C(10*3+2)`` or ``C10*3+2`` calculates without dice.
- ``choice[a,b]``, ``choice(a,b)``, ``choice a b``; ``choiceN[...]`` picks N different
  items; empty items are dropped; a single ``A-D`` or ``1-5`` item is expanded.
- Repeat (``x3``, ``rep3``, ``repeat3``) 1 to 100 times, never nested (REPEAT_LIMIT).

Limits (BCDice's Randomizer): at most 200 dice in one term and 10000 sides
(UPPER_LIMIT_DICE_TIMES, UPPER_LIMIT_DICE_SIDES; BCDice silently rolls nothing beyond
them, the room refuses instead), at most 10000 dice drawn by one command, rerolls and
repeats included (UPPER_LIMIT_RANDS), at most 100 choice items. A term must roll at least
one die of at least one side (BCDice would roll nothing for 0D6).
"""

import re
from dataclasses import dataclass
from typing import Any

from .dice_grammar import (
    EXAMPLES,
    MAX_CHOICES,
    CommandError,
    Comparison,
    DiceRoll,
    Paren,
    Reader,
    Tally,
    check_dice_size,
    comparison_operator,
    dice_free_value,
    read_add,
    read_comparison,
    read_dice,
    read_mul,
    read_term,
    read_unary,
    require_operand,
    require_target,
    starts_operand,
)

# --------------------------------------------------------------------------- the commands


@dataclass(frozen=True)
class SumCommand:
    """BCDice's AddDice: a sum of dice and numbers, maybe compared with a target."""

    tree: Any
    comparison: Comparison | None

    kind = "sum"

    @property
    def notation(self) -> str:
        return self.tree.expr() + (self.comparison.text if self.comparison else "")

    def roll(self, tally: Tally) -> tuple[int | None, dict[str, Any]]:
        total = self.tree.evaluate(tally, strict=False)
        detail: dict[str, Any] = {}
        if self.comparison is not None:
            detail = {
                "comparison": self.comparison.operator,
                "target": self.comparison.target,
                "success": self.comparison.holds(total),
            }
        return total, detail


def parse_sum(body: str, command: str) -> SumCommand:
    reader = Reader(body, command)
    if not starts_operand(reader.peek()):
        raise CommandError(
            "{command} is not understood: a roll starts with NdM ({examples})",
            command=repr(command),
            examples=EXAMPLES,
        )
    tree = read_add(reader, dice=True)
    comparison = read_comparison(reader, strict=False)
    reader.expect_end()
    if not tree.has_dice:
        raise CommandError(
            "{command} rolls no dice: add NdM, or calculate with C({command_body})",
            command=repr(command),
            command_body=body,
        )
    return SumCommand(tree, comparison)


@dataclass(frozen=True)
class BarabaraCommand:
    """BCDice's BarabaraDice (NBM): faces listed one by one, successes counted."""

    dice: tuple[tuple[int, int], ...]
    comparison: Comparison | None

    kind = "barabara"

    @property
    def notation(self) -> str:
        terms = "+".join(f"{count}B{sides}" for count, sides in self.dice)
        return terms + (self.comparison.text if self.comparison else "")

    def roll(self, tally: Tally) -> tuple[int | None, dict[str, Any]]:
        every_face = []
        for count, sides in self.dice:
            faces = tally.faces(count, sides)
            tally.group(f"{count}B{sides}", sides, faces)
            every_face.extend(faces)
        if self.comparison is None:
            return sum(every_face), {}
        successes = sum(1 for face in every_face if self.comparison.holds(face))
        detail = {
            "comparison": self.comparison.operator,
            "target": self.comparison.target,
            "successes": successes,
        }
        return sum(every_face), detail


def _read_dice_terms(reader: Reader, letter: str) -> list[tuple[int, int]]:
    terms = []
    while True:
        count = dice_free_value(read_term(reader, dice=False))
        if not reader.accept(letter):
            reader.not_understood()
        sides = dice_free_value(read_term(reader, dice=False))
        check_dice_size(reader.command, count, sides)
        terms.append((count, sides))
        if not _next_is_dice_term(reader, letter):
            return terms
        reader.take()


def _next_is_dice_term(reader: Reader, letter: str) -> bool:
    """Look past a '+' for another NBM/NUM term (U dice may add a modifier there instead)."""
    if reader.peek().kind != "+":
        return False
    saved = reader.index
    reader.take()
    try:
        read_term(reader, dice=False)
        found = reader.peek().kind == letter
    except CommandError:
        found = False
    reader.index = saved
    return found


def parse_barabara(body: str, command: str) -> BarabaraCommand:
    reader = Reader(body, command)
    dice = _read_dice_terms(reader, "B")
    comparison = read_comparison(reader)
    reader.expect_end()
    return BarabaraCommand(tuple(dice), comparison)


@dataclass(frozen=True)
class UpperCommand:
    """BCDice's UpperDice (NUM[t]): each die rerolled and added while it shows t or more."""

    dice: tuple[tuple[int, int], ...]
    threshold: int
    modifier: int
    comparison: Comparison | None

    kind = "upper"

    @property
    def notation(self) -> str:
        terms = "+".join(f"{count}U{sides}" for count, sides in self.dice)
        modifier = f"{self.modifier:+d}" if self.modifier else ""
        comparison = self.comparison.text if self.comparison else ""
        return f"{terms}[{self.threshold}]{modifier}{comparison}"

    def _roll_one(self, tally: Tally, sides: int) -> list[int]:
        chain = []
        while True:
            face = tally.faces(1, sides)[0]
            chain.append(face)
            if face < self.threshold:
                return chain

    def roll(self, tally: Tally) -> tuple[int | None, dict[str, Any]]:
        sums = []
        for count, sides in self.dice:
            chains = [self._roll_one(tally, sides) for _ in range(count)]
            values = [sum(chain) for chain in chains]
            faces = [face for chain in chains for face in chain]
            tally.group(f"{count}U{sides}", sides, faces, dice=chains, values=values)
            sums.extend(values)
        detail: dict[str, Any] = {"threshold": self.threshold, "modifier": self.modifier}
        total = sum(sums) + self.modifier
        if self.comparison is None:
            detail["maximum"] = max(sums) + self.modifier
            return total, detail
        detail["comparison"] = self.comparison.operator
        detail["target"] = self.comparison.target
        detail["successes"] = sum(
            1 for value in sums if self.comparison.holds(value + self.modifier)
        )
        return total, detail


def _read_upper_modifier(reader: Reader) -> int:
    modifier = 0
    while reader.peek().kind in ("+", "-"):
        sign = reader.take().kind
        require_operand(reader, sign)
        value = dice_free_value(read_mul(reader, dice=False))
        modifier += value if sign == "+" else -value
    return modifier


def _read_threshold(reader: Reader, opener: str) -> int | None:
    if not reader.accept(opener):
        return None
    value = dice_free_value(read_add(reader, dice=False))
    if opener == "[" and not reader.accept("]"):
        raise CommandError("missing ']' in {command}", command=repr(reader.command))
    return value


def parse_upper(body: str, command: str) -> UpperCommand:
    reader = Reader(body, command)
    dice = _read_dice_terms(reader, "U")
    in_brackets = _read_threshold(reader, "[")
    modifier = _read_upper_modifier(reader)
    comparison = read_comparison(reader)
    after_at = _read_threshold(reader, "@")
    reader.expect_end()
    if in_brackets is not None and after_at is not None:
        raise CommandError(
            "give the reroll threshold of {command} as [t] or as @t, not both",
            command=repr(command),
        )
    threshold = in_brackets if in_brackets is not None else after_at
    if threshold is None or threshold < 2:
        raise CommandError(
            "{command} needs a reroll threshold of at least 2, as in 3U6[6] or 3U6>=6@6",
            command=repr(command),
        )
    return UpperCommand(tuple(dice), threshold, modifier, comparison)


@dataclass(frozen=True)
class CalcCommand:
    """BCDice's Calc: C(...) works out arithmetic without dice."""

    tree: Any
    value: int

    kind = "calc"

    @property
    def notation(self) -> str:
        body = self.tree.expr()
        return f"C{body}" if isinstance(self.tree, Paren) else f"C({body})"

    def roll(self, tally: Tally) -> tuple[int | None, dict[str, Any]]:
        return self.value, {}


def parse_calc(body: str, command: str) -> CalcCommand:
    reader = Reader(body, command)
    reader.take()  # the C
    tree = read_add(reader, dice=False)
    reader.expect_end()
    return CalcCommand(tree, dice_free_value(tree))


@dataclass(frozen=True)
class D66Command:
    """BCDice's D66: two d6 read as tens and units, sorted only when a suffix asks."""

    suffix: str

    kind = "d66"

    @property
    def notation(self) -> str:
        return f"D66{self.suffix}"

    def roll(self, tally: Tally) -> tuple[int | None, dict[str, Any]]:
        faces = tally.faces(2, 6)
        tally.group(self.notation, 6, faces)
        pair = list(faces)
        if self.suffix in ("A", "S"):
            pair.sort()
        elif self.suffix == "D":
            pair.sort(reverse=True)
        return pair[0] * 10 + pair[1], {}


@dataclass(frozen=True)
class ChoiceCommand:
    """BCDice's Choice: pick one item (or N different ones) from a list."""

    items: tuple[str, ...]
    takes: int
    notation: str

    kind = "choice"

    def roll(self, tally: Tally) -> tuple[int | None, dict[str, Any]]:
        remaining = list(self.items)
        chosen = []
        for _ in range(self.takes):
            index = tally.faces(1, len(remaining))[0] - 1
            chosen.append(remaining.pop(index))
        return None, {"chosen": chosen}


_CHOICE_RE = re.compile(r"\s*(S?)CHOICE(\d*)", re.IGNORECASE)
_CHOICE_CLOSERS = {"[": "]", "(": ")"}
_SHORTHAND_RE = (re.compile(r"(\d+)-(\d+)"), re.compile(r"([a-z])-([a-z])"))
_SHORTHAND_UPPER_RE = re.compile(r"([A-Z])-([A-Z])")


def is_choice(text: str) -> bool:
    return _CHOICE_RE.match(text) is not None


def _expand_shorthand(item: str) -> list[str]:
    numbers = _SHORTHAND_RE[0].fullmatch(item)
    if numbers and int(numbers[1]) <= int(numbers[2]):
        first, last = int(numbers[1]), int(numbers[2])
        if last - first >= MAX_CHOICES:
            return [str(first)] * (MAX_CHOICES + 1)  # too many either way: refused below
        return [str(number) for number in range(first, last + 1)]
    letters = _SHORTHAND_RE[1].fullmatch(item) or _SHORTHAND_UPPER_RE.fullmatch(item)
    if letters and letters[1] <= letters[2]:
        return [chr(code) for code in range(ord(letters[1]), ord(letters[2]) + 1)]
    return [item]


def _split_choice(rest: str, command: str) -> tuple[list[str], str, str, str]:
    """Return the items, how they were written (opener, closer) and the text after them."""
    opener = rest[:1]
    if opener in _CHOICE_CLOSERS:
        closer = _CHOICE_CLOSERS[opener]
        end = rest.find(closer)
        if end < 0:
            raise CommandError(
                "missing {closer} in {command}", closer=repr(closer), command=repr(command)
            )
        return rest[1:end].split(","), opener, closer, rest[end + 1 :].strip()
    if rest[:1].isspace():
        return rest.split(), " ", "", ""
    raise CommandError(
        "choice lists its items as choice[a,b,c], choice(a,b,c) or choice a b c, not {command}",
        command=repr(command),
    )


def parse_choice(text: str) -> tuple[bool, ChoiceCommand, str]:
    """Parse a whole choice command; return (secret, command, label after the items)."""
    match = _CHOICE_RE.match(text)
    command = text.strip()
    takes = int(match[2]) if match[2] else 1
    raw_items, opener, closer, label = _split_choice(text[match.end() :], command)
    items = [item.strip() for item in raw_items if item.strip()]
    if len(items) == 1:
        items = _expand_shorthand(items[0])
    if takes < 1 or not items:
        raise CommandError("{command} has nothing to choose from", command=repr(command))
    if len(items) > MAX_CHOICES:
        raise CommandError("choose from at most {limit} items", limit=MAX_CHOICES)
    if takes > len(items):
        raise CommandError(
            "{command} picks {takes} items from only {count}",
            command=repr(command),
            takes=takes,
            count=len(items),
        )
    shown_takes = str(takes) if takes != 1 else ""
    separator = " " if opener == " " else ","
    written = separator.join(items) if len(raw_items) != 1 else raw_items[0].strip()
    notation = f"choice{shown_takes}{opener}{written}{closer}"
    return bool(match[1]), ChoiceCommand(tuple(items), takes, notation), label


# --------------------------------------------------------------------------- dispatch

_D66_RE = re.compile(r"D66([ANSD]?)")
_CALC_RE = re.compile(r"C[-+(\d]")
_UPPER_RE = re.compile(r"[\d)]U[\d(]")
_BARABARA_RE = re.compile(r"[\d)]B[\d(]")
REPEAT_RE = re.compile(r"(S?)(REPEAT|REP|X)(\d+)")


def parse_common(body: str, command: str) -> Any:
    """Parse one normalized command word (no secret prefix) of the kinds that use no '@#['."""
    d66 = _D66_RE.fullmatch(body)
    if d66:
        return D66Command(d66[1])
    if _CALC_RE.match(body):
        return parse_calc(body, command)
    if _UPPER_RE.search(body):
        return parse_upper(body, command)
    if _BARABARA_RE.search(body):
        return parse_barabara(body, command)
    return parse_sum(body, command)


def uses_upper_dice(body: str) -> bool:
    return _UPPER_RE.search(body) is not None


# --------------------------------------------------------------------------- SRS check options

_BRACKET_BODY_RE = re.compile(r"(-?\d*)(?:,(-?\d*))?")

# One sentence per value rather than the value's name filled in: a translation can then
# word each naturally.
_OPTION_MESSAGES = {
    "critical": {
        "missing": "'{symbol}' must be followed by the critical value in {command}",
        "twice": "the critical value is given twice in {command}",
    },
    "fumble": {
        "missing": "'{symbol}' must be followed by the fumble value in {command}",
        "twice": "the fumble value is given twice in {command}",
    },
}


@dataclass
class CheckParts:
    """An SRS check as BCDice's SRS system reads it: 2D6, modifiers, @c #f or [c,f], >=t."""

    modifier: int = 0
    modifier_blocks: int = 0
    critical: int | None = None
    fumble: int | None = None
    target: int | None = None
    has_target: bool = False
    has_options: bool = False
    has_brackets: bool = False


def _only_srs_checks(command: str) -> CommandError:
    return CommandError(
        "only an SRS check (2D6 and modifiers) takes a critical or fumble value, "
        "not {command}; a plain sum or comparison has neither",
        command=repr(command),
    )


def _read_option(reader: Reader, parts: CheckParts) -> None:
    symbol = reader.take().kind
    name = "critical" if symbol == "@" else "fumble"
    if parts.has_target:
        raise CommandError(
            "'{symbol}' must come before '>=' in {command} ({examples})",
            symbol=symbol,
            command=repr(reader.command),
            examples=EXAMPLES,
        )
    if not starts_operand(reader.peek()) or reader.peek().kind == "D":
        raise CommandError(
            _OPTION_MESSAGES[name]["missing"], symbol=symbol, command=repr(reader.command)
        )
    if getattr(parts, name) is not None:
        raise CommandError(_OPTION_MESSAGES[name]["twice"], command=repr(reader.command))
    setattr(parts, name, dice_free_value(read_unary(reader, dice=False)))
    parts.has_options = True


def _read_brackets(reader: Reader, parts: CheckParts) -> None:
    start = reader.take().at + 1
    end = reader.body.find("]", start)
    if end < 0:
        raise CommandError("missing ']' in {command}", command=repr(reader.command))
    if parts.has_options:
        raise CommandError(
            "give critical/fumble either as @c#f or as [c,f], not both, in {command}",
            command=repr(reader.command),
        )
    body = reader.body[start:end]
    numbers = _BRACKET_BODY_RE.fullmatch(body)
    if numbers is None or "-" in (numbers[1], numbers[2]):
        raise CommandError(
            "[{body}] in {command} is not understood: brackets hold at most two numbers, "
            "[critical,fumble], either of which may be left out",
            body=body,
            command=repr(reader.command),
        )
    if numbers[1]:
        parts.critical = int(numbers[1])
    if numbers[2]:
        parts.fumble = int(numbers[2])
    parts.has_brackets = True
    while reader.peek().at <= end and not reader.at_end():
        reader.take()


def _read_modifier(reader: Reader, parts: CheckParts, previous_was_modifier: bool) -> None:
    if parts.has_target:
        raise CommandError(
            "the modifier must come before '>=' in {command}", command=repr(reader.command)
        )
    if not previous_was_modifier:
        parts.modifier_blocks += 1
    if parts.modifier_blocks > 1:
        raise CommandError(
            "write the modifier in one place, before or after @/#, in {command}",
            command=repr(reader.command),
        )
    sign = reader.take().kind
    require_operand(reader, sign)
    term = read_mul(reader, dice=True)
    if term.has_dice:
        raise _only_srs_checks(reader.command)
    value = dice_free_value(term, strict=False)
    parts.modifier += value if sign == "+" else -value


def _read_target(reader: Reader, parts: CheckParts) -> None:
    token = reader.take()
    operator = comparison_operator(token.text)
    if operator != ">=":
        raise CommandError(
            "SRS checks compare with '>=' only; {operator} in {command} is not understood",
            operator=repr(token.text),
            command=repr(reader.command),
        )
    if parts.has_target:
        raise CommandError("the target is given twice in {command}", command=repr(reader.command))
    require_target(reader, token)
    target = read_add(reader, dice=True)
    if target.has_dice:
        raise CommandError("the target in {command} cannot roll dice", command=repr(reader.command))
    parts.target = dice_free_value(target, strict=False)
    parts.has_target = True


def parse_check_options(body: str, command: str) -> CheckParts:
    """Parse an SRS check written with @c, #f or [c,f], refusing what BCDice's SRS would."""
    reader = Reader(body, command)
    lead = read_dice(reader)
    if not (isinstance(lead, DiceRoll) and lead.literal == "2D6"):
        raise _only_srs_checks(command)
    parts = CheckParts()
    previous_was_modifier = False
    while not reader.at_end():
        if parts.has_brackets:
            raise CommandError(
                "nothing may follow ']' in {command}: found {rest}",
                command=repr(command),
                rest=repr(reader.rest()),
            )
        kind = reader.peek().kind
        is_modifier = kind in ("+", "-")
        if is_modifier:
            _read_modifier(reader, parts, previous_was_modifier)
        elif kind in ("@", "#"):
            _read_option(reader, parts)
        elif kind == "cmp":
            _read_target(reader, parts)
        elif kind == "[":
            _read_brackets(reader, parts)
        else:
            reader.not_understood()
        previous_was_modifier = is_modifier
    return parts


def has_check_options(body: str) -> bool:
    return any(symbol in body for symbol in "@#[")
