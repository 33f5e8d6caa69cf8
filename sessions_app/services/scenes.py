"""Scenes: starting and ending them, who is on stage, companions, entry and exit requests,
and the scenes players ask the GM for.

Every change is one timeline event. Requests are decided under a row lock, so a GM's
"allow" and a player's "withdraw" arriving together end in exactly one of the two.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import (
    MAIN_PLAY_PHASES,
    Appearance,
    Character,
    CheckRequest,
    EntryCondition,
    GameSession,
    Participation,
    PlannedScene,
    PreparedCheck,
    Scene,
    SceneRequest,
    StageRequest,
    TimelineEvent,
)
from ..rules import srs_commands
from ..selectors.access import is_player
from ..selectors.scenes import on_stage_ids
from .access import require_gm, require_member
from .checks import check_request, check_request_announce, check_request_build
from .dice import dice_draw, draw_proof
from .stage import appear, character_label, request_event
from .timeline import timeline_append

TEXT_LIMITS = {"title": 160, "place": 160, "purpose": 300}


def _running(session: GameSession, *, lock: bool = False) -> Scene:
    scenes = Scene.objects.filter(session=session, status=Scene.Status.RUNNING)
    if lock:
        # Only the scene row: PostgreSQL refuses FOR UPDATE on the nullable side of the
        # outer join to a master scene's (absent) scene player.
        scenes = scenes.select_for_update(of=("self",))
    scene = scenes.select_related("scene_player").first()
    if scene is None:
        raise ValidationError(_("No scene is running."))
    return scene


def _exit(scene: Scene, character: Character, by, *, asked: bool) -> None:
    updated = Appearance.objects.filter(
        scene=scene, character=character, exited_at__isnull=True
    ).update(exited_at=timezone.now())
    if not updated:
        raise ValidationError(_("%(name)s is not on stage.") % {"name": character.name})
    timeline_append(
        session=scene.session,
        kind="character_exited",
        actor=by,
        payload={**character_label(character), "asked": asked, "scene_number": scene.number},
    )


def _clean_text(name: str, value: str) -> str:
    value = (value or "").strip()
    if len(value) > TEXT_LIMITS[name]:
        raise ValidationError(
            {name: _("At most %(limit)d characters.") % {"limit": TEXT_LIMITS[name]}}
        )
    return value


def _slot_character(session: GameSession, slot: int | None) -> Character | None:
    if slot is None:
        return None
    row = (
        Participation.objects.filter(session=session, slot=slot).select_related("character").first()
    )
    return row.character if row else None


def scene_start(
    *,
    session: GameSession,
    by,
    scene_player: Character | None = None,
    master: bool = False,
    title: str = "",
    place: str = "",
    purpose: str = "",
    planned: PlannedScene | None = None,
    scene_request: SceneRequest | None = None,
) -> Scene:
    """Start a scene in the current phase: a scene player (who appears at once) or a master
    scene, with its place and purpose (both required); from a planned scene or a player's
    scene request, its fields fill the gaps (a request that names nobody makes a master
    scene)."""
    require_gm(user=by, table_id=session.table_id)
    if session.phase not in MAIN_PLAY_PHASES:
        raise ValidationError(_("Scenes are played in main play: start main play first."))
    if not session.rules_profile.scenes_enabled:
        raise ValidationError(_("This rules profile plays main play as one continuous scene."))
    fields = _SceneFields(
        scene_player=scene_player, master=master, title=title, place=place, purpose=purpose
    )
    # Each fills only what those before it left blank: the GM's form wins over the
    # request, the request over the plan.
    if scene_request is not None:
        fields = _filled_from_request(fields, session, scene_request, planned=planned)
    if planned is not None:
        fields = _filled_from_planned(fields, session, planned)
    fields = replace(fields, scene_player=_scene_player_checked(session, fields))
    fields = _texts_checked(fields)
    return _scene_begin(session, by, fields, planned=planned, scene_request=scene_request)


@dataclass(frozen=True)
class _SceneFields:
    """What a scene starts with, as the GM's form, a scene request and a planned scene fill
    it in."""

    scene_player: Character | None
    master: bool
    title: str
    place: str
    purpose: str


def _filled_from_request(
    fields: _SceneFields,
    session: GameSession,
    scene_request: SceneRequest,
    *,
    planned: PlannedScene | None,
) -> _SceneFields:
    if scene_request.session_id != session.pk:
        raise ValidationError(_("That scene request belongs to another session."))
    fields = replace(
        fields,
        place=fields.place or scene_request.place,
        purpose=fields.purpose or scene_request.purpose,
    )
    if fields.scene_player is None and not fields.master:
        scene_player = scene_request.scene_player
        # A request that names nobody asks for a master scene, unless the planned scene
        # played from it says who leads.
        fields = replace(
            fields, scene_player=scene_player, master=scene_player is None and planned is None
        )
    return fields


def _filled_from_planned(
    fields: _SceneFields, session: GameSession, planned: PlannedScene
) -> _SceneFields:
    if planned.scenario_id != session.scenario_id:
        raise ValidationError(_("That planned scene belongs to another scenario."))
    fields = replace(
        fields,
        title=fields.title or planned.title,
        place=fields.place or planned.place,
        purpose=fields.purpose or planned.purpose,
    )
    if fields.scene_player is not None or fields.master:
        return fields
    if planned.is_master:
        return replace(fields, master=True)
    # The plan names a slot, not a character: whoever plays that slot in this session.
    scene_player = _slot_character(session, planned.scene_player_slot)
    if scene_player is None:
        raise ValidationError(
            {
                "scene_player": _("No PC plays slot PC%(slot)d: choose the scene player.")
                % {"slot": planned.scene_player_slot}
            }
        )
    return replace(fields, scene_player=scene_player)


def _scene_player_checked(session: GameSession, fields: _SceneFields) -> Character | None:
    """The scene's player, None for a master scene."""
    if fields.master:
        return None
    scene_player = fields.scene_player
    if scene_player is None:
        raise ValidationError(
            {"scene_player": _("Choose the scene player, or make it a master scene.")}
        )
    if (
        scene_player.kind != Character.Kind.PC
        or not Participation.objects.filter(session=session, character=scene_player).exists()
    ):
        raise ValidationError({"scene_player": _("The scene player is a PC taking part.")})
    return scene_player


