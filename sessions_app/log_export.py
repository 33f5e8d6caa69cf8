"""The session log read back: the review's phase → scene grouping and the exports.

Every function here reads; none writes. What a user gets is exactly what
``visible_events`` lets them see, except the GM's JSON export, which carries
every event of the session (the players' redacted twins too) so that importing it
rebuilds the whole timeline. Events are read a chunk at a time (their audiences with
them), never one query per event; the exports stream, and the review shows one page.
"""

from __future__ import annotations

import datetime
import html
import itertools
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.template import engines
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.html import strip_tags
from django.utils.text import slugify
from django.utils.translation import gettext as _

from sessions_app.kinds.registry import LogPlace, Topic, log_place, payload_for, topic_of
from sessions_app.selectors.access import is_gm
from sessions_app.selectors.tables import table_members
from sessions_app.selectors.timeline import visible_events
from sessions_app.services.access import require_member
from sessions_app.services.images import image_to_text
from sessions_app.services.logs import FORMAT, FORMAT_VERSION

from .models import (
    MAIN_PLAY_PHASES,
    Character,
    CharacterFace,
    GameSession,
    ImportedLog,
    Membership,
    Phase,
    TimelineEvent,
)

FILTERS = ("all", *Topic)

# A log may hold 50,000 events (an import): they are read and rendered this many at a time,
# and the outline (what grouping and filtering need) a larger chunk at a time.
CHUNK = 500
OUTLINE_CHUNK = 5000
# The review shows this many events a page.
REVIEW_PAGE_EVENTS = 200

# Payload keys that name a character, at any depth (contest sides nest theirs).
_CHARACTER_KEYS = frozenset(
    {
        "character",
        "scene_player",
        "action_character",
        "reaction_character",
        "winner_character",
        "winner_name",
        "loser_name",
    }
)
_CHARACTER_LISTS = frozenset({"on_stage", "names", "characters"})

EVENT_TEMPLATE = "sessions_app/_event_body.html"


@dataclass
class LogViewer:
    """Who is reading the log, and how much of it they may see."""

    session: GameSession
    user: object
    is_gm: bool
    imported: ImportedLog | None

    @property
    def complete(self) -> bool:
        if self.imported is not None and not self.imported.complete:
            return False
        return self.is_gm

    @property
    def view_of(self) -> str:
        if self.complete:
            return ""
        if self.is_gm and self.imported is not None:
            return self.imported.view_of
        return self.user.get_username()


@dataclass
class LogSection:
    """A scene, or the stretch of a phase between scenes, with its events."""

    phase: str
    scene: bool = False
    number: int | None = None
    title: str = ""
    place: str = ""
    purpose: str = ""
    scene_player: str = ""
    master: bool = False
    continuous: bool = False
    continued: bool = False
    events: list = field(default_factory=list)
    open: bool = False

    @property
    def whole_phase(self) -> bool:
        """Pre-play and after-play have no scenes: their one section is the phase itself."""
        return not self.scene and self.phase not in MAIN_PLAY_PHASES

    @property
    def heading(self) -> str:
        return section_heading(self)

    @property
    def facts(self) -> list[str]:
        return section_facts(self)


@dataclass
class LogPhase:
    phase: str
    sections: list = field(default_factory=list)

    @property
    def label(self) -> str:
        try:
            return str(Phase(self.phase).label)
        except ValueError:
            return self.phase


def log_viewer(*, session: GameSession, user, membership: Membership | None = None) -> LogViewer:
    """Describe what `user` may see of the session's log (they must be a member)."""
    if membership is None:
        membership = require_member(
            user=user,
            table_id=session.table_id,
            message=_("Only members of this table can read its sessions."),
        )
    imported = ImportedLog.objects.filter(session_id=session.pk).first()
    return LogViewer(
        session=session,
        user=user,
        is_gm=is_gm(membership),
        imported=imported,
    )


def _audience_names(event_ids: list[int]) -> dict[int, list[str]]:
    """Map event id → usernames of its audience, for these events in one query."""
    rows = (
        TimelineEvent.audience.through.objects.filter(timelineevent_id__in=event_ids)
        .order_by("timelineevent_id", "user__username")
        .values_list("timelineevent_id", "user__username")
    )
    names: dict[int, list[str]] = {}
    for event_id, username in rows:
        names.setdefault(event_id, []).append(username)
    return names


