"""A chat line or a roll sent again with its key is done once; the retry gets what was stored."""

import pytest

from sessions_app.models import ActionKey, Roll, TimelineEvent
from sessions_app.services.action_keys import action_key_clean
from tests.sessions_app.views.test_room import HTMX, _url

pytestmark = pytest.mark.django_db

KEY = "a1b2c3d4e5f6a7b8c9d0"


def _chat_lines():
    return TimelineEvent.objects.filter(kind="chat").count()


def test_chat_sent_twice_with_one_key_is_one_line(player_client, session):
    data = {"text": "Hello", "say_as": "ooc", "action_key": KEY}

    first = player_client.post(_url("chat_post", session), data, **HTMX)
    second = player_client.post(_url("chat_post", session), data, **HTMX)

    assert (first.status_code, second.status_code) == (204, 204)
    assert _chat_lines() == 1


def test_chat_lines_with_their_own_keys_are_all_kept(player_client, session):
    for key in (KEY, KEY[::-1]):
        player_client.post(
            _url("chat_post", session), {"text": "Hi", "say_as": "ooc", "action_key": key}, **HTMX
        )

    assert _chat_lines() == 2


def test_refused_action_leaves_its_key_for_the_corrected_retry(player_client, session):
    player_client.post(_url("roll_box", session), {"text": "9Z9", "action_key": KEY}, **HTMX)
    assert not ActionKey.objects.exists()

    player_client.post(_url("roll_box", session), {"text": "2D6", "action_key": KEY}, **HTMX)
    player_client.post(_url("roll_box", session), {"text": "2D6", "action_key": KEY}, **HTMX)

    assert Roll.objects.count() == 1


def test_roll_box_retry_rolls_once(gm_client, session):
    for _ in range(3):
        gm_client.post(_url("roll_box", session), {"text": "2D6", "action_key": KEY}, **HTMX)

    assert Roll.objects.count() == 1
    assert ActionKey.objects.get().roll == Roll.objects.get()


@pytest.mark.parametrize(
    ("value", "kept"),
    [(KEY, True), ("short", False), ("x" * 65, False), ("bad key!", False), (None, False)],
)
def test_action_key_clean(value, kept):
    assert action_key_clean(value) == (value if kept else "")
