"""The room's check, contest, roll-box and cast endpoints over HTTP."""

import re

import pytest
from django.contrib import admin
from django.test import Client
from django.urls import get_resolver, reverse

from sessions_app.models import CheckRequest, Roll, TimelineEvent
from sessions_app.services.checks import check_request, check_roll, command_roll, gm_roll
from sessions_app.services.dice import dice_reserve
from tests.clients import signed_in_client
from tests.factories import (
    CharacterFactory,
    GameSessionFactory,
    MembershipFactory,
    cast_member,
    secret_sneak_check,
)

HTMX = {"HTTP_HX_REQUEST": "true"}


# The pc fixture's Aki (tests/sessions_app/conftest.py) has Strength 5 and takes part
# without a PC slot.
pytestmark = pytest.mark.pc_fields(slot=None, judgement_values={"Strength": 5})


@pytest.fixture
def other_client(second_player):
    return signed_in_client(second_player)


def _url(name, session, *args):
    return reverse(name, args=[session.pk, *args])


def _request_data(pc, **overrides):
    data = {
        "character": pc.pk,
        "label": "Climb",
        "value_name": "Strength",
        "difficulty": "10",
        "gm_modifier": "0",
    }
    data.update(overrides)
    return data


def test_check_request_by_gm_creates_request(gm_client, session, pc):
    response = gm_client.post(_url("check_request_create", session), _request_data(pc), **HTMX)

    assert response.status_code == 200
    assert b"Check requested." in response.content
    assert CheckRequest.objects.get().character == pc


def test_check_request_by_player_forbidden(player_client, session, pc):
    response = player_client.post(_url("check_request_create", session), _request_data(pc), **HTMX)

    assert response.status_code == 403
    assert not CheckRequest.objects.exists()


def test_check_request_modifier_beyond_limit_shows_reason(gm_client, session, pc):
    response = gm_client.post(
        _url("check_request_create", session), _request_data(pc, gm_modifier="5"), **HTMX
    )

    assert "beyond this profile" in response.content.decode()
    assert not CheckRequest.objects.exists()


def test_check_roll_by_owner(player_client, session, gm, pc):
    request = check_request(
        session=session, by=gm, character=pc, label="Climb", value_name="Strength"
    )

    response = player_client.post(
        _url("check_roll", session, request.pk),
        {"mod_label": ["Rope"], "mod_amount": ["1"]},
        **HTMX,
    )

    roll = Roll.objects.get()
    assert response.status_code == 200
    assert "Rolled" in response.content.decode()
    assert roll.modifiers == [{"label": "Rope", "amount": 1}]


def test_check_roll_double_submit_one_roll(player_client, session, gm, pc):
    request = check_request(
        session=session, by=gm, character=pc, label="Climb", value_name="Strength"
    )

    first = player_client.post(_url("check_roll", session, request.pk), **HTMX)
    second = player_client.post(_url("check_roll", session, request.pk), **HTMX)

    assert first.content == second.content
    assert Roll.objects.count() == 1


def test_check_roll_by_non_owner_refused(other_client, session, gm, pc):
    request = check_request(
        session=session, by=gm, character=pc, label="Climb", value_name="Strength"
    )

    response = other_client.post(_url("check_roll", session, request.pk), **HTMX)

    assert "Only Aki" in response.content.decode()
    assert not Roll.objects.exists()


def test_check_roll_status_line_escapes_and_marks_a_refusal(other_client, session, gm, pc):
    pc.name = "<b>Aki</b>"
    pc.save()
    request = check_request(
        session=session, by=gm, character=pc, label="Climb", value_name="Strength"
    )

    # The same refusal, answered twice, is the same line.
    answers = [
        other_client.post(_url("check_roll", session, request.pk), **HTMX).content.decode()
        for _ in range(2)
    ]

    assert answers[0] == answers[1]
    assert 'class="check-status error"' in answers[0]
    assert "&lt;b&gt;Aki&lt;/b&gt;" in answers[0] and "<b>" not in answers[0]


def test_check_chances_secret_difficulty_hides_success(player_client, session, gm, pc):
    request = secret_sneak_check(session, gm, pc, 11)

    response = player_client.post(_url("check_chances", session, request.pk), **HTMX)

    assert "Success" not in response.content.decode()
    assert "critical 2.8%" in response.content.decode()


