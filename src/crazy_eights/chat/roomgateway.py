"""``RoomGateway``: the chat host's tables as tables of the card room, on its database.

The game is played by the engine in the host's process (``LocalGateway``: the host's
own clock and narration stay the one clock of the table), and everything the room keeps
of a table is written to the room's database (a SQLite file or PostgreSQL, the one
``crazy-eights serve`` uses) through the room's own store (``SqlTableStore``): the table
with its ``place`` (``irc:irc.example.net:#cards``), its seats, every move as it is made
(durable before the channel hears of it), and its end, with the records, ratings,
evaluation counts and achievements of a game the room ran. The card room lists the
table in its lobby, shows it to browsers move by move and serves its replay
(``server.hosted``); it never runs it.

With ``news`` (``chat-host --redis``), each committed move and end is also told on
the cluster's Redis (``server.cluster.hostednews``): the card room's followers of the
table wake on it instead of at their next look at the database.

Seats: a bot sits as its level's account, a nick as the account it plays as
(``server.chatnames``: a chat guest, or the account the nick was linked to with
``!link``). A table with a nick that is not linked is unrated.

A table still running when the host stops is abandoned; one left running by a host that
crashed is abandoned when a host of the same network starts (``close_orphans``): the
players' hands and the host's notes were in the crashed process, so there is nothing to
go on from in the chat.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from crazy_eights.engine import Event, IllegalMove, Move, Rules
from crazy_eights.server import achievements, db, evaluation, stats
from crazy_eights.server.auth import Accounts
from crazy_eights.server.chatnames import LINK_SECONDS, ChatNames
from crazy_eights.server.cluster.hostednews import HostedNews
from crazy_eights.server.hosted import place_parts
from crazy_eights.server.records.finish import FinishSubscribers
from crazy_eights.server.records.tables import SqlTableStore
from crazy_eights.server.settings import ServerSettings
from crazy_eights.server.table.seats import Seat, Seats
from crazy_eights.server.table.store import Spec, StoreError, TableRecord
from crazy_eights.server.tables import new_table_id

from . import narrate
from .gateway import ChatSeat, ChatTableSpec, GameRecord, LocalGateway, View

log = logging.getLogger(__name__)

NAME_CHARS = 60
"""The longest table name the room keeps."""
PLACE_CHARS = 200
"""The longest place the room keeps."""


@dataclass(frozen=True)
class _Stored:
    """What the room was told of a running table: what its end is recorded with."""

    spec: Spec
    seats: Seats


class RoomGateway:
    """A ``TableGateway`` whose tables are the card room's, in its database."""

    def __init__(
        self,
        engine: AsyncEngine,
        writer: db.Writer,
        store: SqlTableStore,
        names: ChatNames,
        bot_account: Callable[[str], Awaitable[int]],
        *,
        room_url: str | None = None,
        turn_seconds: float | None = None,
        news: HostedNews | None = None,
    ) -> None:
        self.engine = engine
        self.writer = writer
        self.store = store
        self.names = names
        self._bot_account = bot_account
        self.room_url = room_url.rstrip("/") if room_url else None
        self.turn_seconds = turn_seconds
        self.news = news
        self.local = LocalGateway(new_id=new_table_id)
        self._stored: dict[str, _Stored] = {}

    @classmethod
    async def open(
        cls,
        settings: ServerSettings,
        *,
        room_url: str | None = None,
        turn_seconds: float | None = None,
        redis: str | None = None,
    ) -> RoomGateway:
        """A gateway on the database ``settings`` name, migrated to the newest schema
        (as ``crazy-eights serve`` does) and its writer started; with ``redis`` (the
        card room's cluster Redis URL), telling its moves there too."""
        engine = db.make_engine(settings.sqlalchemy_url())
        await db.migrate(engine)
        writer = db.Writer(engine)
        writer.start()
        subscribers = FinishSubscribers(
            rate=partial(stats.rate_game, rate_guests=settings.rate_guests),
            in_transaction=(evaluation.count_game, achievements.award_game),
        )
        store = SqlTableStore(engine, writer, subscribers)
        accounts = Accounts(engine, settings)
        return cls(
            engine,
            writer,
            store,
            ChatNames(engine),
            accounts.bot_account,
            room_url=room_url,
            turn_seconds=turn_seconds,
            news=HostedNews.connect(redis) if redis else None,
        )

    async def shutdown(self) -> None:
        """Abandon the tables still running (the host is stopping), write what is
        queued, and let the database go."""
        for table_id in list(self._stored):
            await self.close(table_id, "the host stopped")
        if self.news is not None:
            await self.news.close()
        await self.writer.stop()
        await self.engine.dispose()

    async def close_orphans(self, networks: Iterable[str]) -> list[str]:
        """Abandon the unfinished tables of these networks: a host of theirs that
        stopped without closing them (a crash) left them. Answers their ids."""
        found: list[str] = []
        async with self.engine.begin() as conn:
            for network in networks:
                prefix = f"{network}:"
                where = sa.and_(
                    sa.func.substr(db.tables.c.place, 1, len(prefix)) == prefix,
                    db.tables.c.status.in_(("open", "playing")),
                )
                rows = await conn.execute(sa.select(db.tables.c.id).where(where))
                found += [r.id for r in rows.all() if r.id not in self._stored]
            if found:
                await conn.execute(
                    db.tables.update()
                    .where(db.tables.c.id.in_(found))
                    .values(status="abandoned", finished_at=db.now())
                )
        for table_id in found:
            log.warning("table %s was left running by a host that stopped: abandoned", table_id)
            self._tell(table_id, 0)
        return found

    # -- the gateway ---------------------------------------------------------------------

    async def create(
        self, spec: ChatTableSpec, seats: Sequence[ChatSeat]
    ) -> tuple[str, list[Event]]:
        network, channel = place_parts(spec.place)
        room_seats, unrated = await self._seats(network, seats)
        table_id, events = await self.local.create(spec, seats)
        room_spec = Spec(
            name=f"{spec.rules.ruleset} in {channel}"[:NAME_CHARS],
            rules=self._room_rules(spec.rules),
            public=True,
            hints=False,
            takeover_after=0,  # the host's own timer and stand-ins
            bots={s.seat: s.bot for s in seats if s.bot is not None},
            place=spec.place[:PLACE_CHARS],
            unrated=unrated,
        )
        now = db.now()
        record = TableRecord(
            id=table_id,
            spec=room_spec,
            seed=spec.seed,
            creator=None,
            invite=None,
            status="playing",
            created_at=now,
            seats=room_seats,
        )
        try:
            await self.store.create(record)
            await self.store.set_status(table_id, "playing", started_at=now)
        except Exception:
            await self.local.close(table_id, "not stored")
            raise
        self._stored[table_id] = _Stored(room_spec, room_seats)
        return table_id, events

    def _room_rules(self, rules: Rules) -> Rules:
        """The rules as the room keeps them: with the host's turn timer, which browsers
        watching the table count down (the engine does not read it: the same game)."""
        if self.turn_seconds is None:
            return rules
        low, high = Rules.settings_for(rules.ruleset)["turn_timer"]["range"]
        return rules.replace(turn_timer=min(high, max(low, round(self.turn_seconds))))

    async def _seats(self, network: str, seats: Sequence[ChatSeat]) -> tuple[Seats, bool]:
        """The room's seats for the chat's: a bot as its level's account, a nick as the
        account it plays as; and whether any nick is a chat guest's (unrated)."""
        out: list[Seat] = []
        unrated = False
        for chat_seat in seats:
            if chat_seat.bot is not None:
                account = await self._bot_account(chat_seat.bot)
                out.append(Seat(seat=chat_seat.seat, account_id=account, bot=chat_seat.bot))
                continue
            name = await self.names.account_of(network, chat_seat.name)
            unrated |= not name.linked
            out.append(Seat(seat=chat_seat.seat, account_id=name.account_id, name=chat_seat.name))
        room_seats = Seats(out)
        room_seats.name_bots()
        return room_seats, unrated

    async def move(self, table_id: str, seat: int, move: Move) -> list[Event]:
        events = await self.local.move(table_id, seat, move)
        await self._keep(table_id, seat)
        return events

    async def bot_move(self, table_id: str, seat: int, level: str) -> list[Event]:
        events = await self.local.bot_move(table_id, seat, level)
        await self._keep(table_id, seat)
        return events

    async def _keep(self, table_id: str, seat: int) -> None:
        """Store the move just played; if it cannot be, take it back and refuse it, so
        the chat never runs ahead of the room's record."""
        moves = self.local.record(table_id).moves
        try:
            await self.store.append_move(table_id, len(moves) - 1, seat, moves[-1])
        except StoreError:
            log.exception("table %s: a move was not saved", table_id)
            self.local.take_back(table_id)
            raise IllegalMove("the move could not be saved: say it again") from None
        self._tell(table_id, len(moves))

    def _tell(self, table_id: str, version: int) -> None:
        """Tell the card room's followers (with ``news``) that the table changed."""
        if self.news is not None:
            self.news.changed(table_id, version)

    def view(self, table_id: str, seat: int | None) -> View:
        return self.local.view(table_id, seat)

    async def leave(self, table_id: str, seat: int) -> None:
        """Record the seat as left, as the room records a seat given up in a running
        game (it counts as a loss, and history and replays show it); a seat the
        database would not take is logged, the chat going on."""
        await self.local.leave(table_id, seat)
        stored = self._stored.get(table_id)
        if stored is None:
            return
        room_seat = stored.seats[seat]
        room_seat.left = True  # the end is recorded with it, whatever happens here
        try:
            await self.store.save_seat(table_id, room_seat)
        except Exception:
            log.exception("table %s: seat %d left, not stored", table_id, seat)
            return
        self._tell(table_id, len(self.local.record(table_id).moves))

    async def close(self, table_id: str, reason: str) -> GameRecord:
        """Record the end: a finished game's result (records, ratings, achievements), or
        an ended one abandoned."""
        record = self.local.record(table_id)
        stored = self._stored.pop(table_id, None)
        if stored is not None:
            try:
                await self._end(table_id, stored, record)
                self._tell(table_id, len(record.moves))
            except Exception:  # the chat's table ends all the same
                log.exception("table %s: its end was not stored", table_id)
        return await self.local.close(table_id, reason)

    async def _end(self, table_id: str, stored: _Stored, record: GameRecord) -> None:
        if record.result is None:
            await self.store.set_status(table_id, "abandoned", finished_at=db.now())
            return
        await self.store.finish(
            table_id, spec=stored.spec, seats=stored.seats, result=record.result
        )

    async def link(self, name: str, place: str) -> str | None:
        """A one-time link for ``name`` on network ``place`` (None without the room's
        address, ``room_url``)."""
        if self.room_url is None:
            return None
        nick = narrate.safe_name(name)
        token = await self.names.offer_link(place, nick)
        minutes = round(LINK_SECONDS / 60)
        return (
            f"open {self.room_url}/#/link/{token} within {minutes} min, signed in, "
            f"to tie {nick} to your account"
        )
