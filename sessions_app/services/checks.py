"""Checks, contests and rolls: the server rolls, stores each roll once, and tells the room.

A secret roll or a secret difficulty is written as two events: the full one for the GM and
a redacted twin for players, so every later reader (live room, review, export) can filter
by visibility alone and never has to hide parts of an event.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, connection, transaction
from django.db.models import OuterRef
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from ..models import (
    Character,
    CheckRequest,
    Contest,
    GameSession,
    Membership,
    Roll,
    Scene,
    StageRequest,
    TimelineEvent,
)
from ..rules import srs_checks, srs_commands
from ..selectors.access import is_gm, is_player, member_exists
from ..selectors.checks import answers_without_dice, contest_chance_for
from ..selectors.scenes import Voice
from ..srs_messages import GM_MODIFIER, command_error_message
from .access import require_gm, require_member
from .cut_ins import cut_in_for_roll
from .dice import dice_draw, roll_proof
from .stage import entry_check_resolved, stage_require
from .timeline import timeline_append

# A check's two dice, drawn from the roll's verifiable source; tests pass faces in instead.
roll_dice = srs_checks.roll_2d6

DECLARED_MODIFIER_LIMIT = 99
DECLARED_MODIFIER_ROWS = 8
LABEL_MAX_LENGTH = 160


@dataclass(frozen=True)
class DeclaredModifier:
    label: str
    amount: int


# Said to an outsider who tries to roll or answer a check.
NOT_A_ROLLER = gettext_noop("Only members of this table can roll in its sessions.")


def _clean_label(label: str) -> str:
    label = (label or "").strip()
    if not label:
        raise ValidationError({"label": _("Say what the check is for.")})
    if len(label) > LABEL_MAX_LENGTH:
        raise ValidationError(
            {
                "label": _("A label can be at most %(limit)d characters.")
                % {"limit": LABEL_MAX_LENGTH}
            }
        )
    return label


def _judgement_value(character: Character, value_name: str, value: int | None) -> tuple[str, int]:
    """Take the value from the sheet by name, or the number the GM typed."""
    value_name = (value_name or "").strip()
    if value is not None:
        if isinstance(value, bool) or not isinstance(value, int) or not -99 <= value <= 99:
            raise ValidationError(
                {"value": _("A judgement value is a whole number from -99 to 99.")}
            )
        return value_name, value
    if not value_name:
        raise ValidationError({"value": _("Choose a judgement value or type a number.")})
    if value_name not in character.judgement_values:
        raise ValidationError(
            {
                "value_name": _("%(character)s's sheet has no %(name)s; type a number instead.")
                % {"character": character.name, "name": value_name}
            }
        )
    return value_name, int(character.judgement_values[value_name])


def _check_gm_modifier(session: GameSession, modifier: int) -> int:
    limit = session.rules_profile.modifier_limit
    if isinstance(modifier, bool) or not isinstance(modifier, int):
        raise ValidationError({"gm_modifier": _("A modifier is a whole number.")})
    if abs(modifier) > limit:
        raise ValidationError(
            {
                "gm_modifier": _(
                    "A GM modifier of %(modifier)+d is beyond this profile's limit of ±%(limit)d: "
                    "larger modifiers outweigh a die's average of 3.5."
                )
                % {"modifier": modifier, "limit": limit}
            }
        )
    return modifier


def _critical_fumble(session: GameSession, critical: int | None, fumble: int | None):
    profile = session.rules_profile
    critical = profile.critical if critical is None else critical
    fumble = profile.fumble if fumble is None else fumble
    for name, number in [("critical", critical), ("fumble", fumble)]:
        if isinstance(number, bool) or not isinstance(number, int) or not 2 <= number <= 12:
            raise ValidationError({name: _("Critical and fumble values are from 2 to 12.")})
    return critical, fumble


def _check_character_in_session(
    session: GameSession, character: Character, voice: Voice | None = None
) -> None:
    if character.table_id != session.table_id:
        raise ValidationError({"character": _("That character belongs to another table.")})
    if voice is not None and voice.character.pk != character.pk:
        voice = None
    if character.kind == Character.Kind.PC and not (
        voice.taking_part
        if voice is not None
        else session.characters.filter(pk=character.pk).exists()
    ):
        raise ValidationError(
            {
                "character": _("%(name)s is not taking part in this session.")
                % {"name": character.name}
            }
        )
    stage_require(session, character, voice=voice)


def clean_declared_modifiers(rows: Iterable) -> list[DeclaredModifier]:
    """Validate a player's own modifiers (skill, equipment…): rows of label and amount."""
    cleaned = []
    for row in rows:
        label, amount = (row.label, row.amount) if isinstance(row, DeclaredModifier) else row
        label = (label or "").strip()
        if amount in (None, "", 0) and not label:
            continue
        try:
            amount = int(amount)
        except (TypeError, ValueError):
            raise ValidationError(_("Each modifier needs a whole number.")) from None
        if not -DECLARED_MODIFIER_LIMIT <= amount <= DECLARED_MODIFIER_LIMIT:
            raise ValidationError(
                _("A modifier must be between -%(limit)d and %(limit)d.")
                % {"limit": DECLARED_MODIFIER_LIMIT}
            )
        cleaned.append(DeclaredModifier(label=label[:60] or _("Modifier"), amount=amount))
    if len(cleaned) > DECLARED_MODIFIER_ROWS:
        raise ValidationError(
            _("At most %(rows)d modifiers per roll.") % {"rows": DECLARED_MODIFIER_ROWS}
        )
    return cleaned


