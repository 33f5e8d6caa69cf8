"""Services for matches: start one, apply a move under a row lock and a version check, let the
computer answer, and tell the session's room. The rules themselves live in the engines."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from sessions_app.models import Character, GameSession, Membership
from sessions_app.selectors import membership_get
from sessions_app.services.stage import stage_require
from sessions_app.services.timeline import broadcast, timeline_append

from .acticsx import bot as acticsx_bot
from .acticsx import cards as acticsx_cards
from .acticsx import engine as acticsx_engine
from .actual import bot as actual_bot
from .actual import engine as actual_engine
from .game import IllegalAction
from .messages import reader_language, translate
from .models import Deck, Match, MatchMove

ENGINES = {Match.Game.ACTUAL: actual_engine, Match.Game.ACTICSX: acticsx_engine}
BOT_LEVELS = ("random", "search")
# A computer seat never takes more steps than this in one go: a guard, not a rule.
MAX_COMPUTER_STEPS = 400


class StaleMove(ValidationError):
    """A move sent for a board that has changed since; the client is re-synced."""


@dataclass(frozen=True)
class SeatSpec:
    character: Character
    computer: bool = False
    level: str = "search"
    # Actics X: a ready-made deck's name, or "deck:<id>" for one its player saved.
    deck: str | None = None


def _engine(match: Match):
    return ENGINES[match.game]


def _computer_action(match: Match, state, seat: int) -> dict | None:
    """Ask the computer for this seat's next action, showing it only that seat's view."""
    level = match.seats[seat].get("level") or "search"
    # Seeded from the match so a replay of the log meets the same decisions.
    seed = (match.seed + 7919 * match.version + seat) % (2**63)
    if match.game == Match.Game.ACTICSX:
        player = (
            acticsx_bot.RandomBot(seed)
            if level == "random"
            else acticsx_bot.PlannerBot(seed, budget=0.8)
        )
        return player.choose(acticsx_engine.player_view(state, seat))
    player = (
        actual_bot.RandomBot(seed)
        if level == "random"
        else actual_bot.SearchBot(seed, time_budget=0.4)
    )
    return actual_bot.decide(player, state, seat)


def _has_started(match: Match, state) -> bool:
    if match.game == Match.Game.ACTICSX:
        return True
    return state.phase != actual_engine.SETUP


def _clean_options(game: str, options: dict | None) -> dict[str, Any]:
    options = dict(options or {})
    if game == Match.Game.ACTICSX:
        return _clean_acticsx_options(options)
    cleaned: dict[str, Any] = {"diagonal_attack": bool(options.get("diagonal_attack"))}
    turn_limit = options.get("turn_limit")
    if turn_limit not in (None, ""):
        try:
            turn_limit = int(turn_limit)
        except (TypeError, ValueError):
            raise ValidationError({"turn_limit": _("The turn limit is a whole number.")}) from None
        if not 2 <= turn_limit <= 500:
            raise ValidationError({"turn_limit": _("The turn limit is from 2 to 500 turns.")})
        cleaned["turn_limit"] = turn_limit
    else:
        cleaned["turn_limit"] = None
    first = options.get("first_player")
    cleaned["first_player"] = None if first in (None, "", "random") else int(first)
    if cleaned["first_player"] not in (None, 0, 1):
        raise ValidationError({"first_player": _("The first player is seat 1, seat 2 or random.")})
    return cleaned


def _clean_acticsx_options(options: dict) -> dict[str, Any]:
    cleaned: dict[str, Any] = {}
    turn_limit = options.get("turn_limit")
    if turn_limit not in (None, ""):
        try:
            cleaned["turn_limit"] = int(turn_limit)
        except (TypeError, ValueError):
            raise ValidationError({"turn_limit": _("The turn limit is a whole number.")}) from None
        if not 2 <= cleaned["turn_limit"] <= 500:
            raise ValidationError({"turn_limit": _("The turn limit is from 2 to 500 turns.")})
    decks = options.get("decks")
    if decks:
        cleaned["decks"] = list(decks)
    return cleaned


def _check_session_seats(session: GameSession, by, seats: list[SeatSpec]) -> Membership:
    membership = membership_get(user=by, table_id=session.table_id)
    if membership is None:
        raise PermissionDenied(_("Only members of this table can start a match here."))
    if len(seats) != 2 or seats[0].character.pk == seats[1].character.pk:
        raise ValidationError(_("A match needs two different characters."))
    cast = set(session.characters.values_list("pk", flat=True))
    for spec in seats:
        character = spec.character
        if character.table_id != session.table_id:
            raise ValidationError(_("That character belongs to another table."))
        if character.kind == Character.Kind.PC and character.pk not in cast:
            raise ValidationError(
                _("%(name)s is not taking part in this session.") % {"name": character.name}
            )
        stage_require(session, character)
        if spec.computer and character.kind == Character.Kind.PC:
            raise ValidationError(_("Only an NPC can be played by the computer."))
        if spec.level not in BOT_LEVELS:
            raise ValidationError(_("Unknown computer strength."))
    is_gm = membership.role == Membership.Role.GM
    if not is_gm and not any(spec.character.owner_id == by.pk for spec in seats):
        raise PermissionDenied(_("Players start matches for their own characters only."))
    return membership


def match_create(
    *,
    session: GameSession,
    by,
    seats: list[SeatSpec],
    options: dict | None = None,
    game: str = Match.Game.ACTUAL,
    seed: int | None = None,
) -> Match:
    """Seat two characters of the session at a match; both then prepare in secret."""
    _check_session_seats(session, by, seats)
    seat_users = [None if spec.computer else spec.character.owner for spec in seats]
    seat_info = [
        {
            "name": spec.character.name,
            "character_id": spec.character.pk,
            "computer": spec.computer,
            "level": spec.level if spec.computer else None,
        }
        for spec in seats
    ]
    if game == Match.Game.ACTICSX:
        options = {
            **(options or {}),
            "decks": [
                resolve_deck(spec.deck, user) for spec, user in zip(seats, seat_users, strict=True)
            ],
        }
    with transaction.atomic():
        match = _new_match(
            game=game,
            session=session,
            by=by,
            seat_users=seat_users,
            seat_info=seat_info,
            options=options,
            seed=seed,
        )
        timeline_append(
            session=session,
            kind="match_started",
            actor=by,
            payload={
                "match_id": match.pk,
                "game": game,
                "names": [seat["name"] for seat in seat_info],
            },
        )
    return match


def match_create_practice(
    *,
    by,
    level: str = "search",
    options: dict | None = None,
    game: str = Match.Game.ACTUAL,
    deck: str | None = None,
) -> Match:
    """Start a practice game against the computer, outside any session."""
    if level not in BOT_LEVELS:
        raise ValidationError(_("Unknown computer strength."))
    if game not in ENGINES:
        raise ValidationError(_("Unknown game."))
    if game == Match.Game.ACTICSX:
        options = {**(options or {}), "decks": [resolve_deck(deck, by), resolve_deck(None, None)]}
    with transaction.atomic():
        return _new_match(
            game=game,
            session=None,
            by=by,
            seat_users=[by, None],
            seat_info=[
                {"name": by.get_username(), "character_id": None, "computer": False},
                {"name": _("Computer"), "character_id": None, "computer": True, "level": level},
            ],
            options=options,
            seed=None,
        )


def _new_match(*, game, session, by, seat_users, seat_info, options, seed) -> Match:
    if game not in ENGINES:
        raise ValidationError(_("Unknown game."))
    engine = ENGINES[game]
    options = _clean_options(game, options)
    seed = secrets.randbits(62) if seed is None else seed
    state = engine.initial_state(options, seed)
    match = Match.objects.create(
        game=game,
        session=session,
        seat0_user=seat_users[0],
        seat1_user=seat_users[1],
        seats=seat_info,
        options=options,
        seed=seed,
        state=engine.to_dict(state),
        created_by=by,
    )
    _computer_turns(match, state, engine)
    return match


def _append_move(match: Match, seat: int, action: dict, *, by_computer: bool) -> None:
    match.version += 1
    MatchMove.objects.create(
        match=match, number=match.version, seat=seat, action=action, by_computer=by_computer
    )


def _computer_plays(match: Match, seat: int) -> bool:
    """A computer seat, or a person's seat whose AUTO switch hands planning to the computer."""
    return match.is_computer(seat) or bool(match.seats[seat].get("auto"))


