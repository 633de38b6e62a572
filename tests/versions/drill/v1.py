from campaigns.game_interface import GameAppConfig

from . import DrillV1

SYSTEM = DrillV1()


class App(GameAppConfig):  # named in MUSTER_EXTRA_SYSTEMS as tests.versions.drill.v1.App
    system = SYSTEM
