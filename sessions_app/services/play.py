"""Pre-play and the run of a session: scenario, checklist, player order, introductions,
phases and handouts. Scenes and who is on stage live in ``scenes.py``."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from .. import rooms
from ..models import (
    Appearance,
    Character,
    GameSession,
    Handout,
    HandoutReveal,
    Participation,
    Phase,
    Scenario,
    Scene,
    TimelineEvent,
)
from ..selectors.access import is_gm
from ..selectors.play import PREPARATION_ITEMS, phase_next
from ..selectors.scenes import session_players
from .access import require_gm, require_member
from .scenes import scene_end
from .timeline import timeline_append

INTRO_MAX_LENGTH = 4000


def _locked(session: GameSession) -> GameSession:
    """Re-read the session under a row lock: two tabs cannot both act on the same state."""
    return GameSession.objects.select_for_update().get(pk=session.pk)


def session_scenario_set(*, session: GameSession, by, scenario: Scenario | None) -> None:
    """Choose the scenario the GM runs; its NPCs join the table as NPC sheets."""
    require_gm(user=by, table_id=session.table_id)
    if scenario is not None and scenario.owner_id != by.pk:
        raise PermissionDenied(_("You can only run your own scenarios."))
    with transaction.atomic():
        session.scenario = scenario
        session.save(update_fields=["scenario"])
        if scenario is not None:
            existing = set(
                Character.objects.filter(
                    table_id=session.table_id, kind=Character.Kind.NPC
                ).values_list("name", flat=True)
            )
            for npc in scenario.npcs.all():
                if npc.name in existing:
                    continue
                Character.objects.create(
                    table_id=session.table_id,
                    owner=by,
                    kind=Character.Kind.NPC,
                    name=npc.name,
                    concept=npc.concept,
                    judgement_values=npc.judgement_values,
                    notes=npc.notes,
                )
        # The scenario's very title can spoil it: only the GM's timeline says which it is.
        timeline_append(
            session=session,
            kind="scenario_chosen",
            actor=by,
            payload={"title": scenario.title if scenario else ""},
            visibility=TimelineEvent.Visibility.GM,
        )


def preparation_tick(*, session: GameSession, by, item: str, done: bool) -> None:
    """Tick (or untick) one item of the GM's own preparation."""
    require_gm(user=by, table_id=session.table_id)
    if item not in PREPARATION_ITEMS:
        raise ValidationError(_("Unknown checklist item."))
    with transaction.atomic():
        session = _locked(session)
        if item == "scenario" and not done and session.scenario_id is not None:
            raise ValidationError(
                _("A scenario is chosen for this session: choose “— no scenario —” to untick it.")
            )
        preparation = dict(session.preparation or {})
        preparation[item] = bool(done)
        session.preparation = preparation
        session.save(update_fields=["preparation"])
        timeline_append(
            session=session,
            kind="preparation_ticked",
            actor=by,
            payload={"item": item, "done": bool(done)},
            visibility=TimelineEvent.Visibility.GM,
        )


def _participation(session: GameSession, character: Character) -> Participation:
    try:
        return Participation.objects.select_for_update().get(session=session, character=character)
    except Participation.DoesNotExist:
        raise ValidationError(
            _("%(name)s is not taking part in this session.") % {"name": character.name}
        ) from None


def sheet_review(
    *, session: GameSession, by, character: Character, ok: bool, comment: str = ""
) -> None:
    """Mark a PC's sheet checked, or send it back to its player with a comment."""
    require_gm(user=by, table_id=session.table_id)
    comment = (comment or "").strip()
    if not ok and not comment:
        raise ValidationError({"comment": _("Say what is missing or wrong on the sheet.")})
    with transaction.atomic():
        row = _participation(session, character)
        row.sheet_status = (
            Participation.SheetStatus.CHECKED if ok else Participation.SheetStatus.RETURNED
        )
        row.sheet_comment = "" if ok else comment
        if ok:
            row.checked_at = timezone.now()
        row.save(update_fields=["sheet_status", "sheet_comment", "checked_at"])
        payload = {"character": character.name, "character_id": character.pk}
        if ok:
            timeline_append(session=session, kind="sheet_checked", actor=by, payload=payload)
        else:
            # The comment is between the GM and the sheet's player.
            timeline_append(
                session=session,
                kind="sheet_returned",
                actor=by,
                payload={**payload, "comment": comment},
                visibility=TimelineEvent.Visibility.USERS,
                audience=[character.owner],
            )


def player_order_move(*, session: GameSession, by, user_id: int, offset: int) -> list[int]:
    """Move one player up (-1) or down (+1) in the seating order; return the new order."""
    require_gm(user=by, table_id=session.table_id)
    if offset not in (-1, 1):
        raise ValidationError(_("A player moves one place at a time."))
    with transaction.atomic():
        session = _locked(session)
        players = session_players(session=session)
        order = [player.pk for player in players]
        if user_id not in order:
            raise ValidationError(_("That person is not a player of this table."))
        index = order.index(user_id)
        target = index + offset
        if not 0 <= target < len(order):
            return order
        order[index], order[target] = order[target], order[index]
        session.player_order = order
        session.save(update_fields=["player_order"])
        names = {player.pk: player.get_username() for player in players}
        timeline_append(
            session=session,
            kind="player_order_changed",
            actor=by,
            payload={"players": [names[pk] for pk in order]},
        )
    return order


