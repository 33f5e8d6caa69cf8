"""Sounds of a table: what an upload must be, who sets the music, who may hear what."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.storage import default_storage
from django.urls import reverse

from sessions_app.models import Scene, TableAudio, TimelineEvent
from sessions_app.services.audio import (
    MAX_BYTES,
    audio_clean,
    audio_delete,
    audio_upload,
    scene_music_set,
    sound_play,
)
from sessions_app.services.scenes import scene_end, scene_start
from tests.factories import cast_member, main_play_start
from tests.pictures import picture_bytes
from tests.sounds import mp3_bytes, opus_bytes, wav_bytes


def test_audio_clean_reads_a_wav():
    clean = audio_clean(wav_bytes(0.5), file_name="rain.wav")
    assert (clean.extension, clean.content_type) == ("wav", "audio/wav")
    assert clean.duration == pytest.approx(0.5)


def test_audio_clean_reads_mp3_frames():
    clean = audio_clean(mp3_bytes(40), file_name="Door Creak.MP3")
    assert (clean.extension, clean.content_type) == ("mp3", "audio/mpeg")
    assert clean.duration == pytest.approx(40 * 1152 / 44100, abs=0.05)


@pytest.mark.parametrize("name", ["theme.opus", "theme.ogg", "Theme.OGA"])
def test_audio_clean_reads_ogg_opus(name):
    clean = audio_clean(opus_bytes(2.0), file_name=name)
    assert (clean.extension, clean.content_type, clean.duration) == ("opus", "audio/ogg", 2.0)


@pytest.mark.parametrize(
    ("data", "name", "code"),
    [
        (opus_bytes(), "theme.mp3", "audio_extension"),
        (opus_bytes()[:80], "cut.opus", "audio_format"),
        (opus_bytes(15 * 60 + 1), "long.opus", "audio_length"),
        (picture_bytes("PNG"), "theme.mp3", "audio_format"),
        (picture_bytes("PNG"), "theme.png", "audio_format"),
        (wav_bytes(), "theme.mp3", "audio_extension"),
        (mp3_bytes(), "theme.wav", "audio_extension"),
        (wav_bytes(), "theme", "audio_format"),
        (wav_bytes(1.0)[:30], "cut.wav", "audio_format"),
        (wav_bytes(1.0)[:4000], "cut.wav", "audio_truncated"),
        (mp3_bytes()[:100], "cut.mp3", "audio_format"),
        (b"", "empty.ogg", "audio_format"),
        (b"OggS" + bytes(200), "fake.ogg", "audio_format"),
        (b"<script>alert(1)</script>" * 20, "page.m4a", "audio_format"),
        (wav_bytes(15 * 60 + 1, rate=100), "long.wav", "audio_length"),
    ],
)
def test_audio_clean_refuses_with_a_message(data, name, code):
    with pytest.raises(ValidationError) as refused:
        audio_clean(data, file_name=name)
    assert refused.value.code == code
    assert refused.value.messages[0]


def test_audio_clean_refuses_a_file_over_the_size_limit():
    with pytest.raises(ValidationError) as refused:
        audio_clean(b"\0" * (MAX_BYTES + 1), file_name="big.wav")
    assert refused.value.code == "audio_size"


def test_audio_clean_takes_fifteen_minutes_exactly():
    assert audio_clean(wav_bytes(15 * 60, rate=100), file_name="long.wav").duration == 900


@pytest.mark.django_db
def test_audio_upload_stores_the_sound_under_a_new_name(table, gm):
    audio = audio_upload(table=table, by=gm, data=wav_bytes(), file_name="rain.wav", title="")
    assert audio.title == "rain"
    assert audio.file.name.startswith("audio/") and audio.file.name.endswith(".wav")
    assert "rain" not in audio.file.name
    assert default_storage.exists(audio.file.name)
    assert not audio.heard


@pytest.mark.django_db
def test_audio_upload_by_a_player_is_refused(table, player_membership, player):
    with pytest.raises(PermissionDenied):
        audio_upload(table=table, by=player, data=wav_bytes(), file_name="rain.wav")
    assert not TableAudio.objects.exists()


@pytest.mark.django_db
def test_audio_delete_removes_the_file(table, gm, django_capture_on_commit_callbacks):
    audio = audio_upload(table=table, by=gm, data=wav_bytes(), file_name="rain.wav")
    with django_capture_on_commit_callbacks(execute=True):
        audio_delete(audio=audio, by=gm)
    assert not default_storage.exists(audio.file.name)


@pytest.fixture
def scene(session, gm, player):
    pc = cast_member(session, player, name="Aki", slot=1)
    session = main_play_start(session, gm)
    return scene_start(
        session=session, by=gm, scene_player=pc, title="Rain", place="Library", purpose="Wait"
    )


@pytest.mark.django_db
def test_scene_music_set_loops_until_the_scene_ends(session, gm, scene):
    audio = audio_upload(table=session.table, by=gm, data=wav_bytes(), file_name="rain.wav")
    scene_music_set(session=session, by=gm, audio_id=audio.pk)
    scene.refresh_from_db()
    audio.refresh_from_db()
    assert scene.music == audio and audio.heard
    line = TimelineEvent.objects.filter(kind="scene_music_changed").get()
    assert line.payload["audio_id"] == audio.pk

    scene_end(session=session, by=gm)
    assert Scene.objects.get(pk=scene.pk).status == Scene.Status.ENDED


@pytest.mark.django_db
def test_scene_music_set_refuses_another_tables_sound(session, gm, scene, outsider):
    from tests.factories import TableFactory

    other = TableFactory(gm=gm)
    audio = audio_upload(table=other, by=gm, data=wav_bytes(), file_name="rain.wav")
    with pytest.raises(ValidationError):
        scene_music_set(session=session, by=gm, audio_id=audio.pk)
    assert Scene.objects.get(pk=scene.pk).music is None


@pytest.mark.django_db
def test_scene_music_set_by_a_player_is_refused(session, gm, player, scene):
    audio = audio_upload(table=session.table, by=gm, data=wav_bytes(), file_name="rain.wav")
    with pytest.raises(PermissionDenied):
        scene_music_set(session=session, by=player, audio_id=audio.pk)


@pytest.mark.django_db
def test_audio_delete_stops_the_scene_playing_it(session, gm, scene):
    audio = audio_upload(table=session.table, by=gm, data=wav_bytes(), file_name="rain.wav")
    scene_music_set(session=session, by=gm, audio_id=audio.pk)
    audio_delete(audio=audio, by=gm)
    assert Scene.objects.get(pk=scene.pk).music is None
    last = TimelineEvent.objects.filter(kind="scene_music_changed").order_by("-seq").first()
    assert last.payload["audio_id"] is None


@pytest.mark.django_db
def test_sound_play_appends_a_line_for_everyone(session, gm):
    audio = audio_upload(table=session.table, by=gm, data=wav_bytes(), file_name="door.wav")
    sound_play(session=session, by=gm, audio_id=audio.pk)
    line = TimelineEvent.objects.filter(kind="sound_played").get()
    assert line.visibility == TimelineEvent.Visibility.EVERYONE


# The sound files themselves -----------------------------------------------------------------


@pytest.mark.django_db
def test_audio_file_is_for_the_gm_until_played(client, session, gm, player):
    audio = audio_upload(table=session.table, by=gm, data=wav_bytes(), file_name="door.wav")
    url = reverse("audio_file", args=[audio.pk])
    client.force_login(player)
    assert client.get(url).status_code == 404
    client.force_login(gm)
    assert client.get(url).status_code == 200
    sound_play(session=session, by=gm, audio_id=audio.pk)
    client.force_login(player)
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "audio/wav"
    assert response["X-Content-Type-Options"] == "nosniff"


@pytest.mark.django_db
def test_audio_file_is_hidden_from_outsiders(client, session, gm, outsider):
    audio = audio_upload(table=session.table, by=gm, data=wav_bytes(), file_name="door.wav")
    sound_play(session=session, by=gm, audio_id=audio.pk)
    client.force_login(outsider)
    assert client.get(reverse("audio_file", args=[audio.pk])).status_code == 404
    client.logout()
    assert client.get(reverse("audio_file", args=[audio.pk])).status_code == 404


@pytest.mark.django_db
def test_upload_view_refuses_a_picture_named_mp3_with_a_message(client, session, gm):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(gm)
    response = client.post(
        reverse("audio_upload", args=[session.pk]),
        {"file": SimpleUploadedFile("theme.mp3", picture_bytes("PNG")), "title": "Theme"},
        headers={"HX-Request": "true"},
    )
    # htmx swaps only a 200: the refusal shows in the GM's sound controls.
    assert response.status_code == 200
    assert 'class="check-status error"' in response.content.decode()
    assert "not a sound this app accepts" in response.content.decode()
    assert not TableAudio.objects.exists()


@pytest.mark.django_db
def test_upload_view_adds_the_sound_to_the_gm_controls(client, session, gm):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(gm)
    response = client.post(
        reverse("audio_upload", args=[session.pk]),
        {"file": SimpleUploadedFile("rain.wav", wav_bytes()), "title": "Rain"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    assert "Rain" in response.content.decode()
    assert TableAudio.objects.get().title == "Rain"


@pytest.mark.django_db
def test_upload_view_without_htmx_answers_400_with_the_message(client, session, gm):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(gm)
    response = client.post(
        reverse("audio_upload", args=[session.pk]),
        {"file": SimpleUploadedFile("theme.wav", wav_bytes(1.0)[:4000])},
    )
    assert response.status_code == 400
    assert "cut off" in response.content.decode()