def _texts_checked(fields: _SceneFields) -> _SceneFields:
    fields = replace(
        fields,
        title=_clean_text("title", fields.title),
        place=_clean_text("place", fields.place),
        purpose=_clean_text("purpose", fields.purpose),
    )
    # Seed 003: the GM opens a scene by saying where it is and what it is for, since that is
    # what the players decide on whether to enter.
    missing = {}
    if not fields.place:
        missing["place"] = _(
            "Say where the scene takes place: the players decide from it whether to enter."
        )
    if not fields.purpose:
        missing["purpose"] = _(
            "Say what the scene is for: the players decide from it whether to enter."
        )
    if missing:
        raise ValidationError(missing)
    return fields


def _scene_begin(
    session: GameSession,
    by,
    fields: _SceneFields,
    *,
    planned: PlannedScene | None,
    scene_request: SceneRequest | None,
) -> Scene:
    """Create the scene, say so on the timeline, close the request it answers and bring its
    scene player on stage: all or nothing, and never beside another running scene."""
    try:
        with transaction.atomic():
            GameSession.objects.select_for_update().filter(pk=session.pk).first()
            if Scene.objects.filter(session=session, status=Scene.Status.RUNNING).exists():
                raise ValidationError(_("A scene is already running: end it first."))
            if scene_request is not None:
                # Declined in another tab meanwhile: the GM's last word stands.
                scene_request = _scene_request_open(session, scene_request.pk)
            scene = _scene_create(session, by, fields, planned=planned)
            if scene_request is not None:
                _scene_request_close(scene_request, SceneRequest.Status.STARTED, by, scene)
            if fields.scene_player is not None:
                appear(scene, fields.scene_player, Appearance.Way.SCENE_PLAYER, by)
    except IntegrityError:
        # Another tab started a scene between our check and our insert.
        raise ValidationError(_("A scene is already running: end it first.")) from None
    return scene


