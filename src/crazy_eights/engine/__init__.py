"""The rules engine: cards, moves, rulesets and the state machines that referee them.

Standard library only; no I/O, no clock, no global random. See ``new_game``.
"""

from .cards import Card, CardSyntaxError, Mask, card_text, parse_card
from .events import Event
from .game import Deal, Game, GameResult, IllegalMove, new_game, replay
from .moves import DRAW, PASS, TIMEOUT, Move, MoveKind, MoveSyntaxError
from .rules import RULESETS, Rules, RulesError

__all__ = [
    "DRAW",
    "PASS",
    "RULESETS",
    "TIMEOUT",
    "Card",
    "CardSyntaxError",
    "Deal",
    "Event",
    "Game",
    "GameResult",
    "IllegalMove",
    "Mask",
    "Move",
    "MoveKind",
    "MoveSyntaxError",
    "Rules",
    "RulesError",
    "card_text",
    "new_game",
    "parse_card",
    "replay",
]