def _computer_turns(match: Match, state, engine):
    """Let computer seats act until a person must, or the game ends; save the result."""
    steps = 0
    # With nobody left to wait for (AUTO on a practice seat), play one turn per request
    # rather than the whole game at once.
    both_computer = _computer_plays(match, 0) and _computer_plays(match, 1)
    start_turn = state.get("turn") if isinstance(state, dict) else None
    while not engine.is_terminal(state) and steps < MAX_COMPUTER_STEPS:
        if both_computer and start_turn is not None and state.get("turn") != start_turn:
            break
        acted = False
        for seat in (0, 1):
            if not _computer_plays(match, seat) or engine.is_terminal(state):
                continue
            action = _computer_action(match, state, seat)
            if action is None:
                continue
            state = engine.apply(state, action)
            _append_move(match, seat, action, by_computer=True)
            acted = True
            steps += 1
        if not acted:
            break
    _save_state(match, state, engine)
    return state


def _save_state(match: Match, state, engine) -> None:
    match.state = engine.to_dict(state)
    was_finished = match.status == Match.Status.FINISHED
    if engine.is_terminal(state):
        match.status = Match.Status.FINISHED
        match.result = engine.result(state)
        match.finished_at = match.finished_at or timezone.now()
    elif _has_started(match, state):
        match.status = Match.Status.PLAYING
    match.save()
    if match.session_id:
        if match.status == Match.Status.FINISHED and not was_finished:
            _announce_result(match)
        message = {"type": "board.updated", "board_id": match.pk, "version": match.version}
        session_id = match.session_id
        transaction.on_commit(lambda: broadcast(f"session.{session_id}", message))


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
        # Actual counts the pieces left, Actics X the life left.
        "pieces_left": None if winner is None else result.get("pieces_left", [0, 0])[winner],
        "life_left": None if winner is None else (result.get("lives") or [0, 0])[winner],
    }
    timeline_append(
        session=match.session, kind="match_finished", actor=match.created_by, payload=payload
    )


