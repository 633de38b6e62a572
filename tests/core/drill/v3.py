from . import DrillV3

SYSTEM = DrillV3()