def test_check_chances_shows_exact_success(player_client, session, gm, pc):
    request = check_request(
        session=session, by=gm, character=pc, label="Climb", value_name="Strength", difficulty=10
    )

    response = player_client.post(
        _url("check_chances", session, request.pk), {"mod_label": [""], "mod_amount": ["1"]}, **HTMX
    )

    # value 5 + modifier 1 needs 4 or more on 2D6 against 10: 33/36.
    assert "Success 91.7% (33/36)" in response.content.decode()


def test_secret_gm_roll_numbers_never_in_player_page(player_client, gm_client, session, gm, npc):
    gm_roll(session=session, by=gm, character=npc, label="Lie", value=4, secret=True, dice=(6, 3))

    player_page = player_client.get(_url("session_room", session)).content.decode()
    gm_page = gm_client.get(_url("session_room", session)).content.decode()

    assert "die showing" not in player_page and "Lie" not in player_page
    assert "made a secret roll" in player_page
    assert "die showing 6" in gm_page


def test_roll_box_malformed_shows_message(player_client, session):
    response = player_client.post(_url("roll_box", session), {"text": "2D6>="}, **HTMX)

    assert response.status_code == 200
    assert b'role="alert"' in response.content
    assert not Roll.objects.exists()


def test_roll_box_rolls(player_client, session):
    player_client.post(_url("roll_box", session), {"text": "2D6+1>=8"}, **HTMX)

    assert TimelineEvent.objects.get(kind="command_rolled").payload["command"].startswith("2D6+1")


def test_roll_box_check_card_shows_its_modifier_not_a_judgement_value(
    player_client, session, player
):
    command_roll(session=session, by=player, text="2D6+2>=10", faces=(3, 4))

    page = player_client.get(_url("session_room", session)).content.decode()

    assert "Modifier +2" in page
    assert "Judgement value 0" not in page


def test_requested_check_card_shows_the_judgement_value(player_client, session, gm, pc):
    check = check_request(
        session=session, by=gm, character=pc, label="Climb", value_name="Strength", difficulty=9
    )
    check_roll(request_id=check.pk, by=pc.owner, dice=(3, 4))

    page = player_client.get(_url("session_room", session)).content.decode()

    assert "Judgement value Strength 5" in page


def test_roll_void_by_gm(gm_client, session, gm, npc):
    roll = gm_roll(session=session, by=gm, character=npc, label="Spot", value=3)

    gm_client.post(_url("roll_void", session, roll.pk), {"reason": "Wrong value"}, **HTMX)

    assert TimelineEvent.objects.get(kind="roll_voided").payload["reason"] == "Wrong value"


def test_roll_void_by_player_forbidden(player_client, session, gm, npc):
    roll = gm_roll(session=session, by=gm, character=npc, label="Spot", value=3)

    response = player_client.post(_url("roll_void", session, roll.pk), {"reason": "x"}, **HTMX)

    assert response.status_code == 403
    assert not TimelineEvent.objects.filter(kind="roll_voided").exists()


def test_roll_void_without_reason_answers_why_on_the_status_line(gm_client, session, gm, npc):
    roll = gm_roll(session=session, by=gm, character=npc, label="Spot", value=3)

    response = gm_client.post(_url("roll_void", session, roll.pk), {"reason": " "}, **HTMX)

    page = response.content.decode()
    assert response.status_code == 200
    assert 'class="check-status error"' in page
    assert "Give a reason for voiding the roll." in page
    assert not TimelineEvent.objects.filter(kind="roll_voided").exists()


def test_roll_reveal_by_gm_answers_status_line(gm_client, session, gm, npc):
    roll = gm_roll(session=session, by=gm, character=npc, label="Spot", value=3, secret=True)

    response = gm_client.post(_url("roll_reveal", session, roll.pk), **HTMX)

    page = response.content.decode()
    assert response.status_code == 200
    assert page.startswith('<p id="check-status" class="check-status"')
    assert "The roll is revealed to everyone." in page
    assert TimelineEvent.objects.filter(kind="roll_revealed").exists()


def test_roll_reveal_public_roll_plain_post_answers_400_text(gm_client, session, gm, npc):
    roll = gm_roll(session=session, by=gm, character=npc, label="Spot", value=3)

    response = gm_client.post(_url("roll_reveal", session, roll.pk))

    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/plain")
    assert response.content.decode() == "This roll is already public."


