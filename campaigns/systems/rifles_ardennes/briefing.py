"""The end-mission briefing, in order (8.3, 8.4, the End Mission Table, 6, 8.2):

A temporary Leader who may not lead gives up the role at the end of the mission (6), as it is
logged (7; missions.on_result), before the briefing opens: from journal v3 he is not the Leader
here, and a Leader-only skill (8.4.1) is not his to buy (RA-9; under v2 he stepped down in (c)).

(a) soldiers wounded in an earlier mission recover (done when the mission is logged);
(b) the experience roll, then XP may be spent (veteran, skills) until the casualty rolls;
(c) a casualty roll for each soldier eliminated in the mission (v2: a temporary Leader who may
    not lead gives up the role), and a Leader is named if the squad has none (one who may lead);
(d) before the next mission, reinforcements from HQ when the squad's AP without its wounded
    is below the Army's maximum, and the AP granted are spent on soldiers or equipment. Only
    once they are settled, and still no available soldier may lead, is a soldier who may not
    lead named Leader, until the end of the next mission (6, RA-9; journal v2).
"""

from __future__ import annotations

from campaigns.game_interface import DomainError, Mod, advance, finish, plain_roll, roll_on

from . import leaders, state as st
from .data import CASUALTY_RESULTS
from .shapes import Soldier
from .upgrades import LEADER_AFTER_REINFORCEMENTS, LEADER_UNTIL_MISSION_END
from .words import join, plural, roll_sentence


def open_briefing(state, index, returned) -> dict:
    label = st.mission(state, index)["label"]
    recovered = []
    for soldier in st.soldiers(state):
        if soldier["status"] == "wounded":
            soldier["status"] = "active"
            soldier["wounded_in"] = None
            st.history(soldier, label, "Recovered from his wounds (8.3).")
            recovered.append(st.label(soldier))
    return {
        "mission": index,
        "recovered": recovered,
        "returned": returned,
        "xp": None,
        "spending_closed": False,
        "casualties": None,
        "leader_note": None,
        "reinforcement": None,
    }


def briefing(state) -> dict:
    pub = st.public(state)
    if pub["phase"] != "briefing" or pub["briefing"] is None:
        raise DomainError("kind", "This is done in the end-mission briefing (8.3).")
    return pub["briefing"]


def is_last(state) -> bool:
    return briefing(state)["mission"] == len(st.public(state)["missions"]) - 1


def eliminated(state) -> list[Soldier]:
    """Squad soldiers eliminated in the briefed mission (attachments have left: no roll for them)."""
    log = st.mission_log(state, briefing(state)["mission"])
    return [
        s
        for s in (st.find(state, sid) for sid in log["eliminated"])
        if s["status"] in ("active", "wounded")
    ]


def close_spending(state) -> None:
    briefing(state)["spending_closed"] = True


# --- (b) experience --------------------------------------------------------------------------


def _table_mod(ctx, table_id: str, key: str, label: str) -> Mod:
    table = ctx.table(table_id)
    value = next(int(str(m["value"]).replace("−", "-")) for m in table.modifiers if m["key"] == key)
    return Mod(label, table.rule, value)


def xp_mods(state, ctx) -> list[Mod]:
    outcome = st.mission_log(state, briefing(state)["mission"])["outcome"]
    if outcome in ("lost", "aborted"):
        return [_table_mod(ctx, "8.4", "lost_or_aborted", f"mission {outcome}")]
    return []


def xp_key(state) -> str:
    return f"mission{briefing(state)['mission'] + 1}/8.4/xp"


def apply_xp(state, record, ctx) -> None:
    brief = briefing(state)
    if brief["xp"] is not None:
        raise DomainError("kind", "The experience roll has been made for this mission.")
    report = roll_on(ctx, "8.4", xp_key(state), xp_mods(state, ctx), label="Experience roll")
    gain = int(report["result"]["xp"])
    sq = st.squad(state)
    before = sq["xp"]
    sq["xp"] += gain
    sq["xp_earned"] += gain
    floor = " (at least one XP after each mission)" if report["final"] < gain else ""
    report["text"] = roll_sentence(
        report, f"+{gain} XP{floor}; the squad's XP {before} → {sq['xp']}"
    )
    _keep(state, report, record)
    brief["xp"] = report
    st.ledger(state, st.where(state), gain, report["text"])
    if not casualties_needed(state) and ctx.journal_version >= LEADER_AFTER_REINFORCEMENTS:
        # Nobody to roll for: the mission's end (6) comes with the roll that closes it. Before v2 a
        # temporary Leader could only have been eliminated, and stepped down after his roll. From v3
        # he stepped down when the mission was logged (missions.on_result): nothing is left to
        # drop, unless the mission was logged under v2.
        brief["leader_note"] = (
            leaders.drop_temporary_leader(state, st.where(state)) or brief["leader_note"]
        )


