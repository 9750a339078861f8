"""Random-playout speed of the engine, every preset, through its public API.

Each game is dealt with ``new_game`` and played to the end with uniformly random legal
moves, single-threaded, two ways: ``play`` (``legal_moves()`` and ``play()`` on a game
that keeps its event log, as the card room plays) and ``playout`` (one
``playout(seed=...)`` call on a game without a log, as the search bot's rollouts
play). A "game" is one round (mode=single) for classic, ultimate and countdown, as in
OpenSpiel's crazy_eights; cycles is one game. Times are the process's CPU time, so
other work on a shared machine weighs less on them.

    python bench/engine.py                # every preset, 2 s each
    python bench/engine.py --seconds 0.2  # quick smoke run
    python bench/engine.py --only classic --profile

For the comparison with OpenSpiel's C++ game, side by side in one run, see
``bench/vs_openspiel.py``.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time

from crazy_eights import Rules, new_game
from crazy_eights.engine.game import COMPILED

CASES: list[tuple[str, int, dict[str, object]]] = [
    ("classic", 2, {"mode": "single"}),
    ("classic", 4, {"mode": "single"}),
    ("ultimate", 2, {"mode": "single"}),
    ("ultimate", 4, {"mode": "single"}),
    ("countdown", 2, {"mode": "single"}),
    ("countdown", 4, {"mode": "single"}),
    ("cycles", 4, {}),
    ("cycles", 11, {}),
    ("openspiel", 4, {}),
    ("classic", 4, {"mode": "match"}),
]


def played(rules: Rules, seconds: float, seed: int = 0) -> tuple[int, int, float]:
    """Play random games move by move for about ``seconds``: (games, moves, elapsed)."""
    choice = random.Random(seed).choice
    games = moves = 0
    start = time.process_time()
    deadline = start + seconds
    while True:
        game = new_game(rules, seed=seed + games)
        while not game.is_over:
            game.play(choice(game.legal_moves()))
            moves += 1
        games += 1
        if games % 16 == 0 and time.process_time() > deadline:
            break
    return games, moves, time.process_time() - start


def played_out(rules: Rules, seconds: float, seed: int = 0) -> tuple[int, int, float]:
    """The same games in one ``playout`` call each: (games, moves, elapsed)."""
    games = moves = 0
    start = time.process_time()
    deadline = start + seconds
    while True:
        moves += new_game(rules, seed=seed + games, log=False).playout(seed=games)
        games += 1
        if games % 16 == 0 and time.process_time() > deadline:
            break
    return games, moves, time.process_time() - start


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per case and way")
    parser.add_argument("--only", help="run only this ruleset")
    parser.add_argument("--profile", action="store_true", help="cProfile the first case")
    args = parser.parse_args(argv)
    print(f"engine build: {'mypyc-compiled' if COMPILED else 'pure Python'}")
    header = ("play games/s", "moves/s", "playout games/s", "moves/s", "moves/game")
    print(f"{'ruleset':<10} {'players':>7} {'mode':<6} " + " ".join(f"{c:>15}" for c in header))
    for name, players, options in CASES:
        if args.only and name != args.only:
            continue
        rules = Rules.preset(name, players=players, **options)
        if args.profile:
            profiler = cProfile.Profile()
            profiler.enable()
            played_out(rules, args.seconds)
            profiler.disable()
            pstats.Stats(profiler).sort_stats("tottime").print_stats(15)
            return 0
        games, moves, elapsed = played(rules, args.seconds)
        fast_games, fast_moves, fast_elapsed = played_out(rules, args.seconds)
        mode = str(options.get("mode", "-"))
        figures = (
            games / elapsed,
            moves / elapsed,
            fast_games / fast_elapsed,
            fast_moves / fast_elapsed,
            moves / games,
        )
        print(
            f"{name:<10} {players:>7} {mode:<6} "
            + " ".join(f"{x:>15,.0f}" if k < 4 else f"{x:>15.1f}" for k, x in enumerate(figures))
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
