from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from config import health
from minigames import views as minigames
from sessions_app.views import (
    audio,
    ccfolia,
    characters,
    chat_tabs,
    dice,
    experience,
    pictures,
    review,
    room,
    scenarios,
    spectators,
    stage,
    stats,
    tables,
)

session_patterns = [
    path("", room.session_room, name="session_room"),
    path("chat/", room.chat_post, name="chat_post"),
    path("events/", room.earlier_events, name="earlier_events"),
    path("chat-tabs/", chat_tabs.chat_tab_create, name="chat_tab_add"),
    path("chat-tabs/<int:tab_id>/", chat_tabs.chat_tab_update, name="chat_tab_rename"),
    path("chat-tabs/<int:tab_id>/archive/", chat_tabs.chat_tab_remove, name="chat_tab_archive"),
    path("chat-tabs/<int:tab_id>/move/", chat_tabs.chat_tab_reorder, name="chat_tab_move"),
    path("roll/", room.roll_box, name="roll_box"),
    path("palette/", room.palette_line_send, name="palette_send"),
    path("resources/", room.resource_adjust, name="resource_adjust"),
    path("cast/", room.cast_update, name="cast_update"),
    path("stage/", stage.stage_action, name="stage_action"),
    path("checks/", room.check_request_create, name="check_request_create"),
    path("checks/<int:request_id>/roll/", room.check_roll, name="check_roll"),
    path("checks/<int:request_id>/chances/", room.check_chances, name="check_chances"),
    path("checks/<int:request_id>/cancel/", room.check_cancel, name="check_cancel"),
    path("contests/", room.contest_create, name="contest_create"),
    path("contests/preview/", room.contest_preview, name="contest_preview"),
    path("npc-rolls/", room.npc_roll, name="npc_roll"),
    path("rolls/<int:roll_id>/reveal/", room.roll_reveal, name="roll_reveal"),
    path("rolls/<int:roll_id>/void/", room.roll_void, name="roll_void"),
    path("verify/<int:seq>/", dice.dice_verify, name="dice_verify"),
    path("dice/reserve/", dice.dice_key_reserve, name="dice_key_reserve"),
    path("matches/", minigames.match_create, name="match_create"),
    path("dice/", stats.session_dice, name="session_dice"),
    path("afterplay/", experience.afterplay, name="afterplay"),
    path("afterplay/cleanup/", experience.afterplay_cleanup, name="afterplay_cleanup"),
    path("sheet/", experience.session_sheet, name="session_sheet"),
    path("sheet/sign/", experience.session_sheet_sign, name="session_sheet_sign"),
    path("review/", review.session_review, name="session_review"),
    path("background/", pictures.scene_background_set, name="scene_background_set"),
    path("faces/<int:face_id>/", pictures.line_face, name="line_face"),
    path("audio/", audio.audio_upload, name="audio_upload"),
    path("audio/remove/", audio.audio_delete, name="audio_delete"),
    path("audio/music/", audio.scene_music_set, name="scene_music_set"),
    path("audio/play/", audio.sound_play, name="sound_play"),
    path("cut-ins/", audio.cut_in_start, name="cut_in_start"),
    path("cut-ins/on-rolls/", audio.cut_ins_on_rolls, name="cut_ins_on_rolls"),
    path("export.html", review.session_export_html, name="session_export_html"),
    path("export.md", review.session_export_markdown, name="session_export_markdown"),
    path("export.json", review.session_export_json, name="session_export_json"),
]

# An invite link: its page, and one address for each way in that the page's forms post to.
# The page keeps the link's own address, so the links already sent still work.
invite_patterns = [
    path("", tables.invite_landing, name="invite"),
    path("join/", tables.invite_join_signed_in, name="invite_join_signed_in"),
    path("guest/", tables.invite_join_as_guest, name="invite_join_as_guest"),
    path("signup/", tables.invite_join_by_signup, name="invite_join_by_signup"),
    path("login/", tables.invite_join_by_login, name="invite_join_by_login"),
]

# Scenarios: a GM's preparation, seen by its writer alone. ------------------------------------
scenario_patterns = [
    path("", scenarios.scenario_detail, name="scenario_detail"),
    path("edit/", scenarios.scenario_edit, name="scenario_edit"),
    path("delete/", scenarios.scenario_delete, name="scenario_delete"),
    path("scenes/", scenarios.planned_scene_create, name="planned_scene_create"),
    path("scenes/<int:scene_id>/", scenarios.planned_scene_edit, name="planned_scene_edit"),
    path(
        "scenes/<int:scene_id>/delete/",
        scenarios.planned_scene_delete,
        name="planned_scene_delete",
    ),
    path("scenes/<int:scene_id>/move/", scenarios.planned_scene_move, name="planned_scene_move"),
    path(
        "scenes/<int:scene_id>/checks/",
        scenarios.prepared_check_create,
        name="prepared_check_create",
    ),
    path("checks/<int:check_id>/", scenarios.prepared_check_edit, name="prepared_check_edit"),
    path(
        "checks/<int:check_id>/delete/",
        scenarios.prepared_check_delete,
        name="prepared_check_delete",
    ),
    path("npcs/", scenarios.scenario_npc_create, name="scenario_npc_create"),
    path("npcs/<int:npc_id>/", scenarios.scenario_npc_edit, name="scenario_npc_edit"),
    path("npcs/<int:npc_id>/delete/", scenarios.scenario_npc_delete, name="scenario_npc_delete"),
    path("handouts/", scenarios.handout_create, name="handout_create"),
    path("handouts/<int:handout_id>/", scenarios.handout_edit, name="handout_edit"),
    path("handouts/<int:handout_id>/delete/", scenarios.handout_delete, name="handout_delete"),
    path(
        "scenes/<int:scene_id>/background/",
        pictures.planned_scene_background_post,
        name="planned_scene_background_set",
    ),
    path(
        "handouts/<int:handout_id>/image/",
        pictures.handout_image_post,
        name="handout_image_set",
    ),
]
# ---------------------------------------------------------------------------------------------

