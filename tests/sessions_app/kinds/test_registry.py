"""The event-kind registry: declaring, registering and looking kinds up."""

from typing import TypedDict

import pytest
from django.template.loader import get_template

from sessions_app.kinds import registry
from sessions_app.kinds.registry import (
    Kind,
    LogPlace,
    Panel,
    PayloadError,
    Topic,
    UnknownKind,
    event_panels,
    kind_find,
    kind_get,
    kind_register,
    kinds_all,
    log_place,
    panels_changed,
    payload_check,
    topic_of,
)


class Note(TypedDict):
    text: str


@pytest.fixture
def scratch_registry(monkeypatch):
    """A copy of the registry that a test may add to."""
    monkeypatch.setattr(registry, "_KINDS", dict(registry._KINDS))


def test_kind_template_defaults_to_its_own_file():
    kind = Kind(name="note", payload=Note, samples=({"text": "x"},))

    assert kind.template == "sessions_app/kinds/note.html"


def test_kind_refuses_a_sample_of_another_shape():
    with pytest.raises(PayloadError, match="note sample"):
        Kind(name="note", payload=Note, samples=({"text": 3},))


def test_kind_refuses_to_go_without_samples():
    with pytest.raises(ValueError, match="sample"):
        Kind(name="note", payload=Note, samples=())


def test_kind_refuses_a_name_an_import_could_not_hold():
    with pytest.raises(ValueError, match="lowercase"):
        Kind(name="Note", payload=Note, samples=({"text": "x"},))


def test_kind_register_makes_another_apps_kind_known(scratch_registry):
    kind = Kind(
        name="note", payload=Note, samples=({"text": "x"},), template="other/kinds/note.html"
    )

    kind_register(kind)

    assert kind_get("note") is kind
    payload_check("note", {"text": "y"})


def test_kind_register_refuses_a_second_kind_of_a_known_name(scratch_registry):
    with pytest.raises(ValueError, match="registered already"):
        kind_register(Kind(name="chat", payload=Note, samples=({"text": "x"},)))

    assert kind_get("chat").payload is not Note


def test_kind_get_unknown_raises():
    with pytest.raises(UnknownKind):
        kind_get("no_such_kind")


def test_kind_find_unknown_is_none():
    assert kind_find("no_such_kind") is None


def test_payload_check_refuses_unknown_kind():
    with pytest.raises(UnknownKind):
        payload_check("no_such_kind", {})


def test_payload_check_refuses_wrong_payload():
    with pytest.raises(PayloadError, match="chat payload lacks text"):
        payload_check("chat", {"mode": "ic"})


def test_minigames_register_their_match_kinds():
    kinds = {kind.name: kind for kind in kinds_all()}

    assert kinds["match_finished"].template == "minigames/kinds/match_finished.html"
    assert kinds["match_started"].panels == {Panel.MATCHES}


def test_every_kind_has_its_template():
    for kind in kinds_all():
        assert get_template(kind.template)


def test_panels_changed_joins_the_kinds_panels():
    # A new scene starts without music: every browser's player stops.
    assert panels_changed(["check_rolled", "scene_started", "whisper"]) == {
        Panel.CHECKS,
        Panel.STAGE,
        Panel.AUDIO,
        Panel.INBOX,
    }


def test_event_panels_of_a_chat_line_only_in_character_on_the_main_channel():
    chat = kind_get("chat")
    in_character = {"text": "Stand back.", "mode": "ic", "character": "Aki", "character_id": 3}

    assert event_panels(chat, in_character) == {Panel.STANDING}
    assert event_panels(chat, {**in_character, "channel": "offtopic"}) == frozenset()
    assert event_panels(chat, {"text": "Brb"}) == frozenset()
    assert event_panels(None, in_character) == frozenset()


def test_panels_changed_ignores_a_kind_only_an_imported_log_holds():
    assert panels_changed(["no_such_kind"]) == frozenset()


def test_topic_of_names_the_review_filter():
    assert (topic_of("whisper"), topic_of("contest_decided"), topic_of("phase_changed")) == (
        Topic.CHAT,
        Topic.CHECKS,
        None,
    )


def test_log_place_of_scene_boundaries_and_aftermath():
    assert [log_place(name) for name in ("scene_ended", "backstage_note", "chat", "x")] == [
        LogPlace.BOUNDARY,
        LogPlace.AFTER_SCENE,
        LogPlace.SECTION,
        LogPlace.SECTION,
    ]
