"""Rules, presets and settings (RULES sections 1-3 and 5: T1, T2)."""

from __future__ import annotations

import pytest

from crazy_eights import Rules, RulesError, new_game
from crazy_eights.engine.rules import RULESETS


def test_t1_presets_exist_for_every_ruleset_with_their_defaults() -> None:
    classic = Rules.preset("classic", players=4)
    assert (classic.action_cards, classic.draw_policy, classic.stock_empty) == (
        False,
        "single",
        "block",
    )
    assert (classic.mode, classic.target, classic.last_card) == ("match", 500, "manual")
    ultimate = Rules.preset("ultimate", players=4)
    assert (ultimate.action_cards, ultimate.draw_policy, ultimate.stock_empty) == (
        True,
        "single_then_pass",
        "reshuffle",
    )
    assert ultimate.target == 100
    countdown = Rules.preset("countdown", players=3)
    assert (countdown.start, countdown.last_card, countdown.draw_policy) == (8, "off", "until_play")
    cycles = Rules.preset("cycles", players=11)
    assert (cycles.cycle_limit, cycles.last_card, cycles.turn_timer) == (30, "manual", 180)


def test_t1_direct_construction_equals_the_preset() -> None:
    assert Rules(ruleset="ultimate", players=4) == Rules.preset("ultimate", players=4)
    assert hash(Rules(ruleset="ultimate", players=4)) == hash(Rules.preset("ultimate", players=4))


def test_t1_replace_toggles_a_setting_and_validates() -> None:
    rules = Rules.preset("ultimate", players=4).replace(action_cards=False)
    assert rules.action_cards is False and rules.ruleset == "ultimate"
    with pytest.raises(RulesError, match="target"):
        rules.replace(target=20)
    switched = Rules.preset("classic", players=4, target=200).replace(ruleset="countdown")
    assert switched.ruleset == "countdown" and switched.target is None


@pytest.mark.parametrize(
    "name,players,settings,words",
    [
        ("classic", 6, {}, ["players", "2 to 5"]),
        ("ultimate", 9, {}, ["players", "2 to 8"]),
        ("countdown", 7, {}, ["players", "2 to 6"]),
        ("cycles", 12, {}, ["players", "2 to 11"]),
        ("classic", 1, {}, ["players"]),
        ("classic", 4, {"target": 10}, ["target", "50", "5000"]),
        ("classic", 4, {"target": 6000}, ["target"]),
        ("classic", 4, {"hand_size": 6}, ["hand_size", "'auto', 5, 7"]),
        ("classic", 4, {"draw_policy": "forever"}, ["draw_policy"]),
        ("classic", 4, {"draw_policy": "until_play"}, ["draw_policy", "classic"]),
        ("classic", 4, {"last_card": "loud"}, ["last_card"]),
        ("classic", 4, {"cycle_limit": 5}, ["cycle_limit", "does not apply"]),
        ("cycles", 4, {"action_cards": True}, ["action_cards", "does not apply"]),
        ("countdown", 4, {"start": 9}, ["start", "2 to 8"]),
        ("cycles", 4, {"cycle_limit": 0}, ["cycle_limit", "1 to 500"]),
        ("classic", 4, {"turn_timer": 5}, ["turn_timer", "10 to 3600"]),
        ("classic", 4, {"action_cards": 1}, ["action_cards"]),
        ("classic", 4, {"colour": "red"}, ["unknown setting", "colour"]),
        ("poker", 4, {}, ["ruleset", "classic"]),
        ("ultimate", 8, {"packs": 1, "hand_size": 7}, ["hand_size x players", "56"]),
    ],
)
def test_t1_invalid_settings_are_refused_naming_the_setting(
    name: str, players: int, settings: dict[str, object], words: list[str]
) -> None:
    with pytest.raises(RulesError) as info:
        Rules.preset(name, players=players, **settings)
    for word in words:
        assert word in str(info.value)


def test_t1_settings_for_lists_every_setting_with_default_and_allowed_values() -> None:
    for name in RULESETS:
        settings = Rules.settings_for(name)
        assert "players" in settings and "turn_timer" in settings
        for entry in settings.values():
            assert "default" in entry and "help" in entry
            assert "choices" in entry or "range" in entry
    assert "cycle_limit" in Rules.settings_for("cycles")
    assert "action_cards" not in Rules.settings_for("countdown")


def test_t2_settings_are_frozen_and_shown_to_everyone() -> None:
    rules = Rules.preset("classic", players=3, target=200)
    with pytest.raises(AttributeError):
        rules.target = 300  # type: ignore[misc]
    game = new_game(rules, seed=1)
    for seat in (0, 1, 2, None):
        assert game.view(seat)["rules"] == rules.to_dict()
    assert Rules.from_dict(rules.to_dict()) == rules


def test_g9_first_dealer_drawn_by_the_seed_and_seat_0_by_default() -> None:
    drawn = Rules.preset("countdown", players=4, first_dealer="drawn")
    dealers = [new_game(drawn, seed=s).view(0)["dealer"] for s in range(40)]
    assert set(dealers) == {0, 1, 2, 3}, dealers
    assert dealers == [new_game(drawn, seed=s).view(0)["dealer"] for s in range(40)]
    # The draw has numbers of its own: the same seed deals the same cards from the
    # dealer's left, and the player on the dealer's left begins (K2).
    seat0 = Rules.preset("countdown", players=4)
    for seed in range(8):
        a, b = new_game(seat0, seed=seed), new_game(drawn, seed=seed)
        d = b.view(0)["dealer"]
        assert a.view(0)["dealer"] == 0
        assert b.view(0)["top"] == a.view(0)["top"]
        for k in range(4):
            assert b.view((d + 1 + k) % 4)["hand"] == a.view((1 + k) % 4)["hand"]
        assert b.current_player == (d + 1) % 4
    # Stored rules that do not name the setting (every game before it) keep seat 0 (G4).
    old = Rules.preset("classic").to_dict()
    assert "first_dealer" not in old
    assert Rules.from_dict(drawn.to_dict()) == drawn
    assert Rules.from_dict(old).first_dealer == "seat0"
    assert new_game(Rules.from_dict(old), seed=5).view(0)["dealer"] == 0
    with pytest.raises(RulesError, match="first_dealer"):
        Rules.preset("classic", first_dealer="left")
    with pytest.raises(RulesError, match="does not apply"):
        Rules.preset("cycles", first_dealer="drawn")
