"""Batch games between bots, reproducible from one seed, on all cores.

Game ``i`` of a batch is dealt from ``deal_seed(seed, i // n)`` with the players rotated
by ``i % n`` seats, so every deal is played once from each seat by each player (seats
alternated for two players); the bots' generators are seeded from the game's seed and
seat. Results are the same with any number of jobs, or on a cluster (``Remote``, see
``sim/cluster.py``), and are returned in game order. ``play_chunk`` is the unit of work
sent to a cluster: a range of game indices, whose records depend on nothing else.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable, Generator, Sequence
from contextlib import closing
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from crazy_eights.bots.base import Bot
from crazy_eights.bots.levels import make_bot, parse_bot_spec
from crazy_eights.engine import new_game
from crazy_eights.engine.rules import Rules

_M64 = (1 << 64) - 1
MAX_MOVES = 50_000


def mix(*values: int) -> int:
    """A 63-bit seed from some ints (SplitMix64 finaliser over each)."""
    z = 0x2545F4914F6CDD1D
    for v in values:
        z = (z ^ (v & _M64)) * 0xBF58476D1CE4E5B9 & _M64
        z = (z ^ (z >> 27)) * 0x94D049BB133111EB & _M64
        z ^= z >> 31
    return z >> 1


def deal_seed(seed: int, deal: int) -> int:
    return mix(seed, deal)


@dataclass(frozen=True)
class GameRecord:
    """One finished game, indexed by *player* (the position in the bot list)."""

    index: int
    seed: int
    seats: tuple[int, ...]
    """``seats[p]``: the seat player ``p`` sat in."""
    winner: int | None
    """The winning player (not seat), or None."""
    ranks: tuple[int, ...]
    points: tuple[int, ...]
    rounds: int
    moves: int
    first: int
    """The player who moved first in the game."""
    finished: bool
    think: tuple[float, ...] = ()
    """Seconds each player spent deciding."""
    decisions: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Batch:
    """What to play: ruleset, bots (level[:option=value,...] each) and how many games."""

    rules: dict[str, Any]
    bots: tuple[str, ...]
    games: int
    seed: int = 1
    options: dict[str, Any] = field(default_factory=dict)


def play_game(
    rules: Rules, bots: Sequence[str], *, seed: int, rotation: int, index: int = 0
) -> GameRecord:
    """Play one game: player ``p`` sits in seat ``(p + rotation) % n``."""
    n = rules.players
    if len(bots) != n:
        raise ValueError(f"{len(bots)} bots for {n} seats")
    seats = tuple((p + rotation) % n for p in range(n))
    player_at = {s: p for p, s in enumerate(seats)}
    players: list[Bot] = []
    for p, spec in enumerate(bots):
        level, options = parse_bot_spec(spec)
        players.append(make_bot(level, seed=mix(seed, seats[p], 7), **options))
    game = new_game(rules, seed)
    think = [0.0] * n
    decisions = [0] * n
    first: int | None = None
    moves = 0
    clock = time.perf_counter
    while not game.is_over and moves < MAX_MOVES:
        seat = game.current_player
        assert seat is not None
        player = player_at[seat]
        if first is None:
            first = player
        legal = game.legal_moves()
        if len(legal) == 1:
            move = legal[0]
        else:
            start = clock()
            move = players[player].choose(game.view(seat, log=True), legal)
            think[player] += clock() - start
            decisions[player] += 1
        game.apply(move)
        moves += 1
    result = game.result
    if result is None:
        return GameRecord(
            index=index,
            seed=seed,
            seats=seats,
            winner=None,
            ranks=tuple([n] * n),
            points=tuple([0] * n),
            rounds=0,
            moves=moves,
            first=first or 0,
            finished=False,
            think=tuple(think),
            decisions=tuple(decisions),
        )
    rank_of_seat = {s: i + 1 for i, s in enumerate(result.standings)}
    return GameRecord(
        index=index,
        seed=seed,
        seats=seats,
        winner=None if result.winner is None else player_at[result.winner],
        ranks=tuple(rank_of_seat[seats[p]] for p in range(n)),
        points=tuple(result.points[seats[p]] for p in range(n)),
        rounds=result.rounds,
        moves=moves,
        first=first or 0,
        finished=True,
        think=tuple(think),
        decisions=tuple(decisions),
    )


def play_indexed(rules: Rules, bots: Sequence[str], seed: int, index: int) -> GameRecord:
    """Game ``index`` of the batch with this ``seed``: its deal and seats follow the index."""
    n = rules.players
    return play_game(rules, bots, seed=deal_seed(seed, index // n), rotation=index % n, index=index)


def play_chunk(
    rules: dict[str, Any], bots: tuple[str, ...], seed: int, start: int, stop: int
) -> list[GameRecord]:
    """Games ``start .. stop-1`` of a batch, in order: the unit of work of a cluster.

    Everything a game depends on is in the arguments, so the records are the same on any
    machine and on a second try after a worker was lost.
    """
    table = Rules.from_dict(rules)
    return [play_indexed(table, bots, seed, i) for i in range(start, stop)]


def _task(args: tuple[dict[str, Any], tuple[str, ...], int, int]) -> GameRecord:
    rules_dict, bots, seed, index = args
    return play_indexed(Rules.from_dict(rules_dict), bots, seed, index)


class Remote(Protocol):
    """Somewhere else to play games (a cluster): each record of ``indices`` once, in any
    order, as the games finish."""

    def play(
        self, rules: dict[str, Any], bots: tuple[str, ...], seed: int, indices: range
    ) -> Generator[GameRecord, None, None]:
        """The records of games ``indices`` of the batch with this ``seed``."""
        ...


def _init_worker() -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run_games(
    rules: Rules,
    bots: Sequence[str],
    *,
    games: int,
    seed: int = 1,
    jobs: int = 1,
    start: int = 0,
    progress: Callable[[GameRecord], None] | None = None,
    remote: Remote | None = None,
) -> list[GameRecord]:
    """Play games ``start .. start+games-1`` of the batch; return the records in order.

    The games run in ``jobs`` local processes, or on ``remote`` when given. On Ctrl-C
    (KeyboardInterrupt) the games finished so far are returned, in order, and the workers
    are stopped; the caller reports them as partial results.
    """
    for spec in bots:
        parse_bot_spec(spec)
    indices = range(start, start + games)
    if remote is not None:
        source = remote.play(rules.to_dict(), tuple(bots), seed, indices)
    else:
        source = _iterate([(rules.to_dict(), tuple(bots), seed, i) for i in indices], jobs)
    records: list[GameRecord] = []
    with closing(source):
        try:
            for record in source:
                records.append(record)
                if progress is not None:
                    progress(record)
        except KeyboardInterrupt:
            pass
    records.sort(key=lambda r: r.index)
    return records


def _iterate(
    tasks: list[tuple[dict[str, Any], tuple[str, ...], int, int]], jobs: int
) -> Generator[GameRecord, None, None]:
    """The local pool: one game a task, records as they finish."""
    if jobs <= 1 or len(tasks) <= 1:
        for task in tasks:
            yield _task(task)
        return
    ctx = multiprocessing.get_context("fork" if hasattr(multiprocessing, "get_context") else None)
    pool = ctx.Pool(jobs, initializer=_init_worker)
    try:
        chunk = max(1, min(16, len(tasks) // (jobs * 8)))
        yield from pool.imap_unordered(_task, tasks, chunksize=chunk)
        pool.close()
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()


def was_interrupted(records: Sequence[GameRecord], games: int) -> bool:
    return len(records) < games


__all__ = [
    "Batch",
    "GameRecord",
    "Remote",
    "deal_seed",
    "mix",
    "play_chunk",
    "play_game",
    "play_indexed",
    "run_games",
]