def _scene_create(
    session: GameSession, by, fields: _SceneFields, *, planned: PlannedScene | None
) -> Scene:
    """The next scene of the session, with the rules profile's entry terms as they are now,
    and its "scene started" event."""
    profile = session.rules_profile
    scene_player = fields.scene_player
    number = Scene.objects.filter(session=session).count() + 1
    scene = Scene.objects.create(
        session=session,
        phase=session.phase,
        number=number,
        title=fields.title,
        scene_player=scene_player,
        place=fields.place,
        purpose=fields.purpose,
        planned=planned,
        # The same stored file: changing the plan later never deletes a file a
        # scene still shows (services/scene_pictures.py).
        background=planned.background.name if planned else "",
        entry_condition=profile.entry_condition,
        entry_check_value_name=profile.entry_check_value_name,
        entry_check_difficulty=profile.entry_check_difficulty,
        entry_cost_resource=profile.entry_cost_resource,
        entry_cost_amount=profile.entry_cost_amount,
        started_by=by,
    )
    timeline_append(
        session=session,
        kind="scene_started",
        actor=by,
        payload={
            "scene_id": scene.pk,
            "number": number,
            "phase": scene.phase,
            "title": fields.title,
            "place": fields.place,
            "purpose": fields.purpose,
            "master": scene_player is None,
            "scene_player": scene_player.name if scene_player else "",
            "scene_player_id": scene_player.pk if scene_player else None,
        },
    )
    return scene


def scene_request_create(
    *,
    session: GameSession,
    by,
    scene_player: Character | None = None,
    place: str = "",
    purpose: str = "",
) -> SceneRequest:
    """A player asks the GM for a scene: who leads it, where, what happens (at least one).
    The GM decides whether and how it is played."""
    membership = require_member(user=by, table_id=session.table_id)
    if not is_player(membership):
        raise PermissionDenied(_("The GM starts scenes; players ask for them."))
    if session.phase not in MAIN_PLAY_PHASES:
        raise ValidationError(_("Scenes are played in main play: start main play first."))
    if not session.rules_profile.scenes_enabled:
        raise ValidationError(_("This rules profile plays main play as one continuous scene."))
    place, purpose = _clean_text("place", place), _clean_text("purpose", purpose)
    if scene_player is not None and (
        scene_player.kind != Character.Kind.PC
        or not Participation.objects.filter(session=session, character=scene_player).exists()
    ):
        raise ValidationError({"scene_player": _("The scene player is a PC taking part.")})
    if scene_player is None and not place and not purpose:
        raise ValidationError(_("Say who leads the scene, where it is, or what happens in it."))
    with transaction.atomic():
        request = SceneRequest.objects.create(
            session=session,
            requested_by=by,
            scene_player=scene_player,
            place=place,
            purpose=purpose,
        )
        timeline_append(session=session, kind="scene_requested", actor=by, payload=_wish(request))
    return request


def _wish(request: SceneRequest) -> dict:
    character = request.scene_player
    return {
        "request_id": request.pk,
        "requested_by": request.requested_by.get_username(),
        "scene_player": character.name if character else "",
        "scene_player_id": character.pk if character else None,
        "place": request.place,
        "purpose": request.purpose,
    }


def scene_request_get(*, session: GameSession, request_id: int, lock: bool = False):
    """Return the session's scene request, or refuse: one of another session is not there."""
    requests = SceneRequest.objects.select_related("requested_by", "scene_player")
    if lock:
        requests = requests.select_for_update(of=("self",))
    try:
        return requests.get(pk=request_id, session=session)
    except SceneRequest.DoesNotExist:
        raise ValidationError(_("That request does not exist.")) from None


def _scene_request_open(session: GameSession, request_id: int) -> SceneRequest:
    request = scene_request_get(session=session, request_id=request_id, lock=True)
    if not request.is_open:
        raise ValidationError(
            _("That request is no longer open (%(status)s).")
            % {"status": request.get_status_display().lower()}
        )
    return request


def _scene_request_close(request: SceneRequest, status: str, by, scene: Scene | None) -> None:
    request.status = status
    request.decided_by = by
    request.scene = scene
    if status != SceneRequest.Status.KEPT:
        request.decided_at = timezone.now()
    request.save(update_fields=["status", "decided_by", "decided_at", "scene"])
    timeline_append(
        session=request.session,
        kind="scene_request_decided",
        actor=by,
        payload={
            **_wish(request),
            "status": status,
            "scene_number": scene.number if scene else None,
        },
    )


