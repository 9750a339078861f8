"""The questions a table's client asks the engine instead of answering them itself
(issue 19, item 5): whether a last-card call counts now (``Game.call_matters`` and the
seat view's ``call_matters``), and what wins the game (``Rules.goal`` and the view's
``goal``). Each test is named after the rule it answers."""

from __future__ import annotations

from typing import Any

import pytest

from crazy_eights import Deal, Rules, new_game
from crazy_eights.engine.cycles import CyclesGame

from .helpers import deal_game


def cycles_game(hands: list[list[str]], **settings: Any) -> CyclesGame:
    rules = Rules.preset("cycles", players=len(hands), **settings)
    game = new_game(rules, 0, deal=Deal(hands=hands, stock=[], leader=0))
    assert isinstance(game, CyclesGame)
    return game


def test_g7_call_matters_with_two_cards_under_manual() -> None:
    game = deal_game("classic", [["6C", "9D"], ["5H", "7S", "KC"]])
    assert game.call_matters() is True  # seat 0 to move: a play leaves one card
    assert game.call_matters(0) is True
    assert game.call_matters(1) is False  # three cards: no play leaves one
    assert game.view(0)["call_matters"] is True
    assert game.view(1)["call_matters"] is False


def test_g7_call_matters_for_the_next_play_off_turn_too() -> None:
    # seat 1 holds two cards while seat 0 moves: a call armed now counts with its play
    game = deal_game("classic", [["6C", "9D", "4S"], ["5H", "7S"]])
    assert game.current_player == 0
    assert game.call_matters(1) is True
    assert game.call_matters(0) is False


def test_g7_call_matters_never_under_auto_or_off() -> None:
    for setting in ("auto", "off"):
        game = deal_game("classic", [["6C", "9D"], ["5H", "7S"]], last_card=setting)
        assert game.call_matters(0) is False
        assert game.call_matters(1) is False
        assert game.view(0)["call_matters"] is False


def test_g7_call_matters_is_no_spectator_fact() -> None:
    game = deal_game("classic", [["6C", "9D"], ["5H", "7S"]])
    assert "call_matters" not in game.view(None)


def test_g7_call_matters_not_once_the_game_is_over() -> None:
    game = deal_game("classic", [["5C"], ["5H", "7S"]], mode="single")
    game.play("5C")
    assert game.is_over
    assert game.call_matters(1) is False
    with pytest.raises(ValueError, match="name a seat"):
        game.call_matters()


def test_g7_call_matters_refuses_a_seat_that_is_not_there() -> None:
    game = deal_game("classic", [["6C", "9D"], ["5H", "7S"]])
    with pytest.raises(ValueError, match="seat must be"):
        game.call_matters(2)


def test_k8_call_matters_only_when_countdown_plays_last_card_by_hand() -> None:
    hands = [["6C", "9D"], ["5H", "7S", "KC"]]
    off = deal_game("countdown", hands, numbers=[2, 3])
    assert off.call_matters(0) is False  # K8: last_card=off by default
    manual = deal_game("countdown", hands, numbers=[2, 3], last_card="manual")
    assert manual.call_matters(0) is True


def test_y11_call_matters_with_two_cards_in_cycles() -> None:
    game = cycles_game([["5S", "6S"], ["7S", "8S", "9S"]])
    assert game.call_matters() is True
    assert game.view(0)["call_matters"] is True
    assert game.view(1)["call_matters"] is False
    # Y13: a call with three cards is a false call, so it does not matter (it costs)
    three = cycles_game([["5S", "6S", "7S"], ["7H", "8S", "9S"]])
    assert three.call_matters() is False
    assert any(m.call for m in three.legal_moves())  # listed, but it would be false


def test_c11_goal_names_the_match_target_or_the_single_round() -> None:
    assert Rules.preset("classic", players=3, target=150).goal == "first to 150 wins"
    single = Rules.preset("classic", players=3, mode="single").goal
    assert single == "single round: the first out wins"
    game = deal_game("classic", [["6C", "9D"], ["5H", "7S"]], target=200)
    assert game.view(None)["goal"] == game.view(0)["goal"] == "first to 200 wins"


def test_u10_goal_says_the_lowest_penalty_total_wins() -> None:
    assert Rules.preset("ultimate", players=4).goal == "penalty points; at 100 the lowest wins"
    single = Rules.preset("ultimate", players=4, mode="single").goal
    assert single == "single round: the first out wins"


def test_k7_goal_is_a_round_won_on_number_one() -> None:
    assert Rules.preset("countdown", players=3).goal == "win a round on number 1 to win"
    single = Rules.preset("countdown", players=3, mode="single").goal
    assert single == "single round: the first out wins"


def test_y17_goal_is_going_out_or_the_lowest_hand() -> None:
    goal = Rules.preset("cycles", players=3).goal
    assert goal == "the first out wins, else the lowest hand when the cycles run out"
    assert cycles_game([["5S", "6S"], ["7S", "8S", "9S"]]).view(1)["goal"] == goal


def test_os10_goal_is_one_round_out_or_fewest_points() -> None:
    rules = Rules.preset("openspiel", players=2)
    assert rules.goal == "one round: the first out wins, else the fewest points"
    assert new_game(rules, seed=3).view(0)["goal"] == rules.goal
