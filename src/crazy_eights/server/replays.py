"""Replays of finished games: every position with all hands shown, built once per game.

A finished game never changes, so its replay is built once, off the event loop (one
build at a time, in a thread), kept gzipped in a bounded cache (least recently used
first out, by total size), and served with an ``ETag`` and ``Cache-Control``, so a
browser or a proxy asks again with ``If-None-Match`` and gets a 304. Requests are
rate limited per client address. Only the seats' Master Card Archon titles can change
after the game; the cached body is built again when they have.
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import json
import zlib
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from crazy_eights.engine import Move, Rules, new_game

from .archon import Titles, seat_titles
from .errors import ApiError
from .ratelimit import KeyedBuckets
from .records.games import StoredGame, load_game
from .table.seats import bot_names

CACHE_BYTES = 64 * 2**20
"""Gzipped replays kept in memory (a 10,000-move game is about 0.4 MiB gzipped)."""
RATE = 1.0
"""Replays a client address may fetch a second (304 answers are not counted) ..."""
BURST = 10.0
"""... in bursts of this many."""
MAX_AGE = 300
"""Seconds a browser or proxy may use a replay before asking again (``If-None-Match``)."""


@dataclass(frozen=True)
class Built:
    """A replay's JSON, gzipped, with the titles it was built with and its ``ETag``."""

    titles: tuple[tuple[str, ...], ...]
    body: bytes
    etag: str
    public: bool


@dataclass(frozen=True)
class ReplayAnswer:
    """What the route sends: the status (200 or 304), the body, and its headers."""

    status: int
    body: bytes
    headers: dict[str, str]


def replay_steps(rules: Rules, seed: int, moves: list[Any]) -> Iterator[dict[str, Any]]:
    """Every position of a finished game with all hands shown, for stepping through, one
    at a time (a long game's positions are never all held at once)."""
    game = new_game(rules, seed)
    seats = range(rules.players)

    def step(move: Move | None, by: int | None, events: list[Any]) -> dict[str, Any]:
        return {
            "version": len(game.moves),
            "move": None if move is None else move.text,
            "data": None if move is None else move.to_dict(),
            "by": by,
            "events": [e.for_seat(e.seat) for e in events],
            "view": game.view(None),
            "hands": [game.hand(s) for s in seats],  # what each seat's view shows of it
        }

    yield step(None, None, [])
    for row in moves:
        move = Move.parse(row.move)  # the one place a stored move's text is read
        yield step(move, row.seat, game.play(move))


def _titles(game: StoredGame, titles: Titles) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(seat_titles(titles, s.account_id, s.bot_level)) for s in game.seats)


def replay_head(game: StoredGame, titles: tuple[tuple[str, ...], ...]) -> dict[str, Any]:
    """A stored game with its seats and its moves: the replay without its positions."""
    row = game.row
    bots = bot_names([s.bot_level for s in game.seats])  # as the table named them
    return {
        "id": row.id,
        "rules": row.rules,
        "seed": game.seed,
        "seats": [
            {
                "seat": s.seat,
                "account": s.account_id,
                "name": bot_name or s.display_name,
                "bot": s.bot_level,
                "left": s.left,
                "archon": list(held),
            }
            for s, held, bot_name in zip(game.seats, titles, bots, strict=True)
        ],
        "result": row.result,
        "moves": [{"n": m.n, "seat": m.seat, "move": m.move, "at": m.at} for m in game.moves],
    }


def _compact(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":")).encode()


def build(game: StoredGame, titles: tuple[tuple[str, ...], ...], public: bool) -> Built:
    """The replay's gzipped JSON (its head and then ``steps``, every position) and its
    ``ETag``. Runs in a thread, since a long game takes a while; each position is encoded
    and compressed on its own, because one ``json.dumps`` of a whole long game holds the
    interpreter lock from start to end (over a second for 10,000 moves), and the event
    loop could not run meanwhile."""
    packer = zlib.compressobj(6, zlib.DEFLATED, 16 + zlib.MAX_WBITS)  # gzip, mtime 0
    chunks = [packer.compress(_compact(replay_head(game, titles))[:-1] + b',"steps":[')]
    for n, step in enumerate(replay_steps(game.rules, game.seed, list(game.moves))):
        chunks.append(packer.compress(b"," * (n > 0) + _compact(step)))
    chunks += [packer.compress(b"]}"), packer.flush()]
    body = b"".join(chunks)
    etag = '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"'
    return Built(titles, body, etag, public)


