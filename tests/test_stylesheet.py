"""The stylesheet stays well-formed: an unclosed block silently swallows every rule after it."""

from pathlib import Path

STYLESHEET = Path(__file__).resolve().parents[1] / "static" / "css" / "app.css"


def test_stylesheet_braces_balance():
    depth = 0
    for number, line in enumerate(STYLESHEET.read_text().splitlines(), start=1):
        depth += line.count("{") - line.count("}")
        assert depth >= 0, f"line {number} closes a block that was never opened"
        if line.startswith("/*"):
            assert depth == 0, f"line {number}: a section starts inside an unclosed block"
    assert depth == 0
