"""A GM's scenarios: the list, the whole scenario on one page, and the edit pages of its parts.

Every URL under a scenario answers 404 to anyone but its writer, whatever the method: the
owner check runs before anything else, so others cannot even learn which ids exist.
"""

from __future__ import annotations

import functools

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from sessions_app.selectors.scenarios import (
    judgement_value_names_for,
    scenario_for_owner,
    scenario_plan,
    scenarios_for_owner,
)
from sessions_app.services import scenarios as scenario_services
from sessions_app.services.scenarios import (
    handout_update,
    planned_scene_update,
    prepared_check_update,
    scenario_create,
    scenario_npc_update,
    scenario_update,
)

from ..models import Handout, PlannedScene, PreparedCheck, Scenario, ScenarioNpc
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


def _detail_context(request, scenario: Scenario, **forms) -> dict:
    """Everything the scenario page shows, with fresh add forms unless bound ones are given."""
    value_names = _value_names(request)
    plan = scenario_plan(scenario=scenario)
    check_forms = forms.pop("check_forms", {})
    for _phase, _label, scenes in plan:
        for scene in scenes:
            scene.check_form = check_forms.get(scene.pk) or PreparedCheckForm(
                value_names=value_names, auto_id=f"check{scene.pk}_%s"
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


def _answer(request, scenario: Scenario, partial: str, message: str, **forms):
    """After a change: the refreshed section for htmx, else a redirect back to it."""
    if request.htmx:
        context = _detail_context(request, scenario, status_message=message, **forms)
        return render(request, f"{DETAIL}#{partial}", context)
    messages.success(request, message)
    return redirect(reverse("scenario_detail", args=[scenario.pk]) + f"#{partial}")


def _invalid(request, scenario: Scenario, partial: str, **forms):
    """Show a bound form's errors: in its section for htmx, else on the whole page."""
    context = _detail_context(request, scenario, **forms)
    if request.htmx:
        # htmx does not swap 4xx answers; the errors come back as a normal section.
        return render(request, f"{DETAIL}#{partial}", context)
    return render(request, DETAIL, context, status=400)


def _item_page(request, scenario: Scenario, form, *, heading: str, anchor: str, status=200):
    return render(
        request,
        ITEM_FORM,
        {"scenario": scenario, "form": form, "heading": heading, "anchor": anchor},
        status=status,
    )


def _edit_item(request, scenario: Scenario, form, save, *, saved, heading, anchor: str):
    """Show an item's form on its own page; a valid POST saves it through `save(form)` and
    goes back to the item's place on the scenario page. `saved` and `heading` are called
    for their text once the outcome is known (the item may have been renamed)."""
    if request.method == "POST" and form.is_valid():
        try:
            save(form)
        except ValidationError as error:
            apply_errors(form, error)
        else:
            messages.success(request, saved())
            return _back(scenario, anchor)
    return _item_page(
        request,
        scenario,
        form,
        heading=heading(),
        anchor=anchor,
        status=400 if form.errors else 200,
    )


def _back(scenario: Scenario, anchor: str):
    return redirect(reverse("scenario_detail", args=[scenario.pk]) + f"#{anchor}")


# The scenario itself -----------------------------------------------------------------------


@login_required
def scenario_list(request):
    form = ScenarioForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            try:
                scenario = scenario_create(by=request.user, **form.cleaned_data)
            except ValidationError as error:
                apply_errors(form, error)
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
def scenario_detail(request, scenario: Scenario):
    return render(request, DETAIL, _detail_context(request, scenario))


@owner_scenario("GET", "POST")
def scenario_edit(request, scenario: Scenario):
    form = ScenarioForm(request.POST or None, scenario=scenario)
    if request.method == "POST" and form.is_valid():
        try:
            scenario_update(scenario=scenario, by=request.user, **form.cleaned_data)
        except ValidationError as error:
            apply_errors(form, error)
        else:
            messages.success(request, _("The scenario was saved."))
            return _back(scenario, "scenario-texts")
    return _item_page(
        request,
        scenario,
        form,
        heading=_("Edit the scenario"),
        anchor="scenario-texts",
        status=400 if form.errors else 200,
    )


@owner_scenario("GET", "POST")
def scenario_delete(request, scenario: Scenario):
    if request.method == "POST":
        scenario_services.scenario_delete(scenario=scenario, by=request.user)
        messages.success(request, _("The scenario was deleted."))
        return redirect("scenario_list")
    return render(request, "sessions_app/scenario_confirm_delete.html", {"scenario": scenario})


# Planned scenes ----------------------------------------------------------------------------


def _planned_scene(scenario: Scenario, scene_id: int) -> PlannedScene:
    return get_object_or_404(PlannedScene, pk=scene_id, scenario=scenario)


@owner_scenario("POST")
def planned_scene_create(request, scenario: Scenario):
    form = PlannedSceneForm(request.POST, scenario=scenario)
    if form.is_valid():
        try:
            scene = scenario_services.planned_scene_create(
                scenario=scenario, by=request.user, **form.cleaned_data
            )
        except ValidationError as error:
            apply_errors(form, error)
        else:
            message = _("The scene “%(title)s” was planned.") % {"title": scene.title}
            return _answer(request, scenario, "plan", message)
    return _invalid(request, scenario, "plan", scene_form=form)


@owner_scenario("GET", "POST")
def planned_scene_edit(request, scenario: Scenario, scene_id: int):
    scene = _planned_scene(scenario, scene_id)
    form = PlannedSceneForm(request.POST or None, scenario=scenario, planned_scene=scene)
    return _edit_item(
        request,
        scenario,
        form,
        lambda form: planned_scene_update(
            planned_scene=scene, by=request.user, **form.cleaned_data
        ),
        saved=lambda: _("The scene was saved."),
        heading=lambda: _("Edit the scene “%(title)s”") % {"title": scene.title},
        anchor=f"planned-scene-{scene.pk}",
    )


@owner_scenario("POST")
def planned_scene_delete(request, scenario: Scenario, scene_id: int):
    scene = _planned_scene(scenario, scene_id)
    scenario_services.planned_scene_delete(planned_scene=scene, by=request.user)
    message = _("The scene “%(title)s” was deleted.") % {"title": scene.title}
    return _answer(request, scenario, "plan", message)


@owner_scenario("POST")
def planned_scene_move(request, scenario: Scenario, scene_id: int):
    scene = _planned_scene(scenario, scene_id)
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


# Prepared checks ---------------------------------------------------------------------------


def _prepared_check(scenario: Scenario, check_id: int) -> PreparedCheck:
    return get_object_or_404(
        PreparedCheck.objects.select_related("planned_scene__scenario"),
        pk=check_id,
        planned_scene__scenario=scenario,
    )


@owner_scenario("POST")
def prepared_check_create(request, scenario: Scenario, scene_id: int):
    scene = _planned_scene(scenario, scene_id)
    form = PreparedCheckForm(
        request.POST, value_names=_value_names(request), auto_id=f"check{scene.pk}_%s"
    )
    if form.is_valid():
        try:
            check = scenario_services.prepared_check_create(
                planned_scene=scene, by=request.user, **form.cleaned_data
            )
        except ValidationError as error:
            apply_errors(form, error)
        else:
            message = _("The check “%(label)s” was prepared.") % {"label": check.label}
            return _answer(request, scenario, "plan", message)
    return _invalid(request, scenario, "plan", check_forms={scene.pk: form})


@owner_scenario("GET", "POST")
def prepared_check_edit(request, scenario: Scenario, check_id: int):
    check = _prepared_check(scenario, check_id)
    form = PreparedCheckForm(
        request.POST or None, value_names=_value_names(request), prepared_check=check
    )
    return _edit_item(
        request,
        scenario,
        form,
        lambda form: prepared_check_update(
            prepared_check=check, by=request.user, **form.cleaned_data
        ),
        saved=lambda: _("The check was saved."),
        heading=lambda: _("Edit the check “%(label)s”") % {"label": check.label},
        anchor=f"planned-scene-{check.planned_scene_id}",
    )


@owner_scenario("POST")
def prepared_check_delete(request, scenario: Scenario, check_id: int):
    check = _prepared_check(scenario, check_id)
    scenario_services.prepared_check_delete(prepared_check=check, by=request.user)
    message = _("The check “%(label)s” was deleted.") % {"label": check.label}
    return _answer(request, scenario, "plan", message)


# NPCs --------------------------------------------------------------------------------------


def _npc_fields(form: ScenarioNpcForm) -> dict:
    return {
        "name": form.cleaned_data["name"],
        "concept": form.cleaned_data["concept"],
        "judgement_values": form.judgement_values(),
        "notes": form.cleaned_data["notes"],
    }


@owner_scenario("POST")
def scenario_npc_create(request, scenario: Scenario):
    form = ScenarioNpcForm(request.POST, value_names=_value_names(request))
    if form.is_valid():
        try:
            npc = scenario_services.scenario_npc_create(
                scenario=scenario, by=request.user, **_npc_fields(form)
            )
        except ValidationError as error:
            apply_errors(form, error)
        else:
            message = _("%(name)s was added.") % {"name": npc.name}
            return _answer(request, scenario, "npcs", message)
    return _invalid(request, scenario, "npcs", npc_form=form)


@owner_scenario("GET", "POST")
def scenario_npc_edit(request, scenario: Scenario, npc_id: int):
    npc = get_object_or_404(ScenarioNpc, pk=npc_id, scenario=scenario)
    form = ScenarioNpcForm(request.POST or None, value_names=_value_names(request), npc=npc)
    return _edit_item(
        request,
        scenario,
        form,
        lambda form: scenario_npc_update(npc=npc, by=request.user, **_npc_fields(form)),
        saved=lambda: _("%(name)s was saved.") % {"name": npc.name},
        heading=lambda: _("Edit the NPC %(name)s") % {"name": npc.name},
        anchor=f"npc-{npc.pk}",
    )


@owner_scenario("POST")
def scenario_npc_delete(request, scenario: Scenario, npc_id: int):
    npc = get_object_or_404(ScenarioNpc, pk=npc_id, scenario=scenario)
    scenario_services.scenario_npc_delete(npc=npc, by=request.user)
    message = _("%(name)s was deleted.") % {"name": npc.name}
    return _answer(request, scenario, "npcs", message)


# Handouts ----------------------------------------------------------------------------------


@owner_scenario("POST")
def handout_create(request, scenario: Scenario):
    form = HandoutForm(request.POST, scenario=scenario)
    if form.is_valid():
        try:
            handout = scenario_services.handout_create(
                scenario=scenario, by=request.user, **form.cleaned_data
            )
        except ValidationError as error:
            apply_errors(form, error)
        else:
            message = _("The handout “%(title)s” was added.") % {"title": handout.title}
            return _answer(request, scenario, "handouts", message)
    return _invalid(request, scenario, "handouts", handout_form=form)


@owner_scenario("GET", "POST")
def handout_edit(request, scenario: Scenario, handout_id: int):
    handout = get_object_or_404(Handout, pk=handout_id, scenario=scenario)
    form = HandoutForm(request.POST or None, scenario=scenario, handout=handout)
    return _edit_item(
        request,
        scenario,
        form,
        lambda form: handout_update(handout=handout, by=request.user, **form.cleaned_data),
        saved=lambda: _("The handout was saved."),
        heading=lambda: _("Edit the handout “%(title)s”") % {"title": handout.title},
        anchor=f"handout-{handout.pk}",
    )


@owner_scenario("POST")
def handout_delete(request, scenario: Scenario, handout_id: int):
    handout = get_object_or_404(Handout, pk=handout_id, scenario=scenario)
    scenario_services.handout_delete(handout=handout, by=request.user)
    message = _("The handout “%(title)s” was deleted.") % {"title": handout.title}
    return _answer(request, scenario, "handouts", message)
