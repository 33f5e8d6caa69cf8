"""Services for matches: start one, apply a move under a row lock and a version check, let the
computer answer, and tell the session's room. The rules themselves live in the engines."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from sessions_app.models import Character, GameSession, Membership, Phase
from sessions_app.rules import dice_proof
from sessions_app.services.access import is_gm, require_gm, require_member
from sessions_app.services.dice import Draw, dice_draw, draw_at, proof_block, roller_value
from sessions_app.services.signals import board_changed, send_on_commit
from sessions_app.services.stage import stage_require
from sessions_app.services.timeline import timeline_append

from .game import IllegalAction
from .messages import translate
from .models import Match, MatchMove, PracticeDice
from .registry import DEFAULT_GAME, GAMES, GameSpec, game_spec

BOT_LEVELS = ("random", "search")
# Once main play is over a session's matches are read-only: no new match, no move.
PLAY_OVER = (Phase.AFTER_PLAY, Phase.CLOSED)
# The result of a match stopped because its session's main play ended: nobody won.
STOPPED = "stopped"
# A computer seat never takes more steps (or fresh looks) than this in one go: a guard.
MAX_COMPUTER_STEPS = 400
SEED_LIMIT = 2**62


def _seed_place(draw: Draw) -> dict:
    return {
        "epoch": draw.epoch,
        "index": draw.index,
        "value": draw.value,
        "value_source": draw.value_source,
    }


def _shuffle_place(shuffle: dict) -> dict:
    """Where a seed several browsers took part in comes from: its key's place and their
    values, joined in the order they came."""
    every_browser = all(
        source == dice_proof.VALUE_FROM_BROWSER for source in shuffle["value_sources"]
    )
    return {
        "epoch": shuffle["epoch"],
        "index": shuffle["index"],
        "value": dice_proof.join_values(shuffle["values"]),
        "value_source": (
            dice_proof.VALUE_FROM_BROWSER if every_browser else dice_proof.VALUE_FROM_SERVER
        ),
        "values": list(shuffle["values"]),
        "value_by": list(shuffle["value_by"]),
    }


def _seed_proof(match: Match) -> dict | None:
    """The seed's proof, published once the match is over (its key fixes every card).

    A match stopped before its deal publishes its key with nothing drawn from it, like a
    skipped roll: every key is accounted for, and nobody learns what the cards would have been.
    """
    if match.shuffle.get("values"):
        place = _shuffle_place(match.shuffle)
    else:
        started = match.session.events.filter(
            kind="match_started", payload__match_id=match.pk
        ).first()
        place = (started.payload if started is not None else {}).get("proof")
    if place is None:
        return None
    dealt = not match_undealt(match)
    proof = proof_block(
        session_id=match.session_id,
        epoch=place["epoch"],
        index=place["index"],
        value=place["value"],
        value_source=place["value_source"],
        draws=[[1, SEED_LIMIT]] if dealt else [],
        faces=[match.seed + 1] if dealt else [],
    )
    if "values" in place:
        proof["values"], proof["value_by"] = place["values"], place["value_by"]
    return proof


class StaleMove(ValidationError):
    """A move sent for a board that has changed since; the client is re-synced."""


class MatchUnderWay(ValidationError):
    """A second match asked for between two characters whose match is still open."""

    def __init__(self, message, *, match: Match):
        super().__init__(message)
        self.match = match


def _require_play_not_over(session: GameSession | None) -> None:
    if session is not None and session.phase in PLAY_OVER:
        raise ValidationError(_("The session's main play is over: its matches are closed."))


def _require_seated_player(match: Match, by) -> int:
    """The seat `by` plays in the match; PermissionDenied for anyone else, a seat's player
    who has left the table included; ValidationError once its session's main play is over."""
    seat = match.seat_of(by)
    if seat is None:
        raise PermissionDenied(_("You are not playing in this match."))
    if match.session_id:
        require_member(
            user=by,
            table_id=match.session.table_id,
            message=_("You are not playing in this match."),
        )
        _require_play_not_over(match.session)
    return seat


