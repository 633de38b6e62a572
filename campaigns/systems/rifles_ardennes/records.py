"""The squad's records as the core shows them: roster entries, standings, the timeline,
history sentences, the club comparison row, and which house-rule values make sense."""

from __future__ import annotations

from campaigns.game_interface import DomainError, parse_dice

from . import missions, state as st
from .data import CASUALTY_RESULTS, army_name
from .words import join, plural

STATUS_WORDS = {
    "active": "active",
    "wounded": "wounded",
    "dead": "dead",
    "returned": "returned to his unit",
}
COMPARISON_COLUMNS = (
    "Army",
    "Missions accomplished",
    "XP earned",
    "Veterans and skills",
    "Dead",
    "Wounds",
)


def honours(state, soldier) -> str:
    parts = (["Veteran"] if soldier["veteran"] else []) + soldier["skill_names"]
    return ", ".join(parts)


def roster(state) -> list[dict]:
    if state.get("game") is None:
        return []
    entries = []
    for soldier in st.soldiers(state):
        entries.append(
            {
                "key": f"soldier:{soldier['id']}",
                "side": st.SIDE,
                "audience": "public",
                "kind": "soldier",
                "name": f"{st.label(soldier)}, {soldier['unit_name']}",
                "status": STATUS_WORDS[soldier["status"]],
                "data": {
                    "designation": soldier["designation"],
                    "ap": soldier["ap"],
                    "letter": soldier["letter"],
                    "equipment": soldier["equipment"],
                    "veteran": soldier["veteran"],
                    "skills": soldier["skill_names"],
                    "missions": len(soldier["missions"]),
                },
            }
        )
    return entries


def _counts(state) -> dict:
    pub = st.public(state)
    logs = [m["log"] for m in pub["missions"] if m["log"]]
    everyone = st.soldiers(state)
    return {
        "played": len(logs),
        "accomplished": sum(1 for log in logs if log["outcome"] == "accomplished"),
        "dead": sum(1 for s in everyone if s["status"] == "dead"),
        "wounds": sum(
            1 for r in pub["rolls"] if r["table"] == "8.3" and r["result"]["result"] == "wounded"
        ),
        "veterans": sum(1 for s in everyone if s["veteran"] and s["status"] != "dead"),
        "skills": sum(len(s["skills"]) for s in everyone if s["status"] != "dead"),
    }


def standings(state) -> list[dict]:
    if state.get("game") is None:
        return []
    c, sq = _counts(state), st.squad(state)
    alive = st.living(state)
    wounded = sum(1 for s in alive if s["status"] == "wounded")
    return [
        {
            "side": st.SIDE,
            "label": "Missions accomplished",
            "value": f"{c['accomplished']} of {c['played']} played",
        },
        {
            "side": st.SIDE,
            "label": "Experience",
            "value": f"{sq['xp']} XP unused, {sq['xp_earned']} earned",
        },
        {
            "side": st.SIDE,
            "label": "Soldiers",
            "value": f"{len(alive) - wounded} ready, {wounded} wounded, {c['dead']} dead",
        },
    ]


def scenario_summary(state, index) -> dict:
    if state.get("game") is None:
        return {}
    entry = st.mission(state, index)
    log = entry["log"]
    if log is None:
        return {"outcome": entry["name"]} if entry["name"] else {}
    eliminated = [st.label(st.find(state, sid)) for sid in log["eliminated"]]
    return {
        "outcome": f"{log['outcome'].capitalize()}: {entry['name']}",
        "turns_used": f"{log['turns_used']} of {entry['game_turns']}",
        "soldiers": f"{plural(len(log['party']), 'soldier')}; eliminated: {join(eliminated) or 'nobody'}",
    }


def history_text(record, view) -> str | None:
    """Sentences for the history page: the mission log and the system's own entries as they
    were applied (everything here is public: a solitaire squad has nothing to hide)."""
    game = view.get("game")
    if game is None:
        return None
    pub = game["public"]
    if record.kind in ("result.submitted", "result.resolved"):
        index = (record.data or {}).get("scenario")
        if (
            isinstance(index, int)
            and 0 <= index < len(pub["missions"])
            and pub["missions"][index]["log"]
        ):
            return missions.log_sentence(view, index)
        return None
    if record.kind.startswith("rifles."):
        return pub["said"].get(record.uid)
    return None


