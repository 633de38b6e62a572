from . import DrillV1

SYSTEM = DrillV1()
