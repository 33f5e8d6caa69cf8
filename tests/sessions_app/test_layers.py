"""What import-linter cannot say about external subpackages (django.http, channels.layers)."""

from tests.imports import ROOT, importers

SERVICES = [*(ROOT / "sessions_app" / "services").rglob("*.py"), ROOT / "minigames" / "services.py"]
TRANSPORT = ROOT / "sessions_app" / "live" / "transport.py"


def test_services_import_nothing_of_http():
    assert importers(SERVICES, "django.http") == []


def test_services_import_nothing_of_channels():
    assert importers(SERVICES, "channels") + importers(SERVICES, "asgiref") == []


def test_only_the_live_transport_touches_the_channel_layer():
    code = [*(ROOT / "sessions_app").rglob("*.py"), *(ROOT / "minigames").rglob("*.py")]

    assert importers(code, "channels.layers") == [str(TRANSPORT.relative_to(ROOT))]
