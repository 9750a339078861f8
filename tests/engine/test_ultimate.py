"""Ultimate (RULES section 2, U0-U10)."""

from __future__ import annotations

import pytest

from crazy_eights import IllegalMove, Rules, new_game
from crazy_eights.engine.cards import CARD_TEXT
from crazy_eights.engine.events import RoundOver

from .helpers import deal_game, moves_text, shedding_cards


def test_u0_action_cards_on_by_default_and_can_be_turned_off() -> None:
    assert Rules.preset("ultimate").action_cards is True
    plain = deal_game("ultimate", [["QD", "3H", "4H"], ["5C"], ["6D", "7D"]], action_cards=False)
    plain.play("QD")
    assert plain.current_player == 1


@pytest.mark.parametrize(
    "players,packs,size", [(2, 1, 7), (3, 1, 5), (5, 1, 5), (6, 2, 5), (8, 2, 5)]
)
def test_u1_deal_players_packs_and_hand_size(players: int, packs: int, size: int) -> None:
    game = new_game(Rules.preset("ultimate", players=players), seed=2)
    assert [game.hand_count(s) for s in range(players)] == [size] * players
    cards = shedding_cards(game)
    assert sum(cards.values()) == 52 * packs
    assert max(cards.values()) == packs


def test_u1_packs_setting_overrides_auto() -> None:
    game = new_game(Rules.preset("ultimate", players=3, packs=2), seed=2)
    assert sum(shedding_cards(game).values()) == 104


def test_u1_two_pack_duplicates_play_one_copy_at_a_time() -> None:
    game = deal_game(
        "ultimate", [["7H", "7H", "3C"], ["7S"], ["4S"], ["5S"], ["6S"], ["9S"]], starter="7D"
    )
    assert moves_text(game).count("7H") == 1
    game.play("7H")
    assert game.hand(0) == ["7H", "3C"] or sorted(game.hand(0)) == ["3C", "7H"]


def test_u2_starter_eight_is_declared_by_the_dealer() -> None:
    game = deal_game("ultimate", [["5C", "3H"], ["5H", "4H"], ["9S"]], starter="8D", dealer=1)
    assert game.current_player == 1
    assert moves_text(game) == ["8D:S", "8D:H", "8D:D", "8D:C"]
    with pytest.raises(IllegalMove, match="declare"):
        game.play("5H")
    events = game.play("8D:C")
    assert [e.type for e in events] == ["declared"]
    assert game.active_suit == "C" and game.declared and game.current_player == 2
    assert game.hand_count(1) == 2


def test_u2_dealer_may_declare_with_the_suit_alone() -> None:
    game = deal_game("ultimate", [["5C", "3H"], ["5H", "4H"]], starter="8D", dealer=1)
    game.play(":H")
    assert game.active_suit == "H" and game.current_player == 0
    assert game.moves == [":H"]


def test_u3_starter_two_makes_the_first_player_face_a_draw_two() -> None:
    game = deal_game("ultimate", [["5C", "3H"], ["5H", "2C", "4S"], ["9S"]], starter="2D", dealer=0)
    assert game.current_player == 1 and game.pending == 1
    assert moves_text(game) == ["2C", "draw"]


def test_u3_starter_queen_skips_the_first_player() -> None:
    game = deal_game("ultimate", [["5C", "3H"], ["5H", "4H"], ["9S"]], starter="QD", dealer=0)
    assert game.current_player == 2


def test_u3_starter_ace_reverses_so_the_dealers_right_plays_first() -> None:
    game = deal_game("ultimate", [["5C", "3H"], ["5H", "4H"], ["9S"]], starter="AD", dealer=0)
    assert game.direction == -1 and game.current_player == 2


def test_u4_drawing_one_card_ends_the_turn() -> None:
    game = deal_game("ultimate", [["5C", "3H"], ["5H", "4H"]], stock=["9D", "KS"])
    assert "draw" in moves_text(game)
    game.play("draw")
    assert game.current_player == 1 and game.hand_count(0) == 3


def test_u4_classic_policies_are_available() -> None:
    game = deal_game("ultimate", [["5C", "3H"], ["5H"]], stock=["9D"], draw_policy="single")
    game.play("draw")
    assert moves_text(game) == ["9D", "pass"]


def test_u5_queen_skips_and_with_two_players_plays_again() -> None:
    three = deal_game("ultimate", [["QD", "3H", "4H"], ["5C", "9C"], ["6D", "7D"]])
    three.play("QD")
    assert three.current_player == 2
    two = deal_game("ultimate", [["QD", "3H", "4H"], ["5C", "9C"]])
    two.play("QD")
    assert two.current_player == 0