def _events_query(viewer: LogViewer, *, everything: bool = False):
    if everything and viewer.is_gm:
        return (
            TimelineEvent.objects.filter(session_id=viewer.session.pk)
            .select_related("actor")
            .order_by("seq")
        )
    return visible_events(session_id=viewer.session.pk, user=viewer.user, is_gm=viewer.is_gm)


def _prepared(viewer: LogViewer, events: list[TimelineEvent], people: dict) -> list:
    audiences = _audience_names([event.pk for event in events])
    User = get_user_model()
    for event in events:
        named = people.get(str(event.seq))
        if named is not None:
            if event.actor_id is None and named.get("actor"):
                event.actor = User(username=named["actor"])
            event.audience_names = list(named.get("audience") or [])
        else:
            event.audience_names = audiences.get(event.pk, [])
        if not isinstance(event.payload, dict):
            event.payload = {}
    return events


def log_event_chunks(
    viewer: LogViewer, *, everything: bool = False, seqs: list[int] | None = None
) -> Iterator[list[TimelineEvent]]:
    """Yield the events the viewer may see (only those numbered `seqs`, if given), in
    order and CHUNK at a time, each with `audience_names`.

    An imported event has no actor account here: it gets an unsaved user carrying the
    name from the file, so templates show it as they show anyone else.
    """
    query = _events_query(viewer, everything=everything)
    people = viewer.imported.event_people if viewer.imported is not None else {}
    if seqs is not None:
        for start in range(0, len(seqs), CHUNK):
            chunk = list(query.filter(seq__in=seqs[start : start + CHUNK]))
            if chunk:
                yield _prepared(viewer, chunk, people)
        return
    last = 0
    while chunk := list(query.filter(seq__gt=last)[:CHUNK]):
        yield _prepared(viewer, chunk, people)
        last = chunk[-1].seq


def log_events(viewer: LogViewer, *, everything: bool = False) -> list[TimelineEvent]:
    """Return the events the viewer may see, in order, each with `audience_names`."""
    return list(itertools.chain.from_iterable(log_event_chunks(viewer, everything=everything)))


@dataclass(frozen=True)
class OutlineLine:
    """An event as the outline reads it: enough to file and filter it, nothing to show."""

    seq: int
    kind: str
    payload: dict


def _outline_lines(viewer: LogViewer) -> Iterator[OutlineLine]:
    query = _events_query(viewer).values_list("seq", "kind", "payload")
    last = 0
    while rows := list(query.filter(seq__gt=last)[:OUTLINE_CHUNK]):
        for seq, kind, payload in rows:
            yield OutlineLine(seq, kind, payload if isinstance(payload, dict) else {})
        last = rows[-1][0]


def log_outline(viewer: LogViewer, *, show: str = "all", character: str = "") -> list[LogPhase]:
    """The viewer's log grouped into phases and scenes, each section holding OutlineLines:
    read without rendering anything, so a long log costs little until a part is shown."""
    return group_events(_outline_lines(viewer), show=show, character=character)


def outline_seqs(phases: list[LogPhase]) -> list[int]:
    """Every event of the outline, in timeline order (the order its sections hold them)."""
    return [line.seq for phase in phases for section in phase.sections for line in section.events]


def outline_filled(
    viewer: LogViewer, phases: list[LogPhase]
) -> Iterator[tuple[LogPhase, LogSection, Iterator[list[TimelineEvent]]]]:
    """Walk the outline's sections, each with its events ready to render, CHUNK at a time
    and read as they are walked: a section's chunks must be used before the next one."""
    events = itertools.chain.from_iterable(log_event_chunks(viewer, seqs=outline_seqs(phases)))

    def taken(count: int) -> Iterator[list[TimelineEvent]]:
        while count > 0:
            part = list(itertools.islice(events, min(count, CHUNK)))
            if not part:
                return
            count -= len(part)
            yield part

    for phase in phases:
        for section in phase.sections:
            yield phase, section, taken(len(section.events))


def _mentions(value, name: str, depth: int = 0) -> bool:
    if depth > 3:
        return False
    if isinstance(value, dict):
        for key, item in value.items():
            if key in _CHARACTER_KEYS and item == name:
                return True
            if key in _CHARACTER_LISTS and isinstance(item, list) and name in item:
                return True
            if isinstance(item, dict | list) and _mentions(item, name, depth + 1):
                return True
    elif isinstance(value, list):
        return any(isinstance(item, dict) and _mentions(item, name, depth + 1) for item in value)
    return False


