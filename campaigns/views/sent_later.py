"""The answer to a step queued on a phone without signal and sent when the network came back
(static/js/queue.js): the same submission as the page's own form, answered in words the script
shows beside the queued step instead of a page.

- sent: 200 ``{"state": "sent", "message": ..., "replayed": ...}`` (a step sent twice, same key,
  is written once; the second answer says it was replayed);
- refused: 400 ``{"state": "refused", "reason": ..., "form": ...}``: the rules' reason and the
  form again with the person's input kept (and, with table dice, the dice it asks for), so they
  can redo it; nothing was written;
- another person: 409 ``{"state": "signin"}`` when the person signed in now is not the one who
  queued the step (their opaque key in ``X-Muster-Person``): nothing is written, it waits.

A queued step is checked by the rules like any submission, whatever page it was made from: it is
never forced. The answer says only what the page's own answer would say to this person."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.template.loader import render_to_string
from django.utils.crypto import constant_time_compare

from campaigns.journal.records import Viewer
from campaigns.models import Campaign

from .actions import ActionBox
from .installable import person_key

HEADER = "X-Muster-Queued"  # sent by the script with a queued step (its value: "1")
PERSON = "X-Muster-Person"  # the opaque key of the person who queued it (installable.person_key)


def asked(request: HttpRequest) -> bool:
    """Whether the post is a queued step sent by the script (it wants words, not a page)."""
    return request.headers.get(HEADER) == "1"


def same_person(request: HttpRequest) -> bool:
    """Whether the step was queued by the person signed in now (their opaque key, as the page they
    made it on carried it): a step queued by someone whose session ended is never sent as another."""
    return constant_time_compare(request.headers.get(PERSON, ""), person_key(request.user))


def another_person() -> JsonResponse:
    """Someone else is signed in on this browser now: nothing is written; the step waits for its
    own person to sign in again."""
    return JsonResponse({"state": "signin"}, status=409)


def sent(message: str, *, replayed: bool = False) -> JsonResponse:
    """`replayed`: the step's key had been written before (sent twice): nothing new was written."""
    return JsonResponse({"state": "sent", "message": message, "replayed": replayed})


def refused(reason: str, form: str = "") -> JsonResponse:
    return JsonResponse({"state": "refused", "reason": reason, "form": form}, status=400)


def refused_form(
    request: HttpRequest, campaign: Campaign, viewer: Viewer, box: ActionBox
) -> JsonResponse:
    """The form refused, open, with its errors and the person's input, and its reason in words."""
    box.open = True
    form = render_to_string(
        "campaigns/_action.html", {"box": box, "campaign": campaign, "viewer": viewer}, request
    )
    return refused(reason(box), form)


def reason(box: ActionBox) -> str:
    """Why the step was sent back, as the form says it: its notice (the dice it asks for) and
    each error with the label of the input it is on."""
    said = [box.notice] if box.notice else []
    form = box.form
    if form is not None:
        for name, errors in form.errors.items():
            field = form.fields.get(name)
            label = str(field.label) if field is not None and field.label else ""
            for error in errors:
                said.append(f"{label}: {error}" if label else str(error))
    return " ".join(said) or "The step was not accepted."
