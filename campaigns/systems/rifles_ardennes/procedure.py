"""What the player can do now, the briefing's checklist, and the odds of the rolls ahead."""

from __future__ import annotations

from fractions import Fraction

from campaigns.game_interface import Action, StepStatus, UpcomingRoll, parse_dice, upcoming_odds

from . import briefing as br, squad, state as st
from .upgrades import LEADER_AFTER_REINFORCEMENTS
from .words import plural


def _phase(state) -> str | None:
    game = state.get("game")
    return None if game is None or state["status"] != "active" else game["public"]["phase"]


# --- actions ------------------------------------------------------------------------------------


def actions(state, side) -> list[Action]:
    phase = _phase(state)
    if phase is None or side != st.SIDE:
        return []
    found = []
    missing = st.army_sheet_missing(state) if phase == "setup" else None
    if missing:
        found += _army_sheet_actions(state, side, missing)
    if phase == "setup":
        found += [
            Action(
                "rifles.squad",
                "Create your squad",
                side,
                "2.2, 8.1",
                "Units and equipment within your Army's AP, exactly one Leader who may lead."
                + (
                    " First enter your Army Sheet's units (above): the Unit list offers only units with "
                    "their AP."
                    if missing
                    else ""
                ),
            )
        ]
    elif phase == "mission":
        found += _mission_actions(state, side)
    else:
        found += _briefing_actions(state, side)
    return found + _optional_actions(state, side, phase, found, missing)


def _mission_actions(state, side) -> list[Action]:
    """While a mission is prepared: its set-up, its attachments, a new Leader."""
    found = []
    index = state["current"]
    entry = st.mission(state, index)
    if not entry["name"] or not entry["game_turns"]:
        found.append(
            Action(
                "rifles.mission",
                f"Set up {entry['label']}: name and game turns",
                side,
                "2.1",
                initial={"mission": index},
            )
        )
    if attachment_room(state):
        found.append(
            Action(
                "rifles.recruit",
                f"Add the attachments for {entry['label']}",
                side,
                "2.2",
                optional=True,
            )
        )
    found.append(Action("rifles.leader", "Name a new Leader", side, "6", optional=True))
    return found


def _optional_actions(state, side, phase, found: list[Action], missing) -> list[Action]:
    """What the player may do at any time of play: the roster, a mission's set-up (unless it is
    already asked for in `found`), the catalog once the Army Sheet is entered."""
    extra: list[Action] = []
    if phase in ("mission", "briefing"):
        extra.append(
            Action(
                "rifles.roster",
                "Edit names, letters, designations and equipment",
                side,
                "2.2",
                optional=True,
                button="Save the roster",
            )
        )
    if not any(a.kind == "rifles.mission" for a in found):
        extra.append(
            Action(
                "rifles.mission",
                "Set up a mission (name, game turns, attachments)",
                side,
                "2.1",
                optional=True,
            )
        )
    if not missing:
        extra.append(
            Action(
                "rifles.catalog",
                "Add or change a unit or equipment (Army Sheet)",
                side,
                "2.2",
                optional=True,
                initial={"kind": "unit"},
            )
        )
    return extra


_CATALOG_VALUES = (
    "name",
    "kind",
    "ap",
    "cf",
    "cf_armored",
    "may_lead",
    "attributes",
    "note",
    "provides",
    "count",
)


def _army_sheet_actions(state, side, missing: str) -> list[Action]:
    """While the catalog cannot make a squad (the text lost the Army Sheet): the catalog's forms
    come first, each entry the text kept without its AP pre-filled, then one for a new entry."""
    why = (
        f"{missing} Enter each unit and piece of equipment your squad may take from the Units and Equipment "
        "sections of your Army Sheet (name, AP, combat factor, whether it may lead), one at a time; then "
        "create the squad below."
    )
    found = []
    for item in st.public(state)["catalog"]:
        if item["ap"] is None:
            found.append(
                Action(
                    "rifles.catalog",
                    f"Give the {item['name']} its AP from your Army Sheet",
                    side,
                    "1.4, 2.2",
                    why,
                    {"item": item["id"], **{k: dict(item)[k] for k in _CATALOG_VALUES}},
                    button=f"Save the {item['name']}",
                )
            )
            why = ""
    found.append(
        Action(
            "rifles.catalog",
            "First enter your Army Sheet's units",
            side,
            "1.4, 2.2",
            why or "Each unit and piece of equipment of your Army Sheet, one at a time.",
            {"kind": "unit"},
            button="Add to the catalog",
        )
    )
    return found


