"""The scene kinds' lines as the timeline shows them."""

from django.template.loader import render_to_string


def _handout_line(body: str) -> str:
    payload = {"handout_id": 1, "title": "A torn map", "body": body, "slot": None}
    return render_to_string("sessions_app/kinds/handout_revealed.html", {"p": payload})


def test_handout_revealed_renders_its_markdown():
    line = _handout_line("Ask the **Keeper**.\n\n- ten paces")
    assert "<strong>Keeper</strong>" in line
    assert "**" not in line
    assert "<li>ten paces</li>" in line


def test_handout_revealed_shows_typed_html_as_text():
    line = _handout_line("<script>alert(1)</script> [x](javascript:alert(1))")
    assert "<script>" not in line
    assert "&lt;script&gt;" in line
    assert "<a " not in line
