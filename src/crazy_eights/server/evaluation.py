"""Player evaluation, as the rules' seed names it: shedding efficiency, opponent
disruption and suit management, per account and ruleset, from stored games.

A stored game is its rules, seed and moves (RULES G4). ``measure_game`` replays it
through the engine and asks the engine (legal moves, ``is_wild``, ``Rules.action``, hand
counts, the events) everything a figure needs, so no rule is re-derived here. Each game
adds its counts to the ``measures`` row of every account that sat at it
(``measure_stored`` before the transaction that finishes the table, ``add_counts`` in
it), so a profile reads totals
instead of replaying games. The room's median is taken over the people with at least
``evaluation_min_games`` games in the ruleset; bot levels are compared from their own
seats in the same stored games.

The fourth line, accuracy (the share of moves that matched the search bot), is the
game analysis' business: the room is given an ``AccuracySource`` when that exists, and
says "not analysed yet" until then.
"""

from __future__ import annotations

import asyncio
import logging
import statistics
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, Literal

import sqlalchemy as sa
from fastapi import APIRouter, Path, Query, Request
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine
from typing_extensions import TypedDict

from crazy_eights.engine import RULESETS, Deal, Move, Rules, new_game
from crazy_eights.engine.cards import is_joker, parse_card, suit_of
from crazy_eights.engine.events import (
    FalseCall,
    GameOver,
    PenaltyDrawn,
    PickedUp,
    Played,
    RoundOver,
    SuitDeclared,
)
from crazy_eights.engine.moves import DRAW_KIND, PLAY_KIND

from . import db
from .errors import ApiError

if TYPE_CHECKING:
    from .app import Room

log = logging.getLogger(__name__)

CLOSE_TO_OUT = 2
"""An opponent holding this many cards or fewer is close to going out."""

BOT_LEVELS = ("random", "heuristic", "ismcts")


@dataclass(frozen=True)
class Counts:
    """The running totals of one seat (or of one account over many seats) in a ruleset.

    ``turns``: moves made; ``shed``: cards played; ``rounds`` and ``hand_points``: rounds
    ended and the points left in hand at those ends; ``pressure_turns``: turns taken
    while an opponent was close to going out, ``disruptions``: action cards and suit
    changes played on those turns, ``disruption_cost``: cards those opponents had
    gained by the disrupter's next turn; ``wilds_played`` and ``wilds_needed``: wild
    cards played, and those played when no other card could be; ``declarations`` and
    ``declarations_long``: suits declared, and those naming the longest suit left in
    hand; ``draws_forced``: draws with no card to play.
    """

    games: int = 0
    turns: int = 0
    shed: int = 0
    rounds: int = 0
    hand_points: int = 0
    pressure_turns: int = 0
    disruptions: int = 0
    disruption_cost: int = 0
    wilds_played: int = 0
    wilds_needed: int = 0
    declarations: int = 0
    declarations_long: int = 0
    draws_forced: int = 0

    def __add__(self, other: Counts) -> Counts:
        return Counts(**{f: getattr(self, f) + getattr(other, f) for f in db.MEASURE_COUNTS})

    @classmethod
    def of_row(cls, row: Any) -> Counts:
        return cls(**{f: int(getattr(row, f)) for f in db.MEASURE_COUNTS})


@dataclass
class _Seat:
    """What one seat did in one game while it is being replayed (mutable, private)."""

    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(db.MEASURE_COUNTS, 0))
    penalties: int = 0
    pending: dict[int, int] | None = None
    """Hand counts of the close opponents when this seat last disrupted them."""


@dataclass(frozen=True)
class GameMeasures:
    """What ``measure_game`` found: each seat's counts and penalties taken."""

    counts: tuple[Counts, ...]
    penalties: tuple[int, ...]


def measure_game(
    rules: Rules, seed: int, moves: Iterable[str], *, deal: Deal | None = None
) -> GameMeasures:
    """Replay a stored game (or one dealt by hand, ``deal``) and count, for every seat,
    what the evaluation is made of."""
    game = new_game(rules, seed, deal=deal)
    seats = [_Seat() for _ in range(rules.players)]
    rounds_seen = False
    for text in moves:
        by = game.current_player
        if by is None:
            game.play(text)
            continue
        me = seats[by]
        _settle(me, game)
        move = Move.parse(text)
        legal_plays = [m for m in game.legal_moves() if m.kind == PLAY_KIND]
        close = {
            s: game.hand_count(s)
            for s in range(rules.players)
            if s != by and game.hand_count(s) <= CLOSE_TO_OUT
        }
        wild = move.kind == PLAY_KIND and move.card is not None and game.is_wild(move.card, by)
        plain_play = any(m.card is not None and not game.is_wild(m.card, by) for m in legal_plays)
        events = game.play(text)
        c = me.counts
        c["turns"] += 1
        if move.kind == DRAW_KIND and not legal_plays:
            c["draws_forced"] += 1
        if wild:
            c["wilds_played"] += 1
            c["wilds_needed"] += int(not plain_play)
        disrupted = False
        for event in events:
            rounds_seen |= _count_event(event, seats, game)
            if isinstance(event, Played) and event.seat == by:
                c["shed"] += 1
                action = not wild and rules.action(event.card) is not None
                disrupted |= action or event.declared is not None
                if event.declared is not None:
                    _declared(me, game, by, event.declared)
            elif isinstance(event, SuitDeclared) and event.seat == by:
                disrupted = True
                _declared(me, game, by, event.suit)
        if close:
            c["pressure_turns"] += 1
            if disrupted:
                c["disruptions"] += 1
                me.pending = close
        if any(isinstance(e, RoundOver | GameOver) for e in events):
            for seat in seats:
                seat.pending = None
    if game.is_over and not rounds_seen:
        # cycles has no rounds: the game's end is the one end, scored by the engine
        for s, seat in enumerate(seats):
            seat.counts["rounds"] += 1
            seat.counts["hand_points"] += game.hand_points(s)
    return GameMeasures(
        counts=tuple(Counts(**{**s.counts, "games": 1}) for s in seats),
        penalties=tuple(s.penalties for s in seats),
    )


