"""The leader battle hardening form (1.6113, 1.6114): the DR or a promotion, the table and kind of
leader, what heroic leaders become, the choice given with the DR (v6), and the choice after it."""

from __future__ import annotations

from campaigns.game_interface import Field

from .. import common, words
from ..shapes import APState
from .helpers import (
    LEADER_KINDS,
    choice_words,
    hidden,
    pending_for,
    retained,
    table_mod_value,
    unit_choices,
    won_this_half_day,
)
from .leader_hardening import (
    HEROIC,
    NONE,
    candidates,
    hardening_table_id,
    heroic_leaders,
    kinds_held,
    nationalities_held,
    promotable_leaders,
    side_nationalities,
)


def form_hardening(ctx, view: APState, side):
    pend = pending_for(view, side, "1.6113")
    if pend is not None:
        return _resolve_form(ctx, view, side, pend)
    actions = ["roll"] + (["promote"] if promotable_leaders(view, side) else [])
    fields = [
        Field(
            "action",
            "choice",
            choices=tuple(actions),
            widget="radios",
            default="roll",
            labels=(
                ("roll", "Make the battle hardening DR (1.6113)"),
                ("promote", "Instead, promote out of the ranks (1.6114)"),
            ),
        )
    ]
    fields += _table_fields(view, side)
    heroic = heroic_leaders(view, side)
    if heroic:
        fields.append(_heroic_field(heroic, view, side))
    fields += _choice_with_roll(ctx, view, side)
    promotable = promotable_leaders(view, side)
    if promotable:
        fields.append(
            Field(
                "promote",
                "choice",
                required=False,
                label="Leader to exchange (1.6114)",
                **unit_choices(promotable, view, side),
                help="An 8-0 becomes two 7-0; an 8-1 becomes an 8-0 and a 7-0.",
            )
        )
    return tuple(fields)


def _table_fields(view: APState, side) -> list:
    """Which nationality's table and which kind of leader: asked when the side holds more than one."""
    fields = []
    if len(nationalities_held(view, side)) > 1:
        fields.append(
            Field(
                "nationality",
                "choice",
                choices=tuple(side_nationalities(side)),
                widget="radios",
                label="Table of which nationality",
                default=side_nationalities(side)[0],
                labels=choice_words(side_nationalities(side), words.NATIONALITY_WORDS),
                help="Chosen before the DR (1.6113).",
            )
        )
    else:
        fields.append(hidden("nationality", nationalities_held(view, side)[0]))
    kinds = kinds_held(view, side)
    if len(kinds) > 1:
        fields.append(
            Field(
                "leader_kind",
                "choice",
                choices=("infantry", "armor"),
                widget="radios",
                label="Battle harden an",
                default="infantry",
                labels=(("infantry", "infantry leader"), ("armor", "armor leader")),
            )
        )
    else:
        fields.append(hidden("leader_kind", (kinds or ["infantry"])[0]))
    return fields


def _heroic_field(heroic: list, view: APState, side) -> Field:
    """What each heroic leader battle hardens to."""
    item = HEROIC.item
    assert item is not None  # HEROIC is a list: its rows are of one item
    return HEROIC.but(
        key="unit",
        rows=tuple({"unit": u["id"]} for u in heroic),
        item=item.but(
            fields=(
                Field("unit", **unit_choices(heroic, view, side)),
                Field(
                    "becomes",
                    required=False,
                    default="",
                    max_length=20,
                    label="Becomes",
                    help="The leader type he battle hardens to (a 10-3 just loses his heroic status).",
                ),
            )
        ),
    )


LATER = "later"  # the page's "choose after the DR" for the win DRM (no standing choice sent)


