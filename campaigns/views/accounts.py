"""Joining a club through an invitation (accept it signed in, or sign up with it), and changing
one's password, whose wrong old passwords count like wrong sign-ins."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import login, views as auth_views
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from campaigns.access import visibility
from campaigns.errors import DomainError, NotFound
from campaigns.forms import SignupForm, ThrottledPasswordChangeForm
from campaigns.models import Invitation
from campaigns.selectors.clubs import invitation_by_code
from campaigns.services import clubs as club_services

_GONE = (
    "This invitation can no longer be used (it was used, withdrawn or has expired in the meantime)."
)


@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, code: str) -> HttpResponse:
    invitation, problem = invitation_by_code(code)
    if invitation is None:
        return render(request, "accounts/join_invalid.html", {"problem": problem}, status=404)
    user = request.user
    context: dict[str, object] = {"invitation": invitation, "club": invitation.club}
    if user.is_authenticated:
        context["member_role"] = visibility.role_in(user, invitation.club)
        if request.method == "POST":
            return _accept(request, user, code, invitation)
        return render(request, "accounts/join.html", context)
    form = SignupForm(request.POST or None, initial={"email": invitation.email})
    if request.method == "POST" and form.is_valid():
        try:
            new_user = club_services.signup_with_invitation(
                code=code,
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password1"],
                email=form.cleaned_data["email"],
            )
        except DomainError as error:
            form.add_error(error.field if error.field in form.fields else None, error.message)
        except NotFound:
            return render(request, "accounts/join_invalid.html", {"problem": _GONE}, status=404)
        else:
            login(request, new_user, backend="muster.auth.ModelBackend")
            messages.success(request, f"Welcome to {invitation.club.name}, {new_user.username}.")
            return redirect("club", slug=invitation.club.slug)
    context["form"] = form
    context["login_url"] = f"{reverse('login')}?next={request.path}"
    return render(request, "accounts/join.html", context, status=400 if form.errors else 200)


def _accept(request: HttpRequest, user: User, code: str, invitation: Invitation) -> HttpResponse:
    club = invitation.club
    if visibility.role_in(user, club) is not None:
        messages.info(
            request,
            f"You are already a member of {club.name}; the invitation is left for someone else.",
        )
        return redirect("club", slug=club.slug)
    try:
        club_services.accept_invitation(code=code, user=user)
    except NotFound:
        return render(request, "accounts/join_invalid.html", {"problem": _GONE}, status=404)
    messages.success(request, f"You joined {club.name}.")
    return redirect("club", slug=club.slug)


class PasswordChangeView(auth_views.PasswordChangeView):
    """Wrong old passwords count like wrong sign-ins (ThrottledPasswordChangeForm); once locked
    out, django-axes' middleware answers with muster.signin's page (429)."""

    form_class = ThrottledPasswordChangeForm

    def get_form_kwargs(self) -> dict[str, Any]:
        return {**super().get_form_kwargs(), "request": self.request}


class SignOutView(auth_views.LogoutView):
    """Signing out also empties what the browser keeps for the site (Clear-Site-Data): the
    service worker's kept campaign pages and its caches (campaigns/views/installable.py)."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = super().post(request, *args, **kwargs)
        response["Clear-Site-Data"] = '"cache", "storage"'
        return response