def _open_match_between(session: GameSession, seats: list[SeatSpec]) -> Match | None:
    wanted = {seat.character.pk for seat in seats}
    for match in Match.objects.filter(session=session).exclude(status=Match.Status.FINISHED):
        if {seat.get("character_id") for seat in match.seats} == wanted:
            return match
    return None


@dataclass(frozen=True)
class SeatSpec:
    character: Character
    computer: bool = False
    level: str = "search"
    # For a game played with decks: a ready-made deck's name, or "deck:<id>" for one the
    # seat's player saved.
    deck: str | None = None


def _check_session_seats(session: GameSession, by, seats: list[SeatSpec]) -> Membership:
    membership = require_member(
        user=by,
        table_id=session.table_id,
        message=_("Only members of this table can start a match here."),
    )
    if len(seats) != 2 or seats[0].character.pk == seats[1].character.pk:
        raise ValidationError(_("A match needs two different characters."))
    cast = set(session.characters.values_list("pk", flat=True))
    for seat in seats:
        character = seat.character
        if character.table_id != session.table_id:
            raise ValidationError(_("That character belongs to another table."))
        if character.kind == Character.Kind.PC and character.pk not in cast:
            raise ValidationError(
                _("%(name)s is not taking part in this session.") % {"name": character.name}
            )
        stage_require(session, character)
        if seat.computer and character.kind == Character.Kind.PC:
            raise ValidationError(_("Only an NPC can be played by the computer."))
        if seat.level not in BOT_LEVELS:
            raise ValidationError(_("Unknown computer strength."))
    if not is_gm(membership) and not any(seat.character.owner_id == by.pk for seat in seats):
        raise PermissionDenied(_("Players start matches for their own characters only."))
    return membership


def match_create(
    *,
    session: GameSession,
    by,
    seats: list[SeatSpec],
    options: dict | None = None,
    game: str = DEFAULT_GAME,
    seed: int | None = None,
    dice_value: str | None = None,
    dice_reservation=None,
) -> Match:
    """Seat two characters of the session at a match; both then prepare in secret."""
    spec = game_spec(game)
    _check_session_seats(session, by, seats)
    seat_users = [None if seat.computer else seat.character.owner for seat in seats]
    seat_info = [
        {
            "name": seat.character.name,
            "character_id": seat.character.pk,
            "computer": seat.computer,
            "level": seat.level if seat.computer else None,
        }
        for seat in seats
    ]
    options = _with_decks(options, [seat.deck for seat in seats])
    with transaction.atomic():
        # Locked so that two requests at once cannot both find no open match.
        session = GameSession.objects.select_for_update().get(pk=session.pk)
        _require_play_not_over(session)
        under_way = _open_match_between(session, seats)
        if under_way is not None:
            raise MatchUnderWay(
                _("A match between %(a)s and %(b)s is already under way.")
                % {"a": seats[0].character.name, "b": seats[1].character.name},
                match=under_way,
            )
        draw = shuffle = None
        if seed is None:
            # The seed fixes every shuffle and random discard of the match: drawn like a
            # roll's dice, so that once the match is over anyone can check it.
            draw = dice_draw(session=session, value=dice_value, reservation=dice_reservation, by=by)
            shuffle = _shuffle_owed(draw, by, seat_users)
            if shuffle is None:
                seed = draw.source.randint(0, SEED_LIMIT - 1)
        match = _new_match(
            spec=spec,
            session=session,
            by=by,
            seat_users=seat_users,
            seat_info=seat_info,
            options=options,
            seed=seed,
            shuffle=shuffle,
        )
        payload = {
            "match_id": match.pk,
            "game": spec.key,
            "names": [seat["name"] for seat in seat_info],
        }
        if draw is not None:
            payload["proof"] = _seed_place(draw)
        if shuffle is not None:
            payload["waiting_for"] = match_waiting_names(match)
        timeline_append(session=session, kind="match_started", actor=by, payload=payload)
    return _computer_turns(match)


