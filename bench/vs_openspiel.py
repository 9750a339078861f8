"""Our engine against OpenSpiel's crazy_eights: speed of random playouts side by side,
and a match of our ISMCTS against OpenSpiel's MCTS over sampled worlds (PIMC).

    PYTHONPATH=src python bench/vs_openspiel.py [--seconds 6] [--rounds 6] [--games 40]
    PYTHONPATH=src python bench/vs_openspiel.py --games 0 --profile   # where the time goes

Playouts, 4 players, random legal moves to the end of the round, all in this one run:
OpenSpiel's C++ ``crazy_eights`` (special cards off and on, no reshuffle) driven from
Python as its users drive it, ``state.apply_action(rng.choice(state.legal_actions()))``
with every chance outcome (each card dealt or drawn) drawn the same way; and ours on
the ``openspiel`` preset with the same settings, and classic 4 players (one round)
beside them, three ways:

- ``playout``: ``new_game(rules, seed, log=False).playout(seed=...)``, the whole game
  in one call (what the search bot's rollouts use): no event, no move object;
- ``apply``: ``legal_moves()`` and ``apply(rng.choice(...))`` move by move, no events;
- ``play``: ``legal_moves()`` and ``play(...)`` on a game that keeps its event log, as
  the card room does.

Each engine runs in ``--rounds`` slices of ``--seconds / --rounds`` of the process's CPU
time, the engines taking turns, so that other work on a shared machine weighs on both
alike and little on either; the ratio is ours over OpenSpiel's. The first line says
which build of our engine ran (the pure Python one, or the mypyc-compiled one that
``.ci/run`` builds and tests). ``--profile`` shows where our playout's time goes.

Match: one seat is our ismcts (worlds sampled from its view; every deal is played once
from each seat), the other seats OpenSpiel's ``MCTSBot`` run on a world sampled with
``interop.openspiel``'s resampler (a fresh determinization each move, PIMC), both
given ``--ms`` per move. A game counts as a win when our seat has the best return
(ties share); the 95% interval is Wilson's.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import time
from collections.abc import Callable

import numpy as np
import pyspiel

from crazy_eights.engine import Rules, new_game
from crazy_eights.engine.game import COMPILED
from crazy_eights.interop import openspiel as os_interop
from crazy_eights.sim.report import wilson

Runner = Callable[[random.Random, float], int]


def engine_build() -> str:
    """Which build of the engine this run measures: mypyc-compiled or pure Python."""
    return "mypyc-compiled" if COMPILED else "pure Python"


def openspiel_runner(special: bool) -> Runner:
    game = pyspiel.load_game(
        "crazy_eights", {"players": 4, "use_special_cards": special, "reshuffle": False}
    )

    def run(rng: random.Random, seconds: float) -> int:
        choice = rng.choice
        count = 0
        end = time.process_time() + seconds
        while time.process_time() < end:
            state = game.new_initial_state()
            while not state.is_terminal():
                state.apply_action(choice(state.legal_actions()))
            count += 1
        return count

    return run


def playout_runner(rules: Rules) -> Runner:
    def run(rng: random.Random, seconds: float) -> int:
        bits = rng.getrandbits
        count = 0
        end = time.process_time() + seconds
        while time.process_time() < end:
            new_game(rules, bits(62), log=False).playout(seed=bits(32))
            count += 1
        return count

    return run


def move_runner(rules: Rules, *, events: bool) -> Runner:
    def run(rng: random.Random, seconds: float) -> int:
        choice = rng.choice
        count = 0
        end = time.process_time() + seconds
        while time.process_time() < end:
            game = new_game(rules, rng.getrandbits(62), log=events)
            step = game.play if events else game.apply
            while not game.is_over:
                step(choice(game.legal_moves()))
            count += 1
        return count

    return run


def side_by_side(runners: dict[str, Runner], seconds: float, rounds: int) -> dict[str, float]:
    """Games per second of each runner, the runners taking turns in ``rounds`` slices."""
    games = dict.fromkeys(runners, 0)
    rng = random.Random(1)
    for _ in range(rounds):
        for name, run in runners.items():
            games[name] += run(rng, seconds / rounds)
    return {name: count / seconds for name, count in games.items()}


def playouts(seconds: float, rounds: int) -> None:
    classic = Rules.preset("classic", players=4, mode="single")
    for special in (False, True):
        rules = Rules.preset("openspiel", players=4, action_cards=special)
        runners: dict[str, Runner] = {
            "OpenSpiel C++": openspiel_runner(special),
            "ours playout": playout_runner(rules),
            "ours apply": move_runner(rules, events=False),
            "ours play": move_runner(rules, events=True),
        }
        if not special:
            runners["classic 4p playout"] = playout_runner(classic)
            runners["classic 4p play"] = move_runner(classic, events=True)
        rates = side_by_side(runners, seconds, rounds)
        theirs = rates.pop("OpenSpiel C++")
        print(
            f"random playouts/s, 4 players, special cards {'on' if special else 'off'}: "
            f"OpenSpiel C++ {theirs:,.0f}"
        )
        for name, rate in rates.items():
            print(f"  {name:<20} {rate:>9,.0f}   ratio {rate / theirs:.2f}")


def breakdown(rules: Rules, games: int = 3000) -> None:
    """CPU time of a playout in its two parts: dealing (``new_game``) and playing."""
    seeds = list(range(games))
    start = time.process_time()
    dealt = [new_game(rules, seed, log=False) for seed in seeds]
    deal = time.process_time() - start
    start = time.process_time()
    moves = sum(game.playout(seed=seed) for seed, game in zip(seeds, dealt, strict=True))
    play = time.process_time() - start
    print(
        f"  {rules.ruleset} 4p: deal {deal / games * 1e6:.1f} us/game, play "
        f"{play / games * 1e6:.1f} us/game ({moves / games:.1f} moves, "
        f"{play / moves * 1e9:.0f} ns/move)"
    )


def profile(seconds: float) -> None:
    """Where the time of our playout goes: deal against play, then (telling for the
    pure Python build; a compiled one shows only its calls into Python) cProfile."""
    rules = Rules.preset("openspiel", players=4)
    print("playout time, dealing and playing (CPU time):")
    breakdown(rules)
    breakdown(Rules.preset("openspiel", players=4, action_cards=True))
    profiler = cProfile.Profile()
    profiler.enable()
    playout_runner(rules)(random.Random(2), seconds)
    profiler.disable()
    pstats.Stats(profiler).sort_stats("tottime").print_stats(14)


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
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, weights)[0])
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
                assert engine is not None
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
    parser.add_argument("--seconds", type=float, default=6.0, help="per runner and case")
    parser.add_argument("--rounds", type=int, default=6, help="slices the runners alternate")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--ms", type=float, default=200.0)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--special", action="store_true", help="special cards in the match")
    parser.add_argument("--profile", action="store_true", help="profile our playouts")
    args = parser.parse_args()
    print(f"engine build: {engine_build()}")
    if args.profile:
        profile(args.seconds)
    else:
        playouts(args.seconds, args.rounds)
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
