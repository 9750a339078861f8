"""Reading the opponents' recent plays: which hands make them likely (``inference.py``)."""

from __future__ import annotations

import random

import pytest

from crazy_eights.bots import make_bot
from crazy_eights.bots.inference import play_log_likelihood, world_log_weight
from crazy_eights.bots.ismcts import IsmctsBot
from crazy_eights.bots.knowledge import hand_mask, knowledge_from_view
from crazy_eights.engine import Deal, Rules, new_game
from crazy_eights.engine.cards import parse_card

from .conftest import random_positions


def _mask(*cards: str) -> int:
    return hand_mask([parse_card(c) for c in cards])


def _after(moves: list[str], hands: tuple[tuple[str, ...], ...]) -> dict:
    """Seat 0's view after the moves, in a two-player classic round dealt ``hands``."""
    rules = Rules.preset("classic", players=2, mode="single")
    deal = Deal(hands=hands, stock=("2C", "3C", "4C", "5C", "6C"), starter="9S")
    game = new_game(rules, deal=deal)
    for move in moves:
        game.play(move)
    return game.view(0, log=True)


HANDS = (
    ("KH", "QH", "JH", "TH", "4D", "5D", "6D"),
    ("8C", "9D", "2H", "3H", "4H", "5H", "7S"),
)


def test_recent_plays_are_read_from_the_log_and_cleared_by_a_draw() -> None:
    # seat 1 moves first (the dealer is seat 0) and plays the 7S; seat 0, with no spade,
    # seven or eight, draws a club it can't play; seat 1 plays an eight for hearts
    view = _after(["7S", "draw", "8C:H"], HANDS)
    know = knowledge_from_view(view)
    assert [c for c, _s, _f in know.recent[1]] == [parse_card("7S"), parse_card("8C")]
    assert know.recent[1][1][1] == 2 - 1  # declared hearts: SUITS is S H D C
    assert know.recent[0] == []  # our own plays are not read
    view = _after(["7S", "draw", "8C:H", "draw"], HANDS)
    know = knowledge_from_view(view)
    assert know.recent[0] == [] and len(know.recent[1]) == 2


def test_an_eight_played_over_a_fitting_card_is_unlikely() -> None:
    """Seat 1 played an eight declaring hearts: a hand that still holds a spade (which it
    could have played instead) is less likely than one without, and one long in hearts
    more likely than one long in diamonds."""
    view = _after(["7S", "draw", "8C:H"], HANDS)
    know = knowledge_from_view(view)
    with_spade = play_log_likelihood(know, 1, _mask("9S", "2H", "3H", "4H", "5D"), 0.25)
    without = play_log_likelihood(know, 1, _mask("9D", "2H", "3H", "4H", "5D"), 0.25)
    diamonds = play_log_likelihood(know, 1, _mask("9D", "2D", "3D", "4H", "5D"), 0.25)
    assert with_spade < without
    assert diamonds < without
    assert play_log_likelihood(know, 1, _mask("9D"), 0.0) <= 0.0


@pytest.mark.parametrize(("name", "players"), [("classic", 2), ("ultimate", 2), ("classic", 4)])
def test_the_true_hands_are_likelier_than_random_deals(name: str, players: int) -> None:
    """Against heuristic players the hands they really hold weigh more than hands dealt
    at random from what the seat knows, in most positions with plays to read."""
    rules = Rules.preset(name, players=players, mode="single")
    rng = random.Random(4)
    ahead = total = 0
    for seed in range(30):
        game = new_game(rules, seed)
        bots = [make_bot("heuristic", seed=seed * 10 + s) for s in range(players)]
        while not game.is_over:
            seat = game.current_player
            assert seat is not None
            view = game.view(seat, log=True)
            know = knowledge_from_view(view)
            if any(know.recent):
                mine = world_log_weight(know, game.hands, 0.25)
                dealt = [
                    world_log_weight(know, [hand_mask(h) for h in know.sample(rng)[0]], 0.25)
                    for _ in range(10)
                ]
                ahead += mine > sum(dealt) / len(dealt)
                total += 1
            game.play(bots[seat].choose(view, game.legal_moves()))
    assert total > 100
    assert ahead / total > 0.7


def test_inference_plays_legal_moves_and_can_be_turned_off() -> None:
    assert IsmctsBot(seed=1).config.infer == 0.5
    bot = IsmctsBot(seed=1, iterations=120, infer=0.0)
    for game, seat, legal in random_positions(Rules.preset("ultimate", players=3), 6, seed=2):
        assert bot.choose(game.view(seat, log=True), legal) in legal
    with pytest.raises(ValueError, match="infer"):
        IsmctsBot(seed=1, infer=5.0)
