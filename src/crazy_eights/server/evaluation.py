"""Player evaluation, as the rules' seed names it: shedding efficiency, opponent
disruption and suit management, per account and ruleset, from stored games.

A stored game is its rules, seed and moves (RULES G4). ``measures.measure_game``
replays it through the engine and counts what the figures are made of. Each finished
game adds its counts to the ``measures`` row of every account that sat at it
(``count_game``, a subscriber to ``GameFinished`` in the transaction that finishes the
table), so a profile reads totals instead of replaying games. The room's median is
taken over the people with at least ``evaluation_min_games`` games in the ruleset; bot
levels are compared from their own seats in the same stored games.

The fourth line, accuracy (the share of moves that matched the search bot), is the
game analysis' business: the room is given an ``AccuracySource`` when that exists, and
says "not analysed yet" until then.
"""

from __future__ import annotations

import statistics
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine
from typing_extensions import TypedDict

from . import db
from .errors import ApiError
from .measures import Counts, GameMeasures, measure_game
from .records.finish import GameFinished
from .records.games import account_exists

BOT_LEVELS = ("random", "heuristic", "ismcts")


async def count_game(conn: AsyncConnection, game: GameFinished) -> None:
    """A finished game's subscriber (in its transaction): add each account's counts of
    the measured game to its totals.

    The totals are raised in SQL (``x = x + n``), so games finishing together, which may
    share a bot level's row, all count.
    """
    if game.measured is None or not game.public:  # a private game counts nowhere public
        return
    per_account: dict[int, Counts] = {}
    for seat, counts in zip(game.seats, game.measured.counts, strict=True):
        if seat.account_id is not None:
            per_account[seat.account_id] = per_account.get(seat.account_id, Counts()) + counts
    ruleset = game.rules.ruleset
    if not per_account:
        return
    await conn.execute(
        db.dialect_insert(conn, db.measures).on_conflict_do_nothing(),
        [{"account_id": a, "ruleset": ruleset} for a in sorted(per_account)],
    )
    for account in sorted(per_account):
        counts = per_account[account]
        table = db.measures.c
        await conn.execute(
            db.measures.update()
            .where(table.account_id == account, table.ruleset == ruleset)
            .values({name: table[name] + getattr(counts, name) for name in db.MEASURE_COUNTS})
        )


# -- the evaluation -------------------------------------------------------------------

Better = Literal["higher", "lower"]


@dataclass(frozen=True)
class FigureSpec:
    """One figure of a measure: how it is computed from totals and which way is good."""

    key: str
    label: str
    numerator: str
    denominator: str
    better: Better
    unit: Literal["per_turn", "per_round", "share", "cards"]

    def of(self, counts: Counts) -> float | None:
        below = getattr(counts, self.denominator)
        return None if below == 0 else round(getattr(counts, self.numerator) / below, 3)


@dataclass(frozen=True)
class MeasureSpec:
    key: str
    title: str
    about: str
    """What the measure tells, in one sentence."""
    figures: tuple[FigureSpec, ...]


MEASURES: tuple[MeasureSpec, ...] = (
    MeasureSpec(
        "shedding",
        "Shedding efficiency",
        "How quickly a hand empties: cards shed per turn, and the points still held when "
        "a round ends.",
        (
            FigureSpec(
                "shed_per_turn", "cards shed per turn", "shed", "turns", "higher", "per_turn"
            ),
            FigureSpec(
                "points_left",
                "points left in hand at a round's end",
                "hand_points",
                "rounds",
                "lower",
                "per_round",
            ),
        ),
    ),
    MeasureSpec(
        "disruption",
        "Opponent disruption",
        "What is done to a player about to go out: action cards and suit changes played "
        "while an opponent held two cards or fewer, and the cards that cost them by the "
        "next turn.",
        (
            FigureSpec(
                "disruption_rate",
                "turns against a player close to going out that played an "
                "action card or changed the suit",
                "disruptions",
                "pressure_turns",
                "higher",
                "share",
            ),
            FigureSpec(
                "disruption_cost",
                "cards it cost that player",
                "disruption_cost",
                "disruptions",
                "higher",
                "cards",
            ),
        ),
    ),
    MeasureSpec(
        "suits",
        "Suit management",
        "How the suits are steered: eights (wild cards) kept for when nothing else "
        "plays, suit changes into the longest suit in hand, and draws forced by having "
        "nothing to play.",
        (
            FigureSpec(
                "eights_kept",
                "wild cards played only when nothing else could be",
                "wilds_needed",
                "wilds_played",
                "higher",
                "share",
            ),
            FigureSpec(
                "long_suit",
                "suit changes into the longest suit in hand",
                "declarations_long",
                "declarations",
                "higher",
                "share",
            ),
            FigureSpec(
                "forced_draws",
                "turns spent drawing with nothing to play",
                "draws_forced",
                "turns",
                "lower",
                "per_turn",
            ),
        ),
    ),
)


class FigureOut(TypedDict):
    key: str
    label: str
    value: float | None
    median: float | None
    bots: dict[str, float | None]
    better: Better
    unit: str


class MeasureOut(TypedDict):
    key: str
    title: str
    about: str
    figures: list[FigureOut]
    sentence: str


class AccuracyOut(TypedDict):
    analysed: bool
    value: float | None
    sentence: str


class EvaluationOut(TypedDict):
    account: int
    ruleset: str
    games: int
    min_games: int
    people: int
    measures: list[MeasureOut]
    accuracy: AccuracyOut


AccuracySource = Callable[[AsyncConnection, int, str], Awaitable[float | None]]
"""``(conn, account, ruleset) -> share`` of the account's analysed moves that matched the
search bot or lost less than the threshold, or None when none is analysed (item 1's
``analysis.accuracy``)."""


