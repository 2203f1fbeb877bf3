"""Variants as data: Hungarian and Rommi, options by name, house rules that every check follows."""

from __future__ import annotations

import dataclasses

import pytest

import rummykit
from rummykit import (
    HUNGARIAN,
    ROMMI,
    VARIANTS,
    Card,
    Variant,
    VariantError,
    check_meld,
    check_opening,
    variant,
)
from rummykit.game import Game
from rummykit.variants import MAX_HAND_SIZE

# --- the built-in variants ----------------------------------------------------------------


def test_H1_H4_H5_H8_H13_H14_hungarian_fields() -> None:
    v = HUNGARIAN
    assert v.name == "hungarian"
    assert (v.decks, v.jokers) == (2, 4)  # H1
    assert len(v.deck()) == 108
    assert (v.players_min, v.players_max) == (2, 4)
    assert [v.hand_size(n) for n in (2, 3, 4)] == [14, 14, 14]  # H3
    assert v.starter_extra == 1  # the starter gets 15 and begins with a discard
    assert v.ace_low and v.ace_above_king  # H4: A-2-3 and Q-K-A
    assert v.jokers_per_meld == 1  # H5
    assert v.opening_threshold == 51  # H8
    assert v.no_opening_first_turn  # H9
    assert v.cut_card  # H10
    assert v.joker_exchange  # H11
    assert (v.go_out_points, v.go_out_hand_points) == (-10, -20)  # H12
    assert v.unopened_penalty == 100  # H13
    assert v.rounds == 7  # H14
    assert v.low_score_wins


def test_H8_H13_hungarian_card_values() -> None:
    value = HUNGARIAN.card_value
    assert [value(Card(r, "♠")) for r in range(2, 11)] == list(range(2, 11))  # face value
    assert value(Card("J♥")) == value(Card("Q♥")) == value(Card("K♥")) == 10
    assert value(Card("A♦")) == 10
    assert value(Card("🃏")) == 20  # the most expensive card in the game


def test_R1_R2_R3_R5_R8_R9_rommi_fields() -> None:
    v = ROMMI
    assert v.name == "rommi"
    assert v.source == "CardVerse variant"
    assert v.version == "1.1.0"
    assert (v.decks, v.jokers, len(v.deck())) == (1, 0, 52)  # R1
    assert [v.hand_size(n) for n in (2, 3, 4)] == [7, 10, 10]  # R2
    assert v.starter_extra == 0
    assert not v.ace_low and v.ace_above_king  # R3: ace high only
    assert v.jokers_per_meld == 0
    assert v.opening_threshold == 0  # R5
    assert not v.no_opening_first_turn
    assert not v.discard_to_win  # R7 default
    assert not v.ace_high  # R8 default
    assert v.target == 100  # R9
    assert not v.low_score_wins


def test_R8_rommi_card_values() -> None:
    assert ROMMI.card_value(Card("A♥")) == 1
    assert ROMMI.card_value(Card("K♥")) == ROMMI.card_value(Card("J♣")) == 10
    assert ROMMI.card_value(Card("7♦")) == 7


def test_rules_are_cited_from_the_variants_own_rulebook() -> None:
    assert HUNGARIAN.rule("meld") == "H4" and ROMMI.rule("meld") == "R3"
    assert HUNGARIAN.rule("joker") == "H5" and ROMMI.rule("joker") == "R1"
    assert HUNGARIAN.rule("deck") == "H1" and ROMMI.rule("deck") == "R1"
    assert HUNGARIAN.rule("opening") == "H8" and ROMMI.rule("opening") == "R5"


def test_variants_are_immutable_data() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        HUNGARIAN.opening_threshold = 40  # type: ignore[misc]
    assert VARIANTS == {"hungarian": HUNGARIAN, "rommi": ROMMI}
    assert isinstance(HUNGARIAN, Variant)


def test_hand_size_refuses_an_impossible_table() -> None:
    with pytest.raises(VariantError, match="2 to 4"):
        HUNGARIAN.hand_size(5)
    with pytest.raises(VariantError):
        ROMMI.hand_size(1)


# --- by name, with options ----------------------------------------------------------------


def test_variant_by_name() -> None:
    assert rummykit.variant("rommi") is ROMMI
    assert variant("Hungarian") is HUNGARIAN
    assert variant(" ROMMI ") is ROMMI
    assert variant(ROMMI) is ROMMI


