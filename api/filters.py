import django_filters
from django.db.models import QuerySet

from campaigns.models import Campaign


class CampaignFilter(django_filters.FilterSet):
    club = django_filters.CharFilter(field_name="club__slug", help_text="A club's slug.")
    status = django_filters.ChoiceFilter(choices=Campaign.STATUSES)
    system = django_filters.CharFilter(help_text="A game system's slug (see /api/v1/systems/).")
    archived = django_filters.BooleanFilter(
        method="filter_archived",
        help_text=(
            "true: only the archived campaigns; false (the default, when not given): only the "
            "others. An archived campaign stays readable at its own address."
        ),
    )

    class Meta:
        model = Campaign
        fields = ["club", "status", "system", "archived"]

    def filter_queryset(self, queryset: QuerySet[Campaign]) -> QuerySet[Campaign]:
        if self.form.cleaned_data.get("archived") is None:  # not asked: the lists leave them out
            queryset = queryset.filter(archived_at=None)
        return super().filter_queryset(queryset)

    def filter_archived(
        self, queryset: QuerySet[Campaign], name: str, value: bool | None
    ) -> QuerySet[Campaign]:
        if value is None:
            return queryset
        return queryset.filter(archived_at__isnull=not value)
