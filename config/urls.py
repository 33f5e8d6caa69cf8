from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from sessions_app import views

urlpatterns = [
    path("", views.home, name="home"),
    path("ok/", views.ok, name="ok"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/signup/", views.signup, name="signup"),
    path("tables/<int:table_id>/", views.table_detail, name="table_detail"),
    path("tables/<int:table_id>/invites/", views.invite_create, name="invite_create"),
    path("tables/<int:table_id>/sessions/", views.session_create, name="session_create"),
    path("invite/<str:token>/", views.invite_landing, name="invite"),
    path("sessions/<int:session_id>/", views.session_room, name="session_room"),
    path("sessions/<int:session_id>/chat/", views.chat_post, name="chat_post"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
