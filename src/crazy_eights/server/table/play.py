"""Moves: a player's move checked, any move made durable and told, timeouts, bot moves.

Every move, whoever makes it (a player, the clock, a bot), goes through ``apply``: the
engine plays it, the store keeps it, and only then do the members hear of it (RULES G4).
A move the store cannot keep is taken back and refused, so the table never runs ahead of
what a restart would rebuild.
"""

from __future__ import annotations

import logging

from crazy_eights.engine import TIMEOUT, Game, IllegalMove, Move, MoveSyntaxError, replay

from .. import metrics
from . import between_rounds, finish, messages, standins, turns
from .context import TableContext
from .ops import BotMove, Play, Timeout
from .rounds import round_ended, round_just_ended
from .state import TableState
from .store import Fenced, StoreError

log = logging.getLogger(__name__)


class Refusal(Exception):
    """Why a player's move is refused before the engine sees it (an ``error``'s code)."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


async def on_play(ctx: TableContext, op: Play) -> None:
    """A player's move: checked, played by its seat (taking the seat back from a
    stand-in), or refused with an ``error`` to the member who sent it."""
    member = ctx.table.members.get(op.member_id)
    if member is None:
        return
    try:
        seat_no, move = checked_move(ctx.table, member.seat, op)
    except Refusal as refusal:
        return ctx.out.error(member, refusal.code, refusal.reason, op.seq)
    seat = ctx.table.seats[seat_no]
    if seat.standin:
        standins.give_back(ctx, seat)
    try:
        await apply(ctx, seat_no, move, ack=op.seq)
    except IllegalMove as exc:
        ctx.out.error(member, "illegal", exc.reason, op.seq)
    else:
        seat.timeouts = 0
        seat.played = True


def checked_move(table: TableState, seat_no: int | None, op: Play) -> tuple[int, Move]:
    """The seat and move ``op`` asks for, or the ``Refusal`` that says why not: the game
    must run, the move must parse, answer the current version and be the seat's turn."""
    seat_no, game = _playable(table, seat_no)
    try:
        move = Move.parse(op.move)
    except MoveSyntaxError as exc:
        raise Refusal("illegal", str(exc)) from None
    if table.seats[seat_no].called and move.is_play and not move.call:
        move = move.with_call()  # called in the chat (or with the button) beforehand
    _check_turn(table, game, seat_no, op.seq, move)
    return seat_no, move


def _playable(table: TableState, seat_no: int | None) -> tuple[int, Game]:
    """The seat and game a move is made in, if a player may move at all now."""
    game = table.game
    if seat_no is None:
        raise Refusal("not_seated", "spectators cannot move")
    if game is None:
        raise Refusal("not_started", "the game has not started")
    if game.is_over:
        raise Refusal("game_over", "the game is over")
    if table.rounds.active:
        raise Refusal("between_rounds", "the next round has not begun")
    return seat_no, game


def _check_turn(table: TableState, game: Game, seat_no: int, seq: int, move: Move) -> None:
    """Refuse a move sent for another version (a repeat, a stale one) or out of turn."""
    version = table.version
    if seq != version:
        if seq < version and table.movers[seq] == seat_no and game.moves[seq] == move.text:
            raise Refusal("duplicate", f"move {seq} was already played")
        raise Refusal("stale", f"the game is at version {version}, not {seq}")
    if game.current_player != seat_no:
        raise Refusal("not_your_turn", f"it is seat {game.current_player}'s turn")
    if move is TIMEOUT:
        raise Refusal("illegal", "timeout is issued by the table")


async def apply(ctx: TableContext, seat_no: int, move: Move, *, ack: int | None = None) -> None:
    """Play, make durable, then broadcast. Raises ``IllegalMove`` with nothing changed."""
    with metrics.timed(metrics.MOVE_SECONDS):
        await _apply(ctx, seat_no, move, ack)
    metrics.MOVES.inc()