def test_R8_rommi_ace_high_option() -> None:
    v = rummykit.variant("rommi", ace_high=True)
    assert v.ace_high
    assert v.card_value(Card("A♠")) == 11
    assert ROMMI.card_value(Card("A♠")) == 1  # the built-in variant is unchanged
    # nothing else moved
    others = {k: val for k, val in v.options().items() if k != "ace_high"}
    assert others == {k: val for k, val in ROMMI.options().items() if k != "ace_high"}
    assert v.changes() == {"ace_high": True}
    assert "ace_high=True" in str(v)
    assert v.source == "CardVerse variant" and v.version == "1.1.0"


def test_R3_ace_high_does_not_move_the_ace_in_runs() -> None:
    v = variant("rommi", ace_high=True)
    verdict = check_meld("A♥ 2♥ 3♥", v)
    assert verdict.codes == ("ace_low_not_allowed",)
    assert verdict.failures[0].rule == "R3"
    high = check_meld("Q♥ K♥ A♥", v)
    assert high.ok
    assert high.points == 10 + 10 + 11


def test_options_by_name_and_derive_agree() -> None:
    assert variant("rommi", target=50) == ROMMI.derive(target=50)
    assert variant(ROMMI, target=50).target == 50
    assert variant("hungarian", opening_threshold=40).opening_threshold == 40
    assert ROMMI.derive() is ROMMI


def test_deriving_twice_back_to_the_default_changes_nothing() -> None:
    v = ROMMI.derive(target=50).derive(target=100)
    assert v.changes() == {}
    assert str(v) == "Rommi"


def test_hand_sizes_option() -> None:
    v = ROMMI.derive(hand_sizes={2: 9, 3: 8, 4: 7})
    assert [v.hand_size(n) for n in (2, 3, 4)] == [9, 8, 7]


# --- house rules that the checks follow ---------------------------------------------------

ACE_LOW_ONLY = HUNGARIAN.derive(ace_above_king=False)
ACE_HIGH_ONLY = HUNGARIAN.derive(ace_low=False)
OPENING_40 = HUNGARIAN.derive(opening_threshold=40)


def test_house_rule_ace_low_only_refuses_queen_king_ace() -> None:
    assert check_meld("Q♥ K♥ A♥").ok
    verdict = check_meld("Q♥ K♥ A♥", ACE_LOW_ONLY)
    assert verdict.codes == ("ace_high_not_allowed",)
    (reason,) = verdict.failures
    assert reason.rule is None  # a house rule, not the rulebook: H4 allows Q-K-A, so no citation
    assert "no ace above the king" in str(verdict)
    assert reason.cards == (Card("A♥"),)
    assert "A♥" in reason.message
    assert check_meld("A♥ 2♥ 3♥", ACE_LOW_ONLY).ok
    assert HUNGARIAN.ace_above_king  # the built-in variant is unchanged


def test_house_rule_ace_low_only_narrows_the_joker() -> None:
    # in plain Hungarian 🃏 Q♥ K♥ may be J-Q-K or Q-K-A; ace low only leaves the jack
    assert set(check_meld("🃏 Q♥ K♥").jokers[0]) == {Card("J♥"), Card("A♥")}
    assert check_meld("🃏 Q♥ K♥", ACE_LOW_ONLY).jokers == ((Card("J♥"),),)


def test_house_rule_ace_high_only() -> None:
    verdict = check_meld("A♥ 2♥ 3♥", ACE_HIGH_ONLY)
    assert verdict.codes == ("ace_low_not_allowed",)
    assert verdict.failures[0].rule is None  # H4 allows A-2-3: the house rule is named instead
    assert "Hungarian Rummy with no ace below the 2" in verdict.failures[0].message
    assert check_meld("🃏 2♥ 3♥", ACE_HIGH_ONLY).jokers == ((Card("4♥"),),)


def test_house_rule_40_point_opening() -> None:
    melds = ["3♣ 4♣ 5♣", "8♦ 8♠ 8♥"]  # 12 + 24 = 36
    verdict = check_opening(melds, OPENING_40)
    assert not verdict.ok
    assert verdict.codes == ("opening_short",)
    assert verdict.details["missing"] == 40 - 36
    assert "4 more" in str(verdict) and "40" in str(verdict)
    # 18 + 30 = 48: enough for the house rule, not for the 51 of H8
    enough = ["5♥ 🃏 7♥", "K♠ K♥ K♦"]
    assert check_opening(enough, OPENING_40).ok
    short = check_opening(enough)
    assert not short.ok and short.details["missing"] == 51 - 48


