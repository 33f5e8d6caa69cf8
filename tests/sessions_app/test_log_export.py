"""The session log read back and carried elsewhere: visibility, grouping, exports, import."""

import json

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from sessions_app import log_export
from sessions_app.models import GameSession, ImportedLog, Membership, Table, TimelineEvent
from sessions_app.services.chat import chat_post
from sessions_app.services.chat_tabs import chat_tab_add, chat_tab_archive, chat_tab_rename
from sessions_app.services.logs import MAX_BYTES, log_import
from sessions_app.services.play import phase_advance
from sessions_app.services.timeline import timeline_append
from tests.factories import MembershipFactory, UserFactory
from tests.sessions_app.log_script import PUBLIC, SECRETS, add_chat_lines

# The scripted session played, and the second player who is not its whisper's recipient,
# are tests/conftest.py's played and second_player.


def _viewer(session, user):
    return log_export.log_viewer(session=session, user=user)


def _exports(session, user) -> dict[str, str]:
    viewer = _viewer(session, user)
    return {
        "json": log_export.export_json_text(viewer=viewer),
        "markdown": log_export.export_markdown(viewer=viewer),
        "html": log_export.export_html(viewer=viewer),
    }


def _counts() -> tuple[int, int, int, int]:
    return (
        Table.objects.count(),
        GameSession.objects.count(),
        TimelineEvent.objects.count(),
        ImportedLog.objects.count(),
    )


# Visibility -------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["json", "markdown", "html"])
def test_export_for_player_holds_no_hidden_text(played, second_player, fmt):
    text = _exports(played, second_player)[fmt]
    for secret in SECRETS.values():
        assert secret not in text


@pytest.mark.parametrize("fmt", ["json", "markdown", "html"])
def test_export_for_player_holds_public_text(played, second_player, fmt):
    text = _exports(played, second_player)[fmt]
    assert PUBLIC["chat"] in text
    assert PUBLIC["revealed_roll"] in text


def test_export_for_player_hides_unrevealed_roll_faces(played, second_player):
    events = log_export.export_json(viewer=_viewer(played, second_player))["events"]
    rolls = [event for event in events if event["payload"].get("faces")]
    assert [roll["payload"]["faces"] for roll in rolls] == [[5, 4]]


def test_export_json_for_gm_holds_every_event(played, gm):
    document = log_export.export_json(viewer=_viewer(played, gm))
    assert [event["seq"] for event in document["events"]] == list(range(1, played.last_seq + 1))
    text = json.dumps(document, ensure_ascii=False)
    for secret in SECRETS.values():
        assert secret in text
    assert document["complete"] is True


@pytest.mark.parametrize("fmt", ["markdown", "html"])
def test_export_readable_for_gm_holds_gm_only_lines(played, gm, fmt):
    text = _exports(played, gm)[fmt]
    assert SECRETS["gm_chat"] in text
    assert SECRETS["secret_roll"] in text


def test_export_json_for_whisper_recipient_holds_whisper(played, player):
    document = log_export.export_json(viewer=_viewer(played, player))
    whispers = [event for event in document["events"] if event["kind"] == "whisper"]
    assert [event["payload"]["text"] for event in whispers] == [SECRETS["whisper"]]
    assert whispers[0]["audience"] == ["player"]


def test_export_json_for_player_marked_partial(played, second_player):
    document = log_export.export_json(viewer=_viewer(played, second_player))
    assert (document["complete"], document["view_of"]) == (False, "ren")


def test_export_json_for_player_lists_no_npc(played, second_player):
    document = log_export.export_json(viewer=_viewer(played, second_player))
    assert [row["name"] for row in document["characters"]] == ["Aki"]


def _keys(value) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {key for item in value.values() for key in _keys(item)}
    if isinstance(value, list):
        return {key for item in value for key in _keys(item)}
    return set()


def test_export_json_carries_no_database_id_outside_payloads(played, gm):
    document = log_export.export_json(viewer=_viewer(played, gm))
    for event in document["events"]:
        event.pop("payload")
    assert not {key for key in _keys(document) if key == "id" or key.endswith("_id")}


def test_log_viewer_outsider_refused(played, outsider):
    with pytest.raises(PermissionDenied):
        _viewer(played, outsider)


