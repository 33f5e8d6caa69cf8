"""The GM's chat tabs: opened, renamed, moved and archived by the GM alone; lines posted in
them."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from sessions_app.models import ChatTab, TimelineEvent
from sessions_app.selectors.chat_tabs import chat_tab_of_channel, chat_tabs_open
from sessions_app.services.chat import chat_post
from sessions_app.services.chat_tabs import (
    chat_tab_add,
    chat_tab_archive,
    chat_tab_move,
    chat_tab_rename,
)
from tests.factories import GameSessionFactory

pytestmark = pytest.mark.django_db


def _messages(error) -> str:
    return " ".join(error.value.messages)


def test_chat_tab_add_keeps_the_name_as_typed_and_says_so_on_the_timeline(session, gm):
    tab = chat_tab_add(session=session, by=gm, name="  情報 ")

    assert tab.name == "情報"
    event = TimelineEvent.objects.get(session=session, kind="chat_tab")
    assert event.payload == {"change": "added", "key": tab.key, "name": "情報"}


def test_chat_tab_add_puts_new_tabs_at_the_end(session, gm):
    first = chat_tab_add(session=session, by=gm, name="情報")
    second = chat_tab_add(session=session, by=gm, name="Secrets")

    assert chat_tabs_open(session_id=session.pk) == [first, second]


def test_chat_tab_add_by_player_refused(session, player):
    with pytest.raises(PermissionDenied):
        chat_tab_add(session=session, by=player, name="情報")

    assert not ChatTab.objects.exists()


@pytest.mark.parametrize(
    ("name", "message"),
    [("", "Name the tab."), ("   ", "Name the tab."), ("x" * 21, "at most 20 characters")],
)
def test_chat_tab_add_refuses_a_bad_name(session, gm, name, message):
    with pytest.raises(ValidationError) as error:
        chat_tab_add(session=session, by=gm, name=name)

    assert message in _messages(error)
    assert not ChatTab.objects.exists()


def test_chat_tab_add_refuses_a_duplicate_whatever_its_case(session, gm):
    chat_tab_add(session=session, by=gm, name="Secrets")

    with pytest.raises(ValidationError) as error:
        chat_tab_add(session=session, by=gm, name="secrets")

    assert "There is a tab of that name already." in _messages(error)
    assert ChatTab.objects.count() == 1


def test_chat_tab_add_may_reuse_an_archived_tabs_name(session, gm):
    old = chat_tab_add(session=session, by=gm, name="情報")
    chat_tab_archive(session=session, by=gm, tab_id=old.pk)

    new = chat_tab_add(session=session, by=gm, name="情報")

    assert new.key != old.key


def test_chat_tab_names_are_per_session(session, gm):
    other = GameSessionFactory(table=session.table)
    chat_tab_add(session=session, by=gm, name="情報")

    assert chat_tab_add(session=other, by=gm, name="情報").session == other


def test_chat_tab_rename_keeps_its_key_and_says_both_names(session, gm):
    tab = chat_tab_add(session=session, by=gm, name="情報")

    renamed = chat_tab_rename(session=session, by=gm, tab_id=tab.pk, name="Clues")

    assert renamed.key == tab.key
    assert TimelineEvent.objects.filter(kind="chat_tab").last().payload == {
        "change": "renamed",
        "key": tab.key,
        "name": "Clues",
        "old_name": "情報",
    }


def test_chat_tab_rename_to_another_tabs_name_refused(session, gm):
    chat_tab_add(session=session, by=gm, name="情報")
    tab = chat_tab_add(session=session, by=gm, name="秘匿")

    with pytest.raises(ValidationError) as error:
        chat_tab_rename(session=session, by=gm, tab_id=tab.pk, name="情報")

    assert "already" in _messages(error)
    tab.refresh_from_db()
    assert tab.name == "秘匿"


def test_chat_tab_rename_by_player_refused(session, gm, player):
    tab = chat_tab_add(session=session, by=gm, name="情報")

    with pytest.raises(PermissionDenied):
        chat_tab_rename(session=session, by=player, tab_id=tab.pk, name="Mine")


def test_chat_tab_of_another_session_cannot_be_renamed(session, gm):
    other = GameSessionFactory(table=session.table)
    tab = chat_tab_add(session=other, by=gm, name="情報")

    with pytest.raises(ValidationError):
        chat_tab_rename(session=session, by=gm, tab_id=tab.pk, name="Mine")


def test_chat_tab_archive_takes_it_off_the_open_tabs(session, gm):
    tab = chat_tab_add(session=session, by=gm, name="情報")

    chat_tab_archive(session=session, by=gm, tab_id=tab.pk)

    assert chat_tabs_open(session_id=session.pk) == []
    assert chat_tab_of_channel(session_id=session.pk, channel=tab.key) is None


def test_chat_tab_archive_by_player_refused(session, gm, player):
    tab = chat_tab_add(session=session, by=gm, name="情報")

    with pytest.raises(PermissionDenied):
        chat_tab_archive(session=session, by=player, tab_id=tab.pk)

    assert chat_tabs_open(session_id=session.pk) == [tab]


def test_chat_post_in_a_tab_carries_its_key_and_name(session, gm, player):
    tab = chat_tab_add(session=session, by=gm, name="情報")

    line = chat_post(session=session, by=player, text="The ledger is forged", channel=tab.key)

    assert line.payload == {"text": "The ledger is forged", "channel": tab.key, "tab": "情報"}


def test_chat_post_in_an_archived_tab_refused(session, gm, player):
    tab = chat_tab_add(session=session, by=gm, name="情報")
    chat_tab_archive(session=session, by=gm, tab_id=tab.pk)

    with pytest.raises(ValidationError) as error:
        chat_post(session=session, by=player, text="Hello", channel=tab.key)

    assert "Choose the main channel, off-topic or a tab." in _messages(error)


@pytest.mark.parametrize("channel", ["lobby", "tab", "tabx", "tab99999999999999999999", ""])
def test_chat_post_to_no_tab_refused(session, player, channel):
    with pytest.raises(ValidationError):
        chat_post(session=session, by=player, text="Hello", channel=channel)


def test_chat_post_into_another_sessions_tab_refused(session, gm, player):
    other = GameSessionFactory(table=session.table)
    tab = chat_tab_add(session=other, by=gm, name="情報")

    with pytest.raises(ValidationError):
        chat_post(session=session, by=player, text="Hello", channel=tab.key)


def _bar(session) -> list[str]:
    return [tab.name for tab in chat_tabs_open(session_id=session.pk)]


def test_chat_tab_move_takes_one_step_along_the_bar_past_archived_tabs(session, gm):
    chat_tab_add(session=session, by=gm, name="Clues")
    gone = chat_tab_add(session=session, by=gm, name="Gone")
    secrets = chat_tab_add(session=session, by=gm, name="Secrets")
    chat_tab_archive(session=session, by=gm, tab_id=gone.pk)

    chat_tab_move(session=session, by=gm, tab_id=secrets.pk, later=False)
    assert _bar(session) == ["Secrets", "Clues"]

    chat_tab_move(session=session, by=gm, tab_id=secrets.pk, later=True)
    assert _bar(session) == ["Clues", "Secrets"]
    # Moving is no part of play: the timeline says nothing of it.
    assert not TimelineEvent.objects.filter(kind="chat_tab", payload__change="moved").exists()


def test_chat_tab_move_past_the_end_is_refused_and_changes_nothing(session, gm):
    first = chat_tab_add(session=session, by=gm, name="Clues")
    chat_tab_add(session=session, by=gm, name="Secrets")

    with pytest.raises(ValidationError) as refused:
        chat_tab_move(session=session, by=gm, tab_id=first.pk, later=False)

    assert "already at that end" in _messages(refused)
    assert _bar(session) == ["Clues", "Secrets"]


def test_chat_tab_move_by_a_player_is_refused(session, gm, player):
    first = chat_tab_add(session=session, by=gm, name="Clues")
    chat_tab_add(session=session, by=gm, name="Secrets")

    with pytest.raises(PermissionDenied):
        chat_tab_move(session=session, by=player, tab_id=first.pk, later=True)

    assert _bar(session) == ["Clues", "Secrets"]


def test_chat_tab_move_sends_everyone_present_the_new_tab_bar(
    session, gm, player, monkeypatch, django_capture_on_commit_callbacks
):
    from sessions_app.live import hooks
    from sessions_app.services.timeline import presence_enter

    chat_tab_add(session=session, by=gm, name="Clues")
    secrets = chat_tab_add(session=session, by=gm, name="Secrets")
    for user in (gm, player):
        presence_enter(session_id=session.pk, user=user, channel_name=f"c{user.pk}", language="en")
    sent = []
    monkeypatch.setattr(hooks, "send_all", sent.extend)

    with django_capture_on_commit_callbacks(execute=True):
        chat_tab_move(session=session, by=gm, tab_id=secrets.pk, later=False)

    bars = [message["html"] for _group, message in sent if message["type"] == "room.panels"]
    assert len(bars) == 2
    for html in bars:
        assert html.index(">Secrets<") < html.index(">Clues<")