def apply_spend(state, data, ctx) -> None:
    brief = briefing(state)
    if brief["xp"] is None:
        raise DomainError("soldiers", "Roll for experience first (8.4).")
    if brief["spending_closed"]:
        raise DomainError(
            "soldiers",
            "XP are spent before the casualty rolls; the rest waits for the next briefing.",
        )
    vet_cost, skill_cost = int(ctx.value("xp.veteran")), int(ctx.value("xp.skill"))
    per_soldier = int(ctx.value("skills.per_soldier"))
    skills = ctx.table("8.4.1")
    buys, seen = [], set()
    for i, row in enumerate(data["soldiers"]):
        path = f"soldiers[{i}]"
        if not row["veteran"] and not row["skill"]:
            continue
        soldier = st.find(state, row["soldier"], f"{path}.soldier")
        if soldier["status"] not in ("active", "wounded") or soldier.get("attached") is not None:
            raise DomainError(
                f"{path}.soldier", f"{st.label(soldier)} is not a soldier of the squad now."
            )
        if soldier["id"] in seen:
            raise DomainError(f"{path}.soldier", f"{st.label(soldier)} is listed twice.")
        seen.add(soldier["id"])
        if row["veteran"] and soldier["veteran"]:
            raise DomainError(f"{path}.veteran", f"{st.label(soldier)} is already a Veteran.")
        if row["skill"]:
            if row["skill"] not in [r.label for r in skills.rows]:
                raise DomainError(f"{path}.skill", "Choose a skill of the Skills Table (8.4.1).")
            name = skills.value(row["skill"], "name")
            if row["skill"] in soldier["skills"]:
                raise DomainError(f"{path}.skill", f"{st.label(soldier)} already has {name}.")
            if len(soldier["skills"]) >= per_soldier:
                owned = join(skills.value(k, "name") for k in soldier["skills"])
                raise DomainError(
                    f"{path}.skill",
                    f"{st.label(soldier)} already has a skill ({owned}); each unit "
                    f"may receive only {plural(per_soldier, 'Skill')} (8.4).",
                )
            if skills.value(row["skill"], "leader_only"):
                why = not_the_leader(state, soldier, ctx.journal_version)
                if why:
                    raise DomainError(
                        f"{path}.skill", f"{name} is for the Leader only (8.4.1); {why}"
                    )
        buys.append((soldier, row))
    if not buys:
        raise DomainError("soldiers", "Choose a promotion or a skill for at least one soldier.")
    cost = sum(vet_cost * bool(row["veteran"]) + skill_cost * bool(row["skill"]) for _, row in buys)
    sq = st.squad(state)
    if cost > sq["xp"]:
        raise DomainError(
            "soldiers",
            f"That costs {cost} XP; the squad has {sq['xp']} (8.4: {vet_cost} XP a "
            f"Veteran, {skill_cost} XP a skill).",
        )
    where = st.where(state)
    done = []
    for soldier, row in buys:
        if row["veteran"]:
            soldier["veteran"] = True
            sq["xp"] -= vet_cost
            text = f"{st.label(soldier)} promoted to Veteran (8.4)"
            st.history(soldier, where, "Promoted to Veteran (8.4).")
            st.ledger(state, where, -vet_cost, text)
            done.append(text)
        if row["skill"]:
            name = skills.value(row["skill"], "name")
            soldier["skills"].append(row["skill"])
            soldier["skill_names"].append(name)
            sq["xp"] -= skill_cost
            text = f"{st.label(soldier)} gains the skill {name} (8.4.1)"
            st.history(soldier, where, f"Gained the skill {name} (8.4.1).")
            st.ledger(state, where, -skill_cost, text)
            done.append(text)
    sq["xp_spent"] += cost
    st.say(state, ctx.record, f"{join(done)}; {cost} XP spent, {sq['xp']} left.")


