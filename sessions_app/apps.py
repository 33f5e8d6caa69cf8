from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SessionsAppConfig(AppConfig):
    name = "sessions_app"
    verbose_name = _("Tables and sessions")

    def ready(self):
        # Connects the live wing's receivers to the services' signals, and registers the
        # project's own deployment checks.
        from . import checks  # noqa: F401
        from .live import hooks  # noqa: F401