def event_matches(event: TimelineEvent, *, show: str = "all", character: str = "") -> bool:
    """Tell whether an event passes the review's filters."""
    if show in Topic and topic_of(event.kind) != show:
        return False
    return not character or _mentions(event.payload, character)


def _scene_section(phase: str, payload: dict) -> LogSection:
    number = payload.get("number")
    return LogSection(
        phase=phase,
        scene=True,
        number=number if isinstance(number, int) else None,
        title=str(payload.get("title") or ""),
        place=str(payload.get("place") or ""),
        purpose=str(payload.get("purpose") or ""),
        scene_player=str(payload.get("scene_player") or ""),
        master=bool(payload.get("master")),
        continuous=bool(payload.get("continuous")),
    )


def group_events(events, *, show: str = "all", character: str = "") -> list[LogPhase]:
    """Walk the events in order into phases and scenes.

    Events before the first scene of a phase (and between scenes) form that phase's
    "between scenes" section. A continuous scene (play without scenes) runs on across
    phase changes: each phase gets its own part of it.
    """
    grouping = _Grouping(show=show, character=character)
    for event in events:
        grouping.add(event)
    return grouping.phases_done()


class _Grouping:
    """Where the walk of group_events stands: the phases so far, the section that takes the
    next event, and the scene that is running or has just ended."""

    def __init__(self, *, show: str, character: str) -> None:
        self.show = show
        self.character = character
        self.filtering = show != "all" or bool(character)
        self.phases: list[LogPhase] = []
        self.phase: LogPhase | None = None
        self.section: LogSection | None = None
        # A continuous scene runs on into the next phase.
        self.running: LogSection | None = None
        # What is written right after a scene ends may still belong to it.
        self.ended: LogSection | None = None
        # A phase change opens the phase's first section, whichever kind that turns out to be.
        self.opening: TimelineEvent | None = None

    def add(self, event) -> None:
        if self._belongs_to_ended(event):
            # The GM's backstage note and the after-scene rule belong to the scene just
            # ended, though they are written right after it.
            if self._keep(event):
                self.ended.events.append(event)
            return
        self.ended = None
        if event.kind == "phase_changed":
            self._phase_change(str(event.payload.get("to") or ""))
            if self.section is None and self._keep(event):
                # Held until the phase's first section is known.
                self.opening = event
                return
        elif event.kind == "scene_started":
            self._scene_start(event.payload)
        self._file(event)

    def phases_done(self) -> list[LogPhase]:
        self._opening_alone()
        phases = self.phases
        if self.filtering:
            # A filter can empty sections, and with them whole phases: those are not shown.
            for each in phases:
                each.sections = [part for part in each.sections if part.events]
            phases = [each for each in phases if each.sections]
        if phases:
            phases[-1].sections[-1].open = True
        return phases

    def _keep(self, event) -> bool:
        if not self.filtering:
            return True
        return log_place(event.kind) != LogPlace.BOUNDARY and event_matches(
            event, show=self.show, character=self.character
        )

    def _belongs_to_ended(self, event) -> bool:
        payload = event.payload
        return (
            self.ended is not None
            and log_place(event.kind) == LogPlace.AFTER_SCENE
            and payload.get("number", payload.get("scene_number")) == self.ended.number
        )

    def _phase_start(self, value: str) -> None:
        self.phase = LogPhase(phase=value)
        self.phases.append(self.phase)

    def _phase_change(self, value: str) -> None:
        self._opening_alone()
        self._phase_start(value)
        self.section = None
        if self.running is not None and self.running.continuous:
            section = LogSection(**{**self.running.__dict__, "events": [], "continued": True})
            section.phase = self.phase.phase
            self.phase.sections.append(section)
            self.section = self.running = section

    def _opening_alone(self) -> None:
        if self.opening is not None:
            # The phase ended with nothing in it but its opening line.
            self.phase.sections.append(LogSection(phase=self.phase.phase, events=[self.opening]))
            self.opening = None

    def _scene_start(self, payload: dict) -> None:
        if self.phase is None:
            self._phase_start(str(payload.get("phase") or Phase.PRE_PLAY))
        self.section = self.running = _scene_section(self.phase.phase, payload)
        self.phase.sections.append(self.section)

    def _file(self, event) -> None:
        """Put the event in the section it falls in, opening one (and a phase) if none is."""
        if self.phase is None:
            self._phase_start(Phase.PRE_PLAY)
        if self.section is None:
            self.section = LogSection(phase=self.phase.phase)
            self.phase.sections.append(self.section)
        if self.opening is not None:
            self.section.events.append(self.opening)
            self.opening = None
        if self._keep(event):
            self.section.events.append(event)
        if event.kind == "scene_ended":
            self.ended = self.section
            self.section = None
            self.running = None