async def _apply(ctx: TableContext, seat_no: int, move: Move, ack: int | None) -> None:
    table = ctx.table
    game = table.game
    assert game is not None
    events = game.play(move)
    text = game.moves[-1]
    await _keep(ctx, game, seat_no, text)
    table.movers.append(seat_no)
    table.seats[seat_no].called = False
    if table.seats[seat_no].standin:
        table.seats[seat_no].standin_moves += 1
    if game.is_over:
        await finish.end_game(ctx)
    elif not between_rounds.hold_round(ctx, round_ended(game, events)):
        turns.arm_clock(ctx)
    with metrics.timed(metrics.BROADCAST_SECONDS):
        ctx.out.deliver(messages.state_texts(table, events, text, seat_no, ack))
    if table.status == "finished":
        finish.announce(ctx)
    turns.let_bots_play(ctx)


async def _keep(ctx: TableContext, game: Game, seat_no: int, text: str) -> None:
    """Store the move just played; if the store refuses it, take it back and raise
    ``IllegalMove`` (and let the table go if another process owns it now)."""
    table = ctx.table
    try:
        await ctx.store.append_move(table.id, table.version, seat_no, text)
    except Fenced:
        log.warning("table %s: another process owns it now; letting it go", table.id)
        table.game = replay(table.rules, table.seed, game.moves[:-1])
        ctx.notices.lost()
        raise IllegalMove("this table has moved to another server; reconnecting") from None
    except StoreError:
        log.exception("table %s: a move was not saved", table.id)
        table.game = replay(table.rules, table.seed, game.moves[:-1])
        raise IllegalMove("the server could not save the move; try again") from None


async def on_timeout(ctx: TableContext, op: Timeout) -> None:
    """The turn clock ran out: the table plays the timeout for the seat, and a seat that
    timed out ``takeover_after`` times in a row gets a stand-in."""
    table = ctx.table
    game = table.game
    if game is None or game.is_over or op.version != table.version:
        return
    seat_no = game.current_player
    assert seat_no is not None
    seat = table.seats[seat_no]
    await apply(ctx, seat_no, TIMEOUT)
    seat.timeouts += 1
    takeover = table.spec.takeover_after
    if seat.bot is None and not seat.standin and takeover and seat.timeouts >= takeover:
        standins.take_over(ctx, seat_no)


async def on_bot_move(ctx: TableContext, op: BotMove) -> None:
    """A bot's answer: played if the game is still where the bot saw it (else the next
    bot to move thinks again); an illegal choice is replaced by its first legal move."""
    table = ctx.table
    game = table.game
    if (
        game is None
        or game.is_over
        or op.version != table.version
        or game.current_player != op.seat
        or table.seats[op.seat].bot_level is None
    ):
        turns.let_bots_play(ctx)
        return
    try:
        await apply(ctx, op.seat, Move.parse(op.move))
    except (IllegalMove, MoveSyntaxError):
        log.warning("table %s: bot chose illegal %r", table.id, op.move)
        await apply(ctx, op.seat, Move.parse(op.legal[0]))


async def resume(ctx: TableContext, moves: list[tuple[int | None, str]]) -> None:
    """Rebuild a running game from its stored moves and pick up where it stopped: every
    person is waited for as if they had just dropped out, a round that had just ended
    pauses again, a game found over is recorded."""
    table = ctx.table
    if table.status != "playing":
        return
    table.game, ended = round_just_ended(table.rules, table.seed, [m for _, m in moves])
    table.movers = [seat for seat, _ in moves]
    for seat in table.seats:
        if seat.bot is None and not seat.left:
            table.grace.start(seat.seat, ctx.away_seconds)
    if table.game.is_over:
        await finish.record(ctx)
    elif not between_rounds.hold_round(ctx, ended, here=lambda seat: True):  # they'll be back
        turns.arm_clock(ctx)
        turns.let_bots_play(ctx)
