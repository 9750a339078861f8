"""Helpers shared by the engine tests: set up positions and check invariants."""

from __future__ import annotations

from collections import Counter
from typing import Any

from crazy_eights import Deal, Rules, new_game
from crazy_eights.engine.cards import CARD_TEXT, cards_of
from crazy_eights.engine.game import Game
from crazy_eights.engine.shedding import SheddingGame


def deal_game(
    ruleset: str,
    hands: list[list[str]],
    *,
    stock: list[str] | None = None,
    starter: str | None = "5D",
    dealer: int | None = None,
    **settings: Any,
) -> SheddingGame:
    """A shedding game from an explicit deal; by default seat 0 plays first."""
    players = len(hands)
    deal_settings = {
        k: settings.pop(k) for k in ("scores", "numbers", "discard", "round") if k in settings
    }
    rules = Rules.preset(ruleset, players=players, **settings)
    if stock is None:
        used = (
            {c for hand in hands for c in hand} | {starter} | set(deal_settings.get("discard", ()))
        )
        stock = [c for c in ("JH", "JD", "JC", "JS", "TC", "TS", "6H", "6D") if c not in used][:6]
    deal = Deal(
        hands=hands,
        stock=stock,
        starter=starter,
        dealer=players - 1 if dealer is None else dealer,
        **deal_settings,
    )
    game = new_game(rules, deal=deal)
    assert isinstance(game, SheddingGame)
    return game


def shedding_cards(game: SheddingGame) -> Counter[str]:
    """Every card of a shedding game wherever it is (G6)."""
    cards: Counter[str] = Counter()
    for hand in game.hands:
        cards.update(CARD_TEXT[c] for c in cards_of(hand))
    cards.update(CARD_TEXT[c] for c in game.stock)
    cards.update(CARD_TEXT[c] for c in game.discard)
    return cards


def moves_text(game: Game) -> list[str]:
    return [m.text for m in game.legal_moves()]


def visible_cards(view: dict[str, Any]) -> set[str]:
    """Every card text anywhere in a view (keys and values, nested)."""
    found: set[str] = set()
    card_texts = set(CARD_TEXT.values())

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for value in node.values():
                walk(value)
        elif isinstance(node, (list, tuple)):
            for value in node:
                walk(value)
        elif isinstance(node, str):
            body = node.rstrip("!").split(":")[0]
            if body in card_texts:
                found.add(body)

    walk(view)
    return found
