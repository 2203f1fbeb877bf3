"""The referee's sentences (issue 11): helps cite no rule, melds are numbered from 1 for
people, and the turn status and refusals say what is allowed and what to do."""

from __future__ import annotations

import pytest
from referee_helpers import REFEREE_HELPS, act, allowed, opened_table, play, refuse

from rummykit import variant
from rummykit.game import (
    Action,
    ActionParseError,
    ExchangeJoker,
    Game,
    LayOff,
    ReturnCutCard,
    Undo,
    from_position,
    parse_action,
)

OTHER = "3c 4c 5c 8d 8s 8h 2d"


def _table(variant_name: str = "hungarian", melds: int = 2) -> Game:
    table = [(1, "5h 6h 7h"), (1, "9c 9h 9d"), (1, "Js Qs Ks")][:melds]
    return opened_table("8h 4d 2s", table, variant_name, other="3c 4c 5c 8d")


# --- the software's own helps cite no rule --------------------------------------------------


def test_nothing_to_undo_is_a_help() -> None:
    for name in ("hungarian", "rommi"):
        game = _table(name)
        verdict = refuse(game, "undo", "nothing_to_undo", None)
        assert (
            str(verdict) == "Not allowed: undo the last move. There is nothing to undo this turn."
        )


def test_taking_the_discard_again_is_a_help() -> None:
    game = from_position(
        "hungarian", hands=["7h 8h 9h 2s", OTHER], discard="5s 6h", opened=[True, True]
    )
    play(game, "take discard", "undo")
    verdict = refuse(game, "take discard", "discard_take_again", None)
    assert verdict.rules == ()


def test_no_cards_to_lay_off_is_a_help() -> None:
    for name in ("hungarian", "rommi"):
        game = _table(name)
        verdict = refuse(game, LayOff((), 0), "layoff_no_cards", None)
        assert "Choose at least one card to lay off onto 5♥ 6♥ 7♥." in str(verdict)
        assert verdict.rules == ()
        verdict = refuse(game, LayOff((), 7), "layoff_no_cards", None)
        assert "onto meld 8." in str(verdict)


def test_every_referee_help_cites_no_rule_and_every_rule_refusal_cites_one() -> None:
    game = _table()
    for action in (Undo(), LayOff((), 0), act("lay off 8h onto 9"), act("discard 9s")):
        for reason in game.check(action).failures:
            assert (reason.rule is None) == (reason.code in REFEREE_HELPS), reason


def test_a_lay_off_that_would_rearrange_a_meld_cites_R6_in_rommi_and_not_H8() -> None:
    """Only Rommi's rulebook says melds are never rearranged (R6); in Hungarian it cites
    no rule, and never H8 (the opening)."""
    hungarian = variant("hungarian", jokers_per_meld=2)
    game = opened_table("7s 2d 3c", [(1, "7h Jk Jk", "8h")], hungarian, other=OTHER)
    # No Hungarian rule says melds are never rearranged (H6 is the turn's order): no citation.
    verdict = refuse(game, "lay off 7s onto 1", "layoff_changes_kind", None, names=["7s"])
    assert "(H8)" not in str(verdict) and "(H6)" not in str(verdict)
    assert variant("rommi").rule("layoff") == "R6"


# --- melds are numbered from 1 for people -----------------------------------------------------


@pytest.mark.parametrize(
    ("count", "sentence"),
    [
        (0, "There is no meld 3: no melds are on the table yet."),
        (1, "There is no meld 3 on the table: the only meld is meld 1."),
        (2, "There is no meld 3 on the table: melds are numbered 1 to 2."),
    ],
)
def test_no_such_meld_says_the_range_counted_from_1(count: int, sentence: str) -> None:
    game = _table(melds=count)
    verdict = refuse(game, "lay off 8h onto 3", "no_such_meld", None)
    assert str(verdict) == f"Not allowed: lay off 8♥ onto meld 3. {sentence}"
    verdict = refuse(game, "exchange 8h from 3", "no_such_meld", None)
    assert sentence in str(verdict)


def test_the_text_form_counts_melds_from_1_and_the_data_from_0() -> None:
    action = parse_action("lay off 8h onto 1")
    assert isinstance(action, LayOff) and action.meld == 0
    assert str(action) == "lay off 8♥ onto meld 1"
    assert action.to_dict() == {"type": "layoff", "cards": ["8♥"], "meld": 0, "joker_as": None}
    assert Action.from_dict(action.to_dict()) == action
    assert parse_action(str(action).replace("meld ", "")) == action
    exchange = parse_action("exchange 6h from 2")
    assert exchange == ExchangeJoker(exchange.card, 1)
    assert str(exchange) == "exchange 6♥ for the joker in meld 2"
    assert exchange.to_dict()["meld"] == 1
    # every listed lay-off reads back from the words it prints
    game = _table()
    for listed in game.legal_actions():
        if isinstance(listed, LayOff):
            text = str(listed).replace("meld ", "")
            assert parse_action(text) == listed
            number = listed.meld + 1
            assert f"onto meld {number}" in str(listed)


@pytest.mark.parametrize("text", ["lay off 7h onto 0", "exchange 6h from 0", "lay off 7h onto 00"])
def test_meld_number_0_is_a_clear_error(text: str) -> None:
    with pytest.raises(ActionParseError) as error:
        parse_action(text)
    number = text.split()[-1]
    assert str(error.value) == (
        f"'{text}': there is no meld {number} — melds on the table are numbered from 1"
    )


