from . import DrillV2

SYSTEM = DrillV2()
