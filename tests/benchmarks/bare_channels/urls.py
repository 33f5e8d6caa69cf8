from django.urls import path

from tests.benchmarks.bare_channels import views

urlpatterns = [
    path("ok/", views.ok),
    path("post/<str:room>/", views.post),
    path("me/", views.me),
]