def review_characters(viewer: LogViewer) -> list[dict]:
    """Return the characters of the session the viewer may see, as in the JSON export."""
    if viewer.imported is not None:
        characters = [dict(row) for row in viewer.imported.characters]
    else:
        characters = [
            _character_row(row.character)
            for row in viewer.session.participations.select_related("character__owner")
        ]
        if viewer.is_gm:
            npcs = Character.objects.filter(
                table_id=viewer.session.table_id, kind=Character.Kind.NPC
            ).select_related("owner")
            taken = {row["name"] for row in characters}
            characters += [_character_row(npc) for npc in npcs if npc.name not in taken]
    if not viewer.is_gm:
        # NPC sheets are the GM's: a player's view of an imported log keeps the PCs.
        characters = [row for row in characters if row.get("kind") != Character.Kind.NPC]
    return characters


def _character_row(character: Character) -> dict:
    return {
        "name": character.name,
        "kind": character.kind,
        "owner": character.owner.get_username() if character.owner_id else "",
        "judgement_values": dict(character.judgement_values or {}),
    }


def session_review(
    *, viewer: LogViewer, show: str = "all", character: str = ""
) -> tuple[list[LogPhase], list[dict]]:
    """Return the grouped review and the characters the filter may name."""
    if show not in FILTERS:
        show = "all"
    characters = review_characters(viewer)
    names = {row["name"] for row in characters}
    events = log_events(viewer)
    phases = group_events(events, show=show, character=character if character in names else "")
    return phases, characters


@dataclass
class ReviewPage:
    """One page of the review: its part of the log, and where it stands among the pages."""

    phases: list[LogPhase]
    number: int
    count: int
    events: int  # how many events the whole (filtered) log holds

    @property
    def previous(self) -> int | None:
        return self.number - 1 if self.number > 1 else None

    @property
    def next(self) -> int | None:
        return self.number + 1 if self.number < self.count else None

    @property
    def numbers(self) -> list[int | None]:
        """The page numbers to offer: the first, the last, and those around this one (None
        where some are left out)."""
        near = {1, self.count, *range(self.number - 2, self.number + 3)}
        shown: list[int | None] = []
        for number in sorted(n for n in near if 1 <= n <= self.count):
            if shown and number - (shown[-1] or 0) > 1:
                shown.append(None)
            shown.append(number)
        return shown


