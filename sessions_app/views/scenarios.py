"""A GM's scenarios: the list, the whole scenario on one page, and the edit pages of its parts.

Every URL under a scenario answers 404 to anyone but its writer, whatever the method: the
owner check runs before anything else, so others cannot even learn which ids exist.

The parts of a scenario (planned scenes, prepared checks, NPCs, handouts) are created,
edited and deleted by the same three views; `ItemKind` says where one kind differs.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import QuerySet
from django.forms import Form
from django.http import Http404, HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from sessions_app.selectors.scenarios import (
    judgement_value_names_for,
    scenario_for_owner,
    scenario_handouts,
    scenario_npcs,
    scenario_plan,
    scenario_planned_scenes,
    scenario_prepared_checks,
    scenarios_for_owner,
)
from sessions_app.services import scenarios as scenario_services
from sessions_app.services.scenarios import scenario_create, scenario_update

from ..scenario_forms import (
    HandoutForm,
    PlannedSceneForm,
    PreparedCheckForm,
    ScenarioForm,
    ScenarioNpcForm,
)
from .common import apply_errors

DETAIL = "sessions_app/scenario_detail.html"
ITEM_FORM = "sessions_app/scenario_item_form.html"


def owner_scenario(*methods: str):
    """Resolve the URL's scenario for its owner (404 for anyone else), then check the method."""

    def decorate(view):
        @login_required
        @functools.wraps(view)
        def wrapped(request, scenario_id: int, **kwargs):
            scenario = scenario_for_owner(user=request.user, scenario_id=scenario_id)
            if scenario is None:
                raise Http404
            if request.method not in methods:
                return HttpResponseNotAllowed(methods)
            return view(request, scenario, **kwargs)

        return wrapped

    return decorate


def _value_names(request) -> list[str]:
    return judgement_value_names_for(user=request.user)


def _form(request, form_class, scenario, data=None, **kwargs) -> Form:
    """Build a scenario form the one way they are all built, with the GM's value names if
    it offers them."""
    if form_class.takes_value_names:
        kwargs.setdefault("value_names", _value_names(request))
    return form_class(data, scenario=scenario, **kwargs)


def _detail_context(request, scenario, **forms) -> dict:
    """Everything the scenario page shows, with fresh add forms unless bound ones are given."""
    value_names = _value_names(request)
    plan = scenario_plan(scenario=scenario)
    check_forms = forms.pop("check_forms", {})
    for _phase, _label, scenes in plan:
        for scene in scenes:
            scene.check_form = check_forms.get(scene.pk) or PreparedCheckForm(
                value_names=value_names, parent=scene
            )
        for index, scene in enumerate(scenes):
            scene.is_first = index == 0
            scene.is_last = index == len(scenes) - 1
    context = {
        "scenario": scenario,
        "plan": plan,
        "npcs": scenario.npcs.all(),
        "handouts": scenario.handouts.all(),
        "scene_form": PlannedSceneForm(scenario=scenario),
        "npc_form": ScenarioNpcForm(value_names=value_names),
        "handout_form": HandoutForm(scenario=scenario),
        "status_message": "",
    }
    context.update(forms)
    return context


def _answer(request, scenario, partial: str, message: str, **forms):
    """After a change: the refreshed section for htmx, else a redirect back to it."""
    if request.htmx:
        context = _detail_context(request, scenario, status_message=message, **forms)
        return render(request, f"{DETAIL}#{partial}", context)
    messages.success(request, message)
    return _back(scenario, partial)


def _invalid(request, scenario, partial: str, **forms):
    """Show a bound form's errors: in its section for htmx, else on the whole page."""
    context = _detail_context(request, scenario, **forms)
    if request.htmx:
        # htmx does not swap 4xx answers; the errors come back as a normal section.
        return render(request, f"{DETAIL}#{partial}", context)
    return render(request, DETAIL, context, status=400)


def _edit_page(request, scenario, form, save, *, saved, heading, anchor: str):
    """Show a form on its own page; a valid POST saves it through `save()` and goes back to
    `anchor` on the scenario page. `saved` and `heading` are called for their text once the
    outcome is known (the item may have been renamed)."""
    if request.method == "POST" and form.is_valid():
        try:
            save()
        except ValidationError as error:
            apply_errors(form, error)
        else:
            messages.success(request, saved())
            return _back(scenario, anchor)
    return render(
        request,
        ITEM_FORM,
        {"scenario": scenario, "form": form, "heading": heading(), "anchor": anchor},
        status=400 if form.errors else 200,
    )


