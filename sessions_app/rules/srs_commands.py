"""The roll box's commands: SRS's own (``2D6+m>=t`` as a check, ``@c#f`` and ``[c,f]``)
on top of BCDice's common commands (dice_commands), parsed and rolled. Every face comes
from one injectable draw, as for a check."""

import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from random import Random
from typing import Any

# Faces are drawn through srs_checks.draw_faces looked up at each roll: one function
# draws every face the app rolls, and a test can stand in for it.
from . import dice_commands, dice_grammar, srs_checks
from .dice_grammar import CommandError
from .srs_checks import (
    DEFAULT_CRITICAL,
    DEFAULT_FUMBLE,
    KIND_CHECK,
    KIND_SUM,
    MAX_COMMAND_CHARS,
    MAX_NUMBER,
    CheckResult,
    _refuse_mismatch,
    _require_int,
    check,
)

# --------------------------------------------------------------------------- roll-box commands

KIND_BARABARA = "barabara"
KIND_UPPER = "upper"
KIND_CALC = "calc"
KIND_CHOICE = "choice"
KIND_D66 = "d66"
KIND_REPEAT = "repeat"

# A comment starting with one of these is almost surely the rest of the command split off
# by a stray space ("2D6 +2>=10"); rolling a plain 2D6 then would silently mislead.
_COMMAND_CHARACTERS = frozenset("+-@#[]<>=!")
_EXAMPLES = dice_grammar.EXAMPLES
# Roll.command holds the notation in 200 characters, secret prefix included.
MAX_NOTATION_CHARS = 190
D66 = dice_grammar.D66_SIDES


@dataclass(frozen=True)
class RepeatPlan:
    times: int
    inner: "ParsedCommand"

    @property
    def notation(self) -> str:
        return f"x{self.times} {self.inner.notation}"


@dataclass(frozen=True)
class ParsedCommand:
    text: str
    kind: str
    secret: bool
    count: int
    faces: int
    modifier: int
    target: int | None
    critical: int | None
    fumble: int | None
    label: str
    comparison: str | None = None
    # What the dice_commands grammar read; rebuilt from the text, so never serialized.
    plan: Any = field(default=None, compare=False, repr=False)

    @property
    def notation(self) -> str:
        """Spell the command the way BCDice echoes it, without the secret prefix."""
        if self.kind in (KIND_CHECK, KIND_SUM) and self.plan is None:
            modifier = f"{self.modifier:+d}" if self.modifier else ""
            text = f"{self.count}D{self.faces}{modifier}"
            if self.kind == KIND_SUM:
                return text + (f"{self.comparison}{self.target}" if self.comparison else "")
            if self.target is not None:
                text += f">={self.target}"
            return f"{text}[{self.critical},{self.fumble}]"
        return self.plan.notation

    def to_dict(self) -> dict[str, Any]:
        """Return every field as plain JSON types."""
        return {name: getattr(self, name) for name in self.__dataclass_fields__ if name != "plan"}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "ParsedCommand":
        """Rebuild a command by parsing its stored text again."""
        # The stored values stand in for the table's, which the text may have left out.
        parsed = parse_command(
            data["text"],
            critical=data.get("critical") or DEFAULT_CRITICAL,
            fumble=data.get("fumble") or DEFAULT_FUMBLE,
        )
        _refuse_mismatch(parsed.to_dict(), data)
        return parsed


@dataclass(frozen=True)
class CommandResult:
    command: ParsedCommand
    faces: tuple[int, ...]
    total: int | None
    check: CheckResult | None
    # Kind-specific results as JSON: faces per term ("groups"), successes, choices, repeats.
    detail: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """Return the command, the faces and the verdict as plain JSON types."""
        return {
            "command": self.command.to_dict(),
            "faces": list(self.faces),
            "total": self.total,
            "check": None if self.check is None else self.check.to_dict(),
            "detail": self.detail,
        }

    def summary(self) -> dict[str, Any]:
        """Return what the room shows: the kind, the total, faces per term and the verdict."""
        return {"kind": self.command.kind, "total": self.total, "groups": [], **self.detail}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "CommandResult":
        """Rebuild a result from to_dict() output, re-deciding it from the faces."""
        result = _resolve_command(ParsedCommand.from_dict(data["command"]), data["faces"])
        _refuse_mismatch(result.to_dict(), data)
        return result


