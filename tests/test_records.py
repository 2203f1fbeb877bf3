"""Saved games: versioned JSON in two forms (a seeded game, a position set up by hand).

Saving and loading gives the same game back, state for state; loading validates everything and
refuses a bad or tampered file with a :class:`RecordError` saying what is wrong.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from referee_helpers import opened_table

from rummykit.cards import Card, as_cards
from rummykit.game import (
    Draw,
    Game,
    RecordError,
    from_position,
    parse_action,
)
from rummykit.game.record import FORMAT_VERSION, dumps, load, loads, save

# --- helpers -------------------------------------------------------------------------------------


def played(variant: str, players: int, seed: int, moves: int, **options: Any) -> Game:
    """A seeded game after ``moves`` random legal actions (turns always finished)."""
    game = Game.new(variant, players=players, seed=seed, **options)
    rng = random.Random(seed)
    spent: dict[tuple[int, int], int] = {}
    for _ in range(moves):
        if game.is_over:
            break
        legal = game.legal_actions()
        turn = (game.current, game.turns_taken[game.current])
        provisional = [a for a in legal if a.kind in ("meld", "layoff", "exchange")]
        if provisional and spent.get(turn, 0) < 3 and rng.random() < 0.8:
            spent[turn] = spent.get(turn, 0) + 1
            game.play(rng.choice(provisional))
            continue
        plain = [a for a in legal if a.kind in ("draw", "discard", "cut")]
        game.play(rng.choice(plain or legal))
    return game


def same_game(a: Game, b: Game) -> None:
    assert a.snapshot() == b.snapshot()
    assert a.events == b.events
    assert a.actions == b.actions
    assert a.result == b.result
    assert a.legal_actions() == b.legal_actions()
    assert str(a.turn_status()) == str(b.turn_status())
    assert a._state == b._state  # the turn in progress too


def refused(data: object, *fragments: str) -> str:
    """Loading ``data`` (JSON text, or data to dump) fails with a message holding ``fragments``."""
    text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
    with pytest.raises(RecordError) as error:
        loads(text)
    message = str(error.value)
    for fragment in fragments:
        assert fragment in message, message
    return message


def record(game: Game) -> dict[str, Any]:
    return json.loads(dumps(game))  # type: ignore[no-any-return]


def _lesson() -> Game:
    return from_position(
        "hungarian",
        hands=["7h 8h 9h 2s 4d", "3c 4c 5c 2d"],
        discard="5s",
        cut_card="Ks",
        table=[(1, "Jk 2d 3d", "4d"), (1, "9c 9h Jk")],
        opened=[True, True],
    )


# --- round trips ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "players", "seed", "moves", "options"),
    [
        ("hungarian", 2, 1, 0, {}),
        ("hungarian", 3, 2, 40, {}),
        ("hungarian", 4, 3, 400, {}),
        ("hungarian", 2, 4, 60, {"choose_cut": True}),
        ("hungarian", 3, 5, 60, {"opening_threshold": 30, "cut": 17}),
        ("rommi", 2, 6, 30, {}),
        ("rommi", 3, 7, 300, {"ace_high": True}),
        ("rommi", 4, 8, 300, {"discard_to_win": True, "target": 50}),
    ],
)
def test_game_record_round_trip(
    variant: str, players: int, seed: int, moves: int, options: dict[str, Any]
) -> None:
    game = played(variant, players, seed, moves, **options)
    text = dumps(game)
    data = json.loads(text)
    assert (data["format"], data["version"]) == ("rummykit-game", FORMAT_VERSION)
    assert data["variant"] == variant and data["seed"] == seed
    again = loads(text)
    same_game(again, game)
    assert dumps(again) == text
    assert Game.load(game.to_json(indent=2)).snapshot() == game.snapshot()


def test_round_trip_keeps_a_turn_in_progress() -> None:
    game = _lesson()
    for move in ("take cut", "meld 7h 8h 9h"):
        game.play(parse_action(move))
    again = loads(dumps(game))
    same_game(again, game)
    assert [r.code for r in again.turn_status().obligations] == ["cut_card_must_go_out"]
    again.play(parse_action("return cut"))
    assert again.cut_card == Card("Ks") and again.phase == "draw"


def test_position_form_keeps_a_turn_in_progress() -> None:
    game = _lesson()
    for move in ("take cut", "meld 7h 8h 9h"):
        game.play(parse_action(move))
    assert not game.check(parse_action("discard 2s")).ok  # H10: must go out or give it back
    resumed = load({"format": "rummykit-position", "version": 1, "position": game.snapshot()})
    assert resumed.snapshot() == game.snapshot()
    assert not resumed.check(parse_action("discard 2s")).ok
    for g in (game, resumed):  # Undo and giving the cut card back work after loading too
        g.play(parse_action("undo"))
        g.play(parse_action("return cut"))
    assert resumed.snapshot() == game.snapshot()
    assert resumed.legal_actions() == game.legal_actions()


def test_round_trip_of_a_finished_round() -> None:
    game = from_position("rommi", hands=["Qs Ks As", "2c 3d"], discard="5s", phase="play")
    game.play(parse_action("meld Qs Ks As"))
    again = loads(dumps(game))
    same_game(again, game)
    assert again.is_over and again.result is not None and again.result.points == (5, 0)


def test_unseeded_games_keep_their_seed() -> None:
    game = Game.new("rommi", players=2)
    assert isinstance(game.seed, int)
    game.play(Draw("stock"))
    game.play(parse_action(f"discard {game.hand(1)[0]}"))
    same_game(loads(dumps(game)), game)
    lesson = from_position("hungarian", hands=["7h 8h", "2d 3d"], discard="5s", seed=None)
    assert isinstance(lesson.seed, int)
    same_game(loads(dumps(lesson)), lesson)


def test_position_record_round_trip() -> None:
    game = _lesson()
    data = record(game)
    assert (data["format"], data["version"]) == ("rummykit-position", FORMAT_VERSION)
    assert data["actions"] == []
    assert data["position"]["hands"] == [["7♥", "8♥", "9♥", "2♠", "4♦"], ["3♣", "4♣", "5♣", "2♦"]]
    assert len(data["position"]["stock"]) == game.stock_size
    same_game(loads(dumps(game)), game)
    for move in ("draw", "discard 2s", "draw"):
        game.play(parse_action(move))
    data = record(game)
    assert [a["type"] for a in data["actions"]] == ["draw", "discard", "draw"]
    assert [a["seat"] for a in data["actions"]] == [0, 0, 1]
    same_game(loads(dumps(game)), game)
    assert game.table[0].meld.represents[-1] == Card("4d")  # the joker meaning survives


def test_save_and_load_a_file(tmp_path: Path) -> None:
    game = played("hungarian", 3, 11, 50)
    path = tmp_path / "game.json"
    save(game, str(path))
    text = path.read_text(encoding="utf-8")
    assert "🃏" in text or "♠" in text  # readable cards, not escapes
    same_game(load(json.loads(text)), game)


def test_record_is_json_with_readable_actions() -> None:
    game = _lesson()
    for move in ("draw", "meld 7h 8h 9h", "discard 2s"):
        game.play(parse_action(move))
    data = record(game)
    assert data["actions"][1] == {
        "seat": 0,
        "type": "meld",
        "cards": ["7♥", "8♥", "9♥"],
        "joker_as": None,
    }


# --- refusals ---------------------------------------------------------------------------------------


def test_refuses_what_is_not_json() -> None:
    refused("not json at all", "this is not JSON")
    refused("", "this is not JSON")
    refused("[1, 2, 3]", "a saved game is a JSON object")


def test_refuses_a_wrong_format() -> None:
    data = record(Game.new("rommi", seed=1))
    refused({**data, "format": "chess-pgn"}, "format is 'chess-pgn'", "rummykit-game")
    missing = {k: v for k, v in data.items() if k != "format"}
    refused(missing, "format is None")


def test_refuses_a_wrong_version() -> None:
    data = record(Game.new("rommi", seed=1))
    message = refused({**data, "version": 2})
    assert message == "this file is version 2 of the game format; rummykit reads version 1"
    refused({k: v for k, v in data.items() if k != "version"}, "version None")


def test_refuses_bad_card_text() -> None:
    data = record(_lesson())
    data["position"]["hands"][0][1] = "1♠"
    refused(data, "'position.hands[0]' holds a card that can't be read", "'1♠' is not a card")
    data = record(_lesson())
    data["position"]["stock"][0] = "Zz"
    refused(data, "'position.stock'", "'Zz' is not a card")
    data = record(_lesson())
    data["position"]["hands"][0][1] = 7
    refused(data, "'position.hands[0]' must be a list of cards")
    game = _lesson()
    game.play(Draw("stock"))
    data = record(game)
    data["actions"].append({"seat": 0, "type": "discard", "card": "11♥"})
    refused(data, "'actions[1]' (action 2) can't be read", "'11♥' is not a card")


def test_refuses_a_tampered_hand() -> None:
    data = record(_lesson())
    data["position"]["hands"][0].append("Q♦")  # a card conjured from nowhere
    refused(data, "every card must be somewhere exactly once (108 in all)", "Q♦ is there too often")
    data = record(_lesson())
    data["position"]["hands"][1].remove("4♣")  # a card gone missing
    refused(data, "4♣ is missing")
    data = record(_lesson())
    data["position"]["hands"][0] += ["9♥", "9♥"]  # three of a card the two decks hold twice
    refused(data, "more than 2 9♥ — Hungarian Rummy has only 2")


def test_refuses_a_tampered_table() -> None:
    data = record(_lesson())
    data["position"]["table"][0]["cards"] = ["K♠", "A♠", "2♠"]
    message = refused(data, "'position.table[0]' is not a valid meld")
    assert "wraps around the ace" in message and "(H4)" in message


def test_refuses_an_illegal_action_naming_its_number() -> None:
    game = played("hungarian", 2, 3, 12)
    data = record(game)
    assert len(data["actions"]) == 12
    data["actions"][7] = {"seat": data["actions"][7]["seat"], "type": "discard", "card": "🃏"}
    message = refused(data, "'actions[7]' (action 8, seat", "is not legal at that point")
    assert "discard 🃏" in message


def test_refuses_an_action_out_of_turn() -> None:
    game = Game.new("rommi", players=3, seed=2)
    game.play(Draw("stock"))
    data = record(game)
    data["actions"][0]["seat"] = 2
    refused(
        data,
        "'actions[0]' (action 1, seat 2: draw from the stock)",
        "It is seat 1's turn, not seat 2's.",
    )


def test_refuses_unreadable_actions() -> None:
    data = record(Game.new("rommi", seed=1))
    refused({**data, "actions": "draw"}, "'actions' must be a list")
    refused(
        {**data, "actions": [{"type": "draw"}]},
        "'actions[0].seat' must be a whole number from 0 to 1",
    )
    refused(
        {**data, "actions": [{"seat": 1, "type": "fly"}]},
        "'actions[0]' (action 1) can't be read",
        "'fly'",
    )
    refused(
        {**data, "actions": [{"seat": 1, "type": ["draw"]}]},
        "'actions[0]' (action 1) can't be read",
    )
    refused(
        {**data, "actions": [{"seat": 1, "type": "draw", "source": "sky"}]},
        "a 'draw' action has a missing or bad field: source",
    )


def test_refuses_an_unknown_variant_or_option() -> None:
    data = record(Game.new("rommi", seed=1))
    refused(
        {**data, "variant": "poker"}, "'poker' is not a variant: choose one of hungarian, rommi"
    )
    refused({**data, "options": {"jokers": 2}}, "'jokers' is not an option of Rommi")
    refused(
        {**data, "options": {"ace_high": "yes"}}, "option 'ace_high' of Rommi takes true or false"
    )
    refused({**data, "players": 6}, "'players' must be a whole number from 2 to 4")
    refused({**data, "dealer": 5}, "'dealer' must be a whole number from 0 to 1")
    refused({**data, "seed": "seven"}, "'seed' must be a whole number or null")
    hungarian = record(Game.new("hungarian", seed=1))
    refused({**hungarian, "cut": 0}, "Cut somewhere from 1 to 107 cards.")


def test_refuses_a_bad_position() -> None:
    data = record(_lesson())
    refused({**data, "position": [1]}, "'position' must be an object")
    for field, value, fragment in [
        ("hands", [["2♦"]], "'position.hands' must be 2 hands"),
        ("phase", "over", "a finished round can't be resumed"),
        ("phase", "nap", "'position.phase' must be draw, play or over"),
        ("current", 2, "'position.current' must be a whole number from 0 to 1"),
        ("table", {"0": 1}, "'position.table' must be a list of melds"),
        ("cut_card", 7, "'position.cut_card' must be one card or null"),
        ("turns", [1], "'position.turns' must be 2 whole numbers"),
        ("opened", [1, 0], "'position.opened' must be 2 true/false values"),
        ("drew", "sky", "'position.drew' must be"),
    ]:
        bad = json.loads(json.dumps(data))
        bad["position"][field] = value
        refused(bad, fragment)


# --- robustness: any change to a record loads, or is refused with a RecordError ----------------------

_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 200),
    st.sampled_from(["", "x", "K♠", "🃏", "play", "draw", "hungarian", "rommi", "stock"]),
    st.lists(st.sampled_from(["K♠", "2♦", "🃏", "zz"]), max_size=3),
    st.lists(st.integers(0, 3), max_size=3),
    st.dictionaries(st.sampled_from(["a", "type", "seat"]), st.integers(0, 2), max_size=2),
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out += _paths(item, (*prefix, index))
    return out


_BASES = [
    record(played("hungarian", 3, 5, 30, choose_cut=True)),
    record(_lesson()),
    record(played("rommi", 2, 9, 25)),
]


@given(base=st.sampled_from(_BASES), data=st.data())
def test_any_change_loads_or_is_refused_clearly(base: dict[str, Any], data: st.DataObject) -> None:
    changed = json.loads(json.dumps(base))
    path = data.draw(st.sampled_from(_paths(changed)))
    target = changed
    for key in path[:-1]:
        target = target[key]
    if data.draw(st.booleans()):
        target[path[-1]] = data.draw(_VALUES)
    elif isinstance(target, dict):
        del target[path[-1]]
    else:
        target.pop(path[-1])
    try:
        game = loads(json.dumps(changed, ensure_ascii=False))
    except RecordError as error:
        assert str(error)
        return
    game.legal_actions()
    game.turn_status()
    assert game.all_cards() == Counter(game.variant.deck())
    again = loads(dumps(game))
    assert again.snapshot() == game.snapshot()


# --- hostile positions (issue 13): checked whole at load time, each field named -------------------


def _snapshot_record(game: Game) -> dict[str, Any]:
    return json.loads(
        json.dumps({"format": "rummykit-position", "version": 1, "position": game.snapshot()})
    )


def _against_3c_4c_5c_8d(hand: str, **position: Any) -> Game:
    """A Hungarian position: seat 0 holds ``hand``, seat 1 3♣ 4♣ 5♣ 8♦, 5♠ on the pile."""
    return from_position("hungarian", hands=[hand, "3c 4c 5c 8d"], discard="5s", **position)


def _mid_turn() -> Game:
    """Seat 0 took the cut card and laid a meld; a table of two melds."""
    game = _against_3c_4c_5c_8d(
        "7h 8h 5c 6d 2s",
        cut_card="9h",
        opened=[True, True],
        table=[(1, "Js Qs Ks"), (1, "5d 6d 7d")],
    )
    for move in ("take cut", "meld 7h 8h 9h"):
        game.play(parse_action(move))
    return game


def test_turn_indices_past_the_table_are_refused_at_load() -> None:
    data = _snapshot_record(_mid_turn())
    for key, value in (("new_melds", [2, 7]), ("exchanged", [3])):
        bad = json.loads(json.dumps(data))
        bad["position"]["turn"][key] = value
        refused(bad, f"'position.turn.{key}' must be indices of melds on the table (there are 3)")


def test_a_cut_card_taken_without_its_step_is_refused_at_load() -> None:
    data = _snapshot_record(_mid_turn())
    data["position"]["turn"]["steps"] = data["position"]["turn"]["steps"][1:]
    refused(data, "'position.turn.cut_taken' must be the cut card whose take")


def test_a_taken_card_never_taken_is_refused_at_load() -> None:
    game = _against_3c_4c_5c_8d("7h 8h 9h 2s", phase="play", turns=[0, 0], opened=[False, False])
    data = _snapshot_record(game)
    data["position"]["turn"]["taken"] = "2s"  # in hand, but drawn from the stock
    refused(data, "'position.turn.taken' must be a card taken from the discard pile")
    data["position"]["turn"]["taken"] = "Kd"
    refused(data, "'position.turn.taken' must be")


@pytest.mark.parametrize("drew", ["sky", "", "start", 7, None])
def test_any_drew_string_is_refused(drew: object) -> None:
    data = _snapshot_record(_mid_turn())
    data["position"]["drew"] = drew
    refused(data, "'position.drew' must be")
    data = _snapshot_record(_mid_turn())
    data["position"]["turn"]["drew"] = drew
    refused(data, "'position.turn.drew' must be")


@pytest.mark.parametrize("seat", [True, False, "0", 1.0, -1, 2, None])
def test_an_action_seat_must_be_a_seat_number(seat: object) -> None:
    data = record(Game.new("rommi", players=2, seed=3))
    data["actions"] = [{"seat": seat, "type": "draw", "source": "stock"}]
    refused(data, "'actions[0].seat' must be a whole number from 0 to 1")


@pytest.mark.parametrize(
    ("where", "fragment"),
    [
        ((), "'colour' is not a field rummykit knows there"),
        (("position",), "'position.colour' is not a field"),
        (("position", "turn"), "'position.turn.colour' is not a field"),
        (("position", "table", 0), "'position.table[0].colour' is not a field"),
        (("position", "turn", "steps", 0), "'position.turn.steps[0].colour' is not a field"),
        (("position", "turn", "steps", 0, "state"), "'position.turn.steps[0].state.colour'"),
    ],
)
def test_unknown_fields_are_refused(where: tuple[Any, ...], fragment: str) -> None:
    data = _snapshot_record(_mid_turn())
    target = data
    for key in where:
        target = target[key]
    target["colour"] = "red"
    refused(data, fragment)


def test_unknown_action_fields_are_refused() -> None:
    data = record(Game.new("rommi", players=2, seed=3))
    data["actions"] = [{"seat": 1, "type": "draw", "source": "stock", "from": "top"}]
    refused(data, "'actions[0]' (action 1) can't be read", "a 'draw' action has no field 'from'")


def test_the_seat_to_act_must_hold_cards() -> None:
    game = from_position("rommi", hands=["Qs Ks As", "3c 4c 5c"], discard="5s")
    data = _snapshot_record(game)
    data["position"]["stock"] += data["position"]["hands"][0]
    data["position"]["hands"][0] = []
    refused(data, "'position.hands[0]' must be a hand with cards")
    with pytest.raises(RecordError, match="hands"):
        from_position("rommi", hands=["", "3c 4c 5c"], discard="5s")


def test_reloading_after_an_exchange_gives_the_same_snapshot() -> None:
    game = opened_table("4h 7h 2d 9s", [(1, "4s 4d 4c Jk"), (1, "9c 10c Jc")])
    for move in ("exchange 4h from 1", "lay off Jk onto 2 as Qc"):
        game.play(parse_action(move))
    assert game.table[0].meld.cards == as_cards("4s 4d 4c 4h")  # in the joker's place
    again = load(_snapshot_record(game))
    assert again.snapshot() == game.snapshot()
    assert again._state == game._state
    assert loads(dumps(game)).snapshot() == game.snapshot()
    # a tampered order of meanings is refused
    bad = _snapshot_record(game)
    bad["position"]["table"][0]["represents"] = ["4♠", "4♦", "4♥", "4♥"]
    refused(bad, "'position.table[0].represents' must be")


def test_load_keeps_no_reference_into_the_callers_data() -> None:
    data = _snapshot_record(_mid_turn())
    kept = json.loads(json.dumps(data))
    game = load(data)
    before = game.snapshot()
    # the caller changes every list and dict it passed in
    data["position"]["hands"][0].append("K♠")
    data["position"]["table"][0]["cards"].reverse()
    data["position"]["turn"]["steps"].clear()
    data["position"]["options"]["target"] = 5
    assert game.snapshot() == before
    assert load(kept).snapshot() == before
