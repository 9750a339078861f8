"""Bots: a random player, a heuristic player and information-set MCTS (engine only)."""

from .base import Bot
from .levels import BOT_LEVELS, make_bot

__all__ = ["BOT_LEVELS", "Bot", "make_bot"]
