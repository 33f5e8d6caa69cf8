"""The live panels are declared once: every `Panel` has a spec, the pages carry its marks,
and what the socket pushes for a panel is exactly the same partial of a fresh page load,
for the GM, a player and a spectator."""

import re
from html.parser import HTMLParser

import pytest
from django.template import Context, Template, TemplateSyntaxError
from django.test import Client
from django.urls import reverse

from minigames.services import SeatSpec, match_create
from sessions_app.kinds.registry import Panel
from sessions_app.live import render, roster
from sessions_app.models import Character, Phase, TimelineEvent
from sessions_app.presenters import live
from sessions_app.presenters.panels import PANELS, spectator_partials
from sessions_app.services.chat_tabs import chat_tab_add
from sessions_app.services.checks import check_request
from sessions_app.services.experience import (
    AwardLine,
    experience_award_session,
    growth_confirm,
    growth_request,
    session_close,
)
from sessions_app.services.scenes import stage_bring_in
from sessions_app.services.spectators import spectator_enter, spectators_allow
from sessions_app.services.timeline import presence_enter, timeline_append
from tests.factories import CharacterFactory, cast_member, scene_started
from tests.matches import dealt

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}
CSRF = re.compile(r'<input type="hidden" name="csrfmiddlewaretoken" value="[^"]*">')
# A partial's element is named after it, but for the board list's.
ELEMENT_OF = {"match-list": "matches"}


def _committed(event_id: int) -> TimelineEvent:
    """The event as the live wing is handed it: its session and actor attached."""
    return TimelineEvent.objects.select_related("actor", "session").get(pk=event_id)


