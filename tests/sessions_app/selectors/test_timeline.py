import datetime

from django.utils import timezone

from sessions_app.models import Presence, TimelineEvent
from sessions_app.selectors.timeline import events_after, present_users, visible_events
from sessions_app.services.timeline import presence_enter, presence_seen, timeline_append
from tests.factories import UserFactory


def _append_mixed_events(session, gm, player):
    timeline_append(session=session, kind="chat", actor=gm, payload={"text": "Hello"})
    timeline_append(
        session=session,
        kind="scenario_chosen",
        actor=gm,
        payload={"title": "The Silent Library"},
        visibility=TimelineEvent.Visibility.GM,
    )
    timeline_append(
        session=session,
        kind="whisper",
        actor=gm,
        payload={"text": "Psst", "to": "player", "to_gm": False},
        visibility=TimelineEvent.Visibility.USERS,
        audience=[player],
    )


def test_visible_events_player_sees_public_and_listed(session, gm, player):
    _append_mixed_events(session, gm, player)

    kinds = [e.kind for e in visible_events(session_id=session.pk, user=player, is_gm=False)]

    assert kinds == ["chat", "whisper"]


def test_visible_events_other_player_sees_public_only(session, gm, player):
    other = UserFactory(username="other")
    _append_mixed_events(session, gm, player)

    kinds = [e.kind for e in visible_events(session_id=session.pk, user=other, is_gm=False)]

    assert kinds == ["chat"]


def test_visible_events_gm_sees_everything(session, gm, player):
    _append_mixed_events(session, gm, player)

    kinds = [e.kind for e in visible_events(session_id=session.pk, user=gm, is_gm=True)]

    assert kinds == ["chat", "scenario_chosen", "whisper"]


def test_events_after_returns_only_later_events(session, gm):
    for _ in range(4):
        timeline_append(session=session, kind="chat", actor=gm, payload={"text": "A line"})

    seqs = [e.seq for e in events_after(session_id=session.pk, user=gm, is_gm=True, after_seq=2)]

    assert seqs == [3, 4]


def test_present_users_counts_each_user_once(session, player, gm):
    presence_enter(session_id=session.pk, user=player, channel_name="a")
    presence_enter(session_id=session.pk, user=player, channel_name="b")
    presence_enter(session_id=session.pk, user=gm, channel_name="c")

    assert present_users(session_id=session.pk) == [gm, player]


def test_present_users_forgets_sockets_not_seen_for_long(session, player, gm):
    presence_enter(session_id=session.pk, user=player, channel_name="stale")
    presence_enter(session_id=session.pk, user=gm, channel_name="alive")
    Presence.objects.filter(channel_name="stale").update(
        last_seen=timezone.now() - datetime.timedelta(minutes=10)
    )

    assert present_users(session_id=session.pk) == [gm]


def test_presence_seen_refreshes_a_socket(session, player):
    presence_enter(session_id=session.pk, user=player, channel_name="c1")
    Presence.objects.filter(channel_name="c1").update(
        last_seen=timezone.now() - datetime.timedelta(minutes=10)
    )

    presence_seen(channel_name="c1")

    assert present_users(session_id=session.pk) == [player]
