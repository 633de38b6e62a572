"""FAB: The Bulge as a Django app: the game registry reads its system from here."""

from campaigns.game_interface import GameAppConfig

from .system import SYSTEM


class App(GameAppConfig):
    system = SYSTEM
