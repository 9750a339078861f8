"""The ``Bot`` protocol and ``make_bot``, the one way to get a bot of a difficulty level.

A bot decides from a seat's view (``game.view(seat, log=True)``) and the legal moves,
with its own seeded generator; it never sees hidden cards. Bots are small picklable
objects, cheap to build, so a card room may build one per decision in a process pool.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from crazy_eights.engine.moves import Move

BOT_LEVELS = ("random", "heuristic", "ismcts")


@runtime_checkable
class Bot(Protocol):
    """Anything that picks one of the legal moves from a seat's view."""

    name: str

    def choose(self, view: dict[str, Any], legal: Sequence[Move]) -> Move: ...


def make_bot(level: str, *, seed: int, **options: Any) -> Bot:
    """A bot of difficulty ``level`` (one of ``BOT_LEVELS``) with its generator seeded.

    ``options`` go to the bot's constructor, e.g. ``make_bot("ismcts", seed=1,
    iterations=1000)`` or ``make_bot("ismcts", seed=1, time_ms=200)`` (the search bot's
    are ``IsmctsConfig``'s fields; with none it thinks 150 ms a decision).
    """
    if level == "random":
        from .random import RandomBot

        return RandomBot(seed=seed, **options)
    if level == "heuristic":
        from .heuristic import HeuristicBot

        return HeuristicBot(seed=seed, **options)
    if level == "ismcts":
        from .ismcts import IsmctsBot

        return IsmctsBot(seed=seed, **options)
    raise ValueError(f"bot level must be one of {', '.join(BOT_LEVELS)}; got {level!r}")


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
        from .ismcts_config import IsmctsConfig

        IsmctsConfig.from_options(options)
    return level, options


def _value(text: str) -> Any:
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return text


def check_legal(legal: Sequence[Move]) -> None:
    if not legal:
        raise ValueError("a bot was asked to move with no legal move")
