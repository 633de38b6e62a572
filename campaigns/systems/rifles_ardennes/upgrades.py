"""Rifles in the Ardennes journals of earlier versions, carried to today's (docs/journal.md,
"Versions and upgrades"; the corpus in its journals/ folder replays v1 journals on every CI).

- v1 → v2 (docs/rules-notes.md, RA-9): between missions a soldier whose unit may not lead is named
  Leader only once reinforcements from HQ (8.2) are settled and still no available soldier may
  lead, and he leads until the end of the next mission (6: a temporary leadership). Under v1 he
  could be named as soon as the casualty rolls were made, and kept the role. A "fold" step: the
  events written before it keep v1's rule (``ctx.journal_version``), nothing is rewritten.
- v2 → v3 (RA-9): a temporary Leader whose unit may not lead gives up the command at the end of the
  mission (6), when it is logged (7), before the end-mission briefing (8.3, 8.4): the Leader-only
  skill Battlefield control (8.4.1) is not his to buy. Under v2 he kept the role until the casualty
  rolls (or the experience roll when nobody was eliminated), and could buy it. A "fold" step: the
  events written before it keep v2's rule.
"""

from __future__ import annotations

from campaigns.game_interface import Upgrade

LEADER_AFTER_REINFORCEMENTS = 2  # the journal version from which the v1 → v2 rule applies
LEADER_UNTIL_MISSION_END = 3  # the journal version from which the v2 → v3 rule applies


class LeaderAfterReinforcements(Upgrade):
    version = 1
    name = "rifles-leader-after-reinforcements"  # recorded in journals: never rename
    words = (
        "a soldier who may not lead is named Leader only once reinforcements from HQ are settled and still "
        "no available soldier may lead, and only until the end of the next mission (6, 8.2)"
    )
    how = "fold"


class LeaderUntilMissionEnd(Upgrade):
    version = 2
    name = "rifles-temporary-leader-until-mission-end"  # recorded in journals: never rename
    words = (
        "a temporary Leader who may not lead gives up the command at the end of the mission, before the "
        "end-mission briefing, and may not take the Leader's skill Battlefield control there (6, 7, 8.4.1)"
    )
    how = "fold"


STEPS = (LeaderAfterReinforcements(), LeaderUntilMissionEnd())