def _simple_parsed(text, kind, secret, label, plan, **values) -> ParsedCommand:
    return ParsedCommand(
        text=text,
        kind=kind,
        secret=secret,
        count=values.get("count", 0),
        faces=values.get("faces", 0),
        modifier=values.get("modifier", 0),
        target=values.get("target"),
        critical=values.get("critical"),
        fumble=values.get("fumble"),
        label=label,
        comparison=values.get("comparison"),
        plan=plan,
    )


def _leading_dice(tree: Any, numbers_only: bool = False) -> tuple[Any, int] | None:
    """Return (the dice, the modifier) of a sum shaped NdM+k-j…, else None.

    SRS's check takes any arithmetic without dice after its 2D6 (``2D6+1*2``); the classic
    NdM+k notation only plain numbers (``numbers_only``).
    """
    node = tree
    while isinstance(node, dice_grammar.BinOp) and node.op in "+-" and not node.rounding:
        if node.right.has_dice or (numbers_only and not isinstance(node.right, dice_grammar.Num)):
            return None
        node = node.left
    if not isinstance(node, dice_grammar.DiceRoll) or node.sides == D66:
        return None
    modifier = 0
    node = tree
    while isinstance(node, dice_grammar.BinOp):
        value = dice_grammar.dice_free_value(node.right, strict=False)
        modifier += value if node.op == "+" else -value
        node = node.left
    return node, modifier


def _dice_shape(plan: Any) -> tuple[int, int]:
    """Count the dice a plan rolls before any reroll, and their size if they share one."""
    if isinstance(plan, dice_commands.SumCommand):
        # A D66 value is two d6 faces.
        pairs = [
            (roll.count * 2, 6) if roll.sides == D66 else (roll.count, roll.sides)
            for roll in _dice_nodes(plan.tree)
        ]
    elif isinstance(plan, dice_commands.BarabaraCommand):
        pairs = list(plan.dice)
    elif isinstance(plan, dice_commands.D66Command):
        pairs = [(2, 6)]
    else:
        # Rerolled (U) dice are not a fixed number of fair faces; calc and choice roll none.
        return (sum(count for count, _ in getattr(plan, "dice", ())), 0)
    sizes = {sides for _, sides in pairs}
    return sum(count for count, _ in pairs), (sizes.pop() if len(sizes) == 1 else 0)


def _dice_nodes(node: Any):
    if isinstance(node, dice_grammar.DiceRoll):
        yield node
    for child in ("body", "left", "right"):
        if hasattr(node, child):
            yield from _dice_nodes(getattr(node, child))


def _check_command(text, secret, label, critical, fumble, modifier, target) -> ParsedCommand:
    return ParsedCommand(
        text=text,
        kind=KIND_CHECK,
        secret=secret,
        count=2,
        faces=6,
        modifier=modifier,
        target=target,
        critical=critical,
        fumble=fumble,
        label=label,
    )


def _parse_sum(text, secret, label, plan, critical, fumble) -> ParsedCommand:
    comparison = plan.comparison
    leading = _leading_dice(plan.tree)
    is_srs_shape = leading is not None and leading[0].literal == "2D6"
    if is_srs_shape and comparison is not None and comparison.operator == ">=":
        # BCDice's SRS system reads 2D6+m>=t as its check, with critical and fumble.
        return _check_command(text, secret, label, critical, fumble, leading[1], comparison.target)
    count, sides = _dice_shape(plan)
    values = {
        "count": count,
        "faces": sides,
        "target": comparison.target if comparison else None,
        "comparison": comparison.operator if comparison else None,
    }
    classic = _leading_dice(plan.tree, numbers_only=True)
    if classic is not None:
        values.update(count=classic[0].count, faces=classic[0].sides, modifier=classic[1])
        plan = None  # the classic NdM+k notation, as before
    return _simple_parsed(text, KIND_SUM, secret, label, plan, **values)


