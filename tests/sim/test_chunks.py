"""The unit of work of a cluster (a chunk of game indices) and the ``--cluster`` options,
without a cluster: results follow the game index, never where or in which chunk it ran."""

from __future__ import annotations

import sys
from collections.abc import Generator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from crazy_eights.cli import app
from crazy_eights.engine import Rules
from crazy_eights.sim.cluster import Chunk, chunk_size, split
from crazy_eights.sim.runner import GameRecord, play_chunk, run_games

RULES = Rules.preset("classic", players=2, mode="single")
BOTS = ("heuristic", "random")


def untimed(records: list[GameRecord]) -> list[GameRecord]:
    return [replace(r, think=()) for r in records]


def test_chunks_cover_every_game_once_in_order() -> None:
    chunks = split(range(3, 15), 5)
    assert chunks == [Chunk(3, 8), Chunk(8, 13), Chunk(13, 15)]
    assert [i for c in chunks for i in c.games] == list(range(3, 15))
    assert split(range(0, 0), 4) == []
    with pytest.raises(ValueError, match="at least one game"):
        split(range(4), 0)


def test_chunk_size_balances_threads_and_bounds_the_loss() -> None:
    assert chunk_size(1_000_000, 2) == 200  # capped: a lost worker costs few games
    assert chunk_size(1600, 2) == 100  # 8 chunks a thread
    assert chunk_size(5, 64) == 1
    assert chunk_size(10, 0) == 2


def test_a_chunk_plays_the_games_of_its_indices() -> None:
    whole = run_games(RULES, BOTS, games=9, seed=4)
    part = play_chunk(RULES.to_dict(), BOTS, 4, 3, 7)
    assert [r.index for r in part] == [3, 4, 5, 6]
    assert untimed(part) == untimed(whole[3:7])


class ShuffledRemote:
    """A stand-in cluster: plays chunks of 2 in reverse order, as a cluster might."""

    def __init__(self) -> None:
        self.closed = False

    def play(
        self, rules: dict[str, Any], bots: tuple[str, ...], seed: int, indices: range
    ) -> Generator[GameRecord, None, None]:
        try:
            for chunk in reversed(split(indices, 2)):
                yield from play_chunk(rules, bots, seed, chunk.start, chunk.stop)
        finally:
            self.closed = True


def test_run_games_on_a_remote_returns_the_local_records_in_order() -> None:
    remote = ShuffledRemote()
    seen: list[int] = []
    records = run_games(
        RULES,
        BOTS,
        games=7,
        seed=2,
        start=1,
        remote=remote,
        progress=lambda r: seen.append(r.index),
    )
    assert untimed(records) == untimed(run_games(RULES, BOTS, games=7, seed=2, start=1, jobs=2))
    assert sorted(seen) == list(range(1, 8)) and seen != sorted(seen)
    assert remote.closed


def test_an_interrupted_remote_run_is_closed_and_partial() -> None:
    remote = ShuffledRemote()

    def stop_at_three(record: GameRecord) -> None:
        if record.index == 3:
            raise KeyboardInterrupt

    records = run_games(RULES, BOTS, games=8, seed=2, remote=remote, progress=stop_at_three)
    assert [r.index for r in records] == [2, 3, 4, 5, 6, 7]  # games 6, 7, 4, 5, 2, 3
    assert remote.closed


def sim(*options: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["sim", "--games", "2", *options])
    return result.exit_code, result.output


def test_cluster_without_the_extra_names_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import fails as if not installed
    out = tmp_path / "figures.json"
    code, output = sim("--cluster", "tcp://127.0.0.1:1", "--json", str(out))
    assert code == 2
    assert "lab-cluster" in output and "crazy-eights[lab-cluster]" in " ".join(output.split())
    assert not out.exists()


@pytest.mark.parametrize(
    ("options", "named"),
    [
        (["--cluster", "tcp://127.0.0.1:1", "--jobs", "2"], "--jobs"),
        (["--chunk", "5"], "--chunk"),
        (["--cluster", "tcp://127.0.0.1:1", "--chunk", "0"], "--chunk"),
    ],
)
def test_options_that_do_not_fit_are_refused_before_any_game(
    options: list[str], named: str, tmp_path: Path
) -> None:
    out = tmp_path / "figures.json"
    code, output = sim(*options, "--json", str(out))
    assert code == 2 and named in output
    assert not out.exists()
