"""The bot levels and ``make_bot``, the one way to get a bot of a difficulty level.

This is the bots' registry: it names every bot class, while the bots themselves import
only ``base`` (the ``Bot`` protocol), so no bot module and its registry import each other.
``parse_bot_spec`` reads the lab's spec strings (``"ismcts:iterations=200"``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from .base import Bot
from .heuristic import HeuristicBot
from .ismcts import IsmctsBot
from .ismcts_config import IsmctsConfig
from .random import RandomBot

_BOTS: Final[dict[str, Callable[..., Bot]]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "ismcts": IsmctsBot,
}
"""The bot class of each level, weakest first."""

BOT_LEVELS: Final[tuple[str, ...]] = tuple(_BOTS)
"""The difficulty levels, weakest first: ``random``, ``heuristic``, ``ismcts``."""


def make_bot(level: str, *, seed: int, **options: Any) -> Bot:
    """A bot of difficulty ``level`` (one of ``BOT_LEVELS``) with its generator seeded.

    ``options`` go to the bot's constructor, e.g. ``make_bot("ismcts", seed=1,
    iterations=1000)`` or ``make_bot("ismcts", seed=1, time_ms=200)`` (the search bot's
    are ``IsmctsConfig``'s fields; with none it thinks 150 ms a decision).
    """
    bot = _BOTS.get(level)
    if bot is None:
        raise ValueError(f"bot level must be one of {', '.join(BOT_LEVELS)}; got {level!r}")
    return bot(seed=seed, **options)


def parse_bot_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"ismcts:iterations=200"`` -> ``("ismcts", {"iterations": 200})`` (for the lab).

    The one parser of spec strings: numbers become ints or floats, true/false bools,
    the rest stays text. A search bot's options are checked here too (by
    ``IsmctsConfig.from_options``), so a bad spec fails before any game is played.
    """
    level, _, rest = spec.strip().partition(":")
    options: dict[str, Any] = {}
    for part in filter(None, rest.split(",")):
        key, _, value = part.partition("=")
        options[key.strip()] = _value(value.strip())
    if level not in BOT_LEVELS:
        raise ValueError(f"bot level must be one of {', '.join(BOT_LEVELS)}; got {level!r}")
    if level == "ismcts":
        IsmctsConfig.from_options(options)
    return level, options


def _value(text: str) -> Any:
    """A spec's option value: an int, a float, a bool (true/false) or the text itself."""
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return text


__all__ = ["BOT_LEVELS", "make_bot", "parse_bot_spec"]