def _shuffle_owed(draw: Draw, by, seat_users) -> dict | None:
    """What a new match's seed still waits for: the value of every seated player's browser
    other than its starter's (the computer adds none: its part is the committed key).
    None when nobody else is seated, and the seed is drawn at once."""
    owed = []
    for user in seat_users:
        if user is not None and user.pk != by.pk and user.pk not in owed:
            owed.append(user.pk)
    if not owed:
        return None
    return {
        "epoch": draw.epoch,
        "index": draw.index,
        "values": [draw.value],
        "value_by": [by.get_username()],
        "value_sources": [draw.value_source],
        "waiting_for": owed,
    }


def match_waiting_names(match: Match) -> list[str]:
    """The names of the seated players whose browsers have yet to add their value."""
    owed = match.shuffle.get("waiting_for", [])
    users = [(match.seat0_user_id, match.seat0_user), (match.seat1_user_id, match.seat1_user)]
    names = []
    for user_id, user in users:
        if user_id in owed and user.get_username() not in names:
            names.append(user.get_username())
    return names


def match_undealt(match: Match) -> bool:
    """Tell whether the match's cards were never dealt: its seed still waits for a value
    (or waited, when its session's main play ended first)."""
    return bool(match.shuffle.get("waiting_for"))


def match_waiting_for(match: Match, user) -> bool:
    """Tell whether the match's deal waits for this user's browser's value."""
    return match.status == Match.Status.WAITING and getattr(user, "pk", None) in (
        match.shuffle.get("waiting_for", [])
    )


def match_shuffle_in(*, match_id: int, by, dice_value: str | None = None) -> Match:
    """Add a seated player's browser's value to their match's seed; the last one deals.

    Until then nobody, the server included, could know the cards: the key was committed
    before the first value, and each value is fixed before the key is published.
    """
    value, value_source = roller_value(
        dice_value, malformed=_("The dice value from your browser is malformed; shuffle in again.")
    )
    with transaction.atomic():
        match = (
            # Only the match row: PostgreSQL refuses FOR UPDATE across the outer joins to
            # its optional session and seat users.
            Match.objects.select_for_update(of=("self",))
            .select_related("session", "seat0_user", "seat1_user")
            .filter(pk=match_id)
            .first()
        )
        if match is None:
            raise PermissionDenied(_("You are not playing in this match."))
        _require_seated_player(match, by)
        if not match_waiting_for(match, by):
            raise ValidationError(_("Your browser's value is already in this match's shuffle."))
        shuffle = dict(match.shuffle)
        shuffle["values"] = [*shuffle["values"], value]
        shuffle["value_by"] = [*shuffle["value_by"], by.get_username()]
        shuffle["value_sources"] = [*shuffle["value_sources"], value_source]
        shuffle["waiting_for"] = [pk for pk in shuffle["waiting_for"] if pk != by.pk]
        match.shuffle = shuffle
        if shuffle["waiting_for"]:
            match.save(update_fields=["shuffle"])
            send_on_commit(board_changed, session_id=match.session_id, board_id=match.pk)
        else:
            _deal(match, by)
    return _computer_turns(match)


def _deal(match: Match, by) -> None:
    """Draw the seed from the committed key and every seated player's value, and deal."""
    place = _shuffle_place(match.shuffle)
    draw = draw_at(
        session_id=match.session_id,
        epoch=place["epoch"],
        index=place["index"],
        value=place["value"],
        value_source=place["value_source"],
    )
    match.seed = draw.source.randint(0, SEED_LIMIT - 1)
    engine = GAMES[match.game].engine
    match.state = engine.to_dict(engine.initial_state(match.options, match.seed))
    # The board's version stays 0, as a match dealt at once starts: the waiting board shows
    # -1, so the dealt board replaces it everywhere and a late waiting one never comes back.
    match.status = Match.Status.SETUP
    match.save()
    timeline_append(
        session=match.session,
        kind="match_dealt",
        actor=by,
        payload={
            "match_id": match.pk,
            "game": match.game,
            "names": [seat["name"] for seat in match.seats],
            "proof": dict(place),
        },
    )
    send_on_commit(board_changed, session_id=match.session_id, board_id=match.pk)