# Grouping and filters --------------------------------------------------------------------


def test_session_review_groups_by_phase_and_scene(played, gm):
    phases, _characters = log_export.session_review(viewer=_viewer(played, gm))
    assert [phase.phase for phase in phases] == ["preplay", "opening"]
    scene = phases[1].sections[0]
    assert (scene.scene, scene.number, scene.title) == (True, 1, PUBLIC["scene_title"])


def test_session_review_keeps_backstage_note_in_its_scene(played, gm):
    phases, _characters = log_export.session_review(viewer=_viewer(played, gm))
    assert phases[-1].sections[-1].events[-1].kind == "backstage_note"


def test_session_review_opens_only_last_section(played, gm):
    phases, _characters = log_export.session_review(viewer=_viewer(played, gm))
    sections = [section for phase in phases for section in phase.sections]
    assert [section.open for section in sections] == [False] * (len(sections) - 1) + [True]


def test_session_review_checks_only(played, gm):
    phases, _characters = log_export.session_review(viewer=_viewer(played, gm), show="checks")
    kinds = {event.kind for phase in phases for s in phase.sections for event in s.events}
    assert kinds == {"check_rolled", "roll_revealed"}


def test_session_review_chat_only(played, second_player):
    phases, _characters = log_export.session_review(
        viewer=_viewer(played, second_player), show="chat"
    )
    texts = [event.payload["text"] for p in phases for s in p.sections for event in s.events]
    assert texts == [PUBLIC["chat"], PUBLIC["ic"]]


def test_session_review_one_character(played, second_player):
    phases, _characters = log_export.session_review(
        viewer=_viewer(played, second_player), character="Aki"
    )
    kinds = [event.kind for p in phases for s in p.sections for event in s.events]
    assert kinds == ["character_entered", "chat"]


def test_session_review_unknown_character_ignored(played, second_player):
    everything, _ = log_export.session_review(viewer=_viewer(played, second_player))
    filtered, _ = log_export.session_review(
        viewer=_viewer(played, second_player), character="Librarian"
    )
    assert len(filtered) == len(everything)


def test_group_events_continuous_scene_spans_phases(session, gm):
    session.rules_profile.scenes_enabled = False
    profile = session.rules_profile
    profile.pk = None
    profile.table = session.table
    profile.name = "No scenes"
    profile.save()
    session.rules_profile = profile
    session.save()
    phase_advance(session=session, by=gm, from_phase="preplay")
    chat_post(session=session, by=gm, text="In the opening")
    phase_advance(session=session, by=gm, from_phase="opening")
    phases, _ = log_export.session_review(viewer=_viewer(session, gm))
    middle = phases[-1].sections[0]
    assert (phases[-1].phase, middle.scene, middle.continued) == ("middle", True, True)


def test_group_events_keeps_a_phase_change_right_after_another(session, gm):
    phase_advance(session=session, by=gm, from_phase="preplay")
    phase_advance(session=session, by=gm, from_phase="opening")

    phases, _ = log_export.session_review(viewer=_viewer(session, gm))

    shown = [
        (phase.phase, event.payload["to"])
        for phase in phases
        for section in phase.sections
        for event in section.events
    ]
    assert shown == [("opening", "opening"), ("middle", "middle")]


# Markdown and HTML -------------------------------------------------------------------------


def test_markdown_escape_neutralises_markup():
    text = log_export.markdown_escape("# <b>bold</b> *x* [a](http://x)\n- item")
    assert "<b>" not in text
    assert text.startswith("\\#")
    assert "\n" not in text


def _markdown_item(session, gm, kind, payload) -> str:
    """The Markdown export's list item of one event appended to the session."""
    event = timeline_append(session=session, kind=kind, actor=gm, payload=payload)
    markdown = log_export.export_markdown(viewer=_viewer(session, gm))
    start = markdown.index(f"- \\#{event.seq} ")
    return markdown[start:].split("\n- ", 1)[0].rstrip("\n")


def test_markdown_puts_a_handout_text_under_its_title_after_a_blank_line(session, gm):
    payload = {"handout_id": 1, "title": "A torn map", "body": "North of the well.", "slot": None}
    item = _markdown_item(session, gm, "handout_revealed", payload)
    assert item.endswith("Handout A torn map\n\n  North of the well.")


