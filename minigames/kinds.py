"""The timeline event kinds of matches, registered with sessions_app's kind registry when
the app is ready (sessions_app itself knows nothing of minigames)."""

from typing import NotRequired, TypedDict

from sessions_app.kinds.dice import SAMPLE_PROOF, DiceDrawn, DiceProof
from sessions_app.kinds.registry import Kind, Panel, Topic, kind_register


class MatchStarted(TypedDict):
    match_id: int
    game: str
    names: list[str]  # the two seats' names, in seat order
    # Where the match's seed comes from; its key (which fixes every hidden card) is only
    # published when the match is over.
    proof: NotRequired[DiceDrawn]
    # Seated players whose browsers must add their value to the seed before the deal.
    waiting_for: NotRequired[list[str]]


class MatchDealt(TypedDict):
    """The seed's last value came in: every seated player's browser has taken part."""

    match_id: int
    game: str
    names: list[str]
    proof: DiceDrawn  # with ``values`` and ``value_by``


class MatchFinished(TypedDict):
    match_id: int
    game: str
    names: list[str]
    # The seed's proof: the one face drawn, less one, is the seed the engine shuffled with.
    proof: NotRequired[DiceProof]
    winner: int | None  # the winning seat; None for a draw
    winner_name: str | None
    loser_name: str | None
    # How it ended, as the game words it; "stopped": the session's main play ended first.
    reason: str | None
    # What the winner had left: Actual counts pieces, Actics X life.
    pieces_left: int | None
    life_left: int | None


class MatchOutcome(TypedDict):
    match_id: int
    label: str
    winner_name: str | None  # None: the GM took a drawn match as the outcome
    names: list[str]


_NAMES = ["Aki", "Clerk"]
_WON = {
    "match_id": 1,
    "game": "actual",
    "names": _NAMES,
    "winner": 0,
    "winner_name": "Aki",
    "loser_name": "Clerk",
    "reason": "pieces",
    "pieces_left": 2,
    "life_left": 0,
}
_DRAWN = {
    **_WON,
    "winner": None,
    "winner_name": None,
    "loser_name": None,
    "reason": "turn_limit",
    "pieces_left": None,
    "life_left": None,
}

kind_register(
    Kind(
        name="match_started",
        payload=MatchStarted,
        samples=(
            {"match_id": 1, "game": "actual", "names": _NAMES},
            {"match_id": 2, "game": "acticsx", "names": _NAMES},
            {
                "match_id": 3,
                "game": "actual",
                "names": _NAMES,
                "proof": {"epoch": 0, "index": 5, "value": "01" * 16, "value_source": "server"},
            },
            {
                "match_id": 4,
                "game": "acticsx",
                "names": _NAMES,
                "proof": {"epoch": 0, "index": 6, "value": "01" * 16, "value_source": "browser"},
                "waiting_for": ["aki"],
            },
        ),
        template="minigames/kinds/match_started.html",
        panels={Panel.MATCHES},
    ),
    Kind(
        name="match_dealt",
        payload=MatchDealt,
        samples=(
            {
                "match_id": 3,
                "game": "actual",
                "names": _NAMES,
                "proof": {
                    "epoch": 0,
                    "index": 5,
                    "value": "01" * 16 + "02" * 16,
                    "value_source": "browser",
                    "values": ["01" * 16, "02" * 16],
                    "value_by": ["keeper", "aki"],
                },
            },
        ),
        template="minigames/kinds/match_dealt.html",
        panels={Panel.MATCHES},
    ),
    Kind(
        name="match_finished",
        payload=MatchFinished,
        samples=(
            _WON,
            {**_WON, "pieces_left": 1, "reason": "resign"},
            _DRAWN,
            {**_WON, "game": "acticsx", "reason": "life", "pieces_left": 0, "life_left": 3},
            {**_DRAWN, "game": "acticsx"},
            {**_DRAWN, "reason": "stopped"},
            {**_WON, "proof": {**SAMPLE_PROOF, "draws": [[1, 2**62]], "faces": [2**61 + 7]}},
        ),
        template="minigames/kinds/match_finished.html",
        panels={Panel.MATCHES},
        gm_sees_more=True,
    ),
    Kind(
        name="match_outcome",
        payload=MatchOutcome,
        samples=(
            {"match_id": 1, "label": "Who gets the key", "winner_name": "Aki", "names": _NAMES},
            {"match_id": 2, "label": "Who gets the key", "winner_name": None, "names": _NAMES},
        ),
        template="minigames/kinds/match_outcome.html",
        topic=Topic.CHECKS,
    ),
)
