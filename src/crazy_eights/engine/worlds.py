"""Determinizations: a playable game built from one seat's view plus sampled hidden cards.

Search bots (``bots/ismcts.py``) never see the referee's state; they sample the cards a
seat cannot see (the other hands and the order of the stock) consistently with the view
and ask this module for a ``Game`` they can play forward. The rules stay in the state
machines: this module only copies the public facts of the view into a fresh state.

A world starts with an empty event log and no move list: it is for looking ahead, not for
showing to anyone. Its generator is seeded with ``seed``, so reshuffles inside the world
are reproducible but unrelated to the table's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .cards import COPY, RANK_MASK, SUIT_MASK, SUITS, Card, Mask, parse_card
from .game import Game
from .rng import Rng
from .rules import Rules

CardLike = Card | str


def _card(value: CardLike) -> Card:
    return value if value.__class__ is int else parse_card(value)  # type: ignore[arg-type]


def _all_ints(cards: Sequence[CardLike]) -> bool:
    return all(c.__class__ is int for c in cards)


def _mask(cards: Sequence[CardLike]) -> Mask:
    mask = 0
    if _all_ints(cards):
        for card in cards:
            bit = 1 << card  # type: ignore[operator]
            mask |= (bit << COPY) if mask & bit else bit
        return mask
    for value in cards:
        bit = 1 << (value if value.__class__ is int else parse_card(value))  # type: ignore[arg-type]
        mask |= (bit << COPY) if mask & bit else bit
    return mask


def consecutive_passes(log: Sequence[dict[str, Any]] | None) -> int:
    """Passes in a row at the end of a round's event log (a blockade counts them)."""
    if not log:
        return 0
    count = 0
    for event in reversed(log):
        kind = event.get("type")
        if kind == "passed":
            count += 1
        elif kind in ("played", "declared", "round", "starter") or (
            kind in ("drew", "penalty") and event.get("count", 0)
        ):
            break
        elif kind == "penalty":
            # a penalty that found no card to draw counts as a pass
            count += 1
    return count


def world_from_view(
    rules: Rules,
    view: dict[str, Any],
    *,
    hands: Sequence[Sequence[CardLike]],
    stock: Sequence[CardLike],
    seed: int,
) -> Game:
    """A game in the position that ``view`` shows, with the hidden cards given.

    ``hands`` holds every seat's cards (card ids or text; the viewing seat's own hand
    included, and it must match the view); ``stock`` lists the stock top first, as
    ``Deal`` does. Public facts (top card, active suit, pending draw, direction, turn,
    scores, numbers) come from the view; blockade passes come from its log when present.
    """
    return WorldBuilder(rules, view).build(hands=hands, stock=stock, seed=seed)


class WorldBuilder:
    """Reads a view once, then builds many worlds from it cheaply (one per sample).

    ``check=False`` skips the card-count checks, for callers that sample correctly.
    """

    __slots__ = ("_base", "_check", "_cycles_base", "_own", "rules", "view")

    def __init__(self, rules: Rules, view: dict[str, Any], *, check: bool = True) -> None:
        self.rules = rules
        self.view = view
        self._check = check
        self._base: Any = None
        self._own: Mask | None = None
        self._cycles_base: Any = None
        if rules.family != "cycles":
            self._base = _shedding_base(rules, view)
            if view.get("seat") is not None and "hand" in view:
                self._own = _mask(view["hand"])

    def build(
        self,
        *,
        hands: Sequence[Sequence[CardLike]],
        stock: Sequence[CardLike],
        seed: int,
    ) -> Game:
        if self._base is None:
            return self._cycles(hands, stock, seed)
        return self._shedding(hands, stock, seed)

    def _cycles(
        self, hands: Sequence[Sequence[CardLike]], stock: Sequence[CardLike], seed: int
    ) -> Game:
        """The first world comes from ``CyclesGame.from_view`` (which checks it); later
        ones clone it with the new cards, unless the current player's forced card
        (Y9, Y14) depends on the sampled hand."""
        from . import cycles

        cached = self._cycles_base
        view = self.view
        simple = not view["forced"] or view.get("seat") == view.get("current")
        if cached is None or not simple or self._check:
            from_view = getattr(cycles.CyclesGame, "from_view")  # noqa: B009
            ids = [[_card(c) for c in h] for h in hands]
            game: Any = from_view(
                self.rules, view, hands=ids, stock=[_card(c) for c in stock], seed=seed
            )
            if simple and not self._check:
                self._cycles_base = game.clone()
            return game  # type: ignore[no-any-return]
        game = cached.clone()
        game.seed = seed
        game._rng = Rng(seed)
        game.hands = [_mask(h) for h in hands]
        cards = list(stock) if _all_ints(stock) else [_card(c) for c in stock]
        cards.reverse()
        game.stock = cards
        return game  # type: ignore[no-any-return]

    def _shedding(
        self, hands: Sequence[Sequence[CardLike]], stock: Sequence[CardLike], seed: int
    ) -> Game:
        base = self._base
        game = base.clone()
        game.seed = seed
        game._rng = Rng(seed)
        masks = [_mask(h) for h in hands]
        n = len(base.hands)
        if self._check:
            if len(masks) != n:
                raise ValueError(f"world has {len(masks)} hands for {n} players")
            players = self.view["players"]
            for seat in range(n):
                if masks[seat].bit_count() != players[seat]["cards"]:
                    raise ValueError(
                        f"seat {seat} holds {players[seat]['cards']} cards in the view, "
                        f"{masks[seat].bit_count()} in the world"
                    )
            own = self.view.get("seat")
            if own is not None and self._own is not None and masks[own] != self._own:
                raise ValueError("the viewing seat's hand differs from the view")
            if len(stock) != self.view["stock"]:
                raise ValueError(
                    f"the view has {self.view['stock']} stock cards, the world {len(stock)}"
                )
        game.hands = masks
        cards = list(stock) if _all_ints(stock) else [_card(c) for c in stock]
        cards.reverse()
        game.stock = cards
        if base.drawn == -2:
            # another seat's drawn card is hidden: the world lets it be its lowest card
            hand = masks[base.current]
            low = hand & -hand
            game.drawn = (low.bit_length() - 1) & 63
        return game  # type: ignore[no-any-return]


