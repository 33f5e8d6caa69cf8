"""Experience and growth: after-play awards, the ledger, growth asked of the GM, closing.

Experience belongs to the person, not to a table or a character (the rules say so): one
balance per game, spent on any of the person's PCs of that game. The ledger is
append-only; every entry is written while the person's account row for the game is
locked, so two spendings at once are serialised and cannot both use the same points.
Growth is a request the GM of the character's table confirms; only then is anything spent
or changed on the sheet (unless the table's profile makes growth self-service).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from .. import rooms
from ..models import (
    Character,
    ExperienceAccount,
    ExperienceEntry,
    GameSession,
    GrowthRequest,
    Membership,
    Phase,
    SessionSignoff,
    Table,
    TimelineEvent,
)
from ..selectors.access import is_member
from ..selectors.experience import (
    award_recipients,
    balance_of,
    pending_cost,
    profile_game,
    table_game,
)
from ..selectors.tables import table_profile
from .access import require_gm, require_member
from .characters import JUDGEMENT_VALUE_RANGE
from .signals import ledger_changed, send_on_commit
from .timeline import timeline_append

AMOUNT_MAX = 1000
REASON_MAX_LENGTH = 200
CLEANUP_ITEMS = {
    "sheets": gettext_noop("Everyone has checked their experience on the session sheet"),
    "materials": gettext_noop("Handouts and shared materials are put away"),
    "venue": gettext_noop("The venue is tidied (a public venue's rules followed)"),
}


@dataclass(frozen=True)
class AwardLine:
    amount: int
    reason: str


def _require_table_gm(table: Table, user) -> Membership:
    return require_gm(
        user=user, table_id=table.pk, message=_("Only the GM of this session can do that.")
    )


def _locked_session(session: GameSession) -> GameSession:
    return GameSession.objects.select_related("table").select_for_update().get(pk=session.pk)


def _clean_reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": _("Give a reason for every line.")})
    if len(reason) > REASON_MAX_LENGTH:
        raise ValidationError(
            {"reason": _("A reason can be at most %(limit)d characters.") % {"limit": 200}}
        )
    return reason


def _clean_amount(amount, *, allow_negative: bool = False) -> int:
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise ValidationError({"amount": _("An amount must be a whole number.")})
    low = -AMOUNT_MAX if allow_negative else 0
    if not low <= amount <= AMOUNT_MAX:
        raise ValidationError(
            {
                "amount": _("An amount must be between %(low)d and %(high)d.")
                % {"low": low, "high": AMOUNT_MAX}
            }
        )
    return amount


def _lock_account(person, game: str) -> ExperienceAccount:
    """Lock the person's account in the game: their balance is read and written under it."""
    account, _created = ExperienceAccount.objects.get_or_create(person=person, game=game)
    return ExperienceAccount.objects.select_for_update().get(pk=account.pk)


def _append_entry(*, table_id: int, person, game: str, amount: int, **fields) -> ExperienceEntry:
    """Write one ledger entry; the caller holds the person's account lock for the game."""
    balance = balance_of(game=game, user_id=person.pk) + amount
    if balance < 0:
        raise ValidationError(
            _("%(name)s has %(balance)d points: this would leave fewer than none.")
            % {"name": person.get_username(), "balance": balance - amount}
        )
    entry = ExperienceEntry(
        table_id=table_id,
        person=person,
        game=game,
        amount=amount,
        balance_after=balance,
        **fields,
    )
    entry.full_clean(exclude=["table", "person", "created_by", "session", "character"])
    entry.save()
    return entry


def experience_award_session(
    *, session: GameSession, by, awards: dict[int, list[AwardLine]]
) -> list[ExperienceEntry]:
    """Confirm the after-play awards of a session: lines per player who played, and the GM.

    Only the session's GM, only in after-play, and only once per session. The points are
    the person's in the game of the session's rules profile, at any table.
    """
    _require_table_gm(session.table, by)
    recipients = {user.pk: user for user in award_recipients(session=session)}
    unknown = set(awards) - set(recipients)
    if unknown:
        raise ValidationError(_("Experience goes only to this session's players and its GM."))
    cleaned: dict[int, list[AwardLine]] = {}
    for user_id, lines in awards.items():
        cleaned[user_id] = [
            AwardLine(amount=_clean_amount(line.amount), reason=_clean_reason(line.reason))
            for line in lines
            if line.amount
        ]
    entries = []
    with transaction.atomic():
        session = _locked_session(session)
        if session.phase != Phase.AFTER_PLAY:
            raise ValidationError(_("Experience is awarded in after-play."))
        if session.experience_confirmed_at is not None:
            raise ValidationError(_("The experience of this session was already confirmed."))
        game = profile_game(session.rules_profile)
        totals = []
        # One lock order for everyone (by user id) so that awards and spendings at the same
        # time cannot deadlock.
        for user_id in sorted(recipients):
            _lock_account(recipients[user_id], game)
        for user_id, person in recipients.items():
            lines = cleaned.get(user_id, [])
            for line in lines:
                entries.append(
                    _append_entry(
                        table_id=session.table_id,
                        person=person,
                        game=game,
                        amount=line.amount,
                        session=session,
                        kind=ExperienceEntry.Kind.AWARD,
                        reason=line.reason,
                        created_by=by,
                    )
                )
            totals.append(
                {
                    "user_id": user_id,
                    "name": person.get_username(),
                    "total": sum(line.amount for line in lines),
                    "gm": user_id == session.table.gm_id,
                }
            )
        session.experience_confirmed_at = timezone.now()
        session.save(update_fields=["experience_confirmed_at"])
        send_on_commit(ledger_changed, table_id=session.table_id)
        timeline_append(
            session=session,
            kind="experience_awarded",
            actor=by,
            payload={"totals": totals},
            visibility=TimelineEvent.Visibility.EVERYONE,
        )
    return entries


