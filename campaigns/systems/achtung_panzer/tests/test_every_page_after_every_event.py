"""The guard against dead ends: A!P! campaigns played through every step (CG I, II and III,
server and entered dice, purchases of every kind, fortifications, the end of the scenario with
losses, escape, hardening, AFV repair, notes, corrections), and after EVERY submission (each
position a journal can stop at: an event and the dice and follow-ups it brings) every page is
rendered for every viewer: each side, the referee, the organizer (who plays no side here) and a
club member. A status ≥ 500 or a template error anywhere fails it. The journals are then
exported and replayed into an empty campaign, which must give the same state.
"""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import Client

from campaigns.services import journal_files
from campaigns.services.state import current_state
from campaigns.systems.achtung_panzer.tests.table_play import correct_and_undo, play_cg
from tests.page_words import raw_words, visible_text

pytestmark = pytest.mark.django_db
VIEWERS = ("alice", "bob", "rita", "olga", "carol")
SIDE_OF = {"alice": ["allied"], "bob": ["german"], "rita": ["allied", "german"]}


class Pages:
    """Every page of a campaign for every viewer; counts what it rendered.

    A viewer who can read none of a submission's events is not asked again: what such a viewer
    sees is the same whatever was done in secret (campaigns/systems/achtung_panzer/tests/test_system_secrecy.py),
    so their pages were rendered, unchanged, at the previous position."""

    def __init__(self, people):
        self.people = people
        self.clients = {}
        for name in VIEWERS:
            client = Client(raise_request_exception=True)
            client.force_login(people[name])
            self.clients[name] = client
        self.rendered = 0
        self.positions = 0
        self.seen = 0
        self.words: dict[str, str] = {}  # a raw key read on a page -> where

    def urls(self, campaign, name) -> list[str]:
        base = f"/campaigns/{campaign.pk}/"
        urls = [
            base,
            base + "history/",
            base + "records/",
            base + "scenarios/",
            base + "procedure/",
            "/",
            base + "sheets/summary/print/",
            base + "sheets/cg_roster/print/",
        ]
        for side in SIDE_OF.get(name, []):
            urls += [
                base + f"sheets/rg_purchases/print/?side={side}",
                base + f"sheets/retained/print/?side={side}",
            ]
        if name == "olga":
            urls.append(base + "setup/")
        return urls

    def __call__(self, table) -> None:
        from campaigns.access import visibility

        self.positions += 1
        new = list(table.campaign.events.filter(seq__gt=self.seen))
        self.seen = table.campaign.last_seq
        for name, client in self.clients.items():
            viewer = visibility.viewer_for(self.people[name], table.campaign)
            if new and not any(viewer.can_read(e.audience, e.side) for e in new):
                continue
            urls = self.urls(table.campaign, name)
            while urls:
                url = urls.pop(0)
                response = client.get(url)
                assert response.status_code < 500, (url, name, response.status_code)
                assert response.status_code in (200, 403), (url, name, response.status_code)
                self.rendered += 1
                if response.status_code == 200 and "/print/" not in url and url != "/":
                    # Words, not keys, on the campaign and history pages.
                    page = response.content.decode()
                    for problem in raw_words(visible_text(page)):
                        self.words.setdefault(problem, f"{name} {url}")
                    # The long forms the campaign page links to, on their own pages:
                    # the first screen, and the form with no row picked.
                    base = f"/campaigns/{table.campaign.pk}/"
                    if url == base:
                        urls += [
                            base + unescape(href)
                            for href in re.findall(
                                r'class="button primary" href="[^"?]*(\?do=\w+)"', page
                            )
                        ]
                    elif "?do=" in url and "_picked" not in url and 'name="_picked"' in page:
                        urls.append(url + "&_picked=1")


def _replays_to_the_same_state(table):
    """The full export, checked and folded as replay folds a file, gives the stored state."""
    journal = journal_files.export_journal(table.campaign, None)
    _, records = journal_files.parse_journal(journal)
    assert journal_files.fold_checked(records)["game"] == current_state(table.campaign)["game"]


def test_cg1_with_server_dice_every_page_after_every_submission(club, people):
    pages = Pages(people)
    table = play_cg(club, people, "cg1", "server", after=pages, half_days=1)
    correct_and_undo(table)
    _replays_to_the_same_state(table)
    state = table.state
    assert state["status"] in ("active", "finished") and len(state["game"]["public"]["roster"]) == 6
    assert pages.positions > 60 and pages.rendered > pages.positions * 2 * 5
    assert not pages.words, "\n".join(
        f"{where}: {what}" for what, where in list(pages.words.items())[:40]
    )
    german = table.side("german")
    assert german["fortifications"] and any(p["rg"] == "O1" for p in german["purchases"])
    assert any(
        e.get("step") == "play" for e in table.side("allied")["eliminated"]
    )  # losses recorded


def test_cg2_with_entered_dice_every_page_after_every_submission(club, people):
    pages = Pages(people)
    table = play_cg(club, people, "cg2", "entered", after=pages, half_days=1)
    assert table.state["status"] == "active" and pages.positions > 40
    assert not pages.words, "\n".join(
        f"{where}: {what}" for what, where in list(pages.words.items())[:40]
    )
    _replays_to_the_same_state(table)
    assert all(
        e.data["source"] == "entered" for e in table.campaign.events.filter(kind="dice.rolled")
    )


def test_cg3_initial_refit_every_page_after_every_submission(club, people):
    pages = Pages(people)
    table = play_cg(club, people, "cg3", "server", after=pages, half_days=0)
    assert table.public["phase"] == "play" and pages.positions > 10
    assert not pages.words, "\n".join(
        f"{where}: {what}" for what, where in list(pages.words.items())[:40]
    )
