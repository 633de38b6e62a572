"""Web Push on the settings page: a device subscribes (its browser's PushSubscription posted by
static/js/push.js; the answer is JSON: 201, or 400 with each field's errors and nothing kept) and
is removed (by the page's button, without JavaScript, or by the script with its endpoint)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse, JsonResponse
from django.urls import reverse
from django.views.decorators.http import require_POST

from campaigns.errors import DomainError
from campaigns.push import keys, subscriptions

from .common import AuthenticatedHttpRequest, done, page


def _errors(form: subscriptions.SubscriptionForm) -> dict[str, list[str]]:
    return {field: [str(message) for message in found] for field, found in form.errors.items()}


@page
@require_POST
def push_subscribe(request: AuthenticatedHttpRequest) -> HttpResponse:
    if not keys.configured():
        off = {"__all__": ["Push notices are off on this site (no VAPID keys are set)."]}
        return JsonResponse({"errors": off}, status=400)
    form = subscriptions.SubscriptionForm(request.POST)
    if not form.is_valid():
        return JsonResponse({"errors": _errors(form)}, status=400)
    try:
        device = subscriptions.subscribe(request.user, form.cleaned_data)
    except DomainError as error:
        return JsonResponse({"errors": {error.field: [error.message]}}, status=400)
    return JsonResponse({"id": device.pk, "label": device.label}, status=201)


@page
@require_POST
def push_remove(request: AuthenticatedHttpRequest) -> HttpResponse:
    endpoint = request.POST.get("endpoint", "")
    if endpoint:  # the script: this device
        removed = subscriptions.remove(request.user, endpoint=endpoint)
        return JsonResponse({"removed": removed})
    try:
        pk = int(request.POST.get("device", ""))
    except ValueError:
        pk = 0
    if subscriptions.remove(request.user, pk=pk):
        messages.success(request, "That device no longer takes your notices.")
    return done(request, reverse("mail-settings") + "#push-h")