def _choice_with_roll(ctx, view: APState, side) -> list:
    """The choice after the DR, given with it (v6, R-A26): the win DRM, and what each leader
    becomes should he be the one who hardens. Left open, it is asked after the DR."""
    leaders = [u for u in retained(view, side) if u.get("kind") in LEADER_KINDS]
    if not leaders or not common.choices_before_roll(view):
        return []
    fields = []
    if won_this_half_day(view, side):
        nationality = nationalities_held(view, side)[0]
        full = table_mod_value(ctx, hardening_table_id(nationality), "won_this_half_day")
        reduced = int(ctx.value("battle_hardening.leader_win_drm_reduced"))
        fields.append(
            Field(
                "win_drm",
                "choice",
                choices=(LATER, "full", "reduced", "ignore"),
                widget="radios",
                required=False,
                default=LATER,
                label="Won this half-day: the DRM",
                labels=(
                    (LATER, "Choose after the DR (1.6113 allows it)"),
                    ("full", f"Keep the {_signed(full)}"),
                    ("reduced", f"Apply only {_signed(reduced)}"),
                    ("ignore", f"Ignore the {_signed(full)}"),
                ),
            )
        )
    names = words.names_for(view, side)
    fields.append(
        Field(
            "if_hardened",
            "list",
            label="If he is the one who hardens, he becomes",
            key="leader",
            required=False,
            default=[],
            rows=tuple({"leader": u["id"]} for u in leaders),
            item=Field(
                "entry",
                "object",
                fields=(
                    Field(
                        "leader",
                        "choice",
                        label="Leader",
                        choices=tuple(u["id"] for u in leaders),
                        labels=tuple((u["id"], words.unit_label(u, names)) for u in leaders),
                    ),
                    Field(
                        "becomes",
                        required=False,
                        default="",
                        max_length=20,
                        label="Becomes",
                        help="His type after battle hardening (ASL A15), e.g. 9-1; empty: "
                        "say it after the DR.",
                    ),
                ),
            ),
            help="The DR names the leader type that hardens (your lowest-grade leader if you "
            "have none of it): say now what each would become and it is settled with the DR; "
            "of several of that type, the first listed with what he becomes hardens. Leave a "
            "leader empty to keep him out of it.",
        )
    )
    return fields


def _resolve_form(ctx, view: APState, side, pend):
    """One choice per outcome and leader, as a sentence: "Keep the −2 (won this half-day): final DR
    3, the table names a 9-2; you have none, so your lowest, the 8-0 leader of RG I2 (…),
    battle hardens"."""
    full = table_mod_value(ctx, hardening_table_id(pend["nationality"]), "won_this_half_day")
    reduced = int(ctx.value("battle_hardening.leader_win_drm_reduced"))  # both may be house rules
    what_of = {
        "full": f"Keep the {_signed(full)} (won this half-day)",
        "reduced": f"Apply only {_signed(reduced)}",
        "ignore": f"Ignore the {_signed(full)}",
        "none": "The DR as rolled",
    }
    names = words.names_for(view, side)
    options = []
    for name, outcome in pend["outcomes"].items():
        who = candidates(ctx, view, side, pend, outcome["leader"])
        table = outcome["leader"]
        head = f"{what_of[name]}: final DR {outcome['final']}"
        if table == NONE:
            options.append((f"{name}|", f"{head}: no leader battle hardens"))
            continue
        if not who:
            options.append(
                (
                    f"{name}|",
                    f"{head}, the table names a {table}: you retain no leader who can harden",
                )
            )
        for unit in who:
            how = (
                f"the table names a {table}: your {words.unit_label(unit, names)}"
                if unit.get("type") == table
                else f"the table names a {table}; you have none, so your lowest, the {words.unit_label(unit, names)},"
            )
            options.append((f"{name}|{unit['id']}", f"{head}, {how} battle hardens"))
    return (
        hidden("action", "resolve"),
        Field(
            "choice",
            "choice",
            choices=tuple(v for v, _ in options),
            labels=tuple(options),
            widget="radios",
            label="After the DR",
            default=options[0][0] if len(options) == 1 else None,
        ),
        Field(
            "becomes",
            required=False,
            default="",
            max_length=20,
            label="The leader who hardens becomes",
            help="His type after battle hardening (ASL A15), e.g. 9-1.",
        ),
    )


def _signed(value: int) -> str:
    return f"−{-value}" if value < 0 else f"+{value}"


def resolve_data(data: dict) -> dict:
    """The page's one choice back into the step's data (win DRM and leader)."""
    if "choice" not in data:
        return data
    win_drm, _, leader = str(data.pop("choice") or "").partition("|")
    return dict(data, win_drm=win_drm or None, leader=leader)
