"""The small interface both minigame engines share (OpenSpiel / boardgame.io style).

An engine is a module exposing these functions over plain, JSON-serialisable state:

    initial_state(options: dict, seed: int) -> State
    legal_actions(state, player: int) -> list[dict]
    apply(state, action: dict) -> State          # a new state; raises IllegalAction
    has_started(state) -> bool                   # past any secret preparation
    is_terminal(state) -> bool
    winner(state) -> int | None                  # None: draw or not over
    result(state) -> dict | None                 # winner, reason and the game's own figures
    player_view(state, player: int | None) -> dict   # None: a spectator
    to_dict(state) -> dict
    from_dict(data: dict) -> State               # validates; raises InvalidState

Randomness lives only in the seeded RNG carried inside the state, so the same seed and the
same actions always give the same game. Nothing here imports Django.

Engines word nothing for the reader. A refusal (``IllegalAction``) and a line of narration
are *messages*: a message id, which is the English wording with ``%(name)s`` placeholders,
and its parameters. The presenter of each game translates them through gettext in the
reader's language; ``render`` below gives the English, for logs and tests. A parameter is
a plain value, another message, a list (joined as "a, b and c"), or a *term*: a dict with
one key naming something the game's data words in each language, such as
``{"card": "flame_wolf"}`` (see ``register_term``). The project's ``makemessages`` collects
the ids from ``IllegalAction(...)``, ``message(...)`` and ``message_plural(...)`` calls.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

SPECTATOR = None

Message = dict[str, Any]
# A term's words in one language: (the term's value, "en" or "ja") -> text.
TermWords = Callable[[Any, str], str]

TERMS: dict[str, TermWords] = {}


def message(msgid: str, /, **args: Any) -> Message:
    """Return a message: its id (the English wording) and the parameters it names."""
    return {"msg": msgid, "args": args}


def message_plural(singular: str, plural: str, count: int, /, **args: Any) -> Message:
    """Return a message whose wording depends on ``count`` (gettext's plural forms)."""
    return {"msg": singular, "plural": plural, "n": count, "args": args}


def register_term(kind: str, words: TermWords) -> None:
    """Let messages name a ``{kind: value}`` term, worded in a language by ``words``."""
    TERMS[kind] = words


def _untranslated(msgid: str) -> str:
    return msgid


def _untranslated_plural(singular: str, plural: str, count: int) -> str:
    return singular if count == 1 else plural


def render(
    msg: Message,
    *,
    language: str = "en",
    gettext: Callable[[str], str] = _untranslated,
    ngettext: Callable[[str, str, int], str] = _untranslated_plural,
    terms: dict[str, TermWords] | None = None,
) -> str:
    """Word a message: in English by default, or through the given translation functions.

    ``terms`` adds or overrides term words for this rendering (a match's seat names, say).
    """

    def word(value: Any) -> Any:
        if isinstance(value, dict):
            if "msg" in value:
                return render(
                    value, language=language, gettext=gettext, ngettext=ngettext, terms=terms
                )
            ((kind, inner),) = value.items()
            words = (terms or {}).get(kind) or TERMS[kind]
            return words(inner, language)
        if isinstance(value, list):
            items = [word(item) for item in value]
            if len(items) <= 1:
                return "".join(items)
            head = items[0]
            for item in items[1:-1]:
                head = gettext("%(first)s, %(next)s") % {"first": head, "next": item}
            return gettext("%(first)s and %(last)s") % {"first": head, "last": items[-1]}
        return value

    plural = msg.get("plural")
    text = gettext(msg["msg"]) if plural is None else ngettext(msg["msg"], plural, msg["n"])
    args = msg.get("args")
    if not args:
        return text
    return text % {name: word(value) for name, value in args.items()}


class IllegalAction(Exception):
    """An action the rules do not allow: a message saying why (see the module docstring).

    ``str()`` gives the English; ``message`` is what a presenter translates.
    """

    def __init__(self, msgid: str, /, **args: Any):
        super().__init__(msgid)
        self.message = message(msgid, **args)

    def __str__(self) -> str:
        return render(self.message)


class InvalidState(ValueError):
    """Stored data that does not describe a valid game state."""


class GameEngine(Protocol):
    def initial_state(self, options: dict[str, Any], seed: int) -> Any: ...

    def legal_actions(self, state: Any, player: int) -> list[dict[str, Any]]: ...

    def apply(self, state: Any, action: dict[str, Any]) -> Any: ...

    def has_started(self, state: Any) -> bool: ...

    def is_terminal(self, state: Any) -> bool: ...

    def winner(self, state: Any) -> int | None: ...

    def result(self, state: Any) -> dict[str, Any] | None: ...

    def player_view(self, state: Any, player: int | None) -> dict[str, Any]: ...

    def to_dict(self, state: Any) -> dict[str, Any]: ...

    def from_dict(self, data: dict[str, Any]) -> Any: ...
