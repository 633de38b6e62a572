"""An invitation given an e-mail address is e-mailed: by a Celery task that
is handed the invitation's id, never its code, through Django's mail backend (locmem here), in
words a newcomer understands; and an organizer creates at most INVITATIONS_PER_HOUR invitations an
hour, refused on the page and in the API with the limit named."""

from datetime import timedelta
from html import unescape

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from campaigns import tasks
from campaigns.models import Club, ClubLogEntry, Invitation, Membership
from campaigns.services import clubs

from .conftest import text_of

PAGE = "/clubs/tuesday/invitations/"
API = "/api/v1/clubs/tuesday/invitations/"


@pytest.fixture
def sent(monkeypatch):
    """The tasks sent to the broker: (args, kwargs) of each send_invitation.apply_async."""
    calls = []
    monkeypatch.setattr(
        tasks.send_invitation,
        "apply_async",
        lambda args=None, kwargs=None, **options: calls.append((args, kwargs, options)),
    )
    return calls


@pytest.fixture
def olga_named(people):
    people["olga"].first_name, people["olga"].last_name = "Olga", "Berg"
    people["olga"].save()
    return people["olga"]


def test_an_invitation_with_an_address_is_e_mailed_by_a_task_given_its_id(
    club, olga_named, client_for, sent, mailoutbox, settings, django_capture_on_commit_callbacks
):
    settings.SITE_URL = "https://muster.example.org/"
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for("olga").post(
            PAGE, {"role": "player", "email": "dora@example.org"}, follow=True
        )
    invitation = Invitation.objects.get()
    link = f"https://muster.example.org/join/{invitation.code}/"
    assert "it is being e-mailed to dora@example.org" in unescape(text_of(response))
    # The task carries the invitation's id; its code never goes through the broker.
    assert [(list(args), kwargs) for args, kwargs, _ in sent] == [([invitation.pk], None)]
    assert invitation.code not in repr(sent)
    assert not mailoutbox  # nothing sent by the request itself
    # The worker runs it: one mail, through Django's mail backend.
    tasks.send_invitation.apply(args=[invitation.pk]).get()
    [mail] = mailoutbox
    assert mail.to == ["dora@example.org"]
    assert mail.subject == "Olga Berg (olga) invites you to join Tuesday Night ASL on Muster"
    body = " ".join(mail.body.split())
    assert "Olga Berg (olga) invites you to join Tuesday Night ASL as a player." in body
    assert link in mail.body.split()
    until = timezone.localtime(invitation.expires_at)
    assert (
        f"The link works once, until {until:%A} {until.day} {until:%B %Y, %H:%M} (UTC), 14 days from now."
        in body
    )
    assert "If you were not expecting this, ignore this e-mail" in body
    # Sent once: a redelivered task sends nothing more; the club log says it went.
    tasks.send_invitation.apply(args=[invitation.pk]).get()
    assert len(mailoutbox) == 1
    entry = ClubLogEntry.objects.get(action="invitation.emailed")
    assert entry.detail == {"invitation": invitation.pk, "email": "dora@example.org"}
    assert invitation.code not in str(entry.detail)
    log = " ".join(text_of(client_for("olga").get("/clubs/tuesday/")).split())
    assert "had the invitation e-mailed to dora@example.org" in log


def test_the_api_e_mails_it_too_and_an_organizer_invitation_says_what_it_gives(
    club, people, sent, mailoutbox, django_capture_on_commit_callbacks
):
    api = APIClient()
    api.force_login(people["olga"])
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(API, {"role": "organizer", "email": "erik@example.org"}, format="json")
    assert response.status_code == 201
    [(args, _, options)] = sent
    assert list(args) == [response.json()["id"]] and options["queue"] == "muster"
    tasks.send_invitation.apply(args=args).get()
    [mail] = mailoutbox
    assert "as an organizer (you will be able to invite people and set up campaigns)" in " ".join(
        mail.body.split()
    )
    assert (
        mail.subject == "olga invites you to join Tuesday Night ASL on Muster"
    )  # no full name: the username