def _parse_word(text, command, label, critical, fumble) -> ParsedCommand:
    # NFKC folds the full-width digits and letters that Japanese input methods often produce.
    normalized = unicodedata.normalize("NFKC", command).upper()
    secret = normalized.startswith("S")
    body = normalized[1:] if secret else normalized
    if dice_commands.has_check_options(body) and not dice_commands.uses_upper_dice(body):
        parts = dice_commands.parse_check_options(body, command)
        return _check_command(
            text,
            secret,
            label,
            critical if parts.critical is None else parts.critical,
            fumble if parts.fumble is None else parts.fumble,
            parts.modifier,
            parts.target,
        )
    plan = dice_commands.parse_common(body, command)
    if isinstance(plan, dice_commands.SumCommand):
        return _parse_sum(text, secret, label, plan, critical, fumble)
    count, sides = _dice_shape(plan)
    values = {"count": count, "faces": sides}
    if isinstance(plan, dice_commands.UpperCommand):
        values["modifier"] = plan.modifier
    if getattr(plan, "comparison", None) is not None:
        values.update(target=plan.comparison.target, comparison=plan.comparison.operator)
    return _simple_parsed(text, plan.kind, secret, label, plan, **values)


def _split_label(text: str) -> tuple[str, str]:
    # str.split() also splits on the ideographic space (U+3000) that Japanese IMEs type.
    split = text.split(maxsplit=1)
    command = split[0]
    label = split[1] if len(split) > 1 else ""
    if len(command) > MAX_COMMAND_CHARS:
        raise CommandError("the command is longer than {limit} characters", limit=MAX_COMMAND_CHARS)
    if label and unicodedata.normalize("NFKC", label[0]) in _COMMAND_CHARACTERS:
        raise CommandError(
            "remove the space before {label}: text after a space is read as a comment, "
            "so {text} would roll just {command}",
            label=repr(label),
            text=repr(text),
            command=repr(command),
        )
    return command, label


def _parse_choice(text: str) -> ParsedCommand:
    secret, plan, label = dice_commands.parse_choice(unicodedata.normalize("NFKC", text))
    return _simple_parsed(text, KIND_CHOICE, secret, label, plan)


def _parse_one(text: str, critical: int, fumble: int) -> ParsedCommand:
    if dice_commands.is_choice(unicodedata.normalize("NFKC", text)):
        return _parse_choice(text)
    command, label = _split_label(text)
    return _parse_word(text, command, label, critical, fumble)


def _parse_repeat(text, repeat, rest, critical, fumble) -> ParsedCommand:
    times = int(repeat[3])
    if not 1 <= times <= dice_grammar.MAX_REPEATS:
        raise CommandError(
            "repeat from 1 to {limit} times, not {times}",
            limit=dice_grammar.MAX_REPEATS,
            times=times,
        )
    if not rest:
        raise CommandError(
            "{command} must be followed by the command to repeat, as in x3 2D6+1>=8",
            command=repr(text),
        )
    inner_word = unicodedata.normalize("NFKC", rest.split(maxsplit=1)[0]).upper()
    if dice_commands.REPEAT_RE.fullmatch(inner_word):
        raise CommandError("a repeat cannot hold another repeat: {command}", command=repr(text))
    inner = _parse_one(rest, critical, fumble)
    if inner.count * times > dice_grammar.MAX_DRAWS:
        raise CommandError(
            "{command} rolls more than {limit} dice in all",
            command=repr(text),
            limit=dice_grammar.MAX_DRAWS,
        )
    return replace(
        inner,
        text=text,
        kind=KIND_REPEAT,
        secret=bool(repeat[1]) or inner.secret,
        count=inner.count * times,
        modifier=0,
        target=None,
        comparison=None,
        plan=RepeatPlan(times, inner),
    )


