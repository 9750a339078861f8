"""The rules engine: cards, moves, rulesets and the state machines that referee them.

Standard library only; no I/O, no clock, no global random. See ``new_game``; the
events are in ``engine.events``, the views in ``engine.views``; ``docs/rules.md`` is
every rule as the engine plays it.
"""

from .cards import Card, CardSyntaxError, Mask, card_text, parse_card
from .events import Event, EventDict, event_from_dict
from .game import Deal, Game, GameResult, Hidden, IllegalMove
from .moves import (
    DRAW,
    PASS,
    TIMEOUT,
    LegalMoveData,
    Move,
    MoveData,
    MoveKind,
    MoveSyntaxError,
)
from .registry import from_view, new_game, replay
from .rules import RULESETS, Rules, RulesError
from .views import CyclesView, OpenSpielView, SheddingView

__all__ = [
    "DRAW",
    "PASS",
    "RULESETS",
    "TIMEOUT",
    "Card",
    "CardSyntaxError",
    "CyclesView",
    "Deal",
    "Event",
    "EventDict",
    "Game",
    "GameResult",
    "Hidden",
    "IllegalMove",
    "LegalMoveData",
    "Mask",
    "Move",
    "MoveData",
    "MoveKind",
    "MoveSyntaxError",
    "OpenSpielView",
    "Rules",
    "RulesError",
    "SheddingView",
    "card_text",
    "event_from_dict",
    "from_view",
    "new_game",
    "parse_card",
    "replay",
]