def test_roll_reveal_of_another_session_gets_404(gm_client, session, gm):
    other = GameSessionFactory(table=session.table)
    npc = CharacterFactory(table=session.table, owner=gm, kind="npc")
    roll = gm_roll(session=other, by=gm, character=npc, label="Spot", value=3, secret=True)

    response = gm_client.post(_url("roll_reveal", session, roll.pk), **HTMX)

    assert response.status_code == 404
    assert not TimelineEvent.objects.filter(kind="roll_revealed").exists()


def test_check_cancel_by_gm_answers_status_line(gm_client, session, gm, pc):
    check = check_request(session=session, by=gm, character=pc, label="Climb", value=5)

    response = gm_client.post(_url("check_cancel", session, check.pk))

    assert response.status_code == 200
    assert response.content.decode() == "Check cancelled."
    assert TimelineEvent.objects.filter(kind="check_cancelled").exists()


def test_check_cancel_twice_answers_why_on_the_status_line(gm_client, session, gm, pc):
    check = check_request(session=session, by=gm, character=pc, label="Climb", value=5)
    gm_client.post(_url("check_cancel", session, check.pk), **HTMX)

    response = gm_client.post(_url("check_cancel", session, check.pk), **HTMX)

    assert response.status_code == 200
    assert 'class="check-status error"' in response.content.decode()
    assert "This check cannot be cancelled any more." in response.content.decode()


def test_check_cancel_by_player_forbidden(player_client, session, gm, pc):
    check = check_request(session=session, by=gm, character=pc, label="Climb", value=5)

    response = player_client.post(_url("check_cancel", session, check.pk), **HTMX)

    assert response.status_code == 403
    assert not TimelineEvent.objects.filter(kind="check_cancelled").exists()


def test_roll_log_has_no_edit_or_delete_path(session, gm, npc):
    roll = gm_roll(session=session, by=gm, character=npc, label="Spot", value=3)
    roll_admin = admin.site._registry[Roll]

    assert not roll_admin.has_change_permission(None, roll)
    assert not roll_admin.has_delete_permission(None, roll)
    assert not roll_admin.has_add_permission(None)
    url_names = {key for key in get_resolver().reverse_dict if isinstance(key, str)}
    assert not [
        n for n in url_names if "roll" in n and ("edit" in n or "delete" in n or "update" in n)
    ]


@pytest.fixture
def players_ren(session, player):
    """A second PC of the player, Ren (Strength 4), taking part in the session."""
    return cast_member(session, player, name="Ren", judgement_values={"Strength": 4})


def _arm_wrestling_data(action, reaction, **overrides):
    """The GM's contest form: `action` against `reaction`, Strength against Strength."""
    data = {
        "label": "Arm wrestling",
        "action_character": action.pk,
        "action_value_name": "Strength",
        "action_modifier": "0",
        "reaction_character": reaction.pk,
        "reaction_value_name": "Strength",
        "reaction_modifier": "0",
    }
    data.update(overrides)
    return data


def test_contest_create_and_preview(gm_client, session, pc, players_ren):
    data = _arm_wrestling_data(pc, players_ren)

    preview = gm_client.post(_url("contest_preview", session), data, **HTMX)
    created = gm_client.post(_url("contest_create", session), data, **HTMX)

    assert "Action side wins" in preview.content.decode()
    assert b"Contest opened." in created.content
    assert TimelineEvent.objects.filter(kind="contest_opened").exists()


def test_cast_update_by_owner(player_client, session, player):
    character = CharacterFactory(table=session.table, owner=player, name="Newcomer")

    player_client.post(
        _url("cast_update", session), {"character": character.pk, "taking_part": "1"}, **HTMX
    )

    assert session.characters.filter(pk=character.pk).exists()


def test_cast_of_a_closed_session_cannot_change(gm_client, session, pc):
    from sessions_app.models import Phase

    session.phase = Phase.CLOSED
    session.save(update_fields=["phase"])

    response = gm_client.post(
        _url("cast_update", session), {"character": pc.pk, "taking_part": "0"}, **HTMX
    )

    assert "record is read-only" in response.content.decode()
    assert session.characters.filter(pk=pc.pk).exists()


def test_cast_update_other_players_character_forbidden(other_client, session, pc):
    response = other_client.post(
        _url("cast_update", session), {"character": pc.pk, "taking_part": "0"}, **HTMX
    )

    assert response.status_code == 403
    assert session.characters.filter(pk=pc.pk).exists()


def test_session_page_names_the_shipped_profile_in_japanese(player_client, session):
    page = player_client.get(_url("session_room", session), HTTP_ACCEPT_LANGUAGE="ja")

    assert "SRS標準" in page.content.decode()


