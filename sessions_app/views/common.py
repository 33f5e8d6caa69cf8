"""Helpers shared by the views: partial templates and form error plumbing."""

from __future__ import annotations

import ipaddress

from django.core.exceptions import ValidationError


def partial_template(request, template: str, partial: str) -> str:
    """Render only the named partial when htmx asked for it."""
    return f"{template}#{partial}" if request.htmx else template


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


def client_ip(request) -> str:
    """The browser's address: behind the loopback proxy (nginx), the last hop it added."""
    address = request.META.get("REMOTE_ADDR", "")
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    try:
        behind_proxy = ipaddress.ip_address(address).is_loopback
    except ValueError:
        behind_proxy = False
    if behind_proxy and forwarded:
        # nginx appends the address it saw; anything before it came from the client.
        return forwarded.split(",")[-1].strip()
    return address
