"""Bots: a random player, a heuristic player and information-set MCTS (engine only)."""

from .base import BOT_LEVELS, Bot, make_bot

__all__ = ["BOT_LEVELS", "Bot", "make_bot"]
