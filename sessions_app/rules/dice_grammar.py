"""The grammar BCDice's common commands share: tokens, arithmetic, dice terms, comparisons.

Pure Python; dice_commands.py builds the commands from it and documents BCDice's meaning
and the limits adopted. Every face comes from the ``draw(count, sides)`` callable a Tally
is given.
"""

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

Draw = Callable[[int, int], Sequence[int]]

MAX_DICE_PER_TERM = 200
MAX_SIDES = 10000
MAX_DRAWS = 10000
MAX_REPEATS = 100
MAX_CHOICES = 100
D66_SIDES = 66

EXAMPLES = (
    "e.g. 2D6+2>=10, 2D6>=10[11,3], 3D6/2, 5B6>=4, 3U6[6], D66, C(10*3+2), "
    "choice[a,b,c], x3 2D6 or S2D6>=9"
)


class CommandError(ValueError):
    """A roll-box command that is not understood; the message says which part.

    The message is kept as a template with named values, so the app can show it in the
    reader's language (this module stays free of Django); str() gives the English text.
    """

    def __init__(self, template: str, **values):
        self.template = template
        self.values = values
        super().__init__(template.format(**values))


# --------------------------------------------------------------------------- comparisons

# Ordered as BCDice's Normalize.comparison_operator tests them: "=<" is "<=", "!=" is "<>".
_COMPARISONS = (
    (re.compile(r"<=|=<"), "<="),
    (re.compile(r">=|=>"), ">="),
    (re.compile(r"<>|!=|=!"), "<>"),
    (re.compile(r"<"), "<"),
    (re.compile(r">"), ">"),
    (re.compile(r"="), "="),
)
_COMPARE = {
    ">=": lambda value, target: value >= target,
    ">": lambda value, target: value > target,
    "<=": lambda value, target: value <= target,
    "<": lambda value, target: value < target,
    "=": lambda value, target: value == target,
    "<>": lambda value, target: value != target,
}


def comparison_operator(text: str) -> str | None:
    """Name the comparison BCDice reads in text such as '=>' (None for '!' alone)."""
    for pattern, operator in _COMPARISONS:
        if pattern.search(text):
            return operator
    return None


@dataclass(frozen=True)
class Comparison:
    operator: str
    target: int

    @property
    def text(self) -> str:
        return f"{self.operator}{self.target}"

    def holds(self, value: int) -> bool:
        return _COMPARE[self.operator](value, self.target)


# --------------------------------------------------------------------------- tally


class Tally:
    """Draws faces for one command, counts them against the limit and groups them per term."""

    def __init__(self, draw: Draw, command: str, counter: list[int] | None = None):
        self.draw = draw
        self.command = command
        # Shared by the rolls of one repeat: the limit holds for the whole command.
        self.counter = [0] if counter is None else counter
        self.groups: list[dict[str, Any]] = []

    def faces(self, count: int, sides: int) -> list[int]:
        if self.counter[0] + count > MAX_DRAWS:
            raise CommandError(
                "{command} rolls more than {limit} dice in all",
                command=repr(self.command),
                limit=MAX_DRAWS,
            )
        self.counter[0] += count
        return list(self.draw(count, sides))

    def group(self, notation: str, sides: int, faces: list[int], **extra) -> None:
        self.groups.append({"notation": notation, "sides": sides, "faces": faces, **extra})


# --------------------------------------------------------------------------- expression tree