def median(values: Sequence[float | None]) -> float | None:
    """The median of the known values (None when there are none).

    >>> median([0.5, None, 0.7, 0.6]), median([None])
    (0.6, None)
    """
    known = [v for v in values if v is not None]
    return round(statistics.median(known), 3) if known else None


def _fmt(value: float, unit: str) -> str:
    if unit == "share":
        return f"{round(value * 100)}%"
    return f"{value:.2f}".rstrip("0").rstrip(".") if value % 1 else f"{value:.0f}"


def _against(value: float, other: float, better: Better) -> str:
    """ "above", "below" or "level with", said the way that is good or bad for ``better``."""
    if abs(value - other) < 1e-9:
        return "level with"
    ahead = value > other if better == "higher" else value < other
    return "better than" if ahead else "behind"


def sentence(spec: FigureSpec, fig: FigureOut) -> str:
    """One plain sentence on a measure's first figure: the player's value, the room's
    median and each bot level's, and which of them the player is ahead of."""
    value = fig["value"]
    label = spec.label[0].upper() + spec.label[1:]
    if value is None:
        return f"{label}: none yet in this ruleset."
    words = [f"{label}: {_fmt(value, spec.unit)}"]
    if fig["median"] is not None:
        words.append(
            f"{_against(value, fig['median'], spec.better)} the room's median "
            f"({_fmt(fig['median'], spec.unit)})"
        )
    else:
        words.append("no room median yet (too few players with enough games)")
    for verdict, said in (("better than", "ahead of"), ("level with", "level with"),
                          ("behind", "behind")):  # fmt: skip
        levels = [
            LEVEL_WORDS[b]
            for b, v in fig["bots"].items()
            if v is not None and _against(value, v, spec.better) == verdict
        ]
        if levels:
            words.append(f"{said} the {_join(levels)} bot{'s' if len(levels) > 1 else ''}")
    return ", ".join(words) + "."


LEVEL_WORDS = {"random": "Easy", "heuristic": "Medium", "ismcts": "Hard"}


def _join(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def evaluate(own: Counts, people: Sequence[Counts], bots: Mapping[str, Counts]) -> list[MeasureOut]:
    """Every measure of ``own`` beside the median of ``people`` and each bot level."""
    out: list[MeasureOut] = []
    for measure in MEASURES:
        figures: list[FigureOut] = []
        for spec in measure.figures:
            figures.append(
                {
                    "key": spec.key,
                    "label": spec.label,
                    "value": spec.of(own),
                    "median": median([spec.of(p) for p in people]),
                    "bots": {
                        level: spec.of(bots[level]) if level in bots else None
                        for level in BOT_LEVELS
                    },
                    "better": spec.better,
                    "unit": spec.unit,
                }
            )
        out.append(
            {
                "key": measure.key,
                "title": measure.title,
                "about": measure.about,
                "figures": figures,
                "sentence": sentence(measure.figures[0], figures[0]),
            }
        )
    return out


async def evaluation(
    conn: AsyncConnection,
    account: int,
    ruleset: str,
    *,
    min_games: int,
    accuracy: AccuracySource | None,
) -> EvaluationOut:
    """The account's evaluation in ``ruleset`` from the stored totals."""
    rows = (
        await conn.execute(
            sa.select(db.measures, db.accounts.c.bot_level, db.accounts.c.guest)
            .join(db.accounts, db.accounts.c.id == db.measures.c.account_id)
            .where(db.measures.c.ruleset == ruleset)
        )
    ).all()
    own = Counts()
    people: list[Counts] = []
    bots: dict[str, Counts] = {}
    for row in rows:
        counts = Counts.of_row(row)
        if row.account_id == account:
            own = counts
        if row.bot_level is not None:
            bots[row.bot_level] = counts
        elif counts.games >= min_games:
            people.append(counts)
    share = None if accuracy is None else await accuracy(conn, account, ruleset)
    return {
        "account": account,
        "ruleset": ruleset,
        "games": own.games,
        "min_games": min_games,
        "people": len(people),
        "measures": evaluate(own, people, bots),
        "accuracy": _accuracy(share),
    }


def _accuracy(share: float | None) -> AccuracyOut:
    if share is None:
        return {
            "analysed": False,
            "value": None,
            "sentence": "Accuracy: not analysed yet (the share of moves that matched the "
            "search bot appears once games are analysed).",
        }
    return {
        "analysed": True,
        "value": round(share, 3),
        "sentence": f"Accuracy: {round(share * 100)}% of analysed moves matched the search "
        "bot or lost less than the threshold.",
    }


class Evaluations:
    """The evaluations the room answers: from the stored totals, with the room's
    ``min_games`` for its median and an ``accuracy`` source (the game analyses)."""

    def __init__(
        self, engine: AsyncEngine, *, min_games: int, accuracy: AccuracySource | None
    ) -> None:
        self.engine = engine
        self.min_games = min_games
        self.accuracy = accuracy
        """Where the evaluation's accuracy line comes from (None: "not analysed yet")."""

    async def of(self, account_id: int, ruleset: str) -> EvaluationOut:
        """The account's evaluation in ``ruleset`` (404 when there is no such account)."""
        async with self.engine.connect() as conn:
            if not await account_exists(conn, account_id):
                raise ApiError(404, "no_account", "no such account")
            return await evaluation(
                conn, account_id, ruleset, min_games=self.min_games, accuracy=self.accuracy
            )


__all__ = [
    "AccuracySource",
    "Counts",
    "Evaluations",
    "GameMeasures",
    "count_game",
    "evaluation",
    "measure_game",
]
