"""The engine's public API beyond moves and views: rule questions, structured moves,
typed events and their JSON, the playout core, and positions read back from views."""

from __future__ import annotations

import copy
import json
import pickle
import random

import pytest

from crazy_eights.engine import (
    Hidden,
    IllegalMove,
    Move,
    Rules,
    event_from_dict,
    from_view,
    new_game,
    replay,
)
from crazy_eights.engine.cards import UNKNOWN, cards_of, parse_card
from crazy_eights.engine.cycles import CyclesGame
from crazy_eights.engine.events import (
    EVENT_TYPES,
    Event,
    Events,
    GameOver,
    Played,
    RoundOver,
)
from crazy_eights.engine.game import Game
from crazy_eights.engine.history import read_log
from crazy_eights.engine.rng import below, playout_seed, playout_step
from crazy_eights.engine.shedding import SheddingGame

from .helpers import deal_game

TABLES = [
    Rules.preset("classic", players=4, mode="single", action_cards=True),
    Rules.preset("classic", players=3, mode="single", draw_policy="until_playable"),
    Rules.preset("ultimate", players=4, mode="single"),
    Rules.preset("ultimate", players=7, mode="single"),
    Rules.preset("countdown", players=3, start=4, mode="single"),
    Rules.preset("cycles", players=4),
    Rules.preset("openspiel", players=4, action_cards=True, stock_empty="reshuffle"),
]
IDS = [f"{r.ruleset}-{r.players}" for r in TABLES]


def play_randomly(game: Game, rng: random.Random, moves: int) -> None:
    for _ in range(moves):
        if game.is_over:
            return
        game.play(rng.choice(game.legal_moves()))


def hidden_of(game: Game) -> Hidden:
    """The true hidden cards of a game (every hand, the stock top first)."""
    return Hidden(hands=[cards_of(h) for h in game.hands], stock=list(reversed(game.stock)))


# -- rule questions -------------------------------------------------------------------------


def test_c4_the_engine_says_what_is_wild_and_what_follows() -> None:
    game = deal_game("classic", [["8C", "5D", "KH"], ["2S"]], starter="5S")
    assert game.rules.is_wild(parse_card("8H")) and not game.rules.is_wild(parse_card("5S"))
    assert game.is_wild(parse_card("8C")) and not game.is_wild(parse_card("KH"))
    assert game.follows(parse_card("5D"))  # the top card's rank
    assert game.follows(parse_card("KS"))  # the active suit
    assert game.follows(parse_card("8C"))  # wild
    assert not game.follows(parse_card("KH"))


def test_k3_another_players_wild_rank_is_an_ordinary_card() -> None:
    game = deal_game("countdown", [["3C", "4H"], ["9D"]], starter="KS", numbers=[3, 4])
    assert game.rules.wild_rank(3) == 2 and game.rules.wild_rank(4) == 3
    assert game.is_wild(parse_card("3C"), 0) and not game.is_wild(parse_card("4H"), 0)
    assert game.is_wild(parse_card("4H"), 1)
    assert game.follows(parse_card("3C"), 0) and not game.follows(parse_card("4H"), 0)
    assert game.follows(parse_card("4H"), 1)


def test_u7_only_a_two_follows_a_pending_draw() -> None:
    game = deal_game("ultimate", [["2S", "7D"], ["8S", "2H", "5S"]], starter="7S")
    game.play("2S")
    assert game.pending_draw == 2
    assert game.follows(parse_card("2H")) and not game.follows(parse_card("8S"))
    assert game.playable_mask() == game.playable_mask(1)


def test_y6_in_cycles_jokers_fit_and_nothing_is_wild() -> None:
    rules = Rules.preset("cycles", players=2)
    game = new_game(rules, 1)
    assert isinstance(game, CyclesGame)
    assert rules.wild_rank() is None and not game.is_wild(parse_card("8S"), 0)
    if game.cycle_cards:
        lead = game.lead_suit
        assert game.follows(parse_card("JK"))
        assert game.follows((lead << 4) | 3) and not game.follows((((lead + 1) % 4) << 4) | 3)


