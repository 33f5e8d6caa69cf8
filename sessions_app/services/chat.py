"""What people say in a session: lines out of character, in character, GM narration, GM-only
notes, and whispers between the GM and one player."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.utils.translation import gettext as _

from ..models import ChatTab, GameSession, Membership, TimelineEvent
from ..selectors.access import is_gm, is_player
from ..selectors.chat_tabs import chat_tab_of_channel
from ..selectors.scenes import Voice, voice_get
from ..selectors.tables import membership_get
from .access import require_member
from .faces import FACE_NOT_OF_CHARACTER
from .stage import speaker_check
from .timeline import timeline_append

CHAT_MAX_LENGTH = 2000

CHAT_MODES = ("ooc", "ic", "narration", "whisper")

CHAT_CHANNELS = ("main", "offtopic")


def chat_post(
    *,
    session: GameSession,
    by,
    text: str,
    gm_only: bool = False,
    mode: str = "ooc",
    character=None,
    to=None,
    face_id: int | None = None,
    channel: str = "main",
    membership: Membership | None = None,
    voice: Voice | None = None,
) -> TimelineEvent:
    """Post a line to the session: out of character, in character (as a character on stage),
    GM narration, a GM-only note, or a whisper between the GM and one player; on the main
    channel, off-topic, or one of the GM's open tabs (its key).

    A caller that has checked access already hands over `by`'s `membership` of the
    session's table, and the speaking character as it read it (`voice`, with `face_id`):
    neither is read again.
    """
    if membership is None:
        membership = require_member(
            user=by,
            table_id=session.table_id,
            message=_("Only members of this table can write in its sessions."),
        )
    by_gm = is_gm(membership)
    text = _line_text(text)
    if mode not in CHAT_MODES:
        raise ValidationError({"mode": _("Choose how to say it.")})
    tab = _channel_tab(session, channel)
    if gm_only and not by_gm:
        raise PermissionDenied(_("Only the GM can write GM-only notes."))
    payload = {"text": text}
    if mode == "ic":
        payload.update(
            _in_character(session, by, character, face_id, membership=membership, voice=voice)
        )
    elif mode == "narration":
        if not by_gm:
            raise PermissionDenied(_("Only the GM narrates."))
        payload["mode"] = mode
    elif mode == "whisper":
        return _whisper(session, by, text, to, by_gm)
    if channel != "main":
        # Main lines keep the payload they always had, so old and new logs read alike.
        payload["channel"] = channel
    if tab is not None:
        payload["tab"] = tab.name
    visibility = TimelineEvent.Visibility.GM if gm_only else TimelineEvent.Visibility.EVERYONE
    return timeline_append(
        session=session, kind="chat", actor=by, payload=payload, visibility=visibility
    )


def _line_text(text: str) -> str:
    """The line as it is kept: without surrounding blanks, neither empty nor too long."""
    text = (text or "").strip()
    if not text:
        raise ValidationError({"text": _("Write something first.")})
    if len(text) > CHAT_MAX_LENGTH:
        raise ValidationError(
            {"text": _("A line can be at most %(limit)d characters.") % {"limit": CHAT_MAX_LENGTH}}
        )
    return text


def _channel_tab(session: GameSession, channel: str) -> ChatTab | None:
    """The GM's open tab a line goes to, or None for the main and off-topic channels (which
    need no query)."""
    if channel in CHAT_CHANNELS:
        return None
    tab = chat_tab_of_channel(session_id=session.pk, channel=channel or "")
    if tab is None:
        raise ValidationError({"channel": _("Choose the main channel, off-topic or a tab.")})
    return tab


def _in_character(
    session: GameSession,
    by,
    character,
    face_id: int | None,
    *,
    membership: Membership,
    voice: Voice | None,
) -> dict:
    """The payload of a line said as `character`, who must be on stage and `by`'s to speak
    as, with the face it was said with."""
    if character is None or character.table_id != session.table_id:
        raise ValidationError({"character": _("Choose the character who speaks.")})
    if voice is None or voice.character.pk != character.pk or voice.face_asked != face_id:
        # The caller read another character or face (or none): read the one asked for.
        voice = voice_get(session=session, character_id=character.pk, face_id=face_id)
    if voice is None:
        raise ValidationError({"character": _("Choose the character who speaks.")})
    speaker_check(session, by, character, membership=membership, voice=voice)
    payload = {"mode": "ic", "character": character.name, "character_id": character.pk}
    # The chosen expression, else the portrait: the line shows the face it was said with.
    face = voice.face
    if face_id and face is None:
        raise ValidationError({"face": FACE_NOT_OF_CHARACTER})
    if face is not None:
        payload.update({"face_id": face.pk, "face": face.label})
    return payload


def _whisper(session: GameSession, by, text: str, to, by_gm: bool) -> TimelineEvent:
    """A private line between the GM and one player: nobody else receives it."""
    if by_gm:
        recipient = to
        if recipient is None or recipient.pk == by.pk:
            raise ValidationError({"to": _("Choose the player to whisper to.")})
        if not is_player(membership_get(user=recipient, table_id=session.table_id)):
            raise ValidationError({"to": _("You can whisper only to a player of this table.")})
        player = recipient
    else:
        # A player whispers to the GM; the GM sees every listed-users event.
        player = by
    return timeline_append(
        session=session,
        kind="whisper",
        actor=by,
        payload={"text": text, "to": player.get_username() if by_gm else "", "to_gm": not by_gm},
        visibility=TimelineEvent.Visibility.USERS,
        audience=[player],
    )
