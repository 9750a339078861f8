"""Classic (RULES section 1, C1-C11) and the shared model rules it exercises."""

from __future__ import annotations

import pytest

from crazy_eights import Deal, IllegalMove, Rules, new_game
from crazy_eights.engine.cards import CARD_TEXT, EIGHT, cards_of
from crazy_eights.engine.events import RoundOver

from .helpers import deal_game, moves_text, shedding_cards


@pytest.mark.parametrize("players,size", [(2, 7), (3, 5), (4, 5), (5, 5)])
def test_c1_deal_sizes_and_one_pack(players: int, size: int) -> None:
    game = new_game(Rules.preset("classic", players=players), seed=7)
    assert [game.hand_count(s) for s in range(players)] == [size] * players
    assert sum(shedding_cards(game).values()) == 52
    assert len(shedding_cards(game)) == 52


def test_c1_hand_size_setting() -> None:
    game = new_game(Rules.preset("classic", players=2, hand_size=5), seed=3)
    assert [game.hand_count(s) for s in range(2)] == [5, 5]


def test_c2_starter_eight_goes_back_into_the_middle_of_the_stock() -> None:
    stock = ["8H", "8C", "4S", "KD", "QC", "JD", "9H"]
    game = deal_game("classic", [["3C"], ["3D"]], stock=stock, starter=None)
    assert game.top_card == "4S"
    assert CARD_TEXT[game.discard[0]] == "4S"
    assert "8H" in [CARD_TEXT[c] for c in game.stock]
    assert game.stock[-1] != game.discard[0]


def test_c2_dealt_starters_are_never_eights() -> None:
    for seed in range(200):
        game = new_game(Rules.preset("classic", players=4, action_cards=True), seed=seed)
        assert game.top & 15 != EIGHT
        assert game.pending == 0 and game.direction == 1


def test_c2_starter_action_card_has_no_effect_in_classic() -> None:
    game = deal_game("classic", [["3C"], ["3D"], ["4D"]], starter="2D", dealer=0, action_cards=True)
    assert game.current_player == 1 and game.pending == 0
    assert game.hand_count(1) == 1


def test_c3_dealer_moves_clockwise_and_left_of_dealer_plays_first() -> None:
    rules = Rules.preset("classic", players=3, target=50)
    game = new_game(rules, seed=11)
    assert game.dealer == 0 and game.current_player == 1
    dealers = [game.dealer]
    while not game.is_over and len(dealers) < 4:
        round_no = game.round
        game.play(game.legal_moves()[0])
        if game.round != round_no and not game.is_over:
            dealers.append(game.dealer)
            assert game.current_player == (game.dealer + 1) % 3
    assert dealers[:3] == [0, 1, 2][: len(dealers[:3])]


def test_g2_next_means_clockwise_unless_reversed() -> None:
    game = deal_game(
        "classic", [["5C", "9S"], ["5H", "9H"], ["5S", "9C"]], dealer=2, action_cards=True
    )
    game.play("5C")
    assert game.current_player == 1
    game.direction = -1
    game.play("5H")
    assert game.current_player == 0


def test_c4_legal_play_is_suit_or_rank_or_eight() -> None:
    game = deal_game("classic", [["5S", "7D", "8C", "KH"], ["2C"]], starter="5D")
    assert set(moves_text(game)) == {"5S", "8C:S", "8C:H", "8C:D", "8C:C", "7D", "draw"}
    with pytest.raises(IllegalMove, match="does not match"):
        game.play("KH")
    with pytest.raises(IllegalMove, match="do not hold"):
        game.play("9D")


def test_c5_eight_needs_a_declared_suit_and_the_next_player_follows_it() -> None:
    game = deal_game("classic", [["8C", "3H", "4H"], ["5D", "4S", "8H"]], starter="5C")
    with pytest.raises(IllegalMove, match="declare"):
        game.play("8C")
    game.play("8C:S")
    assert game.active_suit == "S" and game.declared
    legal = moves_text(game)
    assert "4S" in legal and "8H:D" in legal and "5D" not in legal
    with pytest.raises(IllegalMove, match="declared suit"):
        game.play("5D")


