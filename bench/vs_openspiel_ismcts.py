"""Our search bot against OpenSpiel's own ``ISMCTSBot``, same CPU time a move, on our
game through ``interop.openspiel``: 4 players, special cards (issue 15, item 5).

    PYTHONPATH=src python bench/vs_openspiel_ismcts.py [--deals 50] [--ms 150] [--seed 1]

Table: the ``openspiel`` ruleset (``python_crazy_eights_openspiel``, OpenSpiel's
crazy_eights rules) with ``action_cards=True``, 4 players, one round.

Seating, head to head, two of each: every deal (the chance outcomes of the dealing,
drawn from ``--seed`` and the deal's number) is played twice, first with our bots in
seats 0 and 2 and theirs in 1 and 3, then with the sides swapped, so each side holds
every hand of the deal once and sits before and after the other side alike. A game is
won by the side of the seat with the best return (ties share the game). The win rate is
our side's share of the games (par 50%; the target 60%), its 95% interval Wilson's over
the games. Two games of a deal are not independent (the same cards), which makes the
interval if anything a little wide: pairing removes the luck of the cards.

Time: each bot gets ``--ms`` of this process's CPU time a move (``clock="cpu"`` for
ours; theirs runs its own search loop, ``_apply_tree_policy`` aside, with the same
deadline checked between simulations), so other work on a shared machine takes time
from neither. A move with a single legal action is played without thinking, for both.

Theirs: ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` as its authors built it,
UCT with ``--uct-c`` (2.0), a fresh determinization every simulation from
``interop.openspiel``'s resampler (``set_resampler``; the bot's way for games without a
C++ resampler), information-state-string keys, the most visited move, and
``RandomRolloutEvaluator`` (one random rollout to the end of the round). Both sides
play to win: the ruleset pays minus the points left in hand, and theirs is given each
seat's share of the win (1 to the best return, split on ties) as its reward instead,
what ours maximises and what this bench counts, so that neither chases points.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from crazy_eights.bots.ismcts import IsmctsBot
from crazy_eights.bots.ismcts_config import IsmctsConfig
from crazy_eights.engine.game import COMPILED
from crazy_eights.interop import openspiel as os_interop
from crazy_eights.sim.report import wilson


def win_shares(returns: Sequence[float]) -> list[float]:
    """1 to the seat with the best return, shared on ties; 0 to the others."""
    best = max(returns)
    winners = [s for s, r in enumerate(returns) if r == best]
    return [1.0 / len(winners) if s in winners else 0.0 for s in range(len(returns))]


class WinRollouts(mcts.RandomRolloutEvaluator):  # type: ignore[misc]
    """OpenSpiel's random rollout evaluator, scoring the end by ``win_shares``."""

    def evaluate(self, state: Any) -> np.ndarray:
        """The win shares of one random rollout to the end of the round."""
        return np.array(win_shares(list(super().evaluate(state))))


class TimedIsmcts(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's ISMCTSBot, stopped by a CPU-time deadline, rewarded by win shares."""

    def __init__(self, game: Any, *, seed: int, ms: float, uct_c: float) -> None:
        evaluator = WinRollouts(1, np.random.RandomState(seed))
        super().__init__(
            game, evaluator, uct_c, 10**9, random_state=np.random.RandomState(seed + 1)
        )
        self.set_resampler(os_interop.make_resampler(seed + 2))
        self.ms = ms
        self.last_simulations = 0

    def run_simulation(self, state: Any) -> Any:
        """Their simulation; a finished round is worth its win shares."""
        if state.is_terminal():
            return win_shares(state.returns())
        return super().run_simulation(state)

    def run_search(self, state: Any) -> Any:
        """``ISMCTSBot.run_search`` with the simulation count replaced by the deadline."""
        self.reset()
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        self._root_node = self.create_new_node(state)
        deadline = time.process_time() + self.ms / 1000.0
        sims = 0
        while sims < 1 or time.process_time() < deadline:
            self.run_simulation(self.sample_root_state(state))
            sims += 1
        self.last_simulations = sims
        return self.get_final_policy(state, self._root_node)


def deal(game: Any, seed: int) -> Any:
    """A dealt state: the chance outcomes drawn from ``seed``."""
    state = game.new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node():
        outcomes, weights = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(outcomes, weights)[0])
    return state


