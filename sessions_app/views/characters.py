"""Character sheets and the table's rules profile."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from sessions_app.selectors.experience import character_growth
from sessions_app.selectors.scenes import sheet_checked_in
from sessions_app.selectors.tables import table_characters, table_profile
from sessions_app.services.access import is_gm, member_table_or_404, membership_or_404
from sessions_app.services.characters import can_edit_character, character_create, character_update
from sessions_app.services.tables import table_profile_save

from ..forms import CharacterForm, RulesProfileForm
from ..models import Character, Membership, Table
from .common import apply_errors


def _may_view_sheet(user, membership: Membership, character: Character) -> bool:
    """Players see their own sheets; the GM sees all of them."""
    return is_gm(membership) or character.owner_id == user.pk


@login_required
def character_list(request, table_id: int):
    table, membership = member_table_or_404(user=request.user, table_id=table_id)
    viewer_is_gm = is_gm(membership)
    characters = table_characters(table=table)
    if not viewer_is_gm:
        characters = characters.filter(kind=Character.Kind.PC)
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


def _value_names(table: Table) -> list[str]:
    return list(table_profile(table=table).judgement_value_names or [])


def _resource_names(table: Table) -> list[str]:
    return list(table_profile(table=table).resource_names or [])


@login_required
@require_http_methods(["GET", "POST"])
def character_new(request, table_id: int):
    table, membership = member_table_or_404(user=request.user, table_id=table_id)
    kind = Character.Kind.NPC if request.GET.get("kind") == "npc" else Character.Kind.PC
    if kind == Character.Kind.NPC and not is_gm(membership):
        raise PermissionDenied
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
            )
        except ValidationError as error:
            apply_errors(form, error)
        else:
            messages.success(request, _("%(name)s was created.") % {"name": character.name})
            return redirect("character_list", table_id=table.pk)
    return render(
        request,
        "sessions_app/character_form.html",
        {"table": table, "form": form, "kind": kind, "character": None, "editable": True},
        status=400 if form.errors else 200,
    )


@login_required
@require_http_methods(["GET", "POST"])
def character_edit(request, character_id: int):
    character = get_object_or_404(
        Character.objects.select_related("table", "owner"), pk=character_id
    )
    membership = membership_or_404(user=request.user, table_id=character.table_id)
    if not _may_view_sheet(request.user, membership, character):
        raise Http404
    editable = can_edit_character(request.user, character)
    if request.method == "POST" and not editable:
        raise PermissionDenied
    form = CharacterForm(
        request.POST or None,
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
        },
        status=400 if form.errors else 200,
    )


@login_required
@require_http_methods(["GET", "POST"])
def profile_edit(request, table_id: int):
    table, membership = member_table_or_404(user=request.user, table_id=table_id)
    if not is_gm(membership):
        raise PermissionDenied
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
