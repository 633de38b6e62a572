"""The sweep: every worker, every few seconds, puts back in the queue the work whose task is gone.

Late acknowledgement brings a task back when one pool process dies; nothing brought it back when
the whole worker was killed, the broker was away when it was sent, or Redis restarted empty. A
thread of each worker's main process (sheets and odds alike: the more workers, the sooner) runs
``rosters.services.sweep`` (print jobs: no heartbeat, or no task in the broker),
``campaigns.services.odds.sweep`` (odds neither kept nor asked for), ``campaigns.notices.outbox.sweep``
(notices' outbox rows nobody processed), ``campaigns.services.invitation_mail.sweep`` (invitation
e-mails owed whose task is gone), ``campaigns.webhooks.outbox.sweep`` (webhook posts due and not
being sent) and ``campaigns.mails.outbox.sweep`` (notices not yet in a mail, and mails come due:
the daily digest at its hour, at most once a minute site-wide) and ``campaigns.push.outbox.sweep``
(notices not yet pushed, once a minute site-wide) every MUSTER_SWEEP_SECONDS. All only re-send what a conditional update or a short-lived note says nobody else re-sent, and
every task is safe to run twice, so several workers sweeping at once do no harm. No extra process
or unit: a site that runs a worker runs the sweep.
"""

from __future__ import annotations

import logging
import threading

from django.conf import settings

from muster.connection_loss import drop_connection

logger = logging.getLogger(__name__)

_running: dict[str, threading.Event] = {}


def once() -> None:
    from campaigns.mails import outbox as mail_outbox
    from campaigns.notices import outbox
    from campaigns.push import outbox as push_outbox
    from campaigns.services import invitation_mail, odds
    from campaigns.webhooks import outbox as webhook_outbox

    from . import services

    steps = (
        ("print jobs", services.sweep),
        ("odds", odds.sweep),
        ("notices", outbox.sweep),
        ("invitation e-mails", invitation_mail.sweep),
        ("webhooks", webhook_outbox.sweep),
        ("notice e-mails", mail_outbox.sweep),
        ("notice pushes", push_outbox.sweep),
    )
    for name, step in steps:
        try:
            step()
        except Exception as error:  # noqa: BLE001 - the database or the broker away: next time
            logger.warning("The sweep of %s failed: %s", name, error)
            drop_connection()


def start() -> None:
    """Start the sweep in this process (the worker's main process, once it is ready)."""
    every = float(getattr(settings, "MUSTER_SWEEP_SECONDS", 3) or 0)
    if every <= 0 or "sweep" in _running:
        return
    stop = _running["sweep"] = threading.Event()

    def loop() -> None:
        from django.db import connections

        try:
            once()  # at once: a worker started again after a crash finds what the crash left
            while not stop.wait(every):
                once()
        finally:
            connections.close_all()

    threading.Thread(target=loop, name="muster-sweep", daemon=True).start()
    logger.info("Sweeping for lost print jobs and odds every %s s", every)


def stop() -> None:
    event = _running.pop("sweep", None)
    if event is not None:
        event.set()
