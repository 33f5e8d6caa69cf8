import pytest
from django.urls import reverse

from sessions_app.models import (
    ExperienceEntry,
    GrowthRequest,
    Phase,
    RulesProfile,
    SessionSignoff,
)
from sessions_app.selectors.experience import balance_of, ledger_for, table_game
from sessions_app.services.experience import (
    AwardLine,
    experience_award_session,
    growth_confirm,
    growth_request,
)
from tests.factories import CharacterFactory, MembershipFactory, UserFactory, standard_profile


def balance(table, person):
    return balance_of(game=table_game(table=table), user=person)


@pytest.fixture
def catalogue(table):
    profile = standard_profile()
    profile.pk = None
    profile.table = table
    profile.growth_catalogue = [
        {"label": "+1 Strength", "cost": 10, "value_name": "Strength", "delta": 1, "limit": None}
    ]
    profile.save()
    table.rules_profile = profile
    table.save()
    return profile


def test_afterplay_award_form_lists_only_the_session_s_players_and_gm_ticked(
    gm_client, afterplay, table, player, gm
):
    bystander = UserFactory(username="ren")
    MembershipFactory(table=table, user=bystander)

    page = gm_client.get(reverse("afterplay", args=[afterplay.pk])).content.decode()

    assert 'data-person="player"' in page
    assert 'data-person="gm"' in page
    assert 'data-person="ren"' not in page
    assert f'name="p{player.pk}_line0" id="award_p{player.pk}_line0" checked' in page


def test_afterplay_gm_sees_award_form_with_standard_lines(gm_client, afterplay):
    response = gm_client.get(reverse("afterplay", args=[afterplay.pk]))

    assert response.status_code == 200
    assert b"Reached the scenario" in response.content
    assert b"Confirm the experience" in response.content


def test_afterplay_post_writes_ticked_lines_and_free_lines(gm_client, afterplay, gm, player):
    data = {
        f"p{player.pk}_line0": "on",
        f"p{player.pk}_amount0": "1",
        f"p{player.pk}_amount1": "1",
        f"p{player.pk}_line2": "on",
        f"p{player.pk}_amount2": "3",
        f"p{player.pk}_free0_reason": "Found the book",
        f"p{player.pk}_free0_amount": "2",
        f"p{gm.pk}_line0": "on",
    }
    for person in (player, gm):
        for index in range(5):
            data.setdefault(f"p{person.pk}_amount{index}", "1")

    response = gm_client.post(reverse("afterplay", args=[afterplay.pk]), data)

    assert response.status_code == 302
    reasons = [
        (e.reason, e.amount)
        for e in ledger_for(user=player, game=table_game(table=afterplay.table))
    ]
    assert reasons == [("Attended the session", 1), ("Good roleplay", 3), ("Found the book", 2)]
    assert balance(afterplay.table, gm) == 1


def test_afterplay_post_free_points_without_reason_shows_error(gm_client, afterplay, gm, player):
    data = {f"p{p.pk}_amount{i}": "1" for p in (player, gm) for i in range(5)}
    data[f"p{player.pk}_free0_amount"] = "2"

    response = gm_client.post(reverse("afterplay", args=[afterplay.pk]), data)

    assert response.status_code == 400
    assert not ExperienceEntry.objects.exists()


def test_afterplay_post_by_player_forbidden(player_client, afterplay, player):
    response = player_client.post(
        reverse("afterplay", args=[afterplay.pk]), {f"p{player.pk}_free0_amount": "9"}
    )

    assert response.status_code == 403
    assert not ExperienceEntry.objects.exists()


def test_afterplay_player_sees_confirmed_awards(player_client, awarded):
    response = player_client.get(reverse("afterplay", args=[awarded.pk]))

    assert response.status_code == 200
    assert b"12 points" in response.content
    assert b"Confirm the experience" not in response.content


def test_afterplay_cleanup_close_closes_session(gm_client, awarded):
    response = gm_client.post(
        reverse("afterplay_cleanup", args=[awarded.pk]), {"action": "close", "venue": "on"}
    )

    awarded.refresh_from_db()
    assert response.status_code == 302
    assert awarded.phase == Phase.CLOSED
    assert awarded.cleanup["venue"] is True


def test_afterplay_cleanup_close_by_player_forbidden(player_client, awarded):
    response = player_client.post(
        reverse("afterplay_cleanup", args=[awarded.pk]), {"action": "close"}
    )

    awarded.refresh_from_db()
    assert response.status_code == 403
    assert awarded.phase == Phase.AFTER_PLAY