def _cannot_roll_contest(session, gm, pc, other_client):
    from sessions_app.services.checks import ContestSide, contest_open

    ren = CharacterFactory(
        table=session.table,
        owner=other_client.session_user,
        name="Ren",
        judgement_values={"Strength": 4},
    )
    session.characters.add(ren)
    return contest_open(
        session=session,
        by=gm,
        label="Hold the door",
        action=ContestSide(character=pc, value_name="Strength"),
        reaction=ContestSide(character=ren, value_name="Strength"),
        reaction_can_roll=False,
    )


@pytest.fixture
def ren_client(second_player):
    client = signed_in_client(second_player)
    client.session_user = second_player
    return client


def test_reaction_side_that_cannot_roll_answers_with_declared_modifiers_over_http(
    ren_client, session, gm, pc
):
    contest = _cannot_roll_contest(session, gm, pc, ren_client)
    check_roll(request_id=contest.requests.get(side="action").pk, by=pc.owner, dice=(3, 4))
    reaction = contest.requests.get(side="reaction")
    rows = {"mod_label": ["Shield"], "mod_amount": ["9"]}

    widget = ren_client.get(_url("session_room", session)).content.decode()
    chances = ren_client.post(_url("check_chances", session, reaction.pk), rows, **HTMX)
    answered = ren_client.post(
        _url("check_roll", session, reaction.pk), {**rows, "answer": "1"}, **HTMX
    )

    assert "Answer without dice" in widget and "Roll 2D6" not in widget
    assert "Achievement 13" in chances.content.decode()
    assert "your side wins" in chances.content.decode()
    assert answered.status_code == 200 and "Answered." in answered.content.decode()
    decided = TimelineEvent.objects.get(kind="contest_decided").payload
    assert (decided["winner"], decided["reaction"]["achievement"]) == ("reaction", 13)


def test_reaction_side_chances_are_exact_against_the_action_roll(ren_client, session, gm, pc):
    from sessions_app.rules import srs_checks, srs_odds
    from sessions_app.services.checks import ContestSide, contest_open

    ren = CharacterFactory(
        table=session.table, owner=ren_client.session_user, judgement_values={"Strength": 4}
    )
    session.characters.add(ren)
    contest = contest_open(
        session=session,
        by=gm,
        label="Arm wrestling",
        action=ContestSide(character=pc, value_name="Strength"),
        reaction=ContestSide(character=ren, value_name="Strength", critical=10),
    )
    check_roll(request_id=contest.requests.get(side="action").pk, by=pc.owner, dice=(3, 4))
    reaction = contest.requests.get(side="reaction")

    response = ren_client.post(
        _url("check_chances", session, reaction.pk),
        {"mod_label": ["Grip"], "mod_amount": ["2"]},
        **HTMX,
    )

    expected = srs_odds.reaction_chance(
        srs_checks.check(5, (3, 4)), 4, reaction_modifier=2, critical=10
    )
    percent = f"{float(expected) * 100:.1f}%"
    assert f"Wins the contest {percent} against the action side" in response.content.decode()


def test_contest_create_with_side_critical_and_fumble(gm_client, session, pc, players_ren):
    data = _arm_wrestling_data(pc, players_ren, action_critical="11", reaction_fumble="3")

    preview = gm_client.post(_url("contest_preview", session), data, **HTMX)
    gm_client.post(_url("contest_create", session), data, **HTMX)

    from sessions_app.rules import srs_odds

    chance = srs_odds.contest_chance(5, 4, action_critical=11, reaction_fumble=3)
    assert f"Action side wins {float(chance) * 100:.1f}%" in preview.content.decode()
    sides = {r.side: (r.critical, r.fumble) for r in CheckRequest.objects.all()}
    assert sides == {"action": (11, 2), "reaction": (12, 3)}


def test_contest_opened_line_names_a_side_s_own_critical_and_fumble(ren_client, session, gm, pc):
    from sessions_app.services.checks import ContestSide, contest_open

    ren = CharacterFactory(
        table=session.table, owner=ren_client.session_user, name="Ren", judgement_values={}
    )
    session.characters.add(ren)
    contest_open(
        session=session,
        by=gm,
        label="Stare down",
        action=ContestSide(character=pc, value=5, critical=11),
        reaction=ContestSide(character=ren, value=4),
    )

    page = " ".join(ren_client.get(_url("session_room", session)).content.decode().split())

    assert "Aki: Critical / fumble 11 / 2" in page
    assert "Ren: Critical / fumble" not in page


