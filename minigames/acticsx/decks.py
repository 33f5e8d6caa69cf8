"""Actics X decks: the ready-made ones, the ones players build and save, and which a seat
may bring to a match."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from minigames.messages import reader_language
from minigames.models import Deck

from .rules import cards as card_data

READY_MADE_DECKS = ("tide_grove", "ember_steel")


def deck_choices(user) -> list[tuple[str, str]]:
    """The ready-made decks, then the decks this user saved."""
    choices = [
        ("tide_grove", gettext_lazy("Tide & Grove (ready-made)")),
        ("ember_steel", gettext_lazy("Ember & Steel (ready-made)")),
    ]
    if user is not None and user.is_authenticated:
        choices += [(f"deck:{deck.pk}", deck.name) for deck in Deck.objects.filter(owner=user)]
    return choices


def resolve_deck(choice: str | None, player) -> str | list[str]:
    """Turn a seat's deck choice into what the engine takes: a deck name or a card list."""
    if not choice:
        return READY_MADE_DECKS[0]
    if choice in READY_MADE_DECKS:
        return choice
    if choice.startswith("deck:") and choice[5:].isdecimal():
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
    if len(card_ids) != card_data.DECK_SIZE:
        problems.append(
            _("A deck needs exactly %(size)d cards; this one has %(count)d.")
            % {"size": card_data.DECK_SIZE, "count": len(card_ids)}
        )
    for card_id, count in sorted(counts.items()):
        if card_id not in card_data.CARDS:
            problems.append(_("There is no card %(card)s in the card set.") % {"card": card_id})
        elif count > card_data.MAX_COPIES:
            problems.append(
                _("At most %(copies)d copies of a card: %(name)s has %(count)d.")
                % {
                    "copies": card_data.MAX_COPIES,
                    "name": card_data.card_name(card_id, reader_language()),
                    "count": count,
                }
            )
    # The card module stays the authority on the rules; anything it adds is shown too.
    if not problems:
        problems = card_data.validate_deck(card_ids)
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