def _request_payload(request: CheckRequest, *, for_players: bool) -> dict:
    payload = {
        "request_id": request.pk,
        "character": request.character.name,
        "character_id": request.character_id,
        "owner_id": request.character.owner_id,
        "label": request.label,
        "value_name": request.value_name,
        "value": request.value,
        "gm_modifier": request.gm_modifier,
        "difficulty": request.difficulty,
        "difficulty_secret": request.difficulty_secret,
        "critical": request.critical,
        "fumble": request.fumble,
        "secret": request.secret,
        "contest_id": request.contest_id,
        "side": request.side,
    }
    if for_players and request.difficulty_secret:
        payload["difficulty"] = None
    return payload


def check_request_announce(request: CheckRequest, by) -> None:
    """Tell the room a check was asked for: everyone, or only its roller when secret."""
    if request.secret:
        timeline_append(
            session=request.session,
            kind="check_requested",
            actor=by,
            payload=_request_payload(request, for_players=True),
            visibility=TimelineEvent.Visibility.USERS,
            audience=[request.character.owner],
        )
    else:
        timeline_append(
            session=request.session,
            kind="check_requested",
            actor=by,
            payload=_request_payload(request, for_players=True),
        )


def check_request_build(
    *,
    session: GameSession,
    by,
    character: Character,
    label: str,
    value_name: str,
    value: int | None,
    difficulty: int | None,
    gm_modifier: int,
    secret: bool,
    difficulty_secret: bool = False,
    critical: int | None = None,
    fumble: int | None = None,
) -> CheckRequest:
    """Validate and store one check to be rolled (the caller holds the transaction)."""
    value_name, value = _judgement_value(character, value_name, value)
    critical, fumble = _critical_fumble(session, critical, fumble)
    return CheckRequest.objects.create(
        session=session,
        character=character,
        label=_clean_label(label),
        value_name=value_name,
        value=value,
        difficulty=difficulty,
        difficulty_secret=difficulty_secret,
        gm_modifier=_check_gm_modifier(session, gm_modifier),
        critical=critical,
        fumble=fumble,
        secret=secret,
        requested_by=by,
    )


def check_request(
    *,
    session: GameSession,
    by,
    character: Character,
    label: str,
    value_name: str = "",
    value: int | None = None,
    difficulty: int | None = None,
    difficulty_secret: bool = False,
    gm_modifier: int = 0,
    secret: bool = False,
    critical: int | None = None,
    fumble: int | None = None,
) -> CheckRequest:
    """Ask the character's player for a check (GM only); refused with the reason if invalid."""
    require_gm(user=by, table_id=session.table_id)
    _check_character_in_session(session, character)
    if difficulty is None and difficulty_secret:
        raise ValidationError({"difficulty": _("A secret difficulty needs a difficulty.")})
    with transaction.atomic():
        request = check_request_build(
            session=session,
            by=by,
            character=character,
            label=label,
            value_name=value_name,
            value=value,
            difficulty=difficulty,
            difficulty_secret=difficulty_secret,
            gm_modifier=gm_modifier,
            secret=secret,
            critical=critical,
            fumble=fumble,
        )
        check_request_announce(request, by)
    return request


