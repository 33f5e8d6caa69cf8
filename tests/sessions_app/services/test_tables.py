"""Nobody is harmed with the game (誰かを傷つけるためにこのゲームを用いてはならない): the GM
removes a member or withdraws an invite from the table page; a player may leave."""

import json

import pytest
from asgiref.sync import sync_to_async
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client
from django.urls import reverse

from sessions_app.live.consumers import CLOSE_NOT_A_MEMBER
from sessions_app.models import Invite, Membership, TableBar
from sessions_app.selectors.access import is_member
from sessions_app.services.tables import (
    InviteError,
    invite_accept,
    invite_create,
    invite_resolve,
    invite_withdraw,
    member_bar_lift,
    member_remove,
    table_leave,
)
from tests.factories import MembershipFactory, UserFactory
from tests.sessions_app.live.test_consumers import _frames, _joined


def test_gm_removes_a_member(table, gm, player, player_membership):
    member_remove(table=table, by=gm, user=player)

    assert not is_member(user=player, table_id=table.pk)


def test_player_removes_a_member_refused(table, player, player_membership):
    other = MembershipFactory(table=table, user=UserFactory(username="ren")).user

    with pytest.raises(PermissionDenied):
        member_remove(table=table, by=player, user=other)
    assert is_member(user=other, table_id=table.pk)


def test_gm_removes_themselves_refused(table, gm):
    with pytest.raises(ValidationError):
        member_remove(table=table, by=gm, user=gm)
    assert is_member(user=gm, table_id=table.pk)


def test_gm_removes_an_outsider_refused(table, gm, outsider):
    with pytest.raises(ValidationError):
        member_remove(table=table, by=gm, user=outsider)


def test_player_leaves_a_table(table, player, player_membership):
    table_leave(table=table, by=player)

    assert not Membership.objects.filter(table=table, user=player).exists()


def test_gm_leaves_their_own_table_refused(table, gm):
    with pytest.raises(PermissionDenied):
        table_leave(table=table, by=gm)


def test_gm_withdraws_an_invite(table, gm):
    invite = invite_create(table=table, by=gm)

    invite_withdraw(invite=invite, by=gm)

    assert Invite.objects.get(pk=invite.pk).revoked
    with pytest.raises(InviteError):
        invite_resolve(token=invite.token)


def test_player_withdraws_an_invite_refused(table, gm, player, player_membership):
    invite = invite_create(table=table, by=gm)

    with pytest.raises(PermissionDenied):
        invite_withdraw(invite=invite, by=player)
    assert not Invite.objects.get(pk=invite.pk).revoked


def test_removed_member_sees_nothing_more_of_the_table(table, session, gm, player):
    client = Client()
    client.force_login(player)
    member_remove(table=table, by=gm, user=player)

    assert client.get(reverse("table_detail", args=[table.pk])).status_code == 404
    assert client.get(reverse("session_room", args=[session.pk])).status_code == 404


def test_table_page_removes_a_member_for_the_gm(table, gm, player, player_membership):
    client = Client()
    client.force_login(gm)

    response = client.post(
        reverse("member_remove", args=[table.pk, player.pk]), headers={"HX-Request": "true"}
    )

    members, barred = response.content.decode().split('id="barred-members"')
    assert response.status_code == 200
    assert 'id="members"' in members and "player" not in members
    assert 'data-barred="player"' in barred and "Let player join again" in barred
    assert not is_member(user=player, table_id=table.pk)


def test_removed_member_cannot_rejoin_through_an_invite_they_still_hold(
    table, gm, player, player_membership
):
    invite = invite_create(table=table, by=gm)
    member_remove(table=table, by=gm, user=player)

    with pytest.raises(PermissionDenied, match="removed you"):
        invite_accept(token=invite.token, user=player)
    assert not is_member(user=player, table_id=table.pk)


