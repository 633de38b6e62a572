"""CG13: "The French Sniper for an Armor half-day is always 2, though afterward it may return
to normal": the SAN announced at 1.625 is 2 on an Armor half-day, the side's kept SAN is not
changed (rules-notes R-L1)."""

import pytest

from campaigns.systems.achtung_panzer.tests.campaign_harness import QUIET, War

pytestmark = pytest.mark.django_db


def _commence(club, people, special, name):
    war = War(club, people, variant="cg2", name=name)  # CG II: Allied SAN 3, so 2 is visible
    allied = dict(QUIET, **{"1.619.declare": {"special": special}})
    war.walk_both(answers={"allied": allied, "german": QUIET})
    return war


def test_the_french_san_is_2_on_an_armor_half_day_only(club, people):
    normal = _commence(club, people, "none", "Normal")
    assert normal.public["phase"] == "play"
    assert normal.public["san"]["allied"] == normal.side("allied")["san"] == 3

    armor = _commence(club, people, "armor", "Armor")
    assert armor.public["phase"] == "play" and armor.public["special_half_day"] == "armor"
    assert armor.public["san"]["allied"] == 2
    assert armor.public["san"]["german"] == armor.side("german")["san"]
    assert armor.side("allied")["san"] == normal.side("allied")["san"]  # the kept SAN is untouched