def can_roll(user, character: Character) -> bool:
    """Only a character's owner rolls for it (the GM owns the NPCs)."""
    return user.is_authenticated and character.owner_id == user.pk


def _roll_payload(roll: Roll, request: CheckRequest | None) -> dict:
    payload = {
        "roll_id": roll.pk,
        "source": roll.source,
        "label": roll.label,
        "character": roll.character.name if roll.character else "",
        "character_id": roll.character_id,
        "roller": roll.roller.get_username(),
        "faces": roll.faces,
        "modifiers": roll.modifiers,
        "secret": roll.secret,
        "difficulty_secret": roll.difficulty_secret,
        **roll.result,
    }
    if roll.source == Roll.Source.COMMAND and roll.roller_id == roll.session.table.gm_id:
        payload["by_gm"] = True
    if request is not None:
        payload.update(
            {
                "request_id": request.pk,
                "value_name": request.value_name,
                "contest_id": request.contest_id,
                "side": request.side,
            }
        )
    if roll.command:
        payload["command"] = roll.command
    proof = roll_proof(roll)
    if proof is not None:
        payload["proof"] = proof
    return payload


def _redacted(payload: dict) -> dict:
    """What players may know of a roll whose difficulty is secret: the achievement only."""
    redacted = {**payload, "difficulty": None, "success": None}
    if redacted.get("outcome") in (srs_checks.OUTCOME_SUCCESS, srs_checks.OUTCOME_FAILURE):
        redacted["outcome"] = srs_checks.OUTCOME_ACHIEVED
    return redacted


def _announce_roll(roll: Roll, request: CheckRequest | None, *, kind: str, audience=None) -> None:
    session = roll.session
    payload = _roll_payload(roll, request)
    if roll.secret:
        timeline_append(
            session=session,
            kind=kind,
            actor=roll.roller,
            payload=payload,
            visibility=TimelineEvent.Visibility.GM
            if audience is None
            else TimelineEvent.Visibility.USERS,
            audience=audience or (),
        )
        twin = {
            "roll_id": roll.pk,
            "character": payload["character"],
            "roller": payload["roller"],
            "source": roll.source,
        }
        place = roll.key_place()
        if place is not None:
            twin["proof"] = place
        twin_append(session, roll.roller, "secret_roll", twin, exclude=audience)
    elif roll.difficulty_secret:
        timeline_append(
            session=session,
            kind=kind,
            actor=roll.roller,
            payload=payload,
            visibility=TimelineEvent.Visibility.GM,
        )
        twin_append(session, roll.roller, kind, _redacted(payload), exclude=None)
    else:
        cut_in = cut_in_for_roll(roll)
        timeline_append(session=session, kind=kind, actor=roll.roller, payload=payload)
        if cut_in is not None:
            timeline_append(session=session, kind="cut_in", actor=roll.roller, payload=cut_in)


def twin_append(session, actor, kind, payload, *, exclude) -> None:
    """Append what the players may know of something they may not see: to every player
    (`exclude` None), or to the players other than the users in `exclude`."""
    if exclude is None:
        timeline_append(
            session=session,
            kind=kind,
            actor=actor,
            payload=payload,
            visibility=TimelineEvent.Visibility.PLAYERS,
        )
        return
    # Seen by some (a roll-box secret by its roller, a hidden resource by its owner): the
    # twin goes to the other players only.
    excluded = {user.pk for user in exclude}
    others = [
        membership.user
        for membership in session.table.memberships.select_related("user")
        if is_player(membership) and membership.user_id not in excluded
    ]
    if others:
        timeline_append(
            session=session,
            kind=kind,
            actor=actor,
            payload=payload,
            visibility=TimelineEvent.Visibility.USERS,
            audience=others,
        )