def scene_request_decide(*, session: GameSession, by, request_id: int, keep: bool) -> SceneRequest:
    """The GM declines a player's scene request, or keeps it for later (to start or
    decline then); starting a scene from it is `scene_start(scene_request=...)`."""
    require_gm(user=by, table_id=session.table_id)
    with transaction.atomic():
        request = _scene_request_open(session, request_id)
        if keep and request.status == SceneRequest.Status.KEPT:
            raise ValidationError(_("That request is kept for later already."))
        status = SceneRequest.Status.KEPT if keep else SceneRequest.Status.DECLINED
        _scene_request_close(request, status, by, None)
    return request


def scene_end(*, session: GameSession, by, backstage_notes: str = "", rng=None) -> Scene:
    """End the running scene: everyone leaves the stage, open requests lapse, the GM's
    backstage notes are kept GM-only, and the after-scene rule (if any) is applied
    (rolled with `rng` when given, for a reproducible amount)."""
    require_gm(user=by, table_id=session.table_id)
    with transaction.atomic():
        scene = _running(session, lock=True)
        now = timezone.now()
        _lapse(StageRequest.objects.filter(scene=scene, status__in=StageRequest.OPEN_STATUSES))
        appeared = set(
            Appearance.objects.filter(scene=scene).values_list("character_id", flat=True)
        )
        Appearance.objects.filter(scene=scene, exited_at__isnull=True).update(exited_at=now)
        scene.status = Scene.Status.ENDED
        scene.ended_at = now
        scene.backstage_notes = (backstage_notes or "").strip()
        scene.save(update_fields=["status", "ended_at", "backstage_notes"])
        timeline_append(
            session=session,
            kind="scene_ended",
            actor=by,
            payload={"scene_id": scene.pk, "number": scene.number, "title": scene.title},
        )
        if scene.backstage_notes:
            timeline_append(
                session=session,
                kind="backstage_note",
                actor=by,
                payload={
                    "scene_id": scene.pk,
                    "number": scene.number,
                    "text": scene.backstage_notes,
                },
                visibility=TimelineEvent.Visibility.GM,
            )
        _after_scene(session, scene, appeared, by, rng)
    return scene


def _hidden_numbers(character: Character, values: dict) -> dict:
    """Mark numbers moved on a hidden resource with the one player (besides the GM) who may
    read them; the timeline renders them for nobody else."""
    if not values.get("hidden"):
        return {}
    return {"hidden": True, "owner_id": character.owner_id}


def _after_scene(session: GameSession, scene: Scene, appeared: set[int], by, rng=None) -> None:
    """Apply the profile's processing for PCs who did not appear (e.g. recover HP)."""
    profile = session.rules_profile
    resource, amount_text = profile.after_scene_resource, profile.after_scene_amount
    if not resource or not amount_text or scene.continuous:
        return
    try:
        amount = srs_commands.amount_parse(amount_text)
    except srs_commands.CommandError:
        return
    rows = []
    draw = None
    for character in session.characters.select_for_update().order_by("name"):
        if character.pk in appeared:
            continue
        values = (character.resources or {}).get(resource)
        if not values:
            continue
        if rng is None and amount.command is not None:
            # Taken at the first row that rolls, so a scene nobody gains from uses no key.
            draw = dice_draw(session=session)
            rng = draw.source
        gained, faces = srs_commands.amount_roll(amount, rng)
        before = int(values.get("current", 0))
        maximum = int(values.get("max", before))
        after = min(maximum, before + gained) if maximum >= before else before
        resources = dict(character.resources)
        resources[resource] = {**values, "current": after}
        character.resources = resources
        character.save(update_fields=["resources"])
        rows.append(
            {
                **character_label(character),
                "resource": resource,
                "amount": amount.text,
                "faces": list(faces),
                "rolled": gained,
                "before": before,
                "after": after,
                **_hidden_numbers(character, values),
            }
        )
    if rows:
        payload = {"scene_number": scene.number, "rows": rows}
        if draw is not None:
            faces = [face for row in rows for face in row["faces"]]
            payload["proof"] = draw_proof(session, draw, faces)
        timeline_append(session=session, kind="after_scene", actor=by, payload=payload)