# The number a practice game's keys are derived with in place of a session's: its batch
# number (the PracticeDice's id) alone tells one practice game's keys from another's.
PRACTICE_SESSION = 0


def practice_dice_reserve(*, by) -> PracticeDice:
    """Commit the key of a practice game's seed, to be shown before the player's browser
    draws its value (the practice form asks right before starting)."""
    master = dice_proof.new_master()
    with transaction.atomic():
        dice = PracticeDice.objects.create(user=by, master=master, root="")
        dice.root = dice_proof.commitment(
            master, PRACTICE_SESSION, dice.pk, PracticeDice.SIZE
        ).hex()
        dice.save(update_fields=["root"])
    return dice


def _practice_dice(by, reservation) -> PracticeDice:
    """`by`'s own unused practice key `reservation`, or a fresh one when none was asked for
    (a page without JavaScript)."""
    if reservation in (None, ""):
        return practice_dice_reserve(by=by)
    try:
        reservation_id = int(reservation)
    except (TypeError, ValueError):
        reservation_id = None
    dice = (
        PracticeDice.objects.select_for_update()
        .filter(pk=reservation_id, user_id=by.pk, match__isnull=True)
        .first()
    )
    if dice is None:
        raise ValidationError(_("The dice key set aside for this game is gone; start again."))
    return dice


def match_create_practice(
    *,
    by,
    level: str = "search",
    options: dict | None = None,
    game: str = DEFAULT_GAME,
    deck: str | None = None,
    dice_value: str | None = None,
    dice_reservation=None,
) -> Match:
    """Start a practice game against the computer, outside any session.

    Its seed is drawn like a session match's: from a key committed before the player's
    browser drew its value (practice_dice_reserve), published once the game is over.
    """
    if level not in BOT_LEVELS:
        raise ValidationError(_("Unknown computer strength."))
    spec = game_spec(game)
    value, value_source = roller_value(
        dice_value, malformed=_("The dice value from your browser is malformed; start again.")
    )
    with transaction.atomic():
        dice = _practice_dice(by, dice_reservation)
        key = dice_proof.roll_key(bytes(dice.master), PRACTICE_SESSION, dice.pk, 0)
        seed = dice_proof.DiceSource(key=key, value=value).randint(0, SEED_LIMIT - 1)
        match = _new_match(
            spec=spec,
            session=None,
            by=by,
            seat_users=[by, None],
            seat_info=[
                {"name": by.get_username(), "character_id": None, "computer": False},
                {"name": _("Computer"), "character_id": None, "computer": True, "level": level},
            ],
            options=_with_decks(options, [deck, None]),
            seed=seed,
        )
        dice.match, dice.value, dice.value_source = match, value, value_source
        dice.save(update_fields=["match", "value", "value_source"])
    return _computer_turns(match)


def practice_proof(match: Match) -> dict | None:
    """A finished practice game's seed proof with its commitment, as the check page and the
    offline verifier read them; None while it is played (the key fixes every card)."""
    dice = PracticeDice.objects.filter(match=match).first()
    if dice is None or match.status != Match.Status.FINISHED:
        return None
    master = bytes(dice.master)
    return {
        "session": PRACTICE_SESSION,
        "epoch": dice.pk,
        "size": PracticeDice.SIZE,
        "root": dice.root,
        "committed_at": dice.created_at.isoformat(),
        "index": 0,
        "key": dice_proof.roll_key(master, PRACTICE_SESSION, dice.pk, 0).hex(),
        "path": [
            step.hex()
            for step in dice_proof.proof_path(
                master, PRACTICE_SESSION, dice.pk, 0, PracticeDice.SIZE
            )
        ],
        "value": dice.value,
        "value_source": dice.value_source,
        "draws": [[1, SEED_LIMIT]],
        "faces": [match.seed + 1],
    }


