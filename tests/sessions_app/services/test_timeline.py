import datetime

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from sessions_app.kinds.registry import PayloadError, UnknownKind
from sessions_app.models import GameSession, Invite, Membership, Table, TimelineEvent
from sessions_app.services.chat import CHAT_MAX_LENGTH, chat_post
from sessions_app.services.tables import (
    InviteError,
    invite_accept,
    invite_create,
    session_create,
    table_create,
    user_signup_and_accept,
)
from sessions_app.services.timeline import presence_enter, presence_leave, timeline_append
from tests.factories import standard_profile

User = get_user_model()


def test_table_create_makes_creator_gm_member(gm):
    table = table_create(gm=gm, name="  Friday table ")

    assert table.name == "Friday table"
    membership = Membership.objects.get(table=table, user=gm)
    assert membership.role == Membership.Role.GM


def test_table_create_blank_name_refused_and_nothing_created(gm):
    with pytest.raises(ValidationError):
        table_create(gm=gm, name="   ")

    assert not Table.objects.exists()
    assert not Membership.objects.exists()


def test_invite_create_by_gm_expires_in_future(table, gm):
    invite = invite_create(table=table, by=gm)

    assert invite.is_usable()
    assert len(invite.token) >= 30


def test_invite_create_by_player_refused(table, player_membership, player):
    with pytest.raises(PermissionDenied):
        invite_create(table=table, by=player)

    assert not Invite.objects.exists()


def test_invite_accept_makes_player_member(table, gm, outsider):
    invite = invite_create(table=table, by=gm)

    membership = invite_accept(token=invite.token, user=outsider)

    assert membership.table == table
    assert membership.role == Membership.Role.PLAYER


def test_invite_accept_twice_keeps_one_membership(table, gm, outsider):
    invite = invite_create(table=table, by=gm)

    invite_accept(token=invite.token, user=outsider)
    invite_accept(token=invite.token, user=outsider)

    assert Membership.objects.filter(table=table, user=outsider).count() == 1


def test_invite_accept_by_gm_keeps_gm_role(table, gm):
    invite = invite_create(table=table, by=gm)

    membership = invite_accept(token=invite.token, user=gm)

    assert membership.role == Membership.Role.GM


def test_invite_accept_expired_refused_and_nothing_created(table, gm, outsider):
    invite = invite_create(table=table, by=gm, lifetime=datetime.timedelta(seconds=-1))

    with pytest.raises(InviteError, match="expired"):
        invite_accept(token=invite.token, user=outsider)

    assert not Membership.objects.filter(user=outsider).exists()


def test_invite_accept_unknown_token_refused_and_nothing_created(table, outsider):
    with pytest.raises(InviteError, match="not known"):
        invite_accept(token="no-such-token", user=outsider)

    assert not Membership.objects.filter(user=outsider).exists()


def test_invite_accept_revoked_refused(table, gm, outsider):
    invite = invite_create(table=table, by=gm)
    Invite.objects.filter(pk=invite.pk).update(revoked=True)

    with pytest.raises(InviteError, match="withdrawn"):
        invite_accept(token=invite.token, user=outsider)


def test_user_signup_and_accept_creates_user_and_membership(table, gm):
    invite = invite_create(table=table, by=gm)

    user, membership = user_signup_and_accept(
        token=invite.token, username="newcomer", password="a-long-pass-phrase"
    )

    assert user.check_password("a-long-pass-phrase")
    assert membership.table == table


def test_user_signup_and_accept_expired_invite_creates_no_user(table, gm):
    invite = invite_create(table=table, by=gm, lifetime=datetime.timedelta(seconds=-1))

    with pytest.raises(InviteError):
        user_signup_and_accept(
            token=invite.token, username="newcomer", password="a-long-pass-phrase"
        )

    assert not User.objects.filter(username="newcomer").exists()


def test_user_signup_and_accept_weak_password_creates_no_user(table, gm):
    invite = invite_create(table=table, by=gm)

    with pytest.raises(ValidationError):
        user_signup_and_accept(token=invite.token, username="newcomer", password="123")

    assert not User.objects.filter(username="newcomer").exists()


def test_session_create_by_gm_appends_first_event(table, gm):
    session = session_create(
        table=table,
        by=gm,
        title="Opening night",
        scheduled_for=datetime.date(2026, 12, 5),
        rules_profile=standard_profile(),
    )

    event = TimelineEvent.objects.get(session=session, seq=1)
    assert (event.seq, event.kind, event.actor) == (1, "session_created", gm)


def test_session_create_commits_its_dice_before_any_roll(table, gm):
    session = session_create(
        table=table,
        by=gm,
        title="Opening night",
        scheduled_for=datetime.date(2026, 12, 5),
        rules_profile=standard_profile(),
    )

    kinds = list(session.events.order_by("seq").values_list("kind", flat=True))
    assert kinds == ["session_created", "dice_committed"]
    assert session.dice_epochs.get().used == 0


