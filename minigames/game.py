"""The small interface both minigame engines share (OpenSpiel / boardgame.io style).

An engine is a module exposing these functions over plain, JSON-serialisable state:

    initial_state(options: dict, seed: int) -> State
    legal_actions(state, player: int) -> list[dict]
    apply(state, action: dict) -> State          # a new state; raises IllegalAction
    is_terminal(state) -> bool
    winner(state) -> int | None                  # None: draw or not over
    player_view(state, player: int | None) -> dict   # None: a spectator
    to_dict(state) -> dict
    from_dict(data: dict) -> State               # validates; raises InvalidState

Randomness lives only in the seeded RNG carried inside the state, so the same seed and the
same actions always give the same game. Nothing here imports Django.
"""

from __future__ import annotations

from typing import Any, Protocol

SPECTATOR = None


class IllegalAction(Exception):
    """An action the rules do not allow, with the reason shown to the player.

    The message is English. An engine that writes its own Japanese, as Actics X does for
    its narration, gives it as `ja`; otherwise the English message is a message id that the
    app translates (Actual: `minigames/actual/messages.py`).
    """

    def __init__(self, message: str, *, ja: str | None = None):
        super().__init__(message)
        self.ja = ja


class InvalidState(ValueError):
    """Stored data that does not describe a valid game state."""


class GameEngine(Protocol):
    def initial_state(self, options: dict[str, Any], seed: int) -> Any: ...

    def legal_actions(self, state: Any, player: int) -> list[dict[str, Any]]: ...

    def apply(self, state: Any, action: dict[str, Any]) -> Any: ...

    def is_terminal(self, state: Any) -> bool: ...

    def winner(self, state: Any) -> int | None: ...

    def player_view(self, state: Any, player: int | None) -> dict[str, Any]: ...

    def to_dict(self, state: Any) -> dict[str, Any]: ...

    def from_dict(self, data: dict[str, Any]) -> Any: ...
