"""Character sheets and the table's rules profile."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from sessions_app.selectors.access import is_gm
from sessions_app.selectors.experience import character_growth
from sessions_app.selectors.scenes import sheet_checked_in
from sessions_app.selectors.tables import character_with_table, table_characters, table_profile
from sessions_app.services.ccfolia import character_ccfolia_export, character_ccfolia_import
from sessions_app.services.characters import can_edit_character, character_create, character_update
from sessions_app.services.faces import face_add, face_delete, face_portrait_choose, face_relabel
from sessions_app.services.images import image_read_upload
from sessions_app.services.tables import table_profile_save

from ..forms import (
    CcfoliaImportForm,
    CharacterForm,
    FaceLabelForm,
    FaceUploadForm,
    RulesProfileForm,
)
from .access import member_view, membership_or_404
from .common import apply_errors


def _may_view_sheet(user, membership, character) -> bool:
    """Players see their own sheets; the GM sees all of them."""
    return is_gm(membership) or character.owner_id == user.pk


@member_view()
def character_list(request, table, membership):
    viewer_is_gm = is_gm(membership)
    characters = table_characters(table=table, kind=None if viewer_is_gm else "pc")
    return render(
        request,
        "sessions_app/character_list.html",
        {
            "table": table,
            "viewer_is_gm": viewer_is_gm,
            "characters": characters,
            "profile": table_profile(table=table),
        },
    )


def _value_names(table) -> list[str]:
    return list(table_profile(table=table).judgement_value_names or [])


def _resource_names(table) -> list[str]:
    return list(table_profile(table=table).resource_names or [])


@member_view("GET", "POST")
def character_new(request, table, membership):
    kind = "npc" if request.GET.get("kind") == "npc" else "pc"
    if kind == "npc" and not is_gm(membership):
        raise PermissionDenied
    if "ccfolia" in request.POST:
        return _ccfolia_import(request, table, kind=kind)
    form = CharacterForm(
        request.POST or None, value_names=_value_names(table), resource_names=_resource_names(table)
    )
    if request.method == "POST" and form.is_valid():
        try:
            character = character_create(
                table=table,
                by=request.user,
                kind=kind,
                name=form.cleaned_data["name"],
                concept=form.cleaned_data["concept"],
                judgement_values=form.judgement_values(),
                resources=form.resources(),
                notes=form.cleaned_data["notes"],
                sheet_entries=form.cleaned_data["entries"],
                palette=form.cleaned_data["palette"],
            )
        except ValidationError as error:
            apply_errors(form, error)
        else:
            messages.success(request, _("%(name)s was created.") % {"name": character.name})
            return redirect("character_list", table_id=table.pk)
    return render(
        request,
        "sessions_app/character_form.html",
        {
            "table": table,
            "form": form,
            "kind": kind,
            "character": None,
            "editable": True,
            "import_form": CcfoliaImportForm(),
        },
        status=400 if form.errors else 200,
    )


def _ccfolia_import(request, table, *, kind, character=None):
    """Create or update a sheet from pasted Ccfolia JSON; a refusal changes nothing."""
    import_form = CcfoliaImportForm(request.POST)
    if import_form.is_valid():
        try:
            saved = character_ccfolia_import(
                table=table,
                by=request.user,
                text=import_form.cleaned_data["ccfolia"],
                kind=kind,
                character=character,
            )
        except ValidationError as error:
            apply_errors(import_form, error)
        else:
            messages.success(request, _("%(name)s was imported.") % {"name": saved.name})
            return redirect("character_edit", character_id=saved.pk)
    form = CharacterForm(
        value_names=_value_names(table),
        resource_names=_resource_names(table),
        character=character,
    )
    return render(
        request,
        "sessions_app/character_form.html",
        {
            "table": table,
            "form": form,
            "kind": kind,
            "character": character,
            "editable": True,
            "import_form": import_form,
            **(_sheet_page_context(request, character) if character is not None else {}),
        },
        status=400,
    )


def _sheet_page_context(request, character) -> dict:
    return {
        "growth_history": character_growth(character=character),
        "checked_in": sheet_checked_in(character=character),
        "ccfolia_json": json.dumps(character_ccfolia_export(character), ensure_ascii=False),
    }


@login_required
def character_ccfolia(request, character_id: int):
    """The character as Ccfolia's clipboard JSON, for those who may see the sheet."""
    character = character_with_table(character_id=character_id)
    if character is None:
        raise Http404
    membership = membership_or_404(user=request.user, table_id=character.table_id)
    if not _may_view_sheet(request.user, membership, character):
        raise Http404
    response = JsonResponse(
        character_ccfolia_export(character, pictures=True),
        json_dumps_params={"ensure_ascii": False},
    )
    response["Content-Disposition"] = f'attachment; filename="character-{character.pk}.json"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def character_edit(request, character_id: int):
    character = character_with_table(character_id=character_id)
    if character is None:
        raise Http404
    membership = membership_or_404(user=request.user, table_id=character.table_id)
    if not _may_view_sheet(request.user, membership, character):
        raise Http404
    editable = can_edit_character(request.user, character)
    if request.method == "POST" and not editable:
        raise PermissionDenied
    if "ccfolia" in request.POST:
        return _ccfolia_import(request, character.table, kind=character.kind, character=character)
    face_form = FaceUploadForm()
    face_error = ""
    if "face_action" in request.POST:
        outcome = _faces_post(request, character)
        if outcome is None:
            messages.success(request, _("The pictures were saved."))
            return redirect(reverse("character_edit", args=[character.pk]) + "#faces")
        face_form, face_error = outcome
    form = CharacterForm(
        None if "face_action" in request.POST else (request.POST or None),
        value_names=_value_names(character.table),
        resource_names=_resource_names(character.table),
        character=character,
    )
    if request.method == "POST" and form.is_valid():
        try:
            character_update(
                character=character,
                by=request.user,
                name=form.cleaned_data["name"],
                concept=form.cleaned_data["concept"],
                judgement_values=form.judgement_values(),
                resources=form.resources(),
                notes=form.cleaned_data["notes"],
                sheet_entries=form.cleaned_data["entries"],
                palette=form.cleaned_data["palette"],
            )
        except ValidationError as error:
            apply_errors(form, error)
        else:
            messages.success(request, _("%(name)s was saved.") % {"name": character.name})
            return redirect("character_list", table_id=character.table_id)
    if not editable:
        for field in form.fields.values():
            field.disabled = True
    return render(
        request,
        "sessions_app/character_form.html",
        {
            "table": character.table,
            "form": form,
            "kind": character.kind,
            "character": character,
            "editable": editable,
            "growth_history": character_growth(character=character),
            "checked_in": sheet_checked_in(character=character) if editable else [],
            "import_form": CcfoliaImportForm() if editable else None,
            "ccfolia_json": json.dumps(character_ccfolia_export(character), ensure_ascii=False),
            "faces": list(character.faces.all()),
            "face_form": face_form if editable else None,
            "face_error": face_error,
        },
        status=400 if form.errors or face_form.errors or face_error else 200,
    )