def parse_command(
    text: str, *, critical: int = DEFAULT_CRITICAL, fumble: int = DEFAULT_FUMBLE
) -> ParsedCommand:
    """Parse a roll-box command: BCDice's common commands and SRS's own check.

    SRS checks (2D6 and modifiers only): ``2D6+m>=t``, ``2D6+m@c#f>=t``, ``2D6+m>=t[c,f]``,
    and without ``>=t`` for critical/fumble only (``2D6[]``, ``2D6@11``); the modifier may be
    arithmetic (``2D6+1*2>=8``). ``critical`` and ``fumble`` are the table's values, used
    where the command gives none. Everything else follows BCDice's common commands as
    dice_commands describes them (sums and comparisons, B and U dice, D66, C(...), choice,
    repeat), with its limits. A leading ``S`` makes the roll secret; text after the command
    (after the first space, or after a choice's list) is kept as the label. Raise
    CommandError otherwise.
    """
    _require_int("critical", critical)
    _require_int("fumble", fumble)
    if not isinstance(text, str):
        raise CommandError("a command must be text, got {text}", text=repr(text))
    stripped = text.strip()
    if not stripped:
        raise CommandError("the command is empty ({examples})", examples=_EXAMPLES)
    first, rest = (stripped.split(maxsplit=1) + [""])[:2]
    repeat = dice_commands.REPEAT_RE.fullmatch(unicodedata.normalize("NFKC", first).upper())
    if repeat:
        parsed = _parse_repeat(stripped, repeat, rest, critical, fumble)
    else:
        parsed = _parse_one(stripped, critical, fumble)
    if len(parsed.notation) > MAX_NOTATION_CHARS:
        raise CommandError(
            "the command is longer than {limit} characters", limit=MAX_NOTATION_CHARS
        )
    return parsed


class _GivenFaces:
    """Hands out faces rolled earlier (by a test, or stored with a roll) in order."""

    def __init__(self, dice: Sequence[int]):
        if isinstance(dice, str | bytes) or not isinstance(dice, Sequence):
            raise ValueError(f"dice must be a sequence of faces, got {dice!r}")
        self.dice = dice
        self.used = 0

    def __call__(self, count: int, sides: int) -> list[int]:
        faces = list(self.dice[self.used : self.used + count])
        if len(faces) < count:
            raise ValueError(f"the command needs more than the {len(self.dice)} dice given")
        for face in faces:
            if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= sides:
                raise ValueError(f"a d{sides} face must be an int from 1 to {sides}, got {face!r}")
        self.used += count
        return faces

    def finish(self) -> None:
        if self.used != len(self.dice):
            raise ValueError(f"the command used {self.used} dice, got {len(self.dice)}")


class _CountedDraw:
    """Keeps the faces drawn, in order, so a result can be re-decided from them later."""

    def __init__(self, draw: dice_grammar.Draw):
        self.draw = draw
        self.faces: list[int] = []

    def __call__(self, count: int, sides: int) -> list[int]:
        faces = list(self.draw(count, sides))
        self.faces.extend(faces)
        return faces


