"""What the room shows of its sounds: the running scene's music, and the GM's collection."""

from __future__ import annotations

from ..models import GameSession, TableAudio
from ..services.audio import ACCEPTED_EXTENSIONS


def audio_context(session: GameSession, scene, viewer_is_gm: bool) -> dict:
    """The music every browser loops, and for the GM the table's sounds and their forms."""
    context = {"scene_music": scene.music if scene is not None and scene.music_id else None}
    if viewer_is_gm:
        context["table_audio"] = list(TableAudio.objects.filter(table_id=session.table_id))
        context["audio_accept"] = ",".join(f".{name}" for name in ACCEPTED_EXTENSIONS)
    return context
