"""What import-linter cannot say about external subpackages (django.http, channels.layers)."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERVICES = [*(ROOT / "sessions_app" / "services").rglob("*.py"), ROOT / "minigames" / "services.py"]
TRANSPORT = ROOT / "sessions_app" / "live" / "transport.py"


def _imports(path: Path) -> set[str]:
    """Every module a file imports, and every name it imports from one, as dotted names."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def _importers(paths, module: str) -> list[str]:
    return [
        str(path.relative_to(ROOT))
        for path in sorted(paths)
        if any(name == module or name.startswith(f"{module}.") for name in _imports(path))
    ]


def test_services_import_nothing_of_http():
    assert _importers(SERVICES, "django.http") == []


def test_services_import_nothing_of_channels():
    assert _importers(SERVICES, "channels") + _importers(SERVICES, "asgiref") == []


def test_only_the_live_transport_touches_the_channel_layer():
    code = [*(ROOT / "sessions_app").rglob("*.py"), *(ROOT / "minigames").rglob("*.py")]

    assert _importers(code, "channels.layers") == [str(TRANSPORT.relative_to(ROOT))]
