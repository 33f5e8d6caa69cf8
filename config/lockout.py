"""The page a locked-out login gets (django-axes' AXES_LOCKOUT_CALLABLE)."""

from django.conf import settings
from django.shortcuts import render


def login_locked_out(request, original_response=None, credentials=None):
    minutes = max(1, round(settings.AXES_COOLOFF_TIME.total_seconds() / 60))
    return render(
        request,
        "registration/locked_out.html",
        {"cooloff_minutes": minutes},
        status=settings.AXES_HTTP_RESPONSE_CODE,
    )
