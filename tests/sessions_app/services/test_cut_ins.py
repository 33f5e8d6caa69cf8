"""Cut-ins: started by the GM, or by a critical or fumbled check where the table wants it."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from sessions_app.models import CutIn, Phase, TimelineEvent
from sessions_app.services.audio import audio_upload
from sessions_app.services.checks import check_request, check_roll
from sessions_app.services.cut_ins import cut_in_start, cut_ins_on_rolls_set
from tests.factories import cast_member
from tests.pictures import picture_bytes
from tests.sounds import wav_bytes


@pytest.mark.django_db
def test_cut_in_start_shows_picture_text_and_sound(session, gm):
    sound = audio_upload(table=session.table, by=gm, data=wav_bytes(), file_name="boom.wav")
    cut_in = cut_in_start(
        session=session,
        by=gm,
        text="  The seal\nbreaks! ",
        image=picture_bytes(),
        sound_id=sound.pk,
    )
    assert cut_in.text == "The seal breaks!"
    assert cut_in.image.name.startswith("cutins/")
    line = TimelineEvent.objects.get(kind="cut_in")
    assert line.visibility == TimelineEvent.Visibility.EVERYONE
    assert line.payload == {
        "cut_in_id": cut_in.pk,
        "text": "The seal breaks!",
        "has_image": True,
        "sound_id": sound.pk,
    }
    sound.refresh_from_db()
    assert sound.heard


@pytest.mark.django_db
@pytest.mark.parametrize("text", ["", "   ", "x" * 81])
def test_cut_in_start_refuses_empty_or_long_text(session, gm, text):
    with pytest.raises(ValidationError):
        cut_in_start(session=session, by=gm, text=text)
    assert not CutIn.objects.exists()


@pytest.mark.django_db
def test_cut_in_start_refuses_a_file_that_is_no_picture(session, gm):
    with pytest.raises(ValidationError):
        cut_in_start(session=session, by=gm, text="Boo", image=wav_bytes())
    assert not CutIn.objects.exists()


@pytest.mark.django_db
@pytest.mark.django_db
def test_cut_in_start_in_a_closed_session_is_refused(session, gm):
    session.phase = Phase.CLOSED
    session.save(update_fields=["phase"])

    with pytest.raises(ValidationError, match="closed"):
        cut_in_start(session=session, by=gm, text="Too late!")
    assert not CutIn.objects.exists()


def test_cut_in_start_by_a_player_is_refused(session, player):
    with pytest.raises(PermissionDenied):
        cut_in_start(session=session, by=player, text="Boo")


@pytest.fixture
def aki(session, player):
    return cast_member(session, player, name="Aki", judgement_values={"Reflexes": 4})


def _roll(session, gm, player, character, dice):
    request = check_request(
        session=session, by=gm, character=character, label="Dodge", value_name="Reflexes"
    )
    return check_roll(request_id=request.pk, by=player, dice=dice)


@pytest.mark.django_db
@pytest.mark.parametrize(("dice", "outcome"), [([6, 6], "critical"), ([1, 1], "fumble")])
def test_critical_or_fumble_shows_a_cut_in_when_the_table_wants(
    session, gm, player, aki, dice, outcome
):
    cut_ins_on_rolls_set(table=session.table, by=gm, on=True)
    roll = _roll(session, gm, player, aki, dice)
    line = TimelineEvent.objects.get(kind="cut_in")
    assert line.payload["outcome"] == outcome
    assert line.payload["roll_id"] == roll.pk
    assert line.payload["text"] == "Aki"


@pytest.mark.django_db
def test_an_ordinary_roll_shows_no_cut_in(session, gm, player, aki):
    cut_ins_on_rolls_set(table=session.table, by=gm, on=True)
    _roll(session, gm, player, aki, [3, 4])
    assert not TimelineEvent.objects.filter(kind="cut_in").exists()


@pytest.mark.django_db
def test_a_critical_shows_no_cut_in_unless_the_table_wants(session, gm, player, aki):
    _roll(session, gm, player, aki, [6, 6])
    assert not TimelineEvent.objects.filter(kind="cut_in").exists()


@pytest.mark.django_db
def test_a_secret_critical_shows_no_cut_in(session, gm, player, aki):
    cut_ins_on_rolls_set(table=session.table, by=gm, on=True)
    request = check_request(
        session=session, by=gm, character=aki, label="Dodge", value_name="Reflexes", secret=True
    )
    check_roll(request_id=request.pk, by=player, dice=[6, 6])
    assert not TimelineEvent.objects.filter(kind="cut_in").exists()


@pytest.mark.django_db
def test_cut_ins_on_rolls_set_by_a_player_is_refused(session, player):
    with pytest.raises(PermissionDenied):
        cut_ins_on_rolls_set(table=session.table, by=player, on=True)


@pytest.mark.django_db
def test_cut_in_picture_is_for_the_table_only(client, session, gm, player, outsider):
    cut_in = cut_in_start(session=session, by=gm, text="Boo", image=picture_bytes())
    url = reverse("cut_in_image", args=[cut_in.pk])
    client.force_login(player)
    assert client.get(url).status_code == 200
    client.force_login(outsider)
    assert client.get(url).status_code == 404
