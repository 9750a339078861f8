"""Figures of a batch of games, with 95% intervals, as Rich tables, JSON and plots.

Win rates use the Wilson score interval; means (points, round length, decision time)
use the normal interval ``mean +- 1.96 s / sqrt(n)``.
"""

from __future__ import annotations

import importlib
import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.table import Table

from crazy_eights.extras import require

from .runner import GameRecord

Z95 = 1.959963984540054


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float, float]:
    """(rate, low, high): the Wilson score interval of a proportion."""
    if trials <= 0:
        return (math.nan, 0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (p, max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """(mean, low, high) with the normal approximation."""
    if not values:
        return (math.nan, math.nan, math.nan)
    mean = statistics.fmean(values)
    if len(values) < 2:
        return (mean, mean, mean)
    half = z * statistics.stdev(values) / math.sqrt(len(values))
    return (mean, mean - half, mean + half)


@dataclass(frozen=True)
class Interval:
    value: float
    low: float
    high: float

    def to_dict(self) -> dict[str, float]:
        return {"value": self.value, "low": self.low, "high": self.high}

    def percent(self) -> str:
        return f"{100 * self.value:5.1f}% [{100 * self.low:.1f}, {100 * self.high:.1f}]"

    def plain(self, digits: int = 1) -> str:
        return f"{self.value:.{digits}f} [{self.low:.{digits}f}, {self.high:.{digits}f}]"


def summarize(
    records: Sequence[GameRecord],
    bots: Sequence[str],
    *,
    rules: dict[str, Any],
    seed: int,
    games: int,
) -> dict[str, Any]:
    """The figures of a batch, JSON-ready; ``games`` is how many were asked for."""
    done = [r for r in records if r.finished]
    return {
        "rules": rules,
        "bots": list(bots),
        "seed": seed,
        "games_requested": games,
        "games_played": len(records),
        "games_finished": len(done),
        "partial": len(records) < games,
        "players": [player_figures(done, p, spec) for p, spec in enumerate(bots)],
        **game_figures(done),
        "par": 1.0 / len(bots) if bots else math.nan,
        "game_lengths": [r.moves for r in done],
    }


def player_figures(done: Sequence[GameRecord], player: int, bot: str) -> dict[str, Any]:
    """One player's row of a batch: wins, points, rank and decision time over ``done``."""
    wins = sum(1 for r in done if r.winner == player)
    return {
        "player": player,
        "bot": bot,
        "games": len(done),
        "wins": wins,
        "win_rate": Interval(*wilson(wins, len(done))).to_dict(),
        "mean_points": Interval(*mean_interval([r.points[player] for r in done])).to_dict(),
        "mean_rank": Interval(*mean_interval([r.ranks[player] for r in done])).to_dict(),
        "decision_ms": _decision_ms(done, player),
    }


def _decision_ms(done: Sequence[GameRecord], player: int) -> float:
    """Mean milliseconds a player spent on a decision that had a choice (0 without any)."""
    decisions = sum(r.decisions[player] for r in done if r.decisions)
    think = sum(r.think[player] for r in done if r.think)
    return 1000 * think / decisions if decisions else 0.0


def game_figures(done: Sequence[GameRecord]) -> dict[str, Any]:
    """Figures of the games themselves: draws, lengths and the first mover's advantage."""
    first_wins = sum(1 for r in done if r.winner is not None and r.winner == r.first)
    round_lengths = [r.moves / r.rounds for r in done if r.rounds]
    return {
        "draws": sum(1 for r in done if r.winner is None),
        "mean_round_length": Interval(*mean_interval(round_lengths)).to_dict(),
        "mean_rounds": Interval(*mean_interval([r.rounds for r in done])).to_dict(),
        "mean_game_length": Interval(*mean_interval([r.moves for r in done])).to_dict(),
        "first_player_win_rate": Interval(*wilson(first_wins, len(done))).to_dict(),
    }


def _iv(data: dict[str, float]) -> Interval:
    return Interval(data["value"], data["low"], data["high"])


def batch_table(summary: dict[str, Any]) -> Table:
    """One row per player (bot) of a batch."""
    rules = summary["rules"]
    title = (
        f"{rules['ruleset']}, {rules['players']} players, {summary['games_finished']} games"
        f" (seed {summary['seed']})" + ("  [partial]" if summary["partial"] else "")
    )
    table = Table(title=title)
    table.add_column("player")
    table.add_column("bot")
    table.add_column("wins", justify="right")
    table.add_column("win rate [95%]", justify="right")
    table.add_column("mean points [95%]", justify="right")
    table.add_column("mean rank", justify="right")
    table.add_column("ms/decision", justify="right")
    for row in summary["players"]:
        table.add_row(
            str(row["player"]),
            row["bot"],
            str(row["wins"]),
            _iv(row["win_rate"]).percent(),
            _iv(row["mean_points"]).plain(1),
            f"{row['mean_rank']['value']:.2f}",
            f"{row['decision_ms']:.2f}",
        )
    table.caption = (
        f"mean round length {_iv(summary['mean_round_length']).plain(1)} moves; "
        f"first player wins {_iv(summary['first_player_win_rate']).percent()} "
        f"(par {100 * summary['par']:.1f}%); no winner in {summary['draws']} games"
    )
    return table


def pyplot() -> Any:
    """matplotlib's ``pyplot``, drawing to files; ``MissingExtra`` without the ``lab`` extra."""
    matplotlib = require("matplotlib", extra="lab", feature="--plot")
    matplotlib.use("Agg")
    return importlib.import_module("matplotlib.pyplot")


def plot_batch(summary: dict[str, Any], path: str) -> None:
    """Win rates with 95% error bars and the distribution of game length, to a PNG."""
    plt = pyplot()
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    labels = [f"{row['player']}: {row['bot']}" for row in summary["players"]]
    rates = [row["win_rate"]["value"] for row in summary["players"]]
    lows = [row["win_rate"]["value"] - row["win_rate"]["low"] for row in summary["players"]]
    highs = [row["win_rate"]["high"] - row["win_rate"]["value"] for row in summary["players"]]
    left.bar(range(len(rates)), rates, yerr=[lows, highs], capsize=6, color="#4477aa")
    left.axhline(summary["par"], color="grey", linestyle="--", label="par")
    left.set_xticks(range(len(rates)), labels, rotation=15, ha="right", fontsize=8)
    left.set_ylabel("win rate (95% Wilson interval)")
    left.set_ylim(0, 1)
    left.legend()
    lengths = summary["game_lengths"]
    if lengths:
        right.hist(lengths, bins=min(40, max(5, len(set(lengths)))), color="#66aa55")
    right.set_xlabel("moves per game")
    right.set_ylabel("games")
    rules = summary["rules"]
    fig.suptitle(
        f"{rules['ruleset']}, {rules['players']} players, {summary['games_finished']} games"
    )
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


__all__ = [
    "Interval",
    "batch_table",
    "mean_interval",
    "plot_batch",
    "pyplot",
    "summarize",
    "wilson",
]
