"""1.6131 immobilization removal (with remanning), 1.6132 weapon repair, 1.6135 captured weapons,
1.6142 AFV platoon withdrawal: the Refit Phase's steps for AFVs and weapons, one module each
(afv_recovery, weapon_repair, captured_weapons, platoon_withdrawal), listed here in their order.
All rolls are the side's own (retained units are side-private)."""

from __future__ import annotations

from . import afv_recovery, captured_weapons, platoon_withdrawal, weapon_repair
from .platoon_withdrawal import withdrawal_mods
from .weapon_repair import form_repair

STEPS = [afv_recovery.STEP, weapon_repair.STEP, captured_weapons.STEP, platoon_withdrawal.STEP]

__all__ = ["STEPS", "form_repair", "withdrawal_mods"]