def stepped_down(state) -> Soldier | None:
    """The temporary Leader who gave up the command at the end of the briefed mission (journal v3:
    when it was logged), or None."""
    sid = st.mission_log(state, briefing(state)["mission"]).get("stepped_down")
    return None if sid is None else st.find(state, sid)


def not_the_leader(state, soldier: Soldier, version: int) -> str | None:
    """Why `soldier` may not take a Leader-only skill now (8.4.1), in words, or None. From journal v3
    a temporary Leader who may not lead leads only until the end of the mission (6), and the
    briefing comes after it (7, 8.3): he is not the Leader here, even where a mission logged under
    v2 left him the role."""
    leader = st.leader(state)
    name = st.label(soldier)
    ended = version >= LEADER_UNTIL_MISSION_END and (
        soldier is stepped_down(state)
        or (soldier is leader and st.squad(state)["temporary_leader"] == soldier["id"])
    )
    if ended and not st.may_lead(state, soldier):
        return (
            f"{name} led only until the end of the mission: a {soldier['unit_name']} may not be "
            "designated Leader (6), and the briefing comes after the mission (7, 8.3)."
        )
    if soldier is leader:
        return None
    if leader is None:
        return (
            f"{name} is not the Leader, and the squad has none until one is named before the next "
            "mission, after the casualty rolls (6)."
        )
    return f"{name} is not the Leader."


def leader_skill_taker(state) -> tuple[Soldier | None, str]:
    """(the soldier a Leader-only skill (8.4.1) may go to now, ""), or (None, why nobody may: a few
    words for the page, which greys the skill in every soldier's row; a refusal says it in full)."""
    leader = st.leader(state)
    if leader is not None:
        if not_the_leader(state, leader, st.rules_version(state)) is None:
            return leader, ""
        return None, f"{st.label(leader)} led only until the end of the mission (6)"
    gone = stepped_down(state)
    if gone is None:
        return None, "no Leader until one is named after the casualty rolls (6)"
    return None, f"no Leader now: {st.label(gone)} led only until the end of the mission (6)"


# --- (c) casualties ------------------------------------------------------------------------------


def casualty_mods(state, ctx, soldier) -> list[Mod]:
    mods = []
    if st.mission_log(state, briefing(state)["mission"])["outcome"] == "lost":
        mods.append(_table_mod(ctx, "8.3", "lost", "mission lost"))
    if "bull_strength" in soldier["skills"]:
        mods.append(
            Mod("Bull Strength", "8.4.1", _table_mod(ctx, "8.3", "bull_strength", "").value)
        )
    return mods


def casualty_key(state, soldier) -> str:
    return f"mission{briefing(state)['mission'] + 1}/8.3/{soldier['id']}"


def casualties_needed(state) -> bool:
    return bool(eliminated(state))


def casualties_done(state) -> bool:
    return briefing(state)["casualties"] is not None or not casualties_needed(state)


def require_casualties_done(state, path) -> None:
    if briefing(state)["xp"] is None:
        raise DomainError(path, "Roll for experience first (8.4).")
    if not casualties_done(state):
        raise DomainError(path, "Roll for the eliminated soldiers first (End Mission Table, 8.3).")


