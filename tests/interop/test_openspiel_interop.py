"""Our rulesets as OpenSpiel games: registration, random_sim_test, chance nodes that deal
cards, actions, resampling."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from crazy_eights.engine.cards import CARD_TEXT  # noqa: E402
from crazy_eights.engine.moves import Move  # noqa: E402
from crazy_eights.engine.rules import RULESETS  # noqa: E402
from crazy_eights.interop import encoding  # noqa: E402
from crazy_eights.interop import openspiel as os_interop  # noqa: E402


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_ruleset_passes_random_sim_test(ruleset: str) -> None:
    game = pyspiel.load_game(os_interop.game_name(ruleset), {"players": 3, "max_moves": 120})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_settings_are_game_parameters() -> None:
    game = os_interop.load(
        "ultimate", players=6, hand_size="7", action_cards=False, mode="match", max_moves=150
    )
    rules = game.rules
    assert (rules.players, rules.hand_size, rules.action_cards, rules.target) == (6, 7, False, 100)
    assert game.num_players() == 6
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)
    special = os_interop.load(
        "openspiel", players=5, action_cards=True, stock_empty="reshuffle", max_moves=150
    )
    assert special.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    pyspiel.random_sim_test(special, num_sims=2, serialize=False, verbose=False)


def test_action_ids_round_trip() -> None:
    for text in ("7H", "8S:H", "8S:H!", "7H!", "JK:S", "BJ", "draw", "pass", "TC"):
        move = Move.parse(text)
        action = encoding.encode_move(move)
        assert 0 <= action < encoding.NUM_ACTIONS
        assert encoding.decode_action(action) is move


def _deal_all(state, rng: random.Random) -> None:  # type: ignore[no-untyped-def]
    while state.is_chance_node():
        outcomes, weights = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(outcomes, weights)[0])


def _playing_state(ruleset: str, seed: int, moves: int):  # type: ignore[no-untyped-def]
    game = os_interop.load(ruleset, players=4)
    state = game.new_initial_state()
    rng = random.Random(seed)
    _deal_all(state, rng)
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("ruleset", ["ultimate", "cycles", "openspiel"])
def test_resampling_keeps_the_information_state(ruleset: str) -> None:
    for seed in range(5):
        state = _playing_state(ruleset, seed, 6)
        if state.is_terminal():
            continue
        player = state.current_player()
        info = state.information_state_string(player)
        resampler = os_interop.make_resampler(seed)
        for _ in range(5):
            world = resampler(state, player)
            assert world.information_state_string(player) == info
            assert world.legal_actions() == state.legal_actions()
            assert sorted(world.game.hand(player)) == sorted(state.game.hand(player))


def test_openspiel_ismcts_plays_our_game_with_the_resampler() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = os_interop.load("openspiel", players=3, action_cards=True)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 40, random_state=np.random.RandomState(2))
    bot.set_resampler(os_interop.make_resampler(3))
    state = _playing_state("openspiel", 4, 0)
    for _ in range(3):
        if state.is_terminal():
            break
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


@pytest.mark.parametrize(
    ("ruleset", "players", "deck"),
    [("classic", 4, 52), ("ultimate", 7, 104), ("countdown", 3, 52), ("cycles", 4, 55)],
)
def test_chance_nodes_deal_the_deck_card_by_card(ruleset: str, players: int, deck: int) -> None:
    state = os_interop.load(ruleset, players=players).new_initial_state()
    dealt: list[int] = []
    rng = random.Random(4)
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
        assert all(0 <= a < encoding.NUM_CARDS for a, _ in outcomes)
        action = rng.choice([a for a, _ in outcomes])
        assert state.action_to_string(pyspiel.PlayerId.CHANCE, action).startswith("deal ")
        dealt.append(action)
        state.apply_action(action)
    assert len(dealt) == deck
    game = state.game
    held = sorted(c for s in range(players) for c in game.hand(s))
    assert len(held) == players * game.rules.hand_count()
    # the first cards dealt go round the table from the dealer's left
    first = encoding.index_card(dealt[0])
    assert CARD_TEXT[first] in game.hand(1 % players) or ruleset == "cycles"


def test_openspiel_ruleset_draws_its_dealer_first() -> None:
    state = os_interop.load("openspiel", players=3).new_initial_state()
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == [os_interop.DEALER_OUTCOME + s for s in range(3)]
    state.apply_action(os_interop.DEALER_OUTCOME + 2)
    _deal_all(state, random.Random(1))
    assert state.game.view(None)["dealer"] == 2
    assert state.current_player() in range(3)


def test_a_deal_is_a_function_of_its_chance_outcomes() -> None:
    game = os_interop.load("ultimate", players=4, stock_empty="reshuffle")
    one, two = game.new_initial_state(), game.new_initial_state()
    _deal_all(one, random.Random(9))
    for action in one.history():
        two.apply_action(action)
    rng = random.Random(3)
    while not one.is_terminal():
        action = rng.choice(one.legal_actions())
        one.apply_action(action)
        two.apply_action(action)
    assert one.returns() == two.returns()
    assert one.information_state_string(0) == two.information_state_string(0)
