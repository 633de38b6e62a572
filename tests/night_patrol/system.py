"""Night Patrol: one side patrols a few nights. Each night the patrol scouts (a die: how much
ground it covers), then enters how many contacts it made (the night's result, confirmed at
once: the game is solitaire). The campaign counts the ground and the contacts."""

from __future__ import annotations

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


class NightPatrol(GameSystem):
    slug = "night_patrol"
    name = "Night Patrol (fixture game)"
    event_prefix = "patrol"
    sides = (SideDef("patrol", "The patrol"),)
    variants = (Variant("short", "Two nights", ("Night 1", "Night 2")),)
    event_kinds = (EventKind("patrol.scout", "Scout the ground", audience="public", rule="NP.1"),)
    result_fields = (Field("contacts", "int", min=0, max=9),)
    panel_template = "night_patrol/panel.html"

    def initial_state(self, variant, options, ctx):
        return {"public": {"ground": [], "contacts": 0}, "sides": {"patrol": {}}, "referee": {}}

    def apply(self, state, record, ctx):
        night, ground = state["current"], state["game"]["public"]["ground"]
        if night is None or len(ground) > night:
            raise DomainError("kind", "The patrol has already scouted tonight.")
        roll = plain_roll(
            ctx, f"{night}/scout", "1d6", side="patrol", label="Scouting", rule="NP.1"
        )
        ground.append(roll["final"])

    def result_open(self, state, index):
        if len(state["game"]["public"]["ground"]) <= index:
            return "The patrol scouts first."
        return None

    def on_result(self, state, index, result, ctx):
        state["game"]["public"]["contacts"] += result["contacts"]
        super().on_result(state, index, result, ctx)  # the next night, or the end

    def actions(self, state, side):
        night = state["current"]
        if state["status"] != "active" or night is None or side != "patrol":
            return []
        if len(state["game"]["public"]["ground"]) > night:
            return []  # the core offers the night's result
        return [Action("patrol.scout", "Scout the ground", "patrol", "NP.1", button="Scout")]

    def panel_context(self, view):
        public = (view.get("game") or {}).get("public") or {"ground": [], "contacts": 0}
        return {
            "ground": sum(public["ground"]),
            "nights": public["ground"],
            "contacts": public["contacts"],
        }

    def demo(self, table):
        from .demo import play

        return play(table)


SYSTEM = NightPatrol()
