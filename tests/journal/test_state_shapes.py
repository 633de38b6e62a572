"""The TypedDicts that name the state's keys (campaigns/journal/state_shapes.py and the games'
`shapes` modules) describe the states the fold really builds: every campaign of the demo
club, in every game, is checked key by key against them, down through nested parts."""

import json
import typing
from io import StringIO

import pytest
from django.core.management import call_command

from campaigns.journal.state_shapes import CampaignState
from campaigns.models import Campaign
from campaigns.services import journal_files
from campaigns.services.state import current_state
from campaigns.systems import game_folders
from campaigns.systems.achtung_panzer.shapes import APGame
from campaigns.systems.pattons_vanguard.shapes import PattonsGame
from campaigns.systems.rifles_ardennes.shapes import RiflesGame
from campaigns.systems.victory_ledger.shapes import LedgerGame

pytestmark = pytest.mark.django_db


def shape_problems(value, shape, path="state") -> list[str]:
    """Where `value` does not have the keys `shape` (a TypedDict, or a list/dict/union of
    them) names: a required key missing, or a key the shape does not name."""
    origin, args = typing.get_origin(shape), typing.get_args(shape)
    if typing.is_typeddict(shape):
        if not isinstance(value, dict):
            return [f"{path} is {type(value).__name__}, not a dict"]
        hints = typing.get_type_hints(shape)
        problems = [f"{path}.{key} is missing" for key in shape.__required_keys__ - value.keys()]
        problems += [
            f"{path}.{key} is not named by {shape.__name__}" for key in value.keys() - hints
        ]
        for key in hints.keys() & value.keys():
            hint = hints[key]
            if typing.get_origin(hint) is typing.NotRequired:
                hint = typing.get_args(hint)[0]
            problems += shape_problems(value[key], hint, f"{path}.{key}")
        return problems
    if origin is list and args:
        if not isinstance(value, list):
            return [f"{path} is {type(value).__name__}, not a list"]
        return [
            p for i, item in enumerate(value) for p in shape_problems(item, args[0], f"{path}[{i}]")
        ]
    if origin is dict and len(args) == 2:
        if not isinstance(value, dict):
            return [f"{path} is {type(value).__name__}, not a dict"]
        return [
            p for k, item in value.items() for p in shape_problems(item, args[1], f"{path}[{k}]")
        ]
    if origin in (typing.Union, __import__("types").UnionType):
        if value is None and type(None) in args:
            return []
        shaped = [a for a in args if a is not type(None)]
        return shape_problems(value, shaped[0], path) if len(shaped) == 1 else []
    return []


class Inner(typing.TypedDict):
    a: int


class Outer(typing.TypedDict):
    inner: list[Inner]


def test_the_checker_finds_a_missing_and_an_unnamed_key():
    assert shape_problems({"inner": [{"a": 1}]}, Outer) == []
    assert shape_problems({"inner": [{"b": 1}]}, Outer) == [
        "state.inner[0].a is missing",
        "state.inner[0].b is not named by Inner",
    ]


GAME_SHAPES = {
    "achtung_panzer": APGame,
    "rifles_ardennes": RiflesGame,
    "pattons_vanguard": PattonsGame,
    "ardennes44": LedgerGame,
    "fab_bulge": LedgerGame,
}


def test_every_demo_campaign_has_the_shape_its_types_name():
    call_command("load_demo", stdout=StringIO(), stderr=StringIO())
    seen = set()
    for campaign in Campaign.objects.all():
        state = current_state(campaign)
        assert shape_problems(state, CampaignState) == [], campaign.system
        if campaign.system in GAME_SHAPES:
            assert shape_problems(state["game"], GAME_SHAPES[campaign.system], "game") == []
            seen.add(campaign.system)
    assert seen == set(GAME_SHAPES)


LONG_CAMPAIGNS = sorted(
    (game_folders()["achtung_panzer"] / "journals" / "c548a25-achtung-panzer-v5").glob(
        "ap-*-table.json"
    )
)


@pytest.mark.parametrize("path", LONG_CAMPAIGNS, ids=lambda path: path.stem)
def test_long_achtung_panzer_campaigns_have_the_shape_their_types_name(path):
    """The corpus' CG journals, played over several half-days and Refit Phases (keys a short demo
    never reaches: the end of each half-day, marks, forfeited FPP …)."""
    campaign = journal_files.replay(
        json.loads(path.read_text()), create_club=True, create_people=True
    )
    state = current_state(campaign)
    assert shape_problems(state, CampaignState) == []
    assert shape_problems(state["game"], APGame, "game") == []
