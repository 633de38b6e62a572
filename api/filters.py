import django_filters

from campaigns.models import Campaign


class CampaignFilter(django_filters.FilterSet):
    club = django_filters.CharFilter(field_name="club__slug", help_text="A club's slug.")
    status = django_filters.ChoiceFilter(choices=Campaign.STATUSES)
    system = django_filters.CharFilter(help_text="A game system's slug (see /api/v1/systems/).")

    class Meta:
        model = Campaign
        fields = ["club", "status", "system"]