def attachment_room(state) -> int:
    index = squad.attachment_mission(state)
    if index is None:
        return 0
    return st.mission(state, index)["extra_ap"] - squad.attached_ap(state, index)


def _briefing_actions(state, side) -> list[Action]:
    brief = st.current_briefing(state)
    label = st.mission(state, brief["mission"])["label"]
    if brief["xp"] is None:
        return [
            Action(
                "rifles.xp", f"Roll for experience after {label}", side, "8.4", button="Roll 1d6"
            )
        ]
    found = []
    if not brief["spending_closed"] and st.squad(state)["xp"] >= 2:
        found.append(
            Action(
                "rifles.spend_xp",
                "Spend XP: Veterans and skills",
                side,
                "8.4",
                f"The squad has {st.squad(state)['xp']} XP. XP are spent before the casualty rolls.",
                button="Spend XP",
            )
        )
    if not br.casualties_done(state):
        count = len(br.eliminated(state))
        found.append(
            Action(
                "rifles.casualties",
                f"Roll for the {plural(count, 'eliminated soldier')}",
                side,
                "8.3",
                button=f"Roll {plural(count, 'die', 'dice')}",
            )
        )
        return found
    if br.leader_needed(state) and not br.is_last(state) and br.leader_waits(state) is None:
        found.append(
            Action("rifles.leader", "Name the squad's new Leader", side, "6", _leader_help(state))
        )
    if br.reinforcement_open(state) is None:
        found.append(
            Action(
                "rifles.reinforce",
                "Request reinforcements from HQ",
                side,
                "8.2",
                button="Roll 1d6",
                help=br.leader_waits(state) or "",
            )
        )
    grant = brief["reinforcement"]
    if (grant and not grant.get("settled") and br.unspent(grant)) or attachment_room(state):
        found.append(
            Action(
                "rifles.recruit",
                "Spend the AP: new soldiers and equipment",
                side,
                "8.2",
                button="Add to the squad",
            )
        )
    if not (br.leader_needed(state) and not br.is_last(state)):
        nxt = brief["mission"] + 1
        title = (
            "Close the campaign"
            if br.is_last(state)
            else f"Begin {st.mission(state, nxt)['label']}"
        )
        found.append(
            Action(
                "rifles.next_mission",
                title,
                side,
                "8.2",
                "Reinforcement AP not spent now are lost." if grant else "",
                button=title,
            )
        )
    return found


# --- the checklist ---------------------------------------------------------------------------------


def steps(state) -> list[StepStatus]:
    phase = _phase(state)
    if phase is None:
        return []
    side = st.SIDE
    if phase == "setup":
        if st.army_sheet_missing(state):
            return [
                StepStatus("catalog", "Enter your Army Sheet's units", "1.4, 2.2", side, "current"),
                StepStatus("squad", "Create the squad", "2.2, 8.1", side, "waiting"),
            ]
        return [StepStatus("squad", "Create the squad", "2.2, 8.1", side, "current")]
    if phase == "mission":
        entry = st.mission(state, state["current"])
        planned = bool(entry["name"] and entry["game_turns"])
        return [
            StepStatus(
                "plan",
                f"Set up {entry['label']}",
                "2.1",
                side,
                "done" if planned else "current",
                f"{entry['name']}, {plural(entry['game_turns'] or 0, 'game turn')}"
                if planned
                else "",
            ),
            StepStatus(
                "log", f"Log {entry['label']}", "7", side, "current" if planned else "waiting"
            ),
        ]
    return _briefing_steps(state, side)


