"""The rating shown to people: the openskill ordinal scaled to a familiar range."""

from __future__ import annotations

import doctest
from types import SimpleNamespace

from hypothesis import given
from hypothesis import strategies as st

from crazy_eights.server import stats
from crazy_eights.server.stats import display_rating, ordinal, record_out


def row(mu: float, sigma: float) -> SimpleNamespace:
    return SimpleNamespace(
        ruleset="classic", games=3, wins=1, points=40, streak=0, best_streak=1,
        rated_games=3, mu=mu, sigma=sigma,
    )  # fmt: skip


def test_record_carries_the_display_rating() -> None:
    out = record_out(row(25.0, 25 / 3))["rating"]
    assert out["display"] == 1000 and out["ordinal"] == 0.0
    assert record_out(row(30.0, 3.0))["rating"]["display"] == 1840


@given(st.floats(-100, 100), st.floats(0.01, 20), st.floats(-100, 100), st.floats(0.01, 20))
def test_display_is_never_negative_and_keeps_the_order(
    mu1: float, s1: float, mu2: float, s2: float
) -> None:
    a, b = display_rating(mu1, s1), display_rating(mu2, s2)
    assert a >= 0 and b >= 0
    if ordinal(mu1, s1) < ordinal(mu2, s2):
        assert a <= b


def test_display_docstring_examples() -> None:
    runner = doctest.DocTestRunner()
    for test in doctest.DocTestFinder().find(display_rating, globs=vars(stats)):
        runner.run(test)
    assert runner.summarize().failed == 0
