"""After an upgrade from the previous release (test_upgrade_from_previous_release.py): every campaign
the previous release stored goes on with this code, as its players would take it.

Run by the test in a process of its own on the upgraded database (DATABASE_URL), from the
checkout's root:

    python -m tests.ops.upgrade_walk EXPECTED_DIR > report.json

For each campaign: what this code reads is what the previous release computed (EXPECTED_DIR holds
its values, tests/journals/values.py, by the uid of the campaign's first event); a player takes the
next step through the campaign page (the first form of their to-dos, sent as the page drew it), a
player takes the next one through the API (the to-do's own starting data, or what the table would
answer), and the referee's export replays (checked as a replay checks a file, nothing written).
The report says, per campaign, what happened; the test asserts it.
"""

from __future__ import annotations

import json
import os
import re
import sys
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "muster.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.test import Client  # noqa: E402

from campaigns import versions  # noqa: E402
from campaigns.errors import DomainError  # noqa: E402
from campaigns.models import Campaign  # noqa: E402
from campaigns.services import journal_files  # noqa: E402
from campaigns.services.state import current_state  # noqa: E402
from campaigns.systems import get_system  # noqa: E402
from tests.journals.values import values  # noqa: E402

SKIPPED_KINDS = {"note.added", "proposal.made", "proposal.approved", "proposal.rejected"}


class Forms(HTMLParser):
    """The campaign page's action forms as a browser would send them unchanged: hidden and typed
    values, ticked boxes and radios, each select's chosen (or first) option, text areas."""

    def __init__(self):
        super().__init__()
        self.forms: list[dict] = []
        self._form = None
        self._select = None
        self._textarea = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and (a.get("action") or "").endswith("/submit/"):
            self._form = {"action": a["action"], "fields": [], "selects": {}}
        if self._form is None:
            return
        if tag == "input" and a.get("name") and "disabled" not in a:
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio") and "checked" not in a:
                return
            if kind not in ("submit", "button"):
                self._form["fields"].append(
                    (a["name"], a.get("value", "on" if kind == "checkbox" else ""))
                )
        elif tag == "select" and a.get("name"):
            self._select = a["name"]
            self._form["selects"][self._select] = None
        elif tag == "option" and self._select is not None and "disabled" not in a:
            if self._form["selects"][self._select] is None or "selected" in a:
                self._form["selects"][self._select] = a.get("value", "")
        elif tag == "textarea" and a.get("name"):
            self._textarea = [a["name"], ""]

    def handle_data(self, data):
        if self._textarea is not None:
            self._textarea[1] += data

    def handle_endtag(self, tag):
        if self._form is None:
            return
        if tag == "select":
            self._select = None
        elif tag == "textarea" and self._textarea is not None:
            self._form["fields"].append(tuple(self._textarea))
            self._textarea = None
        elif tag == "form":
            fields = self._form["fields"] + [
                (k, v) for k, v in self._form["selects"].items() if v is not None
            ]
            self.forms.append({"action": self._form["action"], "fields": fields})
            self._form = None


def client(username: str) -> Client:
    browser = Client()
    browser.force_login(get_user_model().objects.get(username=username))
    return browser


def players(campaign) -> dict:
    state = current_state(campaign)
    return {slug: side["players"][0] for slug, side in state["sides"].items() if side["players"]}


def todos(campaign, username) -> list[dict]:
    """This person's to-dos (actions nothing optional, not notes or proposals), in the page's order."""
    answer = client(username).get(f"/api/v1/campaigns/{campaign.pk}/actions/")
    assert answer.status_code == 200, answer.content
    return [a for a in answer.json() if not a["optional"] and a["kind"] not in SKIPPED_KINDS]


def first_done(campaign, people, take) -> dict | None:
    """The first to-do that `take` gets written, trying each person's to-dos in order (a person
    who has a decision to make in one may do another first, as at the table); the tries refused on
    the way are reported with it."""
    refused = []
    for username in people:
        campaign.refresh_from_db()
        for action in todos(campaign, username):
            outcome = take(campaign, username, action)
            if outcome.get("written"):
                return {**outcome, "by": username, "refused_first": refused}
            refused.append(outcome)
    return {"written": 0, "refused": refused} if refused else None


def through_the_page(campaign, username, action) -> dict:
    """Send the page's form of the to-do as drawn; follow a request for entered dice as a player would."""
    kind = action["kind"]
    browser = client(username)
    base = f"/campaigns/{campaign.pk}/"
    page = browser.get(base)
    assert page.status_code == 200, page.status_code
    form = _form_of(page.content.decode(), kind)
    # A long form (the end of the scenario, the result) is its own page, opened from the to-do's link;
    # one that asks which units first is opened as a person who ticks none would.
    for link in (
        re.findall(r'href="([^"?]*\?do=[^"]+)"', page.content.decode()) if form is None else ()
    ):
        url = unescape(link) if link.startswith("/") else base + unescape(link)
        opened = browser.get(url).content.decode()
        if form is None and 'name="_picked"' in opened and "_picked" not in url:
            opened = browser.get(url + "&_picked=1").content.decode()
        form = _form_of(opened, kind)
        if form is not None:
            break
    if form is None:
        return {"kind": kind, "status": "no form on the page"}
    before = Campaign.objects.get(pk=campaign.pk).last_seq
    answer = browser.post(form["action"], dict_of(form["fields"]))
    for _ in range(4):  # entered dice: the form comes back with a box per die
        again = Forms()
        again.feed(answer.content.decode())
        dice = [
            f
            for f in again.forms
            if any(name.startswith("dice:") and not value for name, value in f["fields"])
        ]
        if answer.status_code != 400 or not dice:
            break
        exprs = {
            n[len("dice-expr:") :]: v for n, v in dice[0]["fields"] if n.startswith("dice-expr:")
        }
        fields = [
            (
                n,
                v or " ".join(["3"] * _count(exprs.get(n[len("dice:") :], "1d6")))
                if n.startswith("dice:")
                else v,
            )
            for n, v in dice[0]["fields"]
        ]
        answer = browser.post(dice[0]["action"], dict_of(fields))
    after = Campaign.objects.get(pk=campaign.pk).last_seq
    return {
        "kind": kind,
        "status": answer.status_code,
        "written": after - before,
        "errors": _errors(answer) if after == before else [],
    }