def test_c8_rules_name_what_each_action_card_does() -> None:
    classic = Rules.preset("classic", action_cards=True)
    assert classic.has_action_cards and not classic.twos_stack
    assert [classic.action(parse_card(t)) for t in ("2S", "QH", "AD", "8C", "9C")] == [
        "draw_two",
        "skip",
        "reverse",
        None,
        None,
    ]
    assert Rules.preset("ultimate").twos_stack and Rules.preset("openspiel", action_cards=True)
    assert not Rules.preset("countdown").has_action_cards
    assert Rules.preset("countdown").action(parse_card("2S")) is None


def test_g8_rules_count_the_points_of_a_card() -> None:
    assert Rules.preset("classic").card_points(parse_card("8S")) == 50
    assert Rules.preset("classic", ace_points=11).card_points(parse_card("AS")) == 11
    assert Rules.preset("openspiel").card_points(parse_card("AS")) == 10
    assert Rules.preset("cycles").card_points(parse_card("JK")) == 12
    assert Rules.preset("classic").counts_points and not Rules.preset("countdown").counts_points


# -- structured moves -----------------------------------------------------------------------


def test_g3_every_legal_move_comes_as_data_whose_text_plays_it() -> None:
    for rules in TABLES:
        game = new_game(rules, 3)
        rng = random.Random(3)
        for _ in range(40):
            if game.is_over:
                break
            seat = game.current_player
            data = game.legal_move_data()
            assert [d["text"] for d in data] == [m.text for m in game.legal_moves()]
            view = game.view(seat)
            assert view["legal_moves"] == data
            assert all(game.view(s)["legal_moves"] == [] for s in range(rules.players) if s != seat)
            wild_rank = _wild_rank(rules, view, seat)
            for entry in data:
                move = Move.parse(entry["text"])
                assert {**move.to_dict(), "wild": entry["wild"]} == entry
                card = entry["card"]
                assert entry["wild"] == (card is not None and card[0] == wild_rank)
                assert entry["call"] == entry["text"].endswith("!")
                assert (entry["suit"] is None) == (":" not in entry["text"])
            game.play(rng.choice(data)["text"])


def _wild_rank(rules: Rules, view: object, seat: int) -> str | None:
    """The rank wild for ``seat``, as the rules documents say (C6, U5, K5, Y6): an
    eight, countdown's the seat's number (its view shows it), none in cycles."""
    if rules.ruleset == "cycles":
        return None
    if rules.ruleset == "countdown":
        assert isinstance(view, dict)
        return str(view["players"][seat]["wild"])
    return "8"


def test_g3_move_data_is_json() -> None:
    data = Move.parse("8S:H!").to_dict()
    assert json.loads(json.dumps(data)) == data
    assert Move.parse(":C").to_dict()["kind"] == "declare"


# -- events ---------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", TABLES, ids=IDS)
def test_g5_every_event_reads_back_from_what_each_seat_saw(rules: Rules) -> None:
    game = new_game(rules, 7)
    rng = random.Random(7)
    seen: list[Event] = list(game.log)
    while not game.is_over and len(seen) < 800:
        seen.extend(game.play(rng.choice(game.legal_moves())))
    kinds = set()
    for event in seen:
        kinds.add(type(event))
        owner = event.for_seat(event.seat)
        assert json.loads(json.dumps(owner)) == owner
        assert event_from_dict(owner) == event
        public = event_from_dict(event.public())
        assert type(public) is type(event) and len(public.shown) == len(event.shown)
        if event.secret and event.shown:
            assert set(public.shown) == {UNKNOWN}
        else:
            assert public == event
    assert Played in kinds and GameOver in kinds


def test_every_event_type_has_one_class() -> None:
    assert len(EVENT_TYPES) == len({cls.type for cls in EVENT_TYPES.values()}) == 27
    with pytest.raises(ValueError, match="no event"):
        event_from_dict({"type": "fireworks"})


def test_c10_round_over_carries_the_whole_round_summary() -> None:
    game = deal_game(
        "classic",
        [["5S"], ["KH", "2H"], ["8C", "9D", "3C"]],
        starter="7S",
        dealer=2,
        mode="match",
        target=200,
    )
    events = game.play("5S")
    over = next(e for e in events if isinstance(e, RoundOver))
    assert over.seat == 0 and over.reason == "out" and over.target == 200
    assert over.points == (0, 12, 62)
    assert over.scored == (74, 0, 0) and over.scores == (74, 0, 0)
    assert [[c for c in h] for h in over.hands][1] == [parse_card("2H"), parse_card("KH")]
    shown = over.public()
    assert shown["hands"] == [[], ["2H", "KH"], ["9D", "3C", "8C"]]
    assert shown["scored"] == [74, 0, 0] and shown["target"] == 200