def test_session_sheet_member_sees_entries_and_print_css(player_client, awarded):
    response = player_client.get(reverse("session_sheet", args=[awarded.pk]))

    assert response.status_code == 200
    assert b"Session sheet" in response.content
    assert b"Goal" in response.content
    assert b"Sign off as GM" not in response.content


def test_session_sheet_sign_shows_stamp(gm_client, awarded):
    gm_client.post(reverse("session_sheet_sign", args=[awarded.pk]))

    response = gm_client.get(reverse("session_sheet", args=[awarded.pk]))
    assert SessionSignoff.objects.filter(session=awarded, signer_name="gm").exists()
    assert b'class="stamp"' in response.content


def test_session_sheet_sign_by_player_forbidden(player_client, awarded):
    response = player_client.post(reverse("session_sheet_sign", args=[awarded.pk]))

    assert response.status_code == 403
    assert not SessionSignoff.objects.exists()


def test_experience_ledger_shows_balance(player_client, awarded):
    response = player_client.get(reverse("experience_ledger", args=[awarded.table_id]))

    assert response.status_code == 200
    assert b'<strong id="balance">12</strong>' in response.content


def test_experience_ledger_table_is_a_labelled_sideways_scrolling_region(player_client, awarded):
    page = player_client.get(reverse("experience_ledger", args=[awarded.table_id])).content

    # Reachable by keyboard, named for a screen reader, and shaded at its scrolling edges.
    assert (
        b'class="table-scroll scroll-cue" tabindex="0" role="region"'
        b' aria-label="Your experience ledger (scrolls sideways)"' in page
    )


def test_experience_ledger_post_asks_the_gm_for_growth_on_own_pc(
    player_client, awarded, player, catalogue
):
    pc = CharacterFactory(table=awarded.table, owner=player, judgement_values={"Strength": 3})

    response = player_client.post(
        reverse("experience_ledger", args=[awarded.table_id]),
        {"character": pc.pk, "item": "+1 Strength", "session": awarded.pk},
    )

    pc.refresh_from_db()
    assert response.status_code == 302
    assert pc.judgement_values["Strength"] == 3
    assert balance(awarded.table, player) == 12
    page = player_client.get(reverse("experience_ledger", args=[awarded.table_id])).content
    assert b'id="my-growth-requests"' in page
    assert b"Waiting for the GM" in page


def _asked(awarded, player):
    pc = CharacterFactory(table=awarded.table, owner=player, judgement_values={"Strength": 3})
    return growth_request(character=pc, by=player, item_label="+1 Strength", session=awarded)


def test_growth_decide_confirm_by_gm_rewrites_the_sheet(gm_client, awarded, player, catalogue):
    asked = _asked(awarded, player)
    page = gm_client.get(reverse("experience_ledger", args=[awarded.table_id])).content
    assert b'id="growth-to-confirm"' in page

    response = gm_client.post(
        reverse("growth_decide", args=[awarded.table_id, asked.pk]), {"action": "confirm"}
    )

    asked.character.refresh_from_db()
    assert response.status_code == 302
    assert asked.character.judgement_values["Strength"] == 4
    assert balance(awarded.table, player) == 2


def test_growth_decide_decline_spends_nothing(gm_client, awarded, player, catalogue):
    asked = _asked(awarded, player)

    gm_client.post(
        reverse("growth_decide", args=[awarded.table_id, asked.pk]), {"action": "decline"}
    )

    asked.refresh_from_db()
    asked.character.refresh_from_db()
    assert asked.status == GrowthRequest.Status.DECLINED
    assert asked.character.judgement_values["Strength"] == 3
    assert balance(awarded.table, player) == 12


def test_growth_decide_by_player_forbidden(player_client, awarded, player, catalogue):
    asked = _asked(awarded, player)

    response = player_client.post(
        reverse("growth_decide", args=[awarded.table_id, asked.pk]), {"action": "confirm"}
    )

    asked.refresh_from_db()
    assert response.status_code == 403
    assert asked.status == GrowthRequest.Status.PENDING


def test_experience_ledger_post_another_players_pc_rejected(
    player_client, awarded, table, catalogue
):
    other = UserFactory(username="ren")
    MembershipFactory(table=table, user=other)
    ren_pc = CharacterFactory(table=table, owner=other)

    response = player_client.post(
        reverse("experience_ledger", args=[table.pk]),
        {"character": ren_pc.pk, "item": "+1 Strength"},
    )

    assert response.status_code == 400
    assert not ExperienceEntry.objects.filter(kind=ExperienceEntry.Kind.SPEND).exists()


def test_experience_ledger_growth_off_says_why(player_client, table, catalogue, player_membership):
    RulesProfile.objects.filter(pk=catalogue.pk).update(growth_enabled=False)

    response = player_client.get(reverse("experience_ledger", args=[table.pk]))

    assert "not recommended" in response.content.decode()


