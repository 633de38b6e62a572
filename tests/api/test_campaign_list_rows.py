"""The campaign list reads only the columns it shows: each row is exactly what the summary
serializer makes of the campaign (with and without a referee)."""

import pytest

from api.campaigns import CampaignSummarySerializer
from campaigns.models import Campaign
from campaigns.services import campaigns as svc

pytestmark = pytest.mark.django_db


def test_list_rows_are_the_summary_serializers_output(skirmish, club, people, client_for):
    svc.create_campaign(
        club=club, user=people["olga"], system="skirmish", variant="duel", name="No referee"
    )
    rows = client_for("carol").get("/api/v1/campaigns/").json()["results"]
    assert len(rows) == 2 and {row["referee"] for row in rows} == {"rita", None}
    for row in rows:
        campaign = Campaign.objects.select_related("club", "referee", "created_by").get(
            pk=row["id"]
        )
        assert row == dict(CampaignSummarySerializer(campaign).data)


def test_a_date_written_once_is_written_again_for_another_time_zone(skirmish):
    from django.utils import timezone

    from api.campaigns import _SUMMARY_COLUMNS, summaries

    row = Campaign.objects.filter(pk=skirmish.pk).values(*_SUMMARY_COLUMNS).get()
    written = {}
    for zone in ("UTC", "Asia/Kolkata", "UTC"):
        with timezone.override(zone):
            written.setdefault(zone, set()).add(summaries([row])[0]["created_at"])
            assert (
                summaries([row])[0]["created_at"]
                == CampaignSummarySerializer(skirmish).data["created_at"]
            )
    assert written["UTC"] != written["Asia/Kolkata"] and len(written["UTC"]) == 1
