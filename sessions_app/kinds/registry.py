"""The registry of timeline event kinds: each kind declared once, whichever app appends it.

A kind names the shape of its payload (checked when an event is appended: a wrong payload
raises and nothing is written), its template (one partial, shown in the room, the review
and the HTML export; its words as plain text are the event's line in the Markdown export),
the live panels of the room it changes, and where the review files it. Apps that build on
sessions_app (the minigames) register their own kinds when they are ready: sessions_app
never imports them.
"""

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from .shapes import PayloadError, shape_check

_NAME = re.compile(r"^[a-z][a-z0-9_]{0,39}$")


class Panel(StrEnum):
    """A live panel of the session room that an event may change."""

    STAGE = "stage"  # phase, scene, who is on stage, stage requests, the pre-play checklist
    CHECKS = "checks"  # the open checks each member may roll or watch
    HANDOUTS = "handouts"  # the handouts a player holds, and which the GM has revealed
    CAST = "cast"  # the characters taking part, and the forms that choose among them
    MATCHES = "matches"  # the minigame boards
    # The standing pictures: who is on stage, with the expression they last spoke with.
    STANDING = "standing"
    # Each character's resources (HP, MP…) with the ± controls of those who may change them.
    CHARACTERS = "characters"
    # The GM-made chat tabs: the timeline's tab bar, the chat form's channels, the GM's list.
    CHAT_TABS = "chat_tabs"
    # The after-play page: the award form or the awards, the cleanup checklist, closing.
    AFTERPLAY = "afterplay"
    # The running scene's music, which every browser of the room loops (and the GM's
    # sound controls).
    AUDIO = "audio"
    # The GM's inbox: every request that waits for a GM's answer (players have none).
    INBOX = "inbox"


class Topic(StrEnum):
    """A filter of the review ("checks only", "chat only") that lets an event through."""

    CHECKS = "checks"
    CHAT = "chat"


class LogPlace(StrEnum):
    """Where the review and the exports file an event among the phases and scenes."""

    SECTION = "section"  # in the section running when it was appended
    BOUNDARY = "boundary"  # it opens or closes a phase or a scene: a filtered review omits it
    AFTER_SCENE = "after_scene"  # appended right after its scene ended, but part of that scene


class UnknownKind(LookupError):
    """An event kind that nobody registered."""


@dataclass(frozen=True)
class Kind:
    """One kind of timeline event.

    `payload` is a TypedDict (or a union of TypedDicts); `samples` are payloads of that
    shape, one for each way the template shows the kind, which the tests render in every
    language and on every page. `template` defaults to ``sessions_app/kinds/<name>.html``.
    """

    name: str
    payload: Any
    samples: tuple[dict, ...]
    template: str = ""
    panels: frozenset[Panel] = field(default_factory=frozenset)
    # Whether an event of this kind changed its panels, when only some of its payloads do
    # (a chat line said in character moves the standing pictures; a line out of it does not).
    panels_when: Callable[[dict], bool] | None = None
    topic: Topic | None = None
    place: LogPlace = LogPlace.SECTION
    # A line of the table's bookkeeping (a request, an allowance, an entry, an exit): the
    # Main channel folds a run of them into one line, the Information channel keeps them.
    folds: bool = False
    # The GM's line shows more than the players' (a control, a name the players may not
    # know yet): the room renders it for the GM apart. Otherwise the players' rendering
    # goes to the GM too. A kind with `redact` always shows the GM more.
    gm_sees_more: bool = False
    # A record kept for verification (dice commitments, reserved and skipped keys), not a
    # line of play: the room shows it on the Information tab only.
    record: bool = False
    # What a reader other than the GM may see of a payload that holds a hidden resource's
    # numbers: called with the payload and the reader's user id (None for a rendering
    # shared by several readers, a spectator or nobody in particular).
    redact: Callable[[dict, int | None], dict] | None = None
    # The users who see more of a payload than the other players (the owners of the hidden
    # resources it moved): the room renders it once more for each of them.
    owners: Callable[[dict], Iterable[int]] | None = None
    # What the other players may know of something hidden from them (that a secret roll
    # happened): its line goes to everyone who may not see the thing itself, so it is public
    # in effect and carries no Private tag, whatever its audience list says.
    notice: bool = False

    def __post_init__(self):
        if not _NAME.match(self.name):
            raise ValueError(f"{self.name!r}: a kind is lowercase letters, digits and _")
        if not self.template:
            object.__setattr__(self, "template", f"sessions_app/kinds/{self.name}.html")
        object.__setattr__(self, "panels", frozenset(Panel(panel) for panel in self.panels))
        if not self.samples:
            raise ValueError(f"{self.name}: declare at least one sample payload")
        for sample in self.samples:
            shape_check(self.payload, sample, f"{self.name} sample")


