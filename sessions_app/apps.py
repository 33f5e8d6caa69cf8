from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SessionsAppConfig(AppConfig):
    name = "sessions_app"
    verbose_name = _("Tables and sessions")

    def ready(self):
        from . import live_delivery

        live_delivery.register()
