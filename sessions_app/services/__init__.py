"""Services: every change goes through one of these functions (HackSoft style).

Each runs in one transaction, validates, and appends timeline events whose broadcast waits
for the commit. Import them from here: ``from sessions_app import services``.
"""

from .tables import (
    InviteError,
    invite_accept,
    invite_create,
    invite_resolve,
    session_create,
    table_create,
    table_profile_save,
    user_signup_and_accept,
)
from .timeline import (
    CHAT_MAX_LENGTH,
    broadcast,
    chat_post,
    presence_enter,
    presence_leave,
    presence_seen,
    timeline_append,
)

__all__ = [
    "CHAT_MAX_LENGTH",
    "InviteError",
    "broadcast",
    "chat_post",
    "invite_accept",
    "invite_create",
    "invite_resolve",
    "presence_enter",
    "presence_leave",
    "presence_seen",
    "session_create",
    "table_create",
    "table_profile_save",
    "timeline_append",
    "user_signup_and_accept",
]

from .characters import (  # noqa: E402
    can_edit_character,
    character_create,
    character_update,
    session_character_set,
)
from .checks import (  # noqa: E402
    ContestSide,
    DeclaredModifier,
    can_roll,
    check_cancel,
    check_request,
    check_roll,
    clean_declared_modifiers,
    command_roll,
    contest_open,
    gm_roll,
    roll_reveal,
    roll_void,
)

__all__ += [
    "ContestSide",
    "DeclaredModifier",
    "can_edit_character",
    "can_roll",
    "character_create",
    "character_update",
    "check_cancel",
    "check_request",
    "check_roll",
    "clean_declared_modifiers",
    "command_roll",
    "contest_open",
    "gm_roll",
    "roll_reveal",
    "roll_void",
    "session_character_set",
]

from .play import (  # noqa: E402
    PREPARATION_ITEMS,
    handout_reveal,
    intro_present,
    phase_advance,
    phase_next,
    player_order_move,
    preparation_tick,
    preplay_warnings,
    session_scenario_set,
    sheet_review,
    slot_assign,
)
from .scenes import (  # noqa: E402
    companion_answer,
    companion_propose,
    entry_request,
    exit_request,
    prepared_check_fire,
    scene_end,
    scene_start,
    stage_bring_in,
    stage_request_decide,
    stage_request_withdraw,
    stage_take_out,
)
from .stage import stage_require  # noqa: E402

__all__ += [
    "PREPARATION_ITEMS",
    "companion_answer",
    "companion_propose",
    "entry_request",
    "exit_request",
    "handout_reveal",
    "intro_present",
    "phase_advance",
    "phase_next",
    "player_order_move",
    "prepared_check_fire",
    "preparation_tick",
    "preplay_warnings",
    "scene_end",
    "scene_start",
    "session_scenario_set",
    "sheet_review",
    "slot_assign",
    "stage_bring_in",
    "stage_request_decide",
    "stage_request_withdraw",
    "stage_require",
    "stage_take_out",
]

from .scenarios import (  # noqa: E402
    handout_create,
    handout_delete,
    handout_update,
    planned_scene_create,
    planned_scene_delete,
    planned_scene_move,
    planned_scene_update,
    prepared_check_create,
    prepared_check_delete,
    prepared_check_update,
    scenario_create,
    scenario_delete,
    scenario_npc_create,
    scenario_npc_delete,
    scenario_npc_update,
    scenario_update,
)

__all__ += [
    "handout_create",
    "handout_delete",
    "handout_update",
    "planned_scene_create",
    "planned_scene_delete",
    "planned_scene_move",
    "planned_scene_update",
    "prepared_check_create",
    "prepared_check_delete",
    "prepared_check_update",
    "scenario_create",
    "scenario_delete",
    "scenario_npc_create",
    "scenario_npc_delete",
    "scenario_npc_update",
    "scenario_update",
]

from .experience import (  # noqa: E402
    CLEANUP_ITEMS,
    AwardLine,
    award_recipients,
    experience_award_session,
    experience_correct,
    growth_spend,
    session_cleanup_save,
    session_close,
    session_sheet_sign,
)

__all__ += [
    "CLEANUP_ITEMS",
    "AwardLine",
    "award_recipients",
    "experience_award_session",
    "experience_correct",
    "growth_spend",
    "session_cleanup_save",
    "session_close",
    "session_sheet_sign",
]

from .logs import log_clean, log_import  # noqa: E402

__all__ += ["log_clean", "log_import"]
