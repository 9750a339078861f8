"""Achievements and the card decks they unlock.

Achievements are data (``ACHIEVEMENTS``): an id, a title, how it is earned, the deck item
it unlocks (a card back or a face style beyond the defaults), and how far an account is
on its way. They are checked when a game is recorded (``award_game``, a subscriber to
``GameFinished`` in the transaction that finishes the table) from what the game's
replay found and the records just written; each earned one is a row of ``unlocks``, so
it follows the account to every device. The settings endpoint refuses a deck item the
account has not unlocked (``check_settings``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine
from typing_extensions import TypedDict

from crazy_eights.engine import Rules

from . import db
from .errors import ApiError
from .measures import GameMeasures
from .records.finish import GameFinished
from .records.games import account_exists

DeckKind = Literal["back", "face"]


@dataclass(frozen=True)
class DeckItem:
    """A card back or face style; ``setting`` is the client setting that chooses it."""

    kind: DeckKind
    name: str
    title: str

    @property
    def id(self) -> str:
        return f"{self.kind}:{self.name}"

    @property
    def setting(self) -> str:
        return self.kind


DECK_ITEMS: tuple[DeckItem, ...] = (
    DeckItem("back", "lattice", "Gold lattice back"),
    DeckItem("back", "sunburst", "Sunburst back"),
    DeckItem("back", "compass", "Compass rose back"),
    DeckItem("back", "tartan", "Tartan back"),
    DeckItem("face", "deco", "Art Deco faces"),
)
"""The deck items that must be unlocked (the defaults, Standard / Minimalist / Victorian
faces and the classic back, are everyone's)."""


@dataclass(frozen=True)
class GameFacts:
    """What one finished game says about one account, for checking achievements."""

    ruleset: str
    rules: Rules
    won: bool
    left: bool
    streak: int
    penalties: int
    opponents: frozenset[str]
    """Bot levels that sat at the table with this account."""


@dataclass(frozen=True)
class Achievement:
    """One achievement: ``earned`` checks a game; ``progress`` (with ``need``) tells how
    far the records are on the way (None: it is done in one game or not at all)."""

    id: str
    title: str
    how: str
    unlocks: DeckItem | None
    earned: Callable[[GameFacts], bool]
    need: int = 1
    progress: Callable[[Mapping[str, Any]], int] | None = None


def _first_win(ruleset: str, title: str, unlocks: DeckItem | None) -> Achievement:
    return Achievement(
        id=f"first_win_{ruleset}",
        title=f"First win: {title}",
        how=f"Win a game of {title}.",
        unlocks=unlocks,
        earned=lambda f: f.won and f.ruleset == ruleset,
        progress=lambda records: min(1, int(records[ruleset]["wins"])) if ruleset in records else 0,
    )


def _item(name: str) -> DeckItem:
    return next(i for i in DECK_ITEMS if i.name == name)


STREAK = 3

ACHIEVEMENTS: tuple[Achievement, ...] = (
    _first_win("classic", "Classic", _item("lattice")),
    _first_win("ultimate", "Ultimate", None),
    _first_win("countdown", "Countdown", None),
    _first_win("cycles", "Cycles", None),
    _first_win("openspiel", "OpenSpiel", None),
    Achievement(
        id="streak_3",
        title="On a roll",
        how=f"Win {STREAK} games in a row in one ruleset.",
        unlocks=_item("sunburst"),
        earned=lambda f: f.won and f.streak >= STREAK,
        need=STREAK,
        progress=lambda records: max((int(r["best_streak"]) for r in records.values()), default=0),
    ),
    Achievement(
        id="countdown_from_8",
        title="The long count",
        how="Win a whole game of Countdown started from 8.",
        unlocks=_item("compass"),
        earned=lambda f: (
            f.won and f.ruleset == "countdown" and f.rules.start == 8 and f.rules.mode == "match"
        ),
    ),
    Achievement(
        id="cycles_clean",
        title="Clean cycles",
        how="Play a game of Cycles to its end without a penalty.",
        unlocks=_item("tartan"),
        earned=lambda f: f.ruleset == "cycles" and not f.left and f.penalties == 0,
    ),
    Achievement(
        id="beat_hard",
        title="Giant slayer",
        how="Win a game against the Hard bot.",
        unlocks=_item("deco"),
        earned=lambda f: f.won and "ismcts" in f.opponents,
    ),
)

BY_ID = {a.id: a for a in ACHIEVEMENTS}
UNLOCKED_BY = {a.unlocks.id: a for a in ACHIEVEMENTS if a.unlocks is not None}


def earned_in(facts: GameFacts) -> list[str]:
    """The achievements a game earns (whether or not the account holds them already)."""
    return [a.id for a in ACHIEVEMENTS if a.earned(facts)]


async def award(
    conn: AsyncConnection,
    *,
    table_id: str,
    rules: Rules,
    seats: Sequence[tuple[int, int | None, bool, str | None]],
    result: Mapping[str, Any],
    measured: GameMeasures | None,
) -> dict[int, list[str]]:
    """Check every person at a finished table (``seats``: seat, account, left, bot level)
    and store what they earned; returns the new achievements by account.

    Runs after ``stats.record_game`` in the same transaction, so the streaks read here
    include this game. Bots earn nothing.
    """
    people = [(s, a, left) for s, a, left, bot in seats if a is not None and bot is None]
    if not people:
        return {}
    levels = frozenset(bot for _, _, _, bot in seats if bot is not None)
    streaks = {
        r.account_id: int(r.streak)
        for r in (
            await conn.execute(
                sa.select(db.records.c.account_id, db.records.c.streak).where(
                    db.records.c.ruleset == rules.ruleset,
                    db.records.c.account_id.in_([a for _, a, _ in people]),
                )
            )
        ).all()
    }
    new: dict[int, list[str]] = {}
    for seat, account, left in people:
        assert account is not None
        facts = GameFacts(
            ruleset=rules.ruleset,
            rules=rules,
            won=not left and result.get("winner") == seat,
            left=left,
            streak=streaks.get(account, 0),
            penalties=measured.penalties[seat] if measured is not None else 1,
            opponents=levels,
        )
        ids = earned_in(facts)
        if not ids:
            continue
        have = set(await earned(conn, account))
        fresh = [i for i in ids if i not in have]
        if not fresh:
            continue
        rows = [
            {
                "account_id": account,
                "achievement": i,
                "table_id": table_id,
                "earned_at": time.time(),
            }
            for i in fresh
        ]
        await conn.execute(db.dialect_insert(conn, db.unlocks).on_conflict_do_nothing(), rows)
        new[account] = fresh
    return new


async def award_game(conn: AsyncConnection, game: GameFinished) -> None:
    """A finished game's subscriber (in its transaction, after the records'): ``award``,
    for rated games only: at a table with hints the Hard bot's own search may have
    played every move for its player."""
    if not game.rated:
        return
    await award(
        conn,
        table_id=game.table_id,
        rules=game.rules,
        seats=[(s.seat, s.account_id, s.left, s.bot) for s in game.seats],
        result=game.result,
        measured=game.measured,
    )


async def earned(conn: AsyncConnection, account: int) -> dict[str, Any]:
    """The account's achievements: id -> its ``unlocks`` row."""
    rows = (
        await conn.execute(sa.select(db.unlocks).where(db.unlocks.c.account_id == account))
    ).all()
    return {r.achievement: r for r in rows if r.achievement in BY_ID}


async def unlocked_items(conn: AsyncConnection, account: int) -> set[str]:
    """The deck item ids the account has unlocked."""
    have = await earned(conn, account)
    return {a.unlocks.id for i, a in BY_ID.items() if i in have and a.unlocks is not None}


class DeckItemOut(TypedDict):
    id: str
    kind: DeckKind
    name: str
    title: str
    unlocked: bool
    unlocked_by: str
    how: str


class AchievementOut(TypedDict):
    id: str
    title: str
    how: str
    earned: bool
    earned_at: float | None
    table: str | None
    unlocks: str | None
    progress: int
    need: int


class ProgressOut(TypedDict):
    account: int
    achievements: list[AchievementOut]
    decks: list[DeckItemOut]


async def progress(conn: AsyncConnection, account: int) -> ProgressOut:
    """Every achievement, earned or not, with progress; every lockable deck item."""
    have = await earned(conn, account)
    record_rows = (
        await conn.execute(sa.select(db.records).where(db.records.c.account_id == account))
    ).all()
    records = {r.ruleset: {"wins": r.wins, "best_streak": r.best_streak} for r in record_rows}
    out: list[AchievementOut] = []
    for a in ACHIEVEMENTS:
        row = have.get(a.id)
        done = row is not None
        step = a.progress(records) if a.progress is not None else 0
        out.append(
            {
                "id": a.id,
                "title": a.title,
                "how": a.how,
                "earned": done,
                "earned_at": None if row is None else float(row.earned_at),
                "table": None if row is None else row.table_id,
                "unlocks": a.unlocks.id if a.unlocks else None,
                "progress": a.need if done else min(step, a.need),
                "need": a.need,
            }
        )
    decks: list[DeckItemOut] = [
        {
            "id": item.id,
            "kind": item.kind,
            "name": item.name,
            "title": item.title,
            "unlocked": UNLOCKED_BY[item.id].id in have,
            "unlocked_by": UNLOCKED_BY[item.id].title,
            "how": UNLOCKED_BY[item.id].how,
        }
        for item in DECK_ITEMS
    ]
    return {"account": account, "achievements": out, "decks": decks}


def locked_choice(data: Mapping[str, Any], unlocked: set[str]) -> DeckItem | None:
    """The first deck item that ``data`` (client settings) chooses but is still locked."""
    for item in DECK_ITEMS:
        if data.get(item.setting) == item.name and item.id not in unlocked:
            return item
    return None


async def check_settings(conn: AsyncConnection, account: int, data: Mapping[str, Any]) -> None:
    """Refuse settings that choose a locked deck item (403 ``locked``), saying what
    unlocks it; nothing is saved then."""
    if not any(data.get(i.setting) == i.name for i in DECK_ITEMS):
        return
    item = locked_choice(data, await unlocked_items(conn, account))
    if item is not None:
        how = UNLOCKED_BY[item.id].how
        raise ApiError(403, "locked", f"{item.title}: locked. {how[:-1]} to unlock it.")


class DeckOut(TypedDict):
    id: str
    kind: DeckKind
    name: str
    title: str
    how: str


def decks() -> list[DeckOut]:
    """The card backs and faces that are unlocked by achievements, and what unlocks each."""
    return [
        {"id": i.id, "kind": i.kind, "name": i.name, "title": i.title, "how": UNLOCKED_BY[i.id].how}
        for i in DECK_ITEMS
    ]


class Achievements:
    """What the room answers about achievements, from its database."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def progress(self, account_id: int) -> ProgressOut:
        """An account's achievements and decks (404 when there is no such account)."""
        async with self.engine.connect() as conn:
            if not await account_exists(conn, account_id):
                raise ApiError(404, "no_account", "no such account")
            return await progress(conn, account_id)


__all__ = [
    "ACHIEVEMENTS",
    "DECK_ITEMS",
    "Achievement",
    "Achievements",
    "DeckItem",
    "GameFacts",
    "award",
    "award_game",
    "check_settings",
    "decks",
    "earned_in",
    "progress",
]
