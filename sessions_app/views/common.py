"""Helpers shared by the views: membership lookups and form error plumbing."""

from __future__ import annotations

from urllib.parse import unquote

from django.contrib.auth.middleware import get_user
from django.core.exceptions import ValidationError
from django.http import Http404

from sessions_app.selectors.tables import session_for_member


def signed_in_user(request):
    """The user `request.user` stands for, itself rather than the lazy stand-in.

    Every attribute read through the stand-in costs a few calls more, and a roll reads its
    roller a few dozen times (the ORM's checks of a related object read several); it is the
    same object, cached on the request by the authentication middleware.
    """
    return get_user(request)


def asked_by_htmx(request) -> bool:
    """`bool(request.htmx)`, read from the request's environ.

    django-htmx reads the header through `request.headers`, which is built, on first use,
    from every header of the request: on a roll that was the only use, and cost as much as
    checking the CSRF token.
    """
    value = request.META.get("HTTP_HX_REQUEST")
    if value and request.META.get("HTTP_HX_REQUEST_URI_AUTOENCODED") == "true":
        value = unquote(value)
    return value == "true"


def partial_template(request, template: str, partial: str) -> str:
    """Render only the named partial when htmx asked for it."""
    return f"{template}#{partial}" if asked_by_htmx(request) else template


def apply_errors(form, error: ValidationError) -> None:
    """Show a service's ValidationError on the form, field by field where it can."""
    if hasattr(error, "error_dict"):
        for field, errors in error.error_dict.items():
            target = field if field in form.fields else None
            for item in errors:
                form.add_error(target, item)
    else:
        for item in error.messages:
            form.add_error(None, item)


def member_session(request, session_id: int):
    """Return (session, membership) for a member, or raise 404 for anyone else."""
    found = session_for_member(user=request.user, session_id=session_id)
    if found is None:
        raise Http404
    return found
