"""The ruleset table and the three ways to get a game: ``new_game``, ``replay`` and
``from_view``.

The state machines (``SheddingGame``, ``OpenSpielGame``, ``CyclesGame``) subclass
``game.Game``; this module is the one place that names them all, so that the base class
knows none of its subclasses. ``crazy_eights.engine`` re-exports the three functions.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import Any, Final

from .cycles import CyclesGame
from .game import Deal, Game, Hidden, IllegalMove
from .moves import Move
from .openspiel_rules import OpenSpielGame
from .rng import Rng
from .rules import Rules
from .shedding import SheddingGame
from .views import CyclesView, SheddingView

_CLASSES: Final[dict[str, type[Game]]] = {
    "classic": SheddingGame,
    "ultimate": SheddingGame,
    "countdown": SheddingGame,
    "openspiel": OpenSpielGame,
    "cycles": CyclesGame,
}
"""The state machine of each ruleset (``Rules.ruleset``)."""


def game_class(rules: Rules) -> type[Game]:
    """The state machine that plays ``rules``."""
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules, got {type(rules).__name__}")
    return _CLASSES[rules.ruleset]


def new_game(
    rules: Rules, seed: int | None = None, *, deal: Deal | None = None, log: bool = True
) -> Game:
    """Start a game of ``rules``: dealt from ``seed``, or from an explicit ``deal``.

    Without a seed one is drawn from the system's entropy and kept in ``game.seed``;
    later rounds of a match are dealt from the seed, so ``replay`` with the same seed,
    deal and moves rebuilds the game exactly. ``log=False`` keeps no event log (for
    fast play through ``apply`` and ``playout``; ``view(log=True)`` is then refused).
    """
    cls = game_class(rules)
    if seed is None:
        seed = 0 if deal is not None else secrets.randbits(63)
    return cls(rules, seed, deal, log=log)  # type: ignore[call-arg]


def replay(
    rules: Rules,
    seed: int | None = None,
    moves: Iterable[str | Move] = (),
    *,
    deal: Deal | None = None,
    log: bool = True,
) -> Game:
    """Rebuild a game from its rules, seed (or deal) and moves (RULES G4)."""
    game = new_game(rules, seed, deal=deal, log=log)
    for index, move in enumerate(moves):
        try:
            game.apply(move)
        except IllegalMove as exc:
            raise IllegalMove(f"move {index + 1} ({move}): {exc.reason}", str(move)) from None
    return game


def from_view(
    view: SheddingView | CyclesView,
    hidden: Hidden,
    *,
    rules: Rules | None = None,
    seed: int = 0,
    log: bool = False,
    rng: Rng | None = None,
) -> Game:
    """A playable game in the position ``view`` shows, completed with the ``hidden``
    cards (e.g. sampled by a search bot); ``rules`` overrides the view's (a search
    plays a match's round as a single round); ``seed`` seeds later reshuffles and
    tie-breaks, unless ``rng`` gives the generator itself (e.g. a table's
    ``generator``, to rebuild the table exactly).

    The game starts with no move list and, unless ``log``, no event log: it is for
    looking ahead, not for showing to anyone.
    """
    rules = rules or Rules.from_dict(view["rules"])
    cls: Any = game_class(rules)
    game: Game = cls.from_view(view, hidden, rules=rules, seed=seed, log=log, rng=rng)
    return game


__all__ = ["from_view", "game_class", "new_game", "replay"]