def _back(scenario, anchor: str):
    return redirect(reverse("scenario_detail", args=[scenario.pk]) + f"#{anchor}")


# The scenario itself -----------------------------------------------------------------------


@login_required
def scenario_list(request):
    form = ScenarioForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            try:
                scenario = scenario_create(by=request.user, **form.service_fields())
            except ValidationError as error:
                apply_errors(form, error)
            except PermissionDenied as error:
                form.add_error(None, str(error))
            else:
                messages.success(request, _("The scenario was created."))
                return redirect("scenario_detail", scenario_id=scenario.pk)
    elif request.method != "GET":
        return HttpResponseNotAllowed(["GET", "POST"])
    return render(
        request,
        "sessions_app/scenario_list.html",
        {"scenarios": scenarios_for_owner(user=request.user), "form": form},
        status=400 if form.errors else 200,
    )


@owner_scenario("GET")
def scenario_detail(request, scenario):
    return render(request, DETAIL, _detail_context(request, scenario))


@owner_scenario("GET", "POST")
def scenario_edit(request, scenario):
    form = ScenarioForm(request.POST or None, item=scenario)
    return _edit_page(
        request,
        scenario,
        form,
        lambda: scenario_update(scenario=scenario, by=request.user, **form.service_fields()),
        saved=lambda: _("The scenario was saved."),
        heading=lambda: _("Edit the scenario"),
        anchor="scenario-texts",
    )


@owner_scenario("GET", "POST")
def scenario_delete(request, scenario):
    if request.method == "POST":
        scenario_services.scenario_delete(scenario=scenario, by=request.user)
        messages.success(request, _("The scenario was deleted."))
        return redirect("scenario_list")
    return render(request, "sessions_app/scenario_confirm_delete.html", {"scenario": scenario})


# Its items: planned scenes, prepared checks, NPCs, handouts --------------------------------


@dataclass(frozen=True)
class ItemKind:
    """One kind of item a scenario holds, as its create, edit and delete views see it."""

    # The scenario's items of this kind, each with the rows up to its scenario.
    items: Callable[..., QuerySet]
    form: type[Form]
    # The keyword the kind's services take an item by: planned_scene=, npc=, ...
    arg: str
    create: Callable[..., Any]
    update: Callable[..., Any]
    delete: Callable[..., Any]
    # The section (partial and DOM id) of the scenario page that lists the items, and the
    # name its add form has in the page's context.
    section: str
    add_form: str
    # What the GM is told, formatted with the item's attribute called `name`.
    name: str
    created: Promise
    saved: Promise
    deleted: Promise
    heading: Promise
    # Where on the scenario page an item stands.
    anchor: Callable[[Any], str]
    # The kind an item is created under, if not the scenario itself.
    parent: ItemKind | None = None

    def get(self, scenario, item_id: int):
        """Return the scenario's item with this id, else answer 404."""
        return get_object_or_404(self.items(scenario=scenario), pk=item_id)

    def say(self, message: Promise, item) -> str:
        return message % {self.name: getattr(item, self.name)}


PLANNED_SCENE = ItemKind(
    items=scenario_planned_scenes,
    form=PlannedSceneForm,
    arg="planned_scene",
    create=scenario_services.planned_scene_create,
    update=scenario_services.planned_scene_update,
    delete=scenario_services.planned_scene_delete,
    section="plan",
    add_form="scene_form",
    name="title",
    created=gettext_lazy("The scene “%(title)s” was planned."),
    saved=gettext_lazy("The scene was saved."),
    deleted=gettext_lazy("The scene “%(title)s” was deleted."),
    heading=gettext_lazy("Edit the scene “%(title)s”"),
    anchor=lambda scene: f"planned-scene-{scene.pk}",
)
PREPARED_CHECK = ItemKind(
    items=scenario_prepared_checks,
    form=PreparedCheckForm,
    arg="prepared_check",
    create=scenario_services.prepared_check_create,
    update=scenario_services.prepared_check_update,
    delete=scenario_services.prepared_check_delete,
    section="plan",
    # One add form per planned scene, by the scene's id.
    add_form="check_forms",
    name="label",
    created=gettext_lazy("The check “%(label)s” was prepared."),
    saved=gettext_lazy("The check was saved."),
    deleted=gettext_lazy("The check “%(label)s” was deleted."),
    heading=gettext_lazy("Edit the check “%(label)s”"),
    anchor=lambda check: f"planned-scene-{check.planned_scene_id}",
    parent=PLANNED_SCENE,
)
SCENARIO_NPC = ItemKind(
    items=scenario_npcs,
    form=ScenarioNpcForm,
    arg="npc",
    create=scenario_services.scenario_npc_create,
    update=scenario_services.scenario_npc_update,
    delete=scenario_services.scenario_npc_delete,
    section="npcs",
    add_form="npc_form",
    name="name",
    created=gettext_lazy("%(name)s was added."),
    saved=gettext_lazy("%(name)s was saved."),
    deleted=gettext_lazy("%(name)s was deleted."),
    heading=gettext_lazy("Edit the NPC %(name)s"),
    anchor=lambda npc: f"npc-{npc.pk}",
)
HANDOUT = ItemKind(
    items=scenario_handouts,
    form=HandoutForm,
    arg="handout",
    create=scenario_services.handout_create,
    update=scenario_services.handout_update,
    delete=scenario_services.handout_delete,
    section="handouts",
    add_form="handout_form",
    name="title",
    created=gettext_lazy("The handout “%(title)s” was added."),
    saved=gettext_lazy("The handout was saved."),
    deleted=gettext_lazy("The handout “%(title)s” was deleted."),
    heading=gettext_lazy("Edit the handout “%(title)s”"),
    anchor=lambda handout: f"handout-{handout.pk}",
)


