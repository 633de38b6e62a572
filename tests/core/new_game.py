"""A new two-side game written into one folder, as a club's developer would copy it: its app, its
system, its panel, its demo and its corpus player (test_a_new_game_is_one_folder.py writes it into
a temporary folder, and names it in MUSTER_EXTRA_SYSTEMS, so that it never touches the checkout)."""

from __future__ import annotations

from pathlib import Path

PACKAGE = "dawn_raid"

FILES = {
    "__init__.py": '''"""Dawn Raid: the raiders scout at dawn, then both sides agree how many prisoners were taken."""

from .system import SYSTEM

__all__ = ["SYSTEM"]
''',
    "apps.py": '''from campaigns.game_interface import GameAppConfig

from .system import SYSTEM


class App(GameAppConfig):
    system = SYSTEM
''',
    "system.py": '''from __future__ import annotations

from campaigns.game_interface import (
    Action,
    DomainError,
    EventKind,
    Field,
    GameSystem,
    SideDef,
    Variant,
    plain_roll,
)


class DawnRaid(GameSystem):
    slug = "dawn_raid"
    name = "Dawn Raid"
    event_prefix = "raid"
    sides = (SideDef("raiders", "The raiders"), SideDef("guards", "The guards"))
    variants = (Variant("short", "Two dawns", ("Dawn 1", "Dawn 2")),)
    event_kinds = (EventKind("raid.scout", "Scout the camp", audience="public", rule="DR.1"),)
    result_fields = (Field("prisoners", "int", min=0, max=9),)
    panel_template = "dawn_raid/panel.html"

    def initial_state(self, variant, options, ctx):
        return {"public": {"ground": []}, "sides": {"raiders": {}, "guards": {}}, "referee": {}}

    def apply(self, state, record, ctx):
        dawn, ground = state["current"], state["game"]["public"]["ground"]
        if dawn is None or len(ground) > dawn:
            raise DomainError("kind", "The raiders have already scouted this dawn.")
        roll = plain_roll(
            ctx, f"{dawn}/scout", "1d6", side="raiders", label="Scouting", rule="DR.1"
        )
        ground.append(roll["final"])

    def result_open(self, state, index):
        if len(state["game"]["public"]["ground"]) <= index:
            return "The raiders scout first."
        return None

    def actions(self, state, side):
        dawn = state["current"]
        if state["status"] != "active" or dawn is None or side != "raiders":
            return []
        if len(state["game"]["public"]["ground"]) > dawn:
            return []
        return [Action("raid.scout", "Scout the camp", "raiders", "DR.1", button="Scout")]

    def panel_context(self, view):
        public = (view.get("game") or {}).get("public") or {"ground": []}
        return {"ground": sum(public["ground"])}

    def demo(self, table):
        from .demo import play

        return play(table)


SYSTEM = DawnRaid()
''',
    "demo.py": '''from __future__ import annotations


def play(table):
    table.create(variant="short", name="Dawn raid (demo)")
    table.seat("raiders", "alice")
    table.seat("guards", "bob")
    table.submit("organizer", "campaign.started")
    table.submit("alice", "raid.scout")
    return table.campaign
''',
    "templates/panel.html": "<p>Ground scouted at dawn: {{ panel.ground }}</p>\n",
    "tests/__init__.py": "",
    "tests/corpus.py": '''"""Dawn Raid's corpus player (tests/journals/README.md)."""

TODAY = ("dawn-raid",)
IN_PLAY = ("dawn-raid",)


def dawn_raid(corpus):
    from campaigns.services import campaigns as svc
    from campaigns.services.journal import submit

    club, named = corpus.people()
    olga = named["olga"]
    campaign = svc.create_campaign(
        club=club, user=olga, system="dawn_raid", variant="short", name="At dawn"
    )
    svc.assign_player(campaign, olga, side="raiders", username="alice")
    svc.assign_player(campaign, olga, side="guards", username="bob")
    submit(campaign, olga, "campaign.started")
    submit(campaign, named["alice"], "raid.scout")
    return campaign


def players(corpus):
    return {"dawn-raid": corpus.seeded(lambda: dawn_raid(corpus))}
''',
}


def write(root: Path, planted: dict[str, str] | None = None) -> Path:
    """The game's folder under `root` (`planted`: lines added to a file, a fault to be found)."""
    folder = root / PACKAGE
    for name, text in FILES.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text + (planted or {}).get(name, ""))
    return folder
