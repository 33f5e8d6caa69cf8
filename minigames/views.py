"""Match views: start, show one seat's board, take a move. The room's websocket pushes the rest."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from sessions_app.services.access import is_member
from sessions_app.views.access import member_view
from sessions_app.views.common import apply_errors

from . import services
from .acticsx import decks as acticsx_decks
from .acticsx.presenter import card_info
from .acticsx.rules import cards as acticsx_cards
from .forms import DeckForm, MatchForm, PracticeForm
from .messages import reader_language
from .models import Deck, Match
from .registry import GAMES
from .room import board_context, board_template, match_characters


def _viewable(request, match_id: int) -> Match:
    """Seats, and members of the session's table as spectators, may see a match."""
    match = get_object_or_404(Match.objects.select_related("session"), pk=match_id)
    if match.seat_of(request.user) is not None:
        return match
    if match.session_id and is_member(user=request.user, table_id=match.session.table_id):
        return match
    raise Http404


@member_view("POST")
def match_create(request, session, _membership):
    characters = match_characters(session, request.user)
    form = MatchForm(request.POST, characters=characters, user=request.user)
    match = under_way = None
    if form.is_valid():
        try:
            match = services.match_create(
                session=session,
                by=request.user,
                seats=[
                    services.SeatSpec(form.cleaned_data["seat0"]),
                    services.SeatSpec(
                        form.cleaned_data["seat1"],
                        computer=form.cleaned_data["computer"],
                        level=form.cleaned_data["level"],
                    ),
                ],
                options=form.options(),
                game=form.cleaned_data["game"],
                dice_value=request.POST.get("dice_value") or None,
                dice_reservation=request.POST.get("dice_reservation") or None,
            )
        except PermissionDenied as error:
            form.add_error(None, str(error))
        except services.MatchUnderWay as error:
            # Said beside the link to the match under way, not as a field error.
            under_way = error
        except ValidationError as error:
            apply_errors(form, error)
    if match is not None:
        form = MatchForm(characters=characters, user=request.user)
    if not request.htmx:
        if under_way is not None:
            messages.error(request, under_way.message)
            return redirect("match_detail", match_id=under_way.match.pk)
        return redirect("session_room", session_id=session.pk)
    return render(
        request,
        "minigames/_match_form.html",
        {
            "session": session,
            "match_form": form,
            "match_created": match is not None,
            "waiting_names": (
                ", ".join(services.match_waiting_names(match))
                if match is not None and services.match_undealt(match)
                else ""
            ),
            "under_way": under_way,
        },
    )


@login_required
def match_detail(request, match_id: int):
    match = _viewable(request, match_id)
    context, template = _board(match, request.user, request.GET)
    if request.htmx:
        return render(request, template, context)
    return render(request, "minigames/match_page.html", {**context, "board_template": template})


def _board(match, user, params=None, *, refused=None):
    """The context and template of one viewer's board, whichever the game.

    `refused` is the form of a move just refused, for a board that can show it again.
    """
    context = board_context(match, user, params=params, refused=refused)
    return context, board_template(match)


def _action_from_post(match, post) -> dict:
    # AUTO belongs to the match, not to a game's rules: the game's board reads the rest.
    if post.get("type") == "auto":
        return {"type": "auto", "value": post.get("value") == "1"}
    return GAMES[match.game].presenter.action_from_post(post)


@login_required
@require_POST
def match_move(request, match_id: int):
    match = _viewable(request, match_id)
    message = ""
    try:
        version = int(request.POST.get("version", "-1"))
        services.match_move(
            match_id=match.pk,
            by=request.user,
            action=_action_from_post(match, request.POST),
            version=version,
        )
    except (ValueError, ValidationError) as error:
        message = " ".join(getattr(error, "messages", [str(error)]))
    match.refresh_from_db()
    context, template = _board(match, request.user, refused=request.POST if message else None)
    context["board_message"] = message
    if not request.htmx:
        return redirect("match_detail", match_id=match.pk)
    return render(request, template, context)


@login_required
@require_POST
def match_shuffle_in(request, match_id: int):
    """A seated player's browser adds its value to the match's seed (the last one deals)."""
    match = _viewable(request, match_id)
    message = ""
    try:
        services.match_shuffle_in(
            match_id=match.pk, by=request.user, dice_value=request.POST.get("dice_value") or None
        )
    except (PermissionDenied, ValidationError) as error:
        message = " ".join(getattr(error, "messages", [str(error)]))
    if not request.htmx:
        if message:
            messages.error(request, message)
        return redirect("match_detail", match_id=match.pk)
    if not message:
        # The dealt board reaches this page over the socket like every other's, often before
        # this answer: an answer swapped in after it would land on the board it replaced.
        return HttpResponse(status=204)
    match.refresh_from_db()
    context, template = _board(match, request.user)
    context["board_message"] = message
    return render(request, template, context)