def test_u10_losers_score_their_points_in_the_round_summary() -> None:
    game = deal_game("ultimate", [["5S"], ["KH", "2H"], ["9D"]], starter="7S", dealer=2)
    over = next(e for e in game.play("5S") if isinstance(e, RoundOver))
    assert over.scored == (0, 12, 9) and over.scores == (0, 12, 9) and over.target == 100


def test_c10_a_blockade_says_so_in_the_result() -> None:
    game = deal_game(
        "classic", [["KH", "2H"], ["QH", "9H"], ["AS"]], stock=[], starter="5C", mode="single"
    )
    while not game.is_over:
        game.play("pass")
    assert game.result is not None and game.result.reason == "blockade"
    assert game.result.winner == 2  # the lowest hand points


def test_c10_the_rules_say_who_wins_a_blockade_and_why() -> None:
    words = Rules.preset("classic").blockade
    assert words == "the fewest points in hand wins, then the fewest cards"
    # the words match the rule: fewest points first, then fewest cards (C10)
    game = deal_game(
        "classic", [["KH", "2H"], ["QH", "9H"], ["AS"]], stock=[], starter="5C", mode="single"
    )
    while not game.is_over:
        game.play("pass")
    assert game.result is not None and game.result.winner == 2
    assert Rules.preset("countdown").blockade.startswith("nobody wins a blocked round")


def test_u7_the_rules_say_how_a_pending_draw_is_answered() -> None:
    game = deal_game("ultimate", [["2S", "7D"], ["8S", "2H", "5S"]], starter="7S")
    game.play("2S")
    assert game.rules.answer_draw_two(game.pending_draw) == "Play a 2 or draw 2"
    game.play("2H")
    assert game.rules.answer_draw_two(game.pending_draw) == "Play a 2 or draw 4"
    assert game.rules.answer_draw_two(0) == ""
    classic = Rules.preset("classic", action_cards=True)
    assert classic.answer_draw_two(2) == ""  # classic's two is drawn at once (C8)


# -- the log read back ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "rules", [r for r in TABLES if r.ruleset != "cycles"], ids=IDS[:5] + IDS[6:]
)
def test_u7_the_log_read_back_gives_the_table_before_every_event(rules: Rules) -> None:
    game = new_game(rules, 11)
    assert isinstance(game, SheddingGame)
    rng = random.Random(11)
    before: list[tuple[int, int, bool, int]] = []
    round_no = game.round
    while not game.is_over and len(game.moves) < 300:
        facts = (game.top, game.suit, game.declared, game.pending_draw)
        count = len(game.log)
        game.play(rng.choice(game.legal_moves()))
        if game.round != round_no:
            break
        before.extend([facts] * (len(game.log) - count))
    log = game.view(0, log=True)["log"]
    read = list(read_log(log))
    first_move = len(read) - len(before)
    for (event, table), facts in zip(read[first_move:], before, strict=True):
        if isinstance(event, Played) and table.suit >= 0:
            assert (table.top, table.suit, table.declared, table.pending) == facts


# -- the playout core -------------------------------------------------------------------------


def public_playout(game: Game, seed: int) -> None:
    """What ``playout(seed=...)`` promises, through ``legal_moves`` and ``apply``."""
    x = playout_seed(seed)
    while not game.is_over:
        legal = game.legal_moves()
        if len(legal) > 1:
            x = playout_step(x)
            game.apply(legal[below(x, len(legal))])
        else:
            game.apply(legal[0])


@pytest.mark.parametrize("rules", TABLES, ids=IDS)
def test_g4_a_random_playout_plays_the_moves_the_public_api_would(rules: Rules) -> None:
    for seed in range(6):
        fast = new_game(rules, seed, log=False)
        slow = new_game(rules, seed, log=False)
        made = fast.playout(seed=seed * 7 + 1)
        public_playout(slow, seed * 7 + 1)
        assert fast.is_over and made == len(fast.moves) == len(slow.moves)
        assert fast.moves == slow.moves
        assert fast.result == slow.result
        assert fast.view(0) == slow.view(0)
        again = replay(rules, seed, fast.moves)
        assert again.result == fast.result