def experience_correct(
    *,
    table: Table,
    by,
    person,
    amount: int,
    reason: str,
    corrects: ExperienceEntry | None = None,
    session: GameSession | None = None,
) -> ExperienceEntry:
    """Append a correction to a member's ledger (the GM, with a reason; never below zero).

    The GM corrects lines written at their table; the correction counts in the game of the
    line it corrects, or else of the session or table. A correction of an entry belongs
    to that entry's session; corrections stay possible after a session is closed, because
    they are how its record is put right.
    """
    _require_table_gm(table, by)
    amount = _clean_amount(amount, allow_negative=True)
    if amount == 0:
        raise ValidationError({"amount": _("A correction must change the balance.")})
    reason = _clean_reason(reason)
    if corrects is not None:
        if corrects.table_id != table.pk or corrects.person_id != person.pk:
            raise ValidationError(_("That entry belongs to someone else's ledger."))
        session = corrects.session
    if session is not None and session.table_id != table.pk:
        raise ValidationError(_("That session belongs to another table."))
    if not is_member(user=person, table_id=table.pk):
        raise ValidationError(
            _("%(name)s is not a member of this table.") % {"name": person.get_username()}
        )
    if corrects is not None:
        game = corrects.game
    elif session is not None:
        game = profile_game(session.rules_profile)
    else:
        game = table_game(table=table)
    with transaction.atomic():
        _lock_account(person, game)
        entry = _append_entry(
            table_id=table.pk,
            person=person,
            game=game,
            amount=amount,
            session=session,
            kind=ExperienceEntry.Kind.CORRECTION,
            reason=reason,
            corrects=corrects,
            created_by=by,
        )
        send_on_commit(ledger_changed, table_id=table.pk)
        if session is not None:
            timeline_append(
                session=session,
                kind="experience_corrected",
                actor=by,
                payload={"name": person.get_username(), "amount": amount, "reason": reason},
                visibility=TimelineEvent.Visibility.EVERYONE,
                allow_closed=True,
            )
    return entry


def growth_item(profile, label: str) -> dict | None:
    for item in profile.growth_catalogue or []:
        if item.get("label") == label:
            return item
    return None


def _taken(character: Character, item: str) -> int:
    """How often the character has, or waits for, a catalogue item."""
    bought = ExperienceEntry.objects.filter(
        character=character, kind=ExperienceEntry.Kind.SPEND, growth__item=item
    ).count()
    waiting = GrowthRequest.objects.filter(
        character=character, status=GrowthRequest.Status.PENDING, growth__item=item
    ).count()
    return bought + waiting


def _refuse_over_limit(character: Character, growth: dict, limit, *, taken: int) -> None:
    if limit and taken >= int(limit):
        raise ValidationError(
            {
                "item": _("%(name)s already has “%(item)s” %(limit)d times, the limit.")
                % {"name": character.name, "item": growth["item"], "limit": int(limit)}
            }
        )


def _growth_payload(request: GrowthRequest) -> dict:
    return {
        "name": request.character.name,
        "growth": request.reason,
        "cost": request.cost,
        "value_name": request.growth.get("value_name", ""),
        "before": int(request.growth.get("before", 0)),
        "after": int(request.growth.get("after", 0)),
        "request_id": request.pk,
    }


def _announce(request: GrowthRequest, kind: str, by) -> None:
    """Tell the table's open experience pages, and write the step on the timeline of the
    session whose sheet the growth goes on."""
    send_on_commit(ledger_changed, table_id=request.character.table_id)
    if request.session_id is not None:
        timeline_append(
            session=request.session,
            kind=kind,
            actor=by,
            payload=_growth_payload(request),
            visibility=TimelineEvent.Visibility.EVERYONE,
            allow_closed=True,
        )


