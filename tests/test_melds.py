"""Meld checks that explain themselves: every reason code, every rule example, lay-offs, opening.

Scenario tests are named after the rule they prove (``test_H4_…``, ``test_R3_…``), so the
rulebooks in ``shared/rules`` and these tests can be read side by side.
"""

from __future__ import annotations

import json
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
from rummykit.explain import CATALOGUE

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