def stage_bring_in(*, session: GameSession, by, character: Character) -> None:
    """The GM brings a character on stage, at any time."""
    require_gm(user=by, table_id=session.table_id)
    _require_in_play(session, character)
    with transaction.atomic():
        scene = _running(session, lock=True)
        if character.pk in on_stage_ids(scene=scene):
            raise ValidationError(_("%(name)s is already on stage.") % {"name": character.name})
        _lapse_requests(
            scene, character, kinds=[StageRequest.Kind.ENTRY, StageRequest.Kind.COMPANION]
        )
        appear(scene, character, Appearance.Way.GM, by)


def stage_take_out(*, session: GameSession, by, character: Character) -> None:
    """The GM takes a character off stage, at any time (mid-scene included)."""
    require_gm(user=by, table_id=session.table_id)
    with transaction.atomic():
        scene = _running(session, lock=True)
        _lapse_requests(scene, character, kinds=[StageRequest.Kind.EXIT])
        _exit(scene, character, by, asked=False)


def _lapse_requests(scene: Scene, character: Character, *, kinds) -> None:
    _lapse(
        StageRequest.objects.filter(
            scene=scene,
            character=character,
            kind__in=kinds,
            status__in=StageRequest.OPEN_STATUSES,
        )
    )


def _lapse(requests) -> None:
    """Withdraw open requests, with the entry checks still waiting for their roll: a roll
    could no longer change anything, and the player should not be asked for it."""
    CheckRequest.objects.filter(
        stage_request__in=requests, status=CheckRequest.Status.PENDING
    ).update(status=CheckRequest.Status.CANCELLED)
    requests.update(status=StageRequest.Status.WITHDRAWN, decided_at=timezone.now())


def _require_in_play(session: GameSession, character: Character) -> None:
    if character.table_id != session.table_id:
        raise ValidationError(_("That character belongs to another table."))
    if (
        character.kind == Character.Kind.PC
        and not Participation.objects.filter(session=session, character=character).exists()
    ):
        raise ValidationError(
            _("%(name)s is not taking part in this session.") % {"name": character.name}
        )


def _new_request(scene: Scene, character: Character, kind: str, status: str, by) -> StageRequest:
    try:
        with transaction.atomic():
            request = StageRequest.objects.create(
                scene=scene, character=character, kind=kind, status=status, requested_by=by
            )
    except IntegrityError:
        raise ValidationError(
            _("%(name)s already has a request waiting.") % {"name": character.name}
        ) from None
    request_event(request, "stage_requested", by)
    return request


def _require_scenes_with_entries(scene: Scene) -> None:
    if scene.continuous:
        raise ValidationError(_("Main play is one continuous scene: nobody enters or exits."))


def companion_propose(*, session: GameSession, by, character: Character) -> StageRequest:
    """The scene player's player proposes a companion; a PC's player must agree first."""
    require_member(user=by, table_id=session.table_id)
    with transaction.atomic():
        scene = _running(session, lock=True)
        _require_scenes_with_entries(scene)
        if scene.scene_player is None:
            raise ValidationError(_("A master scene has no scene player to travel with."))
        if scene.scene_player.owner_id != by.pk:
            raise PermissionDenied(_("Only the scene player proposes companions."))
        _require_in_play(session, character)
        if character.pk in on_stage_ids(scene=scene):
            raise ValidationError(_("%(name)s is already on stage.") % {"name": character.name})
        status = (
            StageRequest.Status.PENDING
            if character.kind == Character.Kind.NPC
            else StageRequest.Status.ASKED
        )
        return _new_request(scene, character, StageRequest.Kind.COMPANION, status, by)


def _locked_request(request_id: int, session: GameSession) -> StageRequest:
    try:
        # Lock the request row alone: its scene is locked (first) only by those who change
        # the stage, in the order scene_end takes them.
        return (
            StageRequest.objects.select_for_update(of=("self",))
            .select_related("scene__session__rules_profile", "character__owner")
            .get(pk=request_id, scene__session=session)
        )
    except StageRequest.DoesNotExist:
        raise ValidationError(_("That request does not exist.")) from None


def _require_open(request: StageRequest, *statuses: str) -> None:
    if request.status not in statuses:
        raise ValidationError(
            _("That request is no longer open (%(status)s).")
            % {"status": request.get_status_display().lower()}
        )