def growth_request(
    *,
    character: Character,
    by,
    item_label: str = "",
    description: str = "",
    cost: int | None = None,
    session: GameSession | None = None,
) -> GrowthRequest:
    """Ask the GM to spend the owner's experience on one of their own PCs.

    Either a catalogue item of the table's rules profile (which may raise a judgement
    value, and may be limited per character) or, when the profile allows it, free-form
    growth described by the player at a cost. `session` names the session sheet the
    spending is written on (after-play or closed sessions only). Points already asked for
    count as taken. Nothing is spent until the GM confirms, unless the profile makes
    growth self-service: then the request is confirmed at once.
    """
    if character.kind != Character.Kind.PC or character.owner_id != getattr(by, "pk", None):
        raise PermissionDenied(_("You can spend experience only on your own PCs."))
    table = character.table
    require_member(user=by, table_id=table.pk)
    profile = table_profile(table=table)
    if not profile.growth_enabled:
        raise ValidationError(
            _(
                "This table's rules profile switches growth off (the rules call that "
                "“not recommended”), so experience cannot be spent."
            )
        )
    if session is not None:
        if session.table_id != table.pk:
            raise ValidationError(_("That session belongs to another table."))
        if session.phase not in (Phase.AFTER_PLAY, Phase.CLOSED):
            raise ValidationError(
                {"session": _("Spendings go on the sheet of a session in after-play or closed.")}
            )
    growth: dict = {}
    if item_label:
        item = growth_item(profile, item_label)
        if item is None:
            raise ValidationError({"item": _("Choose growth from the rules profile's list.")})
        cost = int(item["cost"])
        reason = item["label"]
        growth = {"item": item["label"]}
        if item.get("value_name"):
            growth.update({"value_name": item["value_name"], "delta": int(item.get("delta") or 1)})
        limit = item.get("limit")
    else:
        if not profile.free_growth_allowed:
            raise ValidationError(
                {"item": _("This rules profile allows only the growth on its list.")}
            )
        reason = (description or "").strip()
        if not reason:
            raise ValidationError({"description": _("Describe the growth.")})
        if len(reason) > REASON_MAX_LENGTH:
            raise ValidationError(
                {"description": _("A reason can be at most %(limit)d characters.") % {"limit": 200}}
            )
        if isinstance(cost, bool) or not isinstance(cost, int) or not 1 <= cost <= AMOUNT_MAX:
            raise ValidationError(
                {"cost": _("The cost must be between 1 and %(high)d.") % {"high": AMOUNT_MAX}}
            )
        limit = None
    game = profile_game(profile)
    with transaction.atomic():
        _lock_account(by, game)
        character = Character.objects.select_for_update().get(pk=character.pk)
        if growth.get("item"):
            _refuse_over_limit(character, growth, limit, taken=_taken(character, growth["item"]))
        balance = balance_of(game=game, user=by) - pending_cost(game=game, user=by)
        if cost > balance:
            raise ValidationError(
                _("This costs %(cost)d points; you have %(balance)d.")
                % {"cost": cost, "balance": balance}
            )
        request = GrowthRequest(
            character=character, person=by, session=session, reason=reason, cost=cost, growth=growth
        )
        request.full_clean(exclude=["character", "person", "session"])
        request.save()
        if profile.growth_self_service:
            return _confirm(request, by=by, game=game, limit=limit)
        _announce(request, "growth_requested", by)
    return request


def _confirm(request: GrowthRequest, *, by, game: str, limit) -> GrowthRequest:
    """Spend and rewrite the sheet; the caller holds the account lock, in a transaction."""
    character = Character.objects.select_for_update().get(pk=request.character_id)
    growth = dict(request.growth)
    if growth.get("item"):
        bought = ExperienceEntry.objects.filter(
            character=character, kind=ExperienceEntry.Kind.SPEND, growth__item=growth["item"]
        ).count()
        _refuse_over_limit(character, growth, limit, taken=bought)
    balance = balance_of(game=game, user_id=request.person_id)
    if request.cost > balance:
        raise ValidationError(
            _("This costs %(cost)d points; %(name)s has %(balance)d.")
            % {"cost": request.cost, "name": request.person.get_username(), "balance": balance}
        )
    if growth.get("value_name"):
        name = growth["value_name"]
        before = int(character.judgement_values.get(name, 0))
        after = before + int(growth["delta"])
        low, high = JUDGEMENT_VALUE_RANGE
        if not low <= after <= high:
            raise ValidationError(
                _("%(name)s must be between %(low)d and %(high)d.")
                % {"name": name, "low": low, "high": high}
            )
        growth.update({"before": before, "after": after})
        values = dict(character.judgement_values)
        values[name] = after
        character.judgement_values = values
        character.save(update_fields=["judgement_values"])
    request.entry = _append_entry(
        table_id=character.table_id,
        person=request.person,
        game=game,
        amount=-request.cost,
        session=request.session,
        kind=ExperienceEntry.Kind.SPEND,
        reason=request.reason,
        character=character,
        growth=growth,
        created_by=by,
    )
    request.growth = growth
    request.status = GrowthRequest.Status.CONFIRMED
    request.decided_by = by
    request.decided_at = timezone.now()
    request.save(update_fields=["entry", "growth", "status", "decided_by", "decided_at"])
    request.character = character
    _announce(request, "growth_confirmed", by)
    return request


