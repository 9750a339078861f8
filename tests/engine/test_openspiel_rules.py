"""The ``openspiel`` ruleset (OpenSpiel 2.0's crazy_eights, OS1-OS10 below).

The rules are numbered here as in docs/rules.md (OS1 to OS10), in the order of
``engine/openspiel_rules.py``'s docstring: OS1 deal, OS2 upturned card, OS3 legal play,
OS4 drawing, OS5 passing, OS6 special cards, OS7 reshuffle, OS8 blockade, OS9 the
``max_turns`` cap, OS10 scoring. Explicit-deal tests need nothing else; the cross-check
at the end replays OpenSpiel's C++ game (``pyspiel``) move for move when installed.
"""

from __future__ import annotations

import copy
import random
from collections import Counter, deque
from typing import Any

import pytest

from crazy_eights import Deal, IllegalMove, Rules, new_game
from crazy_eights.engine.cards import EIGHT, cards_of, parse_card
from crazy_eights.engine.moves import DRAW, PASS, Move
from crazy_eights.engine.openspiel_rules import OpenSpielGame, openspiel_points


def os_game(
    hands: list[list[str]],
    *,
    stock: list[str] | None = None,
    starter: str = "5D",
    dealer: int | None = None,
    discard: list[str] | None = None,
    **settings: Any,
) -> OpenSpielGame:
    """An explicit deal; by default the last seat deals, so seat 0 plays first."""
    players = len(hands)
    rules = Rules.preset("openspiel", players=players, **settings)
    if stock is None:
        used = {c for hand in hands for c in hand} | {starter}
        stock = [c for c in ("JH", "JD", "JC", "JS", "TC", "TS", "6H", "6D") if c not in used]
    deal = Deal(
        hands=hands,
        stock=stock,
        starter=starter,
        discard=discard or (),
        dealer=players - 1 if dealer is None else dealer,
    )
    game = new_game(rules, deal=deal)
    assert isinstance(game, OpenSpielGame)
    return game


def texts(game: OpenSpielGame) -> list[str]:
    return [m.text for m in game.legal_moves()]


# -- OS1 deal --------------------------------------------------------------------------------


def test_os1_preset_settings_match_openspiel_parameters() -> None:
    rules = Rules.preset("openspiel")
    assert (rules.max_draw_cards, rules.max_turns, rules.action_cards, rules.stock_empty) == (
        5,
        100,
        False,
        "block",
    )
    assert Rules.preset("openspiel", players=6).pack_count() == 2
    assert Rules.preset("openspiel", players=15).deck_size() == 104
    with pytest.raises(Exception, match="max_draw_cards"):
        Rules.preset("openspiel", max_draw_cards=0)


@pytest.mark.parametrize("players,size", [(2, 7), (3, 5), (5, 5), (6, 5), (15, 5)])
def test_os1_random_dealer_and_deal_from_the_dealers_left(players: int, size: int) -> None:
    dealers = set()
    for seed in range(12):
        game = new_game(Rules.preset("openspiel", players=players), seed)
        assert isinstance(game, OpenSpielGame)
        dealers.add(game.dealer)
        assert [game.hand_count(s) for s in range(players)] == [size] * players
        assert game.current_player == (game.dealer + 1) % players
    assert len(dealers) > 1


# -- OS2 upturned card ----------------------------------------------------------------------


def test_os2_an_upturned_eight_goes_back_into_the_stock() -> None:
    game = os_game([["3C"], ["4C"]], starter="8D", stock=["9S", "TS", "JS"])
    assert game.top_card != "8D"
    assert "8D" in [c for c in ("8D",) if parse_card(c) in game.stock]
    kinds = [e.type for e in game.log]
    assert "starter_returned" in kinds


