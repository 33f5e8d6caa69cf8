"""Helpers shared by the views: partial templates and form error plumbing."""

from __future__ import annotations

from django.core.exceptions import ValidationError

from config.client_address import client_ip

__all__ = ["apply_errors", "client_ip", "partial_template"]


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
