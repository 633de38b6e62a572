"""The A!P! state handed to its rules (shapes.APState) names the same keys as the core's campaign
state (CampaignState), each required or not alike; only its `game` is the A!P! part (APGame)."""

import typing

from campaigns.journal.state_shapes import CampaignState
from campaigns.systems.achtung_panzer.shapes import APGame, APState


def test_the_a_p_state_names_the_keys_of_the_campaign_state():
    assert typing.get_type_hints(APState).keys() == typing.get_type_hints(CampaignState).keys()
    assert APState.__required_keys__ == CampaignState.__required_keys__
    assert typing.get_type_hints(APState)["game"] is APGame