def practice_proof_log(match: Match) -> dict | None:
    """A finished practice game's commitment and seed proof in the shape of a session's
    JSON log, which the offline verifier (static/verify/verify_dice.py) reads as it is."""
    proof = practice_proof(match)
    if proof is None:
        return None
    commit = {key: proof[key] for key in ("session", "epoch", "size", "root")}
    seed_proof = {
        key: proof[key]
        for key in ("epoch", "index", "key", "path", "value", "value_source", "draws", "faces")
    }
    return {
        "practice": match.pk,
        "events": [
            {
                "seq": 1,
                "kind": "dice_committed",
                "created_at": proof["committed_at"],
                "payload": {**commit, "procedure": dice_proof.PROCEDURE},
            },
            {
                "seq": 2,
                "kind": "match_finished",
                "created_at": match.finished_at.isoformat(),
                "payload": {
                    "match_id": match.pk,
                    "names": [seat["name"] for seat in match.seats],
                    "proof": seed_proof,
                },
            },
        ],
    }


def _with_decks(options: dict | None, decks: list[str | None]) -> dict:
    """The options with the seats' own deck choices, when any seat made one."""
    options = dict(options or {})
    if any(decks):
        options["decks"] = decks
    return options


def _new_match(
    *, spec: GameSpec, session, by, seat_users, seat_info, options, seed, shuffle=None
) -> Match:
    """A match dealt from `seed`, or, given the `shuffle` it waits for, not dealt yet."""
    options = spec.clean_options(options, players=seat_users)
    waiting = shuffle is not None
    return Match.objects.create(
        game=spec.key,
        session=session,
        seat0_user=seat_users[0],
        seat1_user=seat_users[1],
        seats=seat_info,
        options=options,
        seed=0 if waiting else seed,
        state={} if waiting else spec.engine.to_dict(spec.engine.initial_state(options, seed)),
        status=Match.Status.WAITING if waiting else Match.Status.SETUP,
        shuffle=shuffle or {},
        created_by=by,
    )


def _append_move(
    match: Match, seat: int, action: dict, *, by_computer: bool, private: bool = False
) -> None:
    """Log the move for replay; a public one raises the version everyone's board carries."""
    if not private:
        match.version += 1
    # Numbered after the last move rather than by version: a private move is logged too.
    last = match.moves.aggregate(last=Max("number"))["last"] or 0
    MatchMove.objects.create(
        match=match,
        number=max(last + 1, match.version),
        seat=seat,
        action=action,
        by_computer=by_computer,
    )


def _computer_plays(match: Match, seat: int) -> bool:
    """A computer seat, or a person's seat whose AUTO switch hands planning to the computer."""
    return match.is_computer(seat) or bool(match.seats[seat].get("auto"))


def _computer_choice(match: Match, spec: GameSpec, state) -> tuple[int, dict] | None:
    """The first computer seat with something to do, and what it does; shown only its view."""
    for seat in (0, 1):
        if not _computer_plays(match, seat):
            continue
        level = match.seats[seat].get("level") or "search"
        # Seeded from the match so a replay of the log meets the same decisions.
        seed = (match.seed + 7919 * match.version + seat) % (2**63)
        action = spec.computer(state, seat, level=level, seed=seed)
        if action is not None:
            return seat, action
    return None


