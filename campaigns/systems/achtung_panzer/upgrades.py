"""Achtung! Panzer! journals of earlier versions, carried to today's (docs/journal.md, "Versions and
upgrades"; the corpus in its journals/ folder replays journals of each version on every CI).

- v1 → v2 (a787fca, 2026-11-23): the Refit Phase begins with each side's end-of-scenario record
  (``ap.aftermath``, 1.12, step 1.600), which the map steps 1.601-1.606 wait for. A v1 journal has
  none: one is added for each side and half-day whose Refit Phase went on, before its first step,
  with every unit as it stood (status, isolation, pocket …, all kept) and the CVP the side's
  confirmed result already gave, so the Refit Phase reads what v1 read. The record's platoons on the
  map are those v1's 1.6142 rolled for; v1's 1.6142 events keep v1's rule (only the platoons the
  player listed roll, R-B20): the fold asks the version they were written under
  (``ctx.journal_version``, which a rewrite step's marker gives as a fold step's does).
- v2 → v3 (30f6652, R-A19): 1.6067 waits for each side's losses of the map steps (``ap.losses``,
  step 1.6066.losses). In a v2 journal 1.6067 ran as soon as 1.6066 was confirmed, and units
  lost at the table were entered as ``ap.cvp`` (kept as they are): each side's losses step is
  added as "nothing more lost" where the Refit Phase went past 1.6066, so 1.6067 runs where it ran.
- v3 → v4 (c0d149e, after Muster 0.1.0): the end-of-scenario record and the losses step ask the CVP
  of the lost units the club's CVP list does not cover on its own (``cvp_unlisted``); a record
  written before gives the total (``cvp``), which is read as it was. Nothing to rewrite.
- v4 → v5 (ELR by nationality, CG14, R-A25): each side keeps an ELR per nationality (and German
  pioneers), British at 4 and pioneers at 5 from the start. Folded by version: events of v4 keep
  one ELR per side (every group at the side's value, moved together by 1.617 within 0-4), as they
  were played; elr.py reads ``ctx.journal_version``.
- v5 → v6 (R-A26): the 1.6112 and 1.6113 DRs may carry the choice they lead to
  (the MMC in order; the win DRM and what each leader becomes), resolved with the DR, and 1.6112
  waits for the side when it has MMC to harden. Folded by version: a v5 roll's other fields are
  not read and 1.6112 is rolled with the steps before it, as then (common.choices_before_roll).
"""

from __future__ import annotations

from campaigns.game_interface import Insert, Upgrade

from . import refit_marks, refit_progress, refit_steps, retained
from .common import SIDES, current_index, private, public
from .shapes import APState


def _refit_at(state: APState, step_id: str) -> list[str]:
    """The sides whose current Refit Phase step is `step_id`."""
    game = state.get("game")
    if state["status"] != "active" or game is None or game["public"].get("phase") != "refit":
        return []
    return [
        side
        for side in SIDES
        if getattr(refit_progress.current(state, side), "id", None) == step_id
    ]


class EndOfScenarioRecords(Upgrade):
    version = 1
    name = "ap-end-of-scenario-records"
    words = (
        "end-of-scenario records (1.12) added: every unit as it stood, the CVP already confirmed; "
        "Refit Phase steps with nothing to do left out"
    )

    def before(self, state, record, journal):
        return [
            Insert("ap.aftermath", as_it_stood(state, side, journal.after(record)), side=side)
            for side in _refit_at(state, "1.600")
            if not (record.kind == "ap.aftermath" and record.side == side)
        ]

    def drop(self, state, record, journal):
        return skipped_step(state, record)


def skipped_step(state: APState, record) -> bool:
    """An old event for a Refit Phase step today's rules skip for that side as having nothing to do
    (v1 ran 1.6132 for any AFV, 1.6142 for any platoon, even with nothing to repair or roll): it
    changed nothing, and today's fold has no place for it."""
    step = refit_steps.BY_KIND.get(record.kind)
    if step is None or record.side not in SIDES or state.get("game") is None:
        return False
    if public(state).get("phase") != "refit" or refit_progress.current(state, record.side) is step:
        return False
    return step.id in refit_marks.skipped(state, record.side) and not any(
        record.data.get(f.name) for f in step.fields
    )


def as_it_stood(state: APState, side: str, later) -> dict:
    """The end-of-scenario record that changes nothing: every retained unit kept, in the state it was
    in; the CVP the half-day's confirmed result gave the side; the AFV platoons its 1.6142 step went
    on to roll for in this Refit Phase (today's 1.6142 rolls the platoons recorded here)."""
    units = []
    for unit in private(state, side)["retained"]:
        status = unit.get("status") or "ok"
        units.append(
            {
                "unit": unit["id"],
                "fate": "kept",
                "status": status if status in retained.STATUSES else "ok",
                "isolated": bool(unit.get("isolated")),
                "pocket": unit.get("pocket") or "",
                "encircled": bool(unit.get("encircled")),
                "disrupted": bool(unit.get("disrupted")),
                "elite": bool(unit.get("elite")),
            }
        )
    line = public(state)["roster"][current_index(state)]
    platoons = []
    for record in later:
        if record.kind in ("result.submitted", "result.confirmed", "result.resolved"):
            break  # the next half-day's
        if record.kind == "ap.1.6142" and record.side == side:
            platoons = list(record.data.get("platoons") or [])
            break
    return {
        "units": units,
        "platoons_on_map": platoons,
        "cvp": (line.get("cvp") or {}).get(side),
        "note": "Recorded by the upgrade to Muster's end-of-scenario record: every unit as it stood.",
    }


class LossesBeforeVictory(Upgrade):
    version = 2
    name = "ap-losses-before-victory"
    words = "losses steps before 1.6067 (R-A19) added as nothing more lost"

    def before(self, state, record, journal):
        return self._nothing_lost(state, record)

    def at_end(self, state, journal):
        # The journal stopped right after 1.6066: v2 had run 1.6067 there already.
        return self._nothing_lost(state, None)

    def drop(self, state, record, journal):
        return skipped_step(state, record)

    @staticmethod
    def _nothing_lost(state: APState, record):
        return [
            Insert("ap.losses", {"units": [], "cvp": None, "note": ""}, side=side)
            for side in _refit_at(state, "1.6066.losses")
            if record is None or not (record.kind == "ap.losses" and record.side == side)
        ]


class CvpOfUnlistedUnits(Upgrade):
    version = 3
    name = "ap-cvp-of-unlisted-units"
    words = (
        "the CVP of lost units the club's CVP list does not cover asked on their own; earlier records keep "
        "the total they gave"
    )


class ElrByNationality(Upgrade):
    version = 4
    name = "ap-elr-by-nationality"
    how = "fold"
    words = (
        "played with one ELR per side, as then: British units and German pioneers keep the side's ELR "
        "(CG14's own values apply to campaigns begun since)"
    )


class ChoicesWithTheRoll(Upgrade):
    version = 5
    name = "ap-choices-with-the-roll"
    how = "fold"
    words = (
        "battle hardening played as then: the MMC (1.6112) and the leader's result (1.6113) chosen "
        "after the DR (campaigns begun since may give the choice with the DR)"
    )


STEPS = (
    EndOfScenarioRecords(),
    LossesBeforeVictory(),
    CvpOfUnlistedUnits(),
    ElrByNationality(),
    ChoicesWithTheRoll(),
)
