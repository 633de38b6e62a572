"""The Advantage (16), Replacement Points (15.5–15.7, 19.4.4), side bids (20.1) and Scenario 2's
withdrawals (19.6): Patton's Vanguard's own values of a turn."""

from __future__ import annotations

from campaigns.game_interface import DomainError, HeldState, open_sealed
from campaigns.systems.victory_ledger import ledger
from campaigns.systems.victory_ledger.model import Check, Evaluation, Outcome

from . import victory
from .shapes import PattonsPublic, public

BID_KEY = "bid"
HOLDER_SPENDS = 2  # the journal version from which only the holder may spend the Advantage (PV-12)
BIDS = tuple(
    range(1, 61)
)  # any sensible VP bid; the count of VP a German can score is far below 60


def start(system, game: dict, ctx) -> None:
    pub = game["public"]
    pub["advantage"] = system.book.scenario(pub["scenario"])["advantage"]
    pub["bid"] = None
    pub["turn_values"] = {}
    if ctx.state["options"].get("bids"):
        open_sealed(
            ctx.state,
            BID_KEY,
            "Your VP bid to command the Germans (20.1)",
            system.side_slugs(),
            list(BIDS),
        )


def bids_pending(state: HeldState) -> bool:
    sealed = state.get("sealed", {}).get(BID_KEY)
    if not sealed:
        return False
    return not sealed["revealed"]


def on_bids(system, state: HeldState, choices: dict) -> None:
    """20.1: the high bid commands the Germans and its bid is the operational-victory VP.
    If the player seated as American bid higher, the seats change; on a tie they stay (PV-6)."""
    german, american = choices["german"], choices["american"]
    swapped = american > german
    if swapped:
        sides = state["sides"]
        sides["german"]["players"], sides["american"]["players"] = (
            sides["american"]["players"],
            sides["german"]["players"],
        )
    threshold = max(german, american)
    if swapped:
        text = (
            f"Bids: German seat {german}, American seat {american}: the American seat's players bid higher and "
            f"now command the Germans, who need {threshold} VP (20.1)"
        )
    elif german == american:
        text = f"Bids: both {german}: a tie; the seats stay as they are and the German needs {threshold} VP (20.1)"
    else:
        text = f"Bids: German seat {german}, American seat {american}: the German needs {threshold} VP (20.1)"
    public(state)["bid"] = {
        "german": german,
        "american": american,
        "threshold": threshold,
        "swapped": swapped,
        "text": text,
    }


def apply_turn(system, state: HeldState, turn: dict, data: dict, ctx) -> list:
    pub = public(state)
    number, book = turn["number"], system.book
    spent = data.get("advantage_rp")
    if spent and number == 4:
        raise DomainError(
            "advantage_rp", "The Advantage cannot buy a Replacement Point on turn 4 (16.1D)."
        )
    refit = None
    holder: str | None  # the side holding the Advantage in the End Phase
    if ctx.journal_version >= HOLDER_SPENDS:
        refit, holder = holders(system, pub, data)
    else:  # v1, before the holder rule (rules notes PV-12): any side could be recorded spending it
        holder = data.get("advantage") or (book.other(spent) if spent else pub["advantage"])
        if spent and holder == spent:
            raise DomainError(
                "advantage",
                f"The {book.side_name(spent)} spent the Advantage in the Refit Phase, so "
                f"the {book.side_name(book.other(spent))} holds it in the End Phase "
                f"(16.2).",
            )
    pub["advantage"] = holder
    pub["turn_values"] = {"supply_through_8": bool(data.get("supply_through_8"))}
    scenario = pub["scenario"]
    rp = {
        side: system.value(state, f"rp.{scenario}.{side}")
        + (system.value(state, "rp.advantage") if spent == side else 0)
        for side in system.side_slugs()
    }
    rule = "15.5" if scenario == "s1" else "19.4.4"
    rp_text = ", ".join(f"{book.side_name(s)} {n}" for s, n in rp.items())
    if spent:
        rp_text += f" (the {book.side_name(spent)} +1 for the Advantage, 16.1D)"
    extras = [
        ["Replacement points", f"{rp_text} ({rule}); unspent RP are lost (15.7)"],
        ["Advantage", _advantage_words(book, refit, spent, holder)],
    ]
    if number in (2, 3, 4):
        line = "yes" if pub["turn_values"]["supply_through_8"] else "no"
        extras.append(["German supply line through Area 8 (18.1)", line])
    extras += _withdrawals(system, state, turn)
    return extras


def _advantage_words(book, refit, spent, holder) -> str:
    end = f"held by the {book.side_name(holder)} in the End Phase (16)"
    if refit is None:  # a v1 record does not say
        return end
    start = f"the {book.side_name(refit)} held it when the Refit Phase began"
    if spent:
        start += " and spent it for one more RP (16.1D)"
    return f"{start}; {end}"


