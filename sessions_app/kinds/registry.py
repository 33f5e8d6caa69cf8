"""The registry of timeline event kinds: each kind declared once, whichever app appends it.

A kind names the shape of its payload (checked when an event is appended: a wrong payload
raises and nothing is written), its template (one partial, shown in the room, the review
and the HTML export; its words as plain text are the event's line in the Markdown export),
the live panels of the room it changes, and where the review files it. Apps that build on
sessions_app (the minigames) register their own kinds when they are ready: sessions_app
never imports them.
"""

import re
from collections.abc import Iterable
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
    # Each character's resources (HP, MP…) with the ± controls of those who may change them.
    CHARACTERS = "characters"


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
    topic: Topic | None = None
    place: LogPlace = LogPlace.SECTION
    # The actor's own line shows more than everyone else's (a void control on their own
    # roll): the room renders it once more for them.
    actor_sees_more: bool = False

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


def log_place(name: str) -> LogPlace:
    kind = _KINDS.get(name)
    return LogPlace.SECTION if kind is None else kind.place


__all__ = [
    "Kind",
    "LogPlace",
    "Panel",
    "PayloadError",
    "Topic",
    "UnknownKind",
    "kind_find",
    "kind_get",
    "kind_register",
    "kinds_all",
    "log_place",
    "panels_changed",
    "payload_check",
    "topic_of",
]
