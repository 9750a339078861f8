"""G10: a game ends at the move limit, the round in play ending as a blockade."""

from __future__ import annotations

from crazy_eights import Rules, new_game
from crazy_eights.bots import make_bot
from crazy_eights.engine import Game
from crazy_eights.engine.game import MAX_MOVES


def _random_game(ruleset: str, players: int, seed: int, *, play: bool) -> Game:
    game = new_game(Rules.preset(ruleset, players=players), seed=seed)
    bots = [make_bot("random", seed=seed * 10 + s) for s in range(players)]
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        move = bots[seat].choose(dict(game.view(seat)), game.legal_moves())
        if play:
            game.play(move)
        else:
            game.apply(move)
    return game


def test_g10_a_countdown_game_that_would_run_on_ends_at_the_move_limit() -> None:
    game = _random_game("countdown", 6, 1, play=True)  # 16,853 moves without the limit
    result = game.result
    assert result is not None
    assert len(game.moves) == MAX_MOVES
    assert result.reason == "move_limit" and result.winner is None
    numbers = game.numbers  # type: ignore[attr-defined]  # countdown's
    assert [numbers[s] for s in result.standings] == sorted(numbers)
    again = _random_game("countdown", 6, 1, play=False)  # apply stops at the same move
    assert again.moves == game.moves
    assert again.result == result


def test_g10_a_game_ended_at_the_limit_is_rebuilt_the_same_from_its_moves() -> None:
    game = _random_game("countdown", 6, 1, play=True)
    moves = game.moves
    rebuilt = new_game(Rules.preset("countdown", players=6), seed=1)
    events = rebuilt.play_all(moves)
    assert rebuilt.is_over and rebuilt.result == game.result
    kinds = [e.type for e in events[-3:]]
    assert "round_over" in kinds and kinds[-1] == "game_over"