@pytest.mark.parametrize("rules", TABLES, ids=IDS)
def test_greedy_playouts_play_legal_moves_and_repeat_with_their_seed(rules: Rules) -> None:
    for seed in range(4):
        game = new_game(rules, seed, log=False)
        game.playout(seed=3, policy="greedy", epsilon=0.1, max_moves=25)
        twin = new_game(rules, seed, log=False)
        twin.playout(seed=3, policy="greedy", epsilon=0.1, max_moves=25)
        assert game.moves == twin.moves and len(game.moves) <= 25
        replay(rules, seed, game.moves)  # every move was legal
        game.playout(seed=4, policy="greedy")
        assert game.is_over


def test_playout_refuses_a_game_that_keeps_a_log() -> None:
    game = new_game(Rules.preset("classic"), 1)
    with pytest.raises(ValueError, match="log=False"):
        game.playout(seed=1)
    with pytest.raises(ValueError, match="policy"):
        new_game(Rules.preset("classic"), 1, log=False).playout(seed=1, policy="smart")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="no event log"):
        new_game(Rules.preset("classic"), 1, log=False).view(0, log=True)


def test_g4_apply_and_play_reach_the_same_state() -> None:
    rules = Rules.preset("ultimate", players=4)
    quiet = new_game(rules, 5, log=False)
    loud = new_game(rules, 5)
    rng = random.Random(5)
    while not loud.is_over:
        move = rng.choice(loud.legal_moves())
        assert quiet.legal_moves() == loud.legal_moves()
        quiet.apply(move)
        assert loud.play(move)
    assert quiet.result == loud.result and quiet.moves == loud.moves
    with pytest.raises(IllegalMove):
        quiet.apply("draw")


@pytest.mark.parametrize("rules", TABLES, ids=IDS)
def test_play_makes_its_events_when_they_are_read(rules: Rules) -> None:
    """``play`` returns an ``Events`` list of records, made into the frozen dataclass
    events on the first read: until then no event exists; read, they are the events
    the log keeps for the same move (the log made from its own records), and every way
    of reading the list (iterating, indexing, comparing, ``+``, copying, pickling)
    gives the events."""
    game = new_game(rules, 11)
    rng = random.Random(11)
    unread = 0
    while not game.is_over:
        before = len(game.log)
        events = game.play(rng.choice(game.legal_moves()))
        assert isinstance(events, Events) and isinstance(events, list)
        stored = list.copy(events)  # the list's own items, not made by reading
        unread += sum(1 for item in stored if item.__class__ is tuple)
        assert len(events) == len(stored) and events  # every move causes an event
        made = list(events)
        assert all(isinstance(event, Event) for event in made)
        assert all(isinstance(event, Event) for event in list.copy(events))
        if game.keeps_log and len(game.log) >= before + len(made):
            assert list(game.log[before:]) == made

        def unread_list(records: list[Event] = stored) -> Events:
            return Events(records)

        assert unread_list() == made and made == unread_list() and unread_list()[0] == made[0]
        assert [*unread_list()] == made and made[-1] in unread_list()
        assert unread_list() + [] == made and [] + unread_list() == made  # noqa: RUF005
        assert pickle.loads(pickle.dumps(unread_list())) == made
        assert copy.copy(unread_list()) == made and tuple(unread_list()) == tuple(made)
    assert unread > 0


def test_a_move_whose_events_are_not_read_makes_none(monkeypatch: pytest.MonkeyPatch) -> None:
    """A caller that ignores ``play``'s events (and never reads the log) builds no
    event dataclass: the records are all it pays for."""
    made: list[type[Event]] = []
    real = Events._make

    def counting(self: Events) -> None:
        made.append(type(self))
        real(self)

    monkeypatch.setattr(Events, "_make", counting)
    game = new_game(Rules.preset("openspiel", players=4), 3)
    rng = random.Random(3)
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    assert not made
    # the log keeps records of every move's events; only the deal's and the end's
    # events (once a round) are made as they happen
    kept = game._log or []
    built = {item.__class__.__name__ for item in kept if item.__class__ is not tuple}
    once = {"RoundStarted", "Dealt", "StarterTurned", "StarterReturned", "RoundOver", "GameOver"}
    assert built <= once and sum(item.__class__ is tuple for item in kept) > 20
    assert game.log[-1].type == "game_over"