def _form_of(html: str, kind: str):
    parser = Forms()
    parser.feed(html)
    return next((f for f in parser.forms if ("_kind", kind) in f["fields"]), None)


def _count(expr: str) -> int:
    return int(expr.split("d")[0] or 1)


def dict_of(fields):
    out: dict = {}
    for name, value in fields:
        out.setdefault(name, []).append(value)
    return out


def _errors(answer) -> list[str]:
    import re

    text = answer.content.decode()
    return re.findall(r'class="[^"]*error[^"]*"[^>]*>([^<]{1,300})<', text)[:5]


def through_the_api(campaign, username, action) -> dict:
    """Submit the to-do with its own starting data, or what the table would answer (A!P! steps that
    ask for a decision); entered dice are given when asked for."""
    browser = client(username)
    data = dict(action["initial"])
    answer = _submit(browser, campaign, action, data)
    if answer.status_code == 400 and campaign.system == "achtung_panzer":
        answer = _submit(
            browser,
            campaign,
            action,
            table_answer(campaign, action["side"], action["kind"]) or data,
        )
    body = (
        answer.json()
        if answer.headers.get("Content-Type", "").startswith("application/json")
        else {}
    )
    return {
        "kind": action["kind"],
        "status": answer.status_code,
        "written": int(answer.status_code == 201),
        "errors": body if answer.status_code >= 400 else {},
    }


def _submit(browser, campaign, action, data):
    payload = {"kind": action["kind"], "side": action["side"], "data": data}
    for _ in range(4):
        answer = browser.post(
            f"/api/v1/campaigns/{campaign.pk}/events/", payload, content_type="application/json"
        )
        needs = answer.json().get("dice_needed") if answer.status_code == 400 else None
        if not needs:
            return answer
        payload["dice"] = {
            **payload.get("dice", {}),
            **{n["key"]: [3] * _count(n["expr"]) for n in needs},
        }
    return answer


def table_answer(campaign, side, kind):
    """What a player at the table answers at the side's current A!P! step (campaigns/systems/achtung_panzer/tests/
    table_play.py's answers, recorded instead of sent)."""
    from campaigns.systems.achtung_panzer import refit_progress
    from campaigns.systems.achtung_panzer.steps.base import kind_name
    from campaigns.systems.achtung_panzer.tests.table_play import Table, aftermath

    state = current_state(campaign)
    if kind == "ap.aftermath":
        return aftermath(state, side)
    step = refit_progress.current(state, side)
    if step is None or kind_name(step) != kind:
        return None
    settle = refit_progress.without_decision(state, side, step)
    if settle:
        return settle[1]

    class Recorder:
        sent = []

        def by(self, side, kind, data=None, dice=None):
            self.sent.append(data)
            raise StopIteration

        attempt = by
        state = property(lambda self: state)

    recorder = Recorder()
    try:
        Table.decide(recorder, state, side, step)
    except StopIteration:
        pass
    return recorder.sent[0] if recorder.sent else None


def main(expected_dir: str) -> None:
    expected = {}
    for path in Path(expected_dir).glob("*.expected.json"):
        journal = json.loads(path.with_name(path.name.replace(".expected", "")).read_text())
        expected[journal["events"][0]["uid"]] = (
            path.name.split(".")[0],
            json.loads(path.read_text()),
        )
    report = []
    for campaign in Campaign.objects.order_by("pk"):
        first = str(campaign.events.get(seq=1).uid)
        name, values_then = expected[first]
        entry = {
            "campaign": name,
            "system": campaign.system,
            "versions": campaign.journal_versions,
            "release": campaign.muster_release,
            "today": versions.current(get_system(campaign.system)),
        }
        entry["same_values"] = values(current_state(campaign)) == values_then
        if not entry["same_values"]:
            entry["values"] = {"then": values_then, "now": values(current_state(campaign))}
        people = list(players(campaign).values())
        entry["page"] = first_done(
            campaign, people, through_the_page
        )  # the first side's player first
        entry["api"] = first_done(campaign, people[::-1], through_the_api)  # then the last side's
        referee = current_state(campaign)["referee"]
        if (
            referee
        ):  # the referee's export through the API; a solitaire game's from the operator's shell
            answer = client(referee).get(f"/api/v1/campaigns/{campaign.pk}/export/")
            entry["export"], exported = answer.status_code, answer.json()
        else:
            entry["export"], exported = "operator", journal_files.export_journal(campaign)
        try:
            plan = journal_files.plan_replay(exported, club_slug=campaign.club.slug)
            entry["replays"] = (
                not plan.upgraded.ran and len(plan.records) == campaign.events.count()
            )
        except DomainError as error:
            entry["replays"] = f"{error.field}: {error.message}"
        report.append(entry)
    json.dump(report, sys.stdout, indent=1, default=str)


if __name__ == "__main__":
    main(sys.argv[1])
