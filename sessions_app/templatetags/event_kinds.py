"""Template filters reading the event-kind registry."""

from django import template

from ..kinds.registry import kind_find, payload_for
from ..kinds.registry import kind_folds as registry_kind_folds

register = template.Library()


@register.filter
def kind_template(kind: str) -> str:
    """The template of a registered kind; empty for a kind only an imported log knows."""
    found = kind_find(kind)
    return "" if found is None else found.template


@register.filter
def kind_folds(kind: str) -> bool:
    """Whether the Main channel folds a run of lines of this kind (the table's bookkeeping)."""
    return registry_kind_folds(kind)


@register.filter
def kind_is_record(kind: str) -> bool:
    """Whether the kind is a verification record rather than a line of play."""
    found = kind_find(kind)
    return found is not None and found.record


@register.filter
def kind_is_notice(kind: str) -> bool:
    """Whether the kind is the public notice of something hidden (see Kind.notice)."""
    found = kind_find(kind)
    return found is not None and found.notice


@register.simple_tag(takes_context=True)
def reader_payload(context, event) -> dict:
    """The event's payload as the page's reader may see it (`viewer`, `viewer_is_gm`): a
    hidden resource's numbers only for its owner and the GM."""
    viewer = context.get("viewer")
    return payload_for(
        event.kind,
        event.payload,
        reader_id=getattr(viewer, "pk", None),
        reader_is_gm=bool(context.get("viewer_is_gm")),
    )