def test_c5_declaring_the_eights_own_suit_is_allowed() -> None:
    game = deal_game("classic", [["8C", "3H"], ["5D"]], starter="5C")
    game.play("8C:C")
    assert game.active_suit == "C"


def test_c6_voluntary_draw_and_single_draw_policy() -> None:
    game = deal_game("classic", [["5S", "3H", "4H"], ["2C", "3C"]], stock=["9D", "KC"])
    assert "draw" in moves_text(game)
    game.play("draw")
    assert game.current_player == 0
    assert moves_text(game) == ["9D", "pass"]
    with pytest.raises(IllegalMove, match="drawn card"):
        game.play("5S")
    game.play("9D")
    assert game.current_player == 1


def test_c6_single_draw_of_an_unplayable_card_ends_the_turn() -> None:
    game = deal_game("classic", [["5S", "3H"], ["2C", "3C"]], stock=["KC", "9D"])
    game.play("draw")
    assert game.current_player == 1 and game.hand_count(0) == 3


def test_c6_voluntary_draw_off_only_when_no_legal_card() -> None:
    game = deal_game("classic", [["5S", "3H"], ["2C"]], stock=["KC"], voluntary_draw=False)
    assert "draw" not in moves_text(game)
    with pytest.raises(IllegalMove, match="voluntary"):
        game.play("draw")


def test_c6_until_playable_draws_until_a_legal_card_then_play_it() -> None:
    game = deal_game(
        "classic",
        [["3H", "4H"], ["2C"]],
        stock=["KC", "JS", "9D", "QH"],
        draw_policy="until_playable",
    )
    events = game.play("draw")
    drew = next(e for e in events if e.type == "drew")
    assert [CARD_TEXT[c] for c in drew.cards] == ["KC", "JS", "9D"]
    assert moves_text(game) == ["9D"]
    with pytest.raises(IllegalMove):
        game.play("pass")
    game.play("9D")
    assert game.current_player == 1


def test_c6_until_playable_with_stock_running_out_passes() -> None:
    game = deal_game("classic", [["3H", "4H"], ["2C"]], stock=["KC"], draw_policy="until_playable")
    game.play("draw")
    assert moves_text(game) == ["pass"]


def test_c7_blocked_stock_then_blockade_ends_the_round() -> None:
    game = deal_game(
        "classic",
        [["KH", "2H"], ["QH", "8S", "9H"], ["AS"]],
        stock=[],
        starter="5C",
        mode="single",
    )
    assert moves_text(game) == ["pass"]
    game.play("pass")
    assert moves_text(game) == ["8S:S", "8S:H", "8S:D", "8S:C"]
    game.play("8S:D")
    game.play("pass")
    game.play("pass")
    assert not game.is_over
    events = game.play("pass")
    assert game.is_over
    over = next(e for e in events if isinstance(e, RoundOver))
    assert over.reason == "blockade"
    assert game.result is not None and game.result.reason == "blockade"
    # lowest points: seat 2 has AS (1 point)
    assert game.result is not None and game.result.winner == 2


def test_c7_reshuffle_setting_rebuilds_the_stock_from_the_discards() -> None:
    game = deal_game(
        "classic",
        [["3D", "4D"], ["9C", "KC"]],
        stock=[],
        starter="5D",
        discard=["7S", "6S"],
        stock_empty="reshuffle",
    )
    events = game.play("draw")
    assert any(e.type == "reshuffled" for e in events)
    assert [CARD_TEXT[c] for c in game.discard] == ["5D"]
    assert sum(shedding_cards(game).values()) == 7


