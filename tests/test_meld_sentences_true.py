"""The last false meld sentences (issue 28), each on its exact input, and a property test that
re-derives every failing reason of a one-suit meld — the gap, the wrap, the ace's place —
with its own reading of the rules (H4, R3 and the house rules ace_low, ace_above_king).
"""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from rummykit import check_meld, check_opening
from rummykit.cards import SUITS, Card, parse_cards
from rummykit.exercises import MeldKind, MeldReason
from rummykit.game import ExchangeJoker, Game, parse_action
from rummykit.variants import HUNGARIAN
from rummykit.variants import variant as get_variant

ROMMI = get_variant("rommi")


# --- each sentence the issue found false, on its input -----------------------------------


def test_the_gap_is_named_on_the_side_rommi_lets_the_ace_stand() -> None:
    verdict = check_meld("A♥ 3♥ 4♥", ROMMI)
    said = str(verdict)
    assert "skips the 2♥" not in said  # A-2-3 is never a Rommi run
    assert verdict.codes == ("ace_low_not_allowed", "run_gap")
    assert "puts the ace below the 2" in said and "the 5♥ to the K♥" in said


def test_the_exercise_marks_the_true_reason_right() -> None:
    exercise = MeldReason("A♥ 3♥ 4♥", "rommi")
    letters = {line[0]: line[3:] for line in exercise.prompt.splitlines()[1:]}
    ace = next(k for k, v in letters.items() if "below the 2" in v)
    assert exercise.check(ace).correct


def test_no_ace_below_the_2_names_the_gap_above_the_king() -> None:
    said = str(check_meld("6♦ 7♦ 8♦ A♦", get_variant("hungarian", ace_low=False)))
    assert "the 2♦ to the 5♦" not in said
    assert "skips 5 cards, the 9♦ to the K♦" in said


def test_no_ace_above_the_king_names_the_gap_below_the_2() -> None:
    said = str(check_meld("Q♠ A♠ J♠", get_variant("hungarian", ace_above_king=False)))
    assert "skips the K♠" not in said
    assert "puts the ace above the king" in said and "the 2♠ to the 10♠" in said


def test_a_gap_never_runs_over_a_card_of_the_meld() -> None:
    said = str(check_meld("3♥ 7♥ J♥"))
    assert "the 4♥ to the 10♥" not in said  # the 7♥ is in the meld
    assert "skips 6 cards, the 4♥ to the 6♥ and the 8♥ to the 10♥" in said


def test_a_wrap_and_a_run_over_13_cards_cite_their_rule_under_every_house_rule() -> None:
    for rules in (
        get_variant("hungarian", ace_above_king=False),
        get_variant("hungarian", ace_low=False),
        get_variant("hungarian", jokers_per_meld=2),
    ):
        assert check_meld("Q♦ K♦ A♦ 2♦", rules).rules == ("H4",), rules
    too_long = check_meld(
        "A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ 🃏",
        get_variant("hungarian", ace_above_king=False),
    )
    assert too_long.codes == ("run_too_long",) and too_long.rules == ("H4",)


def test_an_opening_with_enough_points_and_a_bad_meld_says_no_zero_more() -> None:
    verdict = check_opening(["9♠ 7♠ 8♠", "🃏 Q♣ Q♦", "9♣ 3♦ 8♠"])
    said = str(verdict)
    assert "0 more" not in said and not verdict.ok
    assert "Your valid melds total 54 (an opening needs 51), but this opening can't go down" in said


def test_a_two_joker_meld_that_reads_as_a_run_or_a_set_is_either() -> None:
    exercise = MeldKind("6♥ 🃏 🃏", get_variant("hungarian", jokers_per_meld=2))
    assert exercise.check("set").correct and exercise.check("run").correct
    assert not exercise.check("no meld").correct
    assert "a run or a set" in str(exercise.check("no meld"))


def test_an_exchange_refusal_names_every_jokers_card() -> None:
    rules = get_variant("hungarian", jokers_per_meld=2)
    game = Game.from_position(
        rules,
        hands=["9♥ 2♣ 3♣ 4♦", "2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠"],
        discard="10♦",
        table=[(1, "5♥ 🃏 🃏 8♥")],
        current=0,
        phase="play",
        opened=[True, True],
        turns=[3, 3],
    )
    said = str(game.check(ExchangeJoker(Card("9♥"), 0)))
    assert "the 6♥ and the 7♥" in said and "not the 9♥" in said


def test_without_a_cut_card_taking_it_says_there_is_none() -> None:
    game = Game.from_position(
        "hungarian",
        hands=["9♥ 2♣ 3♣ 4♦", "2♠ 3♠ 4♠ 5♠"],
        discard="10♦",
        current=0,
        turns=[3, 3],
    )
    said = str(game.check(parse_action("take cut")))
    assert "has already been taken" not in said
    assert "There is no cut card beside the stock to take." in said


# --- every failing reason re-derived ----------------------------------------------------------

