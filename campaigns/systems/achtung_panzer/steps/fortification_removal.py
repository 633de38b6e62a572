"""1.615 fortification removal: one dr per known wire / minefield / entrenchment (incl. A-T ditch) /
roadblock in a friendly controlled, non-isolated Location, with a drm chosen per item by where it
lies relative to the front line. An item may name one of the side's own recorded fortifications,
which is removed from its record when eliminated; an enemy fortification is only reported (the
opponent keeps its own record)."""

from __future__ import annotations

from campaigns.game_interface import DomainError, Field, roll_on

from .. import common, words
from ..shapes import APState
from .base import DONE, Step
from .fortifications import fortification_labels
from .helpers import choice_words, done_list, done_marker, mods, table_mod

KINDS = ("wire", "mines", "entrenchment", "at_ditch", "roadblock")
POSITION_MODS = {
    # position -> table modifier key, for roadblocks and for the other items
    "roadblock": {
        "front_line": "roadblock_front_line",
        "adjacent": "roadblock_adjacent_front_line",
    },
    "other": {
        "front_line": "fortification_in_front_line",
        "adjacent": "fortification_adjacent_front_line",
    },
}


def item_mods(ctx, entry: dict, sappers: bool) -> list:
    family = "roadblock" if entry["kind"] == "roadblock" else "other"
    key = POSITION_MODS[family].get(entry.get("position") or "other")
    return mods(
        table_mod(ctx, "1.615", key) if key else None,
        table_mod(ctx, "1.615", "three_sappers") if sappers else None,
    )


def run(ctx, state: APState, side, data):
    private = common.private(state, side)
    items = data.get("items") or []
    if not items:
        return DONE  # nothing (more) to remove: the step is done
    own = {f["id"]: f for f in private.get("fortifications", [])}
    seen = {tuple(t) for t in done_list(state, side, "1.615")}  # earlier events of this step
    plan = []
    for i, entry in enumerate(items):
        location = entry["location"].strip()
        if not location:
            raise DomainError(f"items[{i}].location", "Give the Location.")
        item = (entry["kind"], location.upper())
        if item in seen:
            raise DomainError(
                f"items[{i}]",
                f"Only one attempt per item per Location (1.615): {_kind_words(entry['kind'])} in {location}.",
            )
        seen.add(item)
        if entry["kind"] == "roadblock" and not entry.get("both_sides_controlled"):
            raise DomainError(
                f"items[{i}].both_sides_controlled",
                "A roadblock is rolled for only if you control both Locations sharing its hexside.",
            )
        fort_id = entry.get("fortification") or ""
        if fort_id and fort_id not in own:
            raise DomainError(
                f"items[{i}].fortification", f"No recorded fortification {fort_id!r}."
            )
        plan.append((entry, location, fort_id))
    for entry, location, fort_id in plan:
        report = roll_on(
            ctx,
            "1.615",
            common.roll_key(state, "1.615", side, f"{location}/{entry['kind']}"),
            item_mods(ctx, entry, data.get("sappers", False)),
            side=side,
            label=f"Fortification removal: {_kind_words(entry['kind'])} in {location}",
        )
        eliminated = report["result"]["effect"] == "eliminated"
        if eliminated and fort_id:
            private["fortifications"] = [f for f in private["fortifications"] if f["id"] != fort_id]
        done_marker(state, side, "1.615").append([entry["kind"], location.upper()])
        report["effect"] = {
            "kind": entry["kind"],
            "location": location,
            "fortification": fort_id or None,
            "outcome": report["result"]["effect"],
        }
        common.record_roll(state, side, report, "1.615")


def _kind_words(kind: str) -> str:
    return KIND_WORDS.get(kind, kind.replace("_", " ")).lower().replace("a-t", "A-T")


KIND_WORDS = {
    "wire": "Wire",
    "mines": "Mines (all kinds)",
    "entrenchment": "Entrenchment",
    "at_ditch": "A-T ditch",
    "roadblock": "Roadblock",
}


def form(ctx, view: APState, side):
    own = common.private(view, side).get("fortifications", [])
    tried = done_list(view, side, "1.615")
    return (
        Field(
            "sappers",
            "bool",
            required=False,
            default=False,
            label="You retain at least three non-isolated assault engineer/sapper squads (−1)",
        ),
        Field(
            "items",
            "list",
            label="Items to roll for",
            required=False,
            default=[],
            max=6,
            rows=tuple({} for _ in range(3)),
            item=Field(
                "item",
                "object",
                fields=(
                    Field(
                        "kind",
                        "choice",
                        choices=KINDS,
                        labels=choice_words(KINDS, KIND_WORDS),
                        label="Item",
                    ),
                    Field("location", max_length=40, label="Location (hex)"),
                    Field(
                        "position",
                        "choice",
                        required=False,
                        default="other",
                        label="Where",
                        choices=("front_line", "adjacent", "other"),
                        labels=choice_words(
                            ("front_line", "adjacent", "other"), words.POSITION_WORDS
                        ),
                    ),
                    Field(
                        "both_sides_controlled",
                        "bool",
                        required=False,
                        default=False,
                        label="Roadblock: you control both Locations of its hexside",
                    ),
                    Field(
                        "fortification",
                        "choice",
                        required=False,
                        default="",
                        label="One of your own",
                        choices=tuple(f["id"] for f in own),
                        labels=fortification_labels(own),
                    ),
                ),
            ),
            help="Leave the rows empty if you remove nothing this time."
            + (
                f" Already rolled for: {', '.join(f'{_kind_words(k)} in {loc}' for k, loc in tried)}."
                if tried
                else ""
            ),
        ),
    )


STEPS = [
    Step(
        "1.615",
        "Fortification removal",
        "1.615",
        run=run,
        repeatable=True,
        form=form,
        short="Fortification removal",
        fields=(
            Field(
                "sappers",
                "bool",
                required=False,
                default=False,
                help="You retain at least three non-isolated assault engineer/sapper squads (−1).",
            ),
            Field(
                "items",
                "list",
                required=False,
                default=[],
                item=Field(
                    "item",
                    "object",
                    fields=(
                        Field("kind", "choice", choices=KINDS),
                        Field("location", max_length=40),
                        Field(
                            "position",
                            "choice",
                            required=False,
                            default="other",
                            choices=("front_line", "adjacent", "other"),
                            help="Wire/mines/entrenchment: in / adjacent to a front line Location. Roadblock: along a "
                            "hexside of a front line Location / of a hex adjacent to one.",
                        ),
                        Field("both_sides_controlled", "bool", required=False, default=False),
                        Field(
                            "fortification",
                            required=False,
                            default="",
                            help="One of your recorded fortifications.",
                        ),
                    ),
                ),
            ),
        ),
        help="A dr per item: ≤3 eliminates it. All A-P mines of a Location go before its other items.",
    ),
]
