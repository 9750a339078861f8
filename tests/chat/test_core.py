"""The chat host's core without a network: commands and card words (read by the
engine), rate limits, line cutting, and a table's clock (timeouts, stand-ins, a seat
kept for a player who quit), driven by a hand-set clock."""

from __future__ import annotations

import asyncio
import doctest

import pytest

from crazy_eights.chat import outbox, parse, words
from crazy_eights.chat.config import ConfigError, HostConfig, IrcNetwork, load_config
from crazy_eights.chat.gateway import LocalGateway
from crazy_eights.chat.limits import FloodGate, TokenBucket
from crazy_eights.chat.outbox import Line
from crazy_eights.chat.parse import Command, Unknown, read_line
from crazy_eights.chat.table import ChatTable, read_new
from crazy_eights.chat.words import CardWordsError, read_play
from crazy_eights.server import hosted


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize("module", [outbox, parse, words, hosted])
def test_doctests(module: object) -> None:
    assert doctest.testmod(module).failed == 0  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("said", "move", "rest"),
    [
        ("7H", "7H", ""),
        ("7h", "7H", ""),
        ("10 of diamonds", "TD", ""),
        ("seven of hearts", "7H", ""),
        ("7\u2665", "7H", ""),
        ("joker", "JK", ""),
        ("black joker clubs", "BJ:C", ""),
        ("8S hearts", "8S:H", ""),
        ("8S:H", "8S:H", ""),
        ("QS last card!", "QS", "last card!"),
    ],
)
def test_cards_in_words_are_read_by_the_engine(said: str, move: str, rest: str) -> None:
    read = read_play(said)
    assert (str(read.move), read.rest) == (move, rest)


@pytest.mark.parametrize("said", ["", "7", "of hearts", "xyzzy", "<script>"])
def test_words_that_name_no_card_get_a_fixed_answer(said: str) -> None:
    with pytest.raises(CardWordsError) as caught:
        read_play(said)
    assert "script" not in str(caught.value) and "xyzzy" not in str(caught.value)


def test_commands_read_in_one_place() -> None:
    assert read_line("!PLAY 7H last card") == Command("play", "7H last card")
    assert read_line("?hand", "?") == Command("hand", "")
    assert read_line("!rm -rf") == Unknown()
    assert read_line("!!!") is None and read_line("hello") is None
    assert "no such command" in parse.help_text("nope")
    assert "G7" in parse.help_text("call")


def test_new_table_arguments() -> None:
    read = read_new("cycles 4 12")
    assert not isinstance(read, str) and read[0].cycle_limit == 12 and read[1] == 4
    assert isinstance(read_new("cycles 40"), str)
    refusal = read_new("poker 4")
    assert isinstance(refusal, str) and "poker" not in refusal


def test_buckets_pace_and_a_flood_is_told_once() -> None:
    clock = Clock()
    bucket = TokenBucket(1.0, 2, clock)
    assert bucket.take() and bucket.take() and not bucket.take()
    assert bucket.wait() == pytest.approx(1.0)
    clock.now = 1.0
    assert bucket.take()
    gate = FloodGate(1.0, 2, clock)
    assert [gate.admit("x") for _ in range(4)] == [True, True, None, False]
    assert gate.admit("y") is True  # another nick is not slowed


def test_lines_are_cut_to_the_limit_and_merged() -> None:
    assert all(len(p.encode()) <= 20 for p in outbox.cut("\u2665" * 30 + " word" * 10, 20))
    queue = outbox.deque([Line("#c", "a"), Line("#c", "b"), Line("bob", "c", True)])
    assert outbox.merge(queue, 100) == Line("#c", "a | b")
    assert list(queue) == [Line("bob", "c", True)]


def test_config_from_variables_and_file(tmp_path: object) -> None:
    config, _ = load_config({"CE_CHAT_TURN_SECONDS": "30", "CE_CHAT_PREFIX": "?"})
    assert (config.turn_seconds, config.prefix) == (30.0, "?")
    with pytest.raises(ConfigError):
        load_config({"CE_CHAT_BURST": "0"})
    with pytest.raises(ConfigError, match="CE_CHAT_IRC_PASSWORD"):
        IrcNetwork.from_url("irc://nick:secret@host/#c")
    network = IrcNetwork.from_url("irc://dealer@127.0.0.1:6668/#cards,#eights")
    assert (network.nick, network.port, network.channels) == ("dealer", 6668, ("#cards", "#eights"))


def test_the_card_rooms_database_and_address_from_variables() -> None:
    secret = "postgresql://ce:hunter2@db/ce"
    env = {"CE_CHAT_DB": secret, "CE_CHAT_ROOM_URL": "https://cards.example"}
    config, _ = load_config(env)
    assert (config.db, config.room_url) == (secret, "https://cards.example")
    assert "hunter2" not in repr(config)  # a database password is never logged
    with pytest.raises(ConfigError, match="room_url"):
        load_config({"CE_CHAT_ROOM_URL": "cards.example"})


def test_the_cluster_redis_from_variables() -> None:
    """``CE_CHAT_REDIS`` (with ``CE_CHAT_DB``): kept out of the logs; a bad URL, or a
    Redis without the database it would tell about, is refused by name."""
    redis = "redis://:hunter2@redis.internal:6379/3"
    config, _ = load_config({"CE_CHAT_DB": "room.db", "CE_CHAT_REDIS": redis})
    assert config.redis == redis and "hunter2" not in repr(config)
    with pytest.raises(ConfigError, match="redis://"):
        load_config({"CE_CHAT_DB": "room.db", "CE_CHAT_REDIS": "redis.internal:6379"})
    alone, _ = load_config({"CE_CHAT_REDIS": "redis://127.0.0.1:6379/0"})  # --db may follow
    with pytest.raises(ConfigError, match="needs db"):
        alone.check_whole()


