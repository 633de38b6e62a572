"""The victory ledger as a Django app: a shared game package (its templates are found in its
folder), no game (no system)."""

from campaigns.game_interface import GameAppConfig


class App(GameAppConfig):
    pass