def test_c8_action_cards_off_by_default_in_classic() -> None:
    game = deal_game("classic", [["2D", "3H"], ["5C", "9C"], ["4C", "6C"]])
    game.play("2D")
    assert game.current_player == 1 and game.hand_count(1) == 2


def test_c8_two_makes_the_next_player_draw_two_and_lose_the_turn() -> None:
    game = deal_game(
        "classic",
        [["2D", "3H", "4H"], ["5C", "9C"], ["4C", "6C"]],
        stock=["KS", "QS", "JS"],
        action_cards=True,
    )
    events = game.play("2D")
    assert [e.type for e in events] == ["played", "penalty", "skipped"]
    assert game.hand_count(1) == 4 and game.current_player == 2


def test_c8_queen_skips_and_ace_reverses() -> None:
    game = deal_game("classic", [["QD", "3H"], ["5C", "9C"], ["4D", "AD", "7C"]], action_cards=True)
    game.play("QD")
    assert game.current_player == 2
    game.play("AD")
    assert game.direction == -1 and game.current_player == 1


def test_c8_two_players_queen_plays_again_and_ace_does_nothing() -> None:
    game = deal_game("classic", [["QD", "AD", "3H"], ["5C", "9C"]], action_cards=True)
    game.play("QD")
    assert game.current_player == 0
    game.play("AD")
    assert game.direction == 1 and game.current_player == 1


def test_c9_last_card_must_be_called_or_two_cards_are_drawn() -> None:
    game = deal_game("classic", [["6C", "9D"], ["5H", "KC", "3S"]], stock=["KS", "QS", "JS"])
    assert moves_text(game) == ["9D", "9D!", "draw"]
    events = game.play("9D")
    assert [e.type for e in events] == ["played", "penalty"]
    assert game.hand_count(0) == 3


def test_c9_called_last_card_is_not_penalised() -> None:
    game = deal_game("classic", [["6C", "9D"], ["5H", "KC", "3S"]], stock=["KS", "QS"])
    events = game.play("9D!")
    assert [e.type for e in events] == ["played", "last_card"]
    assert game.hand_count(0) == 1


def test_c9_auto_and_off_last_card() -> None:
    auto = deal_game("classic", [["6C", "9D"], ["5H"]], last_card="auto")
    assert moves_text(auto) == ["9D", "draw"]
    assert [e.type for e in auto.play("9D")] == ["played", "last_card"]
    off = deal_game("classic", [["6C", "9D"], ["5H"]], last_card="off")
    assert [e.type for e in off.play("9D")] == ["played"]


def test_g7_false_call_is_ignored_outside_cycles() -> None:
    game = deal_game("classic", [["5C", "9D", "3D"], ["5H", "KC"]])
    assert "9D!" not in moves_text(game)
    events = game.play("9D!")
    assert [e.type for e in events] == ["played"]
    assert game.hand_count(0) == 2 and game.moves == ["9D!"]


def test_c10_playing_the_last_card_ends_the_round_at_once() -> None:
    game = deal_game("classic", [["2D"], ["5C", "KC", "8H"]], action_cards=True, mode="single")
    events = game.play("2D")
    assert game.is_over and [e.type for e in events] == ["played", "round_over", "game_over"]
    assert game.hand_count(1) == 3


def test_c10_blockade_ties_go_to_fewer_cards_then_clockwise_from_dealers_left() -> None:
    game = deal_game(
        "classic",
        [["KH"], ["5H", "5S"], ["TH"]],
        stock=[],
        starter="2C",
        dealer=1,
        mode="single",
    )
    for _ in range(3):
        game.play("pass")
    # seat 0 and seat 2 both hold 10 points in one card; seat 2 is left of dealer 1
    assert game.result is not None and game.result.winner == 2


def test_c11_winner_scores_the_cards_left_and_match_goes_to_target() -> None:
    game = deal_game("classic", [["5H"], ["8H", "KC", "3S"], ["AC"]], target=60, scores=[0, 0, 0])
    game.play("5H")
    assert game.scores == [64, 0, 0]
    assert game.is_over and game.result is not None
    assert game.result.winner == 0 and game.result.points == (64, 0, 0)