def _computer_turns(match: Match) -> Match:
    """Let computer seats act until a person must, or the game ends; return the match.

    Called with no transaction open, after the person's move has committed: the computer
    thinks (up to a second) with no row locked, on the state last saved. Its move is then
    applied like a person's, under the row lock and only if the match's version is still
    the one it thought about; if someone moved meanwhile, it thinks again on the new state.
    """
    if match.status == Match.Status.WAITING or not (
        _computer_plays(match, 0) or _computer_plays(match, 1)
    ):
        return match
    spec = GAMES[match.game]
    engine = spec.engine
    state = engine.from_dict(match.state)
    start_turn = state.get("turn") if isinstance(state, dict) else None
    for _attempt in range(MAX_COMPUTER_STEPS):
        if engine.is_terminal(state):
            break
        # With nobody left to wait for (AUTO on a practice seat), play one turn per request
        # rather than the whole game at once.
        both_computer = _computer_plays(match, 0) and _computer_plays(match, 1)
        if both_computer and start_turn is not None and state.get("turn") != start_turn:
            break
        chosen = _computer_choice(match, spec, state)
        if chosen is None:
            break
        seat, action = chosen
        with transaction.atomic():
            locked = Match.objects.select_for_update().get(pk=match.pk)
            if locked.status == Match.Status.FINISHED:
                # Stopped meanwhile (its session left main play): nothing more to play.
                match = locked
                break
            if locked.version == match.version:
                state = engine.apply(state, action)
                _append_move(locked, seat, action, by_computer=True)
                _save_state(locked, state, engine)
            else:
                state = engine.from_dict(locked.state)
        match = locked
    return match


def _save_state(match: Match, state, engine, *, only_seat: int | None = None) -> None:
    """Store the state and tell the room; ``only_seat``: a private move, told to that seat."""
    match.state = engine.to_dict(state)
    was_finished = match.status == Match.Status.FINISHED
    if engine.is_terminal(state):
        match.status = Match.Status.FINISHED
        match.result = engine.result(state)
        match.finished_at = match.finished_at or timezone.now()
    elif engine.has_started(state):
        match.status = Match.Status.PLAYING
    match.save()
    if match.session_id:
        if match.status == Match.Status.FINISHED and not was_finished:
            _announce_result(match)
        if only_seat is None:
            send_on_commit(board_changed, session_id=match.session_id, board_id=match.pk)
        else:
            seat_user = (match.seat0_user_id, match.seat1_user_id)[only_seat]
            send_on_commit(
                board_changed,
                session_id=match.session_id,
                board_id=match.pk,
                user_ids=[seat_user],
            )


def _announce_result(match: Match) -> None:
    result = match.result or {}
    winner = result.get("winner")
    names = [seat["name"] for seat in match.seats]
    payload = {
        "match_id": match.pk,
        "game": match.game,
        "names": names,
        "winner": winner,
        "winner_name": None if winner is None else names[winner],
        "loser_name": None if winner is None else names[1 - winner],
        "reason": result.get("reason"),
        # Whichever the game counts: the pieces left (Actual) or the life left (Actics X).
        "pieces_left": None if winner is None else result.get("pieces_left", [0, 0])[winner],
        "life_left": None if winner is None else (result.get("lives") or [0, 0])[winner],
    }
    proof = _seed_proof(match)
    if proof is not None:
        payload["proof"] = proof
    timeline_append(
        session=match.session, kind="match_finished", actor=match.created_by, payload=payload
    )


