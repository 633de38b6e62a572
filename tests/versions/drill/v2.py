from campaigns.game_interface import GameAppConfig

from . import DrillV2

SYSTEM = DrillV2()


class App(GameAppConfig):  # named in MUSTER_EXTRA_SYSTEMS as tests.versions.drill.v2.App
    system = SYSTEM