def check_roll(
    *,
    request_id: int,
    by,
    session_id: int | None = None,
    declared_modifiers: Iterable = (),
    dice: Sequence[int] | None = None,
    dice_value: str | None = None,
    dice_reservation=None,
) -> Roll:
    """Roll a requested check once; a repeated submit by the roller gets the same roll back.

    `dice_value` is the roller's random value from their browser (hex); without one the
    server makes one, and the roll's proof says so.
    """
    declared = clean_declared_modifiers(declared_modifiers)
    try:
        with transaction.atomic():
            if connection.features.has_select_for_update:
                # SQLite runs one writer at a time and cannot deadlock; elsewhere an entry
                # check must queue behind the end of its scene.
                _entry_scene_lock(request_id)
            return _check_roll_locked(
                request_id,
                by,
                declared,
                dice,
                session_id=session_id,
                dice_value=dice_value,
                dice_reservation=dice_reservation,
            )
    except IntegrityError:
        # Two submits raced past the status check; the database kept exactly one roll.
        existing = Roll.objects.filter(request_id=request_id).first()
        if existing is not None and existing.roller_id == by.pk:
            return existing
        raise


def _locked_request(request_id, by, session_id) -> CheckRequest | None:
    """The check, locked with its character and session, with `roller_is_member` saying
    whether `by` is a member of its table."""
    requests = (
        CheckRequest.objects.select_for_update()
        .select_related("character", "session")
        .annotate(roller_is_member=member_exists(user=by, table_id=OuterRef("session__table_id")))
        .filter(pk=request_id)
    )
    if session_id is not None:
        requests = requests.filter(session_id=session_id)
    return requests.first()


def _entry_scene_lock(request_id: int) -> None:
    """Lock the scene an entry check may put its character into, before the check itself:
    scene_end takes the scene first too, so a roll and the end of the scene queue up
    instead of deadlocking. Other checks have no such scene and lock nothing here."""
    Scene.objects.select_for_update().filter(
        pk__in=StageRequest.objects.filter(check_request_id=request_id).values("scene_id")
    ).first()


def _request_for_its_player(request_id, by, session_id, refusal: str) -> CheckRequest:
    """The check, locked, once `by` is a member who may act for its character; `refusal`
    (naming %(character)s) says why not otherwise."""
    request = _locked_request(request_id, by, session_id)
    if request is None:
        raise ValidationError(_("That check does not exist."))
    if not request.roller_is_member:
        raise PermissionDenied(_(NOT_A_ROLLER))
    if not can_roll(by, request.character):
        raise PermissionDenied(refusal % {"character": request.character.name})
    return request


def _check_roll_locked(
    request_id,
    by,
    declared,
    dice,
    source=Roll.Source.REQUEST,
    session_id=None,
    dice_value=None,
    dice_reservation=None,
) -> Roll:
    request = _request_for_its_player(
        request_id, by, session_id, _("Only %(character)s's player can roll this check.")
    )
    if request.status == CheckRequest.Status.ROLLED:
        return request.roll
    if request.status != CheckRequest.Status.PENDING:
        raise ValidationError(_("This check is no longer waiting for a roll."))
    if answers_without_dice(request):
        raise ValidationError(_("This side cannot roll: it answers with its modifiers."))
    draw = None
    if dice is not None:
        faces = tuple(dice)
    else:
        draw = dice_draw(
            session=request.session, value=dice_value, reservation=dice_reservation, by=by
        )
        faces = tuple(roll_dice(draw.source))
    modifiers = _gm_and_declared(request, declared)
    result = srs_checks.check(
        request.value,
        faces,
        modifier=sum(row["amount"] for row in modifiers),
        difficulty=request.difficulty,
        critical=request.critical,
        fumble=request.fumble,
    )
    roll = Roll.objects.create(
        session=request.session,
        request=request,
        character=request.character,
        roller=by,
        source=source,
        label=request.label,
        faces=list(faces),
        modifiers=modifiers,
        result=result.to_dict(),
        secret=request.secret,
        difficulty_secret=request.difficulty_secret,
        **(draw.roll_fields() if draw is not None else {}),
    )
    CheckRequest.objects.filter(pk=request.pk).update(status=CheckRequest.Status.ROLLED)
    request.status = CheckRequest.Status.ROLLED
    _announce_roll(roll, request, kind="check_rolled")
    if request.contest_id:
        _contest_after_roll(request, result, by)
    if request.for_entry:
        entry_check_resolved(request, result, by)
    return roll


