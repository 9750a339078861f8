"""The lab's commands, ``sim`` and ``tournament``; ``register(app)`` adds them to the CLI."""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from crazy_eights.bots.levels import parse_bot_spec
from crazy_eights.engine.rules import Rules, RulesError, parse_setting_pairs
from crazy_eights.extras import MissingExtra

from .ratings import Standing, rate
from .report import batch_table, plot_batch, pyplot, summarize
from .runner import GameRecord, Remote, run_games

console = Console(highlight=False)

RulesOpt = Annotated[str, typer.Option("--rules", help="classic, ultimate, countdown or cycles")]
PlayersOpt = Annotated[int, typer.Option("--players", help="seats at each table")]
GamesOpt = Annotated[int, typer.Option("--games", help="games to play (per pairing)")]
SeedOpt = Annotated[int, typer.Option("--seed", help="seed of the whole batch")]
JobsOpt = Annotated[int, typer.Option("--jobs", help="worker processes (0: all cores)")]
JsonOpt = Annotated[Path | None, typer.Option("--json", help="write the figures to this file")]
PlotOpt = Annotated[Path | None, typer.Option("--plot", help="draw the figures to this PNG")]
SetOpt = Annotated[
    list[str] | None, typer.Option("--set", help="a table setting key=value (repeatable)")
]
ClusterOpt = Annotated[
    str | None,
    typer.Option(
        "--cluster",
        help="play on the Dask cluster whose scheduler is at this address (tcp://host:port)"
        " instead of local processes; needs the lab-cluster extra",
    ),
]
ChunkOpt = Annotated[
    int | None,
    typer.Option("--chunk", min=1, help="games per cluster task (default: from the size)"),
]


def _rules(ruleset: str, players: int, settings: list[str] | None) -> Rules:
    try:
        return Rules.preset(ruleset, players=players, **parse_setting_pairs(settings or []))
    except RulesError as exc:
        raise typer.BadParameter(str(exc)) from None


def _bots(text: str) -> list[str]:
    bots = [b.strip() for b in text.split(";" if ";" in text else ",") if b.strip()]
    # "ismcts:iterations=200,c=0.5" style options use ';' between bots
    for spec in bots:
        try:
            parse_bot_spec(spec)
        except ValueError as exc:
            raise typer.BadParameter(str(exc)) from None
    return bots


def _need_plots(plot: Path | None) -> None:
    """Refuse ``--plot`` before any game is played when matplotlib is not installed."""
    if plot is not None:
        try:
            pyplot()
        except MissingExtra as exc:
            raise typer.BadParameter(str(exc), param_hint="'--plot'") from None


def _jobs(jobs: int) -> int:
    return jobs if jobs > 0 else (os.cpu_count() or 1)


@contextmanager
def _games_on(cluster: str | None, chunk: int | None, jobs: int) -> Iterator[Remote | None]:
    """The cluster to play on (connected for the whole command), or None: local processes.

    Refuses, before any game, options that do not fit where the games run, a missing
    ``lab-cluster`` extra and a cluster that cannot be reached or has no workers.
    """
    if cluster is None:
        if chunk is not None:
            raise typer.BadParameter("--chunk sizes the tasks of --cluster", param_hint="'--chunk'")
        yield None
        return
    if jobs != 0:
        raise typer.BadParameter(
            "--jobs sizes the local pool; a cluster plays on all its workers", param_hint="'--jobs'"
        )
    from .cluster import ClusterError, connect

    try:
        with connect(cluster, chunk=chunk) as remote:
            console.print(
                f"on the cluster at {remote.address}: {remote.workers()} workers, "
                f"{remote.threads()} threads"
            )
            yield remote
    except (MissingExtra, ClusterError) as exc:
        raise typer.BadParameter(str(exc), param_hint="'--cluster'") from None


def _progress() -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    )


def sim(
    rules: RulesOpt = "classic",
    players: PlayersOpt = 2,
    bots: Annotated[
        str, typer.Option("--bots", help="one bot a seat: random,heuristic,ismcts (';' if options)")
    ] = "heuristic,random",
    games: GamesOpt = 1000,
    seed: SeedOpt = 1,
    jobs: JobsOpt = 0,
    json_path: JsonOpt = None,
    plot: PlotOpt = None,
    setting: SetOpt = None,
    cluster: ClusterOpt = None,
    chunk: ChunkOpt = None,
) -> None:
    """Play a batch of games between bots (seats rotated) and report the figures."""
    _need_plots(plot)
    table_rules = _rules(rules, players, setting)
    specs = _bots(bots)
    if len(specs) != players:
        raise typer.BadParameter(f"--bots names {len(specs)} bots for {players} players")
    with _games_on(cluster, chunk, jobs) as remote, _progress() as progress:
        task = progress.add_task(f"{rules} x{players}", total=games)
        records = run_games(
            table_rules,
            specs,
            games=games,
            seed=seed,
            jobs=_jobs(jobs),
            progress=lambda _r: progress.advance(task),
            remote=remote,
        )
    summary = summarize(records, specs, rules=table_rules.to_dict(), seed=seed, games=games)
    if summary["partial"]:
        console.print(f"[yellow]interrupted: {len(records)} of {games} games played[/yellow]")
    console.print(batch_table(summary))
    if json_path is not None:
        json_path.write_text(json.dumps(summary, indent=2))
        console.print(f"figures written to {json_path}")
    if plot is not None:
        plot_batch(summary, str(plot))
        console.print(f"plot written to {plot}")


