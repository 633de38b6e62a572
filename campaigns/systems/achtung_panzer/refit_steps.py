"""Every Refit Phase step in rulebook order, and its signature for the journal.

STEPS holds the system's own steps (refit_own_steps) and the table steps of the step modules
(each exposes ``STEPS``; steps/registry.py imports them and lists them in order).
"""

from __future__ import annotations

import re

from .refit_own_steps import OWN_STEPS
from .steps import registry
from .steps.base import Step, kind_name


def _order_key(step: Step) -> str:
    """Rule numbers sort as decimals: "1.6063" < "1.607" < "1.6121" < "1.619" < "1.6201"."""
    match = re.match(r"^1\.(\d+)", step.id)
    if not match:
        return "9"
    digits = match.group(1)
    if digits.startswith("1691"):  # the on-map/reserve rules printed "1.1691x" are 1.6191x
        digits = "6" + digits[1:]
    return digits


def load_steps() -> list[Step]:
    steps = [*OWN_STEPS, *registry.module_steps()]
    if len({s.id for s in steps}) != len(steps):
        raise RuntimeError("Two Refit Phase steps share an id")
    return sorted(
        steps, key=_order_key
    )  # stable: a module's own order is kept within one rule number


STEPS: list[Step] = load_steps()
BY_ID = {s.id: s for s in STEPS}
BY_KIND = {kind_name(s): s for s in STEPS if not s.checklist and s.scope != "system"}


def signature() -> tuple[str, ...]:
    """The Refit Phase as the journal depends on it (campaigns.versions.signatures): each step's id, scope,
    event kind and how it is done, in order."""
    return tuple(
        f"{s.id} {s.scope} {'checklist' if s.checklist else kind_name(s)}"
        + "".join(
            f" {flag}"
            for flag, on in (
                ("initial", s.initial),
                ("repeatable", s.repeatable),
                ("sync", s.extra.get("sync")),
            )
            if on
        )
        for s in STEPS
    )
