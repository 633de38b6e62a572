"""Secrecy at state level: two CG I campaigns in which the Allies do different secret things
(purchases, recon, CVP in the RePh, retained units) look exactly the same to the German player
in the state, the actions, the procedure, the history, the roster and the API."""

import json
import re

import pytest
from rest_framework.test import APIClient

from campaigns.access import visibility
from campaigns.selectors.campaign_page import campaign_page
from campaigns.selectors.history import history
from campaigns.services.state import current_state
from campaigns.systems.achtung_panzer.tests.campaign_harness import QUIET, War

pytestmark = pytest.mark.django_db

GERMAN = {**QUIET}


def _war(club, people, busy: bool, name: str) -> War:
    war = War(club, people, name=name)
    war.by("allied", "ap.declare", {"special": "none"})
    if busy:
        war.by("allied", "ap.purchase", {"action": "buy", "rg": "I1"})
        war.by("allied", "ap.purchase", {"action": "buy", "rg": "A5"})
        war.by(
            "allied", "ap.retained", {"action": "add", "kind": "squad", "type": "457", "count": 3}
        )
    allied = {**QUIET, "1.622": {"conduct": busy}}
    war.walk_both(answers={"allied": allied, "german": GERMAN})
    war.result({"allied_objectives_end": "hill_520", "allied_cvp": 6, "german_cvp": 9})
    war.walk_both(until="1.607", answers={"allied": QUIET, "german": GERMAN})
    if busy:
        war.by("allied", "ap.cvp", {"cvp": 11})
        war.by(
            "allied",
            "ap.retained",
            {
                "action": "remove",
                "id": war.side("allied")["retained"][0]["id"],
                "reason": "withdrawn",
            },
        )
    war.walk_both(until="1.615", answers={"allied": QUIET, "german": GERMAN})
    return war


_UID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def _norm(value, war):
    text = json.dumps(value, sort_keys=True, default=str)
    text = _UID.sub("<uid>", text).replace(war.campaign.name, "<name>")
    text = re.sub(r'"(at|created_at|updated_at)": "[^"]*"', r'"\1": "<t>"', text)
    return re.sub(r'"(id|pk|campaign|seq|version)": \d+', r'"\1": 0', text)


@pytest.fixture
def wars(club, people):
    return _war(club, people, True, "Busy"), _war(club, people, False, "Quiet")


def test_the_germans_see_the_same_whatever_the_allies_did_in_secret(wars, people, view_cache):
    busy, quiet = wars
    assert busy.side("allied")["cpp"] != quiet.side("allied")["cpp"]  # the secrets really differ
    view_cache.settle(busy.campaign, quiet.campaign)
    bob = people["bob"]
    views = []
    for war in wars:
        viewer = visibility.viewer_for(bob, war.campaign)
        state = current_state(war.campaign)
        view = visibility.view_state(state, viewer)
        assert set(view["game"]["sides"]) == {"german"}
        page = campaign_page(war.campaign, viewer)
        views.append(
            {
                "game": _norm(view["game"], war),
                "procedure": _norm([s.__dict__ for s in page.procedure], war),
                "actions": _norm([t.__dict__ for t in page.actions], war),
                "history": _norm(
                    [(h.kind, h.text, h.side, h.audience) for h in history(war.campaign, viewer)],
                    war,
                ),
                "standings": _norm(page.standings, war),
                "roster": _norm(
                    [
                        (r.key, r.side, r.name)
                        for r in visibility.roster_entries_for(viewer, war.campaign)
                    ],
                    war,
                ),
            }
        )
    for part in views[0]:
        assert views[0][part] == views[1][part], part


def test_the_api_state_and_export_hold_no_allied_secret(wars, people):
    busy, _ = wars
    client = APIClient()
    client.force_login(people["bob"])
    answer = client.get(f"/api/v1/campaigns/{busy.campaign.pk}/state/").json()
    game = answer["state"]["game"]
    assert set(game["sides"]) == {"german"}
    assert "cvp_after_victory" not in json.dumps(game["public"])
    assert not [line for line in answer["procedure"] if line["side"] == "allied"]
    exported = client.get(f"/api/v1/campaigns/{busy.campaign.pk}/export/").json()
    for event in exported["events"]:
        assert not (event["audience"] == "side" and event["side"] == "allied"), event["kind"]
        assert (
            "/allied" not in json.dumps(event["data"])
            or event["kind"] == "dice.rolled"
            and event["audience"] == "public"
        ), event
    kinds = {e["kind"] for e in exported["events"]}
    assert {"ap.1.6112", "ap.check"} <= kinds  # bob's own private steps are there …
    assert all(e["side"] == "german" for e in exported["events"] if e["audience"] == "side")


