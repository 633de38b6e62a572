"""Every step module of the Refit Phase, imported by name (so tools see them) and listed in the
order their steps are read: refit_steps.py sorts the steps into rulebook order with a stable sort,
so this order decides between steps of one rule number."""

from __future__ import annotations

from . import (
    equipment,
    escape,
    fortification_removal,
    fortifications,
    hardening,
    initiative,
    leaders,
    purchases,
    recon,
    reinforcements,
    replenishment,
    san,
)
from .base import Step

MODULES = (
    escape,
    leaders,
    hardening,
    san,
    equipment,
    fortification_removal,
    replenishment,
    purchases,
    reinforcements,
    fortifications,
    recon,
    initiative,
)


def module_steps() -> list[Step]:
    """The STEPS of every step module, module by module in the order above."""
    return [step for module in MODULES for step in module.STEPS]
