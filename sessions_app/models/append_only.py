"""Records written once: history is corrected by appending, never by rewriting."""

from __future__ import annotations

from django.db import models


class AppendOnlyQuerySet(models.QuerySet):
    """Refuse bulk edits: history is corrected by appending, never by rewriting."""

    def update(self, **kwargs):
        raise ValueError(f"{self.model._meta.verbose_name_plural} are append-only.")

    def delete(self):
        raise ValueError(f"{self.model._meta.verbose_name_plural} are append-only.")


class AppendOnlyModel(models.Model):
    """A record that is written once: no save of an existing row, no delete, no bulk edit."""

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if self.pk is not None and not kwargs.get("force_insert"):
            raise ValueError(f"{self._meta.verbose_name_plural} are append-only.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValueError(f"{self._meta.verbose_name_plural} are append-only.")
