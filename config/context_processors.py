"""What every page needs to know about the server's own policies."""

from django.conf import settings


def signup_policy(request):
    """Whether to offer the sign-up page, or to point at invite links instead."""
    return {
        "signup_open": settings.SIGNUP_POLICY == "open",
        "signup_by_invite": settings.SIGNUP_POLICY == "invite",
    }
