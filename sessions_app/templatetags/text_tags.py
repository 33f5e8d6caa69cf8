"""Template filter for the text GMs write: Markdown, cleaned to a fixed set of tags."""

from django import template
from django.utils.safestring import mark_safe

from ..text import render_markdownish

register = template.Library()


@register.filter
def markdownish(value) -> str:
    """Render `value` with sessions_app.text; only the markup it produced is marked safe."""
    # str() of a SafeString is still rendered as Markdown without raw HTML: user text is
    # never trusted as HTML, and nh3 has cleaned what comes back.
    return mark_safe(render_markdownish("" if value is None else str(value)))  # noqa: S308
