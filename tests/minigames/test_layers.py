"""Dependencies run one way: the games use sessions_app, the rules use no Django at all."""

import subprocess
import sys

from tests.imports import ROOT, importers


def test_sessions_app_never_imports_minigames():
    assert importers((ROOT / "sessions_app").rglob("*.py"), "minigames") == []


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