@login_required
def practice(request):
    form = PracticeForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            match = services.match_create_practice(
                by=request.user,
                level=form.cleaned_data["level"],
                options=form.options(),
                game=form.cleaned_data["game"],
                dice_value=request.POST.get("dice_value") or None,
                dice_reservation=request.POST.get("dice_reservation") or None,
            )
        except ValidationError as error:
            apply_errors(form, error)
        else:
            return redirect("match_detail", match_id=match.pk)
    matches = Match.objects.filter(session__isnull=True, seat0_user=request.user)[:10]
    return render(request, "minigames/practice.html", {"form": form, "matches": matches})


@login_required
@require_POST
def match_outcome(request, match_id: int):
    match = _viewable(request, match_id)
    message = ""
    try:
        services.match_outcome_record(
            match=match, by=request.user, label=request.POST.get("label", "")
        )
    except ValidationError as error:
        message = " ".join(error.messages)
    if not request.htmx:
        return redirect("session_room", session_id=match.session_id)
    return HttpResponse(message or gettext("Recorded in the timeline."))


def _deck_cards(post) -> list[str]:
    """Read the builder's per-card counts (0, 1, 2…) into a list of card ids."""
    cards = []
    for card_id in acticsx_cards.CARDS:
        raw = post.get(f"count_{card_id}", "") or "0"
        count = int(raw) if raw.isdecimal() else 0
        cards.extend([card_id] * min(count, 9))
    return cards


@login_required
def decks(request):
    """Build, check and save Actics X decks."""
    form = DeckForm(request.POST or None)
    problems: list[str] = []
    if request.method == "POST" and form.is_valid():
        try:
            deck = acticsx_decks.deck_save(
                owner=request.user,
                name=form.cleaned_data["name"],
                card_ids=_deck_cards(request.POST),
            )
        except ValidationError as error:
            problems = error.messages
        else:
            messages.success(request, gettext("The deck %(name)s was saved.") % {"name": deck.name})
            return redirect("decks")
    counts = {}
    if request.method == "POST":
        for card_id in _deck_cards(request.POST):
            counts[card_id] = counts.get(card_id, 0) + 1
    cards = [
        {**card_info(card_id), "count": counts.get(card_id, 0)} for card_id in acticsx_cards.CARDS
    ]
    return render(
        request,
        "minigames/decks.html",
        {
            "form": form,
            "cards": cards,
            "problems": problems,
            "total": sum(counts.values()),
            "decks": Deck.objects.filter(owner=request.user),
            "ready_made": [
                (
                    acticsx_cards.DECKS[name]["name"][reader_language()],
                    [card_info(c) for c in acticsx_cards.deck_list(name)],
                )
                for name in acticsx_decks.READY_MADE_DECKS
            ],
        },
        status=400 if problems else 200,
    )


@login_required
@require_POST
def deck_check(request):
    """Count the deck being built and say what breaks the rules, as the player edits it."""
    cards = _deck_cards(request.POST)
    return render(
        request,
        "minigames/decks.html#deck-status",
        {"total": len(cards), "problems": acticsx_decks.deck_problems(cards) if cards else []},
    )


@login_required
@require_POST
def practice_dice_reserve(request):
    """Commit a practice game's key right before the player's browser draws its value
    (static/js/dice-value.js); the browser keeps the commitment it was shown."""
    dice = services.practice_dice_reserve(by=request.user)
    return JsonResponse({"reservation": dice.pk, "batch": f"practice:{dice.pk}", "root": dice.root})


def _own_practice(request, match_id: int) -> Match:
    match = get_object_or_404(Match, pk=match_id, session__isnull=True)
    if match.seat0_user_id != request.user.pk:
        raise Http404
    return match


@login_required
def practice_verify(request, match_id: int):
    """A finished practice game's seed, checked in the player's browser like a roll."""
    match = _own_practice(request, match_id)
    proof = services.practice_proof(match)
    if proof is None:
        raise Http404
    data = {**proof, "draws": [[1, str(proof["draws"][0][1])]], "faces": [str(proof["faces"][0])]}
    data["shown"] = None
    return render(
        request,
        "sessions_app/dice_verify.html",
        {
            "practice": match,
            "who": " – ".join(seat["name"] for seat in match.seats),
            "proof": proof,
            "commit": {"payload": {"root": proof["root"], "size": proof["size"]}},
            "seed": match.seed,
            "dice_data": data,
            "verifier_url": "verify/verify_dice.py",
        },
    )


@login_required
def practice_proof(request, match_id: int):
    """The practice game's commitment and seed proof as a log the offline verifier reads."""
    match = _own_practice(request, match_id)
    log = services.practice_proof_log(match)
    if log is None:
        raise Http404
    response = JsonResponse(log)
    response["Content-Disposition"] = f'attachment; filename="practice-{match.pk}-proof.json"'
    return response