@pytest.mark.parametrize(
    "starter,current,direction,pending", [("QD", 1, 1, 0), ("AD", 2, -1, 0), ("2D", 0, 1, 1)]
)
def test_os2_upturned_special_card_acts_as_played_by_the_dealer(
    starter: str, current: int, direction: int, pending: int
) -> None:
    hands = [["3C", "4H"], ["5H", "6C"], ["9S", "TC"], ["KC", "KH"]]
    game = os_game(hands, starter=starter, dealer=3, action_cards=True)
    assert (game.current_player, game.direction, game.pending) == (current, direction, pending)
    plain = os_game(hands, starter=starter, dealer=3)
    assert (plain.current_player, plain.direction, plain.pending) == (0, 1, 0)


# -- OS3 legal play ---------------------------------------------------------------------------


def test_os3_match_suit_or_rank_or_play_an_eight_naming_a_suit() -> None:
    game = os_game([["5S", "7D", "8C", "KH"], ["4C"]], starter="5D")
    assert texts(game) == ["5S", "7D", "8C:S", "8C:H", "8C:D", "8C:C", "draw"]
    game.play("8C:H")
    assert game.active_suit == "H" and game.current_player == 1
    with pytest.raises(IllegalMove):
        game.play("4C")


# -- OS4 drawing ------------------------------------------------------------------------------


def test_os4_draw_with_a_legal_card_then_play_any_card_up_to_max_draw_cards() -> None:
    game = os_game([["5S", "KH"], ["4C"]], starter="5D", max_draw_cards=2)
    assert "draw" in texts(game)
    game.play("draw")
    assert game.current_player == 0 and "5S" in texts(game) and "draw" in texts(game)
    game.play("draw")
    assert "draw" not in texts(game) and "pass" in texts(game)
    with pytest.raises(IllegalMove, match="drew 2"):
        game.play("draw")
    game.play("5S")
    assert game.current_player == 1 and game.draws == 0


# -- OS5 passing ------------------------------------------------------------------------------


def test_os5_pass_only_after_max_draws_or_with_an_empty_stock() -> None:
    game = os_game([["5S", "KH"], ["4C", "9C"]], starter="5D", stock=["JC"])
    with pytest.raises(IllegalMove, match="pass"):
        game.play("pass")
    game.play("draw")  # the stock is now empty: pass is allowed, also with a legal card
    assert texts(game) == ["5S", "pass"]
    game.play("pass")
    assert game.current_player == 1 and texts(game) == ["pass"]


# -- OS6 special cards -------------------------------------------------------------------------


def test_os6_queen_skips_ace_reverses() -> None:
    hands = [["QD", "AD", "3C"], ["5D", "4C"], ["6D", "7C"], ["9D", "KC"]]
    game = os_game(hands, starter="TD", action_cards=True)
    game.play("QD")
    assert game.current_player == 2
    game.play("6D")
    game.play("9D")
    game.play("AD")
    assert game.direction == -1 and game.current_player == 3


def test_os6_twos_stack_and_draw_ends_the_turn_without_eights() -> None:
    hands = [["2D", "3C"], ["2S", "8C", "4H"], ["5C", "6H"]]
    game = os_game(hands, starter="5D", action_cards=True, stock=["JH", "JD", "JC", "JS", "TC"])
    game.play("2D")
    assert texts(game) == ["2S", "draw"]
    game.play("2S")
    assert game.pending == 2 and texts(game) == ["draw"]
    game.play("draw")
    assert game.hand_count(2) == 6 and game.current_player == 0


def test_os6_penalty_cancelled_when_the_stock_runs_out() -> None:
    hands = [["2D", "3C"], ["4C", "9H"], ["5C", "2H"]]
    game = os_game(hands, starter="5D", action_cards=True, stock=["JH"])
    game.play("2D")
    game.play("draw")
    assert game.hand_count(1) == 3 and game.pending == 0 and game.current_player == 2
    assert game.passes == 0  # the stock ran out before the last penalty card
    game.play("2H")  # nothing to draw: this 2 makes no penalty
    assert game.pending == 0 and game.current_player == 0 and "pass" in texts(game)


# -- OS7 reshuffle ------------------------------------------------------------------------------