def _locked_pending(request: GrowthRequest) -> GrowthRequest:
    request = (
        GrowthRequest.objects.select_for_update(of=("self",))
        .select_related("character__table", "person")
        .get(pk=request.pk)
    )
    if request.status != GrowthRequest.Status.PENDING:
        raise ValidationError(_("This growth was already decided."))
    return request


def growth_confirm(*, request: GrowthRequest, by) -> GrowthRequest:
    """Confirm a player's growth as the GM of the character's table: the points are spent
    and the sheet is rewritten now, if the player still has them."""
    table = request.character.table
    _require_table_gm(table, by)
    profile = table_profile(table=table)
    game = profile_game(profile)
    item = growth_item(profile, request.growth.get("item", "")) if request.growth else None
    with transaction.atomic():
        _lock_account(request.person, game)
        request = _locked_pending(request)
        return _confirm(request, by=by, game=game, limit=(item or {}).get("limit"))


def growth_decline(*, request: GrowthRequest, by) -> GrowthRequest:
    """Decline a player's growth as the GM of the character's table: nothing is spent."""
    _require_table_gm(request.character.table, by)
    with transaction.atomic():
        request = _locked_pending(request)
        request.status = GrowthRequest.Status.DECLINED
        request.decided_by = by
        request.decided_at = timezone.now()
        request.save(update_fields=["status", "decided_by", "decided_at"])
        _announce(request, "growth_declined", by)
    return request


def session_cleanup_save(*, session: GameSession, by, done: dict[str, bool]) -> None:
    """Store the after-play cleanup ticks (the GM)."""
    _require_table_gm(session.table, by)
    if set(done) - set(CLEANUP_ITEMS):
        raise ValidationError(_("Unknown checklist item."))
    with transaction.atomic():
        session = _locked_session(session)
        if session.phase != Phase.AFTER_PLAY:
            raise ValidationError(_("The cleanup is done in after-play."))
        session.cleanup = {item: bool(done.get(item)) for item in CLEANUP_ITEMS}
        session.save(update_fields=["cleanup"])


def session_close(*, session: GameSession, by, done: dict[str, bool] | None = None) -> GameSession:
    """Close a session after after-play: from then on its record is read-only.

    Only the GM, only from after-play, and only once the experience is confirmed.
    """
    _require_table_gm(session.table, by)
    if done is not None and set(done) - set(CLEANUP_ITEMS):
        raise ValidationError(_("Unknown checklist item."))
    with transaction.atomic():
        locked = _locked_session(session)
        if locked.phase != Phase.AFTER_PLAY:
            raise ValidationError(_("A session is closed from after-play."))
        if locked.experience_confirmed_at is None:
            raise ValidationError(_("Confirm the experience awards before closing the session."))
        if done is not None:
            locked.cleanup = {item: bool(done.get(item)) for item in CLEANUP_ITEMS}
        rooms.main_play_end(session=locked, by=by)
        timeline_append(session=locked, kind="session_closed", actor=by)
        locked.phase = Phase.CLOSED
        locked.save(update_fields=["phase", "cleanup"])
    session.phase = locked.phase
    session.cleanup = locked.cleanup
    return locked


def session_sheet_sign(*, session: GameSession, by) -> SessionSignoff:
    """Stamp the session sheet as the session's GM: name and date, once per session."""
    _require_table_gm(session.table, by)
    with transaction.atomic():
        locked = _locked_session(session)
        if locked.experience_confirmed_at is None:
            raise ValidationError(_("Confirm the experience awards before signing the sheet."))
        if SessionSignoff.objects.filter(session=locked).exists():
            raise ValidationError(_("This session sheet is already signed."))
        signoff = SessionSignoff.objects.create(
            session=locked, signed_by=by, signer_name=by.get_username()
        )
        timeline_append(
            session=locked,
            kind="session_sheet_signed",
            actor=by,
            payload={"name": signoff.signer_name},
            allow_closed=True,
        )
    return signoff