# Each URL below a scenario names one id (scene_id, npc_id, ...): the item's, or for a
# create view its parent's.


def item_create_view(kind: ItemKind):
    """Return the view that adds an item of `kind` from the add form in its section."""

    @owner_scenario("POST")
    def create(request, scenario, **url_ids):
        parent = kind.parent.get(scenario, *url_ids.values()) if kind.parent else None
        form = _form(request, kind.form, scenario, request.POST, parent=parent)
        if form.is_valid():
            owner = {kind.parent.arg: parent} if kind.parent else {"scenario": scenario}
            try:
                item = kind.create(**owner, by=request.user, **form.service_fields())
            except ValidationError as error:
                apply_errors(form, error)
            else:
                return _answer(request, scenario, kind.section, kind.say(kind.created, item))
        bound = {parent.pk: form} if parent else form
        return _invalid(request, scenario, kind.section, **{kind.add_form: bound})

    return create


def item_edit_view(kind: ItemKind):
    """Return the view that edits an item of `kind` on a page of its own."""

    @owner_scenario("GET", "POST")
    def edit(request, scenario, **url_ids):
        item = kind.get(scenario, *url_ids.values())
        form = _form(request, kind.form, scenario, request.POST or None, item=item)
        return _edit_page(
            request,
            scenario,
            form,
            lambda: kind.update(**{kind.arg: item}, by=request.user, **form.service_fields()),
            saved=lambda: kind.say(kind.saved, item),
            heading=lambda: kind.say(kind.heading, item),
            anchor=kind.anchor(item),
        )

    return edit


def item_delete_view(kind: ItemKind):
    """Return the view that deletes an item of `kind` and answers with its section."""

    @owner_scenario("POST")
    def delete(request, scenario, **url_ids):
        item = kind.get(scenario, *url_ids.values())
        kind.delete(**{kind.arg: item}, by=request.user)
        return _answer(request, scenario, kind.section, kind.say(kind.deleted, item))

    return delete


planned_scene_create = item_create_view(PLANNED_SCENE)
planned_scene_edit = item_edit_view(PLANNED_SCENE)
planned_scene_delete = item_delete_view(PLANNED_SCENE)
prepared_check_create = item_create_view(PREPARED_CHECK)
prepared_check_edit = item_edit_view(PREPARED_CHECK)
prepared_check_delete = item_delete_view(PREPARED_CHECK)
scenario_npc_create = item_create_view(SCENARIO_NPC)
scenario_npc_edit = item_edit_view(SCENARIO_NPC)
scenario_npc_delete = item_delete_view(SCENARIO_NPC)
handout_create = item_create_view(HANDOUT)
handout_edit = item_edit_view(HANDOUT)
handout_delete = item_delete_view(HANDOUT)


@owner_scenario("POST")
def planned_scene_move(request, scenario, scene_id: int):
    scene = PLANNED_SCENE.get(scenario, scene_id)
    direction = request.POST.get("direction", "")
    try:
        scenario_services.planned_scene_move(
            planned_scene=scene, by=request.user, direction=direction
        )
    except ValidationError as error:
        if request.htmx:
            return _invalid(request, scenario, "plan")
        messages.error(request, error.messages[0])
        return _back(scenario, "plan")
    if direction == "up":
        message = _("“%(title)s” moved up.") % {"title": scene.title}
    else:
        message = _("“%(title)s” moved down.") % {"title": scene.title}
    return _answer(request, scenario, "plan", message)
