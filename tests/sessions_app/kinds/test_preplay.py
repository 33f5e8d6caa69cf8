"""The pre-play kinds' lines as the timeline shows them."""

import pytest
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.html import strip_tags

TEMPLATE = "sessions_app/kinds/preparation_ticked.html"


def _line(payload: dict, language: str = "en") -> str:
    with translation.override(language):
        return strip_tags(render_to_string(TEMPLATE, {"p": payload}))


@pytest.mark.parametrize(
    ("payload", "line"),
    [
        ({"item": "rulebook", "done": True}, "GM preparation: “Rulebook read” ticked."),
        ({"item": "scenario", "done": True}, "GM preparation: “Scenario chosen” ticked."),
        ({"item": "tools", "done": False}, "GM preparation: “Tools ready” unticked."),
    ],
)
def test_preparation_ticked_names_the_item_and_the_change(payload, line):
    assert _line(payload) == line


def test_preparation_ticked_of_an_item_it_does_not_know_still_reads():
    assert _line({"item": "snacks", "done": True}) == "GM preparation updated."


def test_preparation_ticked_without_an_item_still_reads():
    assert _line({}) == "GM preparation updated."