def test_session_create_by_player_refused(table, player_membership, player):
    with pytest.raises(PermissionDenied):
        session_create(
            table=table,
            by=player,
            title="Mine",
            scheduled_for=datetime.date(2026, 12, 5),
            rules_profile=standard_profile(),
        )

    assert not GameSession.objects.exists()


def test_session_create_blank_title_refused(table, gm):
    with pytest.raises(ValidationError):
        session_create(
            table=table,
            by=gm,
            title=" ",
            scheduled_for=datetime.date(2026, 12, 5),
            rules_profile=standard_profile(),
        )

    assert not GameSession.objects.exists()


def test_timeline_append_numbers_events_in_order(session, gm):
    first = timeline_append(session=session, kind="chat", actor=gm, payload={"text": "A line"})
    second = timeline_append(session=session, kind="chat", actor=gm, payload={"text": "A line"})

    assert (first.seq, second.seq) == (1, 2)
    session.refresh_from_db()
    assert session.last_seq == 2


def test_timeline_append_users_visibility_needs_audience(session, gm):
    with pytest.raises(ValidationError):
        timeline_append(session=session, kind="whisper", visibility=TimelineEvent.Visibility.USERS)


def test_timeline_append_wrong_payload_raises_and_writes_nothing(session, gm):
    with pytest.raises(PayloadError):
        timeline_append(session=session, kind="chat", actor=gm, payload={"text": 3})

    session.refresh_from_db()
    assert (TimelineEvent.objects.count(), session.last_seq) == (0, 0)


def test_timeline_append_unknown_kind_raises_and_writes_nothing(session, gm):
    with pytest.raises(UnknownKind):
        timeline_append(session=session, kind="note", actor=gm, payload={"text": "x"})

    session.refresh_from_db()
    assert (TimelineEvent.objects.count(), session.last_seq) == (0, 0)


def test_timeline_event_update_refused(session, gm):
    event = timeline_append(session=session, kind="chat", actor=gm, payload={"text": "A line"})
    event.kind = "edited"

    with pytest.raises(ValueError, match="append-only"):
        event.save()


def test_timeline_event_delete_refused(session, gm):
    event = timeline_append(session=session, kind="chat", actor=gm, payload={"text": "A line"})

    with pytest.raises(ValueError, match="append-only"):
        event.delete()


def test_timeline_queryset_update_and_delete_refused(session, gm):
    timeline_append(session=session, kind="chat", actor=gm, payload={"text": "A line"})

    with pytest.raises(ValueError):
        TimelineEvent.objects.filter(session=session).update(kind="x")
    with pytest.raises(ValueError):
        TimelineEvent.objects.filter(session=session).delete()


def test_timeline_append_rolled_back_keeps_sequence(session, gm):
    with pytest.raises(RuntimeError), transaction.atomic():
        timeline_append(session=session, kind="chat", actor=gm, payload={"text": "A line"})
        raise RuntimeError("abort")

    event = timeline_append(session=session, kind="chat", actor=gm, payload={"text": "A line"})
    assert event.seq == 1


def test_chat_post_by_player_is_public(session, player):
    event = chat_post(session=session, by=player, text=" Hello ")

    assert event.payload == {"text": "Hello"}
    assert event.visibility == TimelineEvent.Visibility.EVERYONE


def test_chat_post_gm_only_by_gm(session, gm):
    event = chat_post(session=session, by=gm, text="The butler did it", gm_only=True)

    assert event.visibility == TimelineEvent.Visibility.GM


def test_chat_post_gm_only_by_player_refused(session, player):
    with pytest.raises(PermissionDenied):
        chat_post(session=session, by=player, text="psst", gm_only=True)

    assert not TimelineEvent.objects.filter(kind="chat").exists()


def test_chat_post_by_outsider_refused(session, outsider):
    with pytest.raises(PermissionDenied):
        chat_post(session=session, by=outsider, text="hi")


def test_chat_post_empty_refused(session, player):
    with pytest.raises(ValidationError):
        chat_post(session=session, by=player, text="   ")


def test_chat_post_too_long_refused(session, player):
    with pytest.raises(ValidationError):
        chat_post(session=session, by=player, text="x" * (CHAT_MAX_LENGTH + 1))


def test_chat_post_offtopic_marks_its_channel(session, player):
    event = chat_post(session=session, by=player, text="Pizza?", channel="offtopic")

    assert event.payload == {"text": "Pizza?", "channel": "offtopic"}


def test_chat_post_unknown_channel_refused(session, player):
    with pytest.raises(ValidationError):
        chat_post(session=session, by=player, text="hi", channel="lobby")

    assert not TimelineEvent.objects.filter(kind="chat").exists()


def test_chat_payload_with_unknown_channel_refused_on_append(session, player):
    with pytest.raises(PayloadError):
        timeline_append(
            session=session, kind="chat", actor=player, payload={"text": "hi", "channel": "x"}
        )


def test_presence_enter_and_leave(session, player):
    presence_enter(session_id=session.pk, user=player, channel_name="chan-1")
    assert session.presences.filter(user=player).count() == 1

    presence_leave(channel_name="chan-1")
    assert not session.presences.exists()
