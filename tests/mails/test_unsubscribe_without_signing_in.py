"""Every mail carries RFC 8058 one-click unsubscribe headers; the link's POST stops the mails
without a session or a CSRF token, and its GET only shows a page with a button (mail scanners
follow links)."""

from __future__ import annotations

from datetime import timedelta

from django.test import Client

from campaigns.mails import choices, outbox, unsubscribe
from campaigns.models import MailChoice
from campaigns.notices import making


def _one_mail(carol, campaign, deliver):
    making.news(carol, "sheet/1/done", "Your roster is ready", "/sheets/1/", campaign=campaign)
    outbox.plan(campaign.pk)
    (mail,) = deliver(later=timedelta(minutes=1))
    return mail


def test_the_mail_has_one_click_unsubscribe_headers_to_an_absolute_link(
    confirmed, deliver, skirmish, people, settings
):
    mail = _one_mail(people["carol"], skirmish, deliver)
    link = mail.extra_headers["List-Unsubscribe"]
    assert link.startswith(
        f"<{settings.SITE_URL.rstrip('/')}/mails/unsubscribe/"
    ) and link.endswith("/>")
    assert mail.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    message = mail.message()
    assert message["List-Unsubscribe"] == link
    assert link[1:-1] in mail.body


def test_a_one_click_post_without_a_session_unsubscribes_from_that_campaign(
    confirmed, deliver, skirmish, people
):
    carol = people["carol"]
    mail = _one_mail(carol, skirmish, deliver)
    path = mail.extra_headers["List-Unsubscribe"][1:-1].split("://", 1)[1].split("/", 1)[1]
    client = Client(enforce_csrf_checks=True)
    answer = client.post(
        "/" + path, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
    )
    assert answer.status_code == 200
    assert choices.choice_for(carol.pk, skirmish.pk) == MailChoice.NOTHING
    assert choices.default_of(carol.pk) == MailChoice.DIGEST  # other campaigns untouched


def test_a_get_shows_a_button_and_unsubscribes_nobody(confirmed, skirmish, people):
    carol = people["carol"]
    answer = Client().get(f"/mails/unsubscribe/{unsubscribe.token(carol.pk, skirmish.pk)}/")
    assert answer.status_code == 200
    assert b"<button" in answer.content and b'method="post"' in answer.content
    assert skirmish.name.encode() in answer.content
    assert choices.choice_for(carol.pk, skirmish.pk) == MailChoice.DIGEST


def test_the_all_mails_link_stops_every_campaign_and_a_forged_token_nothing(skirmish, people):
    carol = people["carol"]
    choices.set_choice(user=carol, campaign=skirmish, choice=MailChoice.AT_ONCE)
    forged = unsubscribe.token(carol.pk)[:-2] + "xx"
    assert Client().post(f"/mails/unsubscribe/{forged}/").status_code == 404
    assert choices.choice_for(carol.pk, skirmish.pk) == MailChoice.AT_ONCE
    assert Client().post(f"/mails/unsubscribe/{unsubscribe.token(carol.pk)}/").status_code == 200
    assert choices.choice_for(carol.pk, skirmish.pk) == MailChoice.NOTHING
    assert choices.default_of(carol.pk) == MailChoice.NOTHING
