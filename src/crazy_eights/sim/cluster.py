"""The lab's games on a Dask distributed cluster (the ``lab-cluster`` extra).

A batch is cut into chunks of consecutive game indices; each chunk is one task, named
after the batch and its games, that plays them with ``runner.play_chunk``. A
game depends only on the batch's rules, bots, seed and its index, so a chunk's records
are the same on whichever worker plays it: when a worker is lost mid-run, the scheduler
gives its chunks to another worker, and the records are collected by chunk, each once.

``distributed`` is imported only here, when ``--cluster`` is given; the plain install
does not need it.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from crazy_eights.extras import require

from .runner import GameRecord, play_chunk

if TYPE_CHECKING:
    from distributed import Client, Future

MAX_CHUNK = 200
"""Games in a chunk at most: a lost worker costs at most this many games per thread."""
CHUNKS_PER_THREAD = 8
"""Aim for this many chunks per worker thread, so that the last ones balance out."""


class ClusterError(RuntimeError):
    """The cluster cannot be reached, has no workers, or returned a wrong chunk."""


@dataclass(frozen=True)
class Chunk:
    """Games ``start .. stop-1`` of a batch: the unit of work sent to a worker."""

    start: int
    stop: int

    @property
    def games(self) -> range:
        return range(self.start, self.stop)


def chunk_size(games: int, threads: int) -> int:
    """Games a chunk for ``games`` games on ``threads`` worker threads (at least one)."""
    return max(1, min(MAX_CHUNK, math.ceil(games / (CHUNKS_PER_THREAD * max(1, threads)))))


def split(indices: range, size: int) -> list[Chunk]:
    """``indices`` cut into chunks of ``size`` consecutive games (the last may be short)."""
    if size < 1:
        raise ValueError(f"a chunk holds at least one game, not {size}")
    return [
        Chunk(start, min(start + size, indices.stop))
        for start in range(indices.start, indices.stop, size)
    ]


def batch_name(rules: dict[str, Any], bots: tuple[str, ...], seed: int) -> str:
    """A short name for a batch, the same for the same rules, bots and seed."""
    text = json.dumps([rules, list(bots), seed], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class DaskCluster:
    """A connected Dask client that plays batches (a ``runner.Remote``)."""

    def __init__(self, client: Client, *, address: str, chunk: int | None = None) -> None:
        self.client = client
        self.address = address
        self.chunk = chunk

    def _nthreads(self) -> dict[str, int]:
        workers = self.client.scheduler_info(n_workers=-1)["workers"]
        return {name: int(worker["nthreads"]) for name, worker in workers.items()}

    def threads(self) -> int:
        """Worker threads in the cluster now (each plays one chunk at a time)."""
        return sum(self._nthreads().values())

    def workers(self) -> int:
        """Workers in the cluster now."""
        return len(self._nthreads())

    def play(
        self, rules: dict[str, Any], bots: tuple[str, ...], seed: int, indices: range
    ) -> Generator[GameRecord, None, None]:
        """Every record of ``indices`` once, chunk by chunk as chunks finish.

        Leaving early (Ctrl-C, or closing the generator) cancels the chunks not done.
        """
        size = self.chunk or chunk_size(len(indices), self.threads())
        chunks = split(indices, size)
        name = batch_name(rules, bots, seed)
        futures = self.client.map(
            play_chunk,
            [rules] * len(chunks),
            [bots] * len(chunks),
            [seed] * len(chunks),
            [c.start for c in chunks],
            [c.stop for c in chunks],
            key=[f"crazy-eights-games-{name}-{c.start}-{c.stop}" for c in chunks],
        )
        pending = dict(zip((f.key for f in futures), chunks, strict=True))
        try:
            yield from self._collect(futures, pending, seed)
        finally:
            if pending:
                self.client.cancel(list(futures))

    def _collect(
        self, futures: list[Future[list[GameRecord]]], pending: dict[Any, Chunk], seed: int
    ) -> Iterator[GameRecord]:
        """Records of each chunk as it finishes, checked against the chunk it answers."""
        distributed = require("distributed", extra="lab-cluster", feature="--cluster")
        for future in distributed.as_completed(futures, loop=self.client.loop):
            chunk = pending.get(future.key)
            if chunk is None:
                continue  # a chunk answers once; a second answer would double games
            try:
                records = future.result()
            except Exception as exc:
                exc.add_note(
                    f"in games {chunk.start}..{chunk.stop - 1} of seed {seed} on the cluster"
                )
                raise
            if [r.index for r in records] != list(chunk.games):
                raise ClusterError(f"games {chunk.start}..{chunk.stop - 1}: wrong records back")
            del pending[future.key]
            future.release()
            yield from records


@contextmanager
def connect(
    address: str, *, chunk: int | None = None, timeout: float = 30.0
) -> Iterator[DaskCluster]:
    """A ``DaskCluster`` on the scheduler at ``address`` with at least one worker.

    ``MissingExtra`` names the ``lab-cluster`` extra when ``distributed`` is not
    installed; ``ClusterError`` says when the scheduler or its workers are not there.
    """
    distributed = require("distributed", extra="lab-cluster", feature="--cluster")
    try:
        client = distributed.Client(address, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise ClusterError(f"cannot reach a Dask scheduler at {address}: {exc}") from None
    with client:
        try:
            client.wait_for_workers(1, timeout=timeout)
        except TimeoutError:
            raise ClusterError(
                f"the Dask scheduler at {address} has no workers after {timeout:g} s"
            ) from None
        yield DaskCluster(client, address=address, chunk=chunk)


__all__ = ["Chunk", "ClusterError", "DaskCluster", "batch_name", "chunk_size", "connect", "split"]