def holders(system, pub: PattonsPublic, data: dict) -> tuple[str | None, str | None]:
    """Who held the Advantage when the Refit Phase began and who holds it in the End Phase, from the turn record (16.1D, 16.2, PV-12).

    The record says who held it when the Refit Phase began (``advantage_refit``; by default whoever
    held it at the end of the last turn, the Daylight Phase having changed nothing). Only that side
    may spend it for one more RP; spent, it belongs to neither player until the end of the phase,
    then to the other one, so nobody else can spend it in that Refit Phase. Nothing else uses it
    between the Refit Phase and the End Phase, so it is the End Phase holder's. ``advantage`` (the
    End Phase holder, as turn records gave it before) is read as that and must agree."""
    book = system.book
    spent, end = data.get("advantage_rp"), data.get("advantage")
    refit = data.get("advantage_refit")
    if refit is None:
        # A record that names only the End Phase holder and no spending names the Refit holder too.
        refit = end if (end and not spent) else pub["advantage"]
    if spent and spent != refit:
        raise DomainError(
            "advantage_rp",
            f"The {book.side_name(refit)} held the Advantage when the Refit Phase "
            f"began: only the {book.side_name(refit)} may spend it for one more RP "
            f"(16.1D), and the {book.side_name(spent)} cannot in that Refit Phase "
            f"(16.2).",
        )
    holder = book.other(spent) if spent else refit
    if end and end != holder:
        if spent:
            why = (
                f"the {book.side_name(spent)} spent the Advantage in the Refit Phase, so the "
                f"{book.side_name(holder)} holds it in the End Phase (16.2)."
            )
        else:
            why = (
                f"the {book.side_name(refit)} held the Advantage when the Refit Phase began and did not spend it, "
                f"so the {book.side_name(refit)} still holds it in the End Phase (16.2, PV-12)."
            )
        raise DomainError("advantage", why[0].upper() + why[1:])
    return refit, holder


def coming(system, state: HeldState) -> list:
    """The next turn's Refit Phase, shown before it is played (15.5, 19.4.4, 16.1D, 15.7)."""
    pub = public(state)
    turn = ledger.next_turn(pub)
    if turn is None:
        return []
    scenario, book = pub["scenario"], system.book
    base = ", ".join(
        f"{book.side_name(s)} {system.value(state, f'rp.{scenario}.{s}')}"
        for s in system.side_slugs()
    )
    rule = "15.5" if scenario == "s1" else "19.4.4"
    extra = (
        "; the side spending the Advantage gets 1 more (16.1D)"
        if turn["number"] != 4
        else "; the Advantage buys no RP on turn 4 (16.1D)"
    )
    return [
        [
            f"Replacement points in {turn['label']}'s Refit Phase",
            f"{base} ({rule}){extra}; unspent RP are lost (15.7)",
        ]
    ]


def _withdrawals(system, state: HeldState, turn: dict) -> list:
    """19.6: at the end of Scenario 2's turn 1 the marked American units leave the map; one
    eliminated then (and not rebuilt in that Refit Phase) stays eliminated for good."""
    pub = public(state)
    if pub["scenario"] != "s2" or turn["number"] != 1:
        return []
    gone = []
    for unit in pub["setup"]["units"]:
        now = pub["units"][unit["id"]]
        if unit.get("withdraws") and now["status"] in ("full", "reduced"):
            pub["units"][unit["id"]] = {"status": "withdrawn", "since": turn["label"], "via": ""}
            gone.append(unit["name"])
    return [["Withdrawn (19.6), not eliminated", ", ".join(gone)]] if gone else []


def decide(system, state: HeldState, record, ctx) -> None:
    """16.1E: the side that lost to an automatic victory spends the Advantage to play on, or not."""
    pub = public(state)
    decision = pub.get("decision")
    if pub["phase"] != "decision" or not decision:
        raise DomainError("use", "There is no automatic victory to cancel now.")
    loser, winner = decision["side"], decision["winner"]
    if record.side != loser:
        raise DomainError("use", f"The {system.book.side_name(loser)} decides this (16.1E).")
    entry = pub["ledger"][-1]
    book = system.book
    if record.data["use"] == "keep":
        entry["checks"].append(
            Check(
                "16.1E",
                "The Advantage",
                False,
                f"The {book.side_name(loser)} keeps the Advantage: the automatic victory stands",
            ).as_dict()
        )
        ledger.end_game(system, state, Outcome(**decision["outcome"]), ctx)
        return
    pub["advantage"] = winner  # 16.2: it goes to the player who did not use it
    pub["phase"], pub["decision"] = "play", None
    entry["checks"].append(
        Check(
            "16.1E",
            "The Advantage",
            True,
            f"The {book.side_name(loser)} spent the Advantage to cancel the "
            f"{book.side_name(winner)} automatic victory and play on; the "
            f"{book.side_name(winner)} now holds it (16.2)",
        ).as_dict()
    )
    entry["outcome"] = None
    turn = pub["turns"][pub["next"] - 1]
    if turn["number"] == 4:  # no next turn: the operational victory decides (PV-5)
        evaluation = Evaluation()
        victory.operational(system, state, victory.tally(system, state), evaluation)
        outcome = evaluation.outcome
        assert outcome is not None, "the operational victory always names an outcome"
        entry["checks"] += [c.as_dict() for c in evaluation.checks]
        entry["outcome"] = outcome.as_dict()
        ledger.end_game(system, state, outcome, ctx)
    else:
        ledger.conclude(system, state, Evaluation(), turn, ctx)
