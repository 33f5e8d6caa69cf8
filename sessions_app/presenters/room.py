"""What the session room's panels show one viewer: the page, its form answers and the live
updates all build it here, so a panel sent over the socket equals a fresh load of itself."""

from __future__ import annotations

from django.db.models import Q

from ..forms import room_forms
from ..models import Character
from ..models.chat import CHAT_TAB_NAME_MAX_LENGTH
from ..selectors.chat_tabs import chat_tabs_open
from ..selectors.checks import pending_checks_for
from ..selectors.pictures import faces_by_character
from ..selectors.scenes import handouts_for, session_cast
from ..selectors.tables import table_characters
from .audio import audio_context
from .characters import characters_context
from .inbox import inbox_context
from .stage import gm_scenario_context, speakers, stage_context

ROOM_TEMPLATE = "sessions_app/session_room.html"


def rollable_characters(session):
    """PCs taking part and the table's NPCs: whoever a GM may ask for a check."""
    return (
        Character.objects.filter(table=session.table)
        .filter(Q(sessions=session) | Q(kind=Character.Kind.NPC))
        .distinct()
    )


def table_npcs(session):
    return Character.objects.filter(table=session.table, kind=Character.Kind.NPC)


def voices(controlled, in_main_play: bool, on_stage) -> list[Character]:
    """The characters the viewer may speak and roll as: those they control, on stage while
    main play runs (off stage a character does nothing in the scene)."""
    if not in_main_play:
        return list(controlled)
    on_stage_ids = {character.pk for character in on_stage}
    return [character for character in controlled if character.pk in on_stage_ids]


def voice_offered(voice, user, viewer_is_gm: bool, in_main_play: bool) -> bool:
    """Whether the character a post names (a selectors.scenes.Voice) is one of the viewer's
    voices, as `voices` offers them: one they control (a PC taking part, or the GM's NPC),
    on stage while main play runs."""
    character = voice.character
    controlled = character.owner_id == user.pk and (
        voice.taking_part or (viewer_is_gm and character.kind == Character.Kind.NPC)
    )
    return controlled and (not in_main_play or voice.on_stage)


def room_panels_context(session, user, viewer_is_gm: bool) -> dict:
    """Everything the room's panels (not the timeline or the boards) show this viewer."""
    stage = stage_context(session, user, viewer_is_gm)
    sheets = characters_context(session, user, viewer_is_gm)
    own_voices = voices(
        [palette.character for palette in sheets["palettes"]],
        stage["in_main_play"],
        stage.get("on_stage", []),
    )
    tabs = chat_tabs_open(session_id=session.pk)
    context = {
        **stage,
        **sheets,
        "session": session,
        "profile": session.rules_profile,
        "viewer": user,
        "viewer_is_gm": viewer_is_gm,
        "chat_tabs": tabs,
        "tab_name_limit": CHAT_TAB_NAME_MAX_LENGTH,
        "check_items": pending_checks_for(session_id=session.pk, user=user, is_gm=viewer_is_gm),
    }
    gm_forms = {}
    if viewer_is_gm:
        gm_forms = {
            "gm_characters": rollable_characters(session)
            .select_related("owner")
            .order_by("kind", "name"),
            "npcs": table_npcs(session).select_related("owner"),
        }
    context.update(
        room_forms(
            session=session,
            user=user,
            speakers=speakers(session, user, viewer_is_gm, own_voices),
            expressions=faces_by_character(characters=own_voices),
            tabs=tabs,
            voices=own_voices,
            **gm_forms,
        )
    )
    if viewer_is_gm:
        context.update(
            {
                "cast_candidates": table_characters(table=session.table, kind="pc"),
                **gm_scenario_context(session, user),
                **inbox_context(session, user, viewer_is_gm),
            }
        )
    else:
        context["cast_candidates"] = table_characters(table=session.table, kind="pc").filter(
            owner=user
        )
        context["my_participations"] = [
            row for row in stage["participations"] if row.character.owner_id == user.pk
        ]
        context["my_handouts"] = handouts_for(session=session, user=user, is_gm=False)
    context.update(audio_context(session, stage.get("scene"), viewer_is_gm))
    context["cast"] = session_cast(session=session)
    context["cast_candidates"] = context["cast_candidates"].exclude(
        pk__in=[character.pk for character in context["cast"]]
    )
    return context