def gm_roll(
    *,
    session: GameSession,
    by,
    character: Character,
    label: str,
    value_name: str = "",
    value: int | None = None,
    modifier: int = 0,
    difficulty: int | None = None,
    secret: bool = False,
    dice: Sequence[int] | None = None,
    dice_value: str | None = None,
    dice_reservation=None,
) -> Roll:
    """Roll at once for one of the GM's NPCs, in public or in secret."""
    require_gm(user=by, table_id=session.table_id)
    if character.table_id != session.table_id or character.kind != Character.Kind.NPC:
        raise ValidationError({"character": _("The GM rolls directly only for NPCs.")})
    with transaction.atomic():
        request = check_request_build(
            session=session,
            by=by,
            character=character,
            label=label,
            value_name=value_name,
            value=value,
            difficulty=difficulty,
            gm_modifier=modifier,
            secret=secret,
        )
        return _check_roll_locked(
            request.pk,
            by,
            [],
            dice,
            source=Roll.Source.GM,
            dice_value=dice_value,
            dice_reservation=dice_reservation,
        )


def command_roll(
    *,
    session: GameSession,
    by,
    text: str,
    faces: Sequence[int] | None = None,
    character: Character | None = None,
    dice_value: str | None = None,
    membership: Membership | None = None,
    voice: Voice | None = None,
    dice_reservation=None,
) -> Roll:
    """Roll a roll-box command (BCDice style); a leading S keeps it to the roller and GM.
    Rolled as a character its player controls, the card and the dice statistics name it.
    A caller that checked access already hands over `by`'s `membership` of the table, and
    the character as it read it (`voice`): neither is read again."""
    if membership is None:
        require_member(user=by, table_id=session.table_id, message=_(NOT_A_ROLLER))
    if character is not None:
        if not can_roll(by, character):
            raise PermissionDenied(
                _("Only %(character)s's player can roll as it.") % {"character": character.name}
            )
        _check_character_in_session(session, character, voice)
    profile = session.rules_profile
    drawn = []

    def take_dice():
        drawn.append(
            dice_draw(session=session, value=dice_value, reservation=dice_reservation, by=by)
        )
        return drawn[0].source

    with transaction.atomic():
        try:
            # A result too large to keep is refused with its transaction: the key it took
            # is taken back, unseen.
            rolled = srs_commands.command_rolled(
                text,
                take_dice=take_dice,
                faces=faces,
                critical=profile.critical,
                fumble=profile.fumble,
            )
        except srs_commands.CommandError as error:
            raise ValidationError({"text": command_error_message(error)}) from None
        roll = Roll.objects.create(
            session=session,
            roller=by,
            character=character,
            source=Roll.Source.COMMAND,
            label=rolled.label,
            command=rolled.command,
            faces=rolled.faces,
            result=rolled.result,
            secret=rolled.secret,
            **(drawn[0].roll_fields() if drawn else {}),
        )
        _announce_roll(roll, None, kind="command_rolled", audience=[by] if rolled.secret else None)
    return roll


def _already(session: GameSession, kind: str, roll: Roll) -> bool:
    return TimelineEvent.objects.filter(
        session=session, kind=kind, payload__roll_id=roll.pk
    ).exists()


def roll_reveal(*, roll: Roll, by) -> None:
    """Show a secret roll (or a secret difficulty) to everyone: a new event, the roll unchanged."""
    membership = require_member(user=by, table_id=roll.session.table_id, message=_(NOT_A_ROLLER))
    own_command = roll.source == Roll.Source.COMMAND and roll.roller_id == by.pk
    if not (is_gm(membership) or own_command):
        raise PermissionDenied(_("Only the GM can reveal this roll."))
    if not (roll.secret or roll.difficulty_secret):
        raise ValidationError(_("This roll is already public."))
    with transaction.atomic():
        GameSession.objects.select_for_update().filter(pk=roll.session_id).first()
        if _already(roll.session, "roll_revealed", roll):
            raise ValidationError(_("This roll was revealed already."))
        payload = _roll_payload(roll, roll.request)
        payload["revealed_by"] = by.get_username()
        timeline_append(session=roll.session, kind="roll_revealed", actor=by, payload=payload)