def _divide(dividend: int, divisor: int, rounding: str) -> int:
    if rounding == "U":
        return -(-dividend // divisor)
    if rounding == "R":
        quotient = Fraction(dividend, divisor)
        rounded = math.floor(abs(quotient) + Fraction(1, 2))
        return rounded if quotient >= 0 else -rounded
    return dividend // divisor


@dataclass(frozen=True)
class Num:
    value: int

    has_dice = False

    def expr(self) -> str:
        return str(self.value)

    def evaluate(self, tally: Tally | None, strict: bool) -> int:
        return self.value


@dataclass(frozen=True)
class Neg:
    body: Any

    @property
    def has_dice(self) -> bool:
        return self.body.has_dice

    def expr(self) -> str:
        return f"-{self.body.expr()}"

    def evaluate(self, tally: Tally | None, strict: bool) -> int:
        return -self.body.evaluate(tally, strict)


@dataclass(frozen=True)
class Paren:
    body: Any

    @property
    def has_dice(self) -> bool:
        return self.body.has_dice

    def expr(self) -> str:
        return f"({self.body.expr()})"

    def evaluate(self, tally: Tally | None, strict: bool) -> int:
        return self.body.evaluate(tally, strict)


@dataclass(frozen=True)
class BinOp:
    op: str
    left: Any
    right: Any
    rounding: str = ""

    @property
    def has_dice(self) -> bool:
        return self.left.has_dice or self.right.has_dice

    def expr(self) -> str:
        return f"{self.left.expr()}{self.op}{self.right.expr()}{self.rounding}"

    def evaluate(self, tally: Tally | None, strict: bool) -> int:
        left = self.left.evaluate(tally, strict)
        right = self.right.evaluate(tally, strict)
        if self.op == "+":
            return left + right
        if self.op == "-":
            return left - right
        if self.op == "*":
            return left * right
        if right == 0:
            if strict:
                raise CommandError("{command} divides by zero", command=repr(self.expr()))
            # BCDice's sums give 1 for a division by zero rather than failing.
            return 1
        return _divide(left, right, self.rounding)


@dataclass(frozen=True)
class DiceRoll:
    count: int
    sides: int
    literal: str  # as typed, once normalized: BCDice's SRS check wants "2D6" itself

    has_dice = True

    def expr(self) -> str:
        return f"{self.count}D{self.sides}"

    def evaluate(self, tally: Tally | None, strict: bool) -> int:
        if self.sides == D66_SIDES:
            pairs = [tally.faces(2, 6) for _ in range(self.count)]
            values = [tens * 10 + units for tens, units in pairs]
            faces = [face for pair in pairs for face in pair]
            tally.group(self.expr(), 6, faces, dice=pairs, values=values)
            return sum(values)
        faces = tally.faces(self.count, self.sides)
        tally.group(self.expr(), self.sides, faces)
        return sum(faces)


def dice_free_value(node: Any, strict: bool = True) -> int:
    return node.evaluate(None, strict)


def srs_modifier(tree: Any) -> int | None:
    """Return the modifier if the sum is BCDice's SRS shape (2D6 then +/- terms), else None."""
    terms = []
    node = tree
    while isinstance(node, BinOp) and node.op in "+-" and not node.rounding:
        if node.right.has_dice:
            return None
        terms.append((node.op, node.right))
        node = node.left
    if not (isinstance(node, DiceRoll) and node.literal == "2D6"):
        return None
    modifier = 0
    for op, term in terms:
        value = dice_free_value(term, strict=False)
        modifier += value if op == "+" else -value
    return modifier


# --------------------------------------------------------------------------- reader

_TOKEN_RE = re.compile(r"(?P<num>\d+)|(?P<cmp>[<>=!]+)|(?P<sym>.)", re.S)


@dataclass(frozen=True)
class Token:
    kind: str  # "num", "cmp", "end", or the character itself
    text: str
    at: int


def _tokens(body: str) -> list[Token]:
    found = []
    for match in _TOKEN_RE.finditer(body):
        kind = "num" if match["num"] else "cmp" if match["cmp"] else match["sym"]
        found.append(Token(kind, match.group(), match.start()))
    found.append(Token("end", "", len(body)))
    return found


class Reader:
    """A cursor over one command's tokens, with the refusals every grammar shares."""

    def __init__(self, body: str, command: str):
        self.body = body
        self.command = command
        self.tokens = _tokens(body)
        self.index = 0

    def peek(self) -> Token:
        return self.tokens[self.index]

    def take(self) -> Token:
        token = self.tokens[self.index]
        if token.kind != "end":
            self.index += 1
        return token

    def accept(self, kind: str) -> Token | None:
        return self.take() if self.peek().kind == kind else None

    def at_end(self) -> bool:
        return self.peek().kind == "end"

    def rest(self) -> str:
        return self.body[self.peek().at :]

    def not_understood(self):
        if self.at_end():
            raise CommandError("{command} ends too early", command=repr(self.command))
        raise CommandError(
            "{unread} in {command} is not understood ({examples})",
            unread=repr(self.rest()),
            command=repr(self.command),
            examples=EXAMPLES,
        )

    def expect_end(self) -> None:
        if not self.at_end():
            self.not_understood()


def starts_operand(token: Token) -> bool:
    return token.kind in ("num", "(", "+", "-", "D")


def read_add(reader: Reader, dice: bool) -> Any:
    node = read_mul(reader, dice)
    while reader.peek().kind in ("+", "-"):
        op = reader.take().kind
        require_operand(reader, op)
        right = read_mul(reader, dice)
        if isinstance(right, Neg):
            # BCDice folds "a+-b" into "a-b", which is how it echoes the command.
            op, right = ("-" if op == "+" else "+"), right.body
        node = BinOp(op, node, right)
    return node


def read_mul(reader: Reader, dice: bool) -> Any:
    node = read_unary(reader, dice)
    while reader.peek().kind in ("*", "/"):
        op = reader.take().kind
        require_operand(reader, op)
        right = read_unary(reader, dice)
        rounding = ""
        if op == "/" and reader.peek().kind in ("U", "C", "R", "F"):
            rounding = {"C": "U"}.get(reader.peek().kind, reader.peek().kind)
            reader.take()
        node = BinOp(op, node, right, rounding)
    return node


def require_operand(reader: Reader, sign: str) -> None:
    if not starts_operand(reader.peek()):
        raise CommandError(
            "'{sign}' must be followed by a number in {command}",
            sign=sign,
            command=repr(reader.command),
        )


def read_unary(reader: Reader, dice: bool) -> Any:
    if reader.peek().kind in ("+", "-"):
        sign = reader.take().kind
        require_operand(reader, sign)
        body = read_unary(reader, dice)
        if sign == "+":
            return body
        return body.body if isinstance(body, Neg) else Neg(body)
    return read_dice(reader) if dice else read_term(reader, dice=False)


def read_term(reader: Reader, dice: bool) -> Any:
    if reader.accept("("):
        body = read_add(reader, dice)
        if not reader.accept(")"):
            if reader.at_end():
                raise CommandError("missing ')' in {command}", command=repr(reader.command))
            reader.not_understood()
        return Paren(body)
    token = reader.accept("num")
    if token is None:
        reader.not_understood()
    return Num(int(token.text))


def read_dice(reader: Reader) -> Any:
    start = reader.peek().at
    if reader.peek().kind == "D":
        reader.take()
        sides = read_term(reader, dice=False)
        return make_dice(reader, Num(1), sides, reader.body[start : reader.peek().at])
    count = read_term(reader, dice=True)
    if not reader.accept("D"):
        return count
    # A bare "ND" takes BCDice's sides_implicit_d, 6 for the default system.
    explicit = reader.peek().kind in ("num", "(")
    sides = read_term(reader, dice=False) if explicit else Num(6)
    return make_dice(reader, count, sides, reader.body[start : reader.peek().at])


def _dice_number(reader: Reader, node: Any) -> int:
    if node.has_dice:
        raise CommandError(
            "the number of dice and of sides cannot be rolled in {command}",
            command=repr(reader.command),
        )
    return dice_free_value(node)


def check_dice_size(command: str, count: int, sides: int) -> None:
    """Refuse a term outside BCDice's limits (B and U dice share the NdM wording)."""
    if count > MAX_DICE_PER_TERM:
        raise CommandError(
            "too many dice in {command}: N must be ≤ {limit} (NdM)",
            command=repr(command),
            limit=MAX_DICE_PER_TERM,
        )
    if sides > MAX_SIDES:
        raise CommandError(
            "too many faces in {command}: M must be ≤ {limit} (NdM)",
            command=repr(command),
            limit=MAX_SIDES,
        )
    if count < 1 or sides < 1:
        raise CommandError(
            "{command} rolls nothing: N and M in NdM must be at least 1", command=repr(command)
        )


def make_dice(reader: Reader, count_node: Any, sides_node: Any, literal: str) -> DiceRoll:
    count = _dice_number(reader, count_node)
    sides = _dice_number(reader, sides_node)
    check_dice_size(reader.command, count, sides)
    return DiceRoll(count, sides, literal)


def require_target(reader: Reader, token: Token) -> None:
    if starts_operand(reader.peek()):
        return
    if token.text == ">=":
        raise CommandError(
            "the target number is missing after '>=' in {command}", command=repr(reader.command)
        )
    raise CommandError(
        "the target number is missing after {operator} in {command}",
        operator=repr(token.text),
        command=repr(reader.command),
    )


def read_comparison(reader: Reader, strict: bool = True) -> Comparison | None:
    """Read an optional comparison and its dice-free target (strict: refuse a division by 0)."""
    token = reader.accept("cmp")
    if token is None:
        return None
    operator = comparison_operator(token.text)
    if operator is None:
        reader.index -= 1
        reader.not_understood()
    require_target(reader, token)
    target = read_add(reader, dice=True)
    if target.has_dice:
        raise CommandError("the target in {command} cannot roll dice", command=repr(reader.command))
    if reader.peek().kind == "cmp":
        raise CommandError("the target is given twice in {command}", command=repr(reader.command))
    return Comparison(operator, dice_free_value(target, strict=strict))