def test_u6_ace_reverses_and_with_two_players_does_nothing() -> None:
    three = deal_game("ultimate", [["AD", "3H", "4H"], ["5C", "9C"], ["6D", "7D"]])
    events = three.play("AD")
    assert three.direction == -1 and three.current_player == 2
    assert "direction" in [e.type for e in events]
    two = deal_game("ultimate", [["AD", "3H", "4H"], ["5C", "9C"]])
    two.play("AD")
    assert two.direction == 1 and two.current_player == 1


def test_u7_twos_stack_and_the_penalty_grows() -> None:
    game = deal_game(
        "ultimate",
        [["2D", "3H", "4H"], ["2C", "9C", "KH"], ["6D", "7D", "8S"]],
        stock=["JS", "JH", "JC", "JD", "TS", "TH"],
    )
    game.play("2D")
    assert game.current_player == 1 and moves_text(game) == ["2C", "draw"]
    game.play("2C")
    assert game.pending == 2
    assert moves_text(game) == ["draw"]
    events = game.play("draw")
    assert [e.type for e in events] == ["penalty"] and len(events[0].cards) == 4
    assert game.hand_count(2) == 7 and game.current_player == 0 and game.pending == 0


def test_u7_eight_cannot_answer_a_pending_two() -> None:
    game = deal_game("ultimate", [["2D", "3H", "4H"], ["8C", "9C", "KH"]])
    game.play("2D")
    assert moves_text(game) == ["draw"]
    with pytest.raises(IllegalMove, match="eight cannot answer"):
        game.play("8C:H")


def test_u7_after_the_penalty_the_next_player_plays_on_the_last_two() -> None:
    game = deal_game(
        "ultimate",
        [["2D", "3H", "4H"], ["9C", "KH"], ["6D", "2S", "7C"]],
        stock=["JS", "JH"],
    )
    game.play("2D")
    game.play("draw")
    assert game.current_player == 2 and game.top_card == "2D"
    assert set(moves_text(game)) == {"6D", "2S", "draw"}


def test_u8_last_card_not_called_costs_two_before_the_next_turn() -> None:
    game = deal_game("ultimate", [["6C", "9D"], ["5H", "KC", "3S"]], stock=["KS", "QS"])
    events = game.play("9D")
    assert [e.type for e in events] == ["played", "penalty"]
    assert game.hand_count(0) == 3 and game.current_player == 1


def test_u9_empty_stock_reshuffles_the_discards_but_the_top_card() -> None:
    game = deal_game(
        "ultimate",
        [["3C", "4C"], ["9C", "KC"]],
        stock=[],
        starter="5D",
        discard=["7S", "6S", "2H"],
    )
    events = game.play("draw")
    assert [e.type for e in events] == ["reshuffled", "drew"]
    assert [CARD_TEXT[c] for c in game.discard] == ["5D"]
    assert len(game.stock) == 2 and game.hand_count(0) == 3


def test_u9_nothing_to_draw_then_pass_and_a_full_round_of_passes_is_a_blockade() -> None:
    game = deal_game(
        "ultimate", [["3C", "KS"], ["9C", "KC"]], stock=[], starter="5D", mode="single"
    )
    assert moves_text(game) == ["pass"]
    game.play("pass")
    game.play("pass")
    assert game.is_over and game.result is not None
    # seat 0: 3 + 10 = 13 points, seat 1: 9 + 10 = 19
    assert game.result.winner == 0


def test_u10_losers_score_penalty_points_and_the_lowest_total_wins() -> None:
    game = deal_game(
        "ultimate",
        [["5H"], ["8H", "KC", "3S"], ["AC", "2C"]],
        scores=[90, 40, 95],
    )
    events = game.play("5H")
    over = next(e for e in events if isinstance(e, RoundOver))
    assert over.points == (0, 63, 3)
    assert game.scores == [90, 103, 98]
    assert game.is_over and game.result is not None
    assert game.result.winner == 0 and game.result.standings == (0, 2, 1)


def test_u10_tie_for_lowest_goes_to_the_last_round_winner() -> None:
    game = deal_game("ultimate", [["5H"], ["KC", "TS"], ["3C"]], scores=[50, 95, 47])
    game.play("5H")
    assert game.scores == [50, 115, 50]
    assert game.result is not None and game.result.winner == 0


def test_u10_match_below_target_deals_a_new_round() -> None:
    game = deal_game("ultimate", [["5H"], ["KC"], ["3C"]])
    game.play("5H")
    assert not game.is_over and game.round == 2 and game.scores == [0, 10, 3]


def test_u9_a_locked_stock_mid_match_ends_the_round_as_a_blockade() -> None:
    game = deal_game("ultimate", [["3C", "KS"], ["9C", "KC"]], stock=[], starter="5D")
    game.play("pass")
    events = game.play("pass")
    over = next(e for e in events if isinstance(e, RoundOver))
    assert over.reason == "blockade" and over.seat == 0
    assert not game.is_over and game.round == 2
