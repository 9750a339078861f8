"""Fit ISMCTS's leaf evaluation (``bots/evaluation.py``) and write ``leaf_model.json``.

    python scripts/fit_leaf_model.py [--games 3000] [--jobs 2] [--seed 1]

For each shedding ruleset (classic, ultimate, countdown) and 2, 3 and 4 players it plays
single rounds between heuristic bots (one move in ten random, as ISMCTS's rollouts do),
records every position's features per seat and the round's winner (blockades left
out), and fits a conditional logit model (softmax over seats) by Newton's method with a
small L2 penalty. It prints each fit's log-loss against the hand-size-only model and
the share of positions where the favourite won. Needs numpy (the ``rl`` extra).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from crazy_eights.bots.evaluation import FEATURES, shedding_features
from crazy_eights.bots.heuristic import HeuristicBot
from crazy_eights.engine import Rules, new_game
from crazy_eights.sim.runner import mix

CONFIGS = [(r, p) for r in ("classic", "ultimate", "countdown") for p in (2, 3, 4)]
OUT = Path(__file__).resolve().parent.parent / "src/crazy_eights/bots/leaf_model.json"


def play(args: tuple[str, int, int, int]) -> tuple[list[list[list[float]]], list[int]]:
    """Positions (features per seat) and winners of ``games`` rounds from ``seed``."""
    ruleset, players, seed, games = args
    rules = Rules.preset(ruleset, players=players, mode="single")
    xs: list[list[list[float]]] = []
    ys: list[int] = []
    for g in range(games):
        game_seed = mix(seed, g)
        rng = random.Random(game_seed)
        bots = [HeuristicBot(seed=mix(game_seed, s)) for s in range(players)]
        game = new_game(rules, game_seed)
        rows: list[list[list[float]]] = []
        while not game.is_over and len(game.moves) < 1000:
            rows.append(shedding_features(game))
            seat = game.current_player
            assert seat is not None
            legal = game.legal_moves()
            if len(legal) > 1 and rng.random() < 0.1:
                move = rng.choice(legal)
            else:
                move = bots[seat].choose(game.view(seat, log=True), legal)
            game.play(move)
        result = game.result
        if result is None or result.winner is None:
            continue
        xs.extend(rows)
        ys.extend([result.winner] * len(rows))
    return xs, ys


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1e-3) -> np.ndarray:
    """Conditional logit by Newton's method: x is (positions, seats, features)."""
    n, _, f = x.shape
    theta = np.zeros(f)
    theta[0] = -0.5
    for _ in range(30):
        s = x @ theta
        s -= s.max(axis=1, keepdims=True)
        p = np.exp(s)
        p /= p.sum(axis=1, keepdims=True)
        mean = np.einsum("ns,nsf->nf", p, x)
        chosen = x[np.arange(n), y]
        grad = (chosen - mean).sum(axis=0) - l2 * n * theta
        centred = x - mean[:, None, :]
        hess = -np.einsum("ns,nsf,nsg->fg", p, centred, centred) - l2 * n * np.eye(f)
        step = np.linalg.solve(hess, grad)
        before = penalised(x, y, theta, l2)
        while penalised(x, y, theta - step, l2) > before + 1e-12 and np.abs(step).max() > 1e-9:
            step /= 2  # a damped Newton step: never let the loss go up
        theta -= step
        if np.abs(step).max() < 1e-7:
            break
    return theta


def penalised(x: np.ndarray, y: np.ndarray, theta: np.ndarray, l2: float) -> float:
    return log_loss(x, y, theta) + 0.5 * l2 * float(theta @ theta)


def log_loss(x: np.ndarray, y: np.ndarray, theta: np.ndarray) -> float:
    s = x @ theta
    s -= s.max(axis=1, keepdims=True)
    logp = s - np.log(np.exp(s).sum(axis=1, keepdims=True))
    return float(-logp[np.arange(len(y)), y].mean())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=3000, help="rounds per configuration")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    weights: dict[str, list[float]] = {}
    chunks = max(1, args.jobs * 4)
    with ProcessPoolExecutor(args.jobs) as pool:
        for ruleset, players in CONFIGS:
            start = time.time()
            per = -(-args.games // chunks)
            tasks = [(ruleset, players, mix(args.seed, players, k), per) for k in range(chunks)]
            xs: list[list[list[float]]] = []
            ys: list[int] = []
            for part_x, part_y in pool.map(play, tasks):
                xs.extend(part_x)
                ys.extend(part_y)
            x = np.asarray(xs, dtype=float)
            y = np.asarray(ys, dtype=int)
            # fit on four fifths, report on the rest, then refit on everything
            cut = len(y) * 4 // 5
            theta = fit(x[:cut], y[:cut])
            base = np.zeros(len(FEATURES))
            base[0] = -0.5
            held = f"held-out log-loss {log_loss(x[cut:], y[cut:], theta):.4f}"
            counts = f"hand sizes only {log_loss(x[cut:], y[cut:], base):.4f}"
            favourite = float(np.mean(np.argmax(x[cut:] @ theta, axis=1) == y[cut:]))
            theta = fit(x, y)
            weights[f"{ruleset}:{players}"] = [round(float(t), 4) for t in theta]
            print(
                f"{ruleset} {players}p: {len(y)} positions, {held} ({counts}), "
                f"favourite won {favourite:.1%} ({time.time() - start:.0f} s)",
                flush=True,
            )
            print("   " + ", ".join(f"{k}={v:+.3f}" for k, v in zip(FEATURES, theta, strict=True)))
    data = {
        "features": list(FEATURES),
        "fitted_by": "scripts/fit_leaf_model.py",
        "games_per_configuration": args.games,
        "seed": args.seed,
        "weights": weights,
    }
    args.out.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