def _briefing_steps(state, side) -> list[StepStatus]:
    brief = st.current_briefing(state)
    lines = []

    def add(step_id, label, rule, status, detail=""):
        lines.append(StepStatus(step_id, label, rule, side, status, detail))

    xp_done = _roll_steps(state, brief, add)
    after = xp_done and br.casualties_done(state)
    # From journal v2 a Leader who may not lead waits for 8.2 (rules notes RA-9): his step comes
    # after it.
    leader_last = (
        after
        and st.rules_version(state) >= LEADER_AFTER_REINFORCEMENTS
        and not st.able_to_lead(state)
    )
    if not leader_last:
        _leader_step(state, brief, add, after)
    _reinforcement_steps(state, brief, add, after)
    if leader_last:
        _leader_step(state, brief, add, after)
    title = (
        "Close the campaign"
        if br.is_last(state)
        else f"Begin {st.mission(state, brief['mission'] + 1)['label']}"
    )
    add(
        "next",
        title,
        "8.2",
        "current"
        if after and not (br.leader_needed(state) and not br.is_last(state))
        else "waiting",
    )
    return lines


def _roll_steps(state, brief, add) -> bool:
    """The briefing's first steps (8.3, 8.4): recovery, the experience roll, spending XP and the
    casualty rolls. True once the experience roll is made."""
    recovered = brief["recovered"]
    add(
        "recover",
        "Wounded soldiers recover",
        "8.3",
        "done",
        f"{', '.join(recovered)} recovered." if recovered else "Nobody was wounded.",
    )
    xp_done = brief["xp"] is not None
    add(
        "xp",
        "Experience roll",
        "8.4",
        "done" if xp_done else "current",
        brief["xp"]["text"] if xp_done else "",
    )
    spend = "done" if brief["spending_closed"] else "current" if xp_done else "waiting"
    add(
        "spend_xp",
        "Spend XP: Veterans and skills",
        "8.4",
        spend,
        f"{st.squad(state)['xp']} XP unused.",
    )
    if not br.casualties_needed(state) and brief["casualties"] is None:
        add(
            "casualties",
            "Casualty rolls (End Mission Table)",
            "8.3",
            "skipped",
            "Nobody was eliminated.",
        )
    else:
        done = brief["casualties"] is not None
        add(
            "casualties",
            "Casualty rolls (End Mission Table)",
            "8.3",
            "done" if done else "current" if xp_done else "waiting",
            " ".join(r["text"] + "." for r in brief["casualties"]) if done else "",
        )
    return xp_done


def _reinforcement_steps(state, brief, add, after: bool) -> None:
    """Reinforcements from HQ (8.2): asked for, granted and spent, or why there are none."""
    why = br.reinforcement_open(state)
    grant = brief["reinforcement"]
    if grant is not None:
        add(
            "reinforce",
            "Reinforcements from HQ",
            "8.2",
            "done",
            " ".join(r["text"] + "." for r in grant["rolls"]),
        )
        left = br.unspent(grant)
        add(
            "recruit",
            "Spend the AP granted",
            "8.2",
            "current" if left and not grant.get("settled") else "done",
            (f"{left} AP left unspent (lost)." if grant.get("settled") else f"{left} AP left.")
            if left
            else "",
        )
    elif why is not None:
        add("reinforce", "Reinforcements from HQ", "8.2", "skipped", why)
    else:
        add(
            "reinforce",
            "Reinforcements from HQ",
            "8.2",
            "current" if after else "waiting",
            f"The squad has {st.squad_ap(state)} AP without its wounded, below the Army's {st.public(state)['budget']}.",
        )


def _leader_step(state, brief, add, after) -> None:
    if br.leader_needed(state) and not br.is_last(state):
        waits = br.leader_waits(state)
        add(
            "leader",
            "Name the squad's Leader",
            "6",
            "current" if after and not waits else "waiting",
            " ".join(w for w in (brief["leader_note"], waits if after else None) if w),
        )
    elif brief["leader_note"]:
        add("leader", "Name the squad's Leader", "6", "done", brief["leader_note"])


