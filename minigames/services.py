"""Services for matches: start one, apply a move under a row lock and a version check, let the
computer answer, and tell the session's room. The rules themselves live in the engines."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from sessions_app.models import Character, GameSession, Membership, Phase
from sessions_app.services.access import is_gm, require_gm, require_member
from sessions_app.services.dice import Draw, dice_draw, proof_block
from sessions_app.services.signals import board_changed, send_on_commit
from sessions_app.services.stage import stage_require
from sessions_app.services.timeline import timeline_append

from .game import IllegalAction
from .messages import translate
from .models import Match, MatchMove
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


def _seed_proof(match: Match) -> dict | None:
    """The seed's proof, published once the match is over (its key fixes every card)."""
    started = match.session.events.filter(kind="match_started", payload__match_id=match.pk).first()
    place = (started.payload if started is not None else {}).get("proof")
    if place is None:
        return None
    return proof_block(
        session_id=match.session_id,
        epoch=place["epoch"],
        index=place["index"],
        value=place["value"],
        value_source=place["value_source"],
        draws=[[1, SEED_LIMIT]],
        faces=[match.seed + 1],
    )


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
        draw = None
        if seed is None:
            # The seed fixes every shuffle and random discard of the match: drawn like a
            # roll's dice, so that once the match is over anyone can check it.
            draw = dice_draw(session=session, value=dice_value, reservation=dice_reservation, by=by)
            seed = draw.source.randint(0, SEED_LIMIT - 1)
        match = _new_match(
            spec=spec,
            session=session,
            by=by,
            seat_users=seat_users,
            seat_info=seat_info,
            options=options,
            seed=seed,
        )
        payload = {
            "match_id": match.pk,
            "game": spec.key,
            "names": [seat["name"] for seat in seat_info],
        }
        if draw is not None:
            payload["proof"] = _seed_place(draw)
        timeline_append(session=session, kind="match_started", actor=by, payload=payload)
    return _computer_turns(match)


def match_create_practice(
    *,
    by,
    level: str = "search",
    options: dict | None = None,
    game: str = DEFAULT_GAME,
    deck: str | None = None,
) -> Match:
    """Start a practice game against the computer, outside any session."""
    if level not in BOT_LEVELS:
        raise ValidationError(_("Unknown computer strength."))
    spec = game_spec(game)
    with transaction.atomic():
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
            seed=None,
        )
    return _computer_turns(match)


def _with_decks(options: dict | None, decks: list[str | None]) -> dict:
    """The options with the seats' own deck choices, when any seat made one."""
    options = dict(options or {})
    if any(decks):
        options["decks"] = decks
    return options


def _new_match(*, spec: GameSpec, session, by, seat_users, seat_info, options, seed) -> Match:
    options = spec.clean_options(options, players=seat_users)
    # A practice game outside any session has no commitment to draw from.
    seed = secrets.randbelow(SEED_LIMIT) if seed is None else seed
    state = spec.engine.initial_state(options, seed)
    return Match.objects.create(
        game=spec.key,
        session=session,
        seat0_user=seat_users[0],
        seat1_user=seat_users[1],
        seats=seat_info,
        options=options,
        seed=seed,
        state=spec.engine.to_dict(state),
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
    if not (_computer_plays(match, 0) or _computer_plays(match, 1)):
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
        if match.status == Match.Status.FINISHED:
            raise ValidationError(_("The match is over."))
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
