"""The player evaluation's measures on hand-built games: each count is checked against
what the engine says happened, move by move (no rule of our own)."""

from __future__ import annotations

import doctest

import pytest

from crazy_eights.engine import Deal, Rules, new_game
from crazy_eights.server import evaluation
from crazy_eights.server.evaluation import Counts, evaluate, measure_game, sentence


def measure_dealt(rules: Rules, deal: Deal, moves: list[str]) -> evaluation.GameMeasures:
    return measure_game(rules, 0, moves, deal=deal)


CLASSIC = Rules.preset("classic", players=2, mode="single", last_card="off")


def test_shedding_counts_cards_per_turn_and_points_left_at_the_round_end() -> None:
    deal = Deal(
        hands=[["5H", "6H"], ["KS", "9C", "2D"]], starter="4H", stock=["7C", "TS", "QD"], dealer=1
    )
    measured = measure_dealt(CLASSIC, deal, ["5H", "draw", "6H"])
    me, them = measured.counts
    assert (me.turns, me.shed) == (2, 2)
    assert (them.turns, them.shed) == (1, 0)
    game = new_game(CLASSIC, deal=deal)
    game.play_all(["5H", "draw", "6H"])
    assert me.rounds == them.rounds == 1
    assert me.hand_points == 0 and them.hand_points == game.hand_points(1) > 0


def test_a_wild_eight_with_a_plain_card_playable_is_not_kept_for_when_it_matters() -> None:
    deal = Deal(
        hands=[["8S", "5H", "KC"], ["KS", "9C", "2D", "3S"]],
        starter="4H",
        stock=["7C", "TS", "QD", "JD"],
        dealer=1,
    )
    measured = measure_dealt(CLASSIC, deal, ["8S:C", "9C", "KC"])
    me = measured.counts[0]
    assert (me.wilds_played, me.wilds_needed) == (1, 0)
    # the 8 named clubs, and clubs (KC) was the longest suit left beside hearts (5H): a tie
    assert (me.declarations, me.declarations_long) == (1, 1)


def test_an_eight_played_with_nothing_else_to_play_is_needed() -> None:
    deal = Deal(
        hands=[["8S", "5C", "6C"], ["KS", "9D", "2D", "3S"]],
        starter="4H",
        stock=["7C", "TS", "QD", "JD"],
        dealer=1,
    )
    measured = measure_dealt(CLASSIC, deal, ["8S:D"])
    me = measured.counts[0]
    assert (me.wilds_played, me.wilds_needed) == (1, 1)
    assert (me.declarations, me.declarations_long) == (1, 0)  # clubs was the long suit


def test_draws_with_nothing_to_play_are_forced() -> None:
    deal = Deal(
        hands=[["5C", "6C"], ["KS", "9D", "2H"]],
        starter="4H",
        stock=["7C", "TS", "QD", "JD"],
        dealer=1,
    )
    measured = measure_dealt(CLASSIC, deal, ["draw", "2H"])
    assert measured.counts[0].draws_forced == 1
    assert measured.counts[1].draws_forced == 0  # seat 1 had 2H to play


ULTIMATE = Rules.preset("ultimate", players=2, mode="single", last_card="off")


def test_a_draw_two_against_a_player_close_to_going_out_is_a_disruption_and_costs_cards() -> None:
    deal = Deal(
        hands=[["2H", "5H", "KC", "9C"], ["6H", "7S"]],
        starter="4H",
        stock=["3C", "TS", "QD", "JD", "4S", "5S"],
        dealer=1,
    )
    # 2H against two cards; seat 1 must take the penalty (two cards); then 5H, then 6H
    measured = measure_dealt(ULTIMATE, deal, ["2H", "draw", "5H", "6H"])
    me = measured.counts[0]
    assert (me.pressure_turns, me.disruptions, me.disruption_cost) == (1, 1, 2)
    assert measured.penalties == (0, 1)
    # seat 1 drew its penalty with nothing else to do (forced), then played a plain 6H
    # against seat 0's two cards: pressure, but no disruption
    them = measured.counts[1]
    assert (them.draws_forced, them.pressure_turns, them.disruptions) == (1, 1, 0)


def test_a_plain_card_against_a_player_close_to_going_out_is_pressure_but_no_disruption() -> None:
    deal = Deal(
        hands=[["5H", "2C", "KC", "9C"], ["6H", "7S"]],
        starter="4H",
        stock=["3C", "TS", "QD", "JD"],
        dealer=1,
    )
    me = measure_dealt(ULTIMATE, deal, ["5H"]).counts[0]
    assert (me.pressure_turns, me.disruptions, me.disruption_cost) == (1, 0, 0)


def test_counts_add_and_the_evaluation_compares_with_the_median_and_bot_levels() -> None:
    mine = Counts(games=3, turns=30, shed=18, rounds=3, hand_points=12)
    people = [Counts(games=5, turns=50, shed=20), Counts(games=5, turns=50, shed=25),
              Counts(games=6, turns=60, shed=36)]  # fmt: skip
    bots = {
        "random": Counts(games=9, turns=90, shed=36),
        "ismcts": Counts(games=9, turns=90, shed=63),
    }
    out = evaluate(mine, people, bots)
    shedding = out[0]
    first = shedding["figures"][0]
    assert first["value"] == 0.6 and first["median"] == 0.5
    assert first["bots"] == {"random": 0.4, "heuristic": None, "ismcts": 0.7}
    assert shedding["sentence"] == (
        "Cards shed per turn: 0.6, better than the room's median (0.5), "
        "ahead of the Easy bot, behind the Hard bot."
    )
    assert (mine + mine).turns == 60
    assert out[1]["figures"][0]["value"] is None
    assert out[1]["sentence"].endswith("none yet in this ruleset.")


def test_a_figure_where_lower_is_better_reads_the_other_way() -> None:
    spec = evaluation.MEASURES[0].figures[1]
    fig = {"value": 4.0, "median": 6.0, "bots": {"random": 3.0}, "better": "lower"}
    text = sentence(spec, fig)  # type: ignore[arg-type]
    assert text.startswith("Points left in hand at a round's end: 4, better than")
    assert "behind the Easy bot" in text
    level = sentence(spec, {**fig, "bots": {"random": 4.0, "heuristic": 4.0}})  # type: ignore[arg-type]
    assert level.endswith("level with the Easy and Medium bots.")


@pytest.mark.parametrize("ruleset", ["classic", "ultimate", "countdown", "cycles", "openspiel"])
def test_every_ruleset_is_measured_from_a_whole_game(ruleset: str) -> None:
    rules = Rules.preset(ruleset, players=3)
    game = new_game(rules, 11)
    while not game.is_over and len(game.moves) < 4000:
        game.play(game.legal_moves()[0])
    measured = measure_game(rules, 11, game.moves)
    total = sum(c.turns for c in measured.counts)
    assert total == sum(1 for _ in game.moves) - _host_moves(rules, game.moves)
    assert all(c.games == 1 for c in measured.counts)
    assert sum(c.shed for c in measured.counts) > 0


def _host_moves(rules: Rules, moves: list[str]) -> int:
    """Moves made with nobody to move (the cycles host), which no seat's turn counts."""
    game = new_game(rules, 11)
    n = 0
    for m in moves:
        n += game.current_player is None
        game.play(m)
    return n


def test_median_docstring() -> None:
    runner = doctest.DocTestRunner()
    for test in doctest.DocTestFinder().find(evaluation.median, globs=vars(evaluation)):
        runner.run(test)
    assert runner.summarize().failed == 0