def _settle(me: _Seat, game: Any) -> None:
    """The disrupter is to move again: what its last disruption cost the opponents."""
    if me.pending is None:
        return
    me.counts["disruption_cost"] += sum(
        max(0, game.hand_count(s) - before) for s, before in me.pending.items()
    )
    me.pending = None


def _declared(me: _Seat, game: Any, seat: int, suit: int) -> None:
    """A suit declared: count it, and whether it names the longest suit left in hand."""
    cards = [parse_card(t) for t in game.hand(seat)]
    suits = [suit_of(card) for card in cards if not is_joker(card)]
    if not suits:
        return
    me.counts["declarations"] += 1
    longest = max(suits.count(s) for s in set(suits))
    me.counts["declarations_long"] += int(suits.count(suit) == longest)


def _count_event(event: Any, seats: list[_Seat], game: Any) -> bool:
    """Round ends and penalties, for whichever seat they concern; True at a round's end."""
    if isinstance(event, RoundOver):
        for s, seat in enumerate(seats):
            seat.counts["rounds"] += 1
            seat.counts["hand_points"] += event.points[s]
        return True
    penalty = isinstance(event, PenaltyDrawn | FalseCall) or (
        isinstance(event, PickedUp) and event.reason == "last_card"
    )
    if penalty and event.seat is not None:
        seats[event.seat].penalties += 1
    return False


# -- storage --------------------------------------------------------------------------


@dataclass(frozen=True)
class StoredGame:
    """A finished table as stored: its rules, seed, seats' accounts and moves."""

    table_id: str
    rules: Rules
    seed: int
    accounts: tuple[int | None, ...]
    moves: tuple[str, ...]


async def load_game(conn: AsyncConnection, table_id: str) -> StoredGame:
    """A stored game by its table id (the rows this transaction sees)."""
    row = (
        await conn.execute(
            sa.select(db.tables.c.rules, db.tables.c.seed).where(db.tables.c.id == table_id)
        )
    ).one()
    seat_rows = (
        await conn.execute(
            sa.select(db.seats.c.seat, db.seats.c.account_id)
            .where(db.seats.c.table_id == table_id)
            .order_by(db.seats.c.seat)
        )
    ).all()
    move_rows = (
        await conn.execute(
            sa.select(db.moves.c.move).where(db.moves.c.table_id == table_id).order_by(db.moves.c.n)
        )
    ).all()
    rules = Rules.from_dict(row.rules)
    accounts: list[int | None] = [None] * rules.players
    for s in seat_rows:
        accounts[s.seat] = s.account_id
    return StoredGame(
        table_id=table_id,
        rules=rules,
        seed=int(row.seed),
        accounts=tuple(accounts),
        moves=tuple(m.move for m in move_rows),
    )


async def measure_stored(
    engine: AsyncEngine, table_id: str
) -> tuple[StoredGame, GameMeasures | None]:
    """Load a finished game and measure it in a thread (a long match takes a while to
    replay). A game that cannot be replayed (it never should) is logged and measured
    as None rather than keeping its table from finishing."""
    async with engine.connect() as conn:
        game = await load_game(conn, table_id)
    try:
        measured = await asyncio.to_thread(measure_game, game.rules, game.seed, game.moves)
    except Exception:
        log.exception("table %s could not be measured for the evaluation", table_id)
        return game, None
    return game, measured


async def add_counts(
    conn: AsyncConnection, game: StoredGame, measured: GameMeasures | None
) -> None:
    """Add each account's counts of a measured game to its totals.

    The totals are raised in SQL (``x = x + n``), so games finishing together, which may
    share a bot level's row, all count.
    """
    if measured is None:
        return
    per_account: dict[int, Counts] = {}
    for account, counts in zip(game.accounts, measured.counts, strict=True):
        if account is not None:
            per_account[account] = per_account.get(account, Counts()) + counts
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


router = APIRouter(tags=["records"])

AccountId = Annotated[int, Path(ge=1, le=2**63 - 1, description="an account's id")]


@router.get("/api/accounts/{account_id}/evaluation")
async def evaluation_route(
    account_id: AccountId,
    request: Request,
    ruleset: str = Query("classic", max_length=16, description="the ruleset"),
) -> EvaluationOut:
    """Shedding efficiency, opponent disruption, suit management and accuracy of one
    account in one ruleset, beside the room's median and each bot level."""
    if ruleset not in RULESETS:
        raise ApiError(404, "no_ruleset", f"rulesets are {', '.join(RULESETS)}")
    room: Room = request.app.state.room
    async with room.engine.connect() as conn:
        found = (
            await conn.execute(sa.select(db.accounts.c.id).where(db.accounts.c.id == account_id))
        ).first()
        if found is None:
            raise ApiError(404, "no_account", "no such account")
        return await evaluation(
            conn,
            account_id,
            ruleset,
            min_games=room.settings.evaluation_min_games,
            accuracy=room.accuracy,
        )


__all__ = [
    "AccuracySource",
    "Counts",
    "GameMeasures",
    "StoredGame",
    "add_counts",
    "evaluation",
    "load_game",
    "measure_game",
    "measure_stored",
]