def roll_void(*, roll: Roll, by, reason: str) -> None:
    """Void a roll with a reason (GM only); the roll stays in the log, marked by a new event."""
    require_gm(user=by, table_id=roll.session.table_id)
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": _("Give a reason for voiding the roll.")})
    with transaction.atomic():
        GameSession.objects.select_for_update().filter(pk=roll.session_id).first()
        if _already(roll.session, "roll_voided", roll):
            raise ValidationError(_("This roll was voided already."))
        hidden = roll.secret and not _already(roll.session, "roll_revealed", roll)
        timeline_append(
            session=roll.session,
            kind="roll_voided",
            actor=by,
            payload={
                "roll_id": roll.pk,
                "label": "" if hidden else roll.label,
                "character": roll.character.name if roll.character else roll.roller.get_username(),
                "reason": reason[:300],
            },
        )


def check_cancel(*, request: CheckRequest, by) -> None:
    """Withdraw a check nobody has rolled yet (GM only)."""
    require_gm(user=by, table_id=request.session.table_id)
    with transaction.atomic():
        locked = CheckRequest.objects.select_for_update().get(pk=request.pk)
        if locked.status not in (CheckRequest.Status.PENDING, CheckRequest.Status.WAITING):
            raise ValidationError(_("This check cannot be cancelled any more."))
        if locked.contest_id:
            raise ValidationError(_("A contest's checks are rolled to the end."))
        CheckRequest.objects.filter(pk=request.pk).update(status=CheckRequest.Status.CANCELLED)
        payload = {
            "request_id": locked.pk,
            "label": locked.label,
            "character": locked.character.name,
        }
        if locked.secret:
            timeline_append(
                session=locked.session,
                kind="check_cancelled",
                actor=by,
                payload=payload,
                visibility=TimelineEvent.Visibility.USERS,
                audience=[locked.character.owner],
            )
        else:
            timeline_append(
                session=locked.session, kind="check_cancelled", actor=by, payload=payload
            )


# --------------------------------------------------------------------------- contests


@dataclass(frozen=True)
class ContestSide:
    character: Character
    value_name: str = ""
    value: int | None = None
    gm_modifier: int = 0
    # None: the contest's (or the table's) value, as for a single check.
    critical: int | None = None
    fumble: int | None = None


def contest_open(
    *,
    session: GameSession,
    by,
    label: str,
    action: ContestSide,
    reaction: ContestSide,
    reaction_can_roll: bool = True,
    critical: int | None = None,
    fumble: int | None = None,
) -> Contest:
    """Open an opposed check (GM only): the action side is asked to roll first."""
    require_gm(user=by, table_id=session.table_id)
    label = _clean_label(label)
    if action.character.pk == reaction.character.pk:
        raise ValidationError(_("A contest needs two different characters."))
    sides = []
    for side in (action, reaction):
        _check_character_in_session(session, side.character)
        value_name, value = _judgement_value(side.character, side.value_name, side.value)
        side_critical, side_fumble = _critical_fumble(
            session,
            critical if side.critical is None else side.critical,
            fumble if side.fumble is None else side.fumble,
        )
        sides.append(
            (
                side.character,
                value_name,
                value,
                _check_gm_modifier(session, side.gm_modifier),
                side_critical,
                side_fumble,
            )
        )
    with transaction.atomic():
        contest = Contest.objects.create(
            session=session, label=label, reaction_can_roll=reaction_can_roll, created_by=by
        )
        requests = []
        for (character, value_name, value, modifier, side_critical, side_fumble), name, status in [
            (sides[0], CheckRequest.Side.ACTION, CheckRequest.Status.PENDING),
            (sides[1], CheckRequest.Side.REACTION, CheckRequest.Status.WAITING),
        ]:
            requests.append(
                CheckRequest.objects.create(
                    session=session,
                    character=character,
                    label=label,
                    value_name=value_name,
                    value=value,
                    gm_modifier=modifier,
                    critical=side_critical,
                    fumble=side_fumble,
                    contest=contest,
                    side=name,
                    status=status,
                    requested_by=by,
                )
            )
        action_request, reaction_request = requests
        chance = contest_chance_for(action_request, reaction_request, reaction_can_roll)
        timeline_append(
            session=session,
            kind="contest_opened",
            actor=by,
            payload={
                "contest_id": contest.pk,
                "label": label,
                "action": _side_summary(action_request),
                "reaction": _side_summary(reaction_request),
                "reaction_can_roll": reaction_can_roll,
                "action_chance": f"{chance.numerator}/{chance.denominator}",
            },
        )
        check_request_announce(action_request, by)
    return contest