def test_house_rule_without_jokers_in_melds() -> None:
    v = HUNGARIAN.derive(jokers_per_meld=0)
    verdict = check_meld("5♥ 🃏 7♥", v)
    assert verdict.codes == ("jokers_not_allowed",)
    assert verdict.failures[0].rule is None  # H5 allows a joker: the house rule is named instead
    assert "🃏" in verdict.failures[0].message and "house rules" in verdict.failures[0].message


def test_house_rule_two_jokers_per_meld() -> None:
    v = HUNGARIAN.derive(jokers_per_meld=2)
    assert check_meld("5♥ 🃏 🃏", v).ok
    verdict = check_meld("5♥ 🃏 🃏 🃏", v)
    assert verdict.codes == ("too_many_jokers",)
    assert "two" in verdict.failures[0].message


# --- errors -------------------------------------------------------------------------------


def test_unknown_variant_lists_the_valid_ones() -> None:
    with pytest.raises(VariantError) as info:
        variant("poker")
    assert isinstance(info.value, ValueError)
    message = str(info.value)
    assert "'poker'" in message
    assert "hungarian" in message and "rommi" in message


@pytest.mark.parametrize("name", ["jokers", "decks", "name", "title", "acehigh"])
def test_unknown_option_lists_the_valid_ones(name: str) -> None:
    with pytest.raises(VariantError) as info:
        variant("rommi", **{name: 1})
    message = str(info.value)
    assert f"'{name}'" in message
    assert "Rommi" in message
    for option in ("ace_high", "discard_to_win", "target", "opening_threshold"):
        assert option in message
    with pytest.raises(VariantError):
        HUNGARIAN.derive(**{name: 1})


@pytest.mark.parametrize(
    ("option", "value", "expected"),
    [
        ("ace_high", "yes", "true or false"),
        ("ace_high", 1, "true or false"),
        ("discard_to_win", None, "true or false"),
        ("target", -1, "whole number"),
        ("target", 1.5, "whole number"),
        ("target", True, "whole number"),
        ("target", "100", "whole number"),
        ("hand_sizes", "x", "{2: 7, 3: 10}"),
        ("hand_sizes", {2: 0}, "{2: 7, 3: 10}"),
    ],
)
def test_bad_option_value_says_what_the_option_takes(
    option: str, value: object, expected: str
) -> None:
    with pytest.raises(VariantError) as info:
        variant("rommi", **{option: value})
    assert isinstance(info.value, ValueError)
    message = str(info.value)
    assert f"'{option}'" in message
    assert expected in message
    assert repr(value) in message


def test_variant_error_has_a_one_line_docstring() -> None:
    doc = VariantError.__doc__ or ""
    assert doc.strip() and "\n" not in doc.strip()


# --- house rules that can't be dealt (issue 13) -------------------------------------------------


@pytest.mark.parametrize(
    ("name", "options", "fragments"),
    [
        ("rommi", {"hand_sizes": {2: 30}}, ["the deck has 52 cards", "for 2 players is 18"]),
        ("rommi", {"hand_sizes": {4: 13}}, ["the deck has 52 cards", "for 4 players is 12"]),
        ("rommi", {"starter_extra": 100}, ["100 more to the starter", "is 0"]),
        ("hungarian", {"hand_sizes": {4: 25}}, ["108 cards", "for 4 players is 17"]),
        ("hungarian", {"starter_extra": 100}, ["108 cards", "100 more to the starter"]),
        ("hungarian", {"hand_sizes": {2: 60}}, ["108 cards", "for 2 players is 17"]),
    ],
)
def test_house_rules_that_cant_be_dealt_are_refused_when_made(
    name: str, options: dict[str, object], fragments: list[str]
) -> None:
    with pytest.raises(VariantError) as error:
        variant(name, **options)
    message = str(error.value)
    assert "can't deal" in message
    for fragment in fragments:
        assert fragment in message, message


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("name", ["hungarian", "rommi"])
def test_the_largest_hand_allowed_can_be_dealt(name: str, players: int) -> None:
    """The largest hand a refusal names is dealt, and one card more is refused."""
    base = variant(name)
    with pytest.raises(VariantError) as error:
        variant(name, hand_sizes={players: 99})
    largest = int(str(error.value).rsplit(" is ", 1)[1].split()[0])
    assert largest + base.starter_extra <= MAX_HAND_SIZE
    rules = variant(name, hand_sizes={players: largest})
    game = Game.new(rules, players=players, seed=1)
    assert sorted({len(game.hand(s)) for s in range(players)}) in (
        [largest],
        [largest, largest + base.starter_extra],
    )
    assert game.stock_size >= 1
    with pytest.raises(VariantError):
        variant(name, hand_sizes={players: largest + 1})
