"""The answer to a step queued on a phone without signal and sent when the network came back
(static/js/queue.js): the same submission as the page's own form, answered in words the script
shows beside the queued step instead of a page.

- sent: 200 ``{"state": "sent", "message": ...}`` (a step sent twice, same key, is written once
  and answered the same);
- refused: 400 ``{"state": "refused", "reason": ..., "form": ...}``: the rules' reason and the
  form again with the person's input kept (and, with table dice, the dice it asks for), so they
  can redo it; nothing was written.

A queued step is checked by the rules like any submission, whatever page it was made from: it is
never forced. The answer says only what the page's own answer would say to this person."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.template.loader import render_to_string

from campaigns.journal.records import Viewer
from campaigns.kept_answers import viewcache
from campaigns.models import Campaign

from .actions import ActionBox

HEADER = "X-Muster-Queued"  # sent by the script with a queued step (its value: "1")
MADE_FROM = "X-Muster-Made-From"  # the audience position of the page the step was made on
MOVED_ON = "The campaign has moved on since the page this step was made on."


def asked(request: HttpRequest) -> bool:
    """Whether the post is a queued step sent by the script (it wants words, not a page)."""
    return request.headers.get(HEADER) == "1"


def sent(message: str) -> JsonResponse:
    return JsonResponse({"state": "sent", "message": message})


def refused(
    request: HttpRequest, campaign: Campaign, viewer: Viewer, reason: str, form: str = ""
) -> JsonResponse:
    """Refused: the reason, after a word that the campaign moved on since the step's page if it did
    (the position of the viewer's own audience: what they see, nothing of the other side)."""
    made_from = request.headers.get(MADE_FROM, "")
    if made_from and made_from != viewcache.viewer_position(campaign, viewer):
        reason = f"{MOVED_ON} {reason}"
    return JsonResponse({"state": "refused", "reason": reason, "form": form}, status=400)


def refused_form(
    request: HttpRequest, campaign: Campaign, viewer: Viewer, box: ActionBox
) -> JsonResponse:
    """The form refused, open, with its errors and the person's input, and its reason in words."""
    box.open = True
    form = render_to_string(
        "campaigns/_action.html", {"box": box, "campaign": campaign, "viewer": viewer}, request
    )
    return refused(request, campaign, viewer, reason(box), form)


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