def test_os7_reshuffle_everything_but_the_top_card() -> None:
    game = os_game(
        [["5S", "KH"], ["4C"]],
        starter="5D",
        stock=["JC"],
        discard=["2H", "3H"],
        stock_empty="reshuffle",
    )
    game.play("draw")
    assert game.available() == 2 and "draw" in texts(game)
    game.play("draw")
    assert game.top_card == "5D" and len(game.discard) == 1 and len(game.stock) == 1


# -- OS8 blockade -----------------------------------------------------------------------------


def test_os8_game_ends_after_players_plus_one_passes_with_nothing_to_draw() -> None:
    game = os_game([["KH", "2C"], ["4C", "9C"]], starter="5D", stock=[])
    for _ in range(2):
        game.play(PASS)
    assert not game.is_over
    game.play(PASS)
    assert game.is_over and game.result is not None
    assert game.result.reason == "blockade"
    assert game.result.points == (12, 13) and game.result.winner == 0


# -- OS9 max_turns ------------------------------------------------------------------------------


def test_os9_max_turns_caps_card_plays() -> None:
    game = os_game([["5S", "6S", "7S"], ["4S", "9S", "KS"]], starter="5D", max_turns=3)
    game.play("5S")
    game.play(DRAW)
    game.play("4S")
    assert not game.is_over
    game.play("6S")
    assert game.is_over and game.result is not None and game.result.reason == "turn_limit"


# -- OS10 scoring -----------------------------------------------------------------------------


def test_os10_face_value_scoring_as_openspiel_documents() -> None:
    points = {t: openspiel_points(parse_card(t)) for t in ("8H", "KS", "QD", "JC", "AS", "TH")}
    assert points == {"8H": 50, "KS": 10, "QD": 10, "JC": 10, "AS": 10, "TH": 10}
    assert [openspiel_points(parse_card(f"{r}C")) for r in "23456790"[:7]] == [2, 3, 4, 5, 6, 7, 9]
    game = os_game([["5S"], ["4C", "9C", "8H"]], starter="5D")
    game.play("5S")
    assert game.result is not None and game.result.points == (0, 63)
    assert game.returns() == [0.0, -63.0] and game.result.winner == 0


# -- clones (search worlds, OpenSpiel's state.clone) ----------------------------------------------


@pytest.mark.parametrize("special", [False, True])
def test_os_clone_and_deepcopy_play_on_exactly_like_the_original(special: bool) -> None:
    rules = Rules.preset("openspiel", players=4, action_cards=special)
    rng = random.Random(5)
    for seed in range(20):
        game = new_game(rules, seed)
        for _ in range(rng.randrange(60)):
            if game.is_over:
                break
            game.play(rng.choice(game.legal_moves()))
        copies = [game.clone(), copy.deepcopy(game)]
        for twin in copies:
            assert isinstance(twin, OpenSpielGame)
            assert (twin.draws, twin.plays) == (game.draws, game.plays)
        while not game.is_over:
            move = rng.choice(game.legal_moves())
            game.play(move)
            for twin in copies:
                twin.play(move)
        for twin in copies:
            assert twin.result == game.result
            assert twin.view(None, log=True) == game.view(None, log=True)


# -- cross-check against OpenSpiel's C++ game ---------------------------------------------------


def os_card(card: int) -> int:
    """Our card id to OpenSpiel's action: rank (2..A) * 4 + suit (C D H S)."""
    return (((card & 15) - 1) % 13) * 4 + (3 - (card >> 4))


