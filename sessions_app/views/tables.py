"""Views parse input, call one service, and render (the full page, or the partial htmx asks for)."""

from __future__ import annotations

import functools

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, update_session_auth_hash
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from sessions_app.selectors.access import guest_table_id, is_gm, is_member
from sessions_app.selectors.tables import (
    open_invites,
    rules_profiles_for_table,
    table_bars,
    table_members,
    table_profile,
    tables_for_user,
)
from sessions_app.services import tables as table_services
from sessions_app.services.spectators import spectator_token_renew, spectators_allow
from sessions_app.services.tables import (
    InviteError,
    invite_accept,
    invite_resolve,
    table_create,
    user_signup_and_accept,
)

from ..forms import GuestJoinForm, GuestKeepForm, SessionForm, SignupForm, TableForm
from ..services.guests import guest_join, guest_keep
from ..services.rate_limits import rate_limit_count, rate_limit_reached
from .access import member_view
from .common import apply_errors, client_ip, partial_template


def home(request):
    if not request.user.is_authenticated:
        return render(request, "sessions_app/welcome.html")
    form = TableForm()
    if request.method == "POST":
        form = TableForm(request.POST)
        if form.is_valid():
            try:
                table = table_create(gm=request.user, name=form.cleaned_data["name"])
            except ValidationError as error:
                apply_errors(form, error)
            except PermissionDenied as error:
                form.add_error(None, str(error))
            else:
                return redirect("table_detail", table_id=table.pk)
    return render(
        request,
        "sessions_app/home.html",
        {
            "tables": tables_for_user(user=request.user),
            "form": form,
            "is_guest": guest_table_id(request.user) is not None,
        },
        status=400 if form.errors else 200,
    )


@require_http_methods(["GET", "POST"])
def signup(request):
    if settings.SIGNUP_POLICY != "open":
        # Refused before any form is read: nothing is created, whatever was posted.
        return render(
            request,
            "registration/signup_closed.html",
            {"by_invite": settings.SIGNUP_POLICY == "invite"},
            status=403,
        )
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        if not _signup_allowed(request, "signup", settings.SIGNUPS_PER_HOUR):
            form.add_error(None, _too_many())
            return render(request, "registration/signup.html", {"form": form}, status=429)
        user = form.save()
        _signup_counted(request, "signup")
        login(request, user, backend=NEW_ACCOUNT_BACKEND)
        return redirect("home")
    return render(request, "registration/signup.html", {"form": form})


# A new account is signed in without a password check, so by Django's backend itself rather
# than through django-axes' backend, which only guards password checks.
NEW_ACCOUNT_BACKEND = "django.contrib.auth.backends.ModelBackend"


def _signup_allowed(request, action: str, limit: int) -> bool:
    return not rate_limit_reached(action=action, client=client_ip(request), limit=limit)


def _signup_counted(request, action: str) -> None:
    rate_limit_count(action=action, client=client_ip(request))


def _too_many() -> str:
    return _("Too many new accounts from your network in the last hour. Try again later.")


@member_view()
def table_detail(request, table, membership):
    viewer_is_gm = is_gm(membership)
    context = _table_context(request, table, viewer_is_gm)
    context["is_guest"] = guest_table_id(request.user) is not None
    return render(request, "sessions_app/table_detail.html", context)


def _table_context(request, table, viewer_is_gm, *, invite=None, session_form=None):
    return {
        "table": table,
        "viewer_is_gm": viewer_is_gm,
        "members": table_members(table=table),
        "invites": open_invites(table=table) if viewer_is_gm else [],
        "bars": table_bars(table=table) if viewer_is_gm else [],
        "sessions": table.sessions.select_related("rules_profile"),
        "invite": invite,
        "invite_url": (
            request.build_absolute_uri(reverse("invite", args=[invite.token])) if invite else ""
        ),
        "spectator_url": (
            request.build_absolute_uri(reverse("watch_index", args=[table.spectator_token]))
            if viewer_is_gm and table.spectators_allowed
            else ""
        ),
        "session_form": session_form
        or SessionForm(
            profiles=rules_profiles_for_table(table=table),
            initial={"rules_profile": table_profile(table=table)},
        ),
    }


@member_view("POST")
def invite_create(request, table, membership):
    viewer_is_gm = is_gm(membership)
    try:
        invite = table_services.invite_create(
            table=table, by=request.user, allows_guests=request.POST.get("allows_guests") == "on"
        )
    except PermissionDenied as error:
        return HttpResponse(str(error), status=403)
    context = _table_context(request, table, viewer_is_gm, invite=invite)
    return render(
        request,
        partial_template(request, "sessions_app/table_detail.html", "invite-panel"),
        context,
    )


@member_view("POST")
def spectators_update(request, table, membership):
    """The GM lets spectators watch, stops them, or makes a new link (the old one dies)."""
    action = request.POST.get("action")
    if action not in ("allow", "forbid", "renew"):
        return HttpResponse(_("Choose allow, forbid or renew."), status=400)
    try:
        if action == "renew":
            spectator_token_renew(table=table, by=request.user)
        else:
            spectators_allow(table=table, by=request.user, allowed=action == "allow")
    except PermissionDenied as error:
        return HttpResponse(str(error), status=403)
    if not request.htmx:
        return redirect("table_detail", table_id=table.pk)
    context = _table_context(request, table, is_gm(membership))
    return render(request, "sessions_app/table_detail.html#spectator-panel", context)