def _shedding_base(rules: Rules, view: dict[str, Any]) -> Any:
    """A shedding state holding every public fact of the view and no cards in hand."""
    if rules.ruleset == "openspiel":
        from .openspiel_rules import OpenSpielGame

        return OpenSpielGame.base_from_view(rules, view)
    from .shedding import PHASE_NAMES, SheddingGame, _config

    cfg = _config(rules)
    n = cfg.n
    players = view["players"]
    if len(players) != n:
        raise ValueError("the view is of a game with another number of players")
    game = SheddingGame(rules, 0, _blank=True)
    game._clear(rules, cfg)
    game.discard = [_card(c) for c in view["discard"]]
    game.top = game.discard[-1]
    game.suit = SUITS.index(view["active_suit"])
    game.declared = bool(view["declared"])
    if game.declared:
        game.follow = SUIT_MASK[game.suit]
    else:
        game.follow = SUIT_MASK[game.suit] | RANK_MASK[game.top & 15]
    game.pending = int(view["pending_draw"]) // 2
    game.direction = int(view["direction"])
    game.dealer = int(view["dealer"])
    game.round = int(view["round"])
    game.scores = [int(p["score"]) for p in players]
    if cfg.countdown:
        game.numbers = [int(p["number"]) for p in players]
        game._wild = [RANK_MASK[x - 1] for x in game.numbers]
    else:
        game.numbers = []
        game._wild = [RANK_MASK[7]] * n
    current = view["current"]
    game.phase = PHASE_NAMES.index(view["phase"])
    game.current = int(current) if current is not None else 0
    game.passes = consecutive_passes(view.get("log"))
    game.drawn = -1
    if view["phase"] == "drawn":
        drawn = view.get("drawn")
        game.drawn = -2 if drawn is None else _card(drawn)
    return game


def hand_counts(game: Game) -> list[int]:
    """Cards held by each seat (public facts, read without building a view)."""
    hands = getattr(game, "hands", None)
    if isinstance(hands, list):
        return [int(h.bit_count()) for h in hands]
    return [int(p["cards"]) for p in game.view(None)["players"]]


def hand_points(game: Game) -> list[int]:
    """G8 points of each seat's hand (the referee's knowledge: for worlds and the lab)."""
    points = getattr(game, "hand_points", None)
    if points is not None:
        return [int(points(s)) for s in range(game.rules.players)]
    return [0] * game.rules.players


__all__ = [
    "WorldBuilder",
    "consecutive_passes",
    "hand_counts",
    "hand_mask",
    "hand_points",
    "world_from_view",
]


def hand_mask(game: Game, seat: int) -> Mask:
    """The cards of ``seat`` in a world, as a hand mask (shedding worlds; 0 otherwise)."""
    hands = getattr(game, "hands", None)
    if isinstance(hands, list):
        return int(hands[seat])
    return 0
