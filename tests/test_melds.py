"""Meld checks that explain themselves: every reason code, every rule example, lay-offs, opening.

Scenario tests are named after the rule they prove (``test_H4_…``, ``test_R3_…``), so the
rulebooks in ``shared/rules`` and these tests can be read side by side.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter

import pytest

from rummykit import (
    HUNGARIAN,
    ROMMI,
    Card,
    IllegalMeld,
    Meld,
    Reason,
    Variant,
    Verdict,
    check_layoff,
    check_meld,
    check_opening,
    make_meld,
    meld_readings,
    parse_card,
    parse_cards,
    variant,
)
from rummykit.cards import JOKER, SUITS
from rummykit.explain import CATALOGUE, cite
from rummykit.melds import joker_meanings, readings_with

ROMMI_ACE_HIGH = variant("rommi", ace_high=True)
ACE_LOW_ONLY = HUNGARIAN.derive(ace_above_king=False)


def C(text: str) -> Card:
    return parse_card(text)


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def only(verdict: Verdict, code: str) -> Reason:
    """The single failing reason with this code."""
    found = [r for r in verdict.failures if r.code == code]
    assert len(found) == 1, (code, verdict.codes)
    return found[0]


def assert_names_its_cards(reason: Reason) -> None:
    for card in set(reason.cards):
        assert str(card) in reason.message, (str(card), reason.message)


# --- one test per reason code -------------------------------------------------------------
# (variant, cards, code, rule, cards at fault)

REASON_CASES = [
    ("too_few_cards", HUNGARIAN, "9♠ 9♥", "H4", "9♠ 9♥"),
    ("too_few_cards", ROMMI, "Q♥ K♥", "R3", "Q♥ K♥"),
    ("identical_cards", HUNGARIAN, "9♠ 9♠ 9♥", "H4", "9♠ 9♠"),
    ("identical_cards", ROMMI, "9♠ 9♠ 9♥", "R3", "9♠ 9♠"),
    ("set_rank_mismatch", HUNGARIAN, "9♠ 9♥ 9♦ 10♣", "H4", "10♣"),
    ("set_rank_mismatch", ROMMI, "9♠ 9♥ 10♥", "R3", "10♥"),
    ("set_too_large", HUNGARIAN, "9♠ 9♥ 9♦ 9♣ 🃏", "H4", "9♠ 9♥ 9♦ 9♣ 🃏"),
    ("set_too_large", HUNGARIAN, "9♠ 9♥ 9♦ 9♣ 9♠", "H4", "9♠ 9♥ 9♦ 9♣ 9♠"),
    ("run_suit_mismatch", HUNGARIAN, "8♠ 9♠ 10♠ J♥", "H4", "J♥"),
    ("run_suit_mismatch", ROMMI, "8♠ 9♠ 10♥", "R3", "10♥"),
    ("run_gap", HUNGARIAN, "5♥ 6♥ 8♥", "H4", "5♥ 6♥ 8♥"),
    ("run_gap", HUNGARIAN, "5♥ 🃏 9♥", "H4", "5♥ 🃏 9♥"),
    ("run_gap", ROMMI, "2♣ 3♣ 5♣", "R3", "2♣ 3♣ 5♣"),
    ("run_duplicate_rank", HUNGARIAN, "5♥ 6♥ 7♥ 7♥", "H4", "7♥ 7♥"),
    ("run_duplicate_rank", HUNGARIAN, "A♠ 2♠ 3♠ A♠", "H4", "A♠ A♠"),
    ("run_wraps", HUNGARIAN, "K♠ A♠ 2♠", "H4", "K♠ A♠ 2♠"),
    ("run_wraps", ROMMI, "K♥ A♥ 2♥", "R3", "K♥ A♥ 2♥"),
    ("ace_low_not_allowed", ROMMI, "A♥ 2♥ 3♥", "R3", "A♥"),
    ("ace_low_not_allowed", ROMMI_ACE_HIGH, "A♥ 2♥ 3♥ 4♥", "R3", "A♥"),
    # a house rule forbids it, not H4 (which allows Q-K-A): no rule is cited
    ("ace_high_not_allowed", ACE_LOW_ONLY, "Q♥ K♥ A♥", None, "A♥"),
    ("too_many_jokers", HUNGARIAN, "5♥ 🃏 🃏", "H5", "🃏 🃏"),
    ("jokers_not_allowed", ROMMI, "5♥ 🃏 7♥", "R1", "🃏"),
    ("not_in_deck", ROMMI, "9♠ 9♠ 9♥", "R1", "9♠ 9♠"),
    ("not_in_deck", HUNGARIAN, "9♠ 9♠ 9♠", "H1", "9♠ 9♠ 9♠"),
    ("not_in_deck", HUNGARIAN, "🃏 🃏 🃏 🃏 🃏", "H1", "🃏 🃏 🃏 🃏 🃏"),
    ("run_too_long", HUNGARIAN, "A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ 🃏", "H4", None),
]


@pytest.mark.parametrize(
    ("code", "rules", "text", "rule", "at_fault"),
    REASON_CASES,
    ids=[f"{c}-{v.name}-{t}" for c, v, t, _, _ in REASON_CASES],
)
def test_reason_code(
    code: str, rules: Variant, text: str, rule: str | None, at_fault: str | None
) -> None:
    verdict = check_meld(text, rules)
    assert not verdict.ok
    assert code in verdict.codes
    reason = only(verdict, code)
    assert reason.rule == rule
    expected = cards(at_fault) if at_fault else cards(text)
    assert Counter(reason.cards) == Counter(expected)
    assert reason.failing
    assert reason.message
    assert_names_its_cards(reason)
    assert code in CATALOGUE


def test_every_design_reason_code_is_tested() -> None:
    design = {
        "too_few_cards",
        "identical_cards",
        "set_rank_mismatch",
        "set_too_large",
        "run_suit_mismatch",
        "run_gap",
        "run_duplicate_rank",
        "run_wraps",
        "ace_low_not_allowed",
        "ace_high_not_allowed",
        "too_many_jokers",
        "jokers_not_allowed",
        "not_in_deck",
    }
    assert design <= {code for code, *_ in REASON_CASES}
    assert design <= set(CATALOGUE)


def test_run_gap_names_the_missing_card() -> None:
    reason = only(check_meld("5♥ 6♥ 8♥"), "run_gap")
    assert "7♥" in reason.message
    reason = only(check_meld("5♥ 🃏 9♥"), "run_gap")
    for missing in ("6♥", "7♥", "8♥"):
        assert missing in reason.message
    assert "joker" in reason.message


def test_not_in_deck_says_how_many_the_deck_has() -> None:
    reason = only(check_meld("9♠ 9♠ 9♥", ROMMI), "not_in_deck")
    assert "one deck" in reason.message and "only one 9♠" in reason.message
    assert "two" in reason.message
    reason = only(check_meld("9♠ 9♠ 9♠"), "not_in_deck")
    assert "two decks" in reason.message and "three" in reason.message


def test_an_invalid_meld_is_explained_from_both_sides() -> None:
    # not a set (10♥ is not a 9) and not a run (9♠ is not a heart)
    verdict = check_meld("9♠ 9♥ 10♥")
    assert set(verdict.codes) == {"set_rank_mismatch", "run_suit_mismatch"}
    assert only(verdict, "set_rank_mismatch").cards == (C("10♥"),)
    assert "not a 9" in only(verdict, "set_rank_mismatch").message
    assert only(verdict, "run_suit_mismatch").cards == (C("9♠"),)
    assert "heart" in only(verdict, "run_suit_mismatch").message


def test_every_reason_that_applies_is_listed() -> None:
    # Rommi: two 9♠ are more than its one deck holds, and identical cards never count
    verdict = check_meld("9♠ 9♠ 9♥", ROMMI)
    assert set(verdict.codes) == {"not_in_deck", "identical_cards"}
    # Hungarian: five cards are too many for a set, and two 9♠ never count
    verdict = check_meld("9♠ 9♥ 9♦ 9♣ 9♠")
    assert set(verdict.codes) == {"identical_cards", "set_too_large"}


# --- the examples of issue 2 and the rulebooks --------------------------------------------


def test_H4_king_ace_two_wraps() -> None:
    verdict = check_meld("K♠ A♠ 2♠")
    assert not verdict
    assert verdict.kind is None and verdict.points is None
    assert verdict.codes == ("run_wraps",)
    reason = verdict.failures[0]
    assert reason.rule == "H4"
    assert set(reason.cards) == set(cards("K♠ A♠ 2♠"))
    assert_names_its_cards(reason)
    assert "A-2-3" in reason.message and "Q-K-A" in reason.message  # what is allowed instead


@pytest.mark.parametrize("text", ["Q♠ K♠ A♠ 2♠", "K♠ A♠ 2♠ 3♠", "J♥ Q♥ K♥ A♥ 2♥ 3♥", "3♥ A♥ K♥ 2♥"])
def test_H4_longer_runs_through_the_ace_wrap(text: str) -> None:
    verdict = check_meld(text)
    assert verdict.codes == ("run_wraps",)
    assert verdict.failures[0].rule == "H4"


def test_H4_H5_joker_between_king_and_two_wraps_and_names_the_ace() -> None:
    verdict = check_meld("K♥ 🃏 2♥")
    assert verdict.codes == ("run_wraps",)
    reason = verdict.failures[0]
    assert reason.rule == "H4"
    assert "A♥" in reason.message  # the joker would have to be the A♥
    assert "K-A-2" in reason.message
    assert_names_its_cards(reason)


def test_H4_H5_joker_as_the_ace_in_a_longer_wrap() -> None:
    verdict = check_meld("Q♠ K♠ 🃏 2♠")
    assert verdict.codes == ("run_wraps",)
    assert "A♠" in verdict.failures[0].message


@pytest.mark.parametrize(
    ("text", "points"),
    [("A♥ 2♥ 3♥", 10 + 2 + 3), ("Q♥ K♥ A♥", 10 + 10 + 10), ("3♥ A♥ 2♥", 15)],
)
def test_H4_ace_at_either_end_is_valid_in_hungarian(text: str, points: int) -> None:
    verdict = check_meld(text)
    assert verdict.ok and bool(verdict)
    assert verdict.kind == "run"
    assert verdict.points == points
    assert verdict.failures == ()


@pytest.mark.parametrize("rules", [ROMMI, ROMMI_ACE_HIGH], ids=["rommi", "rommi-ace_high"])
def test_R3_ace_low_not_allowed_in_rommi(rules: Variant) -> None:
    verdict = check_meld("A♥ 2♥ 3♥", rules)
    assert verdict.codes == ("ace_low_not_allowed",)
    reason = verdict.failures[0]
    assert reason.rule == "R3"
    assert reason.cards == (C("A♥"),)
    assert "A♥ 2♥ 3♥" in reason.message
    assert "Q-K-A" in reason.message  # what Rommi allows instead


def test_R3_queen_king_ace_is_valid_in_rommi() -> None:
    verdict = check_meld("Q♥ K♥ A♥", ROMMI)
    assert verdict.ok and verdict.kind == "run"
    assert verdict.points == 10 + 10 + 1  # R8: the ace is worth 1


@pytest.mark.parametrize("rules", [HUNGARIAN, ROMMI], ids=["hungarian", "rommi"])
def test_H4_R3_king_ace_two_illegal_in_both(rules: Variant) -> None:
    verdict = check_meld("K♥ A♥ 2♥", rules)
    assert verdict.codes == ("run_wraps",)
    assert verdict.failures[0].rule == rules.rule("meld")


def test_H4_identical_cards_never_count() -> None:
    verdict = check_meld("9♠ 9♠ 9♥")
    assert verdict.codes == ("identical_cards",)  # two 9♠ exist in Hungarian: no deck fault
    reason = verdict.failures[0]
    assert reason.rule == "H4"
    assert reason.cards == (C("9♠"), C("9♠"))
    assert "9♠" in reason.message


def test_H4_set_holds_at_most_four() -> None:
    verdict = check_meld("9♠ 9♥ 9♦ 9♣ 🃏")
    assert verdict.codes == ("set_too_large",)
    reason = verdict.failures[0]
    assert reason.rule == "H4"
    assert "four" in reason.message and "five" in reason.message
    assert check_meld("9♠ 9♥ 9♦ 9♣").ok


def test_H5_one_joker_per_meld() -> None:
    verdict = check_meld("5♥ 🃏 🃏")
    assert verdict.codes == ("too_many_jokers",)
    reason = verdict.failures[0]
    assert reason.rule == "H5"
    assert reason.cards == (JOKER, JOKER)
    assert "two" in reason.message and "one" in reason.message


@pytest.mark.parametrize(
    "text", ["5♥ 🃏 7♥", "🃏 9♠ 9♥", "🃏 2♥ 3♥", "Q♥ K♥ 🃏", "🃏 🃏 🃏", "Jk 4c 5c 6c"]
)
@pytest.mark.parametrize("rules", [ROMMI, ROMMI_ACE_HIGH], ids=["rommi", "rommi-ace_high"])
def test_R1_any_joker_is_refused_in_rommi(text: str, rules: Variant) -> None:
    verdict = check_meld(text, rules)
    assert not verdict.ok
    reason = only(verdict, "jokers_not_allowed")
    assert reason.rule == "R1"
    assert set(reason.cards) == {JOKER}
    assert len(reason.cards) == text.count("🃏") + text.count("Jk")
    assert "🃏" in reason.message
    # the joker alone is at fault: it is not also counted against the deck
    assert "not_in_deck" not in verdict.codes


def test_H5_H8_joker_stands_for_the_six_and_counts_as_it() -> None:
    verdict = check_meld("5♥ 🃏 7♥")
    assert verdict.ok and verdict.kind == "run"
    assert verdict.jokers == ((C("6♥"),),)
    assert verdict.points == 5 + 6 + 7 == 18
    text = str(verdict)
    assert "6♥" in text and "18" in text
    assert {"H4", "H5", "H8"} <= set(verdict.rules)


def test_H4_thirteen_card_run_ace_to_king_is_valid() -> None:
    run = " ".join(f"{r}♥" for r in ["A", 2, 3, 4, 5, 6, 7, 8, 9, 10, "J", "Q", "K"])
    verdict = check_meld(run)
    assert verdict.ok and verdict.kind == "run"
    assert verdict.points == 10 + sum(range(2, 11)) + 3 * 10
    assert len(verdict.cards) == 13
    # in Rommi the same cards are the run 2 … K-A (the ace high)
    assert check_meld(run, ROMMI).ok
    # and in reverse order
    assert check_meld(" ".join(reversed(run.split()))).ok


@pytest.mark.parametrize("rules", [HUNGARIAN, ROMMI], ids=["hungarian", "rommi"])
def test_H4_fourteen_card_run_ace_to_ace_is_not(rules: Variant) -> None:
    run = " ".join(f"{r}♥" for r in ["A", 2, 3, 4, 5, 6, 7, 8, 9, 10, "J", "Q", "K", "A"])
    verdict = check_meld(run, rules)
    assert not verdict.ok
    reason = only(verdict, "run_duplicate_rank")
    assert reason.cards == (C("A♥"), C("A♥"))
    assert reason.rule == rules.rule("meld")
    assert "never both" in reason.message


def test_H4_thirteen_cards_and_a_joker_is_too_long() -> None:
    verdict = check_meld("A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ 🃏")
    assert verdict.codes == ("run_too_long",)
    assert "13" in verdict.failures[0].message


def test_H4_a_set_of_three_nines_is_a_set() -> None:
    verdict = check_meld("9♠ 9♥ 9♦")
    assert verdict.ok and verdict.kind == "set"
    assert verdict.points == 27


def test_H5_joker_in_a_set_of_three_is_one_of_the_missing_suits() -> None:
    verdict = check_meld("🃏 9♥ 9♦")
    assert verdict.ok and verdict.kind == "set"
    assert set(verdict.jokers[0]) == {C("9♠"), C("9♣")}
    assert verdict.points == 27
    # with three natural cards the joker can only be the fourth suit
    assert check_meld("9♠ 9♥ 9♦ 🃏").jokers == ((C("9♣"),),)


def test_H5_ambiguous_joker_lists_every_possibility() -> None:
    verdict = check_meld("🃏 2♥ 3♥")
    assert verdict.ok and verdict.kind == "run"
    assert set(verdict.jokers[0]) == {C("A♥"), C("4♥")}
    assert verdict.points == max(10 + 2 + 3, 2 + 3 + 4)
    text = str(verdict)
    assert "A♥" in text and "4♥" in text
    assert "say which" in text
    # both readings, and the player chooses with joker_as
    readings = meld_readings("🃏 2♥ 3♥")
    assert {r.represents for r in readings} == {cards("A♥ 2♥ 3♥"), cards("2♥ 3♥ 4♥")}
    four = make_meld("🃏 2♥ 3♥", joker_as="4♥")
    assert four.represents == cards("2♥ 3♥ 4♥") and four.points(HUNGARIAN) == 9
    ace = make_meld("🃏 2♥ 3♥", joker_as="A♥")
    assert ace.represents == cards("A♥ 2♥ 3♥") and ace.points(HUNGARIAN) == 15
    assert make_meld("🃏 2♥ 3♥") == ace  # the higher value when nobody says


def test_make_meld_refuses_an_invalid_meld_with_its_verdict() -> None:
    with pytest.raises(IllegalMeld) as info:
        make_meld("K♠ A♠ 2♠")
    assert isinstance(info.value, ValueError)
    assert info.value.verdict.codes == ("run_wraps",)
    with pytest.raises(IllegalMeld):
        make_meld("🃏 2♥ 3♥", joker_as="5♥")


def test_meld_value_object() -> None:
    meld = make_meld("7♥ 5♥ 🃏")
    assert isinstance(meld, Meld)
    assert meld.cards == cards("5♥ 🃏 7♥")  # table order
    assert meld.represents == cards("5♥ 6♥ 7♥")
    assert (meld.kind, meld.suit, meld.start, meld.end) == ("run", "♥", 5, 7)
    assert str(meld) == "5♥ 🃏 7♥"
    high = make_meld("A♥ K♥ Q♥")
    assert high.cards == cards("Q♥ K♥ A♥") and high.end == 14
    assert make_meld("9♦ 9♠ 9♥").cards == cards("9♠ 9♥ 9♦")


def test_input_order_does_not_matter() -> None:
    a, b = check_meld("7♥ 🃏 5♥"), check_meld("5♥ 🃏 7♥")
    assert (a.ok, a.kind, a.points, a.jokers) == (b.ok, b.kind, b.points, b.jokers)
    assert check_meld(["2♠", C("A♠"), "K♠"]).codes == ("run_wraps",)


def test_R8_ace_high_does_not_change_validity_only_value() -> None:
    assert check_meld("Q♥ K♥ A♥", ROMMI_ACE_HIGH).points == 10 + 10 + 11
    assert check_meld("A♠ A♥ A♦", ROMMI).points == 3
    assert check_meld("A♠ A♥ A♦", ROMMI_ACE_HIGH).points == 33


# --- the verdict as text and data ---------------------------------------------------------


@pytest.mark.parametrize("text", ["K♠ A♠ 2♠", "9♠ 9♥ 10♥", "5♥ 🃏 7♥", "🃏 2♥ 3♥", "9♠ 9♥"])
def test_str_verdict_is_a_readable_paragraph(text: str) -> None:
    verdict = check_meld(text)
    paragraph = str(verdict)
    assert "\n" not in paragraph
    assert "Card(" not in paragraph and "Reason(" not in paragraph and "{" not in paragraph
    assert paragraph == verdict.message
    for reason in verdict.reasons:
        assert reason.message in paragraph
        if reason.rule:
            assert f"{reason.message} ({reason.rule})" in paragraph
    assert paragraph.rstrip().endswith((".", ")"))
    assert paragraph[0].isupper() or paragraph[0] in "0123456789AJQK🃏"


def test_str_invalid_verdict_starts_by_saying_what_is_wrong() -> None:
    paragraph = str(check_meld("K♠ A♠ 2♠"))
    assert paragraph.startswith("K♠ A♠ 2♠ is not a valid meld in Hungarian Rummy")
    assert paragraph.endswith("(H4)")


def test_to_dict_is_json_with_a_stable_shape() -> None:
    verdict = check_meld("K♥ 🃏 2♥")
    data = json.loads(json.dumps(verdict.to_dict(), ensure_ascii=False))
    assert {"ok", "kind", "points", "variant", "reasons", "cards", "jokers"} <= set(data)
    assert data["ok"] is False and data["kind"] is None and data["points"] is None
    assert data["variant"] == "hungarian"
    for item in data["reasons"]:
        assert set(item) == {"code", "rule", "message", "cards", "failing"}
        assert all(isinstance(c, str) for c in item["cards"])
        parse_cards(" ".join(item["cards"]))  # the cards read back
    wraps = [r for r in data["reasons"] if r["code"] == "run_wraps"]
    assert len(wraps) == 1 and wraps[0]["rule"] == "H4"
    assert wraps[0]["cards"] == ["K♥", "🃏", "2♥"]

    valid = json.loads(json.dumps(check_meld("5♥ 🃏 7♥", HUNGARIAN).to_dict()))
    assert (valid["ok"], valid["kind"], valid["points"]) == (True, "run", 18)
    assert valid["jokers"] == [["6♥"]]


def test_verdict_truth_is_its_failures() -> None:
    for text in ["K♠ A♠ 2♠", "5♥ 🃏 7♥"]:
        verdict = check_meld(text)
        assert bool(verdict) == verdict.ok == (not verdict.failures)
        assert verdict.highlighted == frozenset(c for r in verdict.failures for c in r.cards)


# --- lay-offs (R6, H8) --------------------------------------------------------------------


def test_R6_layoff_fits_at_either_end() -> None:
    verdict = check_layoff("4♥ 5♥ 6♥", "7♥")
    assert verdict.ok and verdict.kind == "run"
    assert verdict.cards == cards("4♥ 5♥ 6♥ 7♥")
    assert verdict.points == 4 + 5 + 6 + 7
    assert "7♥" in str(verdict)
    both = check_layoff("4♥ 5♥ 6♥", "3♥ 7♥")
    assert both.ok and both.cards == cards("3♥ 4♥ 5♥ 6♥ 7♥")


def test_H5_a_joker_laid_off_says_what_it_stands_for() -> None:
    one = check_layoff("3♠ 4♠ 5♠", "🃏 7♠")
    assert one.ok and [r.code for r in one.reasons] == ["layoff_ok_joker"]
    assert str(one) == ("🃏 7♠ fit onto 3♠ 4♠ 5♠, making 3♠ 4♠ 5♠ 🃏 7♠, the joker as the 6♠. (H5)")
    onto_set = check_layoff("9♠ 9♥ 9♦", "🃏")
    assert str(onto_set) == "🃏 fits onto 9♠ 9♥ 9♦, making 9♠ 9♥ 9♦ 🃏, the joker as the 9♣. (H5)"
    # either end of a run: both readings, each with the card the joker stands for there
    either = check_layoff("3♠ 4♠ 5♠", "🃏")
    assert either.ok and [r.code for r in either.reasons] == ["layoff_ok_joker_open"]
    assert str(either) == (
        "🃏 fits onto 3♠ 4♠ 5♠, making 3♠ 4♠ 5♠ 🃏 with the joker as the 6♠ or "
        "🃏 3♠ 4♠ 5♠ with the joker as the 2♠. (H5)"
    )
    # no joker laid off: the plain sentence
    assert [r.code for r in check_layoff("3♠ 4♠ 5♠", "6♠").reasons] == ["layoff_ok"]


@pytest.mark.parametrize("seed", range(40))
def test_H5_the_named_card_is_the_jokers_place_in_the_grown_meld(seed: int) -> None:
    """Whatever run a joker goes onto, each card the sentence names is what the joker
    stands for in one reading of the result (never a card the meld already holds)."""
    rng = random.Random(seed)
    suit = rng.choice("♠♥♦♣")
    low = rng.randint(2, 10)
    names = {r: str(r) for r in range(2, 11)} | {11: "J", 12: "Q", 13: "K"}
    run = " ".join(f"{names[r]}{suit}" for r in range(low, low + rng.randint(3, 4)))
    verdict = check_layoff(run, "🃏")
    assert verdict.ok, run
    text = str(verdict)
    for reading in verdict.details["readings"]:
        rep = next(r for c, r in zip(reading.cards, reading.represents) if c.is_joker)
        assert f"the joker as the {rep}" in text, (run, text)
        assert str(rep) not in run.split()


def test_R6_layoff_onto_a_set() -> None:
    verdict = check_layoff("9♠ 9♥ 9♦", "9♣")
    assert verdict.ok and verdict.kind == "set" and verdict.points == 36


def test_R6_layoff_of_the_wrong_rank() -> None:
    verdict = check_layoff("9♠ 9♥ 9♦", "10♦")
    assert verdict.codes == ("set_rank_mismatch",)
    reason = verdict.failures[0]
    assert reason.cards == (C("10♦"),)
    assert "10♦" in reason.message and "9" in reason.message
    assert "10♦" in str(verdict) and "9♠ 9♥ 9♦" in str(verdict)


def test_R6_layoff_of_an_identical_card_onto_a_set() -> None:
    verdict = check_layoff("9♠ 9♥ 9♦", "9♠")
    assert verdict.codes == ("identical_cards",)


def test_R6_layoff_that_leaves_a_gap() -> None:
    verdict = check_layoff("4♥ 5♥ 6♥", "8♥")
    assert verdict.codes == ("run_gap",)
    assert "7♥" in verdict.failures[0].message


def test_R6_layoff_of_another_suit() -> None:
    verdict = check_layoff("4♥ 5♥ 6♥", "7♠")
    assert "run_suit_mismatch" in verdict.codes
    assert only(verdict, "run_suit_mismatch").cards == (C("7♠"),)


def test_H4_layoff_that_would_wrap() -> None:
    verdict = check_layoff("Q♥ K♥ A♥", "2♥")
    assert verdict.codes == ("run_wraps",)
    assert check_layoff("Q♥ K♥ A♥", "J♥").ok


def test_R3_R6_rommi_layoffs_follow_the_ace_rule() -> None:
    assert check_layoff("J♥ Q♥ K♥", "A♥", ROMMI).ok
    verdict = check_layoff("2♥ 3♥ 4♥", "A♥", ROMMI)
    assert verdict.codes == ("ace_low_not_allowed",)
    assert verdict.failures[0].rule == "R3"
    verdict = check_layoff("4♥ 5♥ 6♥", "🃏", ROMMI)
    assert verdict.codes == ("jokers_not_allowed",)
    assert verdict.failures[0].rule == "R1"


def test_H5_layoff_cannot_move_a_joker_in_a_run() -> None:
    # 5♥ 🃏 7♥: the joker is the 6♥; laying off the real 6♥ would need it to move
    verdict = check_layoff("5♥ 🃏 7♥", "6♥")
    assert verdict.codes == ("layoff_moves_joker",)
    reason = verdict.failures[0]
    assert reason.rule == "H5"
    assert reason.cards == (C("6♥"),)
    assert "6♥" in reason.message and "exchange" in reason.message
    # but the run grows at its ends, the joker keeping its meaning
    grown = check_layoff("5♥ 🃏 7♥", "8♥")
    assert grown.ok and grown.jokers == ((C("6♥"),),)
    assert grown.points == 5 + 6 + 7 + 8


def test_H5_joker_meaning_is_fixed_once_laid_down() -> None:
    as_four = make_meld("🃏 2♥ 3♥", joker_as="4♥")
    as_ace = make_meld("🃏 2♥ 3♥", joker_as="A♥")
    # the joker is the 4♥: the A♥ fits below, the 5♥ above, the 4♥ itself does not
    fits = check_layoff(as_four, "A♥")
    assert fits.ok and fits.jokers == ((C("4♥"),),)
    assert fits.points == 10 + 2 + 3 + 4
    assert check_layoff(as_four, "5♥").ok
    assert check_layoff(as_four, "4♥").codes == ("layoff_moves_joker",)
    # the joker is the A♥: the 4♥ fits, the A♥ does not
    assert check_layoff(as_ace, "4♥").ok
    assert not check_layoff(as_ace, "A♥").ok


def test_H5_layoff_that_the_joker_could_only_bridge_by_moving() -> None:
    # J♥ Q♥ 🃏 with the joker as K♥: 9♥ would need the joker to become the 10♥
    meld = make_meld("J♥ Q♥ 🃏", joker_as="K♥")
    verdict = check_layoff(meld, "9♥")
    assert not verdict.ok
    reason = verdict.failures[0]
    assert reason.cards == (C("9♥"),)
    assert_names_its_cards(reason)
    assert check_layoff(meld, "10♥").ok


def test_H5_set_joker_narrows_when_a_suit_is_laid_off() -> None:
    meld = make_meld("9♠ 9♥ 🃏")
    assert set(meld.joker_choices[0]) == {C("9♦"), C("9♣")}
    verdict = check_layoff(meld, "9♦")
    assert verdict.ok and verdict.kind == "set"
    assert verdict.jokers == ((C("9♣"),),)  # now it can only be the club
    assert verdict.points == 36
    too_many = check_layoff(meld, "9♦ 9♣")
    assert too_many.codes == ("set_too_large",)


def test_H5_layoff_of_a_second_joker() -> None:
    verdict = check_layoff("4♥ 5♥ 🃏", "🃏")
    assert verdict.codes == ("too_many_jokers",)
    assert check_layoff("4♥ 5♥ 6♥", "🃏").ok


def test_layoff_needs_cards() -> None:
    verdict = check_layoff("4♥ 5♥ 6♥", "")
    assert not verdict.ok
    assert verdict.codes == ("layoff_no_cards",)


# --- the opening (H8) ---------------------------------------------------------------------

OPENING_84 = ["7♥ 8♥ 9♥", "10♠ 10♦ 10♣", "J♣ Q♣ K♣"]
OPENING_36 = ["3♣ 4♣ 5♣", "8♦ 8♠ 8♥"]


def test_H8_opening_of_84() -> None:
    verdict = check_opening(OPENING_84)
    assert verdict.ok
    assert verdict.points == (7 + 8 + 9) + 3 * 10 + 3 * 10 == 84
    text = str(verdict)
    for part in ("24", "30", "84", "51"):
        assert part in text
    assert "H8" in verdict.rules


def test_H8_opening_of_36_is_15_short() -> None:
    verdict = check_opening(OPENING_36)
    assert not verdict.ok
    assert verdict.points == 12 + 24 == 36
    assert verdict.codes == ("opening_short",)
    reason = verdict.failures[0]
    assert reason.rule == "H8"
    assert "36" in reason.message and "51" in reason.message
    assert "15 more" in reason.message
    assert verdict.details["missing"] == 51 - 36


def test_H5_H8_joker_counts_as_the_card_it_stands_for_in_the_opening() -> None:
    verdict = check_opening(["5♥ 🃏 7♥", "K♠ K♥ K♦", "Q♣ Q♦ Q♠"])
    assert verdict.points == 18 + 30 + 30
    assert verdict.ok


def test_H8_opening_with_an_invalid_meld() -> None:
    verdict = check_opening(["K♠ A♠ 2♠", "Q♥ K♥ A♥", "J♣ Q♣ K♣"])
    assert not verdict.ok
    assert "opening_bad_meld" in verdict.codes and "run_wraps" in verdict.codes
    assert verdict.points == 30 + 30  # only the valid melds count
    assert only(verdict, "opening_bad_meld").cards == cards("K♠ A♠ 2♠")


def test_H1_R1_opening_cannot_use_a_card_more_often_than_the_deck_holds() -> None:
    melds = ["9♠ 9♥ 9♦", "9♠ 10♠ J♠"]
    assert check_opening([*melds, "K♣ K♦ K♥"]).ok  # two decks: two 9♠
    verdict = check_opening(melds, ROMMI)
    assert verdict.codes == ("opening_card_reused",)
    assert verdict.failures[0].rule == "R1"
    assert verdict.failures[0].cards == (C("9♠"),)


def test_H8_opening_needs_a_meld() -> None:
    assert check_opening([]).codes == ("opening_none",)


def test_R5_rommi_has_no_opening_threshold() -> None:
    for melds in (OPENING_36, ["2♣ 3♣ 4♣"]):
        verdict = check_opening(melds, ROMMI)
        assert verdict.ok
        assert "no opening threshold" in str(verdict)
        assert "R5" in verdict.rules


def test_R1_R5_rommi_opening_with_a_joker_blames_only_the_joker() -> None:
    verdict = check_opening(["5♥ 🃏 7♥", "K♠ K♥ K♦"], ROMMI)
    assert not verdict.ok
    assert set(verdict.codes) == {"opening_bad_meld_free", "jokers_not_allowed"}
    assert verdict.points == 30


def test_opening_accepts_meld_objects() -> None:
    melds = [make_meld("🃏 2♥ 3♥", joker_as="4♥"), make_meld("K♠ K♥ K♦"), "Q♣ Q♦ Q♠"]
    verdict = check_opening(melds)
    assert verdict.points == 9 + 30 + 30
    assert verdict.ok


# --- joker readings stay consistent with what is shown ------------------------------------


@pytest.mark.parametrize("suit", SUITS)
def test_joker_choices_are_cards_of_the_runs_suit(suit: str) -> None:
    verdict = check_meld(f"🃏 2{suit} 3{suit}")
    assert all(c.suit == suit for c in verdict.jokers[0])
    assert {c.rank for c in verdict.jokers[0]} == {1, 4}


# --- every sentence true (issue 11): regression tests with the issue's own inputs ----------

TWO_JOKERS = HUNGARIAN.derive(jokers_per_meld=2)


def names(text: str) -> set[str]:
    """The cards a sentence names."""
    return set(re.findall(r"(?:10|[2-9AJQK])[♠♥♦♣]", text))


@pytest.mark.parametrize(
    ("text", "allowed"),
    [("2♣ 7♦ K♠", set()), ("2♠ 5♥ 7♥", {"6♥"}), ("6♥ 5♥ J♣", set())],
)
def test_H4_a_gap_is_only_named_between_two_cards_of_one_suit(text: str, allowed: set[str]) -> None:
    verdict = check_meld(text)
    named = set().union(*(names(r.message) for r in verdict.reasons)) - names(text)
    assert named == allowed, str(verdict)
    gaps = [r for r in verdict.failures if r.code == "run_gap"]
    if allowed:  # 5♥ 7♥ skip the 6♥; the 2♠ is not of their suit and is left out of it
        (gap,) = gaps
        assert gap.message.startswith("5♥ 7♥ skips the 6♥")
        assert C("2♠") not in gap.cards
    else:
        assert gaps == []


def test_H4_three_different_suits_are_said_to_differ() -> None:
    reason = only(check_meld("9♠ 10♥ J♦"), "run_suit_mismatch")
    assert "three different suits" in reason.message
    assert "spade" not in reason.message
    assert set(reason.cards) == set(cards("9♠ 10♥ J♦"))
    tied = only(check_meld("9♠ 10♠ J♥ Q♥"), "run_suit_mismatch")
    assert "spades and hearts" in tied.message


def test_H4_the_irrelevant_reading_is_left_out() -> None:
    # 8♠ 9♠ 10♥ is nearly a run; no two of its cards share a rank, so no "not a set"
    verdict = check_meld("8♠ 9♠ 10♥")
    assert verdict.codes == ("run_suit_mismatch",)
    assert only(verdict, "run_suit_mismatch").cards == (C("10♥"),)
    # when both readings are as near, both are explained, the nearer first
    assert check_meld("9♠ 9♥ 10♥").codes == ("set_rank_mismatch", "run_suit_mismatch")
    assert check_meld("7♥ 8♥ 9♥ 9♠").codes[0] == "run_suit_mismatch"


def test_H5_more_gaps_than_jokers_is_said_that_way() -> None:
    message = only(check_meld("5♥ 🃏 9♥"), "run_gap").message
    assert "three gaps and only one joker" in message
    assert "more than one joker can fill" not in message
    two = only(check_meld("3♥ 🃏 🃏 7♥", TWO_JOKERS), "run_gap").message
    assert "three gaps and only two jokers" in two


def test_H4_a_duplicated_card_is_called_a_duplicate() -> None:
    reason = only(check_meld("A♥ 2♥ 3♥ A♥"), "run_duplicate_rank")
    assert reason.message == "A♥ appears twice: each rank stands once in a run."
    # only an ace needed at both ends is "low or high, never both"
    full = "A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥"
    assert "never both" in only(check_meld(full), "run_duplicate_rank").message


def test_H4_an_eight_card_double_set_says_each_problem_once() -> None:
    verdict = check_meld("9♠ 9♥ 9♦ 9♣ 9♠ 9♥ 9♦ 9♣")
    assert verdict.codes == ("identical_cards", "set_too_large")
    twice = only(verdict, "identical_cards")
    assert twice.message.startswith("9♠, 9♥, 9♦ and 9♣ each appear twice")
    assert Counter(twice.cards) == Counter(cards("9♠ 9♥ 9♦ 9♣ 9♠ 9♥ 9♦ 9♣"))
    rommi = check_meld("9♠ 9♥ 9♦ 9♣ 9♠ 9♥ 9♦ 9♣", ROMMI)
    assert rommi.codes.count("not_in_deck") == 1
    assert "two 9♠, two 9♥, two 9♦ and two 9♣" in only(rommi, "not_in_deck").message


def test_an_empty_meld_has_no_empty_subject() -> None:
    verdict = check_meld("")
    assert verdict.codes == ("too_few_cards",)
    assert str(verdict) == "A meld needs at least three cards; none were given. (H4)"
    opening = check_opening(["", "7♥ 8♥ 9♥"])
    assert all(r.message[0].isupper() or r.message[0].isdigit() for r in opening.reasons)


@pytest.mark.parametrize(
    ("rules", "words"),
    [
        (HUNGARIAN.derive(ace_above_king=False), "Hungarian Rummy with no ace above the king"),
        (HUNGARIAN.derive(ace_low=False), "Hungarian Rummy with no ace below the 2"),
        (HUNGARIAN.derive(jokers_per_meld=2), "Hungarian Rummy with up to two jokers in a meld"),
        (ROMMI.derive(ace_low=True), "Rommi with the ace also below the 2"),
    ],
)
def test_house_rules_are_named_in_words(rules: Variant, words: str) -> None:
    for text in ("Q♥ K♥ A♥", "A♥ 2♥ 3♥", "K♠ A♠ 2♠", "3♥ 🃏 🃏 7♥", "A♥ 2♥ 4♥"):
        paragraph = str(check_meld(text, rules))
        assert "=" not in paragraph and "_" not in paragraph, paragraph
        if "is not a valid meld" in paragraph:
            assert f"is not a valid meld in {words}." in paragraph


def test_a_house_rule_decision_cites_no_rule() -> None:
    # H4 allows Q-K-A: forbidding it is the house rule's doing, and no rule is cited
    verdict = check_meld("Q♥ K♥ A♥", HUNGARIAN.derive(ace_above_king=False))
    assert verdict.rules == ()
    assert "no ace above the king" in only(verdict, "ace_high_not_allowed").message
    # a house rule that doesn't decide leaves the citation: Rommi's A-2-3 is R3's doing
    assert check_meld("A♥ 2♥ 3♥", ROMMI_ACE_HIGH).failures[0].rule == "R3"
    # two jokers: H5 allows one, so the joker reasons cite nothing
    assert "H5" not in check_meld("5♥ 🃏 🃏", TWO_JOKERS).rules


def test_R3_rommi_calls_a_set_a_group() -> None:
    assert str(check_meld("9♠ 9♥ 9♦", ROMMI)) == "9♠ 9♥ 9♦ is a group of 9s. (R3)"
    assert only(check_meld("9♠ 9♥ 10♥", ROMMI), "set_rank_mismatch").message.startswith(
        "Not a group:"
    )
    assert "in a group" in only(check_meld("9♠ 9♥ 9♥", ROMMI), "identical_cards").message
    assert "A group holds" in only(check_meld("9♠ 9♥ 9♦ 9♣ 9♠", ROMMI), "set_too_large").message
    assert "is a set of 9s" in str(check_meld("9♠ 9♥ 9♦"))


@pytest.mark.parametrize("text", ["K♥ 🃏 2♥", "4♠ 4♥ 4♦ 4♣ 🃏 A♠", "A♥ 🃏 🃏", "Q♠ 🃏 2♠"])
def test_R1_rommi_never_reasons_about_what_a_joker_would_be(text: str) -> None:
    verdict = check_meld(text, ROMMI)
    assert "jokers_not_allowed" in verdict.codes
    for reason in verdict.reasons:
        if reason.code != "jokers_not_allowed":
            assert "joker" not in reason.message.lower(), reason.message


def test_R5_rommi_says_nothing_of_an_opening() -> None:
    assert "opening" not in str(check_meld("7♥ 8♥ 9♥", ROMMI)).lower()
    verdict = check_opening([], ROMMI)
    assert verdict.codes == ("no_melds",) and verdict.rules == ()
    assert str(verdict) == "Choose at least one meld to lay down."
    bad = check_opening(["K♠ A♠ 2♠", "7♥ 8♥ 9♥"], ROMMI)
    for reason in bad.reasons:
        assert "opening" not in reason.message or reason.code == "opening_not_required"
    assert "7♥ 8♥ 9♥: 24" not in str(bad)  # no values toward an opening that doesn't exist


# --- two jokers in a meld (house rule): every reading as a whole ---------------------------


def test_house_two_jokers_five_and_two_jokers_is_also_a_set() -> None:
    verdict = check_meld("5♥ 🃏 🃏", TWO_JOKERS)
    assert verdict.ok
    readings = verdict.details["readings"]
    assert {m.kind for m in readings} == {"set", "run"}
    whole = {r.message for r in verdict.reasons if r.code in ("reading_run", "reading_set")}
    assert whole == {
        "As a run of hearts from 5 to 7, the jokers are the 6♥ and the 7♥: worth 18.",
        "As a run of hearts from 4 to 6, the jokers are the 4♥ and the 6♥: worth 15.",
        "As a run of hearts from 3 to 5, the jokers are the 3♥ and the 4♥: worth 12.",
        "As a set of 5s, the jokers are two of the missing 5♠, 5♦ and 5♣: worth 15.",
    }
    # never the impossible mix of one joker's meaning with another reading's (3♥ with 7♥)
    assert "3♥ and the 7♥" not in str(verdict)
    assert "four ways" in str(verdict) and "say which" in str(verdict)


def test_house_two_jokers_king_is_a_set_jack_queen_king_or_queen_king_ace() -> None:
    verdict = check_meld("K♥ 🃏 🃏", TWO_JOKERS)
    shapes = {(m.kind, m.represents) for m in verdict.details["readings"]}
    assert shapes == {
        ("set", (C("K♥"), None, None)),
        ("run", cards("J♥ Q♥ K♥")),
        ("run", cards("Q♥ K♥ A♥")),
    }
    text = str(verdict)
    assert "set of kings" in text and "from J to K" in text and "from Q to A" in text


@pytest.mark.parametrize(
    ("joker_as", "kind", "represents"),
    [
        (("J♥", "Q♥"), "run", "J♥ Q♥ K♥"),
        (("Q♥", "J♥"), "run", "J♥ Q♥ K♥"),  # jokers are alike: the order does not matter
        ("J♥ Q♥", "run", "J♥ Q♥ K♥"),
        (("Q♥", "A♥"), "run", "Q♥ K♥ A♥"),
        ("A♥", "run", "Q♥ K♥ A♥"),  # one card names one joker; the other follows
        (("K♠", "K♦"), "set", None),
    ],
)
def test_make_meld_takes_a_meaning_for_each_joker(
    joker_as: str | tuple[str, ...], kind: str, represents: str | None
) -> None:
    meld = make_meld("K♥ 🃏 🃏", TWO_JOKERS, joker_as=joker_as)
    assert meld.kind == kind
    if represents:
        assert meld.represents == cards(represents)
    assert eval(repr(meld), {"make_meld": lambda *a, **k: make_meld(*a, TWO_JOKERS, **k)}) == meld


@pytest.mark.parametrize("joker_as", [("J♥", "A♥"), ("K♠", "J♥"), ("K♠", "K♠"), ("J♥", "Q♥", "A♥")])
def test_make_meld_refuses_meanings_no_reading_has(joker_as: tuple[str, ...]) -> None:
    with pytest.raises(IllegalMeld) as info:
        make_meld("K♥ 🃏 🃏", TWO_JOKERS, joker_as=joker_as)
    assert info.value.verdict.codes == ("joker_as_mismatch",)
    assert "can't be laid down so that" in str(info.value)


def test_make_meld_one_card_form_still_works_and_says_why_not() -> None:
    assert make_meld("🃏 2♥ 3♥", joker_as=C("4♥")).represents == cards("2♥ 3♥ 4♥")
    with pytest.raises(IllegalMeld) as info:
        make_meld("🃏 2♥ 3♥", joker_as="5♥")
    message = str(info.value)
    assert "the joker is the A♥ or the joker is the 4♥" in message
    with pytest.raises(IllegalMeld) as none:
        make_meld("4♥ 5♥ 6♥", joker_as="7♥")
    assert none.value.verdict.codes == ("joker_as_no_joker",)
    assert "leave out" not in str(none.value)


def test_readings_with_picks_the_readings_a_player_names() -> None:
    readings = meld_readings("5♥ 🃏 🃏", TWO_JOKERS)
    assert len(readings) == 4
    assert readings_with(readings, None) == readings
    assert [m.represents for m in readings_with(readings, ("6♥", "7♥"))] == [cards("5♥ 6♥ 7♥")]
    assert {m.kind for m in readings_with(readings, "4♥")} == {"run"}
    assert len(readings_with(readings, "4♥")) == 2  # 3-4-5 and 4-5-6
    assert [m.kind for m in readings_with(readings, "5♣")] == ["set"]
    assert joker_meanings(["6♥", C("7♥")]) == cards("6♥ 7♥")


# --- totals and lay-offs said per meaning ---------------------------------------------------


def test_H5_H8_an_opening_total_is_said_per_meaning_of_the_joker() -> None:
    verdict = check_opening(["🃏 2♥ 3♥", "J♠ Q♠ K♠", "2♦ 2♣ 2♠"])
    text = str(verdict)
    assert "Your melds total 51 if the joker in 🃏 2♥ 3♥ is the A♥ or 45 if it is the 4♥" in text
    assert "say which when you lay it down" in text
    assert "Your melds total 51;" not in text
    assert "🃏 2♥ 3♥: 15 if the joker is the A♥ or 9 if it is the 4♥." in text
    assert verdict.ok and verdict.points == 51
    # named, the meaning is a fact again
    fixed = check_opening([make_meld("🃏 2♥ 3♥", joker_as="4♥"), "J♠ Q♠ K♠", "2♦ 2♣ 2♠"])
    assert not fixed.ok and fixed.points == 45 and "6 more" in str(fixed)
    either = check_opening(["🃏 2♥ 3♥", "J♠ Q♠ K♠", "10♦ 10♣ 10♠"])
    assert either.ok and "you can open either way" in str(either)
    short = check_opening(["🃏 2♥ 3♥", "2♦ 2♣ 2♠"])
    assert not short.ok and "at least 30 more" in str(short)


def test_H5_a_layoff_onto_an_open_joker_says_in_which_reading_it_fits() -> None:
    verdict = check_layoff("🃏 2♥ 3♥", "4♥")
    assert verdict.ok
    first, second = verdict.reasons
    assert first.message == "4♥ fits onto 🃏 2♥ 3♥ if the joker is the A♥, making 🃏 2♥ 3♥ 4♥."
    assert second.message == "If the joker is the 4♥, 4♥ can't go onto 🃏 2♥ 3♥."
    assert verdict.jokers == ((C("A♥"),),)
    # a meld whose joker is named is a fact: no condition
    assert str(check_layoff(make_meld("🃏 2♥ 3♥", joker_as="A♥"), "4♥")) == (
        "4♥ fits onto 🃏 2♥ 3♥, making 🃏 2♥ 3♥ 4♥. (H4)"
    )


def test_R6_melds_never_rearranged_is_cited_only_where_a_rule_says_it() -> None:
    meld = make_meld("5♥ 🃏 🃏", TWO_JOKERS, joker_as=("6♥", "7♥"))
    verdict = check_layoff(meld, "5♠", TWO_JOKERS)
    reason = only(verdict, "layoff_changes_kind")
    assert "never rearranged" in reason.message
    # R6 says it for Rommi; no Hungarian rule does (H6 is the turn's order, H8 the opening)
    assert reason.rule is None
    assert cite("layoff_changes_kind", HUNGARIAN) is None
    assert cite("layoff_changes_kind", ROMMI) == "R6"


def test_layoff_with_no_cards_is_a_help() -> None:
    verdict = check_layoff("4♥ 5♥ 6♥", "")
    assert verdict.failures[0].rule is None
    assert not CATALOGUE["layoff_no_cards"].is_rule


@pytest.mark.parametrize("check", ["meld", "opening"])
def test_a_variant_may_be_named_and_a_wrong_name_is_refused_by_name(check: str) -> None:
    from rummykit.melds import check_meld, check_opening
    from rummykit.variants import ROMMI, VariantError

    if check == "meld":
        assert check_meld("K♠ A♠ 2♠", "rommi") == check_meld("K♠ A♠ 2♠", ROMMI)
        assert check_meld("K♠ A♠ 2♠", " Rommi ").codes == check_meld("K♠ A♠ 2♠", ROMMI).codes
    else:
        melds = ["9♠ 9♥ 9♦", "10♥ J♥ Q♥"]
        assert str(check_opening(melds, "hungarian")) == str(check_opening(melds))
    with pytest.raises(VariantError, match="'poker' is not a variant: choose one of"):
        check_meld("K♠ A♠ 2♠", "poker") if check == "meld" else check_opening([], "poker")
