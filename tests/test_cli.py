"""The command line: terminal play, replay and the rules listing."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from crazy_eights import Rules, replay
from crazy_eights.cli import app, describe
from crazy_eights.engine.cards import parse_card
from crazy_eights.engine.events import Drew, PenaltyDrawn, Played, RoundOver
from crazy_eights.extras import MissingExtra, require

runner = CliRunner()


def test_play_a_whole_round_by_typing_numbers(tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    result = runner.invoke(
        app,
        [
            *("play", "--rules", "classic", "--players", "3", "--seed", "5"),
            *("--bots", "random", "--set", "mode=single", "--save", str(saved)),
        ],
        input="1\n" * 400,
    )
    assert result.exit_code == 0, result.output
    assert "Your hand:" in result.output and "Top card:" in result.output
    assert "Game over" in result.output or "You win" in result.output
    record = json.loads(saved.read_text())
    game = replay(Rules.from_dict(record["rules"]), record["seed"], record["moves"])
    assert game.is_over


def test_play_refuses_bad_input_with_a_reason_and_asks_again() -> None:
    result = runner.invoke(
        app,
        ["play", "--players", "2", "--seed", "1", "--bots", "random", "--set", "mode=single"],
        input="hello\n99\n9X\nq\n",
    )
    assert result.exit_code == 0, result.output
    assert "'hello' is not a move" in result.output
    assert "Choose a number from 1 to" in result.output
    assert "You left the table." in result.output


def test_play_rejects_a_bad_setting() -> None:
    result = runner.invoke(app, ["play", "--set", "target=5"], input="q\n")
    assert result.exit_code != 0
    assert "target must be a whole number from 50 to 5000" in result.output


def test_replay_prints_every_move(tmp_path: Path) -> None:
    rules = Rules.preset("ultimate", players=3, mode="single")
    game = replay(rules, 4, [])
    chooser = random.Random(4)
    while not game.is_over:
        game.play(chooser.choice(game.legal_moves()))
    path = tmp_path / "g.json"
    path.write_text(json.dumps({"rules": rules.to_dict(), "seed": 4, "moves": game.moves}))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert "Result:" in result.output
    broken = tmp_path / "bad.json"
    broken.write_text(json.dumps({"rules": rules.to_dict(), "seed": 4, "moves": ["9X"]}))
    result = runner.invoke(app, ["replay", str(broken)])
    assert result.exit_code == 1 and "illegal" in result.output


def test_rules_lists_settings() -> None:
    result = runner.invoke(app, ["rules", "ultimate"])
    assert result.exit_code == 0
    assert "stock_empty" in result.output and "reshuffle" in result.output
    result = runner.invoke(app, ["rules", "poker"])
    assert result.exit_code == 2


def test_a_missing_extra_is_named_before_anything_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Plots need the lab extra, PostgreSQL the postgres extra: without them the command
    says which extra to install and stops, before a game is played or a port opened."""
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if it were not installed
    monkeypatch.setitem(sys.modules, "asyncpg", None)
    png = tmp_path / "plot.png"
    for command in (
        ["sim", "--games", "100000", "--plot", str(png)],
        ["tournament", "--bots", "random,heuristic", "--games", "100000", "--plot", str(png)],
    ):
        result = runner.invoke(app, command)
        assert result.exit_code == 2, result.output
        assert "'lab' extra" in result.output and "crazy-eights[lab]" in result.output
    assert not png.exists()
    result = runner.invoke(app, ["serve", "--db", "postgresql://nobody@127.0.0.1:1/none"])
    assert result.exit_code == 2
    assert "'postgres' extra" in result.output and "crazy-eights[postgres]" in result.output


def test_an_error_inside_an_installed_extra_is_not_taken_for_a_missing_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "broken_extra").mkdir()
    (tmp_path / "broken_extra" / "__init__.py").write_text("import not_installed_anywhere\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ModuleNotFoundError) as error:
        require("broken_extra", extra="lab", feature="a test")
    assert not isinstance(error.value, MissingExtra)
    assert error.value.name == "not_installed_anywhere"
    with pytest.raises(MissingExtra, match=r"a test needs the 'lab' extra \(absent_mod is"):
        require("absent_mod.sub", extra="lab", feature="a test")


def test_describe_names_every_penalty_and_hides_other_seats_cards() -> None:
    cards = (parse_card("7H"), parse_card("2C"))
    two = PenaltyDrawn(seat=1, cards=cards, reason="draw_two")
    call = PenaltyDrawn(seat=1, cards=cards, reason="last_card")
    assert describe(two, 0) == "Seat 1 drew 2 from a two"
    assert describe(call, 1) == "You drew 2 for not calling last card (7H 2C)"
    assert describe(Drew(seat=2, cards=cards), 0) == "Seat 2 drew 2 cards"
    assert describe(Drew(seat=2, cards=cards), None, reveal=True) == "Seat 2 drew 2 cards (7H 2C)"
    wild = Played(seat=0, card=parse_card("8S"), declared=1)
    assert describe(wild, 0) == "You played 8S and declared hearts"
    blocked = RoundOver(
        seat=2,
        round=1,
        reason="blockade",
        points=(5, 9, 1),
        hands=((), (), ()),
        scored=(0, 0, 14),
        scores=(0, 0, 14),
        target=100,
    )
    assert "wins the blockade" in (describe(blocked, 0) or "")
