"""Dependencies run one way: the games use sessions_app, the rules use no Django at all."""

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _imported_modules(path: Path) -> set[str]:
    """Every module a file imports, at any level of the file (function bodies included)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def _importers(paths, package: str) -> list[str]:
    """The files among ``paths`` that import ``package`` or anything in it."""
    return [
        str(path.relative_to(ROOT))
        for path in sorted(paths)
        if any(name.split(".")[0] == package for name in _imported_modules(path))
    ]


def test_sessions_app_never_imports_minigames():
    assert _importers((ROOT / "sessions_app").rglob("*.py"), "minigames") == []


# The rules of each game: engines, computer players and card data (design: "rules are pure").
PURE_MODULES = [
    "minigames.game",
    "minigames.actual.rules.engine",
    "minigames.actual.rules.bot",
    "minigames.acticsx.rules.engine",
    "minigames.acticsx.rules.bot",
    "minigames.acticsx.rules.cards",
    "minigames.acticsx.rules.effects",
]


def test_engines_bots_and_cards_load_no_django():
    # A fresh interpreter: whatever these modules import, directly or not, shows up there.
    script = (
        "import importlib, sys\n"
        f"for name in {PURE_MODULES!r}: importlib.import_module(name)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))\n"
    )
    found = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )

    assert found.stdout.strip() == "[]"