@member_view("POST")
def invite_withdraw(request, table, membership, invite_id: int):
    invite = get_object_or_404(table.invites, pk=invite_id)
    try:
        table_services.invite_withdraw(invite=invite, by=request.user)
    except PermissionDenied as error:
        return HttpResponse(str(error), status=403)
    context = _table_context(request, table, is_gm(membership))
    if not request.htmx:
        return redirect("table_detail", table_id=table.pk)
    return render(request, "sessions_app/table_detail.html#invite-panel", context)


@member_view("POST")
def member_remove(request, table, membership, user_id: int):
    member = get_object_or_404(table_members(table=table), user_id=user_id)
    try:
        table_services.member_remove(table=table, by=request.user, user=member.user)
    except PermissionDenied as error:
        return HttpResponse(str(error), status=403)
    except ValidationError as error:
        return HttpResponse(" ".join(error.messages), status=400)
    if not request.htmx:
        messages.success(
            request, _("%(name)s is no longer a member.") % {"name": member.user.get_username()}
        )
        return redirect("table_detail", table_id=table.pk)
    context = {**_table_context(request, table, is_gm(membership)), "oob": True}
    # The list of removed accounts gains this one: it is swapped in beside the members.
    return HttpResponse(
        render_to_string("sessions_app/table_detail.html#members", context, request=request)
        + render_to_string("sessions_app/table_detail.html#bars", context, request=request)
    )


@member_view("POST")
def member_bar_lift(request, table, membership, user_id: int):
    """The GM lets a removed person join again through the table's invites."""
    bar = get_object_or_404(table_bars(table=table), user_id=user_id)
    try:
        table_services.member_bar_lift(table=table, by=request.user, user=bar.user)
    except PermissionDenied as error:
        return HttpResponse(str(error), status=403)
    if not request.htmx:
        messages.success(
            request,
            _("%(name)s may join again through an invite.") % {"name": bar.user.get_username()},
        )
        return redirect("table_detail", table_id=table.pk)
    context = _table_context(request, table, is_gm(membership))
    return render(request, "sessions_app/table_detail.html#bars", context)


@member_view("POST")
def table_leave(request, table, _membership):
    try:
        table_services.table_leave(table=table, by=request.user)
    except PermissionDenied as error:
        return HttpResponse(str(error), status=403)
    messages.success(request, _("You left %(table)s.") % {"table": table.name})
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = reverse("home")
        return response
    return redirect("home")


@member_view("POST")
def session_create(request, table, membership):
    viewer_is_gm = is_gm(membership)
    form = SessionForm(request.POST, profiles=rules_profiles_for_table(table=table))
    if form.is_valid():
        try:
            session = table_services.session_create(
                table=table, by=request.user, **form.cleaned_data
            )
        except PermissionDenied as error:
            return HttpResponse(str(error), status=403)
        except ValidationError as error:
            apply_errors(form, error)
        else:
            if request.htmx:
                response = HttpResponse(status=204)
                response["HX-Redirect"] = reverse("session_room", args=[session.pk])
                return response
            return redirect("session_room", session_id=session.pk)
    context = _table_context(request, table, viewer_is_gm, session_form=form)
    return render(
        request,
        partial_template(request, "sessions_app/table_detail.html", "session-form"),
        context,
        status=400,
    )


def _invite_link_view(view):
    """A view of an invite link (the URL's `token`), called as `view(request, invite)`.

    A link that is not, or no longer, usable gets the page saying why before anything
    posted is read, so nothing is created through it.
    """

    @functools.wraps(view)
    def resolved(request, token: str):
        try:
            invite = invite_resolve(token=token)
        except InviteError as error:
            return _invite_error(request, error.messages[0], status=404)
        return view(request, invite)

    return resolved


@require_safe
@_invite_link_view
def invite_landing(request, invite):
    """The invite link's page: join as the logged-in user, as a guest, or by signing up or
    logging in on this same page (one step either way). Each way in posts to its own view."""
    return _invite_page(request, invite)


@require_POST
@_invite_link_view
def invite_join_signed_in(request, invite):
    if not request.user.is_authenticated:
        # Signed out since the page was shown: the page now offers the other ways in.
        return _invite_page(request, invite, status=400)
    return _invite_accept_and_welcome(request, invite, request.user)


@require_POST
@_invite_link_view
def invite_join_as_guest(request, invite):
    return _invite_new_account(
        request,
        invite,
        GuestJoinForm(request.POST, prefix="guest"),
        # Only a link that lets guests in, and only for someone not signed in already.
        offered=invite.allows_guests and not request.user.is_authenticated,
        limit=settings.GUEST_JOINS_PER_HOUR,
        create=lambda data: guest_join(token=invite.token, display_name=data["display_name"]),
    )