def match_move(*, match_id: int, by, action: dict, version: int) -> Match:
    """Apply one move of the user's own seat; a stale or repeated submit changes nothing.

    The move commits (and is announced) before any computer seat thinks about its answer.
    """
    if not isinstance(action, dict):
        raise ValidationError(_("That move is not understood."))
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None:
            raise ValidationError(_("That match does not exist."))
        seat = _require_seated_player(match, by)
        if match.status == Match.Status.FINISHED:
            raise ValidationError(_("The match is over."))
        if match.status == Match.Status.WAITING:
            raise ValidationError(
                _("The cards are not dealt yet: waiting for %(names)s to shuffle in.")
                % {"names": ", ".join(match_waiting_names(match))}
            )
        spec = GAMES[match.game]
        private = action.get("type") in spec.private_actions
        # A setup only replaces the seat's own secret choices until both are ready, and a
        # private setting touches nothing else, so neither need wait for the other seat's
        # news; every other move must be current.
        if match.version != version and action.get("type") != "setup" and not private:
            raise StaleMove(_("The board changed before your move arrived; here it is again."))
        state = spec.engine.from_dict(match.state)
        if action.get("type") == "auto":
            _set_auto(match, spec, seat, bool(action.get("value")), state)
        else:
            # The seat comes from who is logged in, never from the request.
            action = {**action, "player": seat}
            try:
                state = spec.engine.apply(state, action)
            except IllegalAction as error:
                raise ValidationError(translate(error.message)) from None
            _append_move(match, seat, action, by_computer=False, private=private)
            _save_state(match, state, spec.engine, only_seat=seat if private else None)
    if private:
        # Nothing anyone else sees has changed, so no computer seat has anything new to do.
        return match
    return _computer_turns(match)


def _set_auto(match: Match, spec: GameSpec, seat: int, value: bool, state) -> None:
    """Hand a seat's planning to the computer (AUTO) or take it back; not a game move."""
    if not spec.auto_planning:
        raise ValidationError(_("%(game)s has no AUTO.") % {"game": spec.label})
    seats = [dict(info) for info in match.seats]
    seats[seat]["auto"] = value
    seats[seat].setdefault("level", "search")
    match.seats = seats
    match.version += 1
    _save_state(match, state, spec.engine)


def matches_stop(*, session: GameSession, by) -> list[Match]:
    """End the session's open matches as its main play ends: nobody wins, the log says why.

    Run inside the phase change's (or the closing's) transaction; a second run finds nothing
    left open.
    """
    stopped = []
    open_matches = (
        Match.objects.select_for_update()
        .filter(session=session)
        .exclude(status=Match.Status.FINISHED)
        .order_by("created_at", "pk")
    )
    for match in open_matches:
        match.status = Match.Status.FINISHED
        match.result = {"winner": None, "reason": STOPPED}
        match.finished_at = timezone.now()
        # A move or a computer's answer sent for the board as it was is now stale.
        match.version += 1
        match.save(update_fields=["status", "result", "finished_at", "version"])
        _announce_result(match)
        send_on_commit(board_changed, session_id=session.pk, board_id=match.pk)
        stopped.append(match)
    return stopped


def match_stopped(match: Match) -> bool:
    """Tell whether the match was stopped with its session's main play, not played out."""
    return (match.result or {}).get("reason") == STOPPED


def match_replay(match: Match):
    """Rebuild a match's state from its seed, options and move log."""
    engine = GAMES[match.game].engine
    state = engine.initial_state(match.options, match.seed)
    for move in match.moves.order_by("number"):
        state = engine.apply(state, move.action)
    return state


def match_outcome_record(*, match: Match, by, label: str) -> None:
    """Let the GM take a finished match as the outcome of a contest in the story."""
    if match.session_id is None:
        raise ValidationError(_("A practice game decides nothing in a session."))
    require_gm(user=by, table_id=match.session.table_id)
    label = (label or "").strip()
    if not label:
        raise ValidationError(_("Say what the match decides."))
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
        if locked.status != Match.Status.FINISHED:
            raise ValidationError(_("The match is not over yet."))
        if match_stopped(locked):
            raise ValidationError(_("A stopped match decides nothing."))
        if locked.session.events.filter(kind="match_outcome", payload__match_id=match.pk).exists():
            raise ValidationError(_("This match already decided an outcome."))
        winner = (locked.result or {}).get("winner")
        names = [seat["name"] for seat in locked.seats]
        timeline_append(
            session=locked.session,
            kind="match_outcome",
            actor=by,
            payload={
                "match_id": locked.pk,
                "label": label[:160],
                "winner_name": None if winner is None else names[winner],
                "names": names,
            },
        )