def test_markdown_keeps_the_lines_of_a_handout_text(session, gm):
    payload = {"handout_id": 1, "title": "Map", "body": "North.\n- ten paces", "slot": 1}
    item = _markdown_item(session, gm, "handout_revealed", payload)
    assert item.endswith("Map\n\n  North.\\\n  \\- ten paces")


def test_markdown_keeps_the_lines_of_a_self_introduction(session, gm):
    payload = {"character": "Aki", "character_id": 1, "text": "A librarian who fears\nnothing."}
    item = _markdown_item(session, gm, "self_introduction", payload)
    assert item.endswith("Aki: A librarian who fears\\\n  nothing.")


def test_export_html_standalone(played, gm):
    page = log_export.export_html(viewer=_viewer(played, gm))
    assert "<script" not in page
    assert "http://" not in page and "https://" not in page
    assert 'src="/' not in page and 'href="/' not in page
    assert "<style>" in page
    assert '<html lang="en">' in page


def test_export_html_language_follows_active_language(played, gm):
    from django.utils import translation

    with translation.override("ja"):
        page = log_export.export_html(viewer=_viewer(played, gm))
    assert '<html lang="ja">' in page
    assert "ルールプロファイル" in page


def test_export_html_has_no_forms(played, gm):
    page = log_export.export_html(viewer=_viewer(played, gm))
    assert "<form" not in page and "<button" not in page


def test_export_filename_safe(session):
    session.title = '../"evil"\r\nname<>'
    assert log_export.export_filename(session, "html") == "2026-12-05-evil-name.html"


# Import --------------------------------------------------------------------------------


def test_export_markdown_marks_offtopic_line(session, gm):
    chat_post(session=session, by=gm, text="Pizza is here", channel="offtopic")

    markdown = log_export.export_markdown(viewer=_viewer(session, gm))

    # Markdown escapes the brackets, so they read as brackets and not as a link.
    assert "\\[Off-topic\\] gm: Pizza is here" in markdown


def test_export_markdown_leaves_main_line_unmarked(session, gm):
    chat_post(session=session, by=gm, text="Open the door")

    assert "Off-topic" not in log_export.export_markdown(viewer=_viewer(session, gm))


def test_log_import_refuses_chat_with_unknown_channel(played, gm, outsider):
    document = _gm_document(played, gm)
    line = next(event for event in document["events"] if event["kind"] == "chat")
    line["payload"]["channel"] = "lobby"
    assert "fields its kind chat needs" in _refused(json.dumps(document), outsider)


def test_log_import_refuses_a_line_with_a_face_id_below_one(played, gm, outsider):
    document = _gm_document(played, gm)
    line = next(event for event in document["events"] if event["kind"] == "chat")
    line["payload"].update({"mode": "ic", "character": "Aki", "face_id": -1, "face": "smile"})
    assert "names a face that is not a positive number" in _refused(json.dumps(document), outsider)


def test_log_import_keeps_offtopic_channel(session, gm, outsider):
    chat_post(session=session, by=gm, text="Pizza is here", channel="offtopic")
    imported = log_import(data=json.dumps(_gm_document(session, gm)), by=outsider)
    line = imported.events.get(kind="chat")
    assert line.payload["channel"] == "offtopic"


def _tab_line(session, gm, player):
    """A line posted in a GM tab that was then renamed and archived."""
    tab = chat_tab_add(session=session, by=gm, name="情報")
    chat_post(session=session, by=player, text="The ledger is forged", channel=tab.key)
    chat_tab_rename(session=session, by=gm, tab_id=tab.pk, name="Clues")
    chat_tab_archive(session=session, by=gm, tab_id=tab.pk)
    return tab


def test_exports_keep_an_archived_tabs_name_on_its_lines(session, gm, player):
    tab = _tab_line(session, gm, player)

    exports = _exports(session, player)

    assert "\\[情報\\] player: The ledger is forged" in exports["markdown"]
    assert '<span class="badge badge-tab">[情報]</span>' in exports["html"]
    line = next(e for e in json.loads(exports["json"])["events"] if e["kind"] == "chat")
    assert line["payload"] == {"text": "The ledger is forged", "channel": tab.key, "tab": "情報"}
    assert "The GM archived the chat tab “Clues”." in exports["markdown"]