def companion_answer(*, session: GameSession, by, request_id: int, accept: bool) -> StageRequest:
    """The proposed companion's player agrees (then the GM decides) or declines."""
    with transaction.atomic():
        request = _locked_request(request_id, session)
        if request.kind != StageRequest.Kind.COMPANION or request.character.owner_id != by.pk:
            raise PermissionDenied(_("Only the proposed character's player answers."))
        _require_open(request, StageRequest.Status.ASKED)
        request.status = StageRequest.Status.PENDING if accept else StageRequest.Status.DECLINED
        if not accept:
            request.decided_at = timezone.now()
        request.save(update_fields=["status", "decided_at"])
        request_event(request, "stage_request_answered", by)
    return request


def entry_request(*, session: GameSession, by, character: Character) -> StageRequest:
    """A player asks for their off-stage PC to enter the scene."""
    require_member(user=by, table_id=session.table_id)
    if character.owner_id != by.pk:
        raise PermissionDenied(_("You can only ask for your own characters."))
    with transaction.atomic():
        scene = _running(session, lock=True)
        _require_scenes_with_entries(scene)
        if scene.is_master:
            raise ValidationError(_("In a master scene the GM alone decides who appears."))
        _require_in_play(session, character)
        if character.pk in on_stage_ids(scene=scene):
            raise ValidationError(_("%(name)s is already on stage.") % {"name": character.name})
        return _new_request(
            scene, character, StageRequest.Kind.ENTRY, StageRequest.Status.PENDING, by
        )


def exit_request(*, session: GameSession, by, character: Character) -> StageRequest:
    """A player asks for their on-stage PC to leave the scene."""
    require_member(user=by, table_id=session.table_id)
    if character.owner_id != by.pk:
        raise PermissionDenied(_("You can only ask for your own characters."))
    with transaction.atomic():
        scene = _running(session, lock=True)
        _require_scenes_with_entries(scene)
        if character.pk not in on_stage_ids(scene=scene):
            raise ValidationError(_("%(name)s is not on stage.") % {"name": character.name})
        return _new_request(
            scene, character, StageRequest.Kind.EXIT, StageRequest.Status.PENDING, by
        )


def stage_request_withdraw(*, session: GameSession, by, request_id: int) -> StageRequest:
    """Whoever made a request (or the character's player) takes it back while it is open."""
    with transaction.atomic():
        request = _locked_request(request_id, session)
        if by.pk not in (request.requested_by_id, request.character.owner_id):
            raise PermissionDenied(_("Only whoever asked can withdraw this request."))
        _require_open(request, StageRequest.Status.ASKED, StageRequest.Status.PENDING)
        request.status = StageRequest.Status.WITHDRAWN
        request.decided_at = timezone.now()
        request.save(update_fields=["status", "decided_at"])
        request_event(request, "stage_request_withdrawn", by)
    return request


def stage_request_decide(
    *, session: GameSession, by, request_id: int, allow: bool, rng=None
) -> StageRequest:
    """The GM allows or refuses a pending request. Allowing an entry applies the scene's
    entry condition: a check to roll first, or a cost paid from a resource."""
    require_gm(user=by, table_id=session.table_id)
    with transaction.atomic():
        # The scene first, then the request, as scene_end and stage_bring_in take them:
        # an "allow" and the end of the scene then queue up instead of deadlocking.
        Scene.objects.select_for_update().filter(
            pk__in=StageRequest.objects.filter(pk=request_id).values("scene_id")
        ).first()
        request = _locked_request(request_id, session)
        scene = request.scene
        _require_open(request, StageRequest.Status.PENDING)
        if scene.status != Scene.Status.RUNNING:
            raise ValidationError(_("That scene has ended."))
        request.decided_by = by
        request.decided_at = timezone.now()
        if not allow:
            request.status = StageRequest.Status.REFUSED
            request.save(update_fields=["status", "decided_by", "decided_at"])
            request_event(request, "stage_request_decided", by)
            return request
        if request.kind == StageRequest.Kind.EXIT:
            request.status = StageRequest.Status.ALLOWED
            request.save(update_fields=["status", "decided_by", "decided_at"])
            request_event(request, "stage_request_decided", by)
            _exit(scene, request.character, by, asked=True)
            return request
        if request.character.pk in on_stage_ids(scene=scene):
            raise ValidationError(
                _("%(name)s is already on stage.") % {"name": request.character.name}
            )
        if request.kind == StageRequest.Kind.ENTRY:
            if scene.entry_condition == EntryCondition.CHECK:
                return _entry_check_ask(request, by)
            if scene.entry_condition == EntryCondition.COST:
                paid = _entry_cost_pay(request, by, rng)
                if not paid:
                    return request
        request.status = StageRequest.Status.ALLOWED
        request.save(update_fields=["status", "decided_by", "decided_at"])
        request_event(request, "stage_request_decided", by)
        way = (
            Appearance.Way.COMPANION
            if request.kind == StageRequest.Kind.COMPANION
            else Appearance.Way.ENTRY
        )
        appear(scene, request.character, way, by)
    return request