def test_record_sheet_own_visible(player_client, awarded, player):
    response = player_client.get(reverse("record_sheet", args=[awarded.table_id, player.pk]))

    assert response.status_code == 200
    assert b"Record sheet" in response.content
    assert b"Add a correction" not in response.content


def test_record_sheet_gm_sees_any_member_with_correction_form(gm_client, awarded, player):
    response = gm_client.get(reverse("record_sheet", args=[awarded.table_id, player.pk]))

    assert response.status_code == 200
    assert b"Add a correction" in response.content


def test_record_sheet_correction_form_lists_shipped_reasons_in_the_readers_language(
    gm_client, afterplay, gm, player
):
    experience_award_session(
        session=afterplay, by=gm, awards={player.pk: [AwardLine(1, "Attended the session")]}
    )

    response = gm_client.get(
        reverse("record_sheet", args=[afterplay.table_id, player.pk]), HTTP_ACCEPT_LANGUAGE="ja"
    )

    options = response.content.decode().split('name="corrects"', 1)[1].split("</select>", 1)[0]
    assert "+1 セッションに参加した" in options
    assert "Attended the session" not in options


def test_experience_correct_post_appends_correction(gm_client, awarded, player):
    entry = ExperienceEntry.objects.get(person=player)

    response = gm_client.post(
        reverse("experience_correct", args=[awarded.table_id, player.pk]),
        {"amount": "-2", "reason": "Goal was worth 10", "corrects": entry.pk},
    )

    assert response.status_code == 302
    assert balance(awarded.table, player) == 10


def test_experience_correct_post_below_zero_shows_error(gm_client, awarded, player):
    response = gm_client.post(
        reverse("experience_correct", args=[awarded.table_id, player.pk]),
        {"amount": "-20", "reason": "Too much"},
    )

    assert response.status_code == 400
    assert balance(awarded.table, player) == 12


def test_character_sheet_shows_growth_history(player_client, awarded, player, catalogue):
    pc = CharacterFactory(table=awarded.table, owner=player, judgement_values={"Strength": 3})
    asked = growth_request(character=pc, by=player, item_label="+1 Strength")
    growth_confirm(request=asked, by=awarded.table.gm)

    response = player_client.get(reverse("character_edit", args=[pc.pk]))

    assert 'id="growth-history"' in response.content.decode()
    assert "3 → 4" in response.content.decode()


def test_profile_edit_saves_experience_lines_and_catalogue(gm_client, table):
    response = gm_client.post(
        reverse("profile_edit", args=[table.pk]),
        {
            "name": "Our game",
            "critical": 12,
            "fumble": 2,
            "modifier_limit": 3,
            "easy_from": 6,
            "ordinary_from": 9,
            "hard_from": 12,
            "extreme_from": 16,
            "judgement_value_lines": "Strength\nReflexes",
            "experience_line_text": "Attended = 2\nBrave = 1",
            "growth_catalogue_text": "+1 Strength | 10 | Strength | 1 | 3\nNew skill | 5",
            "growth_enabled": "on",
        },
    )

    table.refresh_from_db()
    profile = table.rules_profile
    assert response.status_code == 302
    assert profile.experience_lines == [
        {"label": "Attended", "amount": 2},
        {"label": "Brave", "amount": 1},
    ]
    assert profile.growth_catalogue[0] == {
        "label": "+1 Strength",
        "cost": 10,
        "value_name": "Strength",
        "delta": 1,
        "limit": 3,
    }
    assert profile.growth_catalogue[1]["value_name"] == ""
    assert profile.free_growth_allowed is False


def test_profile_edit_bad_catalogue_line_shows_error(gm_client, table):
    response = gm_client.post(
        reverse("profile_edit", args=[table.pk]),
        {
            "name": "Our game",
            "critical": 12,
            "fumble": 2,
            "modifier_limit": 3,
            "easy_from": 6,
            "ordinary_from": 9,
            "hard_from": 12,
            "extreme_from": 16,
            "judgement_value_lines": "Strength",
            "growth_catalogue_text": "+1 Luck | 10 | Luck",
        },
    )

    assert response.status_code == 400
    assert "not one of the judgement values" in response.content.decode()


def test_session_room_links_afterplay_in_afterplay(player_client, afterplay):
    response = player_client.get(reverse("session_room", args=[afterplay.pk]))

    assert reverse("afterplay", args=[afterplay.pk]).encode() in response.content


def test_table_detail_links_experience(player_client, table, player_membership):
    response = player_client.get(reverse("table_detail", args=[table.pk]))

    assert reverse("experience_ledger", args=[table.pk]).encode() in response.content