def match_move(*, match_id: int, by, action: dict, version: int) -> Match:
    """Apply one move of the user's own seat; a stale or repeated submit changes nothing."""
    if not isinstance(action, dict):
        raise ValidationError(_("That move is not understood."))
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None:
            raise ValidationError(_("That match does not exist."))
        seat = match.seat_of(by)
        if seat is None:
            raise PermissionDenied(_("You are not playing in this match."))
        if match.session_id and membership_get(user=by, table_id=match.session.table_id) is None:
            raise PermissionDenied(_("You are not playing in this match."))
        # A setup only replaces the seat's own secret choices until both are ready, so it
        # need not wait for the other seat's news; every other move must be current.
        if match.version != version and action.get("type") != "setup":
            raise StaleMove(_("The board changed before your move arrived; here it is again."))
        engine = _engine(match)
        state = engine.from_dict(match.state)
        if action.get("type") == "auto":
            return _set_auto(match, seat, bool(action.get("value")), state, engine)
        # The seat comes from who is logged in, never from the request.
        action = {**action, "player": seat}
        try:
            state = engine.apply(state, action)
        except IllegalAction as error:
            raise ValidationError(_refusal(error)) from None
        _append_move(match, seat, action, by_computer=False)
        _computer_turns(match, state, engine)
    return match