def _side_summary(request: CheckRequest) -> dict:
    return {
        "character": request.character.name,
        "character_id": request.character_id,
        "value_name": request.value_name,
        "value": request.value,
        "gm_modifier": request.gm_modifier,
        "critical": request.critical,
        "fumble": request.fumble,
    }


def _gm_and_declared(request: CheckRequest, declared: Iterable[DeclaredModifier]) -> list[dict]:
    modifiers = []
    if request.gm_modifier:
        # Stored in English, shown in each reader's language (srs_tags.modifier_label).
        modifiers.append({"label": GM_MODIFIER, "amount": request.gm_modifier})
    modifiers += [{"label": row.label, "amount": row.amount} for row in declared]
    return modifiers


def contest_answer(
    *,
    request_id: int,
    by,
    session_id: int | None = None,
    declared_modifiers: Iterable = (),
) -> Contest:
    """Answer for a reaction side that cannot roll, with its player's own modifiers.

    The seed: its achievement is the judgement value with the modifiers of skills and
    equipment (判定値に特技や装備などによる修正を行なったもの), so no dice are rolled and
    the contest is decided at once.
    """
    declared = clean_declared_modifiers(declared_modifiers)
    with transaction.atomic():
        request = _request_for_its_player(
            request_id, by, session_id, _("Only %(character)s's player can answer this check.")
        )
        if not answers_without_dice(request):
            raise ValidationError(_("This check is rolled, not answered."))
        if request.status != CheckRequest.Status.PENDING:
            raise ValidationError(_("This check is no longer waiting for an answer."))
        contest = Contest.objects.select_for_update().get(pk=request.contest_id)
        action_request = contest.requests.exclude(pk=request.pk).select_related("roll").get()
        modifiers = _gm_and_declared(request, declared)
        reaction = srs_checks.check(
            request.value,
            None,
            modifier=sum(row["amount"] for row in modifiers),
            critical=request.critical,
            fumble=request.fumble,
        )
        CheckRequest.objects.filter(pk=request.pk).update(status=CheckRequest.Status.SKIPPED)
        action = srs_checks.CheckResult.from_dict(action_request.roll.result)
        _contest_decide(contest, action, reaction, by, reaction_modifiers=modifiers)
    contest.refresh_from_db()
    return contest


def _contest_after_roll(request: CheckRequest, result: srs_checks.CheckResult, by) -> None:
    contest = Contest.objects.select_for_update().get(pk=request.contest_id)
    other = contest.requests.select_related("character").exclude(pk=request.pk).get()
    if request.side == CheckRequest.Side.ACTION:
        if result.is_fumble:
            # The seed: after an action fumble the reaction side need not roll.
            CheckRequest.objects.filter(pk=other.pk).update(status=CheckRequest.Status.SKIPPED)
            _contest_decide(contest, result, None, by)
        else:
            # A reaction side that cannot roll still answers, with its player's modifiers.
            CheckRequest.objects.filter(pk=other.pk).update(status=CheckRequest.Status.PENDING)
            Contest.objects.filter(pk=contest.pk).update(status=Contest.Status.REACTION)
            other.status = CheckRequest.Status.PENDING
            check_request_announce(other, contest.created_by)
    else:
        action = srs_checks.CheckResult.from_dict(other.roll.result)
        _contest_decide(contest, action, result, by)


def _contest_decide(contest: Contest, action, reaction, by, *, reaction_modifiers=None) -> None:
    decided = srs_checks.contest(action, reaction)
    Contest.objects.filter(pk=contest.pk).update(
        status=Contest.Status.DONE, winner=decided.winner, reason=decided.reason
    )
    requests = {r.side: r for r in contest.requests.select_related("character")}
    timeline_append(
        session=contest.session,
        kind="contest_decided",
        actor=by,
        payload={
            "contest_id": contest.pk,
            "label": contest.label,
            "winner": decided.winner,
            "reason": decided.reason,
            "winner_character": requests[decided.winner].character.name,
            "action_character": requests["action"].character.name,
            "reaction_character": requests["reaction"].character.name,
            "action": action.to_dict(),
            "reaction": None if reaction is None else reaction.to_dict(),
            # Only a side without dice: a rolled side's modifiers are on its roll's card.
            **({} if reaction_modifiers is None else {"reaction_modifiers": reaction_modifiers}),
        },
    )