def result_words(view, index, data) -> list[str]:
    """A mission's log in sentences for the timeline, from the result's data and the reader's view."""
    game = view.get("game")
    if game is None or not data:
        return []
    entry = game["public"]["missions"][index]
    soldiers = {s["id"]: s for s in game["public"]["squad"]["soldiers"]}

    def named(ids):
        return join(st.label(soldiers[sid]) for sid in ids if sid in soldiers) or "nobody"

    log = entry["log"] or {}
    party = log.get("party") or [
        sid for sid in soldiers if sid not in data.get("stayed_behind", [])
    ]
    lines = [
        f"{entry['name'] or entry['label']}: {data['outcome']} after {data['turns_used']} of "
        f"{entry['game_turns']} game turns.",
        f"Took part: {named(party)}.",
        f"Eliminated: {named(data.get('eliminated', []))}.",
    ]
    if data.get("new_leader"):
        lines.append(f"{named([data['new_leader']])} took command (6).")
    if data.get("notes"):
        lines.append(f"Notes: {data['notes']}")
    return lines


ROLL_WORDS = {
    "8.4": "Experience roll",
    "8.2/roll": "Reinforcements from HQ",
    "8.2/ap": "Reinforcement AP (1d3)",
    "8.2/equipment": "Additional die for equipment",
}


def roll_label(view, key: str) -> str:
    """ "mission2/8.3/s4" → "Mission 2: casualty roll for Pvt. Weber (D)"."""
    head, _, rest = key.partition("/")
    where = head.replace("mission", "Mission ") if head.startswith("mission") else ""
    game = (view or {}).get("game") or {}
    report = next((r for r in game.get("public", {}).get("rolls", []) if r["key"] == key), None)
    if report is not None:
        words = report["label"]
    elif rest.startswith("8.3/"):
        sid = rest.split("/", 1)[1]
        soldier = next(
            (
                s
                for s in game.get("public", {}).get("squad", {}).get("soldiers", [])
                if s["id"] == sid
            ),
            None,
        )
        words = f"Casualty roll for {st.label(soldier)}" if soldier else "Casualty roll"
    else:
        words = ROLL_WORDS.get(rest.removesuffix("/xp"), "A roll")
    return f"{where}: {words[0].lower()}{words[1:]}" if where else words


def describe_roll(view, data: dict) -> str | None:
    game = (view or {}).get("game") or {}
    report = next(
        (r for r in game.get("public", {}).get("rolls", []) if r["key"] == data.get("key")), None
    )
    source = "rolled by Muster" if data.get("source") == "server" else "entered from the table"
    if report is None:
        faces = " and ".join(map(str, data.get("dice") or []))
        return f"{roll_label(view, data.get('key', ''))}: {faces} ({source}; no longer used after a correction)"
    return f"{report['text']} ({source})"


def comparison_row(view) -> tuple | None:
    game = view.get("game")
    if game is None:
        return None
    pub = game["public"]
    c, sq = _counts(view), pub["squad"]
    return (
        f"{army_name(pub['army'])} against {army_name(pub['enemy'])}",
        f"{c['accomplished']} of {c['played']}",
        sq["xp_earned"],
        f"{plural(c['veterans'], 'Veteran')}, {plural(c['skills'], 'skill')}",
        c["dead"],
        c["wounds"],
    )


# --- house rules --------------------------------------------------------------------------------


def check_house_rule(key: str, value) -> None:
    """The values a club may give the lost die faces and the constants (docs/rules-notes.md, RA-1 to RA-3)."""
    table, _, rest = key.partition(":")
    column = rest.rpartition(":")[2]
    if table == "8.3" and column == "result" and value not in CASUALTY_RESULTS:
        raise DomainError(
            "value", f"A result of the End Mission Table is one of: {', '.join(CASUALTY_RESULTS)}."
        )
    if table == "8.2" and column == "ap" and not _ap_cell(value):
        raise DomainError(
            "value",
            "Reinforcement AP: a whole number (\"0\", \"1\", \"2\") or a roll such as \"1d3\".",
        )
    if (
        (table == "8.2" and column == "equipment_die")
        or (table == "8.4.1" and column == "leader_only")
        or key == "reinforcement.over_max"
    ):
        if not isinstance(value, bool):
            raise DomainError("value", "true or false.")
    numbers = {("8.2-equipment", "equipment_ap"), ("8.4", "xp")}
    if (table, column) in numbers or key in (
        "budget.german",
        "xp.veteran",
        "xp.skill",
        "skills.per_soldier",
        "turns.max",
        "equipment.slots",
    ):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise DomainError("value", "A whole number, 0 or more.")
        if key in ("budget.german", "skills.per_soldier", "turns.max") and value < 1:
            raise DomainError("value", "At least 1.")


def _ap_cell(value) -> bool:
    if not isinstance(value, str):
        return False
    if value.strip().isdigit():
        return True
    try:
        parse_dice(value.strip())
    except DomainError:
        return False
    return True
