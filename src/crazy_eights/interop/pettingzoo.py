"""Every ruleset as a PettingZoo AEC environment.

    from crazy_eights.interop.pettingzoo import env
    e = env("ultimate", players=4)
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(
            obs["action_mask"])
        e.step(action)

Agents are ``player_0`` .. ``player_<n-1>`` (seats). An observation is a dict:
``observation``, the seat's view as a float vector (``encoding.features``), and
``action_mask``, 1 for the legal action ids (``encoding``). Rewards come at the end:
1 to the winner and 0 to the others (1/n each with no winner); for the ``openspiel``
ruleset minus the points left in hand, as OpenSpiel pays. ``max_moves`` truncates
(``None``: never). Every observation lies inside its space, finished games included.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from crazy_eights.engine import Game, new_game
from crazy_eights.engine.rules import Rules

from . import encoding


class CrazyEightsEnv(AECEnv):  # type: ignore[misc]
    """One game (``mode=single`` unless given) of a ruleset, turn by turn."""

    metadata = {"name": "crazy_eights_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(
        self,
        ruleset: str = "ultimate",
        *,
        players: int = 4,
        max_moves: int | None = 2000,
        render_mode: str | None = None,
        **settings: Any,
    ) -> None:
        super().__init__()
        if ruleset in ("classic", "ultimate", "countdown"):
            settings.setdefault("mode", "single")
        self.rules = Rules.preset(ruleset, players=players, **settings)
        self.max_moves = max_moves
        self.render_mode = render_mode
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        size = self._size = encoding.feature_size(self.rules, history=False)
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(
                        encoding.FEATURE_LOW, encoding.FEATURE_HIGH, (size,), np.float32
                    ),
                    "action_mask": spaces.Box(0, 1, (encoding.NUM_ACTIONS,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {
            a: spaces.Discrete(encoding.NUM_ACTIONS) for a in self.possible_agents
        }
        self.game: Game | None = None
        self._np_random = np.random.default_rng()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- the AEC protocol --------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._np_random = np.random.default_rng(seed)
        game_seed = int(self._np_random.integers(0, 1 << 62))
        self.game = new_game(self.rules, game_seed, log=False)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._moves = 0
        self.agent_selection = self._agent_of(self.game)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        game = self.game
        assert game is not None
        seat = self._seat[agent]
        if not game.is_over and game.current_player == seat and not self._truncated():
            mask = _action_mask(encoding.legal_action_ids(game)).copy()
        else:
            mask = np.zeros(encoding.NUM_ACTIONS, np.int8)
        features = np.zeros(self._size, np.float32)
        found = encoding.sparse_features(game, seat)
        count = len(found)  # arrays read straight from the dict: cheaper than from lists
        features[np.fromiter(found, np.intp, count)] = np.fromiter(
            found.values(), np.float32, count
        )
        return {"observation": features, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        assert game is not None and action is not None
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        game.apply(encoding.decode_action(int(action)))
        self._moves += 1
        if game.is_over or (self.max_moves is not None and self._moves >= self.max_moves):
            payoff = self._payoff(game)
            for a in self.agents:
                self.rewards[a] = payoff[self._seat[a]]
                self.terminations[a] = game.is_over
                self.truncations[a] = not game.is_over
        else:
            self.agent_selection = self._agent_of(game)
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.game is None:
            return None
        text = encoding.info_string(self.game, self.game.current_player or 0, log=False)
        if self.render_mode == "ansi":
            return text
        return None

    def close(self) -> None:
        pass

    # -- helpers ----------------------------------------------------------------------------

    def _truncated(self) -> bool:
        return self.max_moves is not None and self._moves >= self.max_moves

    def _agent_of(self, game: Game) -> str:
        seat = game.current_player
        return self.possible_agents[0 if seat is None else seat]

    def _payoff(self, game: Game) -> list[float]:
        n = self.rules.players
        result = game.result
        if self.rules.ruleset == "openspiel":
            if result is not None:
                return [-float(p) for p in result.points]
            return [-float(game.hand_points(s)) for s in range(n)]
        if result is None or result.winner is None:
            return [1.0 / n] * n
        return [1.0 if s == result.winner else 0.0 for s in range(n)]


_MASKS: dict[tuple[int, ...], np.ndarray] = {}
"""The action mask of each set of legal action ids met (copied into each observation:
a copy costs a small part of setting the ids in a new array)."""


def _action_mask(ids: tuple[int, ...]) -> np.ndarray:
    mask = _MASKS.get(ids)
    if mask is None:
        if len(_MASKS) > 20_000:
            _MASKS.clear()
        mask = _MASKS[ids] = np.zeros(encoding.NUM_ACTIONS, np.int8)
        mask[list(ids)] = 1
    return mask


def env(ruleset: str = "ultimate", **kwargs: Any) -> CrazyEightsEnv:
    """An AEC environment of ``ruleset`` (keyword settings as in ``Rules.preset``)."""
    return CrazyEightsEnv(ruleset, **kwargs)


__all__ = ["CrazyEightsEnv", "env"]
