"""Small pieces every API view shares."""

from campaigns import selectors


def valid_input(serializer_class, request) -> dict:
    """The request body checked by an input serializer (400 with field errors otherwise)."""
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class CampaignScoped:
    """Views under /campaigns/{campaign_id}/: the campaign as the requester may see it.

    The lookup is visibility's (via selectors.campaign_for): a campaign of a club
    the requester is not a member of does not exist for them (404).
    """

    def campaign_and_viewer(self):
        if not hasattr(self, "_campaign_and_viewer"):
            self._campaign_and_viewer = selectors.campaign_for(self.request.user, self.kwargs["campaign_id"])
        return self._campaign_and_viewer
