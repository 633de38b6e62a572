"""The demo club's Night Patrol campaign: the first night scouted, its contacts still to enter."""

from __future__ import annotations


def play(table):
    table.create(variant="short", name="Night patrol (demo)")
    table.seat("patrol", "alice")
    table.submit("organizer", "campaign.started")
    table.submit("alice", "patrol.scout")
    return table.campaign
