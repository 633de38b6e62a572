"""The pages of a Rifles in the Ardennes campaign (server side): results and rolls as sentences,
no soldier id or dice key on a page, the club's comparison, house rules fixed in play."""

from __future__ import annotations

import re

from .harness import Squad
from .test_campaign_journal import _play

RAW = re.compile(r"\bs\d+\b|mission\d/|\b\w+_\w+\b")


def visible(html: str) -> str:
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    html = re.sub(r"<[^>]+>", " ", html)
    return re.sub(r"\s+", " ", html)


def test_the_campaign_page_and_history_in_words(club, people, client_for):
    squad = Squad(club, people)
    _play(squad)
    page = client_for("alice").get(f"/campaigns/{squad.campaign.pk}/")
    assert page.status_code == 200
    text = visible(page.content.decode())
    # Every mission's result and rolls are on the scenarios page; the campaign page keeps the last
    # played, so that it does not grow with the missions played.
    scenarios = visible(
        client_for("alice").get(f"/campaigns/{squad.campaign.pk}/scenarios/").content.decode()
    )
    assert "Mission 02: lost after 12 of 12 game turns." in scenarios
    assert "Eliminated: Sgt. Braun (A), Pvt. Kurz (J) and Pvt. Roth (H)." in scenarios
    assert (
        "Casualty roll for Pvt. Kurz (J): dr 2 − 1 (mission lost) + 1 (Bull Strength) = 2 → wounded"
        in text
    )
    assert not RAW.findall(scenarios), RAW.findall(scenarios)[:5]
    assert "Pvt. Weber (D), Rifle, Veteran — fell in Mission 1: Mission 01 after 1 mission." in text
    assert (
        "House rules were fixed when the campaign started." in text
        and "Propose a house rule" not in text
    )
    assert not RAW.findall(text), RAW.findall(text)[:5]

    history = visible(
        client_for("carol").get(f"/campaigns/{squad.campaign.pk}/history/").content.decode()
    )
    assert (
        "Casualty roll for Pvt. Roth (H): dr 1 − 1 (mission lost) = 0 → dead (entered from the table)"
        in history
    )
    assert (
        "Mission 2: Mission 02: lost after 12 game turns of 12, 7 soldiers took part; eliminated: Sgt. Braun (A), "
        "Pvt. Kurz (J) and Pvt. Roth (H). Pvt. Ziegler (I) took command (6)."
    ) in history
    assert not RAW.findall(history), RAW.findall(history)[:5]

    club_page = visible(client_for("bob").get(f"/clubs/{club.slug}/").content.decode())
    assert (
        "Kampfgruppe Finished alice Germans against United States of America 1 of 3 8 1 Veteran, 2 skills 2 3 "
        "entered from the table"
    ) in club_page

    setup = visible(
        client_for("olga").get(f"/campaigns/{squad.campaign.pk}/setup/").content.decode()
    )
    assert "in Rifles in the Ardennes house rules are fixed when the campaign starts" in setup

    sheet = visible(
        client_for("carol")
        .get(f"/campaigns/{squad.campaign.pk}/sheets/squad_roster/print/")
        .content.decode()
    )
    assert "Squad Roster" in sheet and "Lt. Keller" in sheet and "Game Turn Track" in sheet


def test_the_squads_player_reads_what_the_squad_waits_for_in_plain_words(club, people):
    """The squad not yet created: the campaign waits for "the squad to be created" (words that do
    not begin with the side's name). The player reads them as they are, like a club member does,
    never run into the second person ("youthe squad to be created")."""
    from campaigns.access import visibility
    from campaigns.selectors.waiting import waiting_on
    from campaigns.services.state import current_state

    squad = Squad(club, people)
    state = current_state(squad.campaign)
    player = visibility.viewer_for(people["alice"], squad.campaign)
    member = visibility.viewer_for(people["carol"], squad.campaign)
    assert waiting_on(state, player) == ["the squad to be created"]
    assert waiting_on(state, member) == ["the squad to be created"]