def test_events_name_melds_by_their_number() -> None:
    game = _table()
    play(game, "lay off 8h onto 1", "discard 2s")
    assert str(game.events[0]) == "Seat 0 laid off 8♥ onto meld 1."
    assert game.events[0].params["index"] == 0
    game = opened_table("6h 9s 2d", [(1, "Js Qs Ks"), (1, "5h Jk 7h")], other=OTHER)
    play(game, "exchange 6h from 2", "lay off Jk onto 1 as 10s")
    assert str(game.events[0]) == "Seat 0 exchanged 6♥ for the joker in meld 2."
    assert str(game.events[1]) == "Seat 0 laid off 🃏 onto meld 1, the joker as the 10♠."
    rommi = from_position("rommi", hands=["Qs Ks As 2d", "3c"], discard="5s", phase="play")
    play(rommi, "meld Qs Ks As")
    assert str(rommi.events[-1]) == "Seat 0 laid down Q♠ K♠ A♠ (meld 1)."


@pytest.mark.parametrize(
    ("move", "meld", "words"),
    [
        ("lay off Jk onto 1 as 6s", "3♠ 4♠ 5♠ 🃏", "🃏 onto meld 1, the joker as the 6♠"),
        ("lay off Jk onto 1 as 2s", "🃏 3♠ 4♠ 5♠", "🃏 onto meld 1, the joker as the 2♠"),
        ("lay off Jk 7s onto 1", "3♠ 4♠ 5♠ 🃏 7♠", "🃏 7♠ onto meld 1, the joker as the 6♠"),
        ("lay off Jk onto 2", "9♠ 9♥ 9♦ 🃏", "🃏 onto meld 2, the joker as the 9♣"),
        ("lay off 6s onto 1", "3♠ 4♠ 5♠ 6♠", "6♠ onto meld 1"),
    ],
)
def test_H5_a_laid_off_joker_is_named_by_the_card_it_stands_for(
    move: str, meld: str, words: str
) -> None:
    game = opened_table("Jk 6s 7s Kd", [(1, "3s 4s 5s"), (1, "9s 9h 9d")], other=OTHER)
    play(game, move)
    event = game.events[-1]
    number = event.params["index"]
    assert str(game.table[number].meld) == meld  # the sentence matches the table
    assert str(event) == f"Seat 0 laid off {words}."
    if "Jk" in move:  # the card named is the one the joker stands for on the table
        placed = game.table[number].meld
        reps = [r for c, r in zip(placed.cards, placed.represents) if c.is_joker]
        assert event.params["joker_as"] == tuple(str(r) for r in reps)
    else:
        assert "joker_as" not in event.params


# --- the turn status says what is allowed ---------------------------------------------------


def test_the_starter_first_turn_status_says_discard_only() -> None:
    for players in (2, 3, 4):
        game = Game.new("hungarian", players=players, seed=players)
        status = str(game.turn_status())
        assert "plays its first turn: discard only" in status, status
        assert "lay down" not in status and "Opening" not in status
        assert {a.kind for a in game.legal_actions()} == {"discard"}


def test_a_first_turn_status_says_discard_only_H9() -> None:
    game = from_position(
        "hungarian",
        hands=["7h 8h 9h 10s 10d 10c Jc Qc Kc 2s", OTHER],
        discard="5s",
        turns=[0, 0],
        table=[(1, "2s 3s 4s")],
        opened=[False, True],
    )
    allowed(game, "draw")
    status = str(game.turn_status())
    assert status == (
        "Seat 0 plays its first turn: discard only — nobody opens on their very first turn."
    )
    assert {a.kind for a in game.legal_actions()} == {"discard"}
    verdict = refuse(game, "draw", "already_drew", "H6")
    assert "You have already drawn this turn: discard to end it. (H6)" in str(verdict)
    # next turn, the usual status
    allowed(game, "discard 2s")
    play(game, "draw", f"discard {game.hand(1)[0]}", "draw")
    assert str(game.turn_status()).startswith("Seat 0 plays: lay down, lay off, or discard")


def test_draw_first_names_the_cut_card_while_it_may_be_taken() -> None:
    game = from_position(
        "hungarian", hands=["7h 8h 5c 6d", OTHER], discard="5s", cut_card="9h", opened=[True] * 2
    )
    verdict = refuse(game, "discard 5c", "draw_first", "H6")
    assert "Draw first: from the stock, the discard pile, or the cut card." in str(verdict)
    play(game, "take cut", "return cut")
    verdict = refuse(game, "discard 5c", "draw_first", "H6")
    assert "Draw first: from the stock or the discard pile." in str(verdict)
    rommi = from_position("rommi", hands=["7h 8h 5c", "2d"], discard="5s")
    assert "or the discard pile. (R4)" in str(rommi.check(act("discard 5c")))


def test_giving_back_the_cut_card_before_drawing_says_it_isnt_held() -> None:
    game = from_position(
        "hungarian", hands=["7h 8h 5c 6d", OTHER], discard="5s", cut_card="9h", opened=[True] * 2
    )
    verdict = refuse(game, ReturnCutCard(), "cut_not_taken", "H10")
    assert verdict.codes == ("cut_not_taken",)
    refuse(game, "undo", "nothing_to_undo", None)
