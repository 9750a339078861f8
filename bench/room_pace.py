"""How long quick play's games take in the card room, at a person's pace (issue 23, item 7).

    PYTHONPATH=src python bench/room_pace.py --games 2

Starts a card room of its own (default settings: the 0.8 s bot pause, the 30 s pause
between rounds that a person ends by pressing "Next round"), and for each length the
lobby offers plays ``--games`` games at once, each at a table of its own: seat 0 is a
scripted person, the other seats the room's Medium bots, as quick play seats someone
alone. The person chooses like the heuristic bot but takes a person's time, the
``think`` model below, and presses "Next round" after reading the summary. The wall
clock from the first state to the game's end is what the lobby's "about N minutes"
says (web/js/lengths.js), rounded.

A person's time for a move (seconds): 1.5 to see the turn and the cards, plus 0.3 for
each playable card to weigh (at most 8), plus 1.0 to name a suit with a wild card; a
turn with nothing but ``draw`` or ``pass`` takes 1.0. Reading a round's summary: 5.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any

import websockets

from crazy_eights.bots import make_bot
from crazy_eights.engine import Move

LENGTHS: list[tuple[str, dict[str, Any]]] = [
    ("classic one round", {"ruleset": "classic", "mode": "single"}),
    ("classic to 100", {"ruleset": "classic", "mode": "match", "target": 100}),
    ("ultimate one round", {"ruleset": "ultimate", "mode": "single"}),
    ("ultimate to 100", {"ruleset": "ultimate", "mode": "match", "target": 100}),
    ("countdown one round", {"ruleset": "countdown", "mode": "single"}),
    ("countdown from 3", {"ruleset": "countdown", "mode": "match", "start": 3}),
    ("cycles (30 cycles)", {"ruleset": "cycles"}),
]
SEE_S = 1.5
WEIGH_S = 0.3
SUIT_S = 1.0
ONLY_DRAW_S = 1.0
READ_SUMMARY_S = 5.0


def think(legal: list[str]) -> float:
    """A person's seconds for a move among ``legal`` (the model of the docstring)."""
    plays = [m for m in legal if m not in ("draw", "pass")]
    if not plays:
        return ONLY_DRAW_S
    wild = SUIT_S if any(":" in m for m in plays) else 0.0
    return SEE_S + WEIGH_S * min(8, len({m.split(":")[0].rstrip("!") for m in plays})) + wild


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Http:
    """A signed-in guest's HTTP calls (its own cookie jar)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def post(self, path: str, body: dict[str, Any]) -> Any:
        request = urllib.request.Request(
            self.base + path,
            data=json.dumps(body).encode(),
            headers={"content-type": "application/json", "origin": self.base},
            method="POST",
        )
        with self.opener.open(request, timeout=30) as response:
            return json.load(response)

    def cookie(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)


async def one_game(base: str, rules: dict[str, Any], seed: int) -> tuple[float, int, int]:
    """(seconds, the person's moves, rounds) of one game at a person's pace."""
    http = Http(base)
    await asyncio.to_thread(http.post, "/api/auth/guest", {})
    players = 4  # quick play's table
    bots = [{"seat": s, "level": "heuristic"} for s in range(1, players)]
    info = await asyncio.to_thread(
        http.post, "/api/tables", {"rules": {**rules, "players": players}, "bots": bots}
    )
    bot = make_bot("heuristic", seed=seed)
    url = base.replace("http", "ws") + f"/ws/tables/{info['id']}"
    headers = {"cookie": http.cookie(), "origin": base}
    own = rounds = 0
    started: float | None = None
    async with websockets.connect(url, additional_headers=headers, max_size=2**22) as ws:
        if info["status"] == "open":
            await asyncio.to_thread(http.post, f"/api/tables/{info['id']}/start", {})
        acted = -1
        async for raw in ws:
            msg = json.loads(raw)
            state = msg.get("state")
            if msg.get("type") not in ("welcome", "state") or not state:
                continue
            started = started or time.monotonic()
            view = state["view"]
            if view.get("over"):
                rounds = int(view["result"].get("rounds", rounds or 1))
                break
            if state.get("pause") and 0 in state["pause"].get("waiting", []):
                await asyncio.sleep(READ_SUMMARY_S)
                await ws.send(json.dumps({"type": "next_round"}))
                continue
            legal = state.get("legal") or []
            if legal and state["version"] != acted:
                acted = state["version"]
                await asyncio.sleep(think(legal))
                move = bot.choose(dict(view), [Move.parse(m) for m in legal])
                await ws.send(json.dumps({"type": "move", "seq": acted, "move": str(move)}))
                own += 1
    assert started is not None
    return time.monotonic() - started, own, rounds


async def measure(base: str, games: int, only: str) -> None:
    chosen = [(name, rules) for name, rules in LENGTHS if only in name]
    runs = await asyncio.gather(
        *(
            one_game(base, rules, 1000 * i + g)
            for i, (_, rules) in enumerate(chosen)
            for g in range(games)
        )
    )
    print(f"{games} game(s) each, seat 0 at a person's pace, 3 Medium bots, bot pause 0.8 s")
    print(f"{'length':22} {'minutes':>8} {'min':>6} {'max':>6} {'your moves':>10} {'rounds':>7}")
    for i, (name, _) in enumerate(chosen):
        mine = runs[i * games : (i + 1) * games]
        minutes = [r[0] / 60 for r in mine]
        print(
            f"{name:22} {statistics.fmean(minutes):8.1f} {min(minutes):6.1f} {max(minutes):6.1f}"
            f" {statistics.fmean(r[1] for r in mine):10.1f}"
            f" {statistics.fmean(r[2] for r in mine):7.1f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--only", default="", help="a word the lengths' names must contain")
    args = parser.parse_args()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as folder:
        env = dict(os.environ, CE_SIGNUP_LIMIT="1000", CE_TABLES_PER_ACCOUNT="4")
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "crazy_eights.server.commands",
                "serve",
                "--port",
                str(port),
                "--db",
                str(Path(folder) / "pace.db"),
                "--log-level",
                "warning",
            ],
            env=env,
        )
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    urllib.request.urlopen(base + "/api/health", timeout=1).close()
                    break
                except OSError:
                    if time.monotonic() > deadline or server.poll() is not None:
                        raise SystemExit("the card room did not start") from None
                    time.sleep(0.1)
            asyncio.run(measure(base, args.games, args.only))
        finally:
            server.terminate()
            server.wait(30)


if __name__ == "__main__":
    main()
