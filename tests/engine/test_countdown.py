"""Countdown (RULES section 3, K1-K8)."""

from __future__ import annotations

import pytest

from crazy_eights import IllegalMove, Rules, new_game

from .helpers import deal_game, moves_text, shedding_cards


def test_k1_players_are_dealt_their_number_and_eights_start_wild() -> None:
    game = new_game(Rules.preset("countdown", players=6), seed=4)
    assert [game.hand_count(s) for s in range(6)] == [8] * 6
    assert game.numbers == [8] * 6
    assert sum(shedding_cards(game).values()) == 52
    view = game.view(0)
    assert [p["wild"] for p in view["players"]] == ["8"] * 6


def test_k1_start_setting_and_numbers_deal_that_many() -> None:
    game = deal_game(
        "countdown", [["3C", "4C", "5S"], ["9C"]], numbers=[3, 1], starter="KD", dealer=1
    )
    assert moves_text(game)  # seat 0 moves
    fresh = new_game(Rules.preset("countdown", players=3, start=4), seed=1)
    assert [fresh.hand_count(s) for s in range(3)] == [4, 4, 4]


def test_k2_the_starter_has_no_special_treatment() -> None:
    game = deal_game("countdown", [["3H", "4C"], ["9C", "8S"]], starter="8H", dealer=1)
    assert game.top_card == "8H" and game.active_suit == "H" and not game.declared
    assert game.current_player == 0
    assert "3H" in moves_text(game)


def test_k2_dealer_moves_clockwise_each_round() -> None:
    game = deal_game("countdown", [["3H"], ["9C"], ["4C"]], starter="5H", dealer=2)
    game.play("3H")
    assert game.round == 2 and game.dealer == 0 and game.current_player == 1


def test_k3_own_wild_rank_is_wild_and_others_wild_ranks_are_ordinary() -> None:
    game = deal_game(
        "countdown",
        [["5S", "8C", "KD"], ["5C", "9C"]],
        numbers=[5, 8],
        starter="KH",
    )
    legal = set(moves_text(game))
    # seat 0's wild rank is 5: 5S is wild; 8C is an ordinary card for seat 0
    assert {"5S:S", "5S:H", "5S:D", "5S:C", "KD", "draw"} == legal
    with pytest.raises(IllegalMove, match="does not match"):
        game.play("8C")


def test_k4_wild_needs_a_suit_and_no_rank_match_onto_a_declared_wild() -> None:
    game = deal_game(
        "countdown",
        [["5S", "KD", "3D"], ["5C", "9C", "7H", "QH"]],
        numbers=[5, 7],
        starter="KH",
    )
    with pytest.raises(IllegalMove, match="wild"):
        game.play("5S")
    game.play("5S:H")
    legal = set(moves_text(game))
    # seat 1 must follow hearts or play its own wild (7); 5C would be a rank match: refused
    assert legal == {"7H:S", "7H:H", "7H:D", "7H:C", "QH", "draw"}
    with pytest.raises(IllegalMove, match="declared suit"):
        game.play("5C")


def test_k4_a_rank_match_onto_a_declared_wild_is_allowed_when_it_is_your_own_wild() -> None:
    game = deal_game("countdown", [["5S", "KD", "3D"], ["5C", "9C"]], numbers=[5, 5], starter="KH")
    game.play("5S:H")
    assert "5C:H" in moves_text(game)


def test_k5_drawing_goes_on_one_draw_at_a_time_until_a_play() -> None:
    game = deal_game(
        "countdown",
        [["3C", "4C", "KD"], ["9C", "TS"]],
        stock=["JC", "QS", "9H", "2D"],
        starter="7H",
    )
    assert moves_text(game) == ["draw"]
    game.play("draw")
    assert game.current_player == 0 and moves_text(game) == ["draw"]
    game.play("draw")
    game.play("draw")
    assert game.current_player == 0
    assert set(moves_text(game)) == {"9H", "draw"}
    game.play("9H")
    assert game.current_player == 1


def test_k5_voluntary_draw_with_a_legal_card() -> None:
    game = deal_game("countdown", [["3H", "4C"], ["9C", "TS"]], stock=["JC", "QS"], starter="7H")
    assert set(moves_text(game)) == {"3H", "draw"}


def test_k5_empty_stock_is_rebuilt_then_pass_and_a_blockade_changes_nothing() -> None:
    game = deal_game(
        "countdown",
        [["3C", "4C"], ["9C", "TS"]],
        stock=[],
        starter="7H",
        discard=["KH"],
        numbers=[2, 2],
    )
    events = game.play("draw")
    assert [e.type for e in events] == ["reshuffled", "drew"]
    assert game.current_player == 0 and moves_text(game) == ["KH"]
    blocked = deal_game(
        "countdown", [["3C", "4C"], ["9C", "TS"]], stock=[], starter="7H", numbers=[2, 2]
    )
    blocked.play("pass")
    events = blocked.play("pass")
    over = next(e for e in events if e.type == "round_over")
    assert over.seat is None
    assert blocked.numbers == [2, 2] and blocked.round == 2 and blocked.dealer == 0
    assert [blocked.hand_count(s) for s in range(2)] == [2, 2]


def test_k6_round_winner_counts_down_and_no_points_are_scored() -> None:
    game = deal_game("countdown", [["3H"], ["9C", "TS"]], starter="7H", numbers=[6, 8])
    game.play("3H")
    assert game.numbers == [5, 8] and game.scores == [0, 0]
    assert [game.hand_count(s) for s in range(2)] == [5, 8]
    assert game.view(0)["players"][0]["wild"] == "5"


def test_k7_winning_with_number_one_wins_the_game_and_others_rank_by_number() -> None:
    game = deal_game("countdown", [["3H"], ["9C", "TS"], ["2C"]], starter="7H", numbers=[1, 4, 2])
    events = game.play("3H")
    assert game.is_over and game.result is not None
    assert game.result.winner == 0 and game.result.standings == (0, 2, 1)
    assert events[-1].type == "game_over"


def test_k8_last_card_off_by_default_and_manual_costs_two() -> None:
    off = deal_game("countdown", [["3H", "4H"], ["9C"]], starter="7H", numbers=[2, 1])
    assert moves_text(off) == ["3H", "4H", "draw"]
    manual = deal_game(
        "countdown",
        [["3H", "4H"], ["9C"]],
        starter="7H",
        numbers=[2, 1],
        stock=["JC", "QS"],
        last_card="manual",
    )
    assert "3H!" in moves_text(manual)
    manual.play("3H")
    assert manual.hand_count(0) == 3
