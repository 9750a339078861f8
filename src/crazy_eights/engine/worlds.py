"""Determinizations: playable games built from one seat's view plus sampled hidden cards.

Search bots (``bots/ismcts.py``) never see the referee's state; they sample the cards a
seat cannot see (the other hands and the order of the stock) consistently with the view
and ask for a ``Game`` they can play forward. The state machines do the work
(``from_view``, ``set_hidden``); this module only builds the first world of a view once
and the later ones as copies with other hidden cards, which is much cheaper.

A world keeps no event log and no move list from before: it is for looking ahead, not
for showing to anyone. Its generator is seeded with ``seed``, so reshuffles inside the
world are reproducible but unrelated to the table's.
"""

from __future__ import annotations

from collections.abc import Sequence

from .game import CardLike, Game, Hidden
from .registry import from_view
from .rules import Rules
from .views import CyclesView, SheddingView


def world_from_view(
    rules: Rules,
    view: SheddingView | CyclesView,
    *,
    hands: Sequence[Sequence[CardLike]],
    stock: Sequence[CardLike],
    seed: int,
) -> Game:
    """A game in the position that ``view`` shows, with the hidden cards given (every
    seat's hand, the viewer's included, and the stock top first; see ``Hidden``)."""
    return from_view(view, Hidden(hands=hands, stock=stock), rules=rules, seed=seed)


class WorldBuilder:
    """Reads a view once, then builds many worlds from it cheaply (one per sample).

    ``check=False`` skips the card-count checks of every world after the first, for
    callers that sample correctly.
    """

    __slots__ = ("_first", "check", "rules", "view")

    def __init__(
        self, rules: Rules, view: SheddingView | CyclesView, *, check: bool = True
    ) -> None:
        self.rules = rules
        self.view = view
        self.check = check
        self._first: Game | None = None

    def build(
        self,
        *,
        hands: Sequence[Sequence[CardLike]],
        stock: Sequence[CardLike],
        seed: int,
    ) -> Game:
        hidden = Hidden(hands=hands, stock=stock)
        first = self._first
        if first is None:
            world = from_view(self.view, hidden, rules=self.rules, seed=seed)
            self._first = world.clone()
            return world
        world = first.clone()
        world.set_hidden(hidden, seed=seed, check=self.check)
        return world


__all__ = ["WorldBuilder", "world_from_view"]