def our_card(action: int) -> int:
    return (3 - action % 4) * 16 + (action // 4 + 1) % 13


def buggy_points(card: int) -> int:
    """OpenSpiel 2.0's ScoreUp, card index for spot cards included (their bug)."""
    action = os_card(card)
    rank = action // 4
    if rank == 6:
        return 50
    return 10 if rank >= 9 else action + 2


def crosscheck(pyspiel: Any, *, seed: int, players: int, **settings: Any) -> int:
    """Play one game in both engines with the same deal and the same random actions;
    return the number of decisions compared."""
    rules = Rules.preset("openspiel", players=players, **settings)
    ours = new_game(rules, seed)
    assert isinstance(ours, OpenSpielGame)
    params = {
        "players": players,
        "max_draw_cards": rules.max_draw_cards,
        "max_turns": rules.max_turns,
        "use_special_cards": bool(rules.action_cards),
        "reshuffle": rules.stock_empty == "reshuffle",
    }
    state = pyspiel.load_game("crazy_eights", params).new_initial_state()
    decks = rules.pack_count()
    state.apply_action(52 + ours.dealer)
    dealt = {e.seat: list(e.cards) for e in ours.log if e.type == "deal"}
    for k in range(players * rules.hand_count()):
        state.apply_action(os_card(dealt[(ours.dealer + 1 + k) % players].pop()))
    for event in ours.log:
        if event.type in ("starter_returned", "starter"):
            state.apply_action(os_card(event.shown[0]))
    rng = random.Random(seed)
    queue: deque[int] = deque()
    decisions = 0
    while True:
        if state.is_chance_node():
            card = os_card(queue.popleft())
            assert card in dict(state.chance_outcomes())
            state.apply_action(card)
            continue
        assert not queue
        if state.is_terminal():
            break
        seat = ours.current_player
        assert state.current_player() == seat
        legal = state.legal_actions()
        mapped = {
            52 if m is DRAW else 53 if m is PASS else os_card(m.card or 0)
            for m in ours.legal_moves()
        }
        assert set(legal) == mapped, (seed, ours.moves)
        tensor = state.observation_tensor(seat)
        hand = Counter(os_card(c) for c in cards_of(ours.hands[seat]))
        for card in range(52):
            assert tensor[card * (decks + 1) + hand[card]] == 1
        base = (decks + 1) * 52
        assert tensor[base + os_card(ours.top)] == 1
        assert tensor[base + 52 + 3 - ours.suit] == 1
        if 52 in legal:
            probe = state.clone()
            probe.apply_action(52)
            outcomes = {a for a, _ in probe.chance_outcomes()}
            reach = ours.stock or ours.discard[:-1]
            assert outcomes == {os_card(c) for c in reach}
        action = rng.choice(legal)
        decisions += 1
        state.apply_action(action)
        if action == 52:
            move = DRAW
        elif action == 53:
            move = PASS
        elif our_card(action) & 15 == EIGHT:
            suit = rng.randrange(4)
            if not state.is_terminal():
                assert state.legal_actions() == [54, 55, 56, 57]
                state.apply_action(54 + suit)
            move = Move.play(our_card(action), 3 - suit)
        else:
            move = Move.play(our_card(action))
        for event in ours.play(move):
            if event.type in ("drew", "penalty"):
                queue.extend(event.shown)
    assert ours.is_over and ours.result is not None
    returns = state.returns()
    for s in range(players):
        held = cards_of(ours.hands[s])
        assert returns[s] == -sum(buggy_points(c) for c in held)
        assert ours.result.points[s] == sum(openspiel_points(c) for c in held)
    return decisions


CONFIGS = [
    {"players": 2},
    {"players": 4},
    {"players": 4, "action_cards": True},
    {"players": 5, "action_cards": True, "stock_empty": "reshuffle"},
    {"players": 3, "stock_empty": "reshuffle", "max_draw_cards": 1},
    {"players": 2, "action_cards": True, "max_draw_cards": 2, "max_turns": 1000},
    {"players": 4, "action_cards": True, "stock_empty": "reshuffle", "max_turns": 400},
    {"players": 7, "action_cards": True, "max_draw_cards": 3},
    {"players": 6, "stock_empty": "reshuffle", "max_turns": 300},
    {"players": 15, "action_cards": True, "stock_empty": "reshuffle"},
]


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(f"{v}" for v in c.values()))
def test_os_move_for_move_against_pyspiel(config: dict[str, Any]) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    decisions = sum(crosscheck(pyspiel, seed=seed, **config) for seed in range(40))
    assert decisions > 40 * 20
