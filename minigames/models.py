"""Matches of the in-fiction minigames, shared by every game: seats, state, versioned moves."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from sessions_app.models import AppendOnlyModel


class Match(models.Model):
    """One game of Actual (or another minigame), in a session or as practice.

    The engine's whole state is stored as JSON; ``version`` grows by one with every applied
    move so a stale or repeated submit can be recognised and refused.
    """

    class Game(models.TextChoices):
        ACTUAL = "actual", _("Actual")
        ACTICSX = "acticsx", _("Actics X")

    class Status(models.TextChoices):
        # Before the deal: a seated player's browser has yet to add its value to the seed.
        WAITING = "waiting", _("Waiting for the shuffle")
        SETUP = "setup", _("Preparing")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")

    game = models.CharField(_("game"), max_length=10, choices=Game.choices)
    session = models.ForeignKey(
        "sessions_app.GameSession",
        verbose_name=_("session"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="matches",
        help_text=_("Empty for a practice game outside any session."),
    )
    seat0_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("seat 1 player"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    seat1_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("seat 2 player"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        help_text=_("Empty when the computer plays this seat."),
    )
    seats = models.JSONField(
        _("seats"),
        default=list,
        help_text=_("Per seat: the character's name and id, and the computer's strength."),
    )
    options = models.JSONField(_("options"), default=dict, blank=True)
    seed = models.BigIntegerField(_("seed"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.SETUP
    )
    state = models.JSONField(_("state"))
    shuffle = models.JSONField(
        _("shuffle"),
        default=dict,
        blank=True,
        help_text=_(
            "Where the seed's key sits and the values its players' browsers added; "
            "while waiting, whose value is still missing."
        ),
    )
    version = models.PositiveIntegerField(_("version"), default=0)
    result = models.JSONField(_("result"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("started by"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        names = " – ".join(seat.get("name", "?") for seat in self.seats)
        return f"{self.get_game_display()}: {names}"

    def seat_of(self, user) -> int | None:
        """Return the seat this user plays, or None."""
        if user is None or not user.is_authenticated:
            return None
        for seat, seat_user_id in enumerate((self.seat0_user_id, self.seat1_user_id)):
            if seat_user_id == user.pk:
                return seat
        return None

    def is_computer(self, seat: int) -> bool:
        return (self.seat0_user_id, self.seat1_user_id)[seat] is None


class MatchMove(AppendOnlyModel):
    """One applied action, in order: the log a match can be replayed from."""

    match = models.ForeignKey(
        Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="moves"
    )
    number = models.PositiveIntegerField(_("number"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    action = models.JSONField(_("action"))
    by_computer = models.BooleanField(_("by the computer"), default=False)
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("move")
        verbose_name_plural = _("moves")
        ordering = ["match_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="match_move_number_unique"),
            models.CheckConstraint(condition=Q(seat__in=[0, 1]), name="match_move_seat_0_or_1"),
        ]

    def __str__(self) -> str:
        return f"{self.match_id}#{self.number} {self.action.get('type')}"


class Deck(models.Model):
    """An Actics X deck a player built and saved, to bring to matches."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("owner"),
        on_delete=models.CASCADE,
        related_name="acticsx_decks",
    )
    name = models.CharField(_("name"), max_length=80)
    cards = models.JSONField(_("cards"), help_text=_("The 20 card ids of the deck."))
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("deck")
        verbose_name_plural = _("decks")
        ordering = ["owner_id", "name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["owner", "name"], name="deck_name_once_per_owner"),
        ]

    def __str__(self) -> str:
        return self.name


class PracticeDice(models.Model):
    """The committed key of one practice game's seed: a batch of two keys of its own.

    A practice game belongs to no session, so it cannot draw from a session's batches; its
    commitment is shown to its player before their browser draws its value, and the key
    once the game is over.
    """

    # Two keys, the fewest a Merkle tree holds; the seed uses the first.
    SIZE = 2

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        related_name="+",
    )
    master = models.BinaryField(_("master secret"))
    root = models.CharField(_("commitment"), max_length=64)
    match = models.OneToOneField(
        Match,
        verbose_name=_("match"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="practice_dice",
        help_text=_("Empty until a game is started with this key."),
    )
    value = models.CharField(_("player's value"), max_length=128, blank=True)
    value_source = models.CharField(_("value from"), max_length=10, blank=True)
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("practice dice")
        verbose_name_plural = _("practice dice")

    def __str__(self) -> str:
        return f"{self.pk}: {self.root[:16]}"