def _entry_check_ask(request: StageRequest, by) -> StageRequest:
    """Allowed on condition: the player rolls the entry check through the checks widget."""
    scene = request.scene
    check = check_request_build(
        session=scene.session,
        by=by,
        character=request.character,
        label=_("Entry into scene %(number)d") % {"number": scene.number},
        value_name=scene.entry_check_value_name,
        value=None,
        difficulty=scene.entry_check_difficulty,
        gm_modifier=0,
        secret=False,
    )
    check.for_entry = True
    check.save(update_fields=["for_entry"])
    request.status = StageRequest.Status.CHECKING
    request.check_request = check
    request.save(update_fields=["status", "decided_by", "decided_at", "check_request"])
    request_event(request, "stage_request_decided", by)
    check_request_announce(check, by)
    return request


def _entry_cost_pay(request: StageRequest, by, rng) -> bool:
    """Pay the entry cost from the character's resource. Too little for a fixed cost: refused,
    nothing changes. A rolled cost the resource cannot cover: the entry fails, nothing paid."""
    scene = request.scene
    resource = scene.entry_cost_resource
    try:
        amount = srs_commands.amount_parse(scene.entry_cost_amount)
    except srs_commands.CommandError:
        raise ValidationError(_("This scene's entry cost is not a valid amount.")) from None
    character = Character.objects.select_for_update().get(pk=request.character_id)
    values = (character.resources or {}).get(resource)
    if values is None:
        raise ValidationError(
            _("%(name)s has no %(resource)s to pay the entry cost.")
            % {"name": character.name, "resource": resource}
        )
    before = int(values.get("current", 0))
    if before < amount.minimum:
        raise ValidationError(
            _("%(name)s has %(current)d %(resource)s, too little to pay %(amount)s.")
            % {
                "name": character.name,
                "current": before,
                "resource": resource,
                "amount": amount.text,
            }
        )
    draw = None
    if rng is None and amount.command is not None:
        draw = dice_draw(session=scene.session)
        rng = draw.source
    cost, faces = srs_commands.amount_roll(amount, rng)
    payload = {
        "condition": "cost",
        "resource": resource,
        "amount": amount.text,
        "faces": list(faces),
        "rolled": cost,
        "before": before,
        **_hidden_numbers(character, values),
    }
    if draw is not None:
        payload["proof"] = draw_proof(scene.session, draw, faces)
    if cost > before:
        request.status = StageRequest.Status.FAILED
        request.save(update_fields=["status", "decided_by", "decided_at"])
        request_event(request, "entry_condition", by, met=False, after=before, **payload)
        return False
    resources = dict(character.resources)
    resources[resource] = {**values, "current": before - cost}
    character.resources = resources
    character.save(update_fields=["resources"])
    request_event(request, "entry_condition", by, met=True, after=before - cost, **payload)
    return True


def prepared_check_fire(
    *, session: GameSession, by, prepared: PreparedCheck, character: Character
) -> CheckRequest:
    """Ask for a check the GM wrote in advance, in one click."""
    if prepared.planned_scene.scenario_id != session.scenario_id:
        raise ValidationError(_("That prepared check belongs to another scenario."))
    return check_request(
        session=session,
        by=by,
        character=character,
        label=prepared.label,
        value_name=prepared.value_name,
        difficulty=prepared.difficulty,
        secret=prepared.secret,
    )
