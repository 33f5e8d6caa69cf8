"""Template filter for the text GMs write: a small Markdown subset, escaped first."""

from django import template
from django.utils.safestring import mark_safe

from ..text import render_markdownish

register = template.Library()


@register.filter
def markdownish(value) -> str:
    """Render `value` with sessions_app.text; only the markup it produced is marked safe."""
    # str() of a SafeString is still escaped inside: user text is never trusted as HTML.
    return mark_safe(render_markdownish("" if value is None else str(value)))  # noqa: S308
