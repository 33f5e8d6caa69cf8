"""The project's own deployment checks, run by `manage.py check --deploy`."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.checks import Tags, Warning, register


@register(Tags.security, deploy=True)
def trusted_proxies_set(app_configs, **kwargs):
    if settings.TRUSTED_PROXIES:
        return []
    return [
        Warning(
            "TRUSTED_PROXIES is empty: behind nginx every visitor has the proxy's address, so "
            "the per-address limits and the login throttling count them all as one.",
            hint="Set TRUSTED_PROXIES to nginx's address, e.g. TRUSTED_PROXIES=127.0.0.1,::1.",
            id="srs.W001",
        )
    ]


@register(Tags.security, deploy=True)
def signup_policy_chosen(app_configs, **kwargs):
    if settings.SIGNUP_POLICY_CHOSEN:
        return []
    return [
        Warning(
            f"SIGNUP_POLICY is not set: this server is '{settings.SIGNUP_POLICY}' by default.",
            hint="Choose SIGNUP_POLICY=open, invite or closed in the environment.",
            id="srs.W002",
        )
    ]


@register(Tags.security, deploy=True)
def media_outside_the_code(app_configs, **kwargs):
    backend = settings.STORAGES["default"]["BACKEND"]
    if backend != "django.core.files.storage.FileSystemStorage":
        return []
    media = Path(settings.MEDIA_ROOT).resolve()
    code = Path(settings.BASE_DIR).resolve()
    if media != code and code not in media.parents:
        return []
    return [
        Warning(
            f"MEDIA_ROOT ({media}) is inside the code's folder: an upgrade or a fresh checkout "
            "may lose the uploaded pictures, and the service user must be able to write there.",
            hint="Set MEDIA_ROOT to a folder of its own, e.g. /var/lib/srs-table/media.",
            id="srs.W003",
        )
    ]


@register(Tags.files)
def sendfile_needs_files_on_this_machine(app_configs, **kwargs):
    backend = settings.STORAGES["default"]["BACKEND"]
    if not settings.SENDFILE_NGINX or backend == "django.core.files.storage.FileSystemStorage":
        return []
    return [
        Warning(
            f"SENDFILE_NGINX is on, but uploads are kept by {backend}: nginx's "
            "/protected-media/ location reads MEDIA_ROOT on this machine and finds nothing.",
            hint="Turn SENDFILE_NGINX off with another storage; the app then sends the files.",
            id="srs.W004",
        )
    ]
