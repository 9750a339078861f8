"""Random-playout speed of the engine, through its public API.

Each game is ``new_game`` then ``legal_moves()`` and ``play()`` with a uniformly random
choice until the game is over, single-threaded. A "game" is one round (mode=single) for
classic, ultimate and countdown, as in OpenSpiel's crazy_eights; cycles is one game.

    python bench/engine.py                # every preset, 2 s each
    python bench/engine.py --seconds 0.2  # quick smoke run
    python bench/engine.py --only classic --profile

Reference for classic 4 players: OpenSpiel's C++ crazy_eights driven from Python on
this kind of machine runs 3,336 games/s (figure quoted by issue 2; issue 5's
bench/vs_openspiel.py measures it side by side), and the target here is 6,700.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time

from crazy_eights import Rules, new_game

CASES: list[tuple[str, int, dict[str, object]]] = [
    ("classic", 2, {"mode": "single"}),
    ("classic", 4, {"mode": "single"}),
    ("ultimate", 2, {"mode": "single"}),
    ("ultimate", 4, {"mode": "single"}),
    ("countdown", 2, {"mode": "single"}),
    ("countdown", 4, {"mode": "single"}),
    ("cycles", 4, {}),
    ("cycles", 11, {}),
    ("classic", 4, {"mode": "match"}),
]
OPENSPIEL_CLASSIC_4P = 3336.0
TARGET_CLASSIC_4P = 6700.0


def playouts(rules: Rules, seconds: float, seed: int = 0) -> tuple[int, int, float]:
    """Play random games for about ``seconds``; return (games, moves, elapsed)."""
    choice = random.Random(seed).choice
    games = moves = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        game = new_game(rules, seed=seed + games)
        while not game.is_over:
            game.play(choice(game.legal_moves()))
            moves += 1
        games += 1
        if games % 16 == 0 and time.perf_counter() > deadline:
            break
    return games, moves, time.perf_counter() - start


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per case")
    parser.add_argument("--only", help="run only this ruleset")
    parser.add_argument("--profile", action="store_true", help="cProfile the first case")
    args = parser.parse_args(argv)
    columns = ("games/s", "moves/s", "moves/game")
    print(f"{'ruleset':<10} {'players':>7} {'mode':<6} " + " ".join(f"{c:>10}" for c in columns))
    for name, players, options in CASES:
        if args.only and name != args.only:
            continue
        try:
            rules = Rules.preset(name, players=players, **options)
            new_game(rules, seed=0)
        except (ImportError, NotImplementedError) as exc:
            print(f"{name:<10} {players:>7} skipped: {exc}")
            continue
        if args.profile:
            profiler = cProfile.Profile()
            profiler.enable()
            playouts(rules, args.seconds)
            profiler.disable()
            pstats.Stats(profiler).sort_stats("tottime").print_stats(15)
            return 0
        games, moves, elapsed = playouts(rules, args.seconds)
        mode = str(options.get("mode", "-"))
        print(
            f"{name:<10} {players:>7} {mode:<6} {games / elapsed:>10,.0f} "
            f"{moves / elapsed:>10,.0f} {moves / games:>10.1f}"
        )
        if (name, players, mode) == ("classic", 4, "single"):
            rate = games / elapsed
            print(
                f"{'':>10} classic 4p vs OpenSpiel C++ ({OPENSPIEL_CLASSIC_4P:,.0f}/s): "
                f"{rate / OPENSPIEL_CLASSIC_4P:.2f}x; target {TARGET_CLASSIC_4P:,.0f}/s: "
                f"{rate / TARGET_CLASSIC_4P:.0%}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