HIGH = 14


def _windows(ranks: set[int], ace_low: bool, ace_high: bool) -> list[tuple[str | None, list[int]]]:
    """Each place the ace may take (None: no ace), with the positions the cards then hold."""
    if 1 not in ranks:
        return [(None, sorted(ranks))]
    others = sorted(ranks - {1})
    places = []
    if ace_low:
        places.append(("low", [1, *others]))
    if ace_high:
        places.append(("high", [*others, HIGH]))
    return places


def _all_places(ranks: set[int]) -> list[tuple[str | None, list[int]]]:
    return _windows(ranks, True, True)


def _missing(positions: list[int]) -> list[int]:
    return [p for p in range(positions[0], positions[-1] + 1) if p not in positions]


def _wraps(ranks: set[int]) -> bool:
    """K, A and 2 all there, and the ranks fill a stretch that runs round the corner."""
    if not {13, 1, 2} <= ranks:
        return False
    n = len(ranks)
    for start in range(1, 14):
        window = {(start - 1 + i) % 13 + 1 for i in range(n)}
        if window == ranks:
            return True
    return False


def _cards_named(sentence: str, suit: str) -> set[int]:
    """The ranks a gap sentence names: single cards and stretches "the X to the Y"."""
    names = {"A": 1, "J": 11, "Q": 12, "K": 13}

    def rank(text: str) -> int:
        return names.get(text) or int(text)

    named: set[int] = set()
    gap = sentence.split(" skips ", 1)[1].split(":")[0]
    for first, last in re.findall(rf"the (\w+){suit} to the (\w+){suit}", gap):
        lo, hi = rank(first), rank(last)
        if gap.find(f"the {first}{suit} to") >= 0 and hi < lo:
            hi = HIGH  # the K to the A: above the king
        named |= set(range(lo, hi + 1))
        gap = gap.replace(f"the {first}{suit} to the {last}{suit}", "")
    named |= {rank(r) for r in re.findall(rf"the (\w+){suit}", gap)}
    return named


@given(
    ranks=st.sets(st.integers(1, 13), min_size=3, max_size=7),
    suit=st.sampled_from(SUITS),
    ace_low=st.booleans(),
    ace_high=st.booleans(),
)
def test_every_failing_reason_of_a_one_suit_meld_is_true(
    ranks: set[int], suit: str, ace_low: bool, ace_high: bool
) -> None:
    rules = HUNGARIAN.derive(ace_low=ace_low, ace_above_king=ace_high)
    cards = [Card(r, suit) for r in sorted(ranks)]
    verdict = check_meld(cards, rules)
    allowed = _windows(ranks, ace_low, ace_high)
    valid = any(not _missing(p) for _, p in allowed)
    assert verdict.ok == valid, (cards, verdict.codes)
    if valid:
        return
    codes = set(verdict.codes)
    anywhere = [not _missing(p) for _, p in _all_places(ranks)]
    if _wraps(ranks) and not any(anywhere):
        assert codes == {"run_wraps"}, (cards, verdict.codes)
        assert verdict.rules == ("H4",)
        return
    if any(anywhere):  # a run, but with the ace where these rules forbid it
        assert codes <= {"ace_low_not_allowed", "ace_high_not_allowed"} and codes, verdict.codes
        return
    # a gap: named where the ace may stand, the fewest cards missing
    closest = min(_all_places(ranks), key=lambda p: (len(_missing(p[1])), p not in allowed))
    if closest not in allowed:
        wanted = "ace_low_not_allowed" if closest[0] == "low" else "ace_high_not_allowed"
        assert wanted in codes, (cards, verdict.codes)
    if allowed:
        assert "run_gap" in codes, (cards, verdict.codes)
        gap = next(r for r in verdict.failures if r.code == "run_gap")
        best = min((_missing(p) for _, p in allowed), key=len)
        named = _cards_named(gap.render("en"), suit)
        assert named == set(best), (cards, gap.render("en"), best)
        assert not named & {(HIGH if r == 1 else r) for r in ranks} - {1}, "a meld card named"
    else:
        assert "run_gap" not in codes


def test_a_gap_sentence_names_no_card_of_the_meld_over_many_melds() -> None:
    for text in ["3♥ 7♥ J♥", "2♠ 5♠ 6♠ 9♠", "A♣ 4♣ 9♣ Q♣", "K♦ 3♦ 8♦"]:
        cards = parse_cards(text)
        for rules in (HUNGARIAN, ROMMI):
            for reason in check_meld(cards, rules).failures:
                if reason.code == "run_gap":
                    gap = reason.render("en").split(" skips ", 1)[1].split(":")[0]
                    stretches = re.findall(r"the (\w+.) to the (\w+.)", gap)
                    singles = set(re.findall(r"the (\w+.)", gap)) - {a for a, _ in stretches}
                    in_meld = {str(c) for c in cards}
                    assert not singles & in_meld, (text, gap)
