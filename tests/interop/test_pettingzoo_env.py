"""Our rulesets as PettingZoo AEC environments, checked by PettingZoo's api_test."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from pettingzoo.test import api_test

from crazy_eights.engine.rules import RULESETS
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
