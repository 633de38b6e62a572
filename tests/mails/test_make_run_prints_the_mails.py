"""`make run` uses the console backend (EMAIL_URL's default): a notice mailed at once is printed,
headers and all, where Muster runs."""

from __future__ import annotations

from campaigns.mails import choices, outbox
from campaigns.models import MailChoice
from campaigns.notices import making


def test_the_console_backend_prints_a_mail_sent_at_once(
    confirmed, skirmish, people, settings, capsys, django_capture_on_commit_callbacks
):
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
    carol = people["carol"]
    choices.set_choice(user=carol, campaign=skirmish, choice=MailChoice.AT_ONCE)
    making.news(carol, "sheet/1/done", "Your roster is ready", "/sheets/1/", campaign=skirmish)
    with django_capture_on_commit_callbacks(execute=True):
        outbox.after_notices(skirmish.pk)  # as the notices' task does: planned, sent after commit
    printed = capsys.readouterr().out
    assert "To: carol@example.org" in printed
    assert "List-Unsubscribe-Post: List-Unsubscribe=One-Click" in printed
    assert "Your roster is ready" in printed
