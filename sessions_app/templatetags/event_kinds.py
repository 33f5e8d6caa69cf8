"""Template filters reading the event-kind registry."""

from django import template

from ..kinds.registry import kind_find

register = template.Library()


@register.filter
def kind_template(kind: str) -> str:
    """The template of a registered kind; empty for a kind only an imported log knows."""
    found = kind_find(kind)
    return "" if found is None else found.template