def review_page(
    *, viewer: LogViewer, show: str = "all", character: str = "", page: int = 1
) -> tuple[ReviewPage, list[dict]]:
    """Return one page of the grouped review (REVIEW_PAGE_EVENTS events, the sections
    they belong to around them) and the characters the filter may name."""
    if show not in FILTERS:
        show = "all"
    characters = review_characters(viewer)
    names = {row["name"] for row in characters}
    outline = log_outline(viewer, show=show, character=character if character in names else "")
    seqs = outline_seqs(outline)
    count = max(1, -(-len(seqs) // REVIEW_PAGE_EVENTS))
    number = min(max(page, 1), count)
    start = (number - 1) * REVIEW_PAGE_EVENTS
    wanted = seqs[start : start + REVIEW_PAGE_EVENTS]
    shown = {
        event.seq: event
        for chunk in log_event_chunks(viewer, seqs=sorted(wanted))
        for event in chunk
    }
    phases = []
    for phase in outline:
        sections = []
        for section in phase.sections:
            events = [shown[line.seq] for line in section.events if line.seq in shown]
            if not events:
                continue
            part = LogSection(**{**section.__dict__, "events": events, "open": False})
            # Begun on an earlier page: its heading says it goes on here.
            part.continued = section.continued or section.events[0].seq not in shown
            sections.append(part)
        if sections:
            phases.append(LogPhase(phase=phase.phase, sections=sections))
    if phases:
        phases[-1].sections[-1].open = True
    return ReviewPage(phases=phases, number=number, count=count, events=len(seqs)), characters


def _iso(moment: datetime.datetime) -> str:
    return moment.astimezone(datetime.UTC).isoformat()


def _members(viewer: LogViewer) -> list[dict]:
    if viewer.imported is not None:
        return [dict(row) for row in viewer.imported.members]
    return [
        {"username": row.user.get_username(), "role": row.role}
        for row in table_members(table=viewer.session.table)
    ]


def _profile(session: GameSession) -> dict:
    profile = session.rules_profile
    return {
        "name": profile.name,
        "critical": profile.critical,
        "fumble": profile.fumble,
        "modifier_limit": profile.modifier_limit,
        "easy_from": profile.easy_from,
        "ordinary_from": profile.ordinary_from,
        "hard_from": profile.hard_from,
        "extreme_from": profile.extreme_from,
        "judgement_value_names": list(profile.judgement_value_names or []),
        "resource_names": list(profile.resource_names or []),
        "scenes_enabled": profile.scenes_enabled,
    }


def _event_document(viewer: LogViewer, event: TimelineEvent) -> dict:
    return {
        "seq": event.seq,
        "kind": event.kind,
        "actor": event.actor.get_username() if event.actor is not None else "",
        "created_at": _iso(event.created_at),
        "visibility": event.visibility,
        "audience": event.audience_names,
        "payload": payload_for(
            event.kind, event.payload, reader_id=viewer.user.pk, reader_is_gm=viewer.is_gm
        ),
    }


def export_json(*, viewer: LogViewer, events=None, face_ids=None) -> dict:
    """Return the session log as a JSON-ready document: only what the viewer may see.

    No database id appears outside the events' own payloads, so a file imported
    elsewhere and exported again is the same document.
    """
    session = viewer.session
    if events is None:
        events = log_events(viewer, everything=True)
    document = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "complete": viewer.complete,
        "view_of": viewer.view_of,
        "session": {
            "title": session.title,
            "date": session.scheduled_for.isoformat(),
            "phase": session.phase,
            "table": session.table.name,
            "rules_profile": _profile(session),
        },
        "members": _members(viewer),
        "characters": review_characters(viewer),
        "events": [_event_document(viewer, event) for event in events],
    }
    pictures = _line_pictures(viewer, _line_face_ids(events) if face_ids is None else face_ids)
    if pictures:
        document["pictures"] = pictures
    return document


def _line_face_ids(events) -> list[int]:
    return sorted(
        {
            event.payload["face_id"]
            for event in events
            if event.kind == "chat" and isinstance(event.payload.get("face_id"), int)
        }
    )


def _chat_face_ids(viewer: LogViewer) -> list[int]:
    """The faces of every line the viewer's JSON export holds, read without the rest."""
    query = _events_query(viewer, everything=True).filter(kind="chat").values_list("seq", "payload")
    face_ids: set[int] = set()
    last = 0
    while rows := list(query.filter(seq__gt=last)[:OUTLINE_CHUNK]):
        for _seq, payload in rows:
            face_id = payload.get("face_id") if isinstance(payload, dict) else None
            if isinstance(face_id, int) and not isinstance(face_id, bool):
                face_ids.add(face_id)
        last = rows[-1][0]
    return sorted(face_ids)


def _line_pictures(viewer: LogViewer, face_ids: list[int]) -> dict:
    """The faces the exported lines were said with, as {"face:<id>": {format, base64}}:
    ids as the payloads name them, so an import shows each line with its own face."""
    if not face_ids:
        return {}
    if viewer.imported is not None:
        names = {
            face_id: (viewer.imported.pictures or {}).get(f"face:{face_id}", "")
            for face_id in face_ids
        }
    else:
        names = dict(
            CharacterFace.objects.filter(
                pk__in=face_ids, character__table_id=viewer.session.table_id
            ).values_list("pk", "image")
        )
    pictures = {}
    for face_id in face_ids:
        picture = image_to_text(names.get(face_id, ""))
        if picture is not None:
            pictures[f"face:{face_id}"] = picture
    return pictures


def _json_text(value) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2, sort_keys=True)


