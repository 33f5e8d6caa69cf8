"""The mark on each live partial's element, taken from the panel table: the room's script
finds the panels it swaps by it, so the page and the live updates never disagree."""

from django import template
from django.utils.html import format_html

from sessions_app.presenters.panels import partial_marks

register = template.Library()


@register.simple_tag
def live_panel(partial: str) -> str:
    """``data-live-panel`` naming the panels this partial shows (and ``data-keeps-input``
    when the page keeps what the viewer did in it); a partial no panel names is an error."""
    marks = partial_marks(partial)
    if marks is None:
        raise template.TemplateSyntaxError(f"No live panel has a partial named {partial!r}.")
    panels, keeps_input = marks
    if keeps_input:
        return format_html('data-live-panel="{}" data-keeps-input', " ".join(panels))
    return format_html('data-live-panel="{}"', " ".join(panels))
