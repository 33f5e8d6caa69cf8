"""The app's models, one module per topic; Django and the migrations find them all here.

The migrations name `sessions_app.models._new_invite_token` and
`sessions_app.models.default_experience_lines`, so both stay importable from here.
"""

from .append_only import (
    AppendOnlyModel,
    AppendOnlyQuerySet,
)
from .audio import CutIn, TableAudio
from .characters import (
    Character,
    CharacterFace,
)
from .chat import ChatTab
from .checks import (
    ActionKey,
    CheckRequest,
    Contest,
    Roll,
)
from .dice import DiceEpoch, DiceReservation
from .experience import (
    ExperienceAccount,
    ExperienceEntry,
    GrowthRequest,
    SessionSignoff,
)
from .scenarios import (
    Handout,
    HandoutReveal,
    PlannedScene,
    PreparedCheck,
    Scenario,
    ScenarioNpc,
)
from .scenes import (
    Appearance,
    Participation,
    Scene,
    SceneRequest,
    SheetChange,
    StageRequest,
)
from .tables import (
    MAIN_PLAY_PHASES,
    PHASE_ORDER,
    SHIPPED_EXPERIENCE_LABELS,
    SHIPPED_PROFILE_NAMES,
    EntryCondition,
    EntryConditionFields,
    GameSession,
    GuestAccount,
    Invite,
    Membership,
    Phase,
    RulesProfile,
    Table,
    TableBar,
    _new_invite_token,  # noqa: F401 - named by migration 0001
    default_experience_lines,
)
from .timeline import (
    ImportedLog,
    Presence,
    SpectatorPresence,
    TimelineEvent,
)

__all__ = [
    "CutIn",
    "TableAudio",
    "ActionKey",
    "Appearance",
    "AppendOnlyModel",
    "AppendOnlyQuerySet",
    "Character",
    "CharacterFace",
    "ChatTab",
    "CheckRequest",
    "Contest",
    "DiceEpoch",
    "DiceReservation",
    "EntryCondition",
    "EntryConditionFields",
    "ExperienceAccount",
    "ExperienceEntry",
    "GrowthRequest",
    "GameSession",
    "GuestAccount",
    "Handout",
    "HandoutReveal",
    "ImportedLog",
    "Invite",
    "MAIN_PLAY_PHASES",
    "Membership",
    "PHASE_ORDER",
    "Participation",
    "Phase",
    "PlannedScene",
    "PreparedCheck",
    "Presence",
    "Roll",
    "RulesProfile",
    "SHIPPED_EXPERIENCE_LABELS",
    "SHIPPED_PROFILE_NAMES",
    "Scenario",
    "ScenarioNpc",
    "Scene",
    "SpectatorPresence",
    "SceneRequest",
    "SheetChange",
    "SessionSignoff",
    "StageRequest",
    "Table",
    "TableBar",
    "TimelineEvent",
    "default_experience_lines",
]
