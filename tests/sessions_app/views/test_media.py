"""Stored files answered after the permission check: byte ranges, or nginx's X-Accel."""

import pytest
from django.urls import reverse

from sessions_app.services.audio import audio_upload
from tests.sounds import wav_bytes


@pytest.fixture
def sound(session, gm):
    return audio_upload(table=session.table, by=gm, data=wav_bytes(), file_name="rain.wav")


def _body(response) -> bytes:
    return b"".join(response.streaming_content)


@pytest.mark.django_db
def test_whole_file_says_it_takes_ranges(gm_client, sound):
    response = gm_client.get(reverse("audio_file", args=[sound.pk]))
    assert response.status_code == 200
    assert response["Accept-Ranges"] == "bytes"
    assert _body(response) == wav_bytes()
    assert response["Content-Length"] == str(len(wav_bytes()))


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("asked", "first", "last"),
    [
        ("bytes=0-9", 0, 9),
        ("bytes=100-", 100, None),
        ("bytes=-16", -16, None),
        ("bytes=10-99999", 10, None),
    ],
)
def test_range_answers_206_with_those_bytes(gm_client, sound, asked, first, last):
    data = wav_bytes()
    response = gm_client.get(reverse("audio_file", args=[sound.pk]), headers={"Range": asked})
    assert response.status_code == 206
    part = data[first : None if last is None else last + 1]
    assert _body(response) == part
    start = first if first >= 0 else len(data) + first
    assert response["Content-Range"] == f"bytes {start}-{start + len(part) - 1}/{len(data)}"
    assert response["Content-Length"] == str(len(part))
    assert response["Accept-Ranges"] == "bytes"


@pytest.mark.django_db
@pytest.mark.parametrize("asked", ["bytes=99999-", "bytes=20-10", "bytes=-0"])
def test_range_outside_the_file_answers_416(gm_client, sound, asked):
    response = gm_client.get(reverse("audio_file", args=[sound.pk]), headers={"Range": asked})
    assert response.status_code == 416
    assert response["Content-Range"] == f"bytes */{len(wav_bytes())}"


@pytest.mark.django_db
@pytest.mark.parametrize("asked", ["bytes=0-1,5-9", "lines=1-2", "bytes=x-y"])
def test_range_not_understood_answers_the_whole_file(gm_client, sound, asked):
    response = gm_client.get(reverse("audio_file", args=[sound.pk]), headers={"Range": asked})
    assert response.status_code == 200
    assert _body(response) == wav_bytes()


@pytest.mark.django_db
def test_behind_nginx_the_file_is_handed_to_nginx(gm_client, sound, settings):
    settings.SENDFILE_NGINX = True
    response = gm_client.get(reverse("audio_file", args=[sound.pk]))
    assert response.status_code == 200
    assert response["X-Accel-Redirect"] == "/protected-media/" + sound.file.name
    assert response["Content-Type"] == "audio/wav"
    assert response.content == b""


@pytest.mark.django_db
def test_behind_nginx_a_refused_caller_gets_no_redirect(client, player, sound, settings):
    settings.SENDFILE_NGINX = True
    client.force_login(player)
    response = client.get(reverse("audio_file", args=[sound.pk]))
    assert response.status_code == 404
    assert "X-Accel-Redirect" not in response


def test_sendfile_with_a_storage_elsewhere_is_warned_about(settings):
    from sessions_app.checks import sendfile_needs_files_on_this_machine

    settings.SENDFILE_NGINX = True
    assert sendfile_needs_files_on_this_machine(None) == []
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {"BACKEND": "storages.backends.s3.S3Storage", "OPTIONS": {}},
    }
    [warning] = sendfile_needs_files_on_this_machine(None)
    assert warning.id == "srs.W004"