def _roll_single(parsed: ParsedCommand, draw: _CountedDraw, counter: list[int]) -> CommandResult:
    tally = dice_grammar.Tally(draw, parsed.text, counter)
    start = len(draw.faces)
    if parsed.kind == KIND_CHECK:
        faces = tally.faces(2, 6)
        tally.group("2D6", 6, faces)
        # The typed modifier already folds judgement value and modifiers together, as in BCDice.
        verdict = check(
            0,
            faces,
            modifier=parsed.modifier,
            difficulty=parsed.target,
            critical=parsed.critical,
            fumble=parsed.fumble,
        )
        total = sum(faces) + parsed.modifier
        detail = {"groups": tally.groups}
    elif parsed.plan is None:
        faces = tally.faces(parsed.count, parsed.faces)
        tally.group(f"{parsed.count}D{parsed.faces}", parsed.faces, faces)
        total, verdict = sum(faces) + parsed.modifier, None
        detail = {"groups": tally.groups}
        if parsed.comparison:
            comparison = dice_grammar.Comparison(parsed.comparison, parsed.target)
            detail.update(
                comparison=parsed.comparison,
                target=parsed.target,
                success=comparison.holds(total),
            )
    else:
        total, extra = parsed.plan.roll(tally)
        verdict, detail = None, {"groups": tally.groups, **extra}
    return CommandResult(
        command=parsed, faces=tuple(draw.faces[start:]), total=total, check=verdict, detail=detail
    )


def _repeated_summary(result: CommandResult) -> dict[str, Any]:
    summary = {"notation": result.command.notation, **result.summary()}
    if result.check is not None:
        summary["check"] = result.check.to_dict()
    return summary


def _roll_parsed(parsed: ParsedCommand, draw: dice_grammar.Draw) -> CommandResult:
    counted = _CountedDraw(draw)
    counter = [0]
    if parsed.kind != KIND_REPEAT:
        return _roll_single(parsed, counted, counter)
    plan = parsed.plan
    results = [_roll_single(plan.inner, counted, counter) for _ in range(plan.times)]
    return CommandResult(
        command=parsed,
        faces=tuple(counted.faces),
        total=None,
        check=None,
        detail={"groups": [], "rolls": [_repeated_summary(result) for result in results]},
    )


def _resolve_command(parsed: ParsedCommand, dice: Sequence[int]) -> CommandResult:
    given = _GivenFaces(dice)
    result = _roll_parsed(parsed, given)
    given.finish()
    return result


def roll_command(
    text: str,
    dice: Sequence[int],
    *,
    critical: int = DEFAULT_CRITICAL,
    fumble: int = DEFAULT_FUMBLE,
) -> CommandResult:
    """Resolve a roll-box command with faces already rolled, in the order it draws them.

    ``critical`` and ``fumble`` are the table's values; ``@c#f`` or ``[c,f]`` in the
    command wins over them. Raise ValueError when the faces do not fit the command.
    """
    return _resolve_command(parse_command(text, critical=critical, fumble=fumble), dice)


def roll_command_random(
    text: str,
    rng: Random | None = None,
    *,
    critical: int = DEFAULT_CRITICAL,
    fumble: int = DEFAULT_FUMBLE,
) -> CommandResult:
    """Parse and roll a roll-box command, with the operating system's generator by default."""
    return roll_parsed(parse_command(text, critical=critical, fumble=fumble), rng)


def roll_parsed(parsed: ParsedCommand, rng: Random | None = None) -> CommandResult:
    """Roll a command already parsed (the roll box parses once, before it takes a dice key)."""
    return _roll_parsed(parsed, lambda count, sides: srs_checks.draw_faces(count, sides, rng))


# --------------------------------------------------------------------------- amounts


@dataclass(frozen=True)
class Amount:
    """A resource change as the rules write it: a number, or a dice sum such as 1D6+1."""

    text: str
    fixed: int | None
    command: ParsedCommand | None

    @property
    def minimum(self) -> int:
        if self.command is None:
            return self.fixed or 0
        return self.command.count + self.command.modifier