_KINDS: dict[str, Kind] = {}


def kind_register(*kinds: Kind) -> None:
    """Add kinds to the registry; a name is registered once."""
    for kind in kinds:
        known = _KINDS.get(kind.name)
        if known is not None and known is not kind:
            raise ValueError(f"The event kind {kind.name!r} is registered already.")
        _KINDS[kind.name] = kind


def kind_get(name: str) -> Kind:
    """Return the registered kind, or raise UnknownKind."""
    try:
        return _KINDS[name]
    except KeyError:
        raise UnknownKind(f"No event kind {name!r} is registered.") from None


def kind_find(name: str) -> Kind | None:
    """Return the registered kind, or None for a kind only an old or imported log holds."""
    return _KINDS.get(name)


def kinds_all() -> list[Kind]:
    """Every registered kind, by name."""
    return [_KINDS[name] for name in sorted(_KINDS)]


def payload_check(kind: str, payload: dict) -> None:
    """Raise UnknownKind or PayloadError unless `payload` has the shape `kind` declares."""
    shape_check(kind_get(kind).payload, payload, f"{kind} payload")


def payload_for(name: str, payload: dict, *, reader_id: int | None, reader_is_gm: bool) -> dict:
    """The payload as this reader may see it: whole for the GM, without what a hidden
    resource keeps from everyone but its owner for the others."""
    kind = _KINDS.get(name)
    if reader_is_gm or kind is None or kind.redact is None or not isinstance(payload, dict):
        return payload
    return kind.redact(payload, reader_id)


@dataclass(frozen=True)
class EventView:
    """What a timeline line needs of its kind, read once per line: the kind's template
    (empty for a kind only an imported log knows), its marks, and the payload as this
    reader may see it."""

    template: str
    folds: bool
    record: bool
    notice: bool
    payload: dict


def event_view(name: str, payload: dict, *, reader_id: int | None, reader_is_gm: bool) -> EventView:
    """How one event of kind `name` shows to one reader."""
    kind = _KINDS.get(name)
    return EventView(
        template="" if kind is None else kind.template,
        folds=kind is not None and kind.folds,
        record=kind is not None and kind.record,
        notice=kind is not None and kind.notice,
        payload=payload_for(name, payload, reader_id=reader_id, reader_is_gm=reader_is_gm),
    )


@dataclass(frozen=True)
class EventDelivery:
    """Who sees what of one event, read from its kind once: whether the GM sees more than
    the players, the owners of what it keeps from the others, and the room's panels it
    changed."""

    gm_sees_more: bool
    owners: frozenset[int]
    panels: frozenset["Panel"]


def event_delivery(name: str, payload: dict) -> EventDelivery:
    """How an event of kind `name` with `payload` is carried to the room."""
    kind = _KINDS.get(name)
    return EventDelivery(
        # A kind nobody registered is rendered for each side apart, to be safe.
        gm_sees_more=kind is None or kind.gm_sees_more or kind.redact is not None,
        owners=payload_owners(name, payload),
        panels=event_panels(kind, payload),
    )


def payload_owners(name: str, payload: dict) -> frozenset[int]:
    """The users who see more of this payload than the other players."""
    kind = _KINDS.get(name)
    if kind is None or kind.owners is None or not isinstance(payload, dict):
        return frozenset()
    return frozenset(kind.owners(payload))


def event_panels(kind: Kind | None, payload: dict) -> frozenset[Panel]:
    """The panels one event of this kind and payload changed."""
    if kind is None:
        return frozenset()
    when = getattr(kind, "panels_when", None)
    if when is not None and not when(payload):
        return frozenset()
    return kind.panels


def panels_changed(kinds: Iterable[str]) -> frozenset[Panel]:
    """The panels that events of these kinds may have changed."""
    panels: set[Panel] = set()
    for name in kinds:
        kind = _KINDS.get(name)
        if kind is not None:
            panels |= kind.panels
    return frozenset(panels)


def topic_of(name: str) -> Topic | None:
    kind = _KINDS.get(name)
    return None if kind is None else kind.topic


def kind_folds(name: str) -> bool:
    kind = _KINDS.get(name)
    return kind is not None and kind.folds


def log_place(name: str) -> LogPlace:
    kind = _KINDS.get(name)
    return LogPlace.SECTION if kind is None else kind.place


__all__ = [
    "EventDelivery",
    "EventView",
    "Kind",
    "LogPlace",
    "Panel",
    "PayloadError",
    "Topic",
    "UnknownKind",
    "event_delivery",
    "event_panels",
    "event_view",
    "kind_find",
    "kind_folds",
    "kind_get",
    "kind_register",
    "kinds_all",
    "log_place",
    "panels_changed",
    "payload_check",
    "payload_for",
    "payload_owners",
    "topic_of",
]
