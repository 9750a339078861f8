"""Achievements, unlockable decks, the Master Card Archon title and the evaluation
through the API, on SQLite and PostgreSQL: a registered player wins a real game against
the Easy bot (a fixed deal, so the game is the same every run)."""

from __future__ import annotations

import secrets as _secrets
import time
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from crazy_eights.engine import Rules
from crazy_eights.server import create_app, tables
from crazy_eights.server.achievements import GameFacts, earned_in, locked_choice
from crazy_eights.server.archon import ArchonRule
from crazy_eights.server.auth import COOKIE

from .conftest import SettingsFactory, as_, guest, until

WINNING_SEED = 16
"""Classic, two seats, one round: the first playable card in suit order beats the Easy
bot from this deal (found by replaying the engine and the bot offline)."""


class _Seeds:
    def __getattr__(self, name: str) -> Any:
        return getattr(_secrets, name)

    def randbits(self, k: int) -> int:
        return WINNING_SEED


@pytest.fixture
def room(fast_settings: SettingsFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setattr(tables, "secrets", _Seeds())
    settings = fast_settings(archon_min_games=1, evaluation_min_games=1, provisional_games=1)
    with TestClient(create_app(settings)) as client:
        yield client


def register(client: TestClient, name: str) -> tuple[int, str]:
    response = client.post("/api/auth/register", json={"name": name, "password": "pass-word-1"})
    assert response.status_code == 201, response.text
    token = response.cookies[COOKIE]
    client.cookies.clear()
    return response.json()["id"], token


ORDER = {s: i for i, s in enumerate("SHCD")}
RANKS = "A23456789TJQK"


def first_playable(hand: list[str], legal: list[str]) -> str:
    """What the browser tests' player does: the first glowing card in suit order (with
    the call when two cards are left), the first suit offered; else draw, else pass."""
    for card in sorted(hand, key=lambda c: (ORDER.get(c[1], 9), RANKS.find(c[0]))):
        options = [m for m in legal if m.rstrip("!").split(":")[0] == card]
        if not options:
            continue
        calls = [m for m in options if m.endswith("!")]
        options = calls if calls and len(hand) == 2 else [m for m in options if "!" not in m]
        for suit in "SHDC":
            for m in options:
                if m.rstrip("!").endswith(":" + suit):
                    return m
        return options[0]
    return "draw" if "draw" in legal else "pass"


def play_to_the_end(client: TestClient, token: str, table_id: str) -> dict[str, Any]:
    with client.websocket_connect(f"/ws/tables/{table_id}", headers=as_(token)) as ws:
        state = until(ws, "welcome")["state"]
        while not state["view"].get("over"):
            if state["legal"]:
                ws.send_json(
                    {
                        "type": "move",
                        "seq": state["version"],
                        "move": first_playable(state["view"]["hand"], state["legal"]),
                    }
                )
            state = until(ws, "state")["state"]
        return dict(state["view"]["result"])


def win_a_game(client: TestClient, token: str) -> str:
    body = {
        "rules": {"ruleset": "classic", "players": 2, "mode": "single"},
        "bots": [{"seat": 1, "level": "random"}],
    }
    table = client.post("/api/tables", json=body, headers=as_(token)).json()
    result = play_to_the_end(client, token, table["id"])
    assert result["winner"] == 0, result
    return str(table["id"])


def wait_finished(client: TestClient, table_id: str) -> None:
    for _ in range(500):
        if client.get(f"/api/tables/{table_id}").json()["status"] == "finished":
            return
    raise AssertionError("the table did not finish")


def test_a_won_game_unlocks_its_deck_and_the_settings_refuse_it_until_then(
    room: TestClient,
) -> None:
    ada, token = register(room, "ada")
    locked = room.put("/api/me/settings", json={"back": "lattice"}, headers=as_(token))
    assert locked.status_code == 403 and locked.json()["error"] == "locked"
    assert "Win a game of Classic" in locked.json()["detail"]
    assert room.get("/api/me/settings", headers=as_(token)).json() == {}  # nothing saved
    before = room.get(f"/api/accounts/{ada}/achievements").json()
    first = next(a for a in before["achievements"] if a["id"] == "first_win_classic")
    assert (first["earned"], first["progress"], first["unlocks"]) == (False, 0, "back:lattice")

    table_id = win_a_game(room, token)
    wait_finished(room, table_id)

    after = room.get(f"/api/accounts/{ada}/achievements").json()
    first = next(a for a in after["achievements"] if a["id"] == "first_win_classic")
    assert first["earned"] and first["table"] == table_id and first["progress"] == 1
    decks = {d["id"]: d["unlocked"] for d in after["decks"]}
    assert decks["back:lattice"] and not decks["face:deco"] and not decks["back:sunburst"]
    streak = next(a for a in after["achievements"] if a["id"] == "streak_3")
    assert (streak["earned"], streak["progress"], streak["need"]) == (False, 1, 3)
    saved = room.put("/api/me/settings", json={"back": "lattice"}, headers=as_(token))
    assert saved.status_code == 200
    still = room.put("/api/me/settings", json={"face": "deco"}, headers=as_(token))
    assert still.status_code == 403 and "Hard bot" in still.json()["detail"]
    assert room.get("/api/me/settings", headers=as_(token)).json() == {"back": "lattice"}


def test_the_evaluation_compares_the_player_with_the_bot_level_from_the_same_games(
    room: TestClient,
) -> None:
    ada, token = register(room, "ada")
    empty = room.get(f"/api/accounts/{ada}/evaluation?ruleset=classic").json()
    assert empty["games"] == 0 and empty["measures"][0]["figures"][0]["value"] is None
    wait_finished(room, win_a_game(room, token))
    out = room.get(f"/api/accounts/{ada}/evaluation?ruleset=classic").json()
    assert out["games"] == 1 and out["people"] == 1
    shed = out["measures"][0]["figures"][0]
    replay = room.get(f"/api/tables/{out and _last_table(room, ada)}/replay").json()
    mine = [m for m in replay["moves"] if m["seat"] == 0]
    played = sum(1 for m in mine if m["move"] not in ("draw", "pass", "timeout"))
    assert shed["value"] == round(played / len(mine), 3)
    assert shed["median"] == shed["value"]  # the only person with enough games
    assert shed["bots"]["random"] is not None and shed["bots"]["ismcts"] is None
    assert [m["key"] for m in out["measures"]] == ["shedding", "disruption", "suits"]
    assert all(m["sentence"].endswith(".") for m in out["measures"])
    # the rated game is analysed in the background; once it is, accuracy is its share
    table = _last_table(room, ada)
    deadline = time.monotonic() + 60
    while room.get(f"/api/tables/{table}/analysis?seat=0").json()["status"] != "done":
        assert time.monotonic() < deadline, "the rated game was never analysed"
        time.sleep(0.2)
    decisions = room.get(f"/api/tables/{table}/analysis?seat=0").json()["analysis"]["decisions"]
    chosen = [d for d in decisions if not d["forced"]]
    accuracy = room.get(f"/api/accounts/{ada}/evaluation?ruleset=classic").json()["accuracy"]
    assert accuracy["analysed"] is True
    share = sum(d["mark"] is None for d in chosen) / len(chosen)
    assert abs(accuracy["value"] - share) <= 0.001
    assert f"{round(accuracy['value'] * 100)}% of analysed moves" in accuracy["sentence"]
    assert room.get(f"/api/accounts/{ada}/evaluation?ruleset=poker").status_code == 404
    assert room.get("/api/accounts/999999/evaluation").status_code == 404


def _last_table(client: TestClient, account: int) -> str:
    return str(client.get(f"/api/accounts/{account}/history?limit=1").json()[0]["table"])


def test_an_accuracy_source_fills_the_fourth_line(room: TestClient) -> None:
    ada, _ = register(room, "ada")

    async def accuracy(conn: Any, account: int, ruleset: str) -> float | None:
        return 0.8125 if account == ada and ruleset == "classic" else None

    room.app.state.room.evaluations.accuracy = accuracy  # type: ignore[attr-defined]
    out = room.get(f"/api/accounts/{ada}/evaluation?ruleset=classic").json()["accuracy"]
    assert out["analysed"] and out["value"] == 0.812 and "81%" in out["sentence"]


def test_the_archon_title_goes_with_the_name_to_the_leaderboard_seats_and_profile(
    room: TestClient,
) -> None:
    ada, token = register(room, "ada")
    rule = room.get("/api/leaderboard/classic/archon").json()
    assert rule["holder"] is None and rule["min_games"] == 1 and "30 days" in rule["text"]
    wait_finished(room, win_a_game(room, token))
    rule = room.get("/api/leaderboard/classic/archon").json()
    assert rule["holder"] == ada and rule["title"] == "Master Card Archon"
    rows = room.get("/api/leaderboard/classic").json()
    by_account = {r["account"]: r for r in rows}
    assert by_account[ada]["archon"] == ["classic"] and by_account[ada]["guest"] is False
    assert all(r["archon"] == [] for r in rows if r["bot"])  # bots hold no title
    assert room.get(f"/api/accounts/{ada}/records").json()["archon"] == ["classic"]
    # a new table: the holder's seat carries the title in the lobby and at the table
    table = room.post(
        "/api/tables",
        json={"rules": {"ruleset": "ultimate", "players": 2}, "public": True},
        headers=as_(token),
    ).json()
    assert table["seats"][0]["archon"] == ["classic"] and table["seats"][1]["archon"] == []
    listed = next(t for t in room.get("/api/tables").json() if t["id"] == table["id"])
    assert listed["seats"][0]["archon"] == ["classic"]
    assert room.get("/api/leaderboard/ultimate/archon").json()["holder"] is None


def test_guests_are_not_eligible_for_the_title(room: TestClient) -> None:
    _, token = guest(room)
    wait_finished(room, win_a_game(room, token))
    assert room.get("/api/leaderboard/classic/archon").json()["holder"] is None


# -- achievements as data ------------------------------------------------------------


def facts(ruleset: str = "classic", **over: Any) -> GameFacts:
    rules = over.pop("rules", Rules.preset(ruleset, players=2))
    values: dict[str, Any] = {
        "ruleset": ruleset, "rules": rules, "won": True, "left": False, "streak": 1,
        "penalties": 0, "opponents": frozenset({"random"}),
    }  # fmt: skip
    values.update(over)
    return GameFacts(**values)


def test_first_wins_streaks_and_the_hard_bot() -> None:
    assert earned_in(facts()) == ["first_win_classic"]
    assert earned_in(facts(won=False)) == []
    assert "streak_3" in earned_in(facts(streak=3)) and "streak_3" not in earned_in(facts(streak=2))
    assert "beat_hard" in earned_in(facts(opponents=frozenset({"ismcts", "random"})))
    assert "beat_hard" not in earned_in(facts(won=False, opponents=frozenset({"ismcts"})))


def test_countdown_from_eight_means_a_whole_game_from_eight() -> None:
    whole = Rules.preset("countdown", players=2, start=8, mode="match")
    single = Rules.preset("countdown", players=2, start=8, mode="single")
    short = Rules.preset("countdown", players=2, start=3, mode="match")
    assert "countdown_from_8" in earned_in(facts("countdown", rules=whole))
    assert "countdown_from_8" not in earned_in(facts("countdown", rules=single))
    assert "countdown_from_8" not in earned_in(facts("countdown", rules=short))


def test_a_cycles_game_without_a_penalty_played_to_its_end() -> None:
    assert "cycles_clean" in earned_in(facts("cycles", won=False))
    assert "cycles_clean" not in earned_in(facts("cycles", penalties=1))
    assert "cycles_clean" not in earned_in(facts("cycles", left=True, won=False))


def test_a_locked_choice_is_found_and_an_unlocked_one_is_not() -> None:
    item = locked_choice({"back": "lattice", "face": "standard"}, set())
    assert item is not None and item.id == "back:lattice"
    assert locked_choice({"back": "lattice"}, {"back:lattice"}) is None
    assert locked_choice({"back": "classic", "face": "victorian"}, set()) is None


def test_the_archon_rule_reads_its_settings() -> None:
    text = ArchonRule(min_games=7, days=14).text()
    assert "at least 7 rated games" in text and "last 14 days" in text