def apply_casualties(state, record, ctx) -> None:
    brief = briefing(state)
    if brief["xp"] is None:
        raise DomainError("kind", "Roll for experience first (8.4).")
    if brief["casualties"] is not None:
        raise DomainError("kind", "The casualty rolls have been made for this mission.")
    if not casualties_needed(state):
        raise DomainError(
            "kind", "Nobody was eliminated in this mission: there is no casualty roll."
        )
    where = st.where(state)
    lines = []
    for soldier in eliminated(state):
        name = st.label(soldier)
        report = roll_on(
            ctx,
            "8.3",
            casualty_key(state, soldier),
            casualty_mods(state, ctx, soldier),
            label=f"Casualty roll for {name}",
        )
        result = report["result"]["result"]
        if result not in CASUALTY_RESULTS:
            raise DomainError(
                "result",
                f"The End Mission Table gives {result!r}; a result is one of "
                f"{', '.join(CASUALTY_RESULTS)}.",
            )
        report["text"] = roll_sentence(report, result)
        report["soldier"] = soldier["id"]
        _keep(state, report, record)
        lines.append(report)
        if result == "dead":
            soldier["status"] = "dead"
            soldier["died_in"] = brief["mission"]
            st.history(
                soldier,
                where,
                f"Killed in {st.mission_title(state, brief['mission'])} ({report['text']}).",
            )
            if soldier["equipment"]:  # RA-12: it goes back to the squad, to be handed out again
                st.history(
                    soldier, where, f"His {join(soldier['equipment'])} went back to the squad."
                )
                soldier["equipment"] = []
        elif result == "wounded":
            soldier["status"] = "wounded"
            soldier["wounded_in"] = brief["mission"]
            st.history(soldier, where, f"Wounded: sits out the next mission ({report['text']}).")
        else:
            st.history(soldier, where, f"Lightly wounded, fights on ({report['text']}).")
    brief["casualties"] = lines
    brief["spending_closed"] = True
    after_casualties(state, ctx)


def after_casualties(state, ctx) -> None:
    """6: the temporary Leader steps down; a squad with nobody left ends the campaign."""
    brief = briefing(state)
    brief["leader_note"] = (
        leaders.drop_temporary_leader(state, st.where(state)) or brief["leader_note"]
    )
    if not st.living(state):
        st.public(state)["phase"] = "finished"
        finish(
            state, None, f"The squad was wiped out in {st.mission_title(state, brief['mission'])}."
        )


def leader_needed(state) -> bool:
    """The squad needs a Leader before the next mission: nobody available holds the role."""
    lead = st.leader(state)
    return bool(st.available(state)) and (lead is None or lead["status"] != "active")


def leader_waits(state) -> str | None:
    """Why no Leader may be named yet, in words, or None (6, RA-9 from journal v2): when no available
    soldier may lead, reinforcements from HQ (8.2), which may bring one who may, come first."""
    if st.rules_version(state) < LEADER_AFTER_REINFORCEMENTS or st.able_to_lead(state):
        return None
    if reinforcement_open(state) is None:
        return (
            "No available soldier may lead: request reinforcements from HQ first (8.2), they may bring one who "
            "may. Only then may a soldier who may not lead be named, until the end of the next mission (6)."
        )
    return None


def unspent(grant) -> int:
    return grant["ap"] + grant["equipment_ap"] - grant["spent"] - grant["spent_equipment"]


def settle_reinforcements(state, record) -> None:
    """A soldier who may not lead is named Leader: reinforcements are settled (6, 8.2), AP left are lost."""
    grant = briefing(state)["reinforcement"]
    if grant is None or grant.get("settled"):
        return
    grant["settled"] = True
    if unspent(grant):
        st.say(
            state,
            record,
            f"{unspent(grant)} reinforcement AP left unspent (lost): reinforcements are settled "
            "once a Leader who may not lead is named (6, 8.2).",
        )


# --- (d) reinforcements -------------------------------------------------------------------------


def reinforcement_open(state) -> str | None:
    """None if the squad may ask HQ for reinforcements now, else why not (in words)."""
    brief = briefing(state)
    if is_last(state):
        return "This was the campaign's last mission."
    if brief["reinforcement"] is not None:
        return "Reinforcements have been requested."
    have, most = st.squad_ap(state), st.public(state)["budget"]
    if have >= most:
        return f"The squad has {have} AP without its wounded, the Army's maximum is {most} (8.2)."
    return None


def reinforcement_key(state, part: str) -> str:
    return f"mission{briefing(state)['mission'] + 1}/8.2/{part}"