def _leader_help(state) -> str:
    """Who may be named, in words: one who may lead, or (nobody available may) anyone, for a mission."""
    if st.able_to_lead(state):
        return "Only a soldier whose unit may lead (the Army Sheet's Attributes, 6)."
    if st.rules_version(state) < LEADER_AFTER_REINFORCEMENTS:
        return "No available soldier may lead: any soldier may be named (6)."
    text = (
        "No available soldier may lead: any soldier may be named, and he leads until the end of the next "
        "mission (6)."
    )
    grant = st.current_briefing(state)["reinforcement"]
    if grant and not grant.get("settled") and br.unspent(grant):
        text += f" This settles reinforcements: the {br.unspent(grant)} AP left are lost (8.2)."
    return text


# --- odds before rolling -----------------------------------------------------------------------------


def _mods(mods) -> tuple:
    return tuple((m.label, m.rule, m.value) for m in mods)


def upcoming_rolls(state, ctx) -> list[UpcomingRoll]:
    if _phase(state) != "briefing":
        return []
    brief = st.current_briefing(state)
    found = []
    if brief["xp"] is None:
        found.append(
            UpcomingRoll(
                br.xp_key(state), "Experience roll", "8.4", _mods(br.xp_mods(state, ctx)), "xp"
            )
        )
    if brief["casualties"] is None:
        for soldier in br.eliminated(state):
            found.append(
                UpcomingRoll(
                    br.casualty_key(state, soldier),
                    f"Casualty roll for {st.label(soldier)}",
                    "8.3",
                    _mods(br.casualty_mods(state, ctx, soldier)),
                    "result",
                )
            )
    if br.reinforcement_open(state) is None:
        found.append(
            UpcomingRoll(
                br.reinforcement_key(state, "roll"), "Reinforcements from HQ", "8.2", (), "ap"
            )
        )
    return found


def side_odds(state, ctx, rolls) -> list[dict]:
    """Exact odds with every outcome in words; XP also as the squad's XP afterwards, reinforcements
    as the AP they bring (the 1d3 and the additional die enumerated too)."""
    entries = []
    for roll in rolls:
        entry = upcoming_odds(ctx, roll)
        if roll.table == "8.4":
            xp = st.squad(state)["xp"]
            entry["after"] = {
                "label": "The squad's XP afterwards",
                "values": [
                    {
                        "value": xp + int(o["outcome"]),
                        "fraction": o["fraction"],
                        "percent": o["percent"],
                    }
                    for o in entry["outcomes"]
                ],
            }
            entry["outcomes"] = [dict(o, outcome=f"+{o['outcome']} XP") for o in entry["outcomes"]]
        elif roll.table == "8.2":
            entry["outcomes"] = reinforcement_outcomes(ctx)
        entries.append(entry)
    return entries


def reinforcement_outcomes(ctx) -> list[dict]:
    table, extra = ctx.table("8.2"), ctx.table("8.2-equipment")
    chances: dict[tuple[int, int], Fraction] = {}
    for face in range(1, 7):
        row = table.lookup(face)
        cell = str(table.value(row, "ap")).strip()
        amounts = [(int(cell), Fraction(1))] if cell.isdigit() else _dice_values(cell)
        gear = [(0, Fraction(1))]
        if table.value(row, "equipment_die") is True:
            gear = [
                (int(extra.value(extra.lookup(f), "equipment_ap")), Fraction(1, 6))
                for f in range(1, 7)
            ]
        for ap, p in amounts:
            for eq, q in gear:
                chances[(ap, eq)] = chances.get((ap, eq), Fraction(0)) + Fraction(1, 6) * p * q
    out = []
    for (ap, eq), p in sorted(chances.items()):
        words = (
            "no reinforcements"
            if ap == 0 and eq == 0
            else f"{ap} AP" + (f" and {eq} AP for equipment only" if eq else "")
        )
        out.append({"outcome": words, "fraction": str(p), "percent": round(float(p) * 100, 2)})
    return out


def _dice_values(expr: str) -> list[tuple[int, Fraction]]:
    parsed = parse_dice(expr)
    outcomes = list(parsed.outcomes())
    counts: dict[int, int] = {}
    for faces in outcomes:
        value = parsed.total(list(faces))
        counts[value] = counts.get(value, 0) + 1
    return [(v, Fraction(n, len(outcomes))) for v, n in sorted(counts.items())]