class Replays:
    """The replays this process serves: visibility checked on every request, each
    game's body built once (concurrent askers share the build) and cached."""

    def __init__(
        self,
        engine: AsyncEngine,
        titles: Titles,
        *,
        cache_bytes: int = CACHE_BYTES,
        rate: float = RATE,
        burst: float = BURST,
    ) -> None:
        self.engine = engine
        self.titles = titles
        self.cache_bytes = cache_bytes
        self._cache: OrderedDict[str, Built] = OrderedDict()
        self._size = 0
        self._building: dict[str, asyncio.Task[Built]] = {}
        self._one_build = asyncio.Semaphore(1)
        self._clients = KeyedBuckets(rate, burst)
        self.builds = 0
        """Replays built so far (a test counts them)."""

    async def answer(
        self,
        table_id: str,
        *,
        viewer: int | None,
        code: str | None,
        address: str,
        if_none_match: str | None,
        gzip_ok: bool,
    ) -> ReplayAnswer:
        """The replay of a finished game for this viewer (private tables: their players
        and whoever has the invite ``code``): 304 when ``If-None-Match`` names its
        ``ETag``; 429 ``rate_limited`` past the address's rate."""
        cached = self._cache.get(table_id)
        if cached is not None and _matches(if_none_match, cached):
            # the asker has this very body already: nothing to build, send or look up
            return ReplayAnswer(304, b"", {"ETag": cached.etag, **_caching(cached.public)})
        if not self._clients.take(address):
            raise ApiError(
                429,
                "rate_limited",
                "Too many replays from your address; try again in a few seconds.",
                headers={"Retry-After": str(int(1 / RATE) + 1)},
            )
        async with self.engine.connect() as conn:
            game = await load_game(conn, table_id, "seats")
        if game is None:
            raise ApiError(404, "no_table", "no such table")
        if game.row.status != "finished":
            raise ApiError(409, "not_finished", "replays are shown once the game is over")
        if not game.visible_to(viewer, code):
            raise ApiError(403, "private", "Replays of private tables are for their players.")
        headers = _caching(bool(game.row.public))
        titles = _titles(game, self.titles)
        built = await self._built(table_id, titles, public=bool(game.row.public))
        headers["ETag"] = built.etag
        if _matches(if_none_match, built):
            return ReplayAnswer(304, b"", headers)
        if gzip_ok:
            return ReplayAnswer(200, built.body, {**headers, "Content-Encoding": "gzip"})
        return ReplayAnswer(200, await asyncio.to_thread(gzip.decompress, built.body), headers)

    async def _built(
        self, table_id: str, titles: tuple[tuple[str, ...], ...], *, public: bool
    ) -> Built:
        """The cached replay, or one build shared by everyone asking for it now."""
        cached = self._cache.get(table_id)
        if cached is not None and cached.titles == titles:
            self._cache.move_to_end(table_id)
            return cached
        pending = self._building.get(table_id)
        if pending is None:  # a task of its own: an asker who gives up stops no one else
            pending = asyncio.get_running_loop().create_task(self._build(table_id, titles, public))
            self._building[table_id] = pending
            pending.add_done_callback(lambda t: self._built_now(table_id, t))
        return await asyncio.shield(pending)

    def _built_now(self, table_id: str, task: asyncio.Task[Built]) -> None:
        self._building.pop(table_id, None)
        if not task.cancelled():
            task.exception()  # retrieved here: its askers may all have gone

    async def _build(
        self, table_id: str, titles: tuple[tuple[str, ...], ...], public: bool
    ) -> Built:
        async with self.engine.connect() as conn:
            game = await load_game(conn, table_id, "seats", "moves")
        assert game is not None
        async with self._one_build:
            built = await asyncio.to_thread(build, game, titles, public)
        self.builds += 1
        self._keep(table_id, built)
        return built

    def _keep(self, table_id: str, built: Built) -> None:
        old = self._cache.pop(table_id, None)
        if old is not None:
            self._size -= len(old.body)
        if len(built.body) > self.cache_bytes:
            return
        self._cache[table_id] = built
        self._size += len(built.body)
        while self._size > self.cache_bytes:
            _, dropped = self._cache.popitem(last=False)
            self._size -= len(dropped.body)


def _caching(public: bool) -> dict[str, str]:
    """How long a browser (and, for a public table, a shared proxy) may keep a replay."""
    return {
        "Cache-Control": f"{'public' if public else 'private'}, max-age={MAX_AGE}",
        "Vary": "Accept-Encoding, Cookie",
    }


def _matches(if_none_match: str | None, built: Built) -> bool:
    """Whether an ``If-None-Match`` header names the built replay (or ``*``)."""
    if not if_none_match:
        return False
    tags = [t.strip().removeprefix("W/") for t in if_none_match.split(",")]
    return "*" in tags or built.etag in tags