def _refusal(error: IllegalAction) -> str:
    """The engine's reason for refusing a move, in the reader's language."""
    return translate(error.message)


def _set_auto(match: Match, seat: int, value: bool, state, engine) -> Match:
    """Hand a seat's planning to the computer (AUTO) or take it back; not a game move."""
    if match.game != Match.Game.ACTICSX:
        raise ValidationError(_("AUTO is for Actics X."))
    seats = [dict(info) for info in match.seats]
    seats[seat]["auto"] = value
    seats[seat].setdefault("level", "search")
    match.seats = seats
    match.version += 1
    _computer_turns(match, state, engine)
    return match


def match_replay(match: Match):
    """Rebuild a match's state from its seed, options and move log."""
    engine = _engine(match)
    state = engine.initial_state(match.options, match.seed)
    for move in match.moves.order_by("number"):
        state = engine.apply(state, move.action)
    return state


def match_outcome_record(*, match: Match, by, label: str) -> None:
    """Let the GM take a finished match as the outcome of a contest in the story."""
    if match.session_id is None:
        raise ValidationError(_("A practice game decides nothing in a session."))
    membership = membership_get(user=by, table_id=match.session.table_id)
    if membership is None or membership.role != Membership.Role.GM:
        raise PermissionDenied(_("Only the GM can do that."))
    label = (label or "").strip()
    if not label:
        raise ValidationError(_("Say what the match decides."))
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
        if locked.status != Match.Status.FINISHED:
            raise ValidationError(_("The match is not over yet."))
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


READY_MADE_DECKS = ("tide_grove", "ember_steel")


def resolve_deck(choice: str | None, player) -> str | list[str]:
    """Turn a seat's deck choice into what the engine takes: a deck name or a card list."""
    if not choice:
        return READY_MADE_DECKS[0]
    if choice in READY_MADE_DECKS:
        return choice
    if choice.startswith("deck:") and choice[5:].isdigit():
        deck = Deck.objects.filter(pk=int(choice[5:])).first()
        if deck is not None and player is not None and deck.owner_id == player.pk:
            return list(deck.cards)
    raise ValidationError(_("That deck is not one this seat's player can bring."))


def deck_problems(card_ids: list[str]) -> list[str]:
    """Return why a deck breaks the deck rules, in the reader's language (empty if legal)."""
    counts: dict[str, int] = {}
    for card_id in card_ids:
        counts[card_id] = counts.get(card_id, 0) + 1
    problems = []
    if len(card_ids) != acticsx_cards.DECK_SIZE:
        problems.append(
            _("A deck needs exactly %(size)d cards; this one has %(count)d.")
            % {"size": acticsx_cards.DECK_SIZE, "count": len(card_ids)}
        )
    for card_id, count in sorted(counts.items()):
        if card_id not in acticsx_cards.CARDS:
            problems.append(_("There is no card %(card)s in the card set.") % {"card": card_id})
        elif count > acticsx_cards.MAX_COPIES:
            problems.append(
                _("At most %(copies)d copies of a card: %(name)s has %(count)d.")
                % {
                    "copies": acticsx_cards.MAX_COPIES,
                    "name": acticsx_cards.CARDS[card_id]["name"][reader_language()],
                    "count": count,
                }
            )
    # The card module stays the authority on the rules; anything it adds is shown too.
    if not problems:
        problems = acticsx_cards.validate_deck(card_ids)
    return problems


def deck_save(*, owner, name: str, card_ids: list[str]) -> Deck:
    """Save a deck the player built, refused with the reasons if it breaks the rules."""
    name = (name or "").strip()
    if not name:
        raise ValidationError({"name": _("Give the deck a name.")})
    problems = deck_problems(card_ids)
    if problems:
        raise ValidationError(problems)
    deck, _created = Deck.objects.update_or_create(
        owner=owner, name=name[:80], defaults={"cards": sorted(card_ids)}
    )
    return deck