def tournament(
    rules: RulesOpt = "classic",
    players: PlayersOpt = 2,
    bots: Annotated[
        str, typer.Option("--bots", help="the bots to rate: random,heuristic,ismcts")
    ] = "random,heuristic,ismcts",
    games: GamesOpt = 1000,
    seed: SeedOpt = 1,
    jobs: JobsOpt = 0,
    json_path: JsonOpt = None,
    plot: PlotOpt = None,
    setting: SetOpt = None,
    cluster: ClusterOpt = None,
    chunk: ChunkOpt = None,
) -> None:
    """Every pairing (every group of --players bots) plays --games games; openskill ratings."""
    _need_plots(plot)
    table_rules = _rules(rules, players, setting)
    specs = _bots(bots)
    if len(set(specs)) != len(specs):
        raise typer.BadParameter("a tournament's bots must differ")
    if len(specs) < players:
        raise typer.BadParameter(f"{players} players need at least {players} bots")
    groups = list(itertools.combinations(specs, players))
    matches: list[tuple[tuple[str, ...], list[GameRecord]]] = []
    interrupted = False
    with _games_on(cluster, chunk, jobs) as remote, _progress() as progress:
        for k, group in enumerate(groups):
            task = progress.add_task(" vs ".join(group), total=games)
            records = run_games(
                table_rules,
                group,
                games=games,
                seed=seed + k,
                jobs=_jobs(jobs),
                progress=lambda _r, t=task: progress.advance(t),  # type: ignore[misc]
                remote=remote,
            )
            matches.append((group, records))
            if len(records) < games:
                interrupted = True
                break
    if interrupted:
        console.print("[yellow]interrupted: partial results[/yellow]")
    standings = rate(matches, specs)
    title = f"{rules}, {players} players, {games} games per pairing (seed {seed})"
    console.print(_standings_table(standings, title))
    pair_summaries = []
    for k, (group, records) in enumerate(matches):
        summary = summarize(records, group, rules=table_rules.to_dict(), seed=seed + k, games=games)
        console.print(batch_table(summary))
        summary.pop("game_lengths")
        pair_summaries.append(summary)
    if json_path is not None:
        data = {
            "rules": table_rules.to_dict(),
            "seed": seed,
            "games_per_pairing": games,
            "partial": interrupted,
            "standings": [s.to_dict() for s in standings],
            "pairings": pair_summaries,
        }
        json_path.write_text(json.dumps(data, indent=2))
        console.print(f"figures written to {json_path}")
    if plot is not None:
        _plot_standings(standings, str(plot), title=f"{rules}, {players} players")
        console.print(f"plot written to {plot}")


def _standings_table(standings: list[Standing], title: str) -> Table:
    """The tournament's ratings, best first, with each bot's win rate."""
    table = Table(title=title)
    for column in ("rank", "bot", "ordinal", "mu", "sigma", "games", "win rate [95%]"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for i, row in enumerate(standings, 1):
        wr = row.to_dict()["win_rate"]
        table.add_row(
            str(i),
            row.bot,
            f"{row.ordinal:.2f}",
            f"{row.mu:.2f}",
            f"{row.sigma:.2f}",
            str(row.games),
            f"{100 * wr['value']:.1f}% [{100 * wr['low']:.1f}, {100 * wr['high']:.1f}]",
        )
    return table


def _plot_standings(standings: list[Any], path: str, *, title: str) -> None:
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 4))
    names = [s.bot for s in standings]
    ax.bar(
        range(len(names)),
        [s.mu for s in standings],
        yerr=[3 * s.sigma for s in standings],
        capsize=6,
        color="#aa6644",
    )
    ax.set_xticks(range(len(names)), names, rotation=15, ha="right")
    ax.set_ylabel("openskill mu (bars: 3 sigma)")
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def register(app: typer.Typer) -> None:
    """Add the ``sim`` and ``tournament`` commands to the ``crazy-eights`` CLI."""
    app.command("sim")(sim)
    app.command("tournament")(tournament)


__all__ = ["register", "sim", "tournament"]
