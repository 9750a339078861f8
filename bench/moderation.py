"""What moderation costs the room (issue 20, item 6): ``--accounts`` accounts (10,000),
``--sanctions`` of them muted or banned (1,000), on a SQLite file with the real schema.

Prints: the table's chat check (``Moderation.muted``, asked for every chat line; it
reads memory only), the reading of the sanctions in force that every node does every
``REFRESH_SECONDS`` (the command line's changes arrive this way), one ban through the
service (its transaction with the audit line and the sessions' end), and how long after
a ban made on one node another node (sharing a ``MemoryBus``, as Redis relays it) closes
the person's sockets (``on_ban`` heard).

    PYTHONPATH=src python bench/moderation.py
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from crazy_eights.server import db
from crazy_eights.server.bus import MemoryBus
from crazy_eights.server.moderation import Actor, Moderation

OPERATOR = Actor("operator (bench)")


async def build(path: Path, accounts: int, sanctions: int) -> None:
    engine = db.make_engine(f"sqlite+aiosqlite:///{path}")
    await db.migrate(engine)
    now = time.time()
    async with engine.begin() as conn:
        await conn.execute(
            db.accounts.insert(),
            [
                {
                    "id": n,
                    "name": f"p{n}",
                    "name_key": f"p{n}",
                    "display_name": f"p{n}",
                    "created_at": now,
                }
                for n in range(1, accounts + 1)
            ],
        )
        await conn.execute(
            db.sanctions.insert(),
            [
                {
                    "account_id": n,
                    "kind": "mute" if n % 2 else "ban",
                    "reason": "bench",
                    "created_at": now,
                    "until": now + 86400,
                    "by_name": OPERATOR.name,
                }
                for n in range(1, sanctions + 1)
            ],
        )
    await engine.dispose()


async def run(accounts: int, sanctions: int, bans: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "room.db"
        await build(path, accounts, sanctions)
        engine = db.make_engine(f"sqlite+aiosqlite:///{path}")
        bus = MemoryBus()
        here, there = Moderation(engine, bus=bus), Moderation(engine, bus=bus)
        heard: dict[int, float] = {}
        there.on_ban.append(lambda account, words: heard.setdefault(account, time.perf_counter()))
        await here.start()
        await there.start()

        asks = 200_000
        start = time.perf_counter()
        for n in range(asks):
            here.muted(n % accounts + 1)
        check = (time.perf_counter() - start) / asks

        reads = []
        for _ in range(20):
            start = time.perf_counter()
            await here.refresh()
            reads.append(time.perf_counter() - start)

        made, told = [], []
        for n in range(bans):
            target = await here.find(account=accounts - n)
            start = time.perf_counter()
            await here.sanction(OPERATOR, target, "ban", 3600, "bench")
            done = time.perf_counter()
            made.append(done - start)
            while target.account not in heard:
                await asyncio.sleep(0)
            told.append(heard[target.account] - done)
        await here.stop()
        await there.stop()
        await engine.dispose()

    print(f"{accounts} accounts, {sanctions} mutes and bans in force (SQLite)")
    print(f"  chat check (Moderation.muted): {check * 1e9:.0f} ns a line")
    print(
        f"  reading what is in force (every 15 s per node): median "
        f"{statistics.median(reads) * 1000:.1f} ms, max {max(reads) * 1000:.1f} ms"
    )
    print(
        f"  one ban (transaction with the audit line): median "
        f"{statistics.median(made) * 1000:.1f} ms over {bans}"
    )
    print(
        f"  heard on the other node after the commit: median "
        f"{statistics.median(told) * 1e6:.0f} us, max {max(told) * 1e6:.0f} us"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--accounts", type=int, default=10_000)
    parser.add_argument("--sanctions", type=int, default=1_000)
    parser.add_argument("--bans", type=int, default=50)
    args = parser.parse_args()
    asyncio.run(run(args.accounts, args.sanctions, args.bans))


if __name__ == "__main__":
    main()