def test_removed_member_rejoining_through_the_invite_page_is_told_why(
    table, gm, player, player_membership
):
    invite = invite_create(table=table, by=gm)
    member_remove(table=table, by=gm, user=player)
    client = Client()
    client.force_login(player)

    response = client.post(reverse("invite_join_signed_in", args=[invite.token]))

    assert response.status_code == 403
    assert "only they can let you join again" in response.content.decode()
    assert not is_member(user=player, table_id=table.pk)


def test_lifted_bar_lets_a_removed_member_rejoin(table, gm, player, player_membership):
    invite = invite_create(table=table, by=gm)
    member_remove(table=table, by=gm, user=player)

    member_bar_lift(table=table, by=gm, user=player)

    invite_accept(token=invite.token, user=player)
    assert is_member(user=player, table_id=table.pk)


def test_leaving_a_table_bars_nobody(table, gm, player, player_membership):
    invite = invite_create(table=table, by=gm)
    table_leave(table=table, by=player)

    invite_accept(token=invite.token, user=player)

    assert is_member(user=player, table_id=table.pk)


def test_player_lifts_a_bar_refused(table, gm, player, player_membership):
    removed = MembershipFactory(table=table, user=UserFactory(username="ren")).user
    member_remove(table=table, by=gm, user=removed)

    with pytest.raises(PermissionDenied):
        member_bar_lift(table=table, by=player, user=removed)
    assert TableBar.objects.filter(table=table, user=removed).exists()


def test_table_page_shows_the_bar_and_lifts_it_for_the_gm(table, gm, player, player_membership):
    member_remove(table=table, by=gm, user=player)
    client = Client()
    client.force_login(gm)
    page = client.get(reverse("table_detail", args=[table.pk])).content.decode()

    response = client.post(
        reverse("member_bar_lift", args=[table.pk, player.pk]), headers={"HX-Request": "true"}
    )

    assert 'data-barred="player"' in page
    assert response.status_code == 200 and b'data-barred="player"' not in response.content
    assert not TableBar.objects.exists()


def test_table_page_withdraws_an_invite_for_the_gm(table, gm):
    invite = invite_create(table=table, by=gm)
    client = Client()
    client.force_login(gm)

    response = client.post(reverse("invite_withdraw", args=[table.pk, invite.pk]))

    assert response.status_code == 302 and Invite.objects.get(pk=invite.pk).revoked


def test_table_page_lets_a_player_leave(table, player, player_membership):
    client = Client()
    client.force_login(player)
    page = client.get(reverse("table_detail", args=[table.pk]))

    response = client.post(reverse("table_leave", args=[table.pk]))

    assert b"Leave this table" in page.content
    assert response.status_code == 302 and not is_member(user=player, table_id=table.pk)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_gm_removes_a_member_and_their_sockets_close(session, gm, player):
    player_socket, _initial = await _joined(player, session)
    gm_socket, _initial = await _joined(gm, session)

    await sync_to_async(member_remove)(table=session.table, by=gm, user=player)

    player_frames = await _frames(player_socket, timeout=1)
    assert player_frames[-1] == f"<closed {CLOSE_NOT_A_MEMBER}>"
    # The GM's own socket stays open.
    await gm_socket.send_to(text_data=json.dumps({"type": "ping"}))
    assert all("<closed" not in frame for frame in await _frames(gm_socket))
    await gm_socket.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_player_leaving_a_table_closes_their_sockets(session, player):
    socket, _initial = await _joined(player, session)

    await sync_to_async(table_leave)(table=session.table, by=player)

    assert (await _frames(socket, timeout=1))[-1] == f"<closed {CLOSE_NOT_A_MEMBER}>"


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_leaving_another_table_leaves_this_tables_sockets_open(session, player):
    other_table = (await sync_to_async(MembershipFactory)(user=player)).table
    socket, _initial = await _joined(player, session)

    await sync_to_async(table_leave)(table=other_table, by=player)

    await socket.send_to(text_data=json.dumps({"type": "ping"}))
    assert all("<closed" not in frame for frame in await _frames(socket))
    await socket.disconnect()