async def _table(
    clock: Clock, nicks: tuple[str, ...] = ("ann", "ben")
) -> tuple[ChatTable, LocalGateway]:
    read = read_new(f"cycles {len(nicks)} 30")
    assert not isinstance(read, str)
    gateway = LocalGateway()
    config = HostConfig(turn_seconds=10, away_seconds=60, bot_delay=0)
    table = ChatTable(
        "#c",
        "ann",
        read[0],
        config,
        gateway,
        capacity=len(nicks),
        place="irc:#c",
        seed=5,
        clock=clock,
    )
    for nick in nicks:
        await table.command(nick, Command("join", ""))
    await table.command("ann", Command("start", ""))
    return table, gateway


def _texts(lines: list[Line]) -> str:
    return "\n".join(line.text for line in lines)


async def _y15_and_standins() -> None:
    clock = Clock()
    table, _ = await _table(clock)
    seat = table._current()
    assert seat is not None and seat.nick is not None
    start = table.turn_started
    assert table.next_wakeup() == start + 5  # the reminder at half time
    clock.now = start + 5
    assert f"{seat.name}, your turn: 5 s left" in _texts(await table.wake())
    for _ in range(2):  # time out twice in a row (their turns, or the others' moves)
        while table._current() is not seat:
            other = table._current()
            assert other is not None and other.nick is not None
            view = table.view(other.number)
            card = view["legal_moves"][0]
            text = str(card["card"]) + (" " + str(card["suit"]) if card["suit"] else "")
            await table.command(other.nick, Command("play", text))
        clock.now = table.turn_started + 10
        said = _texts(await table.wake())
        assert f"{seat.name} ran out of time" in said
    assert seat.standin and "until they speak" in said
    table.talk(seat.nick, "sorry, I'm here")
    assert not seat.standin


def test_y15_timeouts_skip_and_two_in_a_row_bring_a_stand_in() -> None:
    asyncio.run(_y15_and_standins())


async def _away() -> None:
    clock = Clock()
    table, _ = await _table(clock)
    said = _texts(table.went_away("ben"))
    assert "ben left: their seat waits 1 min" in said
    back = table.came_back("ben")
    assert "welcome back, ben" in _texts(back) and any(line.private for line in back)
    table.went_away("ben")
    clock.now += 61
    while table.status == "playing" and "did not come back" not in _texts(await table.wake()):
        clock.now += 11
    ben = table.seat_of("ben")
    assert ben is None or ben.gone


def test_a_player_who_quits_keeps_the_seat_for_a_while() -> None:
    asyncio.run(_away())


async def _g7_late() -> None:
    clock = Clock()
    table, _ = await _table(clock)
    seat = table._current()
    assert seat is not None and seat.nick is not None
    other = next(s for s in table.seats if s is not seat)
    assert other.nick is not None
    said = table.talk(other.nick, "last card!")
    assert not other.called and "counts in your turn" in _texts(said)
    said = table.talk(seat.nick, "I have 1 card left!")
    assert seat.called and "noted" in _texts(said)
    assert table.talk(seat.nick, "is that the last card?") == []


def test_g7_a_call_in_free_words_counts_only_in_the_callers_turn() -> None:
    asyncio.run(_g7_late())


def test_y4_an_exact_tie_is_told_and_choose_says_how_it_was_settled() -> None:
    from crazy_eights.chat import narrate
    from crazy_eights.engine import GameResult
    from crazy_eights.engine.cards import parse_card
    from crazy_eights.engine.events import FirstPlayer, GameOver

    names = ["ann", "ben", "cy"]
    said = narrate.describe(FirstPlayer(seat=1, tie_break=True), names)
    assert said is not None and "exact tie" in said and "!choose" in said
    hands = tuple(tuple(parse_card(c) for c in h) for h in ((), ("4S", "5S"), ("4H", "5H")))
    over = GameOver(
        seat=0,
        result=GameResult(winner=0, standings=(0, 2, 1), points=(0, 9, 9), rounds=1, reason="out"),
        hands=hands,
    )
    assert narrate.exact_ties(over) == [[2, 1]]

    async def told() -> str:
        clock = Clock()
        table, _ = await _table(clock, ("ann", "ben", "cy"))
        lines = table._game_over(over)
        choose = await table.command("ann", Command("choose", ""))
        return _texts(lines) + "\n" + _texts(choose)

    text = asyncio.run(told())
    assert "exact tie of cy, ben: the host's seeded draw placed them so" in text
    assert text.count("exact tie of cy, ben") == 2  # told at the end, and by !choose


def test_chat_host_redis_without_db_is_refused_by_name() -> None:
    """``chat-host --redis`` alone has no tables to tell about: a clear usage error,
    before any network is joined."""
    from typer.testing import CliRunner

    from crazy_eights.cli import app

    result = CliRunner().invoke(
        app,
        ["chat-host", "--irc", "irc://eights@127.0.0.1:1/#c", "--redis", "redis://127.0.0.1/0"],
    )
    assert result.exit_code == 2 and "redis needs db" in result.output, result.output