def number_out_of_range(value: Any, limit: int = MAX_NUMBER) -> int | float | None:
    """The first number in `value` (nested lists, tuples and dicts) beyond ±`limit`, or None.
    A float counts from 1e15 (beyond it, JSON readers differ)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if abs(value) > limit else None
    if isinstance(value, float):
        return value if not abs(value) < 1e15 else None
    if isinstance(value, dict):
        value = value.values()
    if isinstance(value, list | tuple) or hasattr(value, "__iter__") and not isinstance(value, str):
        for item in value:
            found = number_out_of_range(item, limit)
            if found is not None:
                return found
    return None


def command_result_check(result: CommandResult) -> None:
    """Refuse a result with a number no log may hold (such as 2D6+999999999999)."""
    found = number_out_of_range(
        [result.summary(), result.check.to_dict() if result.check else {}, result.faces]
    )
    if found is not None:
        raise CommandError(
            "the result holds {number}, beyond the largest number a roll keeps ({limit})",
            number=str(found)[:30],
            limit=MAX_NUMBER,
        )


@dataclass(frozen=True)
class RolledCommand:
    """A roll-box command rolled, as its roll keeps it."""

    label: str
    # The notation BCDice echoes, with its secret prefix.
    command: str
    faces: list[int]
    # What the room shows (kind, total, faces per term, verdict) and the check's numbers.
    result: dict[str, Any]
    secret: bool


def command_rolled(
    text: str,
    *,
    take_dice: Callable[[], Random],
    faces: Sequence[int] | None = None,
    critical: int = DEFAULT_CRITICAL,
    fumble: int = DEFAULT_FUMBLE,
) -> RolledCommand:
    """Read, roll and check a roll-box command in one pass.

    `take_dice()` gives the generator the dice come from; it is called only once the
    command is understood and only if it draws a die, so a command in error or a bare
    calculation (C(10*3+2)) takes no dice key. `faces`, given, are the faces already rolled
    (in the order the command draws them) instead. Raise CommandError for a command that
    cannot be read or whose result holds a number too large to keep.
    """
    parsed = parse_command(text, critical=critical, fumble=fumble)
    if faces is not None:
        result = _resolve_command(parsed, faces)
    else:
        result = roll_parsed(parsed, take_dice() if draws_dice(parsed) else None)
    command_result_check(result)
    command = result.command
    return RolledCommand(
        label=command.label,
        command=("S" if command.secret else "") + command.notation,
        faces=list(result.faces),
        result={
            **result.summary(),
            **(result.check.to_dict() if result.check else {}),
            "command_modifier": command.modifier,
            # 0 when the dice differ in size or are rerolled: the statistics then leave the
            # roll out of the 2D6 counts.
            "sides": command.faces,
        },
        secret=command.secret,
    )


def draws_dice(parsed: ParsedCommand) -> bool:
    """Whether rolling a command draws any die: a calculation such as C(10*3+2) draws none,
    and takes no roll key."""
    if parsed.kind == KIND_REPEAT:
        return draws_dice(parsed.plan.inner)
    return parsed.kind != KIND_CALC


def amount_parse(text: str) -> Amount:
    """Read a number (0–999) or a plain dice sum; anything else raises CommandError."""
    text = (text or "").strip().upper()
    if text.isdecimal():
        number = int(text)
        if number > 999:
            raise CommandError("An amount is at most 999.")
        return Amount(text=text, fixed=number, command=None)
    parsed = parse_command(text)
    # Only NdM+k: its least value is count + modifier, which the scene forms rely on.
    if parsed.kind != KIND_SUM or parsed.secret or parsed.plan is not None or parsed.comparison:
        raise CommandError(
            "{text} is not a number or a dice sum such as 1D6 or 2D6+1.", text=repr(text)
        )
    return Amount(text=parsed.notation, fixed=None, command=parsed)


def amount_roll(amount: Amount, rng: Random | None = None) -> tuple[int, tuple[int, ...]]:
    """Return the amount's value and the faces rolled for it (none for a fixed number)."""
    if amount.command is None:
        return amount.fixed or 0, ()
    faces = srs_checks.draw_faces(amount.command.count, amount.command.faces, rng)
    result = _resolve_command(amount.command, faces)
    return max(0, result.total), result.faces