def export_json_chunks(*, viewer: LogViewer) -> Iterator[str]:
    """Yield the JSON export as text, the events CHUNK at a time: the same text as
    `export_json_text`, without holding the whole log at once."""
    document = export_json(viewer=viewer, events=[], face_ids=_chat_face_ids(viewer))
    text = _json_text(document) + "\n"
    # Keys are sorted and strings escaped: this is the top-level key and nothing else.
    marker = '\n  "events": []'
    before, after = text.split(marker, 1)
    yield before + '\n  "events": ['
    first = True
    for chunk in log_event_chunks(viewer, everything=True):
        items = []
        for event in chunk:
            lines = _json_text(_event_document(viewer, event)).split("\n")
            items.append("\n".join("    " + line for line in lines))
        yield ("\n" if first else ",\n") + ",\n".join(items)
        first = False
    yield ("]" if first else "\n  ]") + after


def export_json_text(*, viewer: LogViewer) -> str:
    """Return the JSON export as text; keys sorted, so that equal logs are equal files
    whichever database kept them (PostgreSQL does not keep a payload's key order)."""
    return _json_text(export_json(viewer=viewer)) + "\n"


def _scope_note(viewer: LogViewer) -> str:
    if viewer.complete:
        return _("The complete log, as the GM sees it.")
    return _("Only what %(name)s could see.") % {"name": viewer.view_of}


EXPORT_TEMPLATE = "sessions_app/export_log.html"


def _export_context(viewer: LogViewer) -> dict:
    return {
        "session": viewer.session,
        "profile": viewer.session.rules_profile,
        "viewer": viewer.user,
        "viewer_is_gm": viewer.is_gm,
        "static_log": True,
        "offline_log": True,
    }


def export_html_chunks(*, viewer: LogViewer, dice_chart=None) -> Iterator[str]:
    """Yield the log as one standalone HTML page (styles inside, no scripts, no links out;
    the dice chart, if given, is inline SVG), a part at a time: the events are read and
    rendered CHUNK at a time."""
    context = _export_context(viewer)

    def part(name: str, **extra) -> str:
        return render_to_string(f"{EXPORT_TEMPLATE}#{name}", {**context, **extra})

    phases = log_outline(viewer)
    yield part("head", scope_note=_scope_note(viewer), dice_chart=dice_chart)
    if not phases:
        yield part("empty")
    current = None
    for phase, section, chunks in outline_filled(viewer, phases):
        if phase is not current:
            if current is not None:
                yield part("phase-end")
            yield part("phase-start", phase=phase)
            current = phase
        yield part("section-start", section=section)
        for events in chunks:
            yield part("events", events=events)
        yield part("section-end")
    if current is not None:
        yield part("phase-end")
    yield part("foot", exported_at=timezone.now())


def export_html(*, viewer: LogViewer, dice_chart=None) -> str:
    """Return the log as one standalone HTML page (see `export_html_chunks`)."""
    return "".join(export_html_chunks(viewer=viewer, dice_chart=dice_chart))


_MD_INLINE = re.compile(r"([\\`*_{}\[\]<>&|~!])")
_MD_LINE_START = re.compile(r"^([#>+\-=]|\d+[.)])")


def markdown_escape(text: str) -> str:
    """Make text inert in Markdown: one line, no HTML, no emphasis, links or headings."""
    text = " ".join(str(text).split())
    text = _MD_INLINE.sub(r"\\\1", text)
    return _MD_LINE_START.sub(lambda match: "\\" + match.group(0), text)


# Events are rendered in one template pass and cut apart at this marker: user text is
# escaped, so the marker cannot come from a payload.
_EVENT_MARK = "<hr data-log-event>"
_EVENT_TEXTS = (
    "{% for event in events %}" + _EVENT_MARK + '{% include "' + EVENT_TEMPLATE + '" %}{% endfor %}'
)


# User text is escaped (or, for a handout, rendered from Markdown to a few block tags), so
# every tag in a rendered event is a template's or a block's: a <br> (the room's line break),
# the end of a Markdown block, and a part marked data-log-paragraph (shown as a block of its
# own, like a handout's text under its title) keep the text's shape instead of gluing words.
_PARAGRAPH_START = re.compile(r"(?=<[a-z]+\b[^>]*\sdata-log-paragraph\b)")
_LINE_BREAK = re.compile(r"<br\s*/?>|</(?:p|li|h3|h4|pre|blockquote)>")
# A Markdown list keeps its dashes in text, as the writer typed them.
_LIST_ITEM = re.compile(r"<li>")