def test_c11_match_continues_below_the_target_with_a_new_deal() -> None:
    game = deal_game("classic", [["5H"], ["3S"], ["AC"]], scores=[10, 0, 0])
    events = game.play("5H")
    assert not game.is_over and game.scores == [14, 0, 0] and game.round == 2
    assert [e.type for e in events][:3] == ["played", "round_over", "round"]
    assert game.dealer == 0 and game.current_player == 1
    assert sum(shedding_cards(game).values()) == 52


def test_c11_single_mode_ends_after_one_round() -> None:
    game = deal_game("classic", [["5H"], ["3S"]], mode="single")
    game.play("5H")
    assert game.is_over and game.result is not None and game.result.winner == 0


def test_c11_target_must_be_in_range() -> None:
    assert Rules.preset("classic", target=200).target == 200
    with pytest.raises(ValueError, match="target"):
        Rules.preset("classic", target=49)


def test_c1_deal_matches_the_conservation_of_one_pack_over_a_match() -> None:
    game = new_game(Rules.preset("classic", players=4, target=100), seed=5)
    while not game.is_over:
        game.play(game.legal_moves()[-1])
        assert sum(shedding_cards(game).values()) == 52


def test_c4_explicit_deal_lists_cards() -> None:
    deal = Deal(hands=[["5S"], ["6S"]], stock=["7S"], starter="5H")
    game = new_game(Rules.preset("classic", players=2), deal=deal)
    assert game.view(0)["hand"] == ["5S"]
    assert [CARD_TEXT[c] for c in cards_of(game.hands[1])] == ["6S"]


def test_g3_timeout_draws_if_allowed_else_passes() -> None:
    game = deal_game("classic", [["5S", "3H"], ["2C", "3C"]], stock=["KC", "9H"])
    assert "timeout" not in moves_text(game)
    events = game.play("timeout")
    assert [e.type for e in events] == ["timeout", "drew"]
    assert game.current_player == 1 and game.moves == ["timeout"]
    blocked = deal_game("classic", [["KH", "3H"], ["2C", "3C"]], stock=[], starter="5C")
    assert [e.type for e in blocked.play("timeout")] == ["timeout", "passed"]


def test_g3_timeout_declares_the_starter_eights_own_suit_for_an_absent_dealer() -> None:
    game = deal_game("ultimate", [["5C", "3H"], ["5H", "4H"]], starter="8D", dealer=1)
    game.play("timeout")
    assert game.active_suit == "D" and game.current_player == 0


def test_g3_illegal_moves_are_refused_with_a_reason_and_change_nothing() -> None:
    game = deal_game("classic", [["5S", "3H"], ["2C", "3C"]], stock=["KC"])
    before = game.view(0, log=True)
    for bad, words in [
        ("9X", "not a move"),
        ("KH", "do not hold"),
        ("3H", "does not match"),
        ("pass", "cannot pass"),
        (":H", "no starter eight"),
    ]:
        with pytest.raises(IllegalMove, match=words):
            game.play(bad)
    assert game.view(0, log=True) == before and game.moves == []
    game.play("5S")
    with pytest.raises(IllegalMove):
        game.play("5S")


def test_c7_a_locked_stock_mid_match_ends_the_round_as_a_blockade() -> None:
    """The round summary of a match round that the locked stock ended says "blockade",
    and the match goes on to the next round."""
    game = deal_game("classic", [["KH", "2H"], ["QH", "9H"]], stock=[], starter="5C", mode="match")
    game.play("pass")
    events = game.play("pass")
    over = next(e for e in events if isinstance(e, RoundOver))
    assert over.reason == "blockade" and over.for_seat(None)["reason"] == "blockade"
    assert over.target == 500 and not game.is_over and game.round == 2
