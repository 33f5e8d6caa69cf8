"""The verification page of a roll: the published proof, recomputed in the reader's browser."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, JsonResponse
from django.shortcuts import render

from ..kinds.registry import payload_for
from ..selectors.access import is_gm
from ..selectors.timeline import visible_events
from ..services.dice import dice_reserve
from .access import member_view


def _who_rolled(payload: dict) -> str:
    # A check or a roll-box roll names its character or roller; a match, its two seats; a
    # scene's gains, nobody in particular.
    names = payload.get("names") or []
    return payload.get("character") or payload.get("roller") or " – ".join(names)


def _faces_text(faces) -> list[str]:
    # As text: a match's seed does not fit a JavaScript number.
    return [str(face) for face in faces]


@member_view("GET")
def dice_verify(request, session, membership, seq: int):
    """Show one event's dice proof, if the reader may see that event and it has one.

    The page holds only what the event already showed its reader, plus the batch's public
    commitment; the script recomputes everything and the server's arithmetic is not used.
    """
    events = visible_events(session_id=session.pk, user=request.user, is_gm=is_gm(membership))
    event = events.filter(seq=seq).first()
    if event is not None:
        # A hidden resource's roll shows its key to its owner and the GM alone.
        event.payload = payload_for(
            event.kind, event.payload, reader_id=request.user.pk, reader_is_gm=is_gm(membership)
        )
    proof = (event.payload.get("proof") if event is not None else None) or {}
    if "key" not in proof:
        raise Http404
    commit = (
        events.filter(kind="dice_committed", payload__epoch=proof["epoch"]).order_by("seq").first()
    )
    if commit is None:
        raise Http404
    shown = event.payload.get("faces")
    data = {
        "session": commit.payload["session"],
        "epoch": proof["epoch"],
        "size": commit.payload["size"],
        "root": commit.payload["root"],
        "index": proof["index"],
        "key": proof["key"],
        "path": proof["path"],
        "value": proof["value"],
        "values": proof.get("values") or [],
        "draws": [[count, str(sides)] for count, sides in proof["draws"]],
        "faces": _faces_text(proof["faces"]),
        "shown": None if shown is None else _faces_text(shown),
    }
    seed = proof["faces"][0] - 1 if event.kind == "match_finished" and proof["faces"] else None
    return render(
        request,
        "sessions_app/dice_verify.html",
        {
            "session": session,
            "event": event,
            "p": event.payload,
            "who": _who_rolled(event.payload),
            "proof": proof,
            "commit": commit,
            "committed_first": commit.seq < event.seq,
            "seed": seed,
            "dice_data": data,
            # A match's seed: whose browser added which value (a dict's own .values would
            # shadow the key in a template).
            "seat_values": list(
                zip(proof.get("value_by") or [], proof.get("values") or [], strict=False)
            ),
            "verifier_url": "verify/verify_dice.py",
        },
    )


@member_view("POST")
def dice_key_reserve(request, session, _membership):
    """Set the session's next roll key aside for this user's next roll; the roll widget asks
    right before its browser draws the roll's value (static/js/dice-value.js)."""
    try:
        reservation = dice_reserve(session=session, by=request.user)
    except (PermissionDenied, ValidationError) as refusal:
        return JsonResponse(
            {"error": " ".join(getattr(refusal, "messages", [str(refusal)]))}, status=400
        )
    return JsonResponse(
        {"reservation": reservation.pk, "epoch": reservation.epoch, "index": reservation.index}
    )
