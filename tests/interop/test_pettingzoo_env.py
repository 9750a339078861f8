"""Our rulesets as PettingZoo AEC environments, checked by PettingZoo's api_test."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import numpy as np
from pettingzoo.test import api_test

from crazy_eights.engine.rules import RULESETS
from crazy_eights.interop import encoding
from crazy_eights.interop.pettingzoo import env


@pytest.mark.parametrize("ruleset", RULESETS)
def test_api_test_passes(ruleset: str) -> None:
    api_test(env(ruleset, players=3, max_moves=200), num_cycles=200)


def test_observation_and_mask_dicts() -> None:
    e = env("openspiel", players=4, action_cards=True)
    e.reset(seed=3)
    obs, _, _, _, _ = e.last()
    assert set(obs) == {"observation", "action_mask"}
    assert obs["action_mask"].sum() >= 1
    steps = 0
    for agent in e.agent_iter(max_iter=5000):
        obs, _, terminated, truncated, _ = e.last()
        action = None
        if not (terminated or truncated):
            action = e.action_space(agent).sample(obs["action_mask"])
        e.step(action)
        steps += 1
    assert not e.agents and steps > 4


LONG_GAMES = [
    ("classic", {"players": 3}, 0.9),
    ("classic", {"players": 2, "mode": "match", "target": 50}, 0.9),
    ("ultimate", {"players": 4}, 0.9),
    ("countdown", {"players": 3, "start": 4}, 0.5),
    ("cycles", {"players": 4}, 0.9),
    ("openspiel", {"players": 4, "action_cards": True, "stock_empty": "reshuffle"}, 0.9),
    ("openspiel", {"players": 2}, 0.9),
]


@pytest.mark.parametrize(("ruleset", "settings", "hoard"), LONG_GAMES)
def test_hoarding_games_without_a_move_cap_stay_inside_the_observation_space(
    ruleset: str, settings: dict[str, object], hoard: float
) -> None:
    """A policy that draws whenever it may (``hoard`` of the time, once a turn: in
    countdown drawing does not end the turn, K5) plays long games with big hands and
    scores far from zero; every observation of every agent, the finished game's
    included, must lie inside the declared space."""
    e = env(ruleset, max_moves=None, **settings)
    rng = np.random.default_rng(7)
    longest = 0
    for episode in range(2):
        e.reset(seed=episode)
        steps = 0
        drew: str | None = None
        for agent in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            for other in e.agents:
                seen = obs if other == agent else e.observe(other)
                assert e.observation_space(other).contains(seen), (other, steps)
            action = None
            if not (terminated or truncated):
                legal = np.flatnonzero(obs["action_mask"])
                plays = [a for a in legal if a < encoding.DRAW_ACTION]
                may_draw = encoding.DRAW_ACTION in legal and drew != agent
                if may_draw and rng.random() < hoard:
                    action = encoding.DRAW_ACTION
                else:
                    action = int(rng.choice(plays if plays and drew == agent else legal))
                drew = agent if action == encoding.DRAW_ACTION else None
            e.step(action)
            steps += 1
        assert not e.agents
        longest = max(longest, steps)
    assert longest > 60


@pytest.mark.parametrize(
    ("ruleset", "settings"),
    [
        ("classic", {"players": 3}),
        ("ultimate", {"players": 4}),
        ("countdown", {"players": 3, "start": 4}),
        ("openspiel", {"players": 4, "action_cards": True}),
        ("openspiel", {"players": 7}),
    ],
)
def test_features_read_from_the_game_equal_those_read_from_its_view(
    ruleset: str, settings: dict[str, object]
) -> None:
    """A shedding game's features come from its state, not its view (an environment
    asks every step): for every seat of every position of random games, finished ones
    included, they equal the features the view gives."""
    from crazy_eights.engine import new_game
    from crazy_eights.engine.rules import Rules

    if ruleset != "openspiel":
        settings = {"mode": "single", **settings}
    rules = Rules.preset(ruleset, **settings)
    rng = np.random.default_rng(5)
    checked = 0
    for seed in range(4):
        game = new_game(rules, seed, log=False)
        while True:
            for seat in range(rules.players):
                fast = encoding.features(game, seat, history=False)
                slow = encoding.view_features(game, seat, history=False)
                assert fast == slow, (seed, seat, game.moves)
                checked += 1
            if game.is_over:
                break
            legal = game.legal_moves()
            game.apply(legal[int(rng.integers(len(legal)))])
    assert checked > 100


def test_action_mask_is_the_legal_actions_and_the_callers_own() -> None:
    """Each step's mask sets exactly the legal actions; masks are copies, so a caller
    that writes into one changes no later observation."""
    e = env("openspiel", players=3)
    e.reset(seed=3)
    rng = np.random.default_rng(3)
    for agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        game = e.game
        assert game is not None
        legal = np.flatnonzero(obs["action_mask"])
        assert legal.tolist() == encoding.legal_actions(game)
        obs["action_mask"][:] = 0
        assert np.flatnonzero(e.observe(agent)["action_mask"]).tolist() == legal.tolist()
        e.step(int(rng.choice(legal)))