def _plain_text(fragment: str) -> str:
    """Return one rendered event as text: lines apart by a newline, paragraphs by a blank line."""
    paragraphs = []
    fragment = _LIST_ITEM.sub("<li>- ", fragment)
    for part in _PARAGRAPH_START.split(fragment):
        lines = [
            " ".join(html.unescape(strip_tags(line)).split()) for line in _LINE_BREAK.split(part)
        ]
        if lines := [line for line in lines if line]:
            paragraphs.append("\n".join(lines))
    return "\n\n".join(paragraphs)


def event_texts(events: list, context: dict) -> list[str]:
    """Return each event in plain text, in the same words as the room."""
    template = engines["django"].from_string(_EVENT_TEXTS)
    rendered = template.render({**context, "events": events})
    return [_plain_text(chunk) for chunk in rendered.split(_EVENT_MARK)[1:]]


def markdown_list_item(text: str) -> str:
    """Return an event's text as one Markdown list item, its lines and paragraphs kept."""
    paragraphs = [
        "\\\n  ".join(markdown_escape(line) for line in paragraph.split("\n"))
        for paragraph in text.split("\n\n")
    ]
    return "- " + "\n\n  ".join(paragraphs)


def section_heading(section: LogSection) -> str:
    if not section.scene:
        if section.phase in MAIN_PLAY_PHASES:
            return _("Between scenes")
        # Pre-play and after-play have no scenes: the section is the phase itself.
        return LogPhase(phase=section.phase).label
    if section.continuous:
        heading = section.title or _("Main play")
    elif section.title:
        heading = _("Scene %(number)s: %(title)s") % {
            "number": section.number,
            "title": section.title,
        }
    else:
        heading = _("Scene %(number)s") % {"number": section.number}
    if section.continued:
        heading = _("%(scene)s (continued)") % {"scene": heading}
    return heading


def section_facts(section: LogSection) -> list[str]:
    """Return the scene's place, purpose and scene player as short labelled lines."""
    facts = []
    if section.scene and not section.continuous:
        if section.master:
            facts.append(_("Master scene"))
        elif section.scene_player:
            facts.append(_("Scene player: %(name)s") % {"name": section.scene_player})
    if section.place:
        facts.append(_("Place: %(place)s") % {"place": section.place})
    if section.purpose:
        facts.append(_("Purpose: %(purpose)s") % {"purpose": section.purpose})
    return facts


def export_markdown_chunks(*, viewer: LogViewer) -> Iterator[str]:
    """Yield the log as Markdown, in the same words as the room, a part at a time: the
    events are read and rendered CHUNK at a time."""
    session = viewer.session
    context = _export_context(viewer)
    header = [
        f"# {markdown_escape(session.title)}",
        "",
        markdown_escape(
            f"{session.table.name} · {session.scheduled_for.isoformat()} · "
            f"{session.rules_profile.display_name}"
        ),
        "",
        f"*{markdown_escape(_scope_note(viewer))}*",
    ]
    yield "\n".join(header) + "\n"
    current = None
    for phase, section, chunks in outline_filled(viewer, log_outline(viewer)):
        lines = []
        if phase is not current:
            lines += ["", f"## {markdown_escape(phase.label)}"]
            current = phase
        lines += ["", f"### {markdown_escape(section_heading(section))}"]
        facts = section_facts(section)
        if facts:
            lines += ["", markdown_escape(" · ".join(facts))]
        lines.append("")
        yield "\n".join(lines) + "\n"
        for events in chunks:
            texts = event_texts(events, context)
            yield "".join(markdown_list_item(text) + "\n" for text in texts)


def export_markdown(*, viewer: LogViewer) -> str:
    """Return the log as Markdown, in the same words as the room."""
    return "".join(export_markdown_chunks(viewer=viewer))


def export_filename(session: GameSession, extension: str) -> str:
    """Return a download name made of safe ASCII characters only."""
    slug = slugify(session.title)[:60] or "session"
    return f"{session.scheduled_for.isoformat()}-{slug}.{extension}"