def test_the_referee_reads_both_sides_and_the_germans_none_of_the_allied_lines(wars, people):
    busy, _ = wars
    rita = visibility.viewer_for(people["rita"], busy.campaign)
    view = visibility.view_state(current_state(busy.campaign), rita)
    assert set(view["game"]["sides"]) == {"allied", "german"}
    lines = [
        h.text
        for h in history(busy.campaign, rita)
        if h.kind in ("ap.purchase", "ap.cvp", "ap.retained")
    ]
    assert "Allied: RG A5 bought" in lines  # the referee reads what the Allies did, in words
    bob = visibility.viewer_for(people["bob"], busy.campaign)
    germans = " ".join(h.text for h in history(busy.campaign, bob))
    assert "A5" not in germans and "bought" not in germans


def _html(text: str, war) -> str:
    """A page with its per-campaign tokens blanked: uids, ids, CSRF/idempotency tokens, times."""
    text = _UID.sub("<uid>", text).replace(war.campaign.name, "<name>")
    text = re.sub(rf"/{war.campaign.pk}/", "/<id>/", text)
    text = re.sub(
        r'name="(csrfmiddlewaretoken|idempotency_key)" value="[^"]*"', r'name="\1" value=""', text
    )
    text = re.sub(r'"X-CSRFToken": "[^"]*"', '"X-CSRFToken": ""', text)
    text = re.sub(r'<time[^>]*>[^<]*</time>', "<time/>", text)
    return re.sub(r"\d{4}-\d\d-\d\d[ T][0-9:.+Z]*", "<t>", text)


def test_every_channel_the_germans_read_is_the_same_whatever_the_allies_did(
    wars, people, view_cache, django_capture_on_commit_callbacks
):
    """Pages (campaign page with the odds panel, history, records, scenarios, the public CG Roster and the German
    sheets' print views), the API (state, odds, export) and the refusal of an Allied step."""
    from django.core.cache import cache
    from django.test import Client

    from campaigns.errors import DomainError, Forbidden, NotFound
    from campaigns.services.journal import submit

    cache.clear()
    view_cache.settle(*(war.campaign for war in wars))
    seen = []
    for war in wars:
        pk = war.campaign.pk
        page, api = Client(), APIClient()
        page.force_login(people["bob"])
        api.force_login(people["bob"])
        with django_capture_on_commit_callbacks(execute=True):  # the odds task runs inline
            page.get(f"/campaigns/{pk}/")
        got = {
            "page": page.get(f"/campaigns/{pk}/").content.decode(),
            "history": page.get(f"/campaigns/{pk}/history/").content.decode(),
            "records": page.get(f"/campaigns/{pk}/records/").content.decode(),
            "scenarios": page.get(f"/campaigns/{pk}/scenarios/").content.decode(),
            "cg_roster": page.get(f"/campaigns/{pk}/sheets/cg_roster/print/").content.decode(),
            "rg_purchases": page.get(
                f"/campaigns/{pk}/sheets/rg_purchases/print/?side=german"
            ).content.decode(),
            "retained": page.get(
                f"/campaigns/{pk}/sheets/retained/print/?side=german"
            ).content.decode(),
            "state": json.dumps(api.get(f"/api/v1/campaigns/{pk}/state/").json(), sort_keys=True),
            "odds": json.dumps(api.get(f"/api/v1/campaigns/{pk}/odds/").json(), sort_keys=True),
            "export": json.dumps(api.get(f"/api/v1/campaigns/{pk}/export/").json(), sort_keys=True),
            "allied_sheet": str(
                page.get(f"/campaigns/{pk}/sheets/rg_purchases/print/?side=allied").status_code
            ),
        }
        try:
            submit(
                war.campaign,
                people["bob"],
                "ap.purchase",
                {"action": "buy", "rg": "I1"},
                side="allied",
            )
            got["refusal"] = "accepted!"
        except (DomainError, Forbidden, NotFound) as error:
            got["refusal"] = f"{type(error).__name__}: {error}"
        seen.append({part: _html(text, war) for part, text in got.items()})
    assert "Odds before rolling" in seen[0]["page"] and "CG Roster" in seen[0]["cg_roster"]
    assert seen[0]["allied_sheet"] in ("403", "404") and seen[0]["refusal"] != "accepted!"
    assert "German" in seen[0]["records"] and seen[0]["scenarios"]
    for part in seen[0]:
        assert seen[0][part] == seen[1][part], part