def apply_reinforce(state, record, ctx) -> None:
    require_casualties_done(state, "kind")
    why = reinforcement_open(state)
    if why:
        raise DomainError("kind", why)
    close_spending(state)
    report = roll_on(ctx, "8.2", reinforcement_key(state, "roll"), label="Reinforcements from HQ")
    cell = str(report["result"]["ap"]).strip()
    parts = [report]
    if cell.isdigit():
        ap = int(cell)
        report["text"] = roll_sentence(
            report, "no reinforcements available" if ap == 0 else f"{ap} AP to reinforce the squad"
        )
    else:
        report["text"] = roll_sentence(report, f"{cell} AP to reinforce the squad")
        extra = plain_roll(
            ctx,
            reinforcement_key(state, "ap"),
            cell,
            label=f"Reinforcement AP ({cell})",
            rule="8.2",
        )
        ap = extra["final"]
        extra["text"] = roll_sentence(extra, f"{ap} AP to reinforce the squad")
        parts.append(extra)
    equipment = 0
    if report["result"]["equipment_die"] is True:
        die = roll_on(
            ctx,
            "8.2-equipment",
            reinforcement_key(state, "equipment"),
            label="Additional die for equipment",
        )
        equipment = int(die["result"]["equipment_ap"])
        die["text"] = roll_sentence(
            die,
            f"{equipment} more AP to spend on equipment only"
            if equipment
            else "no AP for equipment",
        )
        parts.append(die)
    for part in parts:
        _keep(state, part, record)
    briefing(state)["reinforcement"] = {
        "ap": ap,
        "equipment_ap": equipment,
        "spent": 0,
        "spent_equipment": 0,
        "rolls": parts,
    }


def spend_reinforcements(state, ctx, units: int, gear: int) -> None:
    """Pay for new soldiers (AP only) and equipment (equipment-only AP first) out of what HQ granted."""
    pub = st.public(state)
    grant = (
        pub["briefing"]["reinforcement"] if pub["phase"] == "briefing" and pub["briefing"] else None
    )
    if grant is None:
        raise DomainError(
            "soldiers",
            "Request reinforcements from HQ first (8.2); outside a briefing only "
            "attachments join, with a mission's extra AP.",
        )
    require_casualties_done(state, "soldiers")
    if grant.get("settled"):
        named = st.leader(state)
        assert named is not None, "settling the reinforcements names a Leader"
        raise DomainError(
            "soldiers",
            f"Reinforcements are settled: {st.label(named)} was named Leader "
            "though he may not lead, and the AP left were lost (6, 8.2).",
        )
    close_spending(state)
    ap_left = grant["ap"] - grant["spent"]
    eq_left = grant["equipment_ap"] - grant["spent_equipment"]
    if units > ap_left:
        raise DomainError(
            "soldiers", f"New units cost {units} AP; HQ granted {ap_left} more AP (8.2)."
        )
    from_eq = min(gear, eq_left)
    if units + gear - from_eq > ap_left:
        raise DomainError(
            "equipment",
            f"That costs {units + gear} AP; {ap_left} AP and {eq_left} AP for "
            "equipment only are left (8.2).",
        )
    if ctx.value("reinforcement.over_max") is not True:
        after, most = st.squad_ap(state) + units + gear, pub["budget"]
        if after > most:
            raise DomainError(
                "soldiers",
                f"The squad would have {after} AP without its wounded; reinforcements fill "
                f"it up to the Army's maximum of {most} AP (8.2).",
            )
    grant["spent_equipment"] += from_eq
    grant["spent"] += units + gear - from_eq


# --- the next mission ---------------------------------------------------------------------------


def apply_next(state, record, ctx) -> None:
    brief = briefing(state)
    require_casualties_done(state, "kind")
    if not is_last(state) and leader_needed(state):
        raise DomainError("kind", "Name the squad's Leader first (6).")
    grant = brief["reinforcement"]
    if grant and not grant.get("settled") and unspent(grant):
        st.say(state, record, f"{unspent(grant)} reinforcement AP left unspent (lost).")
    close_spending(state)
    closing = st.mission(state, brief["mission"])["label"]
    st.say(
        state,
        record,
        f"Briefing after {closing} closed; "
        + (
            "the campaign is over."
            if is_last(state)
            else f"{st.mission(state, brief['mission'] + 1)['label']} is next."
        ),
    )
    st.mission(state, brief["mission"])["briefing"] = {
        "recovered": brief["recovered"],
        "returned": brief["returned"],
        "leader_note": brief["leader_note"],
    }
    st.public(state)["phase"] = "mission"
    st.public(state)["briefing"] = None
    advance(state, ctx)


def _keep(state, report, record) -> None:
    report["mission"] = st.where(state)
    st.public(state)["rolls"].append(report)
    st.say(state, record, report["text"] + ".")