urlpatterns = [
    path("", tables.home, name="home"),
    path("ok/", tables.ok, name="ok"),
    path("health/live/", health.liveness, name="health_live"),
    path("health/ready/", health.ReadinessView.as_view(), name="health_ready"),
    path("favicon.ico", tables.favicon, name="favicon"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/signup/", tables.signup, name="signup"),
    path("accounts/keep/", tables.guest_keep_view, name="guest_keep"),
    path("tables/<int:table_id>/", tables.table_detail, name="table_detail"),
    path("tables/<int:table_id>/invites/", tables.invite_create, name="invite_create"),
    path(
        "tables/<int:table_id>/invites/<int:invite_id>/withdraw/",
        tables.invite_withdraw,
        name="invite_withdraw",
    ),
    path(
        "tables/<int:table_id>/members/<int:user_id>/remove/",
        tables.member_remove,
        name="member_remove",
    ),
    path(
        "tables/<int:table_id>/bars/<int:user_id>/lift/",
        tables.member_bar_lift,
        name="member_bar_lift",
    ),
    path("tables/<int:table_id>/leave/", tables.table_leave, name="table_leave"),
    path("tables/<int:table_id>/sessions/", tables.session_create, name="session_create"),
    path("tables/<int:table_id>/characters/", characters.character_list, name="character_list"),
    path("tables/<int:table_id>/characters/new/", characters.character_new, name="character_new"),
    path("tables/<int:table_id>/ccfolia/", ccfolia.ccfolia_room_import, name="ccfolia_room_import"),
    path(
        "tables/<int:table_id>/ccfolia/report/",
        ccfolia.ccfolia_room_report,
        name="ccfolia_room_report",
    ),
    path("tables/<int:table_id>/profile/", characters.profile_edit, name="profile_edit"),
    path("tables/<int:table_id>/dice/", stats.table_dice, name="table_dice"),
    path(
        "tables/<int:table_id>/experience/",
        experience.experience_ledger,
        name="experience_ledger",
    ),
    path(
        "tables/<int:table_id>/experience/<int:user_id>/record/",
        experience.record_sheet,
        name="record_sheet",
    ),
    path(
        "tables/<int:table_id>/experience/<int:user_id>/correct/",
        experience.experience_correct,
        name="experience_correct",
    ),
    path(
        "tables/<int:table_id>/experience/growth/<int:request_id>/",
        experience.growth_decide,
        name="growth_decide",
    ),
    path("characters/<int:character_id>/", characters.character_edit, name="character_edit"),
    path(
        "characters/<int:character_id>/ccfolia.json",
        characters.character_ccfolia,
        name="character_ccfolia",
    ),
    path("invite/<str:token>/", include(invite_patterns)),
    path("tables/<int:table_id>/spectators/", tables.spectators_update, name="spectators_update"),
    path("watch/<str:token>/", spectators.watch_index, name="watch_index"),
    path(
        "watch/<str:token>/sessions/<int:session_id>/",
        spectators.watch_session,
        name="watch_session",
    ),
    # Uploaded pictures: each view checks who may see what the picture belongs to.
    path("pictures/faces/<int:face_id>/", pictures.face_image, name="face_image"),
    path("pictures/scenes/<int:scene_id>/", pictures.scene_background, name="scene_background"),
    path(
        "pictures/planned-scenes/<int:planned_id>/",
        pictures.planned_scene_background,
        name="planned_scene_background",
    ),
    path("pictures/handouts/<int:handout_id>/", pictures.handout_image, name="handout_image"),
    path("pictures/cut-ins/<int:cut_in_id>/", pictures.cut_in_image, name="cut_in_image"),
    # Sounds: the GM hears all of the table's, the others those the GM has played.
    path("audio/<int:audio_id>/", audio.audio_file, name="audio_file"),
    path("matches/<int:match_id>/", minigames.match_detail, name="match_detail"),
    path("matches/<int:match_id>/move/", minigames.match_move, name="match_move"),
    path("matches/<int:match_id>/outcome/", minigames.match_outcome, name="match_outcome"),
    path("import/", review.log_import, name="log_import"),
    path("matches/<int:match_id>/shuffle-in/", minigames.match_shuffle_in, name="match_shuffle_in"),
    path("practice/", minigames.practice, name="practice"),
    path("practice/dice/reserve/", minigames.practice_dice_reserve, name="practice_dice_reserve"),
    path("practice/<int:match_id>/verify/", minigames.practice_verify, name="practice_verify"),
    path("practice/<int:match_id>/proof/", minigames.practice_proof, name="practice_proof"),
    path("decks/", minigames.decks, name="decks"),
    path("decks/check/", minigames.deck_check, name="deck_check"),
    path("sessions/<int:session_id>/", include(session_patterns)),
    # Scenarios ---------------------------------------------------------------------------------
    path("scenarios/", scenarios.scenario_list, name="scenario_list"),
    path("scenarios/<int:scenario_id>/", include(scenario_patterns)),
    # -------------------------------------------------------------------------------------------
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
