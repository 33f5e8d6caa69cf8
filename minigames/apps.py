from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MinigamesConfig(AppConfig):
    name = "minigames"
    verbose_name = _("Minigames")

    def ready(self):
        # The room finds the matches through its registry: sessions_app never imports us.
        from sessions_app.rooms import on_main_play_end, register_boards

        from . import kinds  # noqa: F401 - registers the matches' timeline event kinds
        from .room import BOARDS
        from .services import matches_stop

        register_boards(BOARDS)
        on_main_play_end(matches_stop)
