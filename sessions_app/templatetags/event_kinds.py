"""Template filters reading the event-kind registry."""

from django import template

from ..kinds.registry import EventView, kind_find
from ..kinds.registry import event_view as registry_event_view

register = template.Library()


@register.filter
def kind_is_record(kind: str) -> bool:
    """Whether the kind is a verification record rather than a line of play."""
    found = kind_find(kind)
    return found is not None and found.record


@register.simple_tag(takes_context=True)
def event_view(context, event) -> EventView:
    """How the event shows to the page's reader (`viewer`, `viewer_is_gm`), its kind read
    once: a hidden resource's numbers only for its owner and the GM."""
    viewer = context.get("viewer")
    return registry_event_view(
        event.kind,
        event.payload,
        reader_id=getattr(viewer, "pk", None),
        reader_is_gm=bool(context.get("viewer_is_gm")),
    )