def play(
    state: Any, ours: dict[int, IsmctsBot], theirs: dict[int, TimedIsmcts], work: list[int]
) -> list[float]:
    """Play a dealt state to the end; each seat's win share. ``work`` adds up the
    decisions and the iterations (simulations) of ours and of theirs."""
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        if len(legal) == 1:
            action = legal[0]
        elif seat in ours:
            engine = state.game
            move = ours[seat].choose(engine.view(seat, log=True), engine.legal_moves())
            action = os_interop.encoding.encode_move(move)
            work[0] += 1
            work[1] += ours[seat].last_iterations
        else:
            action = int(theirs[seat].step(state))
            work[2] += 1
            work[3] += theirs[seat].last_simulations
        state.apply_action(action)
    return win_shares(state.returns())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=50, help="each played twice")
    parser.add_argument("--ms", type=float, default=150.0, help="CPU time a move, both")
    parser.add_argument("--uct-c", type=float, default=2.0, help="theirs")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--search", default="", help="extra options of ours, k=v,k=v")
    args = parser.parse_args()
    from crazy_eights.bots.levels import parse_bot_spec

    _, extra = parse_bot_spec("ismcts:" + args.search)
    config = IsmctsConfig.from_options({"time_ms": args.ms, "clock": "cpu", **extra})
    game = os_interop.load("openspiel", players=4, action_cards=True)
    print(
        f"engine build: {'mypyc-compiled' if COMPILED else 'pure Python'}; "
        f"ours {config.spec()} vs OpenSpiel ISMCTSBot (uct_c={args.uct_c}), "
        f"{args.ms:.0f} ms CPU a move, 4 players, special cards, pyspiel {pyspiel.__version__}",
        flush=True,
    )
    won = 0.0
    games = 0
    work = [0, 0, 0, 0]
    try:
        for d in range(args.deals):
            for side in (0, 1):
                mine = (0, 2) if side == 0 else (1, 3)
                key = (args.seed * 1_000_003 + d) * 2 + side
                ours = {s: IsmctsBot(seed=key * 4 + s, config=config) for s in mine}
                theirs = {
                    s: TimedIsmcts(game, seed=key * 4 + s, ms=args.ms, uct_c=args.uct_c)
                    for s in range(4)
                    if s not in mine
                }
                shares = play(deal(game, args.seed * 1_000_003 + d), ours, theirs, work)
                won += sum(shares[s] for s in mine)
                games += 1
                rate, low, high = wilson(won, games)
                print(
                    f"  deal {d + 1} ours at {mine}: shares {shares}; "
                    f"ours {won:g}/{games} {rate:.1%} [{low:.1%}, {high:.1%}]",
                    flush=True,
                )
    except KeyboardInterrupt:  # stopped for time: report the games finished
        print(f"stopped after {games} games", flush=True)
    rate, low, high = wilson(won, games)
    verdict = "holds" if low >= 0.60 else ("fails" if high < 0.60 else "unsure")
    print(
        f"ours vs OpenSpiel ISMCTS, 2 v 2: {won:g}/{games} = {rate:.1%} "
        f"(95% {low:.1%} to {high:.1%}); target 60%: {verdict}"
    )
    print(
        f"a decision: ours {work[1] / max(1, work[0]):,.0f} iterations ({work[0]} decisions), "
        f"theirs {work[3] / max(1, work[2]):,.0f} simulations ({work[2]} decisions)"
    )


if __name__ == "__main__":
    main()
