"""The victory ledger: the engine shared by the operational games scored turn by turn
(Patton's Vanguard, Ardennes '44, FAB: The Bulge).

Each game is a folder beside this one whose GameSystem subclasses
``system.LedgerSystem`` and describes itself by data (its ``book.yaml``): victory
locations with their value and who scores them, units, scenarios and their turn
calendars, the numbers its rules state. The game's own module scores a turn and
checks its victory conditions (``LedgerSystem.evaluate``); everything else (set-up,
turns, unit changes, the ledger, the chart, the sheet, page forms) is here.

Its app (apps.py) names no system: the registry finds its folder (its templates) but counts no
game here, and the core never imports it.
"""
