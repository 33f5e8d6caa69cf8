from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from minigames import views as minigames
from sessions_app.views import characters, review, room, tables

session_patterns = [
    path("", room.session_room, name="session_room"),
    path("chat/", room.chat_post, name="chat_post"),
    path("roll/", room.roll_box, name="roll_box"),
    path("cast/", room.cast_update, name="cast_update"),
    path("checks/", room.check_request_create, name="check_request_create"),
    path("checks/<int:request_id>/roll/", room.check_roll, name="check_roll"),
    path("checks/<int:request_id>/chances/", room.check_chances, name="check_chances"),
    path("checks/<int:request_id>/cancel/", room.check_cancel, name="check_cancel"),
    path("contests/", room.contest_create, name="contest_create"),
    path("contests/preview/", room.contest_preview, name="contest_preview"),
    path("npc-rolls/", room.npc_roll, name="npc_roll"),
    path("rolls/<int:roll_id>/reveal/", room.roll_reveal, name="roll_reveal"),
    path("rolls/<int:roll_id>/void/", room.roll_void, name="roll_void"),
    path("matches/", minigames.match_create, name="match_create"),
    path("review/", review.session_review, name="session_review"),
    path("export.html", review.session_export_html, name="session_export_html"),
    path("export.md", review.session_export_markdown, name="session_export_markdown"),
    path("export.json", review.session_export_json, name="session_export_json"),
]

urlpatterns = [
    path("", tables.home, name="home"),
    path("ok/", tables.ok, name="ok"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/signup/", tables.signup, name="signup"),
    path("tables/<int:table_id>/", tables.table_detail, name="table_detail"),
    path("tables/<int:table_id>/invites/", tables.invite_create, name="invite_create"),
    path("tables/<int:table_id>/sessions/", tables.session_create, name="session_create"),
    path("tables/<int:table_id>/characters/", characters.character_list, name="character_list"),
    path("tables/<int:table_id>/characters/new/", characters.character_new, name="character_new"),
    path("tables/<int:table_id>/profile/", characters.profile_edit, name="profile_edit"),
    path("characters/<int:character_id>/", characters.character_edit, name="character_edit"),
    path("invite/<str:token>/", tables.invite_landing, name="invite"),
    path("matches/<int:match_id>/", minigames.match_detail, name="match_detail"),
    path("matches/<int:match_id>/move/", minigames.match_move, name="match_move"),
    path("matches/<int:match_id>/outcome/", minigames.match_outcome, name="match_outcome"),
    path("import/", review.log_import, name="log_import"),
    path("practice/", minigames.practice, name="practice"),
    path("decks/", minigames.decks, name="decks"),
    path("decks/check/", minigames.deck_check, name="deck_check"),
    path("sessions/<int:session_id>/", include(session_patterns)),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