def test_the_same_pages_do_differ_for_the_referee(wars, people):
    """The comparison above can fail: the referee's copy of the same page shows the Allied secrets."""
    from django.test import Client

    pages = []
    for war in wars:
        client = Client()
        client.force_login(people["rita"])
        pages.append(_html(client.get(f"/campaigns/{war.campaign.pk}/").content.decode(), war))
    assert pages[0] != pages[1]


def test_the_germans_lists_and_odds_status_stay_put_while_the_allies_buy_in_secret(
    club, people, django_capture_on_commit_callbacks, view_cache
):
    """The dashboard and the club page (two campaigns: an order to give away) and the status of
    the German odds (API and page) are the same before and after Allied purchases, even before
    the odds task has run again."""
    from django.core.cache import cache
    from django.test import Client

    first = War(club, people, name="First")
    first.by("allied", "ap.declare", {"special": "none"})
    War(club, people, name="Second")
    page, api = Client(), APIClient()
    page.force_login(people["bob"])
    api.force_login(people["bob"])
    pk = first.campaign.pk
    cache.clear()
    with django_capture_on_commit_callbacks(execute=True):
        api.get(f"/api/v1/campaigns/{pk}/odds/")

    def seen():
        odds = api.get(f"/api/v1/campaigns/{pk}/odds/").json()
        panel = re.search(
            r'<section id="odds".*?</section>', page.get(f"/campaigns/{pk}/").content.decode(), re.S
        )
        return {
            "dashboard": _html(page.get("/").content.decode(), first),
            "club": _html(page.get(f"/clubs/{club.slug}/").content.decode(), first),
            "odds": [(entry["side"], entry["status"]) for entry in odds],
            "odds_panel": _html(panel.group(0) if panel else "", first),
        }

    before = seen()
    assert before["odds"] == [("german", "ready")]
    with django_capture_on_commit_callbacks(execute=False):
        first.by("allied", "ap.purchase", {"action": "buy", "rg": "I1"})
        first.by("allied", "ap.purchase", {"action": "buy", "rg": "A5"})
        assert first.side("allied")["purchases"], "the Allies really bought"
        view_cache.settle(first.campaign)
        after = seen()
    for part in before:
        assert after[part] == before[part], part


def test_the_germans_cannot_tell_from_the_procedure_whether_the_allies_have_fpp(club, people):
    """1.6206 and 1.621 turning done together would tell the German the Allies have no FPP. The
    Allies buy F1 (20 FPP) in one campaign and nothing in the other; once they are done buying
    (1.620 rolled at once), one is at 1.621 and the other skipped it to 1.622. The German's cut of
    the state, his procedure and whom the campaign waits for are the same in both."""
    seen = []
    for buy_fpp in (True, False):
        war = War(club, people, dice_mode="server", name=f"FPP {buy_fpp}")
        war.by("allied", "ap.declare", {"special": "none"})
        if buy_fpp:
            war.by("allied", "ap.purchase", {"action": "buy", "rg": "F1"})
        war.by("allied", "ap.check", {"step": "1.619"})
        assert war.current("allied").id == ("1.621" if buy_fpp else "1.622")
        bob = visibility.viewer_for(people["bob"], war.campaign)
        page = campaign_page(war.campaign, bob)
        from campaigns.selectors.waiting import waiting_on

        seen.append(
            {
                "public": _norm(page.state["game"]["public"], war),
                "procedure": _norm([s.__dict__ for s in page.procedure], war),
                "waiting": waiting_on(page.state, bob),
            }
        )
    assert seen[0] == seen[1]
    assert "Allied: Refit Phase steps up to Scenario commencement (1.625)" in seen[0]["waiting"]
