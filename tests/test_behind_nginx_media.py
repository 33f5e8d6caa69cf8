"""Behind the shipped nginx site, an uploaded sound leaves through X-Accel-Redirect after the
app's permission check: nginx sends it, byte ranges included, and never to anyone refused."""

import tempfile
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from sessions_app.services.audio import audio_upload, sound_play
from tests.factories import GameSessionFactory, friday_table
from tests.live_server import DaphneServer, NginxServer, cookie_for
from tests.sounds import wav_bytes

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def readable_media(settings):
    # nginx's workers run as an unprivileged user: the folder must be theirs to read, as the
    # README's set-up makes it.
    folder = Path(tempfile.mkdtemp(prefix="srs-media-"))
    folder.chmod(0o755)
    settings.MEDIA_ROOT = folder
    return folder


@pytest.fixture
def behind_nginx(readable_media):
    server = DaphneServer(extra_env={"SENDFILE_NGINX": "1"})
    nginx = None
    try:
        nginx = NginxServer([server.port], media_root=readable_media)
        yield nginx
    finally:
        if nginx is not None:
            nginx.stop()
        server.stop()


@pytest.fixture
def played_sound():
    table, gm, (aki,) = friday_table("aki")
    session = GameSessionFactory(table=table)
    audio = audio_upload(table=table, by=gm, data=wav_bytes(), file_name="rain.wav")
    sound_play(session=session, by=gm, audio_id=audio.pk)
    return audio, aki


def _get(url: str, **headers):
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=15) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def test_sound_is_sent_by_nginx_with_ranges(behind_nginx, played_sound):
    audio, aki = played_sound
    url = f"{behind_nginx.url}/audio/{audio.pk}/"
    cookie = cookie_for(aki)
    status, headers, body = _get(url, Cookie=cookie)
    assert status == 200
    assert body == wav_bytes()
    assert headers["Content-Type"] == "audio/wav"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert "X-Accel-Redirect" not in headers

    status, headers, body = _get(url, Cookie=cookie, Range="bytes=4-11")
    assert status == 206
    assert body == wav_bytes()[4:12]
    assert headers["Content-Range"] == f"bytes 4-11/{len(wav_bytes())}"


def test_nginx_sends_nothing_to_someone_refused(behind_nginx, played_sound):
    audio, _aki = played_sound
    status, headers, body = _get(f"{behind_nginx.url}/audio/{audio.pk}/")
    assert status == 404
    assert body != wav_bytes()


def test_the_internal_location_is_not_reachable_from_outside(behind_nginx, played_sound):
    audio, _aki = played_sound
    status, _headers, body = _get(f"{behind_nginx.url}/protected-media/{audio.file.name}")
    assert status == 404
    assert body != wav_bytes()
