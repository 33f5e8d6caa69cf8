"""Sign-in through Django's model backend, with the signed-in user's row kept in the cache.

Every request of a signed-in member reads their user row, and the session room makes many
small requests (a roll, a chat line, a move). The row is cached for a few minutes and
dropped the moment it is saved or deleted, so a password change, a deactivation or a new
name takes effect at once; the session's hash of the password is still checked against
the cached row on every request, as without the cache.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.cache import cache
from django.db.models.signals import post_delete, post_save

USER_CACHE_SECONDS = 300


def _cache_key(user_id) -> str:
    return f"auth-user:{user_id}"


class CachedModelBackend(ModelBackend):
    def get_user(self, user_id):
        key = _cache_key(user_id)
        user = cache.get(key)
        if user is None:
            UserModel = get_user_model()  # noqa: N806 - Django's own spelling
            try:
                user = UserModel._default_manager.get(pk=user_id)
            except UserModel.DoesNotExist:
                return None
            cache.set(key, user, USER_CACHE_SECONDS)
        return user if self.user_can_authenticate(user) else None


def _forget_user(sender, instance, **kwargs) -> None:
    cache.delete(_cache_key(instance.pk))


def connect_signals() -> None:
    user_model = get_user_model()
    post_save.connect(_forget_user, sender=user_model, dispatch_uid="auth-user-cache-save")
    post_delete.connect(_forget_user, sender=user_model, dispatch_uid="auth-user-cache-delete")