# -- positions read back from views --------------------------------------------------------


@pytest.mark.parametrize("rules", TABLES, ids=IDS)
def test_g5_a_view_and_the_hidden_cards_give_the_game_back(rules: Rules) -> None:
    rng = random.Random(21)
    for seed in range(5):
        game = new_game(rules, seed)
        play_randomly(game, rng, rng.randrange(1, 30))
        if game.is_over:
            continue
        seat = game.current_player
        view = game.view(seat, log=True)
        rebuilt = from_view(view, hidden_of(game), rng=game.generator)
        for s in (None, *range(rules.players)):
            assert rebuilt.view(s) == game.view(s)
        for _ in range(10):
            if game.is_over:
                break
            move = rng.choice(game.legal_moves())
            assert rebuilt.legal_moves() == game.legal_moves()
            assert rebuilt.play(move) == game.play(move)


def test_from_view_refuses_hidden_cards_that_disagree() -> None:
    game = new_game(Rules.preset("classic", players=3), 4)
    view = game.view(0)
    hidden = hidden_of(game)
    short = Hidden(
        hands=[hidden.hands[0], hidden.hands[1][:-1], hidden.hands[2]], stock=hidden.stock
    )
    with pytest.raises(ValueError, match="cards in the view"):
        from_view(view, short)
    swapped = Hidden(hands=[hidden.hands[1], hidden.hands[0], hidden.hands[2]], stock=hidden.stock)
    with pytest.raises(ValueError, match="not the view's hand"):
        from_view(view, swapped)
    world = from_view(view, hidden)
    with pytest.raises(ValueError, match="cards"):
        world.set_hidden(short)


@pytest.mark.parametrize("rules", TABLES, ids=IDS)
def test_g5_redeal_keeps_what_the_seat_knows(rules: Rules) -> None:
    rng = random.Random(8)
    game = new_game(rules, 8)
    play_randomly(game, rng, 12)
    if game.is_over:
        return
    seat = game.current_player
    assert seat is not None
    before = game.view(seat, log=True)
    stock = sorted(game.stock)
    everything = sorted(
        c for s in range(rules.players) if s != seat for c in cards_of(game.hands[s])
    )
    copy = game.clone()
    copy.redeal(rng, seat)
    assert copy.view(seat, log=True) == before
    assert copy.legal_moves() == game.legal_moves()
    after = sorted(c for s in range(rules.players) if s != seat for c in cards_of(copy.hands[s]))
    assert sorted(after + copy.stock) == sorted(everything + stock)
    stock_only = game.clone()
    stock_only.redeal(rng, hands=False)
    assert stock_only.hands == game.hands and sorted(stock_only.stock) == stock


def test_g4_copies_and_pickles_carry_every_field() -> None:
    for rules in TABLES:
        game = new_game(rules, 2)
        play_randomly(game, random.Random(2), 15)
        twins = [game.clone(), pickle.loads(pickle.dumps(game))]
        for twin in twins:
            assert type(twin) is type(game)
            for name in ("hands", "stock", "moves", "result", "current_player"):
                assert getattr(twin, name) == getattr(game, name)
            assert twin.log == game.log
            assert twin.generator.counter == game.generator.counter
        if not game.is_over:
            move = game.legal_moves()[0]
            events = game.play(move)
            assert all(twin.play(move) == events for twin in twins)


@pytest.mark.parametrize("ruleset", ["classic", "ultimate", "countdown", "openspiel", "cycles"])
def test_legal_tuple_is_legal_moves_without_the_copy(ruleset: str) -> None:
    """``legal_tuple`` lists what ``legal_moves`` does, as the game's own tuple (the same
    object until a move is made), and a copy from ``legal_moves`` leaves it alone."""
    game = new_game(Rules.preset(ruleset, players=3), seed=5, log=False)
    rng = random.Random(5)
    while not game.is_over:
        legal = game.legal_tuple()
        assert isinstance(legal, tuple)
        assert list(legal) == game.legal_moves()
        assert game.legal_tuple() is legal
        game.legal_moves().clear()
        assert game.legal_tuple() == legal
        game.apply(rng.choice(legal))
    assert game.legal_tuple() == ()