def test_log_import_keeps_a_tabs_name_on_its_lines(session, gm, player, outsider):
    _tab_line(session, gm, player)

    imported = log_import(data=json.dumps(_gm_document(session, gm)), by=outsider)

    assert imported.events.get(kind="chat").payload["tab"] == "情報"
    markdown = log_export.export_markdown(viewer=_viewer(imported, outsider))
    assert "\\[情報\\] player: The ledger is forged" in markdown


def test_log_import_refuses_a_tab_line_without_its_name(played, gm, outsider):
    document = _gm_document(played, gm)
    line = next(event for event in document["events"] if event["kind"] == "chat")
    line["payload"]["channel"] = "tab4"
    assert "fields its kind chat needs" in _refused(json.dumps(document), outsider)


def _gm_document(played, gm) -> dict:
    return log_export.export_json(viewer=_viewer(played, gm))


def test_log_import_round_trip_same_json(played, gm, outsider):
    first = _gm_document(played, gm)
    imported = log_import(data=json.dumps(first).encode(), by=outsider)
    second = log_export.export_json(viewer=_viewer(imported, outsider))
    assert second == first


def test_log_import_round_trip_same_file(played, gm, outsider):
    first = log_export.export_json_text(viewer=_viewer(played, gm))
    imported = log_import(data=first.encode(), by=outsider)
    assert log_export.export_json_text(viewer=_viewer(imported, outsider)) == first


def test_log_import_round_trip_partial_same_json(played, gm, second_player, outsider):
    first = log_export.export_json(viewer=_viewer(played, second_player))
    imported = log_import(data=json.dumps(first).encode(), by=outsider)
    second = log_export.export_json(viewer=_viewer(imported, outsider))
    assert second == first


def test_log_import_makes_importer_gm_of_new_table(played, gm, outsider):
    imported = log_import(data=json.dumps(_gm_document(played, gm)), by=outsider)
    membership = Membership.objects.get(table=imported.table)
    assert (membership.user, membership.role, imported.table.gm) == (outsider, "gm", outsider)


def test_log_import_creates_no_accounts(played, gm, outsider):
    from django.contrib.auth import get_user_model

    before = get_user_model().objects.count()
    log_import(data=json.dumps(_gm_document(played, gm)), by=outsider)
    assert get_user_model().objects.count() == before


def test_log_import_new_table_player_sees_no_hidden_event(played, gm, outsider):
    imported = log_import(data=json.dumps(_gm_document(played, gm)), by=outsider)
    newcomer = MembershipFactory(table=imported.table, user=UserFactory(username="newcomer")).user
    text = log_export.export_json_text(viewer=_viewer(imported, newcomer))
    for secret in SECRETS.values():
        assert secret not in text


def test_log_import_keeps_hostile_text_as_text(played, gm, outsider):
    document = _gm_document(played, gm)
    document["session"]["title"] = "<script>alert(1)</script>"
    document["events"][1]["payload"]["text"] = "<img src=x onerror=alert(1)>"
    imported = log_import(data=json.dumps(document), by=outsider)
    page = log_export.export_html(viewer=_viewer(imported, outsider))
    assert "<script>alert" not in page and "<img src=x" not in page
    assert "&lt;img src=x onerror=alert(1)&gt;" in page


def _refused(data, by) -> str:
    before = _counts()
    with pytest.raises(ValidationError) as error:
        log_import(data=data, by=by)
    assert _counts() == before
    return " ".join(error.value.messages)


def test_log_import_refuses_not_json(outsider):
    assert "not valid JSON" in _refused(b"<html>nope</html>", outsider)


def test_log_import_refuses_not_utf8(outsider):
    assert "UTF-8" in _refused(b"\xff\xfe\x00", outsider)


def test_log_import_refuses_other_format(outsider):
    assert "not a session log" in _refused(json.dumps({"format": "x"}), outsider)


def test_log_import_refuses_wrong_version(played, gm, outsider):
    document = _gm_document(played, gm)
    document["version"] = 99
    assert "version 99" in _refused(json.dumps(document), outsider)