def intro_present(*, session: GameSession, by, character: Character, text: str) -> None:
    """A player presents their PC to the table (or the GM marks the introduction done)."""
    by_gm = is_gm(require_member(user=by, table_id=session.table_id))
    if character.owner_id != by.pk and not by_gm:
        raise PermissionDenied(
            _("Only %(name)s's player can introduce it.") % {"name": character.name}
        )
    text = (text or "").strip()
    if len(text) > INTRO_MAX_LENGTH:
        raise ValidationError(
            {
                "text": _("An introduction can be at most %(limit)d characters.")
                % {"limit": INTRO_MAX_LENGTH}
            }
        )
    if not text and not by_gm:
        raise ValidationError({"text": _("Write a few words about your character first.")})
    with transaction.atomic():
        row = _participation(session, character)
        if text:
            row.intro = text
        row.intro_done = True
        row.save(update_fields=["intro", "intro_done"])
        timeline_append(
            session=session,
            kind="self_introduction",
            actor=by,
            payload={"character": character.name, "character_id": character.pk, "text": text},
        )


def phase_advance(*, session: GameSession, by, from_phase: str) -> str:
    """Move the session to the next phase; `from_phase` is what the GM saw when clicking,
    so a second tab (or a double click) cannot advance twice."""
    require_gm(user=by, table_id=session.table_id)
    with transaction.atomic():
        locked = _locked(session)
        if locked.phase != from_phase:
            raise ValidationError(
                _("The session has already moved on to %(phase)s.")
                % {"phase": Phase(locked.phase).label}
            )
        following = phase_next(locked.phase)
        if following is None:
            raise ValidationError(_("After-play is the last phase this control moves to."))
        running = Scene.objects.filter(session=locked, status=Scene.Status.RUNNING).first()
        continuous = running is not None and running.continuous
        if running is not None and not continuous:
            raise ValidationError(_("End the current scene before moving on to the next phase."))
        locked.phase = following
        locked.save(update_fields=["phase"])
        session.phase = following
        timeline_append(
            session=locked,
            kind="phase_changed",
            actor=by,
            payload={"from": from_phase, "to": following},
        )
        if following == Phase.OPENING and not locked.rules_profile.scenes_enabled:
            _continuous_scene_start(locked, by)
        if following == Phase.AFTER_PLAY and continuous:
            scene_end(session=locked, by=by, backstage_notes="")
        if following == Phase.AFTER_PLAY:
            rooms.main_play_end(session=locked, by=by)
    return following


def _continuous_scene_start(session: GameSession, by) -> Scene:
    """No-scene mode: main play is one scene with every PC on stage from the start."""
    scene = Scene.objects.create(
        session=session,
        phase=Phase.OPENING,
        number=1,
        title=_("Main play"),
        continuous=True,
        started_by=by,
    )
    now = timezone.now()
    names = []
    for character in session.characters.order_by("name"):
        Appearance.objects.create(
            scene=scene, character=character, way=Appearance.Way.GM, entered_at=now
        )
        names.append(character.name)
    timeline_append(
        session=session,
        kind="scene_started",
        actor=by,
        payload={
            "scene_id": scene.pk,
            "number": 1,
            "phase": Phase.OPENING,
            "title": scene.title,
            "continuous": True,
            "on_stage": names,
        },
    )
    return scene


def handout_reveal(*, session: GameSession, by, handout: Handout) -> HandoutReveal:
    """Give a scenario handout out: to everyone, or to the player of its PC slot."""
    require_gm(user=by, table_id=session.table_id)
    if session.scenario_id is None or handout.scenario_id != session.scenario_id:
        raise ValidationError(_("That handout is not part of this session's scenario."))
    readers = []
    if handout.slot is not None:
        row = (
            Participation.objects.filter(session=session, slot=handout.slot)
            .select_related("character__owner")
            .first()
        )
        if row is None:
            raise ValidationError(
                _("No PC plays slot PC%(slot)d yet: give the slots out in pre-play first.")
                % {"slot": handout.slot}
            )
        readers = [row.character.owner]
    with transaction.atomic():
        # Under the session's lock a second tab's reveal sees the first one and is refused.
        _locked(session)
        if HandoutReveal.objects.filter(session=session, handout=handout).exists():
            raise ValidationError(_("That handout is already revealed."))
        reveal = HandoutReveal.objects.create(session=session, handout=handout, revealed_by=by)
        if readers:
            reveal.readers.set(readers)
        payload = {
            "handout_id": handout.pk,
            "title": handout.title,
            "body": handout.body,
            "slot": handout.slot,
        }
        if readers:
            timeline_append(
                session=session,
                kind="handout_revealed",
                actor=by,
                payload=payload,
                visibility=TimelineEvent.Visibility.USERS,
                audience=readers,
            )
        else:
            timeline_append(session=session, kind="handout_revealed", actor=by, payload=payload)
    return reveal


def slot_assign(*, session: GameSession, by, character: Character, slot: int | None) -> None:
    """Say which scenario PC slot a character plays (for handouts and planned scenes)."""
    require_gm(user=by, table_id=session.table_id)
    if slot is not None and not 1 <= slot <= 12:
        raise ValidationError({"slot": _("PC slots are numbered 1 to 12.")})
    with transaction.atomic():
        # Slots are unique per session only here: under the session's lock, a second tab
        # giving the same slot to another character sees the first and is refused.
        _locked(session)
        row = _participation(session, character)
        if slot is not None:
            taken = (
                Participation.objects.filter(session=session, slot=slot)
                .exclude(pk=row.pk)
                .select_related("character")
                .first()
            )
            if taken is not None:
                raise ValidationError(
                    {
                        "slot": _("%(name)s already plays PC%(slot)d.")
                        % {"name": taken.character.name, "slot": slot}
                    }
                )
        row.slot = slot
        row.save(update_fields=["slot"])
        timeline_append(
            session=session,
            kind="slot_assigned",
            actor=by,
            payload={"character": character.name, "slot": slot},
        )
