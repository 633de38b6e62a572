"""Rosters: units and soldiers as the journal leaves them.

RosterEntry rows are a projection of the campaign state (rebuilt after every
change), so lists can be paginated and scoped in the database. The truth is the
journal; a unit's history over time is the history of the events that touched it.
"""

from django.db import models

from campaigns.models import Campaign


class RosterEntry(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="roster_entries")
    key = models.CharField(max_length=120)  # stable id of the unit within its campaign
    side = models.CharField(max_length=40, blank=True)
    audience = models.CharField(max_length=10, default="public")  # public | side
    kind = models.CharField(max_length=40)
    name = models.CharField(max_length=200)
    status = models.CharField(max_length=40, blank=True)
    data = models.JSONField(default=dict, blank=True)
    order = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["campaign", "key"], name="roster_key_per_campaign")]
        ordering = ["campaign", "side", "order"]
        indexes = [models.Index(fields=["campaign", "side", "audience"])]

    def __str__(self) -> str:
        return self.name
