"""Pictures of places and handouts: a scene's background and a handout's image.

A planned scene's background is the GM's preparation; the scene started from it shows the
same stored file, which is deleted only when neither uses it any more: changing the plan later
leaves the played scene as it was."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from ..models import Handout, PlannedScene, Scene
from ..selectors.pictures import picture_in_use
from .access import require_gm
from .images import image_delete, image_saved
from .scenarios import require_scenario_owner
from .timeline import timeline_append


def planned_scene_background_set(
    *, planned_scene: PlannedScene, by, data: bytes | None
) -> PlannedScene:
    """Give a planned scene a background picture, or take it away (`data` None)."""
    require_scenario_owner(planned_scene.scenario, by)
    _picture_replace(planned_scene, "background", data, folder="backgrounds")
    return planned_scene


def handout_image_set(*, handout: Handout, by, data: bytes | None) -> Handout:
    """Give a handout a picture, or take it away (`data` None); readers see it with the text."""
    require_scenario_owner(handout.scenario, by)
    _picture_replace(handout, "image", data, folder="handouts")
    return handout


def scene_background_set(*, scene: Scene, by, data: bytes | None) -> Scene:
    """The GM changes the running scene's background; everyone's stage shows it at once."""
    require_gm(
        user=by,
        table_id=scene.session.table_id,
        message=_("Only the GM can change the scene's background."),
    )
    if scene.status != Scene.Status.RUNNING:
        raise ValidationError(_("This scene has ended: its background can no longer change."))
    _picture_replace(
        scene,
        "background",
        data,
        folder="backgrounds",
        then=lambda: timeline_append(
            session=scene.session,
            kind="scene_background_changed",
            actor=by,
            payload={"scene_id": scene.pk, "number": scene.number, "shown": data is not None},
        ),
    )
    return scene


def _delete_if_unused(name: str) -> None:
    if name and not picture_in_use(name=name):
        image_delete(name)


def _picture_replace(item, field: str, data: bytes | None, *, folder: str, then=None) -> None:
    old = getattr(item, field).name
    if data is None:
        with transaction.atomic():
            setattr(item, field, "")
            item.save(update_fields=[field])
            _delete_if_unused(old)
            if then:
                then()
        return
    with image_saved(data=data, folder=folder) as name, transaction.atomic():
        setattr(item, field, name)
        item.save(update_fields=[field])
        _delete_if_unused(old)
        if then:
            then()
