"""crazy-eights: a Crazy Eights rules engine, bots, a simulation lab and a card room."""

from .engine import (
    Deal,
    Event,
    Game,
    GameResult,
    IllegalMove,
    Move,
    Rules,
    RulesError,
    new_game,
    replay,
)

__version__ = "0.1.0"

__all__ = [
    "Deal",
    "Event",
    "Game",
    "GameResult",
    "IllegalMove",
    "Move",
    "Rules",
    "RulesError",
    "__version__",
    "new_game",
    "replay",
]
