"""Walk the event-kind registry: every sample payload of every kind, the minigames' included,
is appended and read back in English and Japanese in the room, on the review page and in the
three exports."""

import html
import json
import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.template.backends.django import DjangoTemplates
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.html import strip_tags

from sessions_app.kinds.registry import event_delivery, kinds_all
from sessions_app.models import TimelineEvent
from sessions_app.presenters.live import event_html
from sessions_app.selectors.timeline import events_after
from sessions_app.services.timeline import timeline_append

LANGUAGES = ["en", "ja"]
_EVENT = re.compile(r'<li [^>]*class="event event-([a-z0-9_]+)[^"]*"[^>]*>(.*?)</li>', re.S)
_SEQ = re.compile(r'<span class="seq" aria-hidden="true">#(\d+)</span>')


@pytest.fixture
def walked(session, gm):
    """Every sample of every kind appended to one session, in the registry's order: seq → kind."""
    kinds = {}
    for kind in kinds_all():
        for sample in kind.samples:
            event = timeline_append(session=session, kind=kind.name, actor=gm, payload=sample)
            kinds[event.seq] = kind.name
    return kinds


def _client(user, language) -> Client:
    client = Client(headers={"accept-language": language})
    client.force_login(user)
    return client


def _event_texts(page: str) -> dict[int, tuple[str, str]]:
    """Map each event's seq to its kind and its words as shown (the meta line left out)."""
    found = {}
    for kind, body in _EVENT.findall(page):
        seq = int(_SEQ.search(body).group(1))
        words = body.split("</time>", 1)[1]
        found[seq] = (kind, " ".join(html.unescape(strip_tags(words)).split()))
    return found


def _problems(walked, texts: dict[int, tuple[str, str]]) -> list[str]:
    problems = []
    for seq, kind in walked.items():
        shown_kind, text = texts.get(seq, ("", ""))
        if shown_kind != kind:
            problems.append(f"#{seq} {kind}: not shown")
        elif not text or text in (kind, kind.replace("_", r"\_")):
            problems.append(f"#{seq} {kind}: no text of its own: {text!r}")
        elif "None" in text:
            problems.append(f"#{seq} {kind}: {text!r}")
    return problems


def _room_fragment(session, user, is_gm: bool, language: str) -> str:
    """The timeline fragment the room's socket sends, rendered as the consumer renders it."""
    events = list(events_after(session_id=session.pk, user=user, is_gm=is_gm, after_seq=0))
    with translation.override(language):
        return render_to_string(
            "sessions_app/session_room.html#timeline-append",
            {"events": events, "viewer": user, "viewer_is_gm": is_gm},
        )


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_kind_renders_in_the_room_for_the_gm(walked, session, gm, language):
    texts = _event_texts(_room_fragment(session, gm, True, language))

    assert _problems(walked, texts) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_kind_renders_in_the_room_for_a_player(walked, session, player, language):
    texts = _event_texts(_room_fragment(session, player, False, language))

    assert _problems(walked, texts) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_kind_renders_on_the_review_page(walked, session, gm, language):
    response = _client(gm, language).get(reverse("session_review", args=[session.pk]))

    assert response.status_code == 200
    assert f'lang="{language}"' in response.content.decode()
    assert _problems(walked, _event_texts(response.content.decode())) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_kind_renders_in_the_html_export(walked, session, gm, language):
    response = _client(gm, language).get(reverse("session_export_html", args=[session.pk]))
    page = response.getvalue().decode()

    assert f'lang="{language}"' in page
    assert _problems(walked, _event_texts(page)) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_kind_renders_in_the_markdown_export(walked, session, gm, language):
    response = _client(gm, language).get(reverse("session_export_markdown", args=[session.pk]))
    lines = [
        line[2:] for line in response.getvalue().decode().splitlines() if line.startswith("- ")
    ]

    # The export lists the events in order, one line each.
    assert len(lines) == len(walked)
    texts = {seq: (kind, line) for (seq, kind), line in zip(walked.items(), lines, strict=True)}
    assert _problems(walked, texts) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_kind_keeps_its_payload_in_the_json_export(walked, session, gm, language):
    response = _client(gm, language).get(reverse("session_export_json", args=[session.pk]))
    exported = {event["seq"]: event for event in json.loads(response.getvalue())["events"]}
    appended = TimelineEvent.objects.filter(session=session).order_by("seq")

    assert {seq: event["kind"] for seq, event in exported.items()} == walked
    assert [exported[event.seq]["payload"] for event in appended] == [
        event.payload for event in appended
    ]


def test_every_kind_reads_differently_in_japanese(walked, session, gm):
    english = _event_texts(_room_fragment(session, gm, True, "en"))
    japanese = _event_texts(_room_fragment(session, gm, True, "ja"))

    untranslated = {kind for kind in set(walked.values())} - {
        kind for seq, kind in walked.items() if english[seq][1] != japanese[seq][1]
    }
    assert untranslated == set()


def _strict_templates() -> DjangoTemplates:
    """The project's templates, printing a marker wherever a variable is missing."""
    return DjangoTemplates(
        {
            "NAME": "strict",
            "DIRS": settings.TEMPLATES[0]["DIRS"],
            "APP_DIRS": True,
            "OPTIONS": {"string_if_invalid": "‹missing %s›"},
        }
    )


def _fallbacks(engine, name: str) -> set[str]:
    """What a template (and what it includes) prints with a `default`: it may be missing."""
    source = engine.get_template(name).template.source
    names = set(re.findall(r"([\w.]+)\|default", source))
    for included in re.findall(r'{% include "([^"]+)"', source):
        names |= _fallbacks(engine, included)
    return names


@pytest.mark.parametrize("kind", kinds_all(), ids=lambda kind: kind.name)
def test_kind_template_prints_only_what_its_samples_hold(kind, session, gm):
    engine = _strict_templates()
    template = engine.get_template(kind.template)
    fallbacks = _fallbacks(engine, kind.template)
    viewer = get_user_model()(pk=gm.pk, username="gm")
    missing = set()

    for sample in kind.samples:
        event = TimelineEvent(session=session, seq=1, kind=kind.name, payload=sample, actor=gm)
        for is_gm, static_log in [(True, False), (False, False), (True, True)]:
            rendered = template.render(
                {
                    "event": event,
                    "p": sample,
                    "actor": "gm",
                    "viewer": viewer,
                    "viewer_is_gm": is_gm,
                    "static_log": static_log,
                    "offline_log": static_log,
                }
            )
            missing |= set(re.findall(r"‹missing ([^›]+)›", rendered)) - fallbacks

    assert missing == set()


def test_a_kind_says_it_shows_the_gm_more_exactly_when_one_of_its_samples_does(session, player):
    """The room renders a line once for the GM and the players unless its kind says the GM
    sees more: a kind that says so needlessly costs a render, one that fails to leaks
    nothing but shows the GM the players' line without its controls."""
    shows_more, says_more = set(), set()
    for kind in kinds_all():
        if event_delivery(kind.name, kind.samples[0]).gm_sees_more:
            says_more.add(kind.name)
        for sample in kind.samples:
            event = timeline_append(session=session, kind=kind.name, actor=player, payload=sample)
            as_gm = event_html(event, viewer=None, viewer_is_gm=True)
            if as_gm != event_html(event, viewer=None, viewer_is_gm=False):
                shows_more.add(kind.name)

    assert says_more == shows_more