class _Elements(HTMLParser):
    """The outer HTML of every element with an id, as written in the source."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=False)
        self.html = html
        self.lines = [0]
        for line in html.splitlines(keepends=True):
            self.lines.append(self.lines[-1] + len(line))
        self.open: list[tuple[str, str | None, int]] = []
        self.found: dict[str, str] = {}
        self.top: list[str] = []
        self.feed(html)

    def _offset(self) -> int:
        line, column = self.getpos()
        return self.lines[line - 1] + column

    def handle_starttag(self, tag, attrs):
        element_id = dict(attrs).get("id")
        if tag in VOID:
            if element_id and not self.open:
                self.top.append(element_id)
            return
        self.open.append((tag, element_id, self._offset()))

    def handle_endtag(self, tag):
        while self.open:
            open_tag, element_id, start = self.open.pop()
            if open_tag == tag:
                break
        else:
            return
        if element_id:
            end = self.html.index(">", self._offset()) + 1
            self.found.setdefault(element_id, self.html[start:end])
            if not self.open:
                self.top.append(element_id)


def _normal(html: str) -> str:
    html = re.sub(r'\s*hx-swap-oob="true"', "", CSRF.sub("", html))
    return re.sub(r"\s+>", ">", re.sub(r"\s+", " ", html)).strip()


def _same(pushed_html: str, page_html: str, ids: list[str]) -> None:
    pushed, page = _Elements(pushed_html), _Elements(page_html)
    assert pushed.top == ids
    for element_id in ids:
        assert element_id in page.found, f"the page has no #{element_id}"
        assert _normal(pushed.found[element_id]) == _normal(page.found[element_id]), element_id


def _page(user, url: str) -> str:
    client = Client()
    if user is not None:
        client.force_login(user)
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    return response.content.decode()


def _pushed(session, user, viewer_is_gm: bool, panel: Panel) -> str:
    viewers = [(user.pk, viewer_is_gm, "en", "")]
    ((_group, message),) = live.panel_messages(session=session, viewers=viewers, panels={panel})
    return message["html"]


def _pushed_to_spectators(session, panel: Panel) -> str:
    event = timeline_append(session=session, kind="session_created", payload={"title": "x"})
    messages = render.spectator_event_messages(
        event=event,
        panels=frozenset({panel}),
        variants=roster.spectators(session_id=session.pk),
    )
    return "".join(
        message["html"] for _group, message in messages if message["type"] == "room.panels"
    )


def _ids(names) -> list[str]:
    return [ELEMENT_OF.get(name, name) for name in names]


def test_every_panel_has_a_spec():
    missing = [panel for panel in Panel if panel not in PANELS]

    assert not missing, f"Panels with no spec: {missing}"


def test_live_panel_mark_refuses_a_partial_no_panel_names():
    with pytest.raises(TemplateSyntaxError):
        Template('{% load live_panels %}<div {% live_panel "nowhere" %}></div>').render(Context())


@pytest.fixture
def session_in_play(session, gm, player):
    table = session.table
    spectators_allow(table=table, by=gm, allowed=True)
    pc = cast_member(session, player, name="Aki", judgement_values={"Reflexes": 4})
    npc = CharacterFactory(table=table, owner=gm, name="Clerk", kind=Character.Kind.NPC)
    scene_started(session, gm, scene_player=pc, title="A letter")
    stage_bring_in(session=session, by=gm, character=npc)
    check_request(session=session, by=gm, character=pc, label="Dodge", value_name="Reflexes")
    chat_tab_add(session=session, by=gm, name="情報")
    dealt(
        match_create(session=session, by=player, seats=[SeatSpec(pc), SeatSpec(npc, computer=True)])
    )
    session.refresh_from_db()
    table.refresh_from_db()
    spectator_enter(session_id=session.pk, channel_name="watching", language="en", time_zone="")
    return session


@pytest.mark.django_db
@pytest.mark.parametrize("panel", [panel for panel in Panel if panel != Panel.AFTERPLAY])
def test_room_panel_pushed_equals_fresh_page_for_gm_player_and_spectator(
    session_in_play, gm, player, panel
):
    session = session_in_play
    room_url = reverse("session_room", args=[session.pk])
    for user, viewer_is_gm in ((gm, True), (player, False)):
        names = PANELS[panel].partials(viewer_is_gm)
        _same(_pushed(session, user, viewer_is_gm, panel), _page(user, room_url), _ids(names))

    watch_url = reverse("watch_session", args=[session.table.spectator_token, session.pk])
    names = spectator_partials({panel})
    _same(_pushed_to_spectators(session, panel), _page(None, watch_url), _ids(names))


@pytest.mark.django_db
def test_room_marks_every_partial_of_its_panels(session_in_play, gm, player):
    session = session_in_play
    for user, viewer_is_gm in ((gm, True), (player, False)):
        page = _page(user, reverse("session_room", args=[session.pk]))
        for panel, spec in PANELS.items():
            if spec.template != "sessions_app/session_room.html":
                continue
            for element_id in _ids(spec.partials(viewer_is_gm)):
                marked = re.search(rf'id="{element_id}" data-live-panel="([^"]*)"', page)
                assert marked and panel.value in marked.group(1).split(), (panel, element_id)


@pytest.fixture
def session_after_play(session, gm, player):
    cast_member(session, player, name="Aki")
    session.phase = Phase.AFTER_PLAY
    session.save()
    return session


def _award(session, gm, player):
    experience_award_session(
        session=session,
        by=gm,
        awards={player.pk: [AwardLine(1, "attended")], gm.pk: [AwardLine(1, "attended")]},
    )


def _afterplay_same(session, gm, player):
    url = reverse("afterplay", args=[session.pk])
    for user, viewer_is_gm in ((gm, True), (player, False)):
        pushed = _pushed(session, user, viewer_is_gm, Panel.AFTERPLAY)
        _same(pushed, _page(user, url), ["afterplay"])
    # Spectators have no after-play page: nothing is rendered for them.
    assert not PANELS[Panel.AFTERPLAY].spectator


@pytest.mark.django_db
def test_afterplay_panel_pushed_equals_fresh_page_before_the_award(session_after_play, gm, player):
    _afterplay_same(session_after_play, gm, player)


@pytest.mark.django_db
def test_afterplay_panel_pushed_equals_fresh_page_after_the_award_and_closing(
    session_after_play, gm, player
):
    session = session_after_play
    _award(session, gm, player)
    session.refresh_from_db()
    _afterplay_same(session, gm, player)

    session_close(session=session, by=gm)
    session.refresh_from_db()
    _afterplay_same(session, gm, player)


def _present(session, *users):
    for user in users:
        presence_enter(session_id=session.pk, user=user, channel_name=f"c{user.pk}", language="en")


def _panels_pushed(messages) -> list[str]:
    return [message["html"] for _group, message in messages if message["type"] == "room.panels"]


@pytest.mark.django_db
def test_match_started_reaches_every_open_room(session, gm, player):
    pc = cast_member(session, player, name="Aki")
    npc = CharacterFactory(table=session.table, owner=gm, name="Clerk", kind=Character.Kind.NPC)
    scene_started(session, gm, scene_player=pc, title="A letter")
    stage_bring_in(session=session, by=gm, character=npc)
    _present(session, gm, player)
    dealt(match_create(session=session, by=gm, seats=[SeatSpec(pc), SeatSpec(npc, computer=True)]))
    event = session.events.get(kind="match_started")

    pushed = _panels_pushed(render.event_messages(event=_committed(event.pk)))

    assert len(pushed) == 2
    assert all('id="matches"' in html and "Clerk" in html for html in pushed)


@pytest.mark.django_db
def test_experience_award_reaches_every_open_afterplay_page(session_after_play, gm, player):
    session = session_after_play
    _present(session, gm, player)
    experience_award_session(
        session=session,
        by=gm,
        awards={player.pk: [AwardLine(1, "attended")], gm.pk: [AwardLine(1, "attended")]},
    )
    event = session.events.get(kind="experience_awarded")

    pushed = _panels_pushed(render.event_messages(event=_committed(event.pk)))

    assert len(pushed) == 2
    assert all('id="award-totals"' in html for html in pushed)


@pytest.mark.django_db
def test_closing_reaches_every_open_afterplay_page(session_after_play, gm, player):
    session = session_after_play
    _award(session, gm, player)
    _present(session, gm, player)
    session_close(session=session, by=gm)
    event = session.events.get(kind="session_closed")

    pushed = _panels_pushed(render.event_messages(event=_committed(event.pk)))

    assert len(pushed) == 2
    assert all('id="afterplay"' in html and "Closed" in html for html in pushed)


@pytest.mark.django_db
def test_afterplay_awards_list_ends_without_a_separator_after_a_growth(
    session_after_play, gm, player
):
    session = session_after_play
    _award(session, gm, player)
    pc = session.characters.get()
    asked = growth_request(
        character=pc, by=player, description="A new contact", cost=1, session=session
    )
    growth_confirm(request=asked, by=gm)

    page = _page(player, reverse("afterplay", args=[session.pk]))

    assert ", )" not in page
    assert "(attended 1)" in page


@pytest.mark.django_db
def test_closed_session_room_shows_itself_closed_live_and_on_a_fresh_load(
    session_after_play, gm, player
):
    session = session_after_play
    _award(session, gm, player)
    session_close(session=session, by=gm)
    session.refresh_from_db()
    room_url = reverse("session_room", args=[session.pk])
    for user, viewer_is_gm in ((gm, True), (player, False)):
        page = _page(user, room_url)
        assert "This session is closed." in page
        assert 'name="text"' not in page  # no chat line, roll box or palette to post from
        names = PANELS[Panel.STAGE].partials(viewer_is_gm)
        _same(_pushed(session, user, viewer_is_gm, Panel.STAGE), page, _ids(names))


@pytest.mark.django_db
def test_afterplay_awards_list_in_japanese_uses_full_width_brackets_and_commas(
    session_after_play, gm, player
):
    session = session_after_play
    experience_award_session(
        session=session,
        by=gm,
        awards={player.pk: [AwardLine(1, "attended"), AwardLine(1, "goal")], gm.pk: []},
    )
    client = Client()
    client.force_login(player)
    page = client.get(
        reverse("afterplay", args=[session.pk]), HTTP_ACCEPT_LANGUAGE="ja"
    ).content.decode()
    listed = re.search(r'<span class="muted">（([^<]*)）</span>', page)
    assert listed, "the awards are listed in full-width brackets"
    assert "、" in listed.group(1)
    assert ", " not in listed.group(1)
