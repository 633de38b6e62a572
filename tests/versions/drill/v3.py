from campaigns.game_interface import GameAppConfig

from . import DrillV3

SYSTEM = DrillV3()


class App(GameAppConfig):  # named in MUSTER_EXTRA_SYSTEMS as tests.versions.drill.v3.App
    system = SYSTEM
