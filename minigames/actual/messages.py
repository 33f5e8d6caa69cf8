"""The Actual engine's refusals, marked for translation.

The engine stays free of Django; the services translate its messages on the way out, so a
Japanese table reads why a move was refused in Japanese.
"""

from django.utils.translation import gettext_noop

ENGINE_MESSAGES = [
    gettext_noop("A Move card moves a piece one square up, down, left or right."),
    gettext_noop("A deck holds exactly 20 cards."),
    gettext_noop("A deck may hold at most one Counter."),
    gettext_noop("Answer the Counter question with yes or no."),
    gettext_noop("Card counts must be whole numbers of at least 0."),
    gettext_noop("Choose at least one card to discard."),
    gettext_noop("Choose one of your own pieces on the board."),
    gettext_noop("Columns run from 0 to 4."),
    gettext_noop("Decide whether to use your Counter first."),
    gettext_noop("Diagonal attacks are not allowed in this match."),
    gettext_noop("Each card can be discarded only once."),
    gettext_noop("Each piece needs a life of at least 1."),
    gettext_noop("Give each piece a column and a life."),
    gettext_noop("It is not your turn."),
    gettext_noop("Lives must add up to 5."),
    gettext_noop("Prepare between 1 and 5 pieces."),
    gettext_noop("That square is occupied."),
    gettext_noop("That square is off the board."),
    gettext_noop("The game has already started."),
    gettext_noop("The game has not started yet."),
    gettext_noop("The game is over."),
    gettext_noop("There is no attack to counter."),
    gettext_noop("There is no piece on that square to attack."),
    gettext_noop("Two pieces cannot share a square."),
    gettext_noop("Unknown action."),
    gettext_noop("Waiting for the defender to decide on a Counter."),
    gettext_noop("You can only attack an adjacent square."),
    gettext_noop("You cannot attack your own piece."),
    gettext_noop("You do not hold that card."),
    gettext_noop("You have used cards this turn, so you cannot discard."),
]