# Faces the room's one source of dice hands out for each command below, in draw order.
_ROLL_BOX_CARDS = [
    ("3D6/2U", [1, 2, 4], ["3D6/2U", "= <strong>4</strong>"]),
    ("2D6+1D6>=8", [1, 2, 6], ["2D6+1D6&gt;=8", "Success"]),
    ("2D6<=4", [3, 4], ["2D6&lt;=4", "Failure"]),
    ("2D6+1*2>=8", [3, 3], ["2D6+2&gt;=8", "Achievement <strong>8</strong>", "Success"]),
    (
        "5B6>=4",
        [1, 4, 6, 2, 5],
        ["5B6&gt;=4", "Number of successes <strong>3</strong>", "each &gt;=4"],
    ),
    ("2B6+3B8", [1, 2, 3, 4, 8], ["2B6+3B8", ">3B8<", "die showing 8"]),
    (
        "3U6[6]",
        [6, 5, 2, 1],
        ["3U6[6]", "Largest <strong>11</strong>", "Total <strong>14</strong>"],
    ),
    ("D66", [5, 2], ["D66", "= <strong>52</strong>"]),
    ("C(10*3+2)", [], ["C(10*3+2)", "= <strong>32</strong>"]),
    ("choice[north,south,east]", [2], ["choice[north,south,east]", "Chosen: <strong>south"]),
    ("x2 2D6+1>=8", [6, 6, 1, 2], ["x2 2D6+1&gt;=8", "Critical", "Failure"]),
]


@pytest.mark.parametrize(("text", "faces", "shown"), _ROLL_BOX_CARDS)
def test_roll_box_shows_each_bcdice_command_kind(
    player_client, session, monkeypatch, text, faces, shown
):
    handed_out = iter(faces)
    monkeypatch.setattr(
        "sessions_app.rules.srs_checks.draw_faces",
        lambda count, sides, rng=None: [next(handed_out) for _ in range(count)],
    )

    response = player_client.post(_url("roll_box", session), {"text": text}, **HTMX)
    page = player_client.get(_url("session_room", session)).content.decode()

    assert b'role="alert"' not in response.content
    card = page[page.index('<div class="roll-card') :]
    for piece in shown:
        assert piece in card
    assert Roll.objects.get().faces == faces


def test_roll_box_secret_bcdice_command_stays_with_its_roller(
    player_client, gm_client, session, table
):
    other = Client()
    other_member = MembershipFactory(table=table).user
    other.force_login(other_member)

    player_client.post(_url("roll_box", session), {"text": "S7B6>=5 ambush"}, **HTMX)

    assert "7B6&gt;=5" in player_client.get(_url("session_room", session)).content.decode()
    assert "7B6&gt;=5" in gm_client.get(_url("session_room", session)).content.decode()
    other_page = other.get(_url("session_room", session)).content.decode()
    assert "7B6" not in other_page and "ambush" not in other_page
    assert "made a secret roll" in other_page


def test_room_earlier_lines_link_works_without_script(session, gm, player):
    from sessions_app.selectors.timeline import ROOM_EVENT_LIMIT
    from tests.sessions_app.log_script import add_chat_lines

    add_chat_lines(session, gm, ROOM_EVENT_LIMIT * 2 + 3)
    client = Client()
    client.force_login(player)
    room = client.get(reverse("session_room", args=[session.pk])).content.decode()
    link = re.search(r'<a class="link-button" href="([^"]+)"', room).group(1)

    earlier = client.get(link.replace("&amp;", "&"))

    page = earlier.content.decode()
    assert earlier.status_code == 200 and "<html" in page
    shown = [int(seq) for seq in re.findall(r'<li id="event-(\d+)"', page)]
    assert len(shown) == ROOM_EVENT_LIMIT
    assert f'?before={shown[0]}"' in page


def test_dice_records_are_marked_for_the_information_tab_only(player_client, gm, session, pc):
    check_request(session=session, by=gm, character=pc, label="Climb", value_name="Strength")
    dice_reserve(session=session, by=pc.owner)

    page = player_client.get(reverse("session_room", args=[session.pk])).content.decode()

    def line_classes(kind):
        found = re.search(rf'<li id="event-\d+"[^>]*class="([^"]*event-{kind}\b[^"]*)"', page)
        assert found, kind
        return found.group(1).split()

    assert "event-record" in line_classes("dice_committed")
    assert "event-record" in line_classes("dice_reserved")
    assert "event-record" not in line_classes("check_requested")
