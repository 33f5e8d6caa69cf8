"""The standalone dice verifier (static/verify/verify_dice.py), run as a reader would run it."""

import json
import subprocess
import sys
from pathlib import Path

VERIFIER = Path(__file__).resolve().parents[1] / "static" / "verify" / "verify_dice.py"


def run_verifier(tmp_path, document: dict) -> subprocess.CompletedProcess:
    """Write `document` (an exported log) to a file and run the verifier on it, isolated
    from the project's own modules (-I)."""
    path = tmp_path / "log.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-I", str(VERIFIER), str(path)], capture_output=True, text=True
    )
