"""Our engine against OpenSpiel's crazy_eights: speed of random playouts, and a match of
our ISMCTS against OpenSpiel's MCTS over sampled worlds (PIMC), at equal time per move.

    PYTHONPATH=src python bench/vs_openspiel.py [--seconds 5] [--games 40] [--ms 200]

Playouts: 4 players, with and without special cards; OpenSpiel's C++ game is driven
from Python (chance outcomes and actions drawn with Python's ``random``), ours plays
random legal moves of the ``openspiel`` preset; the first line says which build of our
engine ran (the pure Python one, or the mypyc-compiled one that ``.ci/run`` builds).
Match: one seat is our ismcts (worlds sampled from its view; every deal is played once
from each seat), the other seats OpenSpiel's ``MCTSBot`` run on a world sampled
with ``interop.openspiel``'s resampler (a fresh determinization each move, PIMC), both
given ``--ms`` per move. A game counts as a win when our seat has the best return
(ties share); the 95% interval is Wilson's.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
import pyspiel

from crazy_eights.engine import Rules, new_game, shedding
from crazy_eights.interop import openspiel as os_interop
from crazy_eights.sim.report import wilson


def engine_build() -> str:
    """Which build of the engine this run measures: mypyc-compiled or pure Python."""
    return "mypyc-compiled" if not shedding.__file__.endswith(".py") else "pure Python"


def openspiel_playouts(seconds: float, *, special: bool) -> float:
    game = pyspiel.load_game(
        "crazy_eights", {"players": 4, "use_special_cards": special, "reshuffle": False}
    )
    rng = random.Random(1)
    count = 0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        count += 1
    return count / seconds


def our_playouts(seconds: float, *, special: bool) -> float:
    rules = Rules.preset("openspiel", players=4, action_cards=special)
    rng = random.Random(1)
    count = 0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        game = new_game(rules, rng.getrandbits(62))
        while not game.is_over:
            game.play(rng.choice(game.legal_moves()))
        count += 1
    return count / seconds


class PimcMcts:
    """OpenSpiel's MCTSBot on one sampled world per move (perfect-information MC)."""

    def __init__(self, game: pyspiel.Game, *, seed: int, ms: float) -> None:
        from open_spiel.python.algorithms import mcts

        self.ms = ms
        self.resample = os_interop.make_resampler(seed)
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
        self.bot = mcts.MCTSBot(
            game, 2.0, 10**9, evaluator, solve=False, random_state=np.random.RandomState(seed)
        )
        self.mcts = mcts

    def step(self, state: os_interop.CrazyEightsState) -> int:
        world = self.resample(state, state.current_player())
        deadline = time.perf_counter() + self.ms / 1000.0
        root = self.mcts.SearchNode(None, world.current_player(), 1)
        bot = self.bot
        sims = 0
        # run the bot's search loop by hand so that it stops on time
        while time.perf_counter() < deadline or sims < 2:
            visit_path, working_state = bot._apply_tree_policy(root, world.clone())
            returns = (
                working_state.returns()
                if working_state.is_terminal()
                else bot.evaluator.evaluate(working_state)
            )
            for node in reversed(visit_path):
                node.total_reward += returns[node.player if node.player >= 0 else 0] / 100.0
                node.explore_count += 1
            sims += 1
        best = max(root.children, key=lambda c: (c.explore_count, c.total_reward))
        return int(best.action)


def match(games: int, ms: float, *, special: bool, players: int) -> tuple[float, int]:
    from crazy_eights.bots import make_bot

    game = os_interop.load("openspiel", players=players, action_cards=special)
    wins = 0.0
    for g in range(games):
        state = game.new_initial_state()
        rng = random.Random(g // players)  # every deal is played once from each seat
        while state.is_chance_node():
            state.apply_action(rng.randrange(256))
        ours_seat = g % players
        ours = make_bot("ismcts", seed=g, time_ms=ms)
        theirs = PimcMcts(game, seed=g, ms=ms)
        while not state.is_terminal():
            seat = state.current_player()
            legal = state.legal_actions()
            if len(legal) == 1:
                action = legal[0]
            elif seat == ours_seat:
                engine = state.game
                move = ours.choose(engine.view(seat, log=True), engine.legal_moves())
                action = os_interop.encoding.encode_move(move)
            else:
                action = theirs.step(state)
            state.apply_action(action)
        returns = state.returns()
        best = max(returns)
        if returns[ours_seat] == best:
            wins += 1.0 / sum(1 for r in returns if r == best)
        print(f"  game {g + 1}: returns {returns} (ismcts seat {ours_seat})", flush=True)
    return wins, games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--ms", type=float, default=200.0)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--special", action="store_true", help="special cards in the match")
    args = parser.parse_args()
    print(f"engine build: {engine_build()}")
    for special in (False, True):
        theirs = openspiel_playouts(args.seconds, special=special)
        ours = our_playouts(args.seconds, special=special)
        print(
            f"random playouts/s, 4 players, special cards {'on' if special else 'off'}: "
            f"OpenSpiel C++ {theirs:.0f}, ours {ours:.0f}, ratio {ours / theirs:.2f}"
        )
    if args.games:
        print(
            f"match: our ismcts vs OpenSpiel MCTS (PIMC), {args.players} players, "
            f"{args.ms:.0f} ms a move, special cards {'on' if args.special else 'off'}"
        )
        wins, games = match(args.games, args.ms, special=args.special, players=args.players)
        _, low, high = wilson(wins, games)
        print(
            f"ismcts win rate {wins / games:.1%} over {games} games "
            f"(95% interval {low:.1%} to {high:.1%})"
        )


if __name__ == "__main__":
    main()