def _faces_post(request, character):
    """Add, relabel, delete or choose the portrait among the character's pictures.

    Return None when done, else the upload form and a message to show: nothing changed."""
    action = request.POST.get("face_action")
    upload_form = FaceUploadForm()
    try:
        if action == "add":
            upload_form = FaceUploadForm(request.POST, request.FILES)
            if not upload_form.is_valid():
                return upload_form, ""
            face_add(
                character=character,
                by=request.user,
                data=image_read_upload(upload_form.cleaned_data["image"]),
                label=upload_form.cleaned_data["label"],
                portrait=upload_form.cleaned_data["portrait"],
            )
            return None
        face = get_object_or_404(
            character.faces.select_related("character"),
            pk=request.POST.get("face") if str(request.POST.get("face", "")).isdecimal() else 0,
        )
        if action == "relabel":
            label_form = FaceLabelForm(request.POST)
            if not label_form.is_valid():
                return upload_form, _("Give the picture a label, such as “smile”.")
            face_relabel(face=face, by=request.user, label=label_form.cleaned_data["label"])
        elif action == "portrait":
            face_portrait_choose(face=face, by=request.user)
        elif action == "delete":
            face_delete(face=face, by=request.user)
        else:
            return upload_form, _("Choose what to do with the picture.")
    except ValidationError as error:
        if action == "add":
            if hasattr(error, "error_dict"):
                apply_errors(upload_form, error)
            else:
                # A refused picture is said beside the file field that chose it.
                upload_form.add_error("image", error)
            return upload_form, ""
        return upload_form, " ".join(error.messages)
    return None


@member_view("GET", "POST", gm=True)
def profile_edit(request, table, _membership):
    profile = table_profile(table=table)
    # A shipped profile is copied on its first save: the copy starts with the name the GM
    # reads, not the English it is stored under.
    form = RulesProfileForm(
        request.POST or None, instance=profile, initial={"name": profile.display_name}
    )
    if request.method == "POST" and form.is_valid():
        try:
            table_profile_save(table=table, by=request.user, form=form)
        except ValidationError as error:
            apply_errors(form, error)
        else:
            messages.success(request, _("The rules profile was saved."))
            return redirect("table_detail", table_id=table.pk)
    return render(
        request,
        "sessions_app/profile_form.html",
        {"table": table, "form": form, "profile": profile},
        status=400 if form.errors else 200,
    )
