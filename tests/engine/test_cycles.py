"""Rules of cycles (RULES section 4, Y1-Y17, and T1-T3), one test or more per rule.

Each test sets up an explicit ``Deal`` (hands, stock top first, leader) so the rule is
exercised precisely.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

import pytest

from crazy_eights.engine import (
    Deal,
    Event,
    Hidden,
    IllegalMove,
    Rules,
    RulesError,
    new_game,
    replay,
)
from crazy_eights.engine.cards import ALL_CARDS, CARD_TEXT, parse_card
from crazy_eights.engine.cycles import FULL_DECK, POWER, VALUE, CyclesGame, rank_key
from crazy_eights.engine.events import (
    HOST,
    CycleOver,
    CycleWon,
    Drew,
    FalseCall,
    FirstPlayer,
    GameOver,
    JokerToBottom,
    LastCardCalled,
    PenaltyDrawn,
    PickedUp,
    Played,
)

T = TypeVar("T", bound=Event)


def make(
    hands: Sequence[Sequence[str]],
    stock: Sequence[str] = (),
    *,
    leader: int | None = None,
    cycles_left: int | None = None,
    removed: Sequence[str] = (),
    seed: int = 0,
    **settings: Any,
) -> CyclesGame:
    rules = Rules.preset("cycles", players=len(hands), **settings)
    deal = Deal(hands=hands, stock=stock, leader=leader, cycles_left=cycles_left, removed=removed)
    game = new_game(rules, seed, deal=deal)
    assert isinstance(game, CyclesGame)
    return game


def plain_legal(game: CyclesGame) -> set[str]:
    """The legal moves without the last-card variants."""
    return {m.text for m in game.legal_moves() if not m.call}


def types(events: Sequence[Event]) -> list[str]:
    return [e.type for e in events]


def find(events: Sequence[Event], kind: type[T]) -> T:
    found = [e for e in events if isinstance(e, kind)]
    assert found, f"no {kind.type} event in {types(events)}"
    return found[0]


def log_types(game: CyclesGame) -> list[str]:
    return [e["type"] for e in game.view(None, log=True)["log"]]


# -- Y1 deck and deal ---------------------------------------------------------------------


def test_y1_deck_has_55_cards_and_five_each() -> None:
    game = new_game(Rules.preset("cycles", players=4), 7)
    assert isinstance(game, CyclesGame)
    deals = [e for e in game.log if e.type == "deal"]
    assert [len(e.cards) for e in deals] == [5, 5, 5, 5]
    dealt = [c for e in deals for c in e.cards]
    assert len(set(dealt)) == 20
    everything = [c for h in game.hands for c in range(64) if h >> c & 1]
    everything += game.stock + game.cycle_cards
    everything += [c for c in range(64) if game.removed >> c & 1]
    assert sorted(everything) == sorted(ALL_CARDS)
    assert {"BJ", "RJ", "JK"} <= {CARD_TEXT[c] for c in everything}


def test_y1_eleven_players_leave_no_stock() -> None:
    game = new_game(Rules.preset("cycles", players=11), 3)
    assert isinstance(game, CyclesGame)
    assert game.view(None)["stock"] == 0
    assert [p["cards"] for p in game.view(None)["players"]] == [5] * 11


def test_y1_two_to_eleven_players() -> None:
    for n in (2, 11):
        new_game(Rules.preset("cycles", players=n), 1)
    for n in (1, 12):
        with pytest.raises(RulesError, match="players must be 2 to 11"):
            Rules.preset("cycles", players=n)


def test_y1_a_deal_may_not_use_a_card_twice() -> None:
    with pytest.raises(ValueError, match="dealt twice"):
        make([["5S", "6S"], ["5S", "7S"]], leader=0)


# -- Y2 values ----------------------------------------------------------------------------


def test_y2_card_values() -> None:
    expected = {
        "2S": 2, "9H": 9, "TD": 10, "JC": 10, "QS": 10, "KH": 10,
        "AS": 11, "BJ": 11, "RJ": 11, "JK": 12,
    }  # fmt: skip
    for text, value in expected.items():
        assert VALUE[parse_card(text)] == value
    game = make([["AS", "JK", "2H"], ["TD", "KC", "3S"]], leader=0)
    assert game.hand_value(0) == 25
    assert game.hand_value(1) == 23


def test_y2_points_of_the_result_are_hand_values() -> None:
    game = make([["5S"], ["AS", "JK", "2H"]], leader=0)
    game.play("5S")
    assert game.result is not None
    assert game.result.points == (0, 25)


# -- Y3 power -----------------------------------------------------------------------------


def test_y3_power_order() -> None:
    order = ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"]
    powers = [POWER[parse_card(t)] for t in order]
    assert powers == sorted(powers) and len(set(powers)) == 13
    assert POWER[parse_card("BJ")] == POWER[parse_card("RJ")] > POWER[parse_card("AS")]
    assert POWER[parse_card("JK")] > POWER[parse_card("BJ")]


def test_y3_ace_beats_king_and_the_highest_card_wins() -> None:
    game = make([["KS", "2H", "3D"], ["AS", "3H", "4D"], ["2S", "4H", "5D"]], leader=0)
    game.play_all(["KS", "AS", "2S"])
    assert game.current_player == 1
    assert game.view(None)["phase"] == "lead"


def test_y3_jokers_beat_aces_and_the_joker_beats_all() -> None:
    game = make([["AC", "2H", "3D"], ["BJ", "3H", "4D"], ["2C", "4H", "5D"]], leader=0)
    game.play_all(["AC", "BJ", "2C"])
    assert game.current_player == 1
    game = make([["AS", "2H", "3D"], ["BJ", "3H", "4D"], ["JK", "4H", "5D"]], leader=0)
    game.play_all(["AS", "BJ", "JK"])
    assert game.current_player == 2


# -- Y4 order of players ------------------------------------------------------------------


def _first_player(hands: list[list[str]], seed: int = 0) -> tuple[int, FirstPlayer]:
    game = make(hands, ["7C", "8C", "9C", "TC"], seed=seed)
    event = find(game.log, FirstPlayer)
    return event.seat, event


def test_y4_lowest_total_plays_first() -> None:
    seat, event = _first_player([["KC", "QS"], ["3C", "4H"], ["5C", "6H"]])
    assert seat == 1
    assert event.tie_break is False


def test_y4_equal_totals_lowest_card_first() -> None:
    seat, _ = _first_player([["5C", "6H"], ["4C", "7H"], ["2C", "9S"]])
    assert seat == 2


def test_y4_equal_totals_and_lowest_higher_peak_loses() -> None:
    assert rank_key(0) == (0, 0, 0)
    seat, _ = _first_player([["2C", "3S", "6H"], ["2D", "4C", "5H"], ["3C", "8H"]])
    assert seat == 1


def test_y4_exact_tie_is_a_seeded_random_choice() -> None:
    hands = [["2C", "5S"], ["2S", "5C"], ["KC", "QH"]]
    chosen = {_first_player(hands, seed)[0] for seed in range(40)}
    assert chosen == {0, 1}
    for seed in range(5):
        assert _first_player(hands, seed)[0] == _first_player(hands, seed)[0]
    assert _first_player(hands, 3)[1].tie_break is True


# -- Y5 cycles ----------------------------------------------------------------------------


def test_y5_cycle_is_clockwise_from_the_leader() -> None:
    game = make([["5S", "2H", "3H"], ["9S", "4H", "5H"], ["7S", "6H", "7H"]], leader=1)
    game.play("9S")
    assert game.current_player == 2
    game.play("7S")
    assert game.current_player == 0
    assert game.view(None)["turns_left"] == 1


def test_y5_completed_cycle_removes_cards_and_highest_leads() -> None:
    game = make([["5S", "2H", "3H"], ["9S", "4H", "5H"], ["7S", "6H", "7H"]], leader=0)
    before = game.cycles_left
    events = game.play_all(["5S", "9S", "7S"])
    won = find(events, CycleWon)
    assert won.seat == 1 and won.winner == 1
    assert sorted(game.removed_cards()) == ["5S", "7S", "9S"]
    view = game.view(None)
    assert view["cycle"] == [] and view["removed"] == ["5S", "7S", "9S"]
    assert game.current_player == 1 and view["phase"] == "lead"
    assert game.cycles_left == before - 1
    assert [game.hand_count(s) for s in range(3)] == [2, 2, 2]


# -- Y6 following -------------------------------------------------------------------------


def test_y6_follow_the_lead_suit_or_a_joker_of_its_colour() -> None:
    hands = [["5S", "2H", "3H"], ["3S", "9S", "BJ", "RJ", "JK", "4H"]]
    game = make(hands, leader=0)
    game.play("5S")
    assert plain_legal(game) == {"3S", "9S", "BJ", "JK"}
    with pytest.raises(IllegalMove, match="does not follow"):
        game.play("4H")
    with pytest.raises(IllegalMove, match="does not follow"):
        game.play("RJ")
    game = make(hands, leader=0)
    game.play("2H")
    assert plain_legal(game) == {"4H", "RJ", "JK"}


def test_y6_any_fitting_card_may_be_chosen() -> None:
    game = make([["5S", "2H", "3H"], ["3S", "9S", "JK", "4H"]], leader=0)
    game.play("5S")
    game.play("3S")
    assert game.current_player == 0  # the lower card was allowed; the leader's 5S won


def test_y6_a_follower_declares_no_suit() -> None:
    game = make([["5S", "2H", "3H"], ["3S", "JK", "4H"]], leader=0)
    game.play("5S")
    with pytest.raises(IllegalMove, match="only a leader declares"):
        game.play("JK:S")


# -- Y7 leading ---------------------------------------------------------------------------


def test_y7_leader_plays_any_card_jokers_declare_their_colour() -> None:
    game = make([["BJ", "RJ", "JK", "5S", "6D"], ["7H", "8H", "9C"]], leader=0)
    assert plain_legal(game) == {
        "BJ:S", "BJ:C", "RJ:H", "RJ:D", "JK:S", "JK:H", "JK:D", "JK:C", "5S", "6D",
    }  # fmt: skip
    with pytest.raises(IllegalMove, match="needs a declared suit"):
        game.play("BJ")
    with pytest.raises(IllegalMove, match="of its colour"):
        game.play("BJ:H")
    with pytest.raises(IllegalMove, match="only a led joker declares"):
        game.play("5S:H")


def test_y7_declared_suit_is_the_lead_suit() -> None:
    game = make([["BJ", "RJ", "JK", "5S", "6D"], ["7H", "8H", "9C"]], leader=0)
    events = game.play("JK:H")
    assert find(events, Played).lead and find(events, Played).declared == 1
    assert game.view(None)["lead_suit"] == "H"
    assert plain_legal(game) == {"7H", "8H"}


# -- Y8 host-led cycles -------------------------------------------------------------------


def test_y8_host_turns_the_lead_and_first_player_of_y4_starts() -> None:
    hands = [["KC", "QS", "JS"], ["4C", "9H", "8H"], ["2C", "3H", "4H"]]
    game = make(hands, ["7C", "5D", "6D"])
    view = game.view(None)
    assert view["leader"] == "host" and view["host_card"] == "7C"
    assert view["cycle"] == [{"seat": "host", "card": "7C"}]
    assert view["lead_suit"] == "C" and view["turns_left"] == 3
    assert game.current_player == 2
    game.play("2C")
    assert game.current_player == 0
    game.play("KC")
    assert game.current_player == 1
    events = game.play("4C")
    assert find(events, CycleWon).seat == 0
    assert game.current_player == 0 and game.view(None)["phase"] == "lead"
    assert sorted(game.removed_cards()) == ["2C", "4C", "7C", "KC"]


def test_y8_nobody_beats_the_host_so_the_host_leads_again() -> None:
    hands = [["KC", "QS", "JS"], ["4C", "9H", "8H"], ["2C", "3H", "4H"]]
    game = make(hands, ["AC", "5H", "6D"])
    events = game.play_all(["2C", "KC", "4C"])
    assert find(events, CycleWon).winner == HOST
    assert find(events, CycleWon).public()["winner"] == "host"
    view = game.view(None)
    assert view["leader"] == "host" and view["host_card"] == "5H"
    assert view["stock"] == 1
    assert game.current_player == 2  # Y4 again, from the hands of now: 3H 4H is lowest


def test_y8_a_turned_joker_goes_to_the_bottom() -> None:
    game = make([["2C", "3H"], ["4C", "9H"]], ["JK", "RJ", "7C", "5D"])
    assert game.view(None)["host_card"] == "7C"
    assert game.stock_cards() == ["5D", "JK", "RJ"]
    buried = [e for e in game.log if isinstance(e, JokerToBottom)]
    assert [CARD_TEXT[e.card] for e in buried] == ["JK", "RJ"]
    assert all("cards" in e.public() for e in buried)


def test_y8_empty_stock_first_player_of_y4_leads() -> None:
    game = make([["KC", "QS"], ["3C", "4H"], ["5C", "6H"]])
    assert "host_cannot_lead" in log_types(game)
    assert game.current_player == 1
    view = game.view(None)
    assert view["phase"] == "lead" and view["leader"] == 1 and view["host_card"] is None


def test_y8_a_stock_of_jokers_only_counts_as_empty() -> None:
    game = make([["KC", "QS"], ["3C", "4H"]], ["JK"])
    assert game.current_player == 1 and game.view(None)["phase"] == "lead"
    assert game.stock_cards() == ["JK"]


def test_y8_eleven_players_start_with_the_first_player_leading() -> None:
    for seed in range(5):
        game = new_game(Rules.preset("cycles", players=11), seed)
        assert isinstance(game, CyclesGame)
        view = game.view(None)
        assert view["phase"] == "lead" and view["host_card"] is None
        seat = game.current_player
        assert seat is not None
        keys = [rank_key(h) for h in game.hands]
        assert keys[seat] == min(keys)


# -- Y9 no fitting card -------------------------------------------------------------------


def test_y9_draw_until_a_fitting_card_which_must_be_played() -> None:
    game = make(
        [["5S", "2H", "3H"], ["4H", "5H", "6H"], ["7S", "8H", "9H"]],
        ["2D", "3D", "9S", "4D"],
        leader=0,
    )
    events = game.play("5S")
    drew = find(events, Drew)
    assert drew.seat == 1 and [CARD_TEXT[c] for c in drew.cards] == ["2D", "3D", "9S"]
    assert drew.public() == {"type": "drew", "seat": 1, "count": 3, "reason": "no_fitting_card"}
    assert drew.for_seat(1)["cards"] == ["2D", "3D", "9S"]
    assert [m.text for m in game.legal_moves()] == ["9S", "9S!"]
    assert game.view(1)["forced_card"] == "9S"
    assert game.view(0)["forced"] is True and "forced_card" not in game.view(0)
    assert game.stock_cards() == ["4D"]
    with pytest.raises(IllegalMove, match="only legal play"):
        game.play("4H")
    game.play("9S")
    assert game.current_player == 2


def test_y9_a_drawn_joker_of_the_right_colour_fits() -> None:
    game = make([["5S", "2H", "3H"], ["4H", "5H", "6H"]], ["RJ", "BJ", "4D"], leader=0)
    game.play("5S")
    assert [m.text for m in game.legal_moves() if not m.call] == ["BJ"]
    assert game.hand_count(1) == 5


# -- Y10 stock exhausted ------------------------------------------------------------------


def test_y10_only_the_lead_on_the_table_the_leader_leads_again() -> None:
    game = make([["5S", "2H", "3H"], ["4H", "5H", "6H"], ["7S", "8H", "9H"]], leader=0)
    before = game.cycles_left
    events = game.play("5S")
    picked = find(events, PickedUp)
    assert picked.seat == 1 and [CARD_TEXT[c] for c in picked.cards] == ["5S"]
    assert picked.public()["cards"] == ["5S"]
    assert sorted(game.hand(1)) == ["4H", "5H", "5S", "6H"]
    assert game.removed_cards() == []
    assert game.current_player == 0 and game.view(None)["phase"] == "lead"
    assert game.cycles_left == before - 1
    assert find(events, CycleOver).completed is False


def test_y10_two_cards_on_the_table_the_picker_leads() -> None:
    game = make([["5S", "2H", "3H"], ["6S", "5H", "6H"], ["8H", "9H", "TH"]], leader=0)
    game.play("5S")
    events = game.play("6S")
    assert [CARD_TEXT[c] for c in find(events, PickedUp).cards] == ["5S", "6S"]
    assert game.current_player == 2 and game.view(None)["phase"] == "lead"
    assert game.hand_count(2) == 5


def test_y10_host_card_picked_up_host_leads_again_from_an_empty_stock() -> None:
    game = make([["2H", "3H"], ["KH", "QH"]], ["7C", "2D"])
    assert sorted(game.hand(0)) == ["2D", "2H", "3H", "7C"]
    seen = log_types(game)
    assert seen.index("drew") < seen.index("picked_up") < seen.index("host_cannot_lead")
    assert game.current_player == 0 and game.view(None)["phase"] == "lead"


# -- Y11 last card ------------------------------------------------------------------------


def test_y11_manual_call_is_made_with_the_play() -> None:
    game = make([["5S", "6S"], ["7S", "8S", "9S"]], leader=0)
    assert {"5S", "5S!", "6S", "6S!"} == {m.text for m in game.legal_moves()}
    events = game.play("5S!")
    assert find(events, LastCardCalled).auto is False
    assert "penalty" not in types(events)
    assert game.current_player == 1


def test_y11_auto_calls_for_the_player() -> None:
    game = make([["5S", "6S"], ["7S", "8S", "9S"]], leader=0, last_card="auto")
    assert {m.text for m in game.legal_moves()} == {"5S", "6S"}
    events = game.play("5S")
    assert find(events, LastCardCalled).auto is True
    assert game.current_player == 1


def test_y11_off_nothing_happens() -> None:
    game = make([["5S", "6S"], ["7S", "8S", "9S"]], leader=0, last_card="off")
    events = game.play("5S")
    assert types(events) == ["played"]
    assert game.current_player == 1


def test_y11_a_call_in_auto_or_off_is_accepted_and_ignored() -> None:
    for setting in ("auto", "off"):
        game = make([["5S", "6S", "7S"], ["7H", "8S", "9S"]], leader=0, last_card=setting)
        events = game.play("5S!")
        assert "false_call" not in types(events)
        assert game.moves == ["5S!"]


# -- Y12 penalty for not calling ------------------------------------------------------------


def test_y12_no_call_picks_up_cycle_plus_three() -> None:
    game = make(
        [["5S", "2H", "3H"], ["9S", "4H"], ["7S", "8H", "9H"]],
        ["2D", "3D", "4D", "5D"],
        leader=0,
    )
    before = game.cycles_left
    game.play("5S")
    events = game.play("9S")
    assert [CARD_TEXT[c] for c in find(events, PickedUp).cards] == ["5S", "9S"]
    penalty = find(events, PenaltyDrawn)
    assert penalty.seat == 1 and penalty.secret and len(penalty.cards) == 3
    assert penalty.public()["count"] == 3 and "cards" not in penalty.public()
    assert sorted(game.hand(1)) == sorted(["4H", "5S", "9S", "2D", "3D", "4D"])
    assert game.stock_cards() == ["5D"]
    assert game.removed_cards() == []
    assert game.current_player == 2 and game.view(None)["phase"] == "lead"
    assert game.cycles_left == before - 1


def test_y12_as_many_as_are_left_and_the_host_card_too() -> None:
    game = make([["2C", "3H"], ["4C", "9H", "KS"]], ["7C", "5D"])
    assert game.current_player == 0
    events = game.play("2C")
    assert [CARD_TEXT[c] for c in find(events, PickedUp).cards] == ["7C", "2C"]
    assert len(find(events, PenaltyDrawn).cards) == 1
    assert sorted(game.hand(0)) == ["2C", "3H", "5D", "7C"]
    assert game.current_player == 1 and game.view(None)["phase"] == "lead"


def test_y12_a_leader_who_does_not_call_picks_up_the_lead() -> None:
    game = make([["5S", "6S"], ["7S", "8S", "9S"]], ["2D", "3D", "4D"], leader=0)
    game.play("5S")
    assert sorted(game.hand(0)) == ["2D", "3D", "4D", "5S", "6S"]
    assert game.current_player == 1


# -- Y13 false call -----------------------------------------------------------------------


def test_y13_false_call_reveals_lead_suit_count_until_hand_changes() -> None:
    game = make([["5S", "6S", "7S", "2H"], ["2S", "3H", "4H"], ["3S", "5H", "6H"]], leader=0)
    events = game.play("5S!")
    call = find(events, FalseCall)
    assert call.seat == 0 and (call.suit, call.count) == (0, 2)
    assert "last_card" not in types(events)
    for seat in (None, 0, 1, 2):
        assert game.view(seat)["players"][0]["revealed"] == 2
    game.play_all(["2S", "3S"])  # seat 0 wins the cycle; its hand is unchanged
    assert game.view(1)["players"][0]["revealed"] == 2
    game.play("2H")
    assert game.view(1)["players"][0]["revealed"] is None


def test_y13_follower_false_call_counts_the_lead_suit() -> None:
    game = make([["5H", "2S", "3S"], ["9H", "TH", "4S", "5S"]], leader=0)
    game.play("5H")
    events = game.play("9H!")
    assert find(events, FalseCall).public() == {
        "type": "false_call",
        "seat": 1,
        "suit": "H",
        "count": 1,
    }


def test_y13_a_true_call_reveals_nothing() -> None:
    game = make([["5S", "6S"], ["7S", "8S", "9S"]], leader=0)
    events = game.play("5S!")
    assert "false_call" not in types(events)
    assert game.view(None)["players"][0]["revealed"] is None


# -- Y14 the last card cannot be a joker ------------------------------------------------------


def test_y14_a_lone_joker_does_not_follow() -> None:
    game = make([["5S", "6S", "7S"], ["JK"]], ["2H", "9S", "3D"], leader=0)
    game.play("5S")
    assert [CARD_TEXT[c] for c in find(game.log, Drew).cards] == ["2H", "9S"]
    assert plain_legal(game) == {"9S"}


def test_y14_a_lone_joker_with_an_empty_stock_picks_up() -> None:
    game = make([["5S", "6S", "7S"], ["BJ"]], leader=0)
    game.play("5S")
    assert sorted(game.hand(1)) == ["5S", "BJ"]
    assert game.current_player == 0


def test_y14_a_joker_with_another_card_may_follow() -> None:
    game = make([["5S", "6S", "7S"], ["JK", "4H"]], leader=0)
    game.play("5S")
    assert plain_legal(game) == {"JK"}


def test_y14_a_leader_with_a_lone_joker_draws_and_leads_the_drawn_card() -> None:
    game = make([["5S", "6S", "7H"], ["BJ"]], ["JK", "4H", "8C"], leader=1)
    assert game.current_player == 1
    assert [CARD_TEXT[c] for c in find(game.log, Drew).cards] == ["JK", "4H"]
    assert [m.text for m in game.legal_moves()] == ["4H", "4H!"]
    with pytest.raises(IllegalMove, match="must lead it"):
        game.play("JK:S")
    game.play("4H")
    assert game.view(None)["lead_suit"] == "H"


def test_y14_a_leader_with_a_lone_joker_and_no_stock_passes_the_lead() -> None:
    game = make([["5S", "6S"], ["BJ"]], leader=1)
    assert "lead_passed" in log_types(game)
    assert game.current_player == 0 and game.view(None)["phase"] == "lead"


def test_y14_nobody_able_to_lead_ends_the_game() -> None:
    game = make([["JK"], ["BJ"]], leader=0)
    assert game.is_over
    assert game.result is not None and game.result.reason == "blocked"
    assert game.result.standings == (1, 0)


# -- Y15 not responding -------------------------------------------------------------------


def test_y15_timeout_makes_the_only_move_that_needs_no_call() -> None:
    game = make([["5S", "2H", "3H"], ["9S", "4H", "5H"], ["7S", "6H", "7H"]], leader=0)
    game.play("5S")
    assert "timeout" not in {m.text for m in game.legal_moves()}
    events = game.play("timeout")
    assert types(events)[:2] == ["timeout", "played"]
    assert game.removed_cards() == [] and game.view(None)["cycle"][-1] == {
        "seat": 1,
        "card": "9S",
    }
    assert game.moves == ["5S", "timeout"]


def test_y15_timeout_with_several_moves_skips_and_the_cycle_completes_without() -> None:
    game = make([["5S", "2H", "3H"], ["9S", "TS", "5H"], ["7S", "6H", "7H"]], leader=0)
    game.play("5S")
    events = game.play("timeout")
    assert types(events) == ["timeout", "skipped"]
    assert game.current_player == 2
    events = game.play("7S")
    assert find(events, CycleWon).seat == 2
    assert sorted(game.removed_cards()) == ["5S", "7S"]
    assert game.hand_count(1) == 3


def test_y15_timeout_skips_a_move_that_needs_a_call() -> None:
    game = make([["5S", "2H", "3H"], ["9S", "4H"], ["7S", "6H", "7H"]], leader=0)
    game.play("5S")
    assert types(game.play("timeout")) == ["timeout", "skipped"]
    game = make([["5S", "2H", "3H"], ["9S", "4H"], ["7S", "6H", "7H"]], leader=0, last_card="auto")
    game.play("5S")
    assert types(game.play("timeout"))[:3] == ["timeout", "played", "last_card"]


def test_y15_a_skipped_leader_passes_the_lead() -> None:
    game = make([["5S", "2H", "3H"], ["9S", "4H", "5H"], ["7S", "6H", "7H"]], leader=0)
    before = game.cycles_left
    events = game.play("timeout")
    assert types(events) == ["timeout", "skipped", "lead_passed", "lead"]
    assert game.current_player == 1 and game.view(None)["phase"] == "lead"
    assert game.cycles_left == before


def test_y15_a_game_ends_when_the_last_player_to_time_out_lets_the_cycle_complete() -> None:
    game = make([["5S", "2H", "3H"], ["9S", "TS", "5H"]], leader=0, cycles_left=1)
    game.play("5S")
    game.play("timeout")
    assert game.is_over and game.result is not None
    assert game.result.reason == "cycle_limit"


# -- Y16 cycle limit ----------------------------------------------------------------------


def test_y16_cycle_limit_setting_and_default() -> None:
    assert new_game(Rules.preset("cycles", players=3), 1).view(None)["cycles_left"] == 30
    rules = Rules.preset("cycles", players=3, cycle_limit=5)
    assert new_game(rules, 1).view(None)["cycles_left"] in (5, 4)
    with pytest.raises(RulesError, match="cycle_limit"):
        Rules.preset("cycles", players=3, cycle_limit=0)


def test_y16_every_cycle_that_ends_counts_and_zero_ends_the_game() -> None:
    game = make(
        [["5S", "2H", "3H"], ["9S", "4H", "5H"], ["7S", "6H", "7H"]],
        leader=0,
        cycles_left=2,
        last_card="off",
    )
    game.play_all(["5S", "9S", "7S"])  # completed
    assert game.cycles_left == 1 and not game.is_over
    events = game.play("4H")
    events += game.play("6H")
    events += game.play("2H")
    assert game.is_over
    assert game.result is not None and game.result.reason == "cycle_limit"
    assert find(events, CycleOver).cycles_left == 0
    assert game.legal_moves() == []


def test_y16_an_uncompleted_cycle_counts_too() -> None:
    game = make([["5S", "2H", "3H"], ["4H", "5H", "6H"]], leader=0, cycles_left=1)
    game.play("5S")  # seat 1 picks up (Y10)
    assert game.is_over and game.result is not None
    assert game.result.reason == "cycle_limit"


# -- Y17 end and standings ----------------------------------------------------------------


def test_y17_emptying_the_hand_wins_and_the_rest_rank_by_y4() -> None:
    game = make([["5S"], ["KH", "QH"], ["2H", "3H"], ["2D", "3D"]], leader=0, seed=4)
    events = game.play("5S")
    assert game.is_over and game.current_player is None
    result = game.result
    assert result is not None
    assert result.winner == 0 and result.reason == "out" and result.rounds == 1
    assert result.standings[0] == 0 and result.standings[3] == 1
    assert set(result.standings[1:3]) == {2, 3}  # an exact tie: the seeded choice
    assert result.points == (0, 20, 5, 5)
    over = find(events, GameOver)
    assert over.public()["hands"] == [[], ["QH", "KH"], ["2H", "3H"], ["2D", "3D"]]
    assert game.view(1)["result"] == result.to_dict()
    with pytest.raises(IllegalMove, match="game is over"):
        game.play("KH")


def test_y17_a_follower_emptying_the_hand_ends_the_game_at_once() -> None:
    game = make([["5S", "2H"], ["9S"], ["7S", "6H"]], leader=0)
    game.play("5S!")
    game.play("9S")
    assert game.is_over and game.result is not None and game.result.winner == 1
    assert game.view(None)["cycle"] == [
        {"seat": 0, "card": "5S"},
        {"seat": 1, "card": "9S"},
    ]


def test_y17_cycle_limit_standings_by_value_lowest_then_highest() -> None:
    hands = [["KH", "QH", "5S"], ["2C", "3S", "6H", "TD"], ["2D", "4C", "5H", "TS"]]
    game = make(hands, leader=0, cycles_left=1)
    game.play_all(["5S", "3S", "TS"])
    assert game.result is not None
    # seat 0: 20 (10, 10); seat 1: 2+6+10 = 18 (2, 10); seat 2: 2+4+5 = 11 (2, 5)
    assert game.result.standings == (2, 1, 0)
    assert game.result.winner == 2 and game.result.reason == "cycle_limit"


def test_y17_exact_ties_in_the_standings_are_seeded() -> None:
    # after 9D is led and both followers time out (two diamonds each): (14, 2, 5) all
    hands = [["9D", "2C", "3C", "4C", "5C"], ["2D", "3D", "4S", "5S"], ["4D", "5D", "2S", "3S"]]
    outcomes = set()
    for seed in range(30):
        game = make(hands, leader=0, cycles_left=1, seed=seed, last_card="off")
        game.play_all(["9D", "timeout", "timeout"])
        assert game.result is not None
        outcomes.add(game.result.standings)
        again = make(hands, leader=0, cycles_left=1, seed=seed, last_card="off")
        again.play_all(["9D", "timeout", "timeout"])
        assert again.result == game.result
    assert len(outcomes) > 1


# -- moves the rules never allow ------------------------------------------------------------


def test_draw_pass_and_bare_declarations_are_refused_with_reasons() -> None:
    game = make([["5S", "6S", "7S"], ["7H", "8S", "9S"]], leader=0)
    view = game.view(0, log=True)
    with pytest.raises(IllegalMove, match="never draw by choice"):
        game.play("draw")
    with pytest.raises(IllegalMove, match="cannot pass"):
        game.play("pass")
    with pytest.raises(IllegalMove, match="declared only with a led joker"):
        game.play(":H")
    with pytest.raises(IllegalMove, match="do not hold"):
        game.play("AS")
    with pytest.raises(IllegalMove, match="not a move"):
        game.play("XX")
    assert game.view(0, log=True) == view and game.moves == []


# -- T1-T3 tables -------------------------------------------------------------------------


def test_t1_a_cycles_game_is_a_single_round() -> None:
    game = make([["5S"], ["6S", "7S"]], leader=0)
    game.play("5S")
    assert game.result is not None and game.result.rounds == 1


def test_t2_settings_are_shown_in_every_view() -> None:
    rules = Rules.preset("cycles", players=3, cycle_limit=12, last_card="auto", turn_timer=60)
    game = new_game(rules, 5)
    for seat in (None, 0, 1, 2):
        assert game.view(seat)["rules"] == rules.to_dict()
        assert Rules.from_dict(game.view(seat)["rules"]) == rules


def test_t3_the_seed_determines_the_deal_and_the_tie_breaks() -> None:
    rules = Rules.preset("cycles", players=5)
    a, b, c = new_game(rules, 11), new_game(rules, 11), new_game(rules, 12)
    assert isinstance(a, CyclesGame) and isinstance(b, CyclesGame) and isinstance(c, CyclesGame)
    assert a.hands == b.hands and a.stock == b.stock
    assert (a.hands, a.stock) != (c.hands, c.stock)
    assert a.view(0, log=True) == b.view(0, log=True)


def test_g4_replay_rebuilds_the_game() -> None:
    rules = Rules.preset("cycles", players=4)
    game = new_game(rules, 99)
    while not game.is_over and len(game.moves) < 40:
        game.play(game.legal_moves()[-1])
    again = replay(rules, 99, game.moves)
    assert again.view(2, log=True) == game.view(2, log=True)


def test_clone_is_independent() -> None:
    game = new_game(Rules.preset("cycles", players=3), 4)
    copy = game.clone()
    copy.play(copy.legal_moves()[0])
    assert copy.moves != game.moves
    assert game.view(0) != copy.view(0)
    assert game.view(0, log=True) == new_game(Rules.preset("cycles", players=3), 4).view(
        0, log=True
    )


def test_full_deck_mask() -> None:
    assert FULL_DECK.bit_count() == 55


# -- from_view: a playable game from a seat's view and sampled hidden cards ---------------


def _hidden(game: CyclesGame) -> tuple[list[list[int]], list[int]]:
    hands = [[c for c in range(64) if h >> c & 1] for h in game.hands]
    return hands, list(reversed(game.stock))


def test_from_view_rebuilds_the_position() -> None:
    rules = Rules.preset("cycles", players=4)
    game = new_game(rules, 21)
    assert isinstance(game, CyclesGame)
    for _ in range(9):
        game.play(game.legal_moves()[0])
    seat = game.current_player
    hands, stock = _hidden(game)
    rebuilt = CyclesGame.from_view(game.view(seat), Hidden(hands=hands, stock=stock), seed=1)
    for s in (None, 0, 1, 2, 3):
        assert rebuilt.view(s) == game.view(s)
    assert rebuilt.legal_moves() == game.legal_moves()
    move = game.legal_moves()[-1]
    assert rebuilt.play(move) == game.play(move)


def test_from_view_infers_a_forced_card_hidden_from_the_viewer() -> None:
    game = make(
        [["5S", "2H", "3H"], ["4H", "5H", "6H"], ["7S", "8H", "9H"]],
        ["2D", "3D", "9S", "4D"],
        leader=0,
    )
    game.play("5S")
    hands, stock = _hidden(game)
    view = game.view(2)
    assert view["forced"] is True and "forced_card" not in view
    rebuilt = CyclesGame.from_view(view, Hidden(hands=hands, stock=stock), seed=0)
    assert rebuilt.legal_moves() == game.legal_moves()


def test_from_view_infers_a_y14_leaders_drawn_card() -> None:
    game = make([["5S", "6S", "7H"], ["BJ"]], ["JK", "4H", "8C"], leader=1)
    hands, stock = _hidden(game)
    rebuilt = CyclesGame.from_view(game.view(0), Hidden(hands=hands, stock=stock), seed=0)
    assert [m.text for m in rebuilt.legal_moves()] == ["4H", "4H!"]


def test_from_view_refuses_hidden_cards_that_disagree_with_the_view() -> None:
    game = make([["5S", "6S", "7S"], ["7H", "8S", "9S"]], ["2D", "3D"], leader=0)
    hands, stock = _hidden(game)
    view = game.view(0)
    with pytest.raises(ValueError, match="holds 3 cards"):
        CyclesGame.from_view(view, Hidden(hands=[hands[0], hands[1][:2]], stock=stock))
    with pytest.raises(ValueError, match="stock cards"):
        CyclesGame.from_view(view, Hidden(hands=hands, stock=stock[:1]), seed=0)
    with pytest.raises(ValueError, match="two places"):
        CyclesGame.from_view(view, Hidden(hands=hands, stock=[stock[0], hands[1][0]]))
    swapped = [hands[1], hands[0]]
    with pytest.raises(ValueError, match="not the view's hand"):
        CyclesGame.from_view(view, Hidden(hands=swapped, stock=stock), seed=0)