def test_log_import_refuses_wrong_type(played, gm, outsider):
    document = _gm_document(played, gm)
    document["events"][2]["payload"] = "text instead of an object"
    assert "Event 3 must be a JSON object" in _refused(json.dumps(document), outsider)


def test_log_import_refuses_seq_as_text(played, gm, outsider):
    document = _gm_document(played, gm)
    document["events"][0]["seq"] = "1"
    assert "whole number" in _refused(json.dumps(document), outsider)


def test_log_import_refuses_gap_in_seq(played, gm, outsider):
    document = _gm_document(played, gm)
    del document["events"][3]
    assert "without gaps" in _refused(json.dumps(document), outsider)


def test_log_import_refuses_decreasing_seq_in_partial(played, second_player, outsider):
    document = log_export.export_json(viewer=_viewer(played, second_player))
    document["events"][1]["seq"] = 1
    assert "keep increasing" in _refused(json.dumps(document), outsider)


def test_log_import_refuses_too_large(outsider):
    data = b'{"format": "' + b"x" * MAX_BYTES + b'"}'
    assert f"larger than {MAX_BYTES // 2**20} MB" in _refused(data, outsider)


def test_log_import_refuses_too_many_events(played, gm, outsider, monkeypatch):
    monkeypatch.setattr("sessions_app.services.logs.MAX_EVENTS", 3)
    assert "more than 3 entries" in _refused(json.dumps(_gm_document(played, gm)), outsider)


def test_log_import_refuses_html_in_kind(played, gm, outsider):
    document = _gm_document(played, gm)
    document["events"][0]["kind"] = "<script>"
    assert "kind" in _refused(json.dumps(document), outsider)


def test_log_import_refuses_html_in_username(played, gm, outsider):
    document = _gm_document(played, gm)
    document["members"][0]["username"] = "<b>gm</b>"
    assert "not a valid username" in _refused(json.dumps(document), outsider)


def test_log_import_refuses_unknown_visibility(played, gm, outsider):
    document = _gm_document(played, gm)
    document["events"][0]["visibility"] = "nobody"
    assert "visibility" in _refused(json.dumps(document), outsider)


def test_log_import_refuses_impossible_profile(played, gm, outsider):
    document = _gm_document(played, gm)
    document["session"]["rules_profile"]["critical"] = 13
    _refused(json.dumps(document), outsider)


def test_log_import_refuses_deep_nesting(outsider):
    assert "not valid JSON" in _refused(b"[" * 100_000 + b"]" * 100_000, outsider)


def test_log_import_refuses_extra_field(played, gm, outsider):
    document = _gm_document(played, gm)
    document["events"][0]["id"] = 5
    assert "exactly these fields" in _refused(json.dumps(document), outsider)


# Queries -----------------------------------------------------------------------------------


def _queries(action) -> int:
    with CaptureQueriesContext(connection) as captured:
        action()
    return len(captured.captured_queries)


@pytest.mark.parametrize(
    "build",
    [
        lambda v: log_export.session_review(viewer=v),
        lambda v: log_export.export_json(viewer=v),
        lambda v: log_export.export_markdown(viewer=v),
        lambda v: log_export.export_html(viewer=v),
    ],
    ids=["review", "json", "markdown", "html"],
)
def test_log_queries_constant_in_event_count(session, gm, player, build):
    counts = []
    for total in (50, 500):
        add_chat_lines(session, gm, total - session.last_seq)
        viewer = _viewer(session, player)
        counts.append(_queries(lambda viewer=viewer: build(viewer)))
    assert counts[0] == counts[1] > 0


def test_log_import_keeps_speakers_names(played, gm, outsider):
    imported = log_import(data=json.dumps(_gm_document(played, gm)), by=outsider)
    page = log_export.export_html(viewer=_viewer(imported, outsider))
    assert '<strong class="speaker">gm</strong>: ' + PUBLIC["chat"] in page


def test_markdown_shows_a_handout_written_in_markdown_as_its_words(session, gm):
    body = "The **Keeper** waits.\n\n- ten paces\n- a door"
    payload = {"handout_id": 1, "title": "Map", "body": body, "slot": None}
    item = _markdown_item(session, gm, "handout_revealed", payload)
    assert item.endswith("Map\n\n  The Keeper waits.\\\n  \\- ten paces\\\n  \\- a door")