def test_no_address_no_mail_and_a_withdrawn_invitation_is_not_sent(
    club, people, sent, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        clubs.invite(club=club, user=people["olga"])
    assert sent == []
    with django_capture_on_commit_callbacks(execute=True):
        invitation = clubs.invite(club=club, user=people["olga"], email="dora@example.org")
    clubs.revoke_invitation(
        invitation=invitation, user=people["olga"]
    )  # before the worker got to it
    tasks.send_invitation.apply(args=[invitation.pk]).get()
    assert mailoutbox == []
    assert not ClubLogEntry.objects.filter(action="invitation.emailed").exists()


def test_an_organizer_creates_at_most_the_hourly_limit_page_and_api(
    club, people, client_for, settings, sent
):
    settings.INVITATIONS_PER_HOUR = 3
    olga = people["olga"]
    for _ in range(2):
        clubs.invite(club=club, user=olga)
    elsewhere = Club.objects.create(name="Elsewhere", slug="elsewhere")
    Membership.objects.create(club=elsewhere, user=olga, role=Membership.ORGANIZER)
    clubs.invite(club=elsewhere, user=olga)  # counted with the others: the limit is per organizer
    # The page: refused with the limit and the wait named, nothing created.
    response = client_for("olga").post(PAGE, {"role": "player", "email": "dora@example.org"})
    assert response.status_code == 429
    text = " ".join(unescape(text_of(response)).split())
    assert (
        "An organizer may create at most 3 invitations an hour, and you have created 3 in the last hour. "
        "You can invite again in 60 minutes; the links already created still work."
    ) in text
    assert int(response["Retry-After"]) == 3600
    # The API: 429 with the same words.
    api = APIClient()
    api.force_login(olga)
    answer = api.post(API, {"role": "player"}, format="json")
    assert answer.status_code == 429 and int(answer["Retry-After"]) == 3600
    assert answer.json() == {
        "detail": "An organizer may create at most 3 invitations an hour, and you have created "
        "3 in the last hour. You can invite again in 60 minutes; the links already "
        "created still work."
    }
    assert Invitation.objects.count() == 3 and sent == []
    # Another organizer is not held back by olga's hour.
    clubs.set_role(club=club, user=olga, member_username="carol", role="organizer")
    clubs.invite(club=club, user=people["carol"])
    # Once the oldest of the hour is older than an hour, olga may invite again.
    first = Invitation.objects.filter(created_by=olga).order_by("created_at").first()
    Invitation.objects.filter(pk=first.pk).update(created_at=timezone.now() - timedelta(minutes=61))
    assert api.post(API, {"role": "player"}, format="json").status_code == 201


def test_the_mail_goes_with_no_row_locked_and_a_failed_mail_is_sent_by_the_retry(
    club, people, sent, mailoutbox, monkeypatch, django_capture_on_commit_callbacks
):
    """The mail server may take EMAIL_TIMEOUT seconds: it is talked to outside any transaction (the
    invitation can be withdrawn meanwhile); a mail that fails leaves no "e-mailed" entry, and the
    task's retry sends it once."""
    from django.db import connection

    from campaigns.services import invitation_mail

    with django_capture_on_commit_callbacks(execute=True):
        invitation = clubs.invite(club=club, user=people["olga"], email="dora@example.org")
    real_send, seen = invitation_mail.send_mail, []

    def refusing(*args, **kwargs):
        seen.append(len(connection.savepoint_ids))  # the test's own transaction has none
        raise OSError("the mail server did not answer")

    monkeypatch.setattr(invitation_mail, "send_mail", refusing)
    with pytest.raises(OSError):
        invitation_mail.send(invitation.pk)
    assert seen == [0]  # send's transaction (a savepoint inside the test's) is closed by then
    assert mailoutbox == []
    assert not ClubLogEntry.objects.filter(action="invitation.emailed").exists()
    monkeypatch.setattr(invitation_mail, "send_mail", real_send)
    assert invitation_mail.send(invitation.pk) is True
    assert invitation_mail.send(invitation.pk) is False
    assert len(mailoutbox) == 1
    assert ClubLogEntry.objects.filter(action="invitation.emailed").count() == 1


def _owed_for(invitation, seconds):
    """The invitation's mail owed since `seconds` ago (older than the sweep's bound)."""
    Invitation.objects.filter(pk=invitation.pk).update(
        mail_queued_at=timezone.now() - timedelta(seconds=seconds)
    )


@pytest.fixture
def broker_holds(monkeypatch):
    """What the broker says it holds for the sweep: a set of task ids, or None (cannot say)."""
    from rosters import broker

    held = {"ids": set()}
    monkeypatch.setattr(broker, "held_task_ids", lambda queue, delivered_within=60: held["ids"])
    return held


def test_a_mail_whose_task_never_reached_the_broker_is_sent_by_the_sweep_once(
    club, people, monkeypatch, mailoutbox, broker_holds, django_capture_on_commit_callbacks
):
    """The broker away when the invitation is stored: the mail is owed all the same (the
    invitation's row says so, in its transaction), and the workers' sweep sends its task once the
    broker is back; one mail, however many times the task or the sweep runs afterwards."""
    from campaigns.services import invitation_mail

    def broker_away(*args, **kwargs):
        raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(tasks.send_invitation, "apply_async", broker_away)
    with django_capture_on_commit_callbacks(execute=True):
        invitation = clubs.invite(club=club, user=people["olga"], email="dora@example.org")
    invitation.refresh_from_db()
    assert invitation.mail_queued_at is not None and invitation.mail_sent_at is None
    assert invitation.mail_task_id == ""  # no task went
    assert invitation_mail.sweep() == 0  # not yet: owed for less than the bound

    sent = []
    monkeypatch.setattr(
        tasks.send_invitation,
        "apply_async",
        lambda args=None, kwargs=None, task_id=None, **options: sent.append((args, task_id)),
    )
    _owed_for(invitation, 10)
    with django_capture_on_commit_callbacks(execute=True):
        assert invitation_mail.sweep() == 1
    [(args, task_id)] = sent
    assert list(args) == [invitation.pk]
    invitation.refresh_from_db()
    assert invitation.mail_task_id == task_id and invitation.mail_resent == 1
    # The broker holds it now: the sweep leaves it be.
    broker_holds["ids"] = {task_id}
    _owed_for(invitation, 10)
    assert invitation_mail.sweep() == 0
    # The worker runs it: one mail; run again (redelivered, retried), still one; swept, nothing.
    tasks.send_invitation.apply(args=[invitation.pk]).get()
    tasks.send_invitation.apply(args=[invitation.pk]).get()
    assert [mail.to for mail in mailoutbox] == [["dora@example.org"]]
    invitation.refresh_from_db()
    assert invitation.mail_sent_at is not None
    broker_holds["ids"] = set()
    _owed_for(invitation, 10)
    assert invitation_mail.sweep() == 0 and len(sent) == 1
    assert ClubLogEntry.objects.filter(action="invitation.emailed").count() == 1


def test_a_mail_whose_task_was_lost_with_redis_is_sent_again_and_only_so_many_times(
    club, people, sent, mailoutbox, broker_holds, django_capture_on_commit_callbacks
):
    """Its task sent, then lost (Redis restarted empty): the sweep sends it again. A broker that
    cannot say what it holds leaves it be; a mail never sent (an address refused for ever) is sent
    again at most MAX_RESENT times; an invitation withdrawn or used is not e-mailed."""
    from campaigns.services import invitation_mail

    with django_capture_on_commit_callbacks(execute=True):
        invitation = clubs.invite(club=club, user=people["olga"], email="dora@example.org")
    [(_, _, first)] = sent
    invitation.refresh_from_db()
    assert invitation.mail_task_id == first["task_id"]
    _owed_for(invitation, 10)
    broker_holds["ids"] = {first["task_id"]}  # still in the queue
    assert invitation_mail.sweep() == 0
    broker_holds["ids"] = None  # the broker cannot say
    assert invitation_mail.sweep() == 0
    broker_holds["ids"] = set()  # lost
    for _ in range(invitation_mail.MAX_RESENT + 2):
        with django_capture_on_commit_callbacks(execute=True):
            invitation_mail.sweep()
        _owed_for(invitation, 10)
    assert len(sent) == 1 + invitation_mail.MAX_RESENT
    assert mailoutbox == []  # the tasks were never run here

    with django_capture_on_commit_callbacks(execute=True):
        other = clubs.invite(club=club, user=people["olga"], email="erik@example.org")
    clubs.revoke_invitation(invitation=other, user=people["olga"])
    _owed_for(other, 10)
    before = len(sent)
    assert invitation_mail.sweep() == 0 and len(sent) == before


def test_resends_the_broker_refused_do_not_use_up_the_mail_s_tries(
    club, people, monkeypatch, mailoutbox, broker_holds, django_capture_on_commit_callbacks
):
    """Redis back but its queues not yet declared again (or away again): the sweep's resend is
    refused by the broker. However many such sweeps, the mail is still sent once it goes through:
    only a resend that reached the broker counts towards MAX_RESENT."""
    from campaigns.services import invitation_mail

    def refused(*args, **kwargs):
        raise ConnectionError("Cannot route message for exchange 'muster': Table empty")

    monkeypatch.setattr(tasks.send_invitation, "apply_async", refused)
    with django_capture_on_commit_callbacks(execute=True):
        invitation = clubs.invite(club=club, user=people["olga"], email="dora@example.org")
    for _ in range(invitation_mail.MAX_RESENT + 2):
        _owed_for(invitation, 10)
        with django_capture_on_commit_callbacks(execute=True):
            assert invitation_mail.sweep() == 1
    invitation.refresh_from_db()
    assert invitation.mail_resent == 0 and invitation.mail_task_id == ""

    sent = []
    monkeypatch.setattr(
        tasks.send_invitation,
        "apply_async",
        lambda args=None, kwargs=None, task_id=None, **options: sent.append(task_id),
    )
    _owed_for(invitation, 10)
    with django_capture_on_commit_callbacks(execute=True):
        assert invitation_mail.sweep() == 1
    invitation.refresh_from_db()
    assert sent == [invitation.mail_task_id] and invitation.mail_resent == 1


def test_a_mail_that_failed_and_was_retried_is_sent_once_and_not_swept(
    club, people, sent, mailoutbox, monkeypatch, broker_holds, django_capture_on_commit_callbacks
):
    """The mail server refused: the claim is taken back (owed again, for the task's retry); the
    retry sends it once; the sweep then finds nothing owed."""
    from campaigns.services import invitation_mail

    with django_capture_on_commit_callbacks(execute=True):
        invitation = clubs.invite(club=club, user=people["olga"], email="dora@example.org")
    real_send = invitation_mail.send_mail

    def refusing(*args, **kwargs):
        raise OSError("the mail server did not answer")

    monkeypatch.setattr(invitation_mail, "send_mail", refusing)
    with pytest.raises(OSError):
        invitation_mail.send(invitation.pk)
    invitation.refresh_from_db()
    assert invitation.mail_sent_at is None
    monkeypatch.setattr(invitation_mail, "send_mail", real_send)
    assert invitation_mail.send(invitation.pk) is True
    assert invitation_mail.send(invitation.pk) is False
    _owed_for(invitation, 10)
    assert invitation_mail.sweep() == 0
    assert len(mailoutbox) == 1


def test_the_upgrade_marks_the_mails_the_club_log_says_went_and_owes_the_others(club, people):
    """Before the invitation said it, the club log's "invitation.emailed" entry was the record."""
    import importlib

    from django.apps import apps

    migration = importlib.import_module("campaigns.migrations.0007_invitation_mail_outbox")
    olga = people["olga"]
    went, owed, none = (
        Invitation.objects.create(club=club, created_by=olga, email=email)
        for email in ("dora@example.org", "erik@example.org", "")
    )
    entry = ClubLogEntry.objects.create(
        club=club, actor=olga, action="invitation.emailed", detail={"invitation": went.pk}
    )
    migration.owed_and_sent(apps, None)
    for invitation in (went, owed, none):
        invitation.refresh_from_db()
    assert (went.mail_queued_at, went.mail_sent_at) == (went.created_at, entry.at)
    assert (owed.mail_queued_at, owed.mail_sent_at) == (owed.created_at, None)
    assert (none.mail_queued_at, none.mail_sent_at) == (None, None)
