from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MinigamesConfig(AppConfig):
    name = "minigames"
    verbose_name = _("Minigames")

    def ready(self):
        from . import kinds  # noqa: F401 - registers the matches' timeline event kinds