@require_POST
@_invite_link_view
def invite_join_by_signup(request, invite):
    return _invite_new_account(
        request,
        invite,
        SignupForm(request.POST, prefix="signup"),
        limit=settings.SIGNUPS_PER_HOUR,
        create=lambda data: user_signup_and_accept(
            token=invite.token, username=data["username"], password=data["password1"]
        ),
    )


def _invite_new_account(request, invite, form, *, limit: int, create, offered: bool = True):
    """A way in that makes an account and its membership at once (a guest's, a new user's):
    `create` makes both from the valid form's data; the newcomer is then signed in. The
    form's prefix ("guest", "signup") names the limit counted per address and the form in
    the page's context."""
    # A closed server refuses before the form is read, whatever was posted.
    if settings.SIGNUP_POLICY == "closed":
        return _invite_no_new_accounts(request, invite)
    if not offered:
        return _invite_page(request, invite, status=400)
    action = form.prefix
    bound = {f"{action}_form": form}
    if not form.is_valid():
        return _invite_page(request, invite, **bound, status=400)
    if not _signup_allowed(request, action, limit):
        form.add_error(None, _too_many())
        return _invite_page(request, invite, **bound, status=429)
    try:
        user, _membership = create(form.cleaned_data)
    except ValidationError as error:
        apply_errors(form, error)
        return _invite_page(request, invite, **bound, status=400)
    _signup_counted(request, action)
    login(request, user, backend=NEW_ACCOUNT_BACKEND)
    return _invite_welcome(request, invite)


@require_POST
@_invite_link_view
def invite_join_by_login(request, invite):
    # The request goes with the form so that django-axes counts and locks out password
    # tries made here as it does on the login page.
    form = AuthenticationForm(request, data=request.POST, prefix="login")
    if not form.is_valid():
        return _invite_page(request, invite, login_form=form, status=400)
    user = form.get_user()
    login(request, user)
    return _invite_accept_and_welcome(request, invite, user)


def _invite_accept_and_welcome(request, invite, user):
    try:
        invite_accept(token=invite.token, user=user)
    except InviteError as error:
        return _invite_error(request, error.messages[0], status=404)
    except PermissionDenied as error:
        return _invite_error(request, str(error), status=403)
    return _invite_welcome(request, invite)


def _invite_welcome(request, invite):
    messages.success(request, _("Welcome to %(table)s.") % {"table": invite.table.name})
    return redirect("table_detail", table_id=invite.table_id)


def _invite_no_new_accounts(request, invite):
    messages.error(request, _("This server opens no new accounts. Log in to join."))
    return _invite_page(request, invite, status=403)


def _invite_page(
    request, invite, *, status=200, signup_form=None, login_form=None, guest_form=None
):
    """The invite's page with its three forms: the one a refused post came from is bound,
    with its errors, and the others are blank."""
    if signup_form is None:
        signup_form = SignupForm(prefix="signup")
    if login_form is None:
        login_form = AuthenticationForm(request, prefix="login")
    if guest_form is None:
        guest_form = GuestJoinForm(prefix="guest")
    if invite.allows_guests:
        # The guest card comes first on the page: the cursor starts in it.
        signup_form.fields["username"].widget.attrs.pop("autofocus", None)
        guest_form.fields["display_name"].widget.attrs["autofocus"] = True
    already_member = is_member(user=request.user, table_id=invite.table_id)
    return render(
        request,
        "sessions_app/invite.html",
        {
            "invite": invite,
            "signup_form": signup_form,
            "login_form": login_form,
            "guest_form": guest_form,
            "already_member": already_member,
            "new_accounts": settings.SIGNUP_POLICY != "closed",
        },
        status=status,
    )


def _invite_error(request, error: str, *, status: int):
    return render(request, "sessions_app/invite.html", {"error": error}, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def guest_keep_view(request):
    """A guest sets a password (and, if they like, a new name) and keeps the account."""
    table_id = guest_table_id(request.user)
    if table_id is None:
        raise Http404
    form = GuestKeepForm(request.POST or None, initial={"username": request.user.get_username()})
    if request.method == "POST" and form.is_valid():
        try:
            guest_keep(
                user=request.user,
                password=form.cleaned_data["password1"],
                username=form.cleaned_data["username"],
            )
        except ValidationError as error:
            if hasattr(error, "error_dict"):
                apply_errors(form, error)
            else:
                for message in error.messages:
                    form.add_error("password1", message)
        else:
            # A new password ends the other sessions; this one stays signed in.
            update_session_auth_hash(request, request.user)
            messages.success(request, _("Your account is yours to keep. Welcome aboard."))
            return redirect("table_detail", table_id=table_id)
    return render(
        request, "sessions_app/guest_keep.html", {"form": form}, status=400 if form.errors else 200
    )


@require_safe
def favicon(request):
    """Browsers ask for /favicon.ico whatever a page's <link rel="icon"> says.

    A temporary redirect: in production the icon's static name carries its content's hash.
    """
    return HttpResponseRedirect(static("img/favicon.svg"))


def ok(request):
    """A bare view: the baseline the benchmark compares the session page against."""
    return HttpResponse("ok", content_type="text/plain")
